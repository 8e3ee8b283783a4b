//! What the server's tests share: a database of each test's own (SQLite or PostgreSQL),
//! a server on a random loopback port, plain HTTP to it, which cards a recipient may
//! know, and the cards a message names; the `Store` contract (`contract`) and the
//! socket-level checks run on both backends (`scenarios`).

pub mod account_seats;
pub mod contract;
pub mod edge;
pub mod fencing;
pub mod invitations;
pub mod leaving;
pub mod malformed;
pub mod rating_contract;
pub mod ratings;
pub mod scenarios;

use std::sync::atomic::{AtomicU32, Ordering};

use std::net::SocketAddr;
use std::time::Duration;

use calltrump_engine::{Action, AnyGame, Card, CardBag, Game, Seat, SeenAction};
use calltrump_server::client::{http_request, play_seat, Finished, SeatLink};
use calltrump_server::store::{PostgresStore, SqliteStore, Store};
use calltrump_server::{HubConfig, Limits, RunningServer, ServerConfig};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Connection;
use tokio_tungstenite::tungstenite::Message;

/// The SQLite database of a test's temporary folder.
pub fn database_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}", dir.path().join("db.sqlite").display())
}

/// Where a test keeps its tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A database file in a temporary folder.
    Sqlite,
    /// A database of the test's own on the PostgreSQL of `CALLTRUMP_TEST_POSTGRES`.
    Postgres,
}

/// The variable naming the PostgreSQL the tests make their databases on.
pub const POSTGRES_VARIABLE: &str = "CALLTRUMP_TEST_POSTGRES";

/// A test's own database: an SQLite file in a temporary folder, or a PostgreSQL
/// database made for it (a unique name, so that tests run in parallel). The folder is
/// removed when this is dropped; a PostgreSQL database stays, on a throwaway server.
pub struct TestDatabase {
    /// Its URL, as `--database` takes it.
    pub url: String,
    /// The temporary folder (of the SQLite file; empty for PostgreSQL), held so that
    /// it lives as long as the database.
    _dir: tempfile::TempDir,
}

impl TestDatabase {
    /// A new, empty database on `backend`.
    pub async fn new(backend: Backend) -> TestDatabase {
        let dir = tempfile::tempdir().unwrap();
        let url = match backend {
            Backend::Sqlite => database_url(&dir),
            Backend::Postgres => postgres_database().await,
        };
        TestDatabase { url, _dir: dir }
    }
}

/// Makes a database of its own on the PostgreSQL of `CALLTRUMP_TEST_POSTGRES`
/// (`postgres://USER@HOST:PORT/DB`, a role that may create databases): its URL. Fails,
/// saying how to get one, when the variable is not set.
pub async fn postgres_database() -> String {
    let base = std::env::var(POSTGRES_VARIABLE).unwrap_or_else(|_| {
        panic!(
            "{POSTGRES_VARIABLE} is not set: the PostgreSQL tests need a PostgreSQL server. \
             `bash scripts/test.sh` starts a throwaway one; by hand: \
             `d=$(mktemp -d); export {POSTGRES_VARIABLE}=$(bash scripts/test-postgres.sh start $d)` \
             (and `bash scripts/test-postgres.sh stop $d` after)"
        )
    });
    static MADE: AtomicU32 = AtomicU32::new(0);
    let name = format!(
        "calltrump_test_{}_{}_{}",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    );
    let mut admin = sqlx::PgConnection::connect(&base)
        .await
        .unwrap_or_else(|e| panic!("{POSTGRES_VARIABLE}={base}: {e}"));
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap_or_else(|e| panic!("CREATE DATABASE {name} on {base}: {e}"));
    let _ = admin.close().await;
    let (server, _) = base
        .rsplit_once('/')
        .filter(|(server, _)| server.contains("://"))
        .unwrap_or_else(|| {
            panic!("{POSTGRES_VARIABLE}={base} is not postgres://USER@HOST:PORT/DB")
        });
    format!("{server}/{name}")
}

/// A fresh, empty store for the contract's checks, and what it needs kept.
pub struct TestStore {
    /// The store.
    pub store: Box<dyn Store>,
    /// Its database, held so that it lives as long as the store.
    _database: TestDatabase,
}

/// A fresh SQLite store in a temporary folder.
pub async fn sqlite_store() -> TestStore {
    let database = TestDatabase::new(Backend::Sqlite).await;
    let store = SqliteStore::open(&database.url).await.unwrap();
    TestStore {
        store: Box::new(store),
        _database: database,
    }
}

/// A fresh PostgreSQL store in a database of its own.
pub async fn postgres_store() -> TestStore {
    let database = TestDatabase::new(Backend::Postgres).await;
    let store = PostgresStore::open(&database.url, Default::default())
        .await
        .unwrap();
    TestStore {
        store: Box::new(store),
        _database: database,
    }
}

