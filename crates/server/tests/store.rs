//! The SQLite store keeps a step whole or not at all.

mod common;

use calltrump_engine::{seeded, Game, GameRules, Seat, Turn};
use calltrump_server::model::{SeatRecord, Sitter, TableStatus};
use calltrump_server::store::{seats_json, SqliteStore, Store, StoredTable};
use calltrump_table::{Settings, Table};
use common::database_url;

#[tokio::test]
async fn a_step_that_fails_midway_leaves_the_stored_table_as_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&database_url(&dir)).await.unwrap();
    let rules = GameRules::from_header("kaibosh", None, &Default::default()).unwrap();
    let settings = Settings::new(rules, Seat(0), &[Seat(0)]);
    let seats: Vec<SeatRecord> = (0..4)
        .map(|s| SeatRecord {
            token: format!("seat-{s}"),
            name: None,
            sitter: if s == 0 {
                Sitter::Person
            } else {
                Sitter::Bot("random".into())
            },
        })
        .collect();
    store
        .create_table(&StoredTable {
            id: "t".into(),
            settings: serde_json::to_string(&settings).unwrap(),
            deal_rng: serde_json::to_string(&seeded(3)).unwrap(),
            seats: seats_json(&seats),
            host_token: "host".into(),
            status: TableStatus::Playing,
            created_at: 0,
        })
        .await
        .unwrap();
    let mut table = Table::restore(settings, seeded(3), &[]).unwrap();
    let dealt = table.deal().unwrap();
    store.append("t", &dealt, None).await.unwrap();
    let Turn::Seat(seat) = table.turn() else {
        panic!("a seat's turn after the deal")
    };
    let action = table.game().legal_action_list()[0];
    let mut step = table.apply(seat, action).unwrap();
    // The step would end the game with new seats, but one of its rows is already kept
    // (a version taken twice): nothing of it may stay, not even the status.
    step.push(dealt[0].clone());
    let mut given_away = seats.clone();
    given_away[0].sitter = Sitter::Bot("random".into());
    let failed = store
        .append("t", &step, Some((&given_away, TableStatus::Over)))
        .await;
    assert!(failed.is_err(), "a version taken twice is refused");
    let stored = store.table("t").await.unwrap().unwrap();
    assert_eq!(stored.status, TableStatus::Playing);
    assert_eq!(stored.seats, seats_json(&seats));
    assert_eq!(store.log("t").await.unwrap(), dealt);

    // The same step without the bad row is kept whole.
    step.pop();
    store
        .append("t", &step, Some((&given_away, TableStatus::Over)))
        .await
        .unwrap();
    let stored = store.table("t").await.unwrap().unwrap();
    assert_eq!(stored.status, TableStatus::Over);
    assert_eq!(stored.seats, seats_json(&given_away));
    assert_eq!(
        store.log("t").await.unwrap().len(),
        dealt.len() + step.len()
    );
}
