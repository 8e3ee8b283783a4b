//! Seats bound to accounts and the players' pages over real sockets and HTTP, on SQLite
//! (`postgres.rs` runs the same on PostgreSQL).

use crate::common;

use common::{account_seats, Backend};

#[tokio::test]
async fn a_seat_taken_signed_in_is_the_accounts_alone_from_any_device() {
    account_seats::a_seat_taken_signed_in_is_the_accounts_alone_from_any_device(Backend::Sqlite)
        .await;
}

#[tokio::test]
async fn a_players_page_counts_their_games_and_shows_them_their_unfinished_ones() {
    account_seats::a_players_page_counts_their_games_and_shows_them_their_unfinished_ones(
        Backend::Sqlite,
    )
    .await;
}

#[tokio::test]
async fn an_older_account_gets_its_skeleton_at_start_and_a_look_alike_is_refused() {
    account_seats::an_older_account_gets_its_skeleton_at_start_and_a_look_alike_is_refused(
        Backend::Sqlite,
    )
    .await;
}

/// A signed-in host's own seat is in "My tables" as soon as the table is made (before
/// they sit down), each row naming who sits where; a guest's `host_seat` binds nothing,
/// and one that is not an open seat is refused, naming the field.
#[tokio::test]
async fn a_signed_in_hosts_own_seat_is_in_my_tables_from_the_start() {
    use common::account_seats::{call, sign_up};
    use serde_json::json;
    let (_database, server) = common::server_on(
        Backend::Sqlite,
        common::seeded_hub(7, std::time::Duration::from_secs(60)),
    )
    .await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let table = |host_seat: u64| {
        json!({"game": "kaibosh", "seats": ["bot:random", "open", "open", "bot:random"],
            "names": ["", "Ann", "", ""], "host_seat": host_seat})
    };
    let (status, _, created) = call(addr, "POST", "/api/tables", Some(&ann), Some(table(1))).await;
    assert_eq!(status, 201, "{created}");
    let (status, _, mine) = call(addr, "GET", "/api/me/tables", Some(&ann), None).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["tables"].as_array().unwrap().len(), 1, "{mine}");
    let row = &mine["tables"][0];
    assert_eq!((&row["table"], &row["seat"]), (&created["id"], &json!(1)));
    assert_eq!(
        row["players"],
        json!([{"name": null, "bot": true}, {"name": "Ann", "bot": false},
            {"name": null, "bot": false}, {"name": null, "bot": true}])
    );
    // The seat is Ann's account's: a guest with its link is refused.
    let token = created["invites"][0]["token"].as_str().unwrap();
    assert_eq!(created["invites"][0]["seat"], 1);
    let mut guest = common::account_seats::hello_as(
        &server,
        created["id"].as_str().unwrap(),
        None,
        json!({"token": token, "name": "Zed"}),
    )
    .await;
    common::error_saying(&mut guest, "seat_taken", "sign in as that player").await;
    // A guest host binds nothing; a bot's seat or one past the table is refused.
    let (status, _, _) = call(addr, "POST", "/api/tables", None, Some(table(2))).await;
    assert_eq!(status, 201);
    for bad in [0, 7] {
        let (status, _, body) =
            call(addr, "POST", "/api/tables", Some(&ann), Some(table(bad))).await;
        assert_eq!(status, 400, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("host_seat"),
            "{body}"
        );
    }
    let (_, _, mine) = call(addr, "GET", "/api/me/tables", Some(&ann), None).await;
    assert_eq!(mine["tables"].as_array().unwrap().len(), 1, "{mine}");
    server.stop().await.unwrap();
}

/// `POST /api/tables/{id}/holder`: a seat link's token opens its seat until the host
/// gives the seat to a bot (then none, so the lobby drops "Back to my seat"); a wrong
/// token opens none; no such table is 404; a bad body is 400, naming the field.
#[tokio::test]
async fn a_seat_links_holder_is_none_once_the_host_takes_the_seat_back() {
    use common::account_seats::call;
    use serde_json::json;
    let (_database, server) = common::server_on(
        Backend::Sqlite,
        common::seeded_hub(8, std::time::Duration::from_secs(60)),
    )
    .await;
    let addr = server.addr;
    let body = json!({"game": "kaibosh", "seats": ["open", "open", "bot:random", "bot:random"]});
    let (status, _, created) = call(addr, "POST", "/api/tables", None, Some(body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["invites"][1]["token"].as_str().unwrap();
    assert_eq!(created["invites"][1]["seat"], 1);
    let holder = format!("/api/tables/{id}/holder");
    let ask = |token: &str| json!({ "token": token });
    let (status, _, answer) = call(addr, "POST", &holder, None, Some(ask(token))).await;
    assert_eq!((status, &answer), (200, &json!({"seat": 1})));
    for wrong in ["", "0123456789abcdef0123456789abcdef"] {
        let (status, _, answer) = call(addr, "POST", &holder, None, Some(ask(wrong))).await;
        assert_eq!((status, &answer), (200, &json!({"seat": null})));
    }
    let (status, _, answer) = call(
        addr,
        "POST",
        "/api/tables/nosuch/holder",
        None,
        Some(ask(token)),
    )
    .await;
    assert_eq!(status, 404, "{answer}");
    let (status, _, answer) = call(addr, "POST", &holder, None, Some(json!({"tokn": token}))).await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("tokn"),
        "{answer}"
    );

    // The host takes seat 1 back: a bot plays it, and its old link opens nothing.
    let mut host = common::hello(&server, id, json!({"token": created["host_token"]})).await;
    common::until(&mut host, "welcome").await;
    let give = json!({"type": "set-seat", "seat": 1, "sitter": "bot:easy"});
    common::send(&mut host, give).await;
    // The change is kept before anyone is told of it.
    while common::until(&mut host, "seats").await["seats"][1]["sitter"] != "bot:easy" {}
    let (status, _, answer) = call(addr, "POST", &holder, None, Some(ask(token))).await;
    assert_eq!((status, &answer), (200, &json!({"seat": null})));
    server.stop().await.unwrap();
}
