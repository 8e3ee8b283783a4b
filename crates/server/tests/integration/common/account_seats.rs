//! Seats bound to accounts, over real sockets and HTTP, on either backend: a signed-in
//! person who sits down binds the seat; it is refused to another account and to a guest
//! with its link, taken from another device by "My tables"' link, kept for a former
//! player when the account is deleted; and a player's page counts their games.

use std::net::SocketAddr;
use std::time::Duration;

use calltrump_engine::{Outcome, Record, Seat};
use calltrump_server::RunningServer;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

use super::{create, error_saying, id_and_token, record_of, seeded_hub, send, server_on, until};
use super::{Backend, Socket};

/// One HTTP request with the session cookie `session` (if any): status, the session
/// cookie it sets (if any) and the JSON body (null if none).
pub async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    session: Option<&str>,
    body: Option<Value>,
) -> (u16, Option<String>, Value) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let cookie = session
        .map(|s| format!("Cookie: calltrump_session={s}\r\n"))
        .unwrap_or_default();
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{cookie}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    let status = head[9..12].parse().unwrap();
    let set = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("set-cookie"))
        .and_then(|(_, value)| value.trim().strip_prefix("calltrump_session="))
        .map(|value| value.split(';').next().unwrap().to_string());
    let json = if body.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
    };
    (status, set, json)
}

/// A new account `name`, signed in: its session.
pub async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({ "name": name, "password": "a long password" });
    let (status, session, answer) = call(addr, "POST", "/api/accounts", None, Some(body)).await;
    assert_eq!(status, 201, "{answer}");
    session.expect("a session cookie")
}

/// A WebSocket to table `table` with the session cookie `session` (none: a guest) that
/// said hello with `fields`.
pub async fn hello_as(
    server: &RunningServer,
    table: &str,
    session: Option<&str>,
    mut fields: Value,
) -> Socket {
    let mut request = format!("ws://{}/ws/{table}", server.addr)
        .into_client_request()
        .unwrap();
    if let Some(session) = session {
        let cookie = HeaderValue::from_str(&format!("calltrump_session={session}")).unwrap();
        request.headers_mut().insert("Cookie", cookie);
    }
    let mut socket = tokio_tungstenite::connect_async(request).await.unwrap().0;
    fields["type"] = json!("hello");
    send(&mut socket, fields).await;
    socket
}

/// `seats` messages until one where seat `seat`'s name is `name`.
async fn until_seat_named(socket: &mut Socket, seat: usize, name: &str) -> Value {
    loop {
        let seats = until(socket, "seats").await;
        if seats["seats"][seat]["name"] == name {
            return seats;
        }
    }
}

/// A refused connection: its error has `code` and says `says`, then its `closing`.
async fn refused(mut socket: Socket, code: &str, says: &str) {
    error_saying(&mut socket, code, says).await;
    let closing = until(&mut socket, "closing").await;
    assert_eq!(closing["kind"], "seat_gone", "{closing}");
}

