//! What a table says when it refuses, and what it serves once its host ends it: over
//! real sockets, against the real server.

use crate::common;

use std::time::Duration;

use calltrump_engine::fair_deal::verify;
use calltrump_engine::Record;
use calltrump_server::HubConfig;
use common::*;
use serde_json::{json, Value};

/// A refusal of `socket`'s, after whatever else comes first.
async fn error_of(socket: &mut Socket) -> String {
    until(socket, "error").await["message"]
        .as_str()
        .unwrap()
        .to_string()
}

/// An unseeded hub: every table deals from committed seeds; a seat that does not cut at
/// once is cut for.
fn committed_deals() -> HubConfig {
    HubConfig {
        cut_wait: Duration::from_millis(50),
        ..HubConfig::new(Duration::ZERO, Duration::from_secs(60))
    }
}

/// A Kaibosh table of Ann (seat 0) and three bots, Ann seated, dealt from committed seeds
/// (an unseeded server); returns the server, the created table and Ann's socket at her
/// first turn with its version and legal actions.
async fn ann_against_bots() -> (
    tempfile::TempDir,
    calltrump_server::RunningServer,
    Value,
    Socket,
    u64,
    Vec<Value>,
) {
    let (dir, server) = server_in_temp(committed_deals()).await;
    let created = create(&server, kaibosh_with_bots(1, "bot:random")).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["invites"][0]["token"].clone();
    let mut ann = hello(&server, &id, json!({ "token": token, "name": "Ann" })).await;
    let (version, legal) = until_my_turn(&mut ann, Duration::from_secs(20)).await;
    (dir, server, created, ann, version, legal)
}

/// An action of the wrong kind (a card in the auction) is refused with what the seat
/// may do instead; a version from the future is told apart from a stale one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_says_what_the_seat_may_do_and_which_way_its_version_is_off() {
    let (_dir, server, _created, mut ann, version, legal) = ann_against_bots().await;
    let in_auction = legal.iter().any(|a| a == "pass");
    let wrong_kind = if in_auction { "play 9S" } else { "pass" };
    send(
        &mut ann,
        json!({"type": "act", "version": version, "action": wrong_kind}),
    )
    .await;
    let message = error_of(&mut ann).await;
    assert!(message.contains("may not do that now"), "{message}");
    let choices = message
        .split_once("seat 0 may now: ")
        .unwrap_or_else(|| panic!("no choices in: {message}"))
        .1;
    let named: Vec<&str> = choices.split(", ").collect();
    let legal: Vec<&str> = legal.iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(named, legal, "{message}");

    send(
        &mut ann,
        json!({"type": "act", "version": version + 5, "action": legal[0]}),
    )
    .await;
    let message = error_of(&mut ann).await;
    assert!(
        message.contains(&format!("version {} is ahead of the table", version + 5)),
        "{message}"
    );
    if version > 0 {
        send(
            &mut ann,
            json!({"type": "act", "version": version - 1, "action": legal[0]}),
        )
        .await;
        let message = error_of(&mut ann).await;
        assert!(message.starts_with("stale version"), "{message}");
    }
    // A version sent as text: the error speaks of a number, not of Rust's types.
    send(
        &mut ann,
        json!({"type": "act", "version": version.to_string(), "action": legal[0]}),
    )
    .await;
    let message = error_of(&mut ann).await;
    assert!(message.contains("expected a whole number"), "{message}");
    assert!(!message.contains("u64"), "{message}");
    // None of it changed the table: Ann's answer to the real version is taken.
    send(
        &mut ann,
        json!({"type": "act", "version": version, "action": legal[0]}),
    )
    .await;
    let update = until(&mut ann, "update").await;
    assert!(update["version"].as_u64().unwrap() > version, "{update}");
    server.stop().await.unwrap();
}

/// A table its host ends mid-hand serves its whole record, the unfinished hand's seed
/// revealed, so that it verifies; from memory and after a restart, from the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ended_tables_record_verifies_with_its_unfinished_hand() {
    let (dir, server, created, ann, _, _) = ann_against_bots().await;
    let id = created["id"].as_str().unwrap().to_string();
    let (_, body) = record_of(&server, &id).await;
    let in_play = Record::parse(&body).unwrap();
    // The hand in play is the last one: a partner's kaibosh may have played out a whole
    // hand before Ann's first turn.
    let hand_in_play = in_play.hands.last().expect("a hand is in play");
    assert!(
        hand_in_play.deal.iter().all(Vec::is_empty),
        "the hand in play is not shown: {body}"
    );
    let hands_in_play = in_play.hands.len();
    let mut host = hello(&server, &id, json!({"token": created["host_token"]})).await;
    send(&mut host, json!({"type": "end"})).await;
    until(&mut host, "closing").await;
    drop((ann, host));
    let check = |body: &str| {
        let record = Record::parse(body).unwrap();
        assert_eq!(record.hands.len(), hands_in_play, "{body}");
        assert!(record
            .hands
            .iter()
            .all(|hand| hand.deal.iter().all(|cards| !cards.is_empty())));
        let verification = verify(&record).unwrap();
        assert!(verification.is_ok(), "{verification:?}\n{body}");
    };
    let (status, body) = record_of(&server, &id).await;
    assert_eq!(status, 200, "{body}");
    check(&body);
    server.stop().await.unwrap();
    let server = start_with_config(&dir, committed_deals()).await;
    let (status, body) = record_of(&server, &id).await;
    assert_eq!(status, 200, "{body}");
    check(&body);
    server.stop().await.unwrap();
}
