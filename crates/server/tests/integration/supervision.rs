//! A table whose task panics is retired, its clients told, and it comes back from its
//! log; a bot's failure does not stall its table; a store that fails loses nothing told,
//! and the table resumes when it keeps steps again.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use calltrump_server::model::{SeatRecord, TableStatus};
use calltrump_server::store::{
    Accounts, ChatLine, ChatPlace, SqliteStore, Store, StoreError, StoreFuture, StoredChat,
    StoredNight, StoredTable,
};
use calltrump_server::{HubConfig, ServerConfig};
use calltrump_table::Entry;
use common::{create, database_url, hello, http_at, kaibosh_with_bots, until, until_my_turn};
use serde_json::{json, Value};

/// SQLite with the faults a test raises: the first append after `panic_next` is raised
/// panics (the table's task that calls it panics with it); once `fail_after` (when not
/// negative) reaches 0, every append fails as on a full disk, until it is set back below
/// 0; while `seats_fail` is raised, every write of a table's seats and status fails.
/// `kept` counts the log entries appended.
struct FaultyStore {
    inner: SqliteStore,
    panic_next: AtomicBool,
    fail_after: AtomicI64,
    seats_fail: AtomicBool,
    kept: Arc<AtomicU64>,
}

/// The error of a write on a full disk.
fn disk_full() -> StoreError {
    StoreError::Database(sqlx::Error::Io(std::io::Error::other(
        "no space left on device",
    )))
}

impl FaultyStore {
    async fn open(dir: &tempfile::TempDir) -> FaultyStore {
        FaultyStore {
            inner: SqliteStore::open(&database_url(dir)).await.unwrap(),
            panic_next: AtomicBool::new(false),
            fail_after: AtomicI64::new(-1),
            seats_fail: AtomicBool::new(false),
            kept: Arc::default(),
        }
    }
}

impl Store for FaultyStore {
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
        self.inner.create_table(table)
    }
    fn update_table<'a>(
        &'a self,
        id: &'a str,
        seats: &'a [SeatRecord],
        status: TableStatus,
    ) -> StoreFuture<'a, ()> {
        if self.seats_fail.load(Ordering::SeqCst) {
            return Box::pin(async { Err(disk_full()) });
        }
        self.inner.update_table(id, seats, status)
    }
    fn append<'a>(
        &'a self,
        id: &'a str,
        entries: &'a [Entry],
        table: Option<(&'a [SeatRecord], TableStatus)>,
    ) -> StoreFuture<'a, ()> {
        if self.panic_next.swap(false, Ordering::SeqCst) {
            panic!("the store's append panics, as a bug would");
        }
        let left = self.fail_after.load(Ordering::SeqCst);
        if left == 0 {
            return Box::pin(async { Err(disk_full()) });
        }
        if left > 0 {
            self.fail_after.fetch_sub(1, Ordering::SeqCst);
        }
        let kept = Arc::clone(&self.kept);
        let count = entries.len() as u64;
        let append = self.inner.append(id, entries, table);
        Box::pin(async move {
            append.await?;
            kept.fetch_add(count, Ordering::SeqCst);
            Ok(())
        })
    }
    fn chat<'a>(
        &'a self,
        id: &'a str,
        line: &'a ChatLine,
        place: ChatPlace,
    ) -> StoreFuture<'a, ()> {
        self.inner.chat(id, line, place)
    }
    fn live_tables(&self) -> StoreFuture<'_, Vec<Result<StoredTable, StoreError>>> {
        self.inner.live_tables()
    }
    fn table<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTable>> {
        self.inner.table(id)
    }
    fn log<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<Entry>> {
        self.inner.log(id)
    }
    fn chat_history<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredChat>> {
        self.inner.chat_history(id)
    }
    fn save_night<'a>(&'a self, night: &'a StoredNight) -> StoreFuture<'a, ()> {
        self.inner.save_night(night)
    }
    fn create_set_table<'a>(
        &'a self,
        table: &'a StoredTable,
        night: &'a StoredNight,
    ) -> StoreFuture<'a, ()> {
        self.inner.create_set_table(table, night)
    }
    fn night<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredNight>> {
        self.inner.night(id)
    }
    fn live_nights(&self) -> StoreFuture<'_, Vec<StoredNight>> {
        self.inner.live_nights()
    }
    fn accounts(&self) -> &dyn Accounts {
        self.inner.accounts()
    }

    fn ratings(&self) -> &dyn calltrump_server::store::Ratings {
        self.inner.ratings()
    }
}

