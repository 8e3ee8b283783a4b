//! What the command's tests share: running the binary, reading its output, temporary
//! files, and the variants.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

pub mod serve;

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

/// Input for `calltrump play` that takes the first choice at `n` prompts or more: `p`
/// passes in an auction (where a number alone is a bid) and `1` takes the first item
/// of any other menu (and cuts at 1); each is refused where the other is meant.
pub fn first_choices(n: usize) -> String {
    "p\n1\n".repeat(n)
}

/// Runs `calltrump ARGS` with `stdin`.
pub fn calltrump(args: &[&str], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_calltrump"));
    command.args(args);
    run(command, stdin)
}

/// Runs `command` with `stdin`, collecting its output.
pub fn run(mut command: Command, stdin: &str) -> Output {
    // Records saved by default go to a data folder of the test's own, not the user's.
    if !command.get_envs().any(|(key, _)| key == "XDG_DATA_HOME") {
        command.env("XDG_DATA_HOME", temp_path("data"));
    }
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

/// A file in a folder of this test's own (in this test process's).
pub fn temp_path(name: &str) -> PathBuf {
    // The test harness names each test's thread after the test: a folder of each test's
    // own, so that tests running at once never share a file name.
    let test = std::thread::current()
        .name()
        .unwrap_or("main")
        .replace("::", "-");
    let dir = std::env::temp_dir().join(format!(
        "calltrump-{}-{}-{test}",
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

/// The standard output of a run that must have succeeded.
pub fn succeeded(out: &Output) -> String {
    assert!(out.status.success(), "{}", text(&out.stderr));
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
    serde_json::from_str(&succeeded(out)).unwrap()
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

/// A command line that ends with `path`: `"replay --show"` and a file.
pub fn and_path(line: &str, path: &std::path::Path) -> String {
    format!("{line} {}", path.display())
}

/// The JSON in the file at `path`.
pub fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Asserts that `text` contains every one of `parts`.
pub fn assert_contains(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} is not in {text}");
    }
}

/// Runs `calltrump LINE PATH` with `stdin`, PATH a file `name` of this test process's own
/// (`LINE` ends with `--record` or `--records`): the path and the output.
pub fn run_to_file(name: &str, line: &str, stdin: &str) -> (PathBuf, Output) {
    let path = temp_path(name);
    let out = calltrump(&words(&and_path(line, &path)), stdin);
    (path, out)
}

/// [`run_to_file`] without input, which must succeed: the path and the output as JSON.
pub fn json_to_file(name: &str, line: &str) -> (PathBuf, serde_json::Value) {
    let (path, out) = run_to_file(name, line, "");
    (path, json_out(&out))
}

/// A plain HTTP request to `addr`: the status and the body.
pub fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let (_, body) = response.split_once("\r\n\r\n").unwrap();
    (status, body.to_string())
}
