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
