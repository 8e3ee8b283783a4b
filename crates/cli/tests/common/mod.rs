//! What the command's tests share: running the binary, reading its output, temporary
//! files, and the variants. Each test file uses a part.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Every game and variant.
pub const VARIANTS: [(&str, &str); 5] = [
    ("kaibosh", "standard"),
    ("bid-euchre", "alexa"),
    ("bid-euchre", "simplified"),
    ("kout", "kout6"),
    ("kout", "kout4"),
];

/// A Kaibosh deal of one suit to each seat: spades, hearts, diamonds, clubs.
pub const KAIBOSH_DEAL: &str = r#"[["9S","TS","JS","QS","KS","AS"],["9H","TH","JH","QH","KH","AH"],["9D","TD","JD","QD","KD","AD"],["9C","TC","JC","QC","KC","AC"]]"#;

/// Runs `calltrump ARGS` with `stdin`.
pub fn calltrump(args: &[&str], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_calltrump"));
    command.args(args);
    run(command, stdin)
}

/// Runs `command` with `stdin`, collecting its output.
pub fn run(mut command: Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The child may stop reading early (a game that ends); a closed pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// Output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A file in a folder of this test process's own.
pub fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "calltrump-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `calltrump ARGS` with `stdin`, which must succeed: its standard output.
pub fn succeeds(args: &[&str], stdin: &str) -> String {
    let out = calltrump(args, stdin);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The records of `games` games of `game` in `variant` simulated from `seed` between
/// `bots`, with `extra` flags: one a line.
pub fn simulated(
    (game, variant): (&str, &str),
    games: u64,
    seed: u64,
    bots: &str,
    extra: &[&str],
) -> Vec<String> {
    let path = temp_path(&format!("{game}-{variant}-{games}-{seed}-{bots}.jsonl"));
    let (games, seed) = (games.to_string(), seed.to_string());
    let mut args = vec![
        "simulate",
        "--game",
        game,
        "--variant",
        variant,
        "--games",
        &games,
        "--seed",
        &seed,
        "--bots",
        bots,
        "--records",
    ];
    args.push(path.to_str().unwrap());
    args.extend_from_slice(extra);
    succeeds(&args, "");
    let lines = std::fs::read_to_string(&path).unwrap();
    lines.lines().map(str::to_string).collect()
}

/// The words of a command line, for the arguments of [`calltrump`]: `"replay --show -"`.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The JSON standard output of a run that must have succeeded.
pub fn json_out(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `calltrump ARGS` with `stdin`, which must succeed: its output as JSON.
pub fn json_of(args: &[&str], stdin: &str) -> serde_json::Value {
    json_out(&calltrump(args, stdin))
}

/// `calltrump replay -` of `record`, which must succeed: the replay as JSON.
pub fn replayed(record: &str) -> serde_json::Value {
    json_of(&["replay", "-"], record)
}

/// Runs `calltrump ARGS` with `stdin`, which must exit 1: its error output.
pub fn fails(args: &[&str], stdin: &str) -> String {
    let out = calltrump(args, stdin);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?}: {}",
        text(&out.stdout)
    );
    text(&out.stderr)
}
