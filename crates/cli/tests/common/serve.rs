//! `calltrump serve` as a child process of a test: started with the test's arguments, and
//! the address it says it serves at.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts `calltrump serve --bot-delay-ms 5 ARGS` (`ARGS` give at least `--addr` and the
/// store): the child and the address its first line prints (`127.0.0.1:PORT`).
pub fn start(args: impl IntoIterator<Item = impl AsRef<OsStr>>) -> (Child, String) {
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_calltrump"))
        .args(["serve", "--bot-delay-ms", "5"])
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("calltrump is serving at http://")
        .unwrap_or_else(|| panic!("serve {args:?}: unexpected first line: {line}"))
        .trim_end_matches('/')
        .to_string();
    (child, addr)
}
