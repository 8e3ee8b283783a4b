//! `calltrump serve` and `calltrump join` as a user starts them: a game of four `join`
//! bots survives the server being killed (SIGKILL) mid-hand and restarted on its data.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use common::{http, replayed};

fn calltrump() -> Command {
    Command::new(env!("CARGO_BIN_EXE_calltrump"))
}

/// Starts `serve` on `addr` with `data`; returns the child and the address it printed.
fn serve(addr: &str, data: &std::path::Path) -> (Child, String) {
    common::serve::start([
        OsStr::new("--addr"),
        OsStr::new(addr),
        OsStr::new("--data"),
        data.as_os_str(),
    ])
}

/// An empty data folder of this test process's own, named `name`.
fn fresh_data_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("calltrump-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn actions(addr: &str) -> u64 {
    let (_, metrics) = http(addr, "GET", "/metrics", "");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("calltrump_actions_total "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn join_bots_finish_a_game_through_a_server_killed_and_restarted() {
    let data = fresh_data_dir("serve");
    let (mut server, addr) = serve("127.0.0.1:0", &data);
    let (id, joins) = common::serve::table_of_join_bots(&addr, |_| addr.clone());
    // Let the game get going, then kill the server without warning.
    let started = Instant::now();
    while actions(&addr) < 20 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the game does not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let killed_at = actions_in_record(&data);
    std::thread::sleep(Duration::from_millis(300));
    // Back on the same address and data: the bots reconnect and finish.
    let (mut server, again) = serve(&addr, &data);
    assert_eq!(again, addr);
    let mut finals = Vec::new();
    for join in joins {
        let output = join.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "join failed: {text}{said}");
        // It said where it sat, that the connection went, and that it came back.
        assert!(said.contains(&format!("at table {id}, seat ")), "{said}");
        assert!(said.contains("lost the connection"), "{said}");
        assert!(said.contains(&format!("back at table {id}")), "{said}");
        finals.push(text);
    }
    // Every seat saw the same end.
    let scores = |f: &String| f.split(',').next().unwrap_or_default().to_string();
    assert!(
        finals.iter().all(|f| scores(f) == scores(&finals[0])),
        "{finals:?}"
    );
    // One loss of the connection each, however many tries it took to get back.
    assert!(
        finals.iter().all(|f| f.contains("reconnected 1 time")),
        "{finals:?}"
    );
    let (status, record) = http(&addr, "GET", &format!("/api/tables/{id}/record"), "");
    assert_eq!(status, 200);
    server.kill().unwrap();
    server.wait().unwrap();
    // The record replays to a finished game, longer than what was kept at the kill.
    let replayed = replayed(&record);
    assert_eq!(replayed["finished"], true);
    let total: usize = serde_json::from_str::<Value>(&record).unwrap()["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["actions"].as_array().unwrap().len())
        .sum();
    assert!(
        total > killed_at,
        "{total} actions, {killed_at} at the kill"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// The server's analysis of a finished game (`GET /api/tables/{id}/analysis`, which the
/// replay page shows) is what `calltrump analyze --json` prints for the game's record.
#[test]
fn the_servers_analysis_of_a_finished_game_is_analyze_json_of_its_record() {
    let data = fresh_data_dir("analysis");
    let (mut server, addr) = serve("127.0.0.1:0", &data);
    let table = r#"{"game":"kaibosh","options":{"deals":1},"unattended":true,
        "seats":["bot:rules","bot:rules","bot:rules","bot:rules"]}"#;
    let (status, body) = http(&addr, "POST", "/api/tables", table);
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/tables/{id}/analysis");
    let started = Instant::now();
    let served = loop {
        match http(&addr, "GET", &path, "") {
            (200, body) => break serde_json::from_str::<Value>(&body).unwrap(),
            // The game is still in play.
            (409, _) => assert!(
                started.elapsed() < Duration::from_secs(60),
                "the bots do not finish the game"
            ),
            (status, body) => panic!("{status}: {body}"),
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (status, record) = http(&addr, "GET", &format!("/api/tables/{id}/record"), "");
    assert_eq!(status, 200, "{record}");
    server.kill().unwrap();
    server.wait().unwrap();
    let file = common::temp_path("served-game.json");
    std::fs::write(&file, &record).unwrap();
    let printed = common::json_of(&["analyze", "--json", file.to_str().unwrap()], "");
    assert_eq!(served["hands"].as_array().unwrap().len(), 1, "{served}");
    assert_eq!(served, printed);
    let _ = std::fs::remove_dir_all(&data);
}

/// `--addr` takes a host name or an address; an address that cannot be listened at is
/// named with what to do; 0.0.0.0 is printed as a link that opens on this machine.
#[test]
fn serve_says_where_it_listens_and_what_is_wrong_with_an_address() {
    let data = fresh_data_dir("addr");
    let (mut server, addr) = serve("localhost:0", &data);
    assert!(
        addr.starts_with("127.0.0.1:") || addr.starts_with("[::1]:"),
        "{addr}"
    );
    let taken = calltrump()
        .args(["serve", "--addr", &addr, "--data"])
        .arg(&data)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&taken.stderr);
    assert!(!taken.status.success());
    assert!(said.contains(&format!("cannot listen at {addr}")), "{said}");
    assert!(said.contains("choose another port"), "{said}");
    server.kill().unwrap();
    server.wait().unwrap();

    for bad in ["127.0.0.1", "no such host:80"] {
        let refused = calltrump()
            .args(["serve", "--addr", bad, "--data"])
            .arg(&data)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(!refused.status.success(), "{bad}");
        assert!(said.contains(&format!("--addr {bad}")), "{said}");
        assert!(said.contains("give HOST:PORT"), "{said}");
    }

    let mut everywhere = calltrump()
        .args(["serve", "--addr", "0.0.0.0:0", "--data"])
        .arg(&data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(everywhere.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let second = lines.next().unwrap().unwrap();
    everywhere.kill().unwrap();
    everywhere.wait().unwrap();
    assert!(
        first.starts_with("calltrump is serving at http://127.0.0.1:"),
        "{first}"
    );
    assert!(second.starts_with("other machines: http://"), "{second}");
    let _ = std::fs::remove_dir_all(&data);
}

/// `join URL` with `patience` seconds, which must fail: what it said.
fn join_fails(url: &str, patience: u32) -> String {
    let output = calltrump()
        .args(["join", url, "--patience-secs", &patience.to_string()])
        .output()
        .unwrap();
    assert!(!output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A link to a table the server does not have fails at once, saying so, instead of
/// trying for the whole patience; a server that is not there is tried for the patience.
#[test]
fn join_says_at_once_that_a_table_does_not_exist() {
    let data = fresh_data_dir("nojoin");
    let (mut server, addr) = serve("127.0.0.1:0", &data);
    let started = Instant::now();
    let said = join_fails(&format!("http://{addr}/table/nosuchtable#token=abc"), 60);
    assert!(said.contains("no such table (404 Not Found)"), "{said}");
    assert!(started.elapsed() < Duration::from_secs(30), "{said}");
    server.kill().unwrap();
    server.wait().unwrap();

    // The server is gone now: join tries, says so, and gives up after its patience.
    let said = join_fails(&format!("http://{addr}/table/x#token=abc"), 1);
    assert!(said.contains("cannot reach the table"), "{said}");
    assert!(said.contains("gave up reaching"), "{said}");
    let _ = std::fs::remove_dir_all(&data);
}

/// Actions kept in the database's log at this moment (the server is down).
fn actions_in_record(data: &std::path::Path) -> usize {
    // The database is SQLite: count the rows through the sqlite3 file's own text is not
    // possible portably, so ask a fresh server on another port.
    let (mut server, addr) = serve("127.0.0.1:0", data);
    let (_, list) = http(&addr, "GET", "/api/tables", "");
    let tables: Value = serde_json::from_str(&list).unwrap();
    let id = tables["tables"][0]["id"].as_str().unwrap().to_string();
    let (_, record) = http(&addr, "GET", &format!("/api/tables/{id}/record"), "");
    server.kill().unwrap();
    server.wait().unwrap();
    serde_json::from_str::<Value>(&record).unwrap()["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["actions"].as_array().unwrap().len())
        .sum()
}

/// The load test starts its own server on loopback, measures after the tables opened and
/// stops by itself at `--secs`, games in play or not; bad figures are refused before
/// anything starts.
#[test]
fn loadtest_measures_a_small_load_and_stops_by_itself() {
    let started = std::time::Instant::now();
    let output = calltrump()
        .args([
            "loadtest",
            "--tables",
            "4",
            "--secs",
            "4",
            "--ramp-secs",
            "1",
        ])
        // Half a second a decision: a game of four deals (over a hundred actions) cannot
        // end in four seconds, so only stopping at the deadline ends the run in time.
        .args(["--think-ms", "500"])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "the run outlived --secs 4 by far: {:?}\n{text}",
        started.elapsed()
    );
    assert!(text.contains("games finished     0"), "{text}");
    assert!(text.contains("sockets            16"), "{text}");
    assert!(text.contains("from 1 s to 4 s"), "{text}");
    let measured: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("round trip (ms)"))
        .and_then(|l| l.split("over ").nth(1))
        .and_then(|l| l.trim_end_matches(" actions").trim().parse().ok())
        .unwrap_or_else(|| panic!("no round trips in {text}"));
    assert!(measured > 0, "{text}");

    let refused = calltrump()
        .args(["loadtest", "--secs", "3", "--ramp-secs", "3"])
        .output()
        .expect("the binary runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--ramp-secs"));
}