pub async fn a_seat_taken_signed_in_is_the_accounts_alone_from_any_device(backend: Backend) {
    let (_database, server) = server_on(backend, seeded_hub(7, Duration::from_secs(60))).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let bob = sign_up(addr, "Bob").await;
    let created = create(
        &server,
        json!({ "game": "kaibosh", "seats": ["open", "bot:random", "open", "bot:random"] }),
    )
    .await;
    let (id, token) = id_and_token(&created);
    let other_token = created["invites"][1]["token"].as_str().unwrap();

    // Ann sits down signed in: the seat shows her account's name, not the one she typed.
    let mut first = hello_as(
        &server,
        id,
        Some(&ann),
        json!({ "token": token, "name": "x" }),
    )
    .await;
    assert_eq!(until(&mut first, "welcome").await["seat"], 0);
    until_seat_named(&mut first, 0, "Ann").await;

    // "My tables": the seat, with a link that needs no token.
    let (status, _, mine) = call(addr, "GET", "/api/me/tables", Some(&ann), None).await;
    assert_eq!(status, 200, "{mine}");
    let tables = mine["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1, "{mine}");
    assert_eq!(tables[0]["table"], id);
    assert_eq!(tables[0]["seat"], 0);
    assert_eq!(tables[0]["status"], "open");
    assert_eq!(tables[0]["game"], "kaibosh");
    assert_eq!(tables[0]["link"], format!("/table/{id}#seat=0"));
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    assert_eq!(bobs["tables"], json!([]));
    let (status, _, _) = call(addr, "GET", "/api/me/tables", None, None).await;
    assert_eq!(status, 401);

    // The seat's link no longer seats a guest, nor another account.
    let guest = hello_as(&server, id, None, json!({ "token": token })).await;
    refused(guest, "seat_taken", "sign in as that player").await;
    let other = hello_as(&server, id, Some(&bob), json!({ "token": token })).await;
    refused(other, "seat_taken", "kept for another account").await;
    // Nor does the account's way in, for anyone else; nor for a seat not bound to one.
    let other = hello_as(&server, id, Some(&bob), json!({ "seat": 0 })).await;
    refused(other, "seat_taken", "kept for another account").await;
    let unbound = hello_as(&server, id, Some(&bob), json!({ "seat": 2 })).await;
    refused(unbound, "seat_taken", "open it with its link").await;
    let nowhere = hello_as(&server, id, Some(&ann), json!({ "seat": 9 })).await;
    refused(nowhere, "bad_seat", "there is no seat 9").await;

    // From a second device, signed in as Ann, without the token: the seat is hers.
    let mut second = hello_as(&server, id, Some(&ann), json!({ "seat": 0 })).await;
    assert_eq!(until(&mut second, "welcome").await["seat"], 0);

    // A guest takes the other seat: the game starts, and Ann plays on from the second
    // device (her own hand is sent to it).
    let mut guest = hello_as(
        &server,
        id,
        None,
        json!({ "token": other_token, "name": "Cy" }),
    )
    .await;
    assert_eq!(until(&mut guest, "welcome").await["seat"], 2);
    let dealt = loop {
        let message = until(&mut second, "update").await;
        if !message["view"]["hand"].is_null() {
            break message;
        }
    };
    assert_eq!(dealt["view"]["viewer"], json!({ "seat": 0 }), "{dealt}");

    // Ann deletes her account: the game goes on, her seat a former player's, bound to
    // no one, with a new token: the old link seats no one (whoever holds it).
    let (status, _, _) = call(addr, "DELETE", "/api/me", Some(&ann), None).await;
    assert_eq!(status, 204);
    until_seat_named(&mut guest, 0, "a former player").await;
    let (_, _, bobs) = call(addr, "GET", "/api/me/tables", Some(&bob), None).await;
    assert_eq!(bobs["tables"], json!([]));
    for session in [None, Some(bob.as_str())] {
        let mut back = hello_as(&server, id, session, json!({ "token": token })).await;
        error_saying(&mut back, "bad_token", "does not belong to this table").await;
        let closing = until(&mut back, "closing").await;
        assert_eq!(closing["kind"], "bad_token", "{closing}");
    }
    server.stop().await.unwrap();
}

pub async fn a_players_page_counts_their_games_and_shows_them_their_unfinished_ones(
    backend: Backend,
) {
    // No grace: once Ann leaves, a bot stands in and the game runs to its end.
    let (_database, server) = server_on(backend, seeded_hub(11, Duration::ZERO)).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let played = create(
        &server,
        json!({ "game": "kaibosh", "options": { "deals": 1 },
                "seats": ["open", "bot:random", "bot:random", "bot:random"] }),
    )
    .await;
    let (id, token) = id_and_token(&played);
    let mut socket = hello_as(&server, id, Some(&ann), json!({ "token": token })).await;
    until(&mut socket, "welcome").await;
    drop(socket);
    // A second table, waiting for its other person.
    let waiting = create(
        &server,
        json!({ "game": "kaibosh", "seats": ["open", "open", "bot:random", "bot:random"] }),
    )
    .await;
    let (waiting_id, waiting_token) = id_and_token(&waiting);
    let mut socket = hello_as(
        &server,
        waiting_id,
        Some(&ann),
        json!({ "token": waiting_token }),
    )
    .await;
    until(&mut socket, "welcome").await;

    // The bots finish the game: asked again until it is counted (a minute at most).
    let mut asked = 0;
    let page = loop {
        let (status, _, page) = call(addr, "GET", "/api/players/ann", None, None).await;
        assert_eq!(status, 200, "{page}");
        if !page["games"].as_array().unwrap().is_empty() {
            break page;
        }
        asked += 1;
        assert!(
            asked < 1200,
            "the game was not over within a minute: {page}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(page["name"], "Ann");
    // What the record says of the game, worked out here from its replay.
    let (_, body) = record_of(&server, id).await;
    let (replay, _) = Record::parse(&body).unwrap().replay().unwrap();
    let expected = match replay.winner.expect("the game is over") {
        Outcome::Winner(team) if team == Seat(0).team() => "won",
        Outcome::Winner(_) => "lost",
        Outcome::Draw => "drawn",
    };
    let game = &page["games"][0];
    assert_eq!(game["table"], id);
    assert_eq!(game["result"], expected, "{page}");
    assert_eq!(game["replay"], format!("/replay/{id}"));
    assert_eq!(game["analysis"], format!("/api/tables/{id}/analysis"));
    let tally = &page["tallies"][0];
    assert_eq!(tally["game"], "kaibosh");
    assert_eq!(tally["played"], 1);
    assert_eq!(tally[expected], 1, "{page}");
    // Others do not see where she sits now; she does.
    assert!(page.get("unfinished").is_none(), "{page}");
    let (_, _, own) = call(addr, "GET", "/api/players/ANN", Some(&ann), None).await;
    let unfinished = own["unfinished"].as_array().unwrap();
    assert_eq!(unfinished.len(), 1, "{own}");
    assert_eq!(unfinished[0]["table"], waiting_id);
    assert_eq!(unfinished[0]["link"], format!("/table/{waiting_id}#seat=0"));

    // The host ends the waiting table: it is on her page, ended, and counted nowhere.
    let host = waiting["host_token"].as_str().unwrap();
    let mut hosting = hello_as(&server, waiting_id, Some(&ann), json!({ "host": host })).await;
    until(&mut hosting, "welcome").await;
    send(&mut hosting, json!({ "type": "end" })).await;
    loop {
        if until(&mut socket, "status").await["status"] == "ended" {
            break;
        }
    }
    let (_, _, page) = call(addr, "GET", "/api/players/ann", None, None).await;
    // (Both tables were made in the same second: their order is the ids'.)
    let games = page["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{page}");
    let ended = games
        .iter()
        .find(|g| g["table"] == waiting_id)
        .expect("listed");
    assert_eq!(ended["result"], "ended", "{page}");
    assert_eq!(page["tallies"][0]["played"], 1, "{page}");

    let (status, _, nobody) = call(addr, "GET", "/api/players/nobody", None, None).await;
    assert_eq!(status, 404);
    assert!(
        nobody["error"].as_str().unwrap().contains("no player"),
        "{nobody}"
    );
    server.stop().await.unwrap();
}

/// An account made before names' skeletons were kept (none stored, as migration 0006
/// left older rows) gets its name's skeleton when the server starts; a name that only
/// looks like it is then refused, as it would have been had the account been new.
pub async fn an_older_account_gets_its_skeleton_at_start_and_a_look_alike_is_refused(
    backend: Backend,
) {
    use calltrump_server::store::{PostgresStore, SqliteStore, Store, StoredAccount};
    let database = super::TestDatabase::new(backend).await;
    let open = || async {
        let store: Box<dyn Store> = match backend {
            Backend::Sqlite => Box::new(SqliteStore::open(&database.url).await.unwrap()),
            Backend::Postgres => Box::new(
                PostgresStore::open(&database.url, Default::default())
                    .await
                    .unwrap(),
            ),
        };
        store
    };
    let store = open().await;
    let older = StoredAccount {
        id: "0123abcd".into(),
        name: "carol".into(),
        name_key: "carol".into(),
        name_skeleton: None,
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA".into(),
        created_at: 1,
    };
    assert!(store.accounts().create_account(&older).await.unwrap());
    let without = store.accounts().accounts_without_skeleton().await.unwrap();
    assert_eq!(without, [("0123abcd".to_string(), "carol".to_string())]);
    drop(store);

    let server = super::start_on(&database.url, seeded_hub(1, Duration::from_secs(5))).await;
    let body = json!({ "name": "caroI", "password": "a long password" });
    let (status, _, refused) = call(server.addr, "POST", "/api/accounts", None, Some(body)).await;
    assert_eq!(status, 409, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("looks like"),
        "{refused}"
    );
    server.stop().await.unwrap();

    let store = open().await;
    let carol = store
        .accounts()
        .account_named("carol")
        .await
        .unwrap()
        .unwrap();
    let skeleton = calltrump_server::accounts::name_skeleton("carol");
    assert_eq!(carol.name_skeleton.as_deref(), Some(skeleton.as_str()));
    assert!(store
        .accounts()
        .accounts_without_skeleton()
        .await
        .unwrap()
        .is_empty());
    // Given once: a second look-alike's skeleton is not given over it.
    assert!(!store
        .accounts()
        .set_name_skeleton("0123abcd", "other")
        .await
        .unwrap());
}
