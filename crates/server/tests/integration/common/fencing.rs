//! The leases of a store several nodes share (PostgreSQL): each check runs on two nodes
//! of one fresh database, `a` and `b`, whose leases last [`LEASE`].

use std::collections::HashMap;
use std::time::Duration;

use calltrump_server::model::{NightStatus, TableStatus};
use calltrump_server::store::{
    Cluster, DatabaseOptions, NodeOptions, Owner, PostgresStore, Store, StoreError, StoredNight,
};
use calltrump_table::Entry;

use super::contract::{new_table, steps};
use super::{Backend, TestDatabase};

/// The nodes' leases: short, so that a lapse takes little of a test's time.
pub const LEASE: Duration = Duration::from_millis(1500);

/// Two nodes, `a` and `b`, on one fresh database.
pub async fn two_nodes() -> (TestDatabase, PostgresStore, PostgresStore) {
    let database = TestDatabase::new(Backend::Postgres).await;
    let node = |name: &str| NodeOptions {
        name: name.into(),
        lease: LEASE,
    };
    let a = PostgresStore::open_node(&database.url, DatabaseOptions::default(), node("a"))
        .await
        .unwrap();
    let b = PostgresStore::open_node(&database.url, DatabaseOptions::default(), node("b"))
        .await
        .unwrap();
    (database, a, b)
}

/// Waits past the lease's end.
async fn lapse() {
    tokio::time::sleep(LEASE + Duration::from_millis(300)).await;
}

fn lost(result: Result<(), StoreError>, table: &str) {
    match result {
        Err(StoreError::LeaseLost { table: t }) => assert_eq!(t, table),
        other => panic!("expected the lease lost, got {other:?}"),
    }
}

/// Table `t` on node `a`, with its first `count` steps; the steps that follow.
async fn table_on(a: &PostgresStore, count: usize) -> (Vec<Entry>, Vec<Vec<Entry>>) {
    a.create_table(&new_table("t", 5, TableStatus::Playing, 0))
        .await
        .unwrap();
    let mut all = steps(5, count + 3);
    let rest = all.split_off(count);
    for step in &all {
        a.append("t", step, None).await.unwrap();
    }
    (all.concat(), rest)
}

/// The node that creates a table holds its lease: another may neither claim it nor
/// write any of its rows, and finds it running on the first, at the address it gave.
pub async fn a_table_runs_on_the_node_that_made_it(a: &PostgresStore, b: &PostgresStore) {
    let (kept, rest) = table_on(a, 2).await;
    a.renew("127.0.0.1:7001", &HashMap::new()).await.unwrap();
    assert!(!b.claim("t").await.unwrap());
    lost(b.append("t", &rest[0], None).await, "t");
    let seats = new_table("t", 5, TableStatus::Over, 0).seats;
    lost(b.update_table("t", &seats, TableStatus::Over).await, "t");
    assert_eq!(b.log("t").await.unwrap(), kept);
    assert_eq!(
        b.table("t").await.unwrap().unwrap().status,
        TableStatus::Playing
    );
    assert_eq!(
        b.owner("t").await.unwrap(),
        Some(Owner {
            node: "a".into(),
            addr: "127.0.0.1:7001".into()
        })
    );
    // To itself, a table is not elsewhere; nobody needs to take it over.
    assert_eq!(a.owner("t").await.unwrap(), None);
    assert!(b.orphans().await.unwrap().is_empty());
    // Renewed, it stays a's past the first lease's end.
    for _ in 0..4 {
        tokio::time::sleep(LEASE / 3).await;
        assert!(a
            .renew("127.0.0.1:7001", &HashMap::new())
            .await
            .unwrap()
            .is_empty());
    }
    assert!(!b.claim("t").await.unwrap());
    a.append("t", &rest[0], None).await.unwrap();
}

