//! Several `calltrump serve` nodes on one PostgreSQL database (`CALLTRUMP_TEST_POSTGRES`,
//! which `scripts/test.sh` provides): a table outlives its node killed mid-hand, a node
//! paused past its lease gives its table up and writes nothing more of it, and a node
//! stopped with SIGTERM hands its table over at once, a game goes on through a rolling
//! restart of every node; `migrate` copies a SQLite server into PostgreSQL, where its
//! games go on, and beside another's rows when asked; `loadtest` spreads its clients
//! over the nodes and reports each.

use std::ffi::OsStr;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use common::{http, replayed};
use sqlx::Connection;

/// How long a node's lease lasts in these tests (`--lease-secs`).
const LEASE_SECS: &str = "2";

fn calltrump() -> Command {
    Command::new(env!("CARGO_BIN_EXE_calltrump"))
}

/// A node, killed when dropped (a test that fails leaves no process behind).
struct Node {
    child: Child,
    addr: String,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts node `name` of the cluster on `database`.
fn node(database: &str, name: &str) -> Node {
    node_leasing(database, name, LEASE_SECS)
}

/// Starts node `name` of the cluster on `database`, its leases `lease_secs` long.
fn node_leasing(database: &str, name: &str, lease_secs: &str) -> Node {
    node_with(
        database,
        name,
        &["--addr", "127.0.0.1:0", "--lease-secs", lease_secs],
    )
}

/// Starts node `name` of the cluster on `database` with `args` (at least `--addr`).
fn node_with(database: &str, name: &str, args: &[&str]) -> Node {
    let mut all = vec!["--database", database, "--node", name];
    all.extend(args);
    let (child, addr) = common::serve::start(all);
    Node { child, addr }
}

/// How many entries table `id`'s log holds in `database`.
fn logged(database: &str, id: &str) -> i64 {
    runtime().block_on(async {
        let mut db = sqlx::PgConnection::connect(database).await.unwrap();
        sqlx::query_scalar("SELECT count(*) FROM events WHERE table_id = $1")
            .bind(id)
            .fetch_one(&mut db)
            .await
            .unwrap()
    })
}

/// A fresh database on the test PostgreSQL: its URL.
fn database() -> String {
    let base = std::env::var("CALLTRUMP_TEST_POSTGRES").expect(
        "CALLTRUMP_TEST_POSTGRES is not set: `bash scripts/test.sh` starts a throwaway PostgreSQL",
    );
    let name = format!(
        "calltrump_cluster_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    runtime().block_on(async {
        let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap();
    });
    let (server, _) = base.rsplit_once('/').unwrap();
    format!("{server}/{name}")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A counter of a node's `/metrics`.
fn metric(node: &Node, name: &str) -> u64 {
    let (_, metrics) = http(&node.addr, "GET", "/metrics", "");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// Waits (up to `limit`) until `done`; how long it took.
fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "not within {limit:?}: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
    started.elapsed()
}

/// A Bid Euchre table made on `owner`, and a `join` bot at each seat, seat `i` through
/// `through[i % through.len()]`: the table's id and the bots.
fn table_with_bots(owner: &Node, through: &[&Node]) -> (String, Vec<Child>) {
    common::serve::table_of_join_bots(&owner.addr, |i| through[i % through.len()].addr.clone())
}

/// Waits for every bot to end (within 120 s, or they are killed); what each printed.
fn finish(bots: Vec<Child>) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut finals = Vec::new();
    for mut bot in bots {
        while bot.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                let _ = bot.kill();
                panic!("a join bot did not finish within 120 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let output = bot.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "join failed: {text}{said}");
        finals.push(text);
    }
    finals
}

/// Table `id`'s record from `node` replays, with `calltrump replay`, to a finished game.
fn replays_finished(node: &Node, id: &str) {
    let (status, record) = http(&node.addr, "GET", &format!("/api/tables/{id}/record"), "");
    assert_eq!(status, 200, "{record}");
    let replayed = replayed(&record);
    assert_eq!(replayed["finished"], true);
}

#[test]
fn a_table_goes_on_when_its_node_is_killed_mid_hand() {
    let database = database();
    let mut first = node(&database, "one");
    let second = node(&database, "two");
    let third = node(&database, "three");
    let (id, bots) = table_with_bots(&first, &[&second, &third]);
    wait_until(Duration::from_secs(60), "the game gets going", || {
        metric(&first, "calltrump_actions_total") >= 20
    });
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    let others =
        || metric(&second, "calltrump_actions_total") + metric(&third, "calltrump_actions_total");
    let failover = wait_until(Duration::from_secs(15), "another node goes on", || {
        others() > 0
    });
    eprintln!("the game went on {failover:?} after the kill");
    let finals = finish(bots);
    let scores = |f: &String| f.split(',').next().unwrap_or_default().to_string();
    assert!(
        finals.iter().all(|f| scores(f) == scores(&finals[0])),
        "every seat saw the same end: {finals:?}"
    );
    let takeovers = metric(&second, "calltrump_lease_takeovers_total")
        + metric(&third, "calltrump_lease_takeovers_total");
    assert_eq!(takeovers, 1, "one node took the table over");
    replays_finished(&second, &id);
    replays_finished(&third, &id);
}

#[test]
fn a_node_paused_past_its_lease_gives_its_table_up_and_writes_nothing_more() {
    let database = database();
    let first = node(&database, "one");
    let second = node(&database, "two");
    let (id, bots) = table_with_bots(&first, &[&second]);
    wait_until(Duration::from_secs(60), "the game gets going", || {
        metric(&first, "calltrump_actions_total") >= 10
    });
    let pid = first.child.id().to_string();
    let signal = |name: &str| {
        let status = Command::new("kill").args([name, &pid]).status().unwrap();
        assert!(status.success(), "kill {name}");
    };
    signal("-STOP");
    let failover = wait_until(Duration::from_secs(15), "the second node goes on", || {
        metric(&second, "calltrump_actions_total") > 0
    });
    eprintln!("the second node went on {failover:?} after the pause");
    signal("-CONT");
    // Woken, the first finds its lease gone (renewal or a fenced write) and drops the
    // table; the second plays it to the end.
    wait_until(Duration::from_secs(10), "the first drops the table", || {
        metric(&first, "calltrump_leases_lost_total") >= 1
            && metric(&first, "calltrump_tables") == 0
    });
    let finals = finish(bots);
    assert_eq!(finals.len(), 4);
    replays_finished(&second, &id);
    // One history: versions 1, 2, 3… with neither gap nor fork.
    let versions: Vec<i64> = runtime().block_on(async {
        let mut db = sqlx::PgConnection::connect(&database).await.unwrap();
        sqlx::query_scalar("SELECT version FROM events WHERE table_id = $1 ORDER BY version")
            .bind(&id)
            .fetch_all(&mut db)
            .await
            .unwrap()
    });
    assert!(!versions.is_empty());
    assert!(
        versions.iter().zip(1..).all(|(v, n)| *v == n),
        "the log is one history: {versions:?}"
    );
}

#[test]
fn a_node_stopped_with_sigterm_hands_its_table_over_before_its_lease_ends() {
    // Long leases: a table taken over only once its lease lapsed would wait 10 s.
    let database = database();
    let first = node_leasing(&database, "one", "10");
    let second = node_leasing(&database, "two", "10");
    let (id, bots) = table_with_bots(&first, &[&second]);
    wait_until(Duration::from_secs(60), "the game gets going", || {
        metric(&first, "calltrump_actions_total") >= 10
    });
    let pid = first.child.id().to_string();
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
    let handed = wait_until(Duration::from_secs(6), "the second node takes over", || {
        metric(&second, "calltrump_actions_total") > 0
    });
    eprintln!("the second node went on {handed:?} after SIGTERM");
    let finals = finish(bots);
    assert_eq!(finals.len(), 4);
    assert_eq!(metric(&second, "calltrump_lease_takeovers_total"), 1);
    replays_finished(&second, &id);
}

/// Every node of three stopped with SIGTERM and started again at its address, one after
/// another, while a game's `join` bots play through all three: the game goes on after
/// each restart, finishes, and its record replays.
#[test]
fn a_game_goes_on_through_a_rolling_restart_of_every_node() {
    let database = database();
    let addrs: Vec<String> = (0..3).map(|_| free_addr()).collect();
    let start = |i: usize, round: usize| {
        let name = format!("node-{i}-{round}");
        node_with(
            &database,
            &name,
            &["--addr", &addrs[i], "--lease-secs", LEASE_SECS],
        )
    };
    let mut nodes: Vec<Node> = (0..3).map(|i| start(i, 0)).collect();
    // Long enough (12 deals) to be under way through three restarts.
    let (id, bots) =
        common::serve::table_of_join_bots_dealing(&addrs[0], 12, |i| addrs[(i + 1) % 3].clone());
    wait_until(Duration::from_secs(60), "the game gets going", || {
        logged(&database, &id) >= 10
    });
    for (i, node) in nodes.iter_mut().enumerate() {
        let pid = node.child.id().to_string();
        let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(status.success());
        wait_until(Duration::from_secs(10), "the node exits on SIGTERM", || {
            node.child.try_wait().unwrap().is_some()
        });
        let before = logged(&database, &id);
        *node = start(i, 1);
        let went_on = wait_until(Duration::from_secs(15), "the game goes on", || {
            logged(&database, &id) > before
        });
        eprintln!("node {i} restarted; the game went on {went_on:?} later");
    }
    let finals = finish(bots);
    let scores = |f: &String| f.split(',').next().unwrap_or_default().to_string();
    assert!(
        finals.iter().all(|f| scores(f) == scores(&finals[0])),
        "every seat saw the same end: {finals:?}"
    );
    for node in &nodes {
        replays_finished(node, &id);
    }
}

/// `loadtest` against two nodes: tables made on each in turn, the clients spread over
/// both, and each node's figures reported, its clients' round trips and the sockets it
/// relayed to the other among them.
#[test]
fn loadtest_spreads_its_clients_over_the_nodes_and_reports_each() {
    let database = database();
    let open = [
        "--addr",
        "127.0.0.1:0",
        "--max-connections-per-address",
        "0",
        "--creates-per-minute",
        "0",
    ];
    let nodes = [
        node_with(&database, "one", &open),
        node_with(&database, "two", &open),
    ];
    let started = Instant::now();
    let out = calltrump()
        .args([
            "loadtest",
            "--tables",
            "4",
            "--secs",
            "5",
            "--ramp-secs",
            "1",
        ])
        .args(["--think-ms", "100"])
        .args(
            nodes
                .iter()
                .flat_map(|n| ["--url".into(), format!("http://{}", n.addr)]),
        )
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(started.elapsed() < Duration::from_secs(30), "{text}");
    assert!(text.contains("sockets            16"), "{text}");
    assert!(!text.contains("tables refused"), "{text}");
    let mut measured = 0;
    for node in &nodes {
        let part = text
            .split(&format!("node {}\n", node.addr))
            .nth(1)
            .unwrap_or_else(|| panic!("no figures of {}: {text}", node.addr));
        let field = |after: &str, before: &str| -> f64 {
            part.split(after)
                .nth(1)
                .and_then(|l| l.split(before).next())
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| panic!("no {after:?} of {}: {text}", node.addr))
        };
        let trips = field("over ", " actions");
        assert!(trips > 0.0, "{text}");
        measured += trips as u64;
        assert!(field("server", "actions/s") > 0.0, "{text}");
        // Two of each table's four seats reach the node that did not make it.
        assert!(field("sockets at most,", "relayed") >= 2.0, "{text}");
        assert!(part.contains("KB per table it ran"), "{text}");
        assert!(
            field("\n  CPU", "ms of the node's CPU an action") > 0.0,
            "{text}"
        );
    }
    let all = text
        .lines()
        .find_map(|l| l.strip_prefix("round trip (ms)"))
        .and_then(|l| l.split("over ").nth(1))
        .and_then(|l| l.trim_end_matches(" actions").trim().parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no round trips in {text}"));
    assert_eq!(
        all, measured,
        "the nodes' round trips are the run's: {text}"
    );
}

/// Two SQLite servers' databases (an open table each) migrated into one PostgreSQL
/// database: the second copied beside the first's rows only with --into-non-empty, and
/// refused, naming its table and writing nothing, once its table is there.
#[test]
fn migrate_into_non_empty_copies_alongside_and_refuses_a_colliding_id() {
    let url = database();
    let mut ids = Vec::new();
    let sources: Vec<String> = (0..2)
        .map(|i| {
            let data = common::temp_path(&format!("migrate-alongside-{i}"));
            let _ = std::fs::remove_dir_all(&data);
            let (child, addr) = common::serve::start([
                OsStr::new("--addr"),
                OsStr::new("127.0.0.1:0"),
                OsStr::new("--data"),
                data.as_os_str(),
            ]);
            let server = Node { child, addr };
            let table = r#"{"game":"kaibosh","options":{"deals":1}}"#;
            let (status, body) = http(&server.addr, "POST", "/api/tables", table);
            assert_eq!(status, 201, "{body}");
            let created: Value = serde_json::from_str(&body).unwrap();
            ids.push(created["id"].as_str().unwrap().to_string());
            format!("sqlite://{}", data.join("calltrump.db").display())
        })
        .collect();
    let migrate = |from: &str, alongside: bool| {
        let mut command = calltrump();
        command.args(["migrate", "--from", from, "--to", &url]);
        if alongside {
            command.arg("--into-non-empty");
        }
        let out = command.output().unwrap();
        let said = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            out.status.success(),
            said + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let tables = || -> Vec<String> {
        runtime().block_on(async {
            let mut pg = sqlx::PgConnection::connect(&url).await.unwrap();
            sqlx::query_scalar("SELECT id FROM tables ORDER BY id")
                .fetch_all(&mut pg)
                .await
                .unwrap()
        })
    };
    let (ok, said) = migrate(&sources[0], false);
    assert!(ok, "{said}");
    let (ok, said) = migrate(&sources[1], false);
    assert!(
        !ok && said.contains("--into-non-empty to copy alongside"),
        "{said}"
    );
    let (ok, said) = migrate(&sources[1], true);
    assert!(ok && said.contains("copied 1 tables ("), "{said}");
    let mut both = ids.clone();
    both.sort();
    assert_eq!(tables(), both);
    let (ok, said) = migrate(&sources[1], true);
    assert!(!ok, "{said}");
    assert!(
        said.contains(&format!("holds table {} already", ids[1])),
        "{said}"
    );
    assert_eq!(tables(), both, "nothing was written");
}

/// An HTTP request to `addr` with the session cookie `session`: the status, the
/// session cookie set, if any, and the body.
fn request(
    addr: &str,
    method: &str,
    path: &str,
    body: &str,
    session: Option<&str>,
) -> (u16, Option<String>, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let cookie = session.map_or(String::new(), |s| {
        format!("Cookie: calltrump_session={s}\r\n")
    });
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let set = head.lines().find_map(|line| {
        let value = line.split_once(':')?.1.trim();
        let (name, rest) = value.split_once('=')?;
        (line.to_ascii_lowercase().starts_with("set-cookie:") && name == "calltrump_session")
            .then(|| rest.split(';').next().unwrap().to_string())
    });
    (head[9..12].parse().unwrap(), set, body.to_string())
}

/// Takes a seat of table `id` on `addr` with invite `token`, signed in as `session`
/// (a WebSocket by hand: `hello`, then frames until `welcome`), and leaves it at once.
fn sit_and_leave(addr: &str, id: &str, token: &str, session: &str) {
    use std::io::{Read, Write};
    let mut socket = std::net::TcpStream::connect(addr).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        socket,
        "GET /ws/{id} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nCookie: calltrump_session={session}\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0];
        socket.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    assert!(
        head.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    let hello = serde_json::json!({ "type": "hello", "token": token }).to_string();
    let mask = [7u8, 1, 8, 2];
    let mut frame = vec![0x81, 0x80 | 126];
    frame.extend((hello.len() as u16).to_be_bytes());
    frame.extend(mask);
    frame.extend(hello.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    socket.write_all(&frame).unwrap();
    loop {
        let mut header = [0u8; 2];
        socket.read_exact(&mut header).unwrap();
        let len = match header[1] & 0x7f {
            126 => {
                let mut len = [0u8; 2];
                socket.read_exact(&mut len).unwrap();
                u16::from_be_bytes(len) as usize
            }
            127 => {
                let mut len = [0u8; 8];
                socket.read_exact(&mut len).unwrap();
                u64::from_be_bytes(len) as usize
            }
            len => len as usize,
        };
        let mut payload = vec![0u8; len];
        socket.read_exact(&mut payload).unwrap();
        let text = String::from_utf8_lossy(&payload);
        assert!(!text.contains(r#""type":"error""#), "{text}");
        if text.contains(r#""type":"welcome""#) {
            return;
        }
    }
}

/// A loopback port free now: a server stopped and another started on the same address
/// keeps its clients' links.
fn free_addr() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

/// `migrate` copies a SQLite server (a finished table, a finished rated game, one killed
/// mid-game, a night and an account) into PostgreSQL, says what it copied, refuses to
/// copy into it again, and on a node started there at the same address the game goes on
/// to its end, the finished table's record is the same, the account signs in and its
/// player's page (ratings, their history, games) reads the same, its game not rated again.
#[test]
fn migrate_copies_a_sqlite_server_and_its_games_go_on_on_postgresql() {
    let data = common::temp_path("migrate-data");
    let _ = std::fs::remove_dir_all(&data);
    let addr = free_addr();
    // No grace: the rated game's person leaves and a bot plays on at once.
    let (child, _) = common::serve::start([
        OsStr::new("--addr"),
        OsStr::new(&addr),
        OsStr::new("--data"),
        data.as_os_str(),
        OsStr::new("--grace-secs"),
        OsStr::new("0"),
    ]);
    let mut node = Node {
        child,
        addr: addr.clone(),
    };
    let (status, body) = http(
        &addr,
        "POST",
        "/api/tables",
        r#"{"game":"kaibosh","options":{"deals":1},"seats":["bot:random","bot:random","bot:random","bot:random"],"unattended":true}"#,
    );
    assert_eq!(status, 201, "{body}");
    let finished: Value = serde_json::from_str(&body).unwrap();
    let finished = finished["id"].as_str().unwrap().to_string();
    let record_path = format!("/api/tables/{finished}/record");
    // Over, it leaves the lobby.
    wait_until(Duration::from_secs(60), "the bots' game ends", || {
        !http(&addr, "GET", "/api/tables", "").1.contains(&finished)
    });
    let (_, finished_record) = http(&addr, "GET", &record_path, "");
    assert_eq!(replayed(&finished_record)["finished"], true);
    let account = r#"{"name":"Migrating Mona","password":"a long enough password"}"#;
    let (status, session, body) = request(&addr, "POST", "/api/accounts", account, None);
    assert_eq!(status, 201, "{body}");
    let session = session.expect("a session cookie");
    let rated = r#"{"game":"kaibosh","options":{"deals":1},"rated":true,"seats":["open","bot:easy","bot:medium","bot:easy"]}"#;
    let (status, _, body) = request(&addr, "POST", "/api/tables", rated, Some(&session));
    assert_eq!(status, 201, "{body}");
    let rated: Value = serde_json::from_str(&body).unwrap();
    let token = rated["invites"][0]["token"].as_str().unwrap();
    sit_and_leave(&addr, rated["id"].as_str().unwrap(), token, &session);
    let player = "/api/players/Migrating%20Mona";
    let page = || -> Value { serde_json::from_str(&http(&addr, "GET", player, "").1).unwrap() };
    wait_until(
        Duration::from_secs(90),
        "the rated game ends, rated",
        || page()["ratings"][0]["games"] == 1,
    );
    let rated_page = page();
    assert_eq!(
        rated_page["rating_history"].as_array().unwrap().len(),
        1,
        "{rated_page}"
    );
    let people = r#"{"players":[{"name":"A"},{"name":"B"},{"name":"C"},{"name":"D"}],"sets":1}"#;
    let (status, body) = http(&addr, "POST", "/api/nights", people);
    assert_eq!(status, 201, "{body}");
    let night: Value = serde_json::from_str(&body).unwrap();
    let before = metric(&node, "calltrump_actions_total");
    let (playing, bots) = table_with_bots(&node, &[&node]);
    // Killed mid-game: what it committed is in its database.
    wait_until(Duration::from_secs(60), "the game is under way", || {
        metric(&node, "calltrump_actions_total") >= before + 10
    });
    node.child.kill().unwrap();
    node.child.wait().unwrap();
    let url = database();
    let from = format!("sqlite://{}", data.join("calltrump.db").display());
    let migrate = || {
        calltrump()
            .args(["migrate", "--from", &from, "--to", &url])
            .output()
            .unwrap()
    };
    let out = migrate();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("copied 4 tables (")
            && said.contains(
                ", 1 nights, 1 accounts, 1 sessions, 1 ratings (1 rating changes, 1 rated games)"
            ),
        "{said}"
    );
    assert!(
        said.contains("each of the 4 tables' logs replays"),
        "{said}"
    );
    let status: String = runtime().block_on(async {
        let mut pg = sqlx::PgConnection::connect(&url).await.unwrap();
        sqlx::query_scalar("SELECT status FROM tables WHERE id = $1")
            .bind(&playing)
            .fetch_one(&mut pg)
            .await
            .unwrap()
    });
    assert_eq!(status, "playing", "the table was copied mid-game");
    // A source that is not there, or a target that is not PostgreSQL: said, and why.
    for (args, says) in [
        (
            ["sqlite:///no/such/calltrump.db", url.as_str()],
            "--from sqlite:///no/such/calltrump.db: there is no database at /no/such/calltrump.db",
        ),
        (
            [from.as_str(), "sqlite://elsewhere.db"],
            "--to sqlite://elsewhere.db: give the PostgreSQL database as postgres://",
        ),
    ] {
        let out = calltrump()
            .args(["migrate", "--from", args[0], "--to", args[1]])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let told = String::from_utf8_lossy(&out.stderr);
        assert!(told.contains(says), "{told}");
    }
    // Again: the target is not empty, and nothing is written.
    let again = migrate();
    let refused = String::from_utf8_lossy(&again.stderr).into_owned();
    assert!(!again.status.success());
    assert!(
        refused.contains(
            "the target database is not empty (it holds 4 tables, 1 nights and 1 accounts)"
        ),
        "{refused}"
    );
    // A node on PostgreSQL at the same address: the join bots come back and finish.
    let (pg_node, _) = common::serve::start(["--addr", addr.as_str(), "--database", url.as_str()]);
    let pg_node = Node {
        child: pg_node,
        addr: addr.clone(),
    };
    finish(bots);
    replays_finished(&pg_node, &playing);
    let (_, copied_record) = http(&addr, "GET", &record_path, "");
    assert_eq!(copied_record, finished_record);
    let (status, body) = http(&addr, "POST", "/api/session", account);
    assert_eq!(status, 200, "{body}");
    let (_, nights) = http(&addr, "GET", "/api/nights", "");
    assert!(nights.contains(night["id"].as_str().unwrap()), "{nights}");
    // Rating, history and game as on SQLite: the mark kept the node from rating it again.
    let (status, body) = http(&addr, "GET", player, "");
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), rated_page);
    let _ = std::fs::remove_dir_all(&data);
}
