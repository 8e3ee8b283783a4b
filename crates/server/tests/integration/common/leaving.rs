//! Ways out of a table, over real sockets and HTTP, on either backend: an invited
//! account declines its seat, a seated one leaves before the start (each seat open again
//! with a new link, the host told), the host closes a table not started; and a rated
//! game rates no account that never took its seat.

use std::time::Duration;

use serde_json::{json, Value};

use super::account_seats::{call, hello_as, sign_up};
use super::{error_saying, next, seeded_hub, send, server_on, until};
use super::{Backend, Socket};

/// Messages until one of `kind` that `matches`.
async fn until_such(socket: &mut Socket, kind: &str, matches: impl Fn(&Value) -> bool) -> Value {
    loop {
        let message = until(socket, kind).await;
        if matches(&message) {
            return message;
        }
    }
}

/// `POST path` as `session`: status and the error said (empty if none).
async fn post(
    addr: std::net::SocketAddr,
    path: &str,
    session: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let (status, _, answer) = call(addr, "POST", path, session, Some(body)).await;
    (status, answer)
}

fn says(answer: &Value, words: &str) {
    let said = answer["error"].as_str().unwrap_or_default();
    assert!(said.contains(words), "{answer} does not say {words}");
}

pub async fn an_invitation_is_declined_a_seat_left_and_a_table_closed_before_the_start(
    backend: Backend,
) {
    let (_database, server) = server_on(backend, seeded_hub(7, Duration::from_secs(60))).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let bob = sign_up(addr, "Bob").await;
    let cat = sign_up(addr, "Cat").await;
    let (status, _, created) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&ann),
        Some(json!({ "game": "kaibosh", "seats": ["open", "open", "open", "bot:random"] })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let host_token = created["host_token"].as_str().unwrap().to_string();
    let token = |seat: usize| {
        created["invites"][seat]["token"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut host = hello_as(&server, &id, None, json!({ "host": host_token })).await;
    until(&mut host, "welcome").await;
    let (status, answer) = post(
        addr,
        &format!("/api/tables/{id}/invitations"),
        Some(&ann),
        json!({ "host_token": host_token, "seat": 1, "name": "Bob" }),
    )
    .await;
    assert_eq!(status, 201, "{answer}");
    let mut cats = hello_as(&server, &id, Some(&cat), json!({ "token": token(2) })).await;
    assert_eq!(until(&mut cats, "welcome").await["seat"], 2);

    // Refused, each saying why, and nothing changes: no session; an account with no
    // seat here; no such table; a close with a seat's token, not the host's.
    let leave = format!("/api/tables/{id}/leave");
    let close = format!("/api/tables/{id}/close");
    let (status, answer) = post(addr, &leave, None, json!({})).await;
    assert_eq!(status, 401, "{answer}");
    let (status, answer) = post(addr, &leave, Some(&ann), json!({})).await;
    assert_eq!(status, 409, "{answer}");
    says(&answer, "you hold no seat at this table");
    let (status, answer) = post(addr, "/api/tables/nosuch/leave", Some(&bob), json!({})).await;
    assert_eq!(status, 404, "{answer}");
    let (status, answer) = post(addr, &close, None, json!({ "host_token": token(2) })).await;
    assert_eq!(status, 403, "{answer}");
    says(&answer, "only the table's host closes it");
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    assert_eq!(bobs["tables"][0]["invited_by"], "Ann", "{bobs}");

    // Bob declines: the seat is open and nobody's, the host told with its new link.
    let (status, answer) = post(addr, &leave, Some(&bob), json!({})).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["left"], 1);
    let told = until(&mut host, "seat-left").await;
    assert_eq!(
        told,
        json!({ "type": "seat-left", "seat": 1, "name": "Bob", "declined": true })
    );
    let invite = until(&mut host, "invite").await;
    assert_eq!(invite["seat"], 1, "{invite}");
    let fresh = invite["token"].as_str().unwrap().to_string();
    assert_ne!(fresh, token(1), "a new link");
    let seats = until_such(&mut host, "seats", |s| s["seats"][1]["name"].is_null()).await;
    assert_eq!(seats["seats"][1]["sitter"], "open", "{seats}");
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    assert_eq!(bobs["tables"], json!([]), "{bobs}");
    let (status, answer) = post(addr, &leave, Some(&bob), json!({})).await;
    assert_eq!(status, 409, "declined once: {answer}");
    // The old link seats no one; the new one seats a guest.
    let mut late = hello_as(&server, &id, None, json!({ "token": token(1) })).await;
    error_saying(&mut late, "bad_token", "no longer seat 1's").await;
    let mut guest = hello_as(&server, &id, None, json!({ "token": fresh })).await;
    assert_eq!(until(&mut guest, "welcome").await["seat"], 1);

    // Cat, seated signed in, leaves before the start: her connection is closed, the
    // host told, the seat open again.
    let (status, answer) = post(addr, &leave, Some(&cat), json!({})).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["left"], 2);
    let closing = until(&mut cats, "closing").await;
    assert_eq!(closing["kind"], "seat_gone", "{closing}");
    says(&json!({ "error": closing["reason"] }), "you left seat 2");
    let told = until(&mut host, "seat-left").await;
    assert_eq!(
        told,
        json!({ "type": "seat-left", "seat": 2, "name": "Cat", "declined": false })
    );
    let (_, _, cats_tables) = call(addr, "GET", "/api/me/tables", Some(&cat), None).await;
    assert_eq!(cats_tables["tables"], json!([]), "{cats_tables}");

    // The host closes the table: everyone at it is told; it is gone from the lobby.
    let (status, answer) = post(addr, &close, None, json!({ "host_token": host_token })).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["closed"], id);
    let closing = until(&mut guest, "closing").await;
    assert_eq!(closing["kind"], "table_gone", "{closing}");
    let (status, answer) = post(addr, &close, None, json!({ "host_token": host_token })).await;
    assert_eq!(status, 409, "closed once: {answer}");
    says(&answer, "the table is ended already");
    let (_, _, lobby) = call(addr, "GET", "/api/tables", None, None).await;
    assert!(
        !lobby.to_string().contains(&id),
        "the closed table is listed: {lobby}"
    );

    // Once the game has started a taken seat is not left, nor the table closed here.
    let (status, _, started) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&ann),
        Some(json!({ "game": "kaibosh", "seats": ["open", "bot:random", "bot:random", "bot:random"] })),
    )
    .await;
    assert_eq!(status, 201, "{started}");
    let other = started["id"].as_str().unwrap();
    let seat = started["invites"][0]["token"].as_str().unwrap();
    let mut bobs_seat = hello_as(&server, other, Some(&bob), json!({ "token": seat })).await;
    until_such(&mut bobs_seat, "status", |s| s["status"] == "playing").await;
    let (status, answer) = post(
        addr,
        &format!("/api/tables/{other}/leave"),
        Some(&bob),
        json!({}),
    )
    .await;
    assert_eq!(status, 409, "{answer}");
    says(&answer, "the game has started");
    let host = started["host_token"].as_str().unwrap();
    let (status, answer) = post(
        addr,
        &format!("/api/tables/{other}/close"),
        None,
        json!({ "host_token": host }),
    )
    .await;
    assert_eq!(status, 409, "{answer}");
    says(&answer, "the game has started");
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    assert_eq!(bobs["tables"][0]["table"], other, "still Bob's: {bobs}");
    server.stop().await.unwrap();
}

