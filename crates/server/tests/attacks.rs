//! What a stranger's attack on the merged server found, each closed and tested over real
//! loopback sockets: a host taking another person's seat mid-hand. Every wait is bounded.

mod common;

use std::time::Duration;

use common::account_seats::{call, hello_as, sign_up};
use common::*;
use serde_json::{json, Value};

/// The seat's hand in `message` (an `update` or `snapshot`), if it shows one.
fn hand_in(message: &Value) -> Option<Value> {
    Some(message["view"]["hand"].clone()).filter(|hand| !hand.is_null())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bound_seat_the_host_opens_mid_hand_opens_only_when_the_hand_ends() {
    let (_dir, server) = server_in_temp(seeded_hub(11, Duration::from_secs(60))).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let created = create(
        &server,
        json!({"game": "kaibosh", "options": {"deals": 3},
               "seats": ["open", "bot:random", "bot:random", "bot:random"]}),
    )
    .await;
    let (id, token) = id_and_token(&created);
    // Ann sits down signed in: the seat is bound to her account, and the game starts.
    let mut ann_socket = hello_as(&server, id, Some(&ann), json!({ "token": token })).await;
    assert_eq!(until(&mut ann_socket, "welcome").await["seat"], 0);
    let (mut version, mut legal, first_hand) = loop {
        let message = next(&mut ann_socket, Duration::from_secs(10))
            .await
            .expect("Ann's first turn");
        let turn = message["view"]["legal"].as_array().cloned();
        if let (Some(hand), Some(legal)) = (hand_in(&message), turn.filter(|l| !l.is_empty())) {
            break (message["version"].as_u64().unwrap(), legal, hand);
        }
    };

    // Mid-hand, at Ann's turn, the host opens her seat for someone else.
    let mut host = hello(&server, id, json!({ "token": created["host_token"] })).await;
    until(&mut host, "welcome").await;
    send(
        &mut host,
        json!({"type": "set-seat", "seat": 0, "sitter": "open"}),
    )
    .await;
    let told = messages_before_pong(&mut host).await;
    assert!(
        told.iter().all(|m| m["type"] != "invite"),
        "no new link while the hand is in play: {told:?}"
    );
    let seats = told
        .iter()
        .rfind(|m| m["type"] == "seats")
        .expect("the host is shown the seat waiting to open");
    assert_eq!(seats["seats"][0]["opens_after_hand"], true, "{seats}");
    assert_eq!(seats["seats"][0]["sitter"], "person", "{seats}");
    // Until then the seat is still Ann's: in her "My tables", and nobody else's way in.
    let (_, _, mine) = call(addr, "GET", "/api/me/tables", Some(&ann), None).await;
    assert_eq!(mine["tables"][0]["seat"], 0, "{mine}");
    let mut guest = hello(&server, id, json!({ "token": token })).await;
    error_saying(&mut guest, "seat_taken", "sign in as that player").await;

    // Ann plays the hand out; when it ends she is closed out and the seat opens.
    let closing = loop {
        send(
            &mut ann_socket,
            json!({"type": "act", "version": version, "action": legal[0]}),
        )
        .await;
        let closing = loop {
            let message = next(&mut ann_socket, Duration::from_secs(10))
                .await
                .expect("the hand goes on");
            if message["type"] == "closing" {
                break Some(message);
            }
            let turn = message["view"]["legal"].as_array().cloned();
            if let Some(turn) = turn.filter(|l| !l.is_empty()) {
                (version, legal) = (message["version"].as_u64().unwrap(), turn);
                break None;
            }
        };
        if let Some(closing) = closing {
            break closing;
        }
    };
    assert_eq!(closing["kind"], "seat_gone", "{closing}");
    let invite = until(&mut host, "invite").await;
    let (_, _, mine) = call(addr, "GET", "/api/me/tables", Some(&ann), None).await;
    assert_eq!(mine["tables"], json!([]), "the seat is no longer Ann's");

    // The new link takes the seat: what it is shown is the next hand, never Ann's.
    let mut taker = hello(&server, id, json!({ "token": invite["token"] })).await;
    assert_eq!(until(&mut taker, "welcome").await["seat"], 0);
    let snapshot = until(&mut taker, "snapshot").await;
    assert!(
        snapshot["view"]["deals_played"].as_u64().unwrap() >= 1,
        "{snapshot}"
    );
    assert_ne!(hand_in(&snapshot), Some(first_hand), "{snapshot}");
    server.stop().await.unwrap();
}
