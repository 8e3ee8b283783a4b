//! Several `calltrump serve` nodes on one PostgreSQL database (`CALLTRUMP_TEST_POSTGRES`,
//! which `scripts/test.sh` provides): a table outlives its node killed mid-hand, a node
//! paused past its lease gives its table up and writes nothing more of it, and a node
//! stopped with SIGTERM hands its table over at once.

use std::process::{Child, Command};
use std::time::{Duration, Instant};

mod common;
use common::{http, replayed};
use sqlx::Connection;

/// How long a node's lease lasts in these tests (`--lease-secs`).
const LEASE_SECS: &str = "2";

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
    let (child, addr) = common::serve::start([
        "--addr",
        "127.0.0.1:0",
        "--database",
        database,
        "--node",
        name,
        "--lease-secs",
        lease_secs,
    ]);
    Node { child, addr }
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