pub async fn a_rated_game_rates_no_account_that_declined_or_never_took_its_seat(backend: Backend) {
    // No grace: once Ann leaves, a bot stands in and the game runs to its end.
    let (_database, server) = server_on(backend, seeded_hub(11, Duration::ZERO)).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let bob = sign_up(addr, "Bob").await;
    let cat = sign_up(addr, "Cat").await;
    let table = json!({ "game": "kaibosh", "options": { "deals": 1 }, "rated": true,
                        "seats": ["open", "open", "open", "bot:easy"] });
    let (status, _, created) = call(addr, "POST", "/api/tables", Some(&ann), Some(table)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let host_token = created["host_token"].as_str().unwrap().to_string();
    let ann_seat = created["invites"][0]["token"].as_str().unwrap();
    let mut anns = hello_as(
        &server,
        &id,
        Some(&ann),
        json!({ "token": ann_seat, "host": host_token }),
    )
    .await;
    assert_eq!(until(&mut anns, "welcome").await["seat"], 0);
    for (seat, name) in [(1, "Bob"), (2, "Cat")] {
        let (status, answer) = post(
            addr,
            &format!("/api/tables/{id}/invitations"),
            Some(&ann),
            json!({ "host_token": host_token, "seat": seat, "name": name }),
        )
        .await;
        assert_eq!(status, 201, "{answer}");
    }
    // Bob declines; Cat never comes. Ann starts: bots take both seats, for no one.
    let (status, answer) = post(
        addr,
        &format!("/api/tables/{id}/leave"),
        Some(&bob),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    send(&mut anns, json!({ "type": "start" })).await;
    let seats = until_such(&mut anns, "seats", |s| {
        s["seats"][2]["sitter"]
            .as_str()
            .is_some_and(|s| s.starts_with("bot:"))
    })
    .await;
    assert_eq!(
        seats["seats"][2]["name"], "medium",
        "a bot, not Cat: {seats}"
    );
    let (_, _, cats) = call(addr, "GET", "/api/me/tables", Some(&cat), None).await;
    assert_eq!(cats["tables"], json!([]), "{cats}");
    let mut watcher = hello_as(&server, &id, None, json!({})).await;
    until(&mut watcher, "welcome").await;
    drop(anns);
    loop {
        let message = next(&mut watcher, Duration::from_secs(60))
            .await
            .expect("the game goes on to its end");
        if message["type"] == "status" && message["status"] == "over" {
            break;
        }
    }
    // Ann, who sat down, is rated; Bob and Cat are not.
    let (_, _, page) = call(addr, "GET", "/api/players/ann", None, None).await;
    assert_eq!(page["ratings"][0]["games"], 1, "{page}");
    assert_eq!(page["games"][0]["rated"], true, "{page}");
    assert_eq!(page["games"][0]["night"], json!(null), "{page}");
    for name in ["bob", "cat"] {
        let (status, _, page) =
            call(addr, "GET", &format!("/api/players/{name}"), None, None).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["ratings"], json!([]), "{name} never sat down: {page}");
        assert_eq!(page["rating_history"], json!([]), "{page}");
    }
    server.stop().await.unwrap();
}