/// The value of gauge `name` in `/metrics`.
fn gauge(metrics: &str, name: &str) -> u64 {
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {metrics}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_table_is_retired_its_clients_told_and_it_is_restored_from_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FaultyStore::open(&dir).await);
    let server = calltrump_server::start_with_store(
        ServerConfig::new(
            "127.0.0.1:0".parse().unwrap(),
            database_url(&dir),
            HubConfig {
                seed: Some(7),
                ..HubConfig::new(Duration::ZERO, Duration::from_secs(60))
            },
        ),
        store.clone(),
    )
    .await
    .unwrap();
    let created = create(&server, kaibosh_with_bots(1, "bot:random")).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["invites"][0]["token"].clone();
    let mut ann = hello(&server, &id, json!({ "token": token })).await;
    let (version, legal) = until_my_turn(&mut ann, Duration::from_secs(10)).await;
    // Ann's action is the step whose store call panics.
    store.panic_next.store(true, Ordering::SeqCst);
    common::send(
        &mut ann,
        json!({"type": "act", "version": version, "action": legal[0]}),
    )
    .await;
    let closing = until(&mut ann, "closing").await;
    assert_eq!(closing["kind"], "retry", "{closing}");
    assert_eq!(closing["reason"], "the table restarts", "{closing}");
    // Restored from its log: the table runs once, listed once, counted once, and Ann
    // sits again at the version before the action that was never kept.
    let mut ann = hello(&server, &id, json!({ "token": token })).await;
    let welcome = until(&mut ann, "welcome").await;
    assert_eq!(welcome["status"], "playing", "{welcome}");
    let snapshot = until(&mut ann, "snapshot").await;
    assert_eq!(snapshot["version"], version, "{snapshot}");
    let (_, listed) = http_at(server.addr, "GET", "/api/tables", None).await;
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(listed["tables"].as_array().unwrap().len(), 1, "{listed}");
    let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
    assert_eq!(gauge(&metrics, "calltrump_tables "), 1, "{metrics}");
    assert_eq!(gauge(&metrics, "calltrump_connections "), 1, "{metrics}");
    // And it plays on from there: Ann's turn again, her action taken this time.
    let legal = snapshot["view"]["legal"].as_array().unwrap();
    assert!(!legal.is_empty(), "{snapshot}");
    common::send(
        &mut ann,
        json!({"type": "act", "version": version, "action": legal[0]}),
    )
    .await;
    let update = until(&mut ann, "update").await;
    assert!(update["version"].as_u64().unwrap() > version, "{update}");
    server.stop().await.unwrap();
}

