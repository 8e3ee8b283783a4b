//! The server under crowds, over real loopback sockets: health probes answered while
//! slow clients hold every connection an address may open, chat limited per client
//! address over all of its sockets, and tables of bots alone that play only while
//! someone watches unless their host asked otherwise (within the server's cap). Every
//! wait is bounded.

use crate::common;

use std::time::{Duration, Instant};

use calltrump_server::{HubConfig, Limits};
use common::edge::*;
use common::*;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

/// One `GET path` from 127.0.0.1 on a fresh connection: the whole answer and how long it
/// took.
async fn probe(server: &calltrump_server::RunningServer, path: &str) -> (String, Duration) {
    let asked = Instant::now();
    let mut stream = connect_from("127.0.0.1", server).await;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = until_closed(&mut stream, Duration::from_secs(10))
        .await
        .expect("an answer within 10 s");
    (answer, asked.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probes_answer_within_2_s_while_200_request_heads_never_end() {
    // The defaults but a shorter header timeout, to see the slow ones closed in time.
    let limits = Limits {
        header_timeout: Duration::from_secs(4),
        ..Limits::default()
    };
    let per_address = limits.max_connections_per_address;
    let (_dir, server) = server_with_limits(limits, None).await;
    let opened = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..200 {
        let mut stream = connect_from("127.0.0.1", &server).await;
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            .await
            .unwrap();
        slow.push(stream);
    }
    // From the very address that holds all it may open.
    for path in ["/healthz", "/readyz", "/metrics"] {
        let (answer, took) = probe(&server, path).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {answer}");
        assert!(took < Duration::from_secs(2), "{path} took {took:?}");
    }
    // Anything else over the cap is refused.
    let (answer, _) = probe(&server, "/").await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("your address"), "{answer}");
    assert!(
        opened.elapsed() < Duration::from_secs(4),
        "the probes were asked while the slow heads were open"
    );
    // Every slow connection is closed: those over the cap with a 503, the others at the
    // header timeout.
    for stream in &mut slow {
        let closed = until_closed(stream, Duration::from_secs(10)).await;
        assert!(closed.is_some(), "a slow head still open after 10 s");
    }
    assert!(opened.elapsed() < Duration::from_secs(15));
    assert_eq!(refused(&server, "header_timeout").await, per_address as u64);
    // The 100 over the cap, and the probe of "/".
    assert_eq!(
        refused(&server, "address_full").await,
        (200 - per_address + 1) as u64
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_limited_per_client_address_over_all_its_sockets() {
    let limits = Limits {
        chat_lines_per_minute: 6,
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    let created = create(&server, json!({"game": "kaibosh"})).await;
    let id = created["id"].as_str().unwrap();
    // Twelve sockets of one address, one line each (the per-connection limit never
    // comes into it): the address's ten at once pass, the rest are refused.
    let mut sockets = Vec::new();
    for _ in 0..12 {
        sockets.push(spectator_from("127.0.0.1", &server, id).await);
    }
    let mut listener = spectator_from("127.0.0.2", &server, id).await;
    for (i, socket) in sockets.iter_mut().enumerate() {
        send(socket, json!({"type": "chat", "text": format!("line {i}")})).await;
        let answer: Vec<Value> = messages_before_pong(socket).await;
        let refusal = answer.iter().find(|m| m["type"] == "error");
        if i < 10 {
            assert!(refusal.is_none(), "line {i}: {answer:?}");
        } else {
            let refusal = refusal.unwrap_or_else(|| panic!("line {i} passed: {answer:?}"));
            assert_eq!(refusal["code"], "chat", "{refusal}");
            let message = refusal["message"].as_str().unwrap();
            assert!(message.contains("from your address"), "{message}");
        }
    }
    // Another address chats on; the table heard only the lines let through.
    send(&mut listener, json!({"type": "chat", "text": "mine"})).await;
    let heard: Vec<String> = messages_before_pong(&mut listener)
        .await
        .iter()
        .filter(|m| m["type"] == "chat")
        .map(|m| m["body"].as_str().unwrap().to_string())
        .collect();
    let mut expected: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
    expected.push("mine".into());
    assert_eq!(heard, expected);
    assert_eq!(refused(&server, "chat_rate").await, 2);
    server.stop().await.unwrap();
}

/// A server whose bots play at once, with at most `cap` unattended tables.
async fn server_with_cap(cap: usize) -> (tempfile::TempDir, calltrump_server::RunningServer) {
    let dir = tempfile::tempdir().unwrap();
    let hub = HubConfig {
        max_unattended: cap,
        ..seeded_hub(3, Duration::from_secs(60))
    };
    let server = start_on(&database_url(&dir), hub).await;
    (dir, server)
}

/// Table `id`'s public record, once it has a hand (within 10 s).
async fn until_dealt(server: &calltrump_server::RunningServer, id: &str) -> String {
    let started = Instant::now();
    loop {
        let (status, record) = record_of(server, id).await;
        assert_eq!(status, 200, "{record}");
        if !record.contains(r#""hands":[]"#) {
            return record;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no hand dealt at {id}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_alone_play_unattended_only_when_asked_and_within_the_cap() {
    let (_dir, server) = server_with_cap(1).await;
    let bots = json!(["bot:random", "bot:random", "bot:random", "bot:random"]);
    let unattended = json!({"game": "kaibosh", "seats": bots, "unattended": true});
    // Asked for, a table of bots starts at once and plays with nobody connected.
    let first = create(&server, unattended.clone()).await;
    until_dealt(&server, first["id"].as_str().unwrap()).await;
    // One more is over the cap: refused, saying why and what to do.
    let body = unattended.to_string();
    let (status, answer) = http_at(server.addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 503, "{answer}");
    assert!(answer.contains("--max-unattended-tables"), "{answer}");
    assert!(answer.contains("leave \\\"unattended\\\" out"), "{answer}");
    // So is a night of bots alone asked to play unattended.
    let players: Vec<Value> = ["A", "B", "C", "D"]
        .iter()
        .map(|name| json!({"name": name, "sitter": "bot:random"}))
        .collect();
    let night = json!({"players": players, "sets": 1, "unattended": true}).to_string();
    let (status, answer) = http_at(server.addr, "POST", "/api/nights", Some(&night)).await;
    assert_eq!(status, 503, "{answer}");
    // A table of bots the host watches is not counted, and plays while watched.
    let watched = create(&server, json!({"game": "kaibosh", "seats": bots})).await;
    let mut zoe = hello(&server, watched["id"].as_str().unwrap(), json!({})).await;
    until(&mut zoe, "update").await;
    server.stop().await.unwrap();
}
