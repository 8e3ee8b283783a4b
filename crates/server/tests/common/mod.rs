//! What the server's tests share: a server on a random loopback port, plain HTTP to it,
//! which cards a recipient may know, and the cards a message names.

// Each test file uses a part of this module.
#![allow(dead_code)]

use std::net::SocketAddr;

use calltrump_engine::{Action, AnyGame, Card, CardBag, Game, Seat, SeenAction};
use calltrump_server::client::http_request;
use calltrump_server::{HubConfig, RunningServer, ServerConfig};
use serde_json::Value;

/// The SQLite database of a test's temporary folder.
pub fn database_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}", dir.path().join("db.sqlite").display())
}

/// The real server on a random loopback port, its database in `dir`.
pub async fn start_with_config(dir: &tempfile::TempDir, hub: HubConfig) -> RunningServer {
    calltrump_server::start(ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        database_url: database_url(dir),
        hub,
    })
    .await
    .unwrap()
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
