//! The HTTP API's refusals over real sockets: a body with a mistake in it, a body not
//! sent as JSON, a page of another site, a path the API does not have. Each answers a
//! JSON error naming what is wrong and what is expected, and changes nothing; what the
//! browser pages and `calltrump` itself send is still accepted.

use crate::common;

use common::{http_at, seeded_server};

use std::net::SocketAddr;

use calltrump_server::RunningServer;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A record of a whole Bid Euchre game.
const RECORD: &str = include_str!("../../../../e2e/fixtures/bid-euchre-loner.json");

/// One HTTP/1.1 request with exactly `headers` (beside `Host`, `Content-Length` and
/// `Connection`): the status and the body.
async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response[9..12].parse().unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(
        !head.to_ascii_lowercase().contains("chunked"),
        "a chunked answer: {head}"
    );
    (status, body.to_string())
}

const JSON: (&str, &str) = ("Content-Type", "application/json");

/// The answer must be `status` with a JSON error that says each of `says`.
fn assert_error(answer: &(u16, String), status: u16, says: &[&str]) {
    let (got, body) = answer;
    assert_eq!(*got, status, "{body}");
    let error: Value = serde_json::from_str(body)
        .unwrap_or_else(|e| panic!("the error is not JSON ({e}): {body:?}"));
    let message = error["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"));
    for word in says {
        assert!(message.contains(word), "{message:?} does not say {word:?}");
    }
}

