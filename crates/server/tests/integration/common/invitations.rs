//! Who is online and invitations by name, over real sockets and HTTP, on either
//! backend: the lobby's socket and a table's make an account online (and their closing
//! takes it off); a signed-in host invites an account to an open seat, which is then
//! that account's alone; every refusal says why and changes nothing.

use std::time::Duration;

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

use super::account_seats::{call, hello_as, sign_up};
use super::{create, error_saying, id_and_token, next, seeded_hub, server_on, until};
use super::{Backend, Socket};

/// The lobby's socket of the session `session`.
async fn lobby_socket(addr: std::net::SocketAddr, session: &str) -> Socket {
    let mut request = format!("ws://{addr}/ws/lobby")
        .into_client_request()
        .unwrap();
    let cookie = HeaderValue::from_str(&format!("calltrump_session={session}")).unwrap();
    request.headers_mut().insert("Cookie", cookie);
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// `online` messages of a lobby's socket until one listing exactly `names`.
async fn until_online(socket: &mut Socket, names: Value) {
    loop {
        let message = next(socket, Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("no online message listing {names}"));
        if message["type"] == "online" && message["online"] == names {
            return;
        }
    }
}

/// `GET /api/online` as `session`, asked again until it lists exactly `names`.
async fn api_online_until(addr: std::net::SocketAddr, session: &str, names: Value) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (status, _, online) = call(addr, "GET", "/api/online", Some(session), None).await;
        assert_eq!(status, 200, "{online}");
        if online["online"] == names {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "online stayed {online}, not {names}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub async fn the_lobby_shows_who_is_online_and_a_host_invites_a_player_by_name(backend: Backend) {
    let (_database, server) = server_on(backend, seeded_hub(5, Duration::from_secs(60))).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let bob = sign_up(addr, "Bob").await;
    let cat = sign_up(addr, "Cat").await;

    // Only a signed-in person sees who is online; nobody is yet.
    let (status, _, refused) = call(addr, "GET", "/api/online", None, None).await;
    assert_eq!(status, 401, "{refused}");
    api_online_until(addr, &ann, json!([])).await;

    // Bob's lobby: online while its socket is open, told at once.
    let mut bobs_lobby = lobby_socket(addr, &bob).await;
    until_online(&mut bobs_lobby, json!(["Bob"])).await;
    api_online_until(addr, &ann, json!(["Bob"])).await;

    // Ann sits at her new table signed in: online too, and Bob's lobby is told.
    let created = create(
        &server,
        json!({ "game": "kaibosh", "seats": ["open", "open", "bot:random", "bot:random"] }),
    )
    .await;
    let (id, ann_token) = id_and_token(&created);
    let host_token = created["host_token"].as_str().unwrap().to_string();
    let seat_1_token = created["invites"][1]["token"].as_str().unwrap().to_string();
    let mut ann_socket = hello_as(
        &server,
        id,
        Some(&ann),
        json!({ "token": ann_token, "host": host_token }),
    )
    .await;
    assert_eq!(until(&mut ann_socket, "welcome").await["seat"], 0);
    until_online(&mut bobs_lobby, json!(["Ann", "Bob"])).await;

    let path = format!("/api/tables/{id}/invitations");
    let invite = |session: Option<String>, body: Value| {
        let path = path.clone();
        async move { call(addr, "POST", &path, session.as_deref(), Some(body)).await }
    };
    let to = |seat: u8, name: &str| json!({ "host_token": host_token, "seat": seat, "name": name });

    // Refused, each saying why: no session, another's token, no such account, a bot's
    // seat, no such seat, a seat someone sits at, a field the request does not take.
    let (status, _, answer) = invite(None, to(1, "Bob")).await;
    assert_eq!(status, 401, "{answer}");
    let not_host = json!({ "host_token": seat_1_token, "seat": 1, "name": "Bob" });
    let (status, _, answer) = invite(Some(ann.clone()), not_host).await;
    assert_eq!(status, 403, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("host_token"),
        "{answer}"
    );
    let (status, _, answer) = invite(Some(ann.clone()), to(1, "Nobody Here")).await;
    assert_eq!(status, 404, "{answer}");
    assert_eq!(
        answer["error"],
        "no account is called \"Nobody Here\": invite a player by the name they signed up with"
    );
    // A long name is not echoed whole (cut to the longest a name may be).
    let long = "Z".repeat(10_000);
    let (status, _, answer) = invite(Some(ann.clone()), to(1, &long)).await;
    assert_eq!(status, 404, "{answer}");
    let said = answer["error"].as_str().unwrap();
    assert!(said.len() < 200 && said.contains(&"Z".repeat(24)), "{said}");
    let (status, _, answer) = invite(Some(ann.clone()), to(2, "Bob")).await;
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("seat 2 is not open"),
        "{answer}"
    );
    let (status, _, answer) = invite(Some(ann.clone()), to(7, "Bob")).await;
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("no seat 7"),
        "{answer}"
    );
    let (status, _, answer) = invite(Some(ann.clone()), to(0, "Bob")).await;
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("seat 0 is not open"),
        "{answer}"
    );
    let mut odd = to(1, "Bob");
    odd["as"] = json!("admin");
    let (status, _, answer) = invite(Some(ann.clone()), odd).await;
    assert_eq!(status, 400, "{answer}");
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    assert_eq!(bobs["tables"], json!([]), "nothing changed: {bobs}");

    // Nobody invites themselves (Ann, seated or not, in any case of her name).
    for name in ["Ann", "aNN"] {
        let (status, _, answer) = invite(Some(ann.clone()), to(1, name)).await;
        assert_eq!(status, 409, "{answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .contains("that is your own account"),
            "{answer}"
        );
    }

    // Ann invites Bob (typed in another case) to seat 1: kept for him, named his, and
    // his lobby is told to look again.
    let (status, _, answer) = invite(Some(ann.clone()), to(1, "bOB")).await;
    assert_eq!(status, 201, "{answer}");
    assert_eq!(answer["name"], "Bob");
    assert_eq!(answer["link"], format!("/table/{id}#seat=1"));
    until_online(&mut bobs_lobby, json!(["Ann", "Bob"])).await;
    loop {
        let seats = until(&mut ann_socket, "seats").await;
        if seats["seats"][1]["name"] == "Bob" {
            assert_eq!(seats["seats"][1]["sitter"], "open", "{seats}");
            break;
        }
    }
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    let held = bobs["tables"].as_array().unwrap();
    assert_eq!(held.len(), 1, "{bobs}");
    assert_eq!(held[0]["table"], id);
    assert_eq!(held[0]["seat"], 1);
    assert_eq!(held[0]["invited_by"], "Ann");
    assert_eq!(held[0]["link"], format!("/table/{id}#seat=1"));

    // The seat is Bob's alone: not another invitation's, not the link's, not Cat's.
    let (status, _, answer) = invite(Some(ann.clone()), to(1, "Cat")).await;
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("kept for another account"),
        "{answer}"
    );
    let mut guest = hello_as(&server, id, None, json!({ "token": seat_1_token })).await;
    error_saying(&mut guest, "seat_taken", "kept for the account").await;
    let mut cats = hello_as(&server, id, Some(&cat), json!({ "token": seat_1_token })).await;
    error_saying(&mut cats, "seat_taken", "kept for another account").await;
    // (A refused socket still open is a live connection: these close now.)
    drop((guest, cats));

    // Bob takes it from "My tables"' link (no token): the game starts, and the
    // invitation is no longer one.
    let mut bobs_seat = hello_as(&server, id, Some(&bob), json!({ "seat": 1 })).await;
    assert_eq!(until(&mut bobs_seat, "welcome").await["seat"], 1);
    loop {
        let status = until(&mut ann_socket, "status").await;
        if status["status"] == "playing" {
            break;
        }
    }
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    assert_eq!(bobs["tables"][0]["seat"], 1, "{bobs}");
    assert!(bobs["tables"][0].get("invited_by").is_none(), "{bobs}");
    // A seat taken is no seat to invite to.
    let (status, _, answer) = invite(Some(ann.clone()), to(1, "Bob")).await;
    assert_eq!(status, 409, "{answer}");

    // Bob's sockets close: he is online no more once both are gone.
    drop(bobs_seat);
    api_online_until(addr, &ann, json!(["Ann", "Bob"])).await;
    drop(bobs_lobby);
    api_online_until(addr, &ann, json!(["Ann"])).await;
    drop(ann_socket);
    api_online_until(addr, &cat, json!([])).await;
}