/// The real server on a random loopback port, on the database `url`. Every test client
/// is on loopback, so the per-address limits (tested in `hostile.rs`) are off.
pub async fn start_on(url: &str, hub: HubConfig) -> RunningServer {
    calltrump_server::start(ServerConfig {
        limits: Limits {
            max_connections_per_address: 0,
            creates_per_minute: 0,
            replays_per_minute: 0,
            chat_lines_per_minute: 0,
            ..Limits::default()
        },
        ..ServerConfig::new("127.0.0.1:0".parse().unwrap(), url, hub)
    })
    .await
    .unwrap()
}

/// A new database on `backend` and the server on it with `hub`.
pub async fn server_on(backend: Backend, hub: HubConfig) -> (TestDatabase, RunningServer) {
    let database = TestDatabase::new(backend).await;
    let server = start_on(&database.url, hub).await;
    (database, server)
}

/// The real server on a random loopback port, its database in `dir`.
pub async fn start_with_config(dir: &tempfile::TempDir, hub: HubConfig) -> RunningServer {
    start_on(&database_url(dir), hub).await
}

/// `/readyz` until it answers `status`, within 10 s: its body.
pub async fn readyz_until(server: &calltrump_server::RunningServer, status: u16) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (now, body) = http_at(server.addr, "GET", "/readyz", None).await;
        if now == status {
            return body;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "/readyz still {now} after 10 s: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One HTTP/1.1 request over a fresh connection: the status and the body.
pub async fn http_at(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, String) {
    http_request(&addr.to_string(), method, path, body)
        .await
        .unwrap()
}

/// A hub seeded `seed` whose seats have a grace of `grace`, bots at full speed.
pub fn seeded_hub(seed: u64, grace: Duration) -> HubConfig {
    HubConfig {
        seed: Some(seed),
        ..HubConfig::new(Duration::ZERO, grace)
    }
}

/// A temporary folder and the server on it with `hub`.
pub async fn server_in_temp(hub: HubConfig) -> (tempfile::TempDir, RunningServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = start_with_config(&dir, hub).await;
    (dir, server)
}

/// A temporary folder and the server on it, seeded `seed`, a seat's grace a minute.
pub async fn seeded_server(seed: u64) -> (tempfile::TempDir, RunningServer) {
    server_in_temp(seeded_hub(seed, Duration::from_secs(60))).await
}

/// A Kaibosh table of `people` open seats, then `bot` (such as `"bot:rules"`) in the others.
pub fn kaibosh_with_bots(people: usize, bot: &str) -> Value {
    let seats: Vec<&str> = (0..4)
        .map(|s| if s < people { "open" } else { bot })
        .collect();
    json!({ "game": "kaibosh", "seats": seats })
}

/// Creates a table from `table` and says hello at its first seat with `fields` and the
/// seat's token: the table as created and the seat's connection.
pub async fn sit_at_first_seat(
    server: &RunningServer,
    table: Value,
    mut fields: Value,
) -> (Value, Socket) {
    let created = create(server, table).await;
    let (id, token) = id_and_token(&created);
    fields["token"] = json!(token);
    let socket = hello(server, id, fields).await;
    (created, socket)
}

/// A created table's id and its first invite's token.
pub fn id_and_token(created: &Value) -> (&str, &str) {
    let id = created["id"].as_str().unwrap();
    (id, created["invites"][0]["token"].as_str().unwrap())
}

/// A temporary folder and the server on it with `hub`, and a table made from `table`
/// (the POST /api/tables body): the folder, the server and the answer.
pub async fn server_with_table(
    hub: HubConfig,
    table: Value,
) -> (tempfile::TempDir, RunningServer, Value) {
    let (dir, server) = server_in_temp(hub).await;
    let created = create(&server, table).await;
    (dir, server, created)
}

/// `GET /api/tables/{id}/record`: the status and the body.
pub async fn record_of(server: &RunningServer, id: &str) -> (u16, String) {
    let path = format!("/api/tables/{id}/record");
    http_at(server.addr, "GET", &path, None).await
}

/// The seat links of a created table, in seat order.
pub fn links(created: &Value) -> Vec<SeatLink> {
    created["invites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| SeatLink::parse(i["url"].as_str().unwrap()).unwrap())
        .collect()
}

/// A bot of `level` at every link, seat `i` seeded `i`, to the game's end: what each saw.
pub async fn play_every_seat(links: Vec<SeatLink>, level: &'static str) -> Vec<Finished> {
    let players: Vec<_> = links
        .into_iter()
        .enumerate()
        .map(|(i, link)| {
            tokio::spawn(
                async move { play_seat(&link, level, i as u64, Duration::from_secs(10)).await },
            )
        })
        .collect();
    let mut finished = Vec::new();
    for player in players {
        finished.push(player.await.unwrap().unwrap());
    }
    finished
}

/// A table's options for a short game: `kaibosh` deals at Kaibosh, `bid_euchre` at Bid
/// Euchre, none given at Kout Bo (which has no deal count).
pub fn short_game(game: &str, kaibosh: u32, bid_euchre: u32) -> Value {
    match game {
        "kaibosh" => json!({ "deals": kaibosh }),
        "bid-euchre" => json!({ "deals": bid_euchre }),
        _ => json!({}),
    }
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket to table `table`.
pub async fn connect(server: &RunningServer, table: &str) -> Socket {
    let url = format!("ws://{}/ws/{table}", server.addr);
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// A WebSocket to table `table` that said hello with `fields` (`token`, `name`, `host`:
/// none, a spectator).
pub async fn hello(server: &RunningServer, table: &str, mut fields: Value) -> Socket {
    let mut socket = connect(server, table).await;
    fields["type"] = json!("hello");
    send(&mut socket, fields).await;
    socket
}

/// Sends `message` as JSON text.
pub async fn send(socket: &mut Socket, message: Value) {
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .unwrap();
}

/// The next JSON message, or none within `wait`.
pub async fn next(socket: &mut Socket, wait: Duration) -> Option<Value> {
    loop {
        match tokio::time::timeout(wait, socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                return Some(serde_json::from_str(text.as_str()).unwrap())
            }
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) | Err(_) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// Every message the table sent to `socket` before it handled a `ping` sent now: the
/// table handles a connection's messages in order, so what an earlier step caused has
/// arrived once the `pong` has (an explicit event, where a quiet spell would guess).
pub async fn messages_before_pong(socket: &mut Socket) -> Vec<Value> {
    send(socket, serde_json::json!({"type": "ping"})).await;
    let mut out = Vec::new();
    loop {
        let message = next(socket, Duration::from_secs(10))
            .await
            .expect("no pong");
        if message["type"] == "pong" {
            return out;
        }
        out.push(message);
    }
}

/// Messages until one of `kind` arrives (within 10 seconds each).
pub async fn until(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let message = next(socket, Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("no {kind} message"));
        if message["type"] == kind {
            return message;
        }
    }
}

/// The next `error` message, which must have `code` and say `says`.
pub async fn error_saying(socket: &mut Socket, code: &str, says: &str) {
    let error = until(socket, "error").await;
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(says), "{message} does not say {says}");
    assert_eq!(error["code"], code, "{error}");
}

/// Messages until one whose view has legal actions for this seat: its version and
/// those actions.
pub async fn until_my_turn(socket: &mut Socket, wait: Duration) -> (u64, Vec<Value>) {
    loop {
        let message = next(socket, wait).await.expect("the seat's turn");
        let legal = message["view"]["legal"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if !legal.is_empty() {
            return (message["version"].as_u64().unwrap(), legal);
        }
    }
}

/// Creates a table from `table` (the POST /api/tables body): the answer.
pub async fn create(server: &RunningServer, table: Value) -> Value {
    let body = table.to_string();
    let (status, text) = http_at(server.addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The cards `seat` (or a spectator: `None`) may know in `game`: its own dealt cards,
/// every card played, and the cards passed face down that it passed or received.
pub fn known(game: &AnyGame, seat: Option<Seat>) -> CardBag {
    let observation = game.observation(seat.unwrap_or(Seat(0)));
    let mut known = CardBag::EMPTY;
    if seat.is_some() {
        observation.dealt.iter().for_each(|c| {
            known.insert(c);
        });
    }
    for (_, seen) in &observation.actions {
        let cards: Vec<Card> = match seen {
            SeenAction::Open(Action::Play(card)) => vec![*card],
            SeenAction::Open(Action::Give(p) | Action::Discard(p)) if seat.is_some() => {
                p.cards().to_vec()
            }
            _ => vec![],
        };
        cards.into_iter().for_each(|c| {
            known.insert(c);
        });
    }
    known
}

/// Every card named anywhere in `value`: a string such as `"AS"` or `"give JH JD"`.
pub fn cards_named(value: &Value, out: &mut Vec<Card>) {
    match value {
        Value::String(text) => out.extend(text.split(' ').filter_map(|w| w.parse::<Card>().ok())),
        Value::Array(items) => items.iter().for_each(|v| cards_named(v, out)),
        Value::Object(map) => map.values().for_each(|v| cards_named(v, out)),
        _ => {}
    }
}
