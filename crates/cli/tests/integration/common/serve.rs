//! `calltrump serve` as a child process of a test: started with the test's arguments, the
//! address it says it serves at, and a table of `join` bots on it.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use super::http;

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

/// A Bid Euchre table of four open seats (4 deals) made at `addr`, and a `join` bot
/// (level `rules`, seeded by its seat) at each, seat `i` joining through the server at
/// `through(i)`: the table's id and the bots.
pub fn table_of_join_bots(addr: &str, through: impl Fn(usize) -> String) -> (String, Vec<Child>) {
    table_of_join_bots_dealing(addr, 4, through)
}

/// [`table_of_join_bots`], a game of `deals` deals.
pub fn table_of_join_bots_dealing(
    addr: &str,
    deals: u32,
    through: impl Fn(usize) -> String,
) -> (String, Vec<Child>) {
    let table =
        format!(r#"{{"game":"bid-euchre","variant":"alexa","options":{{"deals":{deals}}}}}"#);
    let (status, body) = http(addr, "POST", "/api/tables", &table);
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let bots = created["invites"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, invite)| {
            let url = invite["url"].as_str().unwrap().replace(addr, &through(i));
            Command::new(env!("CARGO_BIN_EXE_calltrump"))
                .args(["join", &url, "--level", "rules"])
                .args(["--seed", &i.to_string(), "--patience-secs", "60"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    (id, bots)
}