/// Who is online is the cluster's: an account with a lobby open on one node is listed
/// by the other node's `/api/online` and told to a lobby open there, each name once,
/// and leaves both lists when its socket closes.
pub async fn who_is_online_on_one_node_is_listed_by_every_node(
    first: std::net::SocketAddr,
    second: std::net::SocketAddr,
) {
    let ann = sign_up(first, "Ann").await;
    let bob = sign_up(second, "Bob").await;
    api_online_until(second, &bob, json!([])).await;
    let mut bobs_lobby = lobby_socket(second, &bob).await;
    until_online(&mut bobs_lobby, json!(["Bob"])).await;
    // Ann on the first node: the first lists Bob, the second Ann, within a renewal.
    let mut anns_lobby = lobby_socket(first, &ann).await;
    until_online(&mut anns_lobby, json!(["Ann", "Bob"])).await;
    until_online(&mut bobs_lobby, json!(["Ann", "Bob"])).await;
    api_online_until(second, &bob, json!(["Ann", "Bob"])).await;
    // Bob on both nodes at once is listed once.
    let bobs_other = lobby_socket(first, &bob).await;
    api_online_until(first, &ann, json!(["Ann", "Bob"])).await;
    drop(bobs_other);
    drop(anns_lobby);
    until_online(&mut bobs_lobby, json!(["Bob"])).await;
    api_online_until(first, &bob, json!(["Bob"])).await;
}