/// A lease that lapsed is taken over, its epoch raised: the old owner's writes are
/// refused from then on and change nothing, and the log stays one history.
pub async fn a_lapsed_lease_is_taken_over_and_fences_its_old_owner(
    a: &PostgresStore,
    b: &PostgresStore,
) {
    let (kept, rest) = table_on(a, 3).await;
    lapse().await;
    let orphans: Vec<String> = b
        .orphans()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.unwrap().id)
        .collect();
    assert_eq!(orphans, ["t"]);
    assert!(b.claim("t").await.unwrap());
    // A node wakes up (it was paused): nothing it writes is kept.
    lost(a.append("t", &rest[0], None).await, "t");
    let chat_line = calltrump_server::store::ChatLine {
        seq: 1,
        sender: "ann".into(),
        body: "late".into(),
        at: 0,
    };
    let place = calltrump_server::store::ChatPlace {
        deals: 1,
        actions: 0,
    };
    lost(a.chat("t", &chat_line, place).await, "t");
    assert_eq!(b.log("t").await.unwrap(), kept);
    assert!(b.chat_history("t").await.unwrap().is_empty());
    // Its renewal gets it nothing back, and its claim fails while b holds the lease.
    assert!(!a.claim("t").await.unwrap());
    // The new owner goes on from the log as it was.
    b.append("t", &rest[0], None).await.unwrap();
    b.append("t", &rest[1], None).await.unwrap();
    let whole: Vec<Entry> = kept
        .iter()
        .chain(&rest[0])
        .chain(&rest[1])
        .cloned()
        .collect();
    assert_eq!(a.log("t").await.unwrap(), whole);
}

/// A node paused past its lease loses it even when nobody took it yet: its renewal
/// says so, and it writes nothing more.
pub async fn a_lease_lapsed_unrenewed_is_lost_even_before_a_takeover(
    a: &PostgresStore,
    _b: &PostgresStore,
) {
    let (kept, rest) = table_on(a, 1).await;
    lapse().await;
    assert_eq!(
        a.renew("127.0.0.1:7001", &HashMap::new()).await.unwrap(),
        ["t"]
    );
    lost(a.append("t", &rest[0], None).await, "t");
    assert_eq!(a.log("t").await.unwrap(), kept);
}

/// A lease let go is free at once: another node takes the table without waiting for a
/// lapse (a node shutting down hands its tables over).
pub async fn a_released_lease_is_taken_at_once(a: &PostgresStore, b: &PostgresStore) {
    let (_, rest) = table_on(a, 2).await;
    a.release("t").await.unwrap();
    lost(a.append("t", &rest[0], None).await, "t");
    let orphans: Vec<String> = b
        .orphans()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.unwrap().id)
        .collect();
    assert_eq!(orphans, ["t"]);
    assert!(b.claim("t").await.unwrap());
    b.append("t", &rest[0], None).await.unwrap();
    assert_eq!(b.owners(&["t".to_string()]).await.unwrap()["t"], "b");
}

/// The lobby of each node lists the other nodes' live tables from their renewals.
pub async fn the_lobby_lists_the_other_nodes_tables(a: &PostgresStore, b: &PostgresStore) {
    table_on(a, 1).await;
    let summary = r#"{"id":"t","status":"playing"}"#.to_string();
    let summaries = HashMap::from([("t".to_string(), summary.clone())]);
    a.renew("127.0.0.1:7001", &summaries).await.unwrap();
    assert_eq!(b.others_lobby().await.unwrap(), [summary]);
    assert!(a.others_lobby().await.unwrap().is_empty());
    // A table no longer shown (its game over) leaves the lobby at the next renewal.
    a.renew("127.0.0.1:7001", &HashMap::new()).await.unwrap();
    assert!(b.others_lobby().await.unwrap().is_empty());
}

/// Night `id` as stored, its state `state`.
fn night(id: &str, state: &str, status: NightStatus) -> StoredNight {
    StoredNight {
        id: id.into(),
        state: state.into(),
        status,
        created_at: 1,
    }
}

