//! A table whose task panics is retired, its clients told, and it comes back from its
//! log; a bot's failure does not stall its table.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use calltrump_server::model::{SeatRecord, TableStatus};
use calltrump_server::store::{
    ChatLine, ChatPlace, SqliteStore, Store, StoreFuture, StoredChat, StoredNight, StoredTable,
};
use calltrump_server::{HubConfig, ServerConfig};
use calltrump_table::Entry;
use common::{create, database_url, hello, http_at, kaibosh_with_bots, until, until_my_turn};
use serde_json::json;

/// SQLite, but the first append after `armed` is raised panics (the table's task that
/// calls it panics with it).
struct PanickingStore {
    inner: SqliteStore,
    armed: AtomicBool,
}

impl Store for PanickingStore {
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
        self.inner.create_table(table)
    }
    fn update_table<'a>(
        &'a self,
        id: &'a str,
        seats: &'a [SeatRecord],
        status: TableStatus,
    ) -> StoreFuture<'a, ()> {
        self.inner.update_table(id, seats, status)
    }
    fn append<'a>(
        &'a self,
        id: &'a str,
        entries: &'a [Entry],
        table: Option<(&'a [SeatRecord], TableStatus)>,
    ) -> StoreFuture<'a, ()> {
        if self.armed.swap(false, Ordering::SeqCst) {
            panic!("the store's append panics, as a bug would");
        }
        self.inner.append(id, entries, table)
    }
    fn chat<'a>(
        &'a self,
        id: &'a str,
        line: &'a ChatLine,
        place: ChatPlace,
    ) -> StoreFuture<'a, ()> {
        self.inner.chat(id, line, place)
    }
    fn live_tables(&self) -> StoreFuture<'_, Vec<StoredTable>> {
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
    fn night<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredNight>> {
        self.inner.night(id)
    }
    fn live_nights(&self) -> StoreFuture<'_, Vec<StoredNight>> {
        self.inner.live_nights()
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
    let store = Arc::new(PanickingStore {
        inner: SqliteStore::open(&database_url(&dir)).await.unwrap(),
        armed: AtomicBool::new(false),
    });
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
    store.armed.store(true, Ordering::SeqCst);
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
