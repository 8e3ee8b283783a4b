//! A person named at a rated night who declines its set from "My tables", over real
//! sockets: a bot plays their seat, the others are told, the night goes on to its end
//! with a bot in their place, unrated, and its API hands out no dead link; "My tables"
//! says who named each account.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::account_seats::{call, hello_as, sign_up};
use common::{seeded_hub, server_on, until, Backend};
use serde_json::{json, Value};

/// The night's view at `path`, polled until `done` says so (at most two minutes).
async fn night_until(addr: SocketAddr, path: &str, mut done: impl FnMut(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (status, _, view) = call(addr, "GET", path, None, None).await;
        assert_eq!(status, 200, "{view}");
        if done(&view) {
            return view;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the night stalls: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A seat's link `/table/ID#token=T`: the table and the token.
fn split_link(link: &str) -> (String, String) {
    let (table, token) = link
        .trim_start_matches("/table/")
        .split_once("#token=")
        .unwrap_or_else(|| panic!("a seat's link: {link}"));
    (table.to_string(), token.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_declines_a_nights_set_is_played_by_a_bot_unrated_and_the_night_ends() {
    // No grace: once the people leave a set, bots stand in and play it to its end.
    let (_database, server) = server_on(Backend::Sqlite, seeded_hub(19, Duration::ZERO)).await;
    let addr = server.addr;
    let mallory = sign_up(addr, "mallory").await;
    let bob = sign_up(addr, "bob").await;
    let alice = sign_up(addr, "alice").await;
    let night = json!({ "sets": 2, "rated": true, "players": [
        { "name": "mallory" }, { "name": "bob" }, { "name": "alice" },
        { "name": "Di", "sitter": "bot:easy" },
    ] });
    let (status, _, created) = call(addr, "POST", "/api/nights", Some(&mallory), Some(night)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let path = |player: usize| {
        let token = created["players"][player]["token"].as_str().unwrap();
        format!("/api/nights/{id}?player={token}")
    };
    let link_of = |view: &Value| view["you"]["link"].as_str().unwrap().to_string();

    // Bob's "My tables" says who named him to the set.
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    assert_eq!(bobs["tables"][0]["night"], id.as_str(), "{bobs}");
    assert_eq!(bobs["tables"][0]["invited_by"], "mallory", "{bobs}");

    // Mallory sits down; then alice declines the set.
    let view = night_until(addr, &path(0), |v| v["you"]["link"].is_string()).await;
    let (table, token) = split_link(&link_of(&view));
    let mut mallory_at = hello_as(&server, &table, Some(&mallory), json!({ "token": token })).await;
    until(&mut mallory_at, "welcome").await;
    let (_, alice_token) = split_link(&link_of(&night_until(addr, &path(2), |_| true).await));
    let leave = format!("/api/tables/{table}/leave");
    let (status, _, answer) = call(addr, "POST", &leave, Some(&alice), None).await;
    assert_eq!(status, 200, "{answer}");
    let seat = answer["left"].as_u64().unwrap();
    let told = until(&mut mallory_at, "seat-left").await;
    assert_eq!(
        told,
        json!({ "type": "seat-left", "seat": seat, "name": "alice", "declined": true })
    );

    // The night says she declined, hands her the table to watch, not the dead link.
    let view = night_until(addr, &path(2), |v| v["players"][2]["declined"] == 0).await;
    assert_eq!(view["players"][2]["bot"], true, "{view}");
    assert_eq!(link_of(&view), format!("/table/{table}"), "{view}");
    assert!(!link_of(&view).contains(&alice_token), "{view}");

    // Bob sits too; the people go, bots stand in, and each set plays to its end.
    let mut mallory_at = Some(mallory_at);
    for set in 0..2 {
        let people: &[(usize, &String)] = if set == 0 {
            &[(1, &bob)]
        } else {
            &[(0, &mallory), (1, &bob)]
        };
        let mut sockets = Vec::new();
        for &(player, session) in people {
            let view = night_until(addr, &path(player), |v| {
                v["set"] == set && v["you"]["link"].as_str().is_some_and(|l| l.contains('#'))
            })
            .await;
            let (table, token) = split_link(&link_of(&view));
            let mut socket =
                hello_as(&server, &table, Some(session), json!({ "token": token })).await;
            until(&mut socket, "welcome").await;
            sockets.push(socket);
        }
        if set == 1 {
            // Alice is out of the night: a bot plays her, and she has only a table to watch.
            let view = night_until(addr, &path(2), |v| v["set"] == 1).await;
            assert_eq!(view["players"][2]["bot"], true, "{view}");
            let table = view["seating"]["table"].as_str().unwrap();
            assert_eq!(link_of(&view), format!("/table/{table}"), "{view}");
            let (_, _, alices) = call(addr, "GET", "/api/me/tables", Some(&alice), None).await;
            assert_eq!(
                alices["tables"],
                json!([]),
                "no seat kept for her: {alices}"
            );
        }
        drop(sockets);
        drop(mallory_at.take());
        night_until(addr, &path(0), |v| v["sheet"]["sets_recorded"] == set + 1).await;
    }
    let view = night_until(addr, &path(0), |v| v["status"] == "over").await;
    assert_eq!(view["tables"].as_array().unwrap().len(), 2, "{view}");

    // Alice is not rated; bob is, once a set.
    let (status, _, page) = call(addr, "GET", "/api/players/alice", None, None).await;
    assert_eq!(status, 200, "{page}");
    let ratings = page["ratings"].as_array().map_or(0, Vec::len);
    assert_eq!(ratings, 0, "{page}");
    let (_, _, page) = call(addr, "GET", "/api/players/bob", None, None).await;
    assert_eq!(page["ratings"][0]["games"], 2, "{page}");
}