/// Every `update` `socket` receives until `kind`, each checked against what the store
/// kept: no version is told before its entries are kept. The message of `kind`.
async fn until_checked(socket: &mut common::Socket, kind: &str, kept: &AtomicU64) -> Value {
    loop {
        let message = common::next(socket, Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("no {kind} within 10 s"));
        if message["type"] == "update" {
            let version = message["version"].as_u64().unwrap();
            let kept = kept.load(Ordering::SeqCst);
            assert!(
                version <= kept,
                "version {version} told, {kept} entries kept"
            );
        }
        if message["type"] == kind {
            return message;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_fails_loses_nothing_told_and_the_table_resumes_when_it_heals() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FaultyStore::open(&dir).await);
    let server = calltrump_server::start_with_store(
        ServerConfig::new(
            "127.0.0.1:0".parse().unwrap(),
            database_url(&dir),
            HubConfig {
                seed: Some(3),
                ..HubConfig::new(Duration::ZERO, Duration::from_secs(60))
            },
        ),
        store.clone(),
    )
    .await
    .unwrap();
    let created = create(&server, kaibosh_with_bots(1, "bot:random")).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["invites"][0]["token"].clone();
    let mut ann = hello(&server, &id, json!({ "token": token })).await;
    let (version, legal) = until_my_turn(&mut ann, Duration::from_secs(10)).await;
    let act = json!({"type": "act", "version": version, "action": legal[0]});

    // The disk is full: Ann's action is refused as not saved, and no update tells it.
    store.fail_after.store(0, Ordering::SeqCst);
    common::send(&mut ann, act.clone()).await;
    let error = until_checked(&mut ann, "error", &store.kept).await;
    assert_eq!(error["code"], "not_saved", "{error}");
    let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
    assert!(
        gauge(&metrics, "calltrump_store_errors_total ") >= 1,
        "{metrics}"
    );

    // Her action is kept, and the disk fills before the bots' steps after it: the table
    // pauses on them, trying again, and nothing of them is told... (The bots' seeds
    // follow the table's id, so her action may give her the turn again, say to name
    // trump after the others passed: she plays on until the turn leaves her.)
    let mut act = act;
    let mut version = version;
    loop {
        store.fail_after.store(1, Ordering::SeqCst);
        common::send(&mut ann, act).await;
        let update = until_checked(&mut ann, "update", &store.kept).await;
        let told = update["version"].as_u64().unwrap();
        assert!(told > version, "{update}");
        let legal = update["view"]["legal"].as_array().unwrap();
        if legal.is_empty() {
            break;
        }
        (act, version) = (
            json!({"type": "act", "version": told, "action": legal[0]}),
            told,
        );
    }
    // (Two failed bot steps counted, bounded: the test fails after 20 s.)
    let waiting = std::time::Instant::now();
    loop {
        let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
        if gauge(&metrics, "calltrump_store_errors_total ") >= 3 {
            break;
        }
        assert!(waiting.elapsed() < Duration::from_secs(20), "{metrics}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // ...until the disk has room again: the bots play on, and it is Ann's turn again.
    store.fail_after.store(-1, Ordering::SeqCst);
    loop {
        let message = until_checked(&mut ann, "update", &store.kept).await;
        if !message["view"]["legal"].as_array().unwrap().is_empty() {
            break;
        }
    }
    common::send(&mut ann, json!({"type": "ping"})).await;
    until_checked(&mut ann, "pong", &store.kept).await;
    server.stop().await.unwrap();
}

/// A server on `store` whose table has Ann (seat 0, connected) and three random bots,
/// at Ann's turn: the server, the table's creation answer, Ann's socket, her turn's
/// version and legal actions.
async fn ann_at_her_turn(
    store: &Arc<FaultyStore>,
    dir: &tempfile::TempDir,
) -> (
    calltrump_server::RunningServer,
    Value,
    common::Socket,
    u64,
    Vec<Value>,
) {
    let server = calltrump_server::start_with_store(
        ServerConfig::new(
            "127.0.0.1:0".parse().unwrap(),
            database_url(dir),
            HubConfig {
                seed: Some(3),
                ..HubConfig::new(Duration::ZERO, Duration::from_secs(60))
            },
        ),
        store.clone(),
    )
    .await
    .unwrap();
    let created = create(&server, kaibosh_with_bots(1, "bot:random")).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["invites"][0]["token"].clone();
    let mut ann = hello(&server, &id, json!({ "token": token })).await;
    let (version, legal) = until_my_turn(&mut ann, Duration::from_secs(10)).await;
    (server, created, ann, version, legal)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_store_pauses_the_table_for_everyone_and_readyz_until_writes_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FaultyStore::open(&dir).await);
    let (server, created, mut ann, version, legal) = ann_at_her_turn(&store, &dir).await;
    let id = created["id"].as_str().unwrap();
    let mut bob = hello(&server, id, json!({})).await;
    until(&mut bob, "seats").await;
    assert_eq!(common::readyz_until(&server, 200).await, "ready");

    // The disk is full: Ann's action is refused, Ann and Bob (watching) are told the
    // table is paused, and nobody is told of the action.
    store.fail_after.store(0, Ordering::SeqCst);
    store.seats_fail.store(true, Ordering::SeqCst);
    let act = json!({"type": "act", "version": version, "action": legal[0]});
    common::send(&mut ann, act.clone()).await;
    let error = until_checked(&mut ann, "error", &store.kept).await;
    assert_eq!(error["code"], "not_saved", "{error}");
    let paused = until_checked(&mut ann, "paused", &store.kept).await;
    let reason = paused["reason"].as_str().unwrap();
    assert!(reason.contains("no space left on device"), "{paused}");
    until_checked(&mut bob, "paused", &store.kept).await;
    let not_ready = common::readyz_until(&server, 503).await;
    assert!(
        not_ready.contains(id) && not_ready.contains("no space left"),
        "{not_ready}"
    );
    let (health, _) = http_at(server.addr, "GET", "/healthz", None).await;
    assert_eq!(health, 200);
    // A newcomer meanwhile is told at once; the server keeps trying (its writes are
    // counted, every half second), and still nothing is told.
    let mut cy = hello(&server, id, json!({})).await;
    until(&mut cy, "paused").await;
    let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
    let failed = gauge(&metrics, "calltrump_store_errors_total ");
    let waiting = std::time::Instant::now();
    loop {
        let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
        if gauge(&metrics, "calltrump_store_errors_total ") >= failed + 2 {
            break;
        }
        assert!(waiting.elapsed() < Duration::from_secs(10), "{metrics}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // (`paused` was told once: not again at each try.)
    common::send(&mut ann, json!({"type": "ping"})).await;
    let before_pong = common::messages_before_pong(&mut ann).await;
    assert!(
        before_pong
            .iter()
            .all(|m| !["update", "resumed", "paused"].contains(&m["type"].as_str().unwrap())),
        "{before_pong:?}"
    );

    // The disk has room again: everyone is told the table resumes, /readyz is ready,
    // and Ann's action, asked again, is taken and told.
    store.fail_after.store(-1, Ordering::SeqCst);
    store.seats_fail.store(false, Ordering::SeqCst);
    until_checked(&mut ann, "resumed", &store.kept).await;
    until_checked(&mut bob, "resumed", &store.kept).await;
    until(&mut cy, "resumed").await;
    assert_eq!(common::readyz_until(&server, 200).await, "ready");
    common::send(&mut ann, act).await;
    let update = until_checked(&mut ann, "update", &store.kept).await;
    assert_eq!(update["version"].as_u64().unwrap(), version + 1, "{update}");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_and_status_the_store_does_not_keep_are_taken_back_and_never_told() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FaultyStore::open(&dir).await);
    let (server, created, mut ann, version, legal) = ann_at_her_turn(&store, &dir).await;
    let id = created["id"].as_str().unwrap();
    let host = json!({"host": created["host_token"]});
    let mut host = hello(&server, id, host).await;
    until(&mut host, "seats").await;

    // The host ends the table on a full disk: refused, the table paused, not ended:
    // nobody is told `status` or closed, and the store still has it playing.
    store.seats_fail.store(true, Ordering::SeqCst);
    common::send(&mut host, json!({"type": "end"})).await;
    let error = until(&mut host, "error").await;
    assert_eq!(error["code"], "not_saved", "{error}");
    until(&mut host, "paused").await;
    // The host gives Ann's seat to a bot: refused too, and Ann keeps her seat.
    common::send(
        &mut host,
        json!({"type": "set-seat", "seat": 0, "sitter": "bot:random"}),
    )
    .await;
    let error = until(&mut host, "error").await;
    assert_eq!(error["code"], "not_saved", "{error}");
    // Ann was told `paused`, once; neither was told anything of the end or the seat.
    for (socket, paused) in [(&mut ann, 1), (&mut host, 0)] {
        common::send(socket, json!({"type": "ping"})).await;
        let told = common::messages_before_pong(socket).await;
        assert!(
            told.iter()
                .all(|m| !["status", "closing", "seats", "update"]
                    .contains(&m["type"].as_str().unwrap())),
            "{told:?}"
        );
        let count = told.iter().filter(|m| m["type"] == "paused").count();
        assert_eq!(count, paused, "{told:?}");
    }
    let kept = store.inner.table(id).await.unwrap().unwrap();
    assert_eq!(kept.status, TableStatus::Playing);
    let (_, listed) = http_at(server.addr, "GET", "/api/tables", None).await;
    let listed: Value = serde_json::from_str(&listed).unwrap();
    let table = &listed["tables"][0];
    assert_eq!(table["status"], "playing", "{listed}");
    assert_eq!(table["seats"][0]["sitter"], "person", "{listed}");

    // The disk has room again: the table resumes as it was; Ann plays her turn, and the
    // host's end, asked again, is kept and told.
    store.seats_fail.store(false, Ordering::SeqCst);
    until(&mut ann, "resumed").await;
    let act = json!({"type": "act", "version": version, "action": legal[0]});
    common::send(&mut ann, act).await;
    let update = until_checked(&mut ann, "update", &store.kept).await;
    assert_eq!(update["version"].as_u64().unwrap(), version + 1, "{update}");
    common::send(&mut host, json!({"type": "end"})).await;
    let status = until(&mut host, "status").await;
    assert_eq!(status["status"], "ended", "{status}");
    let closing = until(&mut ann, "closing").await;
    assert_eq!(closing["kind"], "table_gone", "{closing}");
    let kept = store.inner.table(id).await.unwrap().unwrap();
    assert_eq!(kept.status, TableStatus::Ended);
    server.stop().await.unwrap();
}
