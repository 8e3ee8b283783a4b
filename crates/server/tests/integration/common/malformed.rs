//! Input that is not well formed, on either backend: an id that names no table or
//! night (a NUL byte, a control character, a mark) is 404 at every route before any
//! query, and a chat line holding a control character is refused with nothing kept or
//! sent, the table playing on. (PostgreSQL refuses a NUL in text: these were 500s, and
//! a watcher's chat line paused the table for everyone.)

use std::time::Duration;

use serde_json::json;
use tokio_tungstenite::tungstenite;

use super::account_seats::{call, hello_as};
use super::{error_saying, seeded_hub, send, server_on, until, Backend};

/// The ids no table or night has: each is 404 at every route that takes one.
const NOT_IDS: [&str; 4] = ["%00", "ab%00cd", "%0A", "a.b"];

pub async fn an_id_or_a_chat_line_that_is_not_well_formed_is_refused(backend: Backend) {
    let (_database, server) = server_on(backend, seeded_hub(3, Duration::from_secs(5))).await;
    let addr = server.addr;
    for id in NOT_IDS {
        let routes = [
            ("GET", format!("/api/tables/{id}/record"), "no table"),
            (
                "GET",
                format!("/api/tables/{id}/replay?seat=all"),
                "no table",
            ),
            ("GET", format!("/api/tables/{id}/analysis"), "no table"),
            ("GET", format!("/api/nights/{id}"), "no night"),
            ("POST", format!("/api/tables/{id}/leave"), "no table"),
            ("POST", format!("/api/tables/{id}/close"), "no table"),
            ("POST", format!("/api/tables/{id}/holder"), "no table"),
        ];
        for (method, path, says) in routes {
            let body = (method == "POST").then(|| json!({"token": "x"}));
            let (status, _, answer) = call(addr, method, &path, None, body).await;
            assert_eq!(status, 404, "{method} {path}: {answer}");
            let error = answer["error"].as_str().unwrap_or_default();
            assert!(error.contains(says), "{method} {path}: {answer}");
        }
        match tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}")).await {
            Err(tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 404, "/ws/{id}: {response:?}")
            }
            other => panic!("/ws/{id} is no table's socket: {other:?}"),
        }
    }

    // A watcher's chat line with a control character: refused, saying why; the table
    // stays as it was and the next line is kept and sent.
    let table =
        json!({"game": "kaibosh", "seats": ["open", "bot:medium", "bot:medium", "bot:medium"]});
    let (status, _, created) = call(addr, "POST", "/api/tables", None, Some(table)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let mut watcher = hello_as(&server, id, None, json!({})).await;
    until(&mut watcher, "welcome").await;
    for text in ["\u{0}", "a\u{0}b", "bell \u{7}", "\u{1b}[31mred"] {
        send(&mut watcher, json!({"type": "chat", "text": text})).await;
        error_saying(&mut watcher, "chat", "may not hold control characters").await;
    }
    send(&mut watcher, json!({"type": "chat", "text": "hello"})).await;
    let line = until(&mut watcher, "chat").await;
    assert_eq!(line["body"], "hello", "{line}");
    assert_eq!(line["seq"], 1, "the refused lines were kept: {line}");
    // Whoever comes later is told the kept line alone.
    let mut later = hello_as(&server, id, None, json!({})).await;
    let told = until(&mut later, "chat").await;
    assert_eq!(told["body"], "hello", "{told}");
    assert_eq!(told["seq"], 1, "{told}");
    server.stop().await.unwrap();
}
