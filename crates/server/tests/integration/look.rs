//! Over real sockets: `look` (a seat's link watched before its person sits down) and
//! when a table starts (docs/table-protocol.md).

use crate::common;

use common::{
    connect, hello, http_at, id_and_token, kaibosh_with_bots, messages_before_pong, record_of,
    seeded_hub, send, server_with_table, until,
};

use std::time::Duration;

use calltrump_server::RunningServer;
use serde_json::{json, Value};

/// The table's status as the lobby lists it.
async fn listed_status(server: &RunningServer, id: &str) -> Value {
    let (status, body) = http_at(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    let table = list["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap_or_else(|| panic!("table {id} not listed: {body}"))
        .clone();
    table["status"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_link_that_looks_watches_without_taking_the_seat_then_hello_takes_it() {
    // One open seat and three bots: the person's hello alone would start the game.
    let (_dir, server, created) = server_with_table(
        seeded_hub(5, Duration::from_secs(60)),
        kaibosh_with_bots(1, "bot:rules"),
    )
    .await;
    let (id, token) = id_and_token(&created);
    let mut zoe = hello(&server, id, json!({"name": "Zoe"})).await;
    until(&mut zoe, "seats").await;

    let mut looker = connect(&server, id).await;
    send(&mut looker, json!({"type": "look", "token": token})).await;
    // welcome names the token's seat, but as a spectator's: no host, the table open.
    let welcome = until(&mut looker, "welcome").await;
    assert_eq!(welcome["seat"], 0, "{welcome}");
    assert_eq!(welcome["host"], false, "{welcome}");
    assert_eq!(welcome["status"], "open", "{welcome}");
    // A spectator's snapshot: no cards of its own.
    let snapshot = until(&mut looker, "snapshot").await;
    assert!(snapshot["dealt"].is_null(), "{snapshot}");
    assert!(snapshot["view"]["hand"].is_null(), "{snapshot}");
    // The seat stays open, nobody connected at it.
    let seats = until(&mut looker, "seats").await;
    assert_eq!(seats["seats"][0]["sitter"], "open", "{seats}");
    assert_eq!(seats["seats"][0]["connected"], false, "{seats}");
    assert!(seats["seats"][0]["name"].is_null(), "{seats}");
    // Nothing starts, and nobody else is told anything.
    let after = messages_before_pong(&mut looker).await;
    assert!(after.iter().all(|m| m["type"] != "status"), "{after:?}");
    let others = messages_before_pong(&mut zoe).await;
    assert!(others.is_empty(), "Zoe was told of the look: {others:?}");
    assert_eq!(listed_status(&server, id).await, "open");
    let (_, record) = record_of(&server, id).await;
    let record: Value = serde_json::from_str(&record).unwrap();
    assert_eq!(record["hands"], json!([]), "{record}");
    // A look is no seat: it may not act.
    send(
        &mut looker,
        json!({"type": "act", "version": 0, "action": "pass"}),
    )
    .await;
    until(&mut looker, "error").await;

    // The person gives a name: the look closes and hello takes the seat.
    drop(looker);
    let mut ann = hello(&server, id, json!({"token": token, "name": "Ann"})).await;
    let welcome = until(&mut ann, "welcome").await;
    assert_eq!(welcome["seat"], 0, "{welcome}");
    let status = until(&mut zoe, "status").await;
    assert_eq!(status["status"], "playing");
    let seats = loop {
        let seats = until(&mut zoe, "seats").await;
        if seats["seats"][0]["sitter"] == "person" {
            break seats;
        }
    };
    assert_eq!(seats["seats"][0]["name"], "Ann", "{seats}");
    assert_eq!(listed_status(&server, id).await, "playing");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_is_refused_for_the_hosts_token_and_a_strangers() {
    let (_dir, server, created) = server_with_table(
        seeded_hub(5, Duration::from_secs(60)),
        kaibosh_with_bots(1, "bot:rules"),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let host = created["host_token"].as_str().unwrap();
    for token in [host, "00000000000000000000000000000000"] {
        let mut looker = connect(&server, id).await;
        send(&mut looker, json!({"type": "look", "token": token})).await;
        let error = until(&mut looker, "error").await;
        assert!(
            error["message"].as_str().unwrap().contains("token"),
            "{error}"
        );
        assert_eq!(error["code"], "bad_token", "{error}");
        let closing = until(&mut looker, "closing").await;
        assert_eq!(closing["kind"], "bad_token", "{closing}");
        assert_eq!(closing["reason"], "unknown token", "{closing}");
    }
    assert_eq!(listed_status(&server, id).await, "open");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_bots_only_starts_when_its_first_connection_arrives() {
    let (_dir, server, created) = server_with_table(
        seeded_hub(5, Duration::from_secs(60)),
        kaibosh_with_bots(0, "bot:rules"),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    // Nothing is under way at a table nobody came to (the session's own test shows no
    // timer but its retirement is set): it is still open, with no hand.
    assert_eq!(listed_status(&server, id).await, "open");
    let (_, record) = record_of(&server, id).await;
    assert!(record.contains(r#""hands":[]"#), "{record}");
    // A spectator comes: the bots start playing.
    let mut zoe = hello(&server, id, json!({})).await;
    until(&mut zoe, "welcome").await;
    until(&mut zoe, "update").await;
    assert_eq!(listed_status(&server, id).await, "playing");
    server.stop().await.unwrap();
}