/// A night runs on the node that stored it: another may neither claim nor save it while
/// its lease is renewed; once it lapses, another takes it over, and the old node's saves
/// are refused and change nothing.
pub async fn a_night_runs_on_one_node_and_is_taken_over_when_it_lapses(
    a: &PostgresStore,
    b: &PostgresStore,
) {
    a.save_night(&night("n", "{}", NightStatus::Playing))
        .await
        .unwrap();
    assert!(a.holds_night("n"));
    assert!(!b.holds_night("n"));
    assert!(!b.claim_night("n").await.unwrap());
    assert!(b.orphan_nights().await.unwrap().is_empty());
    let by_b = night("n", r#"{"by":"b"}"#, NightStatus::Playing);
    lost(b.save_night(&by_b).await, "night n");
    for _ in 0..4 {
        tokio::time::sleep(LEASE / 3).await;
        a.renew("127.0.0.1:7001", &HashMap::new()).await.unwrap();
    }
    assert!(!b.claim_night("n").await.unwrap());
    let set_one = night("n", r#"{"set":1}"#, NightStatus::Playing);
    a.save_night(&set_one).await.unwrap();
    lapse().await;
    // Unrenewed past its end, the lease is lost to its node even before a takeover.
    a.renew("127.0.0.1:7001", &HashMap::new()).await.unwrap();
    assert!(!a.holds_night("n"));
    assert_eq!(b.orphan_nights().await.unwrap(), ["n"]);
    assert!(b.claim_night("n").await.unwrap());
    assert!(b.orphan_nights().await.unwrap().is_empty());
    let late = night("n", r#"{"late":true}"#, NightStatus::Over);
    lost(a.save_night(&late).await, "night n");
    assert!(!a.claim_night("n").await.unwrap());
    assert_eq!(b.night("n").await.unwrap(), Some(set_one));
    b.save_night(&by_b).await.unwrap();
    assert_eq!(a.night("n").await.unwrap(), Some(by_b));
}

/// The nights a node lets go (it shuts down) are taken at once by another, and the
/// first's saves of them are refused; a night over is nobody's to take.
pub async fn released_nights_are_taken_at_once(a: &PostgresStore, b: &PostgresStore) {
    for id in ["n1", "n2"] {
        a.save_night(&night(id, "{}", NightStatus::Playing))
            .await
            .unwrap();
    }
    a.save_night(&night("n2", "{}", NightStatus::Over))
        .await
        .unwrap();
    a.release_nights().await.unwrap();
    assert!(!a.holds_night("n1") && !a.holds_night("n2"));
    lost(
        a.save_night(&night("n1", "{}", NightStatus::Over)).await,
        "night n1",
    );
    assert_eq!(b.orphan_nights().await.unwrap(), ["n1"]);
    assert!(b.claim_night("n1").await.unwrap());
    b.save_night(&night("n1", "{}", NightStatus::Over))
        .await
        .unwrap();
    assert!(b.orphan_nights().await.unwrap().is_empty());
}

/// A node whose night lapsed and was taken over keeps no next set's table for it: the
/// table and the night are one transaction, fenced by the night's lease, so the table
/// is not left outside the night (nor leased, nor run anywhere).
pub async fn a_set_table_is_kept_only_with_its_night_under_the_nights_lease(
    a: &PostgresStore,
    b: &PostgresStore,
) {
    let first = new_table("s1", 1, TableStatus::Playing, 0);
    let started = night("n", r#"{"tables":["s1"]}"#, NightStatus::Playing);
    a.create_set_table(&first, &started).await.unwrap();
    assert!(a.holds_night("n"));
    assert!(!b.claim("s1").await.unwrap());
    // Another node may not start the night's next set while `a` holds it.
    let by_b = night("n", r#"{"tables":["s1","b"]}"#, NightStatus::Playing);
    lost(
        b.create_set_table(&new_table("b", 2, TableStatus::Open, 0), &by_b)
            .await,
        "night n",
    );
    assert_eq!(a.table("b").await.unwrap(), None);
    // `a` is paused past its lease; `b` takes the night over.
    lapse().await;
    assert!(b.claim_night("n").await.unwrap());
    let late = night("n", r#"{"tables":["s1","s2"]}"#, NightStatus::Playing);
    lost(
        a.create_set_table(&new_table("s2", 2, TableStatus::Open, 0), &late)
            .await,
        "night n",
    );
    assert_eq!(b.table("s2").await.unwrap(), None);
    assert!(b.owners(&["s2".to_string()]).await.unwrap().is_empty());
    assert_eq!(b.night("n").await.unwrap(), Some(started));
    // The night's new node starts the set, and holds its table.
    let next = night("n", r#"{"tables":["s1","s2"]}"#, NightStatus::Playing);
    b.create_set_table(&new_table("s2", 2, TableStatus::Open, 0), &next)
        .await
        .unwrap();
    assert_eq!(b.night("n").await.unwrap(), Some(next));
    assert_eq!(
        b.owners(&["s2".to_string()]).await.unwrap(),
        HashMap::from([("s2".to_string(), "b".to_string())])
    );
}