/// The tables the lobby lists.
async fn tables(server: &RunningServer) -> Vec<Value> {
    let (status, body) = http_at(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    list["tables"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_request_with_a_mistake_is_refused_and_says_what_is_expected() {
    let (_dir, server) = seeded_server(3).await;
    let addr = server.addr;
    let post = |headers: &'static [(&'static str, &'static str)], body: String| async move {
        raw(addr, "POST", "/api/tables", headers, &body).await
    };
    // A misspelled field is not left out silently.
    let answer = post(
        &[JSON],
        json!({"game": "kaibosh", "seets": ["open"]}).to_string(),
    )
    .await;
    assert_error(
        &answer,
        400,
        &["unknown field `seets`", "`seats`", "`names`"],
    );
    // Names: one per seat, whether the seats are given or not.
    for body in [
        json!({"game": "kaibosh", "names": ["Ann", "Bob"]}),
        json!({"game": "kaibosh", "seats": ["open", "open", "bot:rules", "bot:rules"], "names": ["Ann", "Bob"]}),
        json!({"game": "kout", "variant": "kout6", "names": ["", "", "", ""]}),
    ] {
        let answer = post(&[JSON], body.to_string()).await;
        assert_error(&answer, 400, &["names", "seats", "one per seat"]);
    }
    // A form, or JSON sent as a form (curl -d without -H) or with no type, is not read.
    for (headers, body) in [
        (
            &[("Content-Type", "application/x-www-form-urlencoded")][..],
            "game=kaibosh&seats=open".to_string(),
        ),
        (
            &[("Content-Type", "application/x-www-form-urlencoded")][..],
            json!({"game": "kaibosh"}).to_string(),
        ),
        (
            &[("Content-Type", "text/plain")][..],
            json!({"game": "kaibosh"}).to_string(),
        ),
        (&[][..], json!({"game": "kaibosh"}).to_string()),
    ] {
        let answer = raw(addr, "POST", "/api/tables", headers, &body).await;
        assert_error(&answer, 415, &["Content-Type: application/json"]);
    }
    assert!(
        tables(&server).await.is_empty(),
        "a refused request made a table"
    );

    // What the lobby page sends (crates/server/assets/lobby.js), from its own origin.
    let origin = format!("http://{addr}");
    let lobby = json!({
        "game": "kaibosh", "variant": "standard", "options": {"target": 21},
        "seats": ["open", "bot:medium", "open", "bot:medium"],
        "names": ["Ann", "", "", ""], "undo": false, "hints": true,
    });
    let headers = [
        ("content-type", "application/json"),
        ("Origin", origin.as_str()),
    ];
    let (status, body) = raw(addr, "POST", "/api/tables", &headers, &lobby.to_string()).await;
    assert_eq!(status, 201, "{body}");
    // What `calltrump loadtest` sends, through the client's own request.
    let loadtest = r#"{"game":"kaibosh","options":{"deals":4}}"#;
    let (status, body) = http_at(addr, "POST", "/api/tables", Some(loadtest)).await;
    assert_eq!(status, 201, "{body}");
    // Every documented field, and a charset beside the type.
    let whole = json!({
        "game": "bid-euchre", "variant": "alexa", "options": {}, "seats": ["open", "open", "open", "open"],
        "undo": true, "hints": false, "names": ["Ann", "Bob", "", ""], "first_dealer": 2,
    });
    let charset = [("Content-Type", "application/json; charset=utf-8")];
    let (status, body) = raw(addr, "POST", "/api/tables", &charset, &whole.to_string()).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(tables(&server).await.len(), 3);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_night_or_a_replay_with_a_mistake_is_refused_and_says_what_is_expected() {
    let (_dir, server) = seeded_server(3).await;
    let addr = server.addr;
    let players = json!([
        {"name": "Ann"}, {"name": "Bob", "sitter": "bot:rules"},
        {"name": "Cy", "sitter": "bot:rules"}, {"name": "Di", "sitter": "bot:rules"},
    ]);
    // Nights: an unknown field of the night, or of a player.
    let answer = raw(
        addr,
        "POST",
        "/api/nights",
        &[JSON],
        &json!({"players": players, "sets": 1, "set": 2}).to_string(),
    )
    .await;
    assert_error(&answer, 400, &["unknown field `set`", "`sets`"]);
    let mut misspelled = players.clone();
    misspelled[1] = json!({"name": "Bob", "siter": "bot:rules"});
    let answer = raw(
        addr,
        "POST",
        "/api/nights",
        &[JSON],
        &json!({"players": misspelled, "sets": 1}).to_string(),
    )
    .await;
    assert_error(&answer, 400, &["unknown field `siter`", "`sitter`"]);
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    let night = json!({"players": players, "sets": 1}).to_string();
    let answer = raw(addr, "POST", "/api/nights", &form, &night).await;
    assert_error(&answer, 415, &["Content-Type: application/json"]);
    // What the night page sends (crates/server/assets/night.js).
    let headers = [("Content-Type", "application/json")];
    let (status, body) = raw(addr, "POST", "/api/nights", &headers, &night).await;
    assert_eq!(status, 201, "{body}");

    // Replays: a record sent as a form (curl --data-binary without -H), a query it does
    // not take.
    let answer = raw(addr, "POST", "/api/replay?seat=1", &form, RECORD).await;
    assert_error(&answer, 415, &["record", "Content-Type: application/json"]);
    let answer = raw(addr, "POST", "/api/replay?viewer=1", &[JSON], RECORD).await;
    assert_error(&answer, 400, &["viewer", "seat"]);
    // What the replay page sends (crates/server/assets/replay.js).
    let headers = [("content-type", "application/json")];
    let (status, body) = raw(addr, "POST", "/api/replay?seat=1", &headers, RECORD).await;
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    // The viewer is written as the query's `seat` was: a string (docs/table-protocol.md).
    assert_eq!(answer["viewer"], "1");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_site_may_not_post_but_programs_and_the_servers_pages_may() {
    let (_dir, server) = seeded_server(3).await;
    let addr = server.addr;
    let table = json!({"game": "kaibosh"}).to_string();
    let evil = [JSON, ("Origin", "https://evil.example")];
    let answer = raw(addr, "POST", "/api/tables", &evil, &table).await;
    assert_error(
        &answer,
        403,
        &["https://evil.example", &format!("http://{addr}")],
    );
    // The same host at another port, or an origin of no site, is another origin too.
    let other_port = format!("http://127.0.0.1:{}", addr.port() + 1);
    for origin in [other_port.as_str(), "null"] {
        let headers = [JSON, ("Origin", origin)];
        let answer = raw(addr, "POST", "/api/tables", &headers, &table).await;
        assert_error(&answer, 403, &[origin]);
    }
    // Every POST of the API, before its body is read.
    let night = json!({"players": [{"name": "Ann"}], "sets": 1}).to_string();
    let answer = raw(addr, "POST", "/api/nights", &evil, &night).await;
    assert_error(&answer, 403, &["https://evil.example"]);
    let answer = raw(addr, "POST", "/api/replay", &evil, RECORD).await;
    assert_error(&answer, 403, &["https://evil.example"]);
    assert!(
        tables(&server).await.is_empty(),
        "a foreign page made a table"
    );
    // Reading is not changing anything: another site may list the tables.
    let (status, _) = raw(addr, "GET", "/api/tables", &evil[1..], "").await;
    assert_eq!(status, 200);
    // Its own pages (Origin is the Host) and programs (no Origin) go on.
    let own = format!("http://{addr}");
    let headers = [JSON, ("Origin", own.as_str())];
    let (status, body) = raw(addr, "POST", "/api/tables", &headers, &table).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = raw(addr, "POST", "/api/tables", &[JSON], &table).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(tables(&server).await.len(), 2);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_or_method_the_api_does_not_have_gets_a_json_error() {
    let (_dir, server) = seeded_server(3).await;
    let addr = server.addr;
    for path in ["/api/nonexistent", "/api", "/api/tables/x/y/z"] {
        let answer = raw(addr, "GET", path, &[], "").await;
        assert_error(&answer, 404, &[path, "/api/tables"]);
    }
    let answer = raw(addr, "DELETE", "/api/tables", &[], "").await;
    assert_error(&answer, 405, &["/api/tables", "DELETE"]);
    let answer = raw(addr, "GET", "/api/replay", &[], "").await;
    assert_error(&answer, 405, &["/api/replay", "GET"]);
    // Pages are not the API: an unknown page is a plain 404, as before.
    let (status, _) = raw(addr, "GET", "/nonexistent", &[], "").await;
    assert_eq!(status, 404);
    server.stop().await.unwrap();
}
