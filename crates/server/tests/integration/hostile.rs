//! The server's edge under hostile clients, over real loopback sockets: oversize frames,
//! slow headers, connection caps, per-address rate limits, the names the server answers
//! to, the security headers. Every wait is bounded.

use crate::common;

use std::time::{Duration, Instant};

use calltrump_server::Limits;
use common::edge::*;
use common::*;
use futures_util::StreamExt;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::tungstenite::Message;

/// A WebSocket handshake to table `table` on a raw TCP stream, left raw so that the test
/// can write frames the client library would not.
async fn raw_websocket(server: &calltrump_server::RunningServer, table: &str) -> TcpStream {
    let stream = TcpStream::connect(server.addr).await.unwrap();
    upgrade(stream, server, table).await
}

/// The WebSocket handshake to table `table` on `stream`.
async fn upgrade(
    mut stream: TcpStream,
    server: &calltrump_server::RunningServer,
    table: &str,
) -> TcpStream {
    let request = format!(
        "GET /ws/{table} HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.addr
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    // The answer's head, byte by byte so that nothing after it is consumed.
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let byte = stream.read_u8().await.unwrap();
        head.push(byte);
    }
    let head = String::from_utf8(head).unwrap();
    assert!(head.starts_with("HTTP/1.1 101"), "no upgrade: {head}");
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_the_limit_is_refused_from_its_header() {
    let (_dir, server, created) = server_with_table(
        seeded_hub(1, Duration::from_secs(60)),
        kaibosh_with_bots(1, "bot:rules"),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let mut stream = raw_websocket(&server, id).await;
    // A masked text frame that announces 15 MiB, and only its first 64 KiB.
    let announced: u64 = 15 << 20;
    let mut frame = vec![0x81, 0x80 | 127];
    frame.extend_from_slice(&announced.to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    frame.extend(std::iter::repeat_n(b'x', 64 * 1024));
    let sent = Instant::now();
    stream.write_all(&frame).await.unwrap();
    // The rest never comes: the server answers from the header alone.
    let mut socket = tokio_tungstenite::WebSocketStream::from_raw_socket(
        tokio_tungstenite::MaybeTlsStream::Plain(stream),
        Role::Client,
        None,
    )
    .await;
    let closing = next(&mut socket, Duration::from_secs(5)).await;
    assert_eq!(
        closing,
        Some(json!({"type": "closing", "kind": "too_big", "reason": "a message over 16 KiB"}))
    );
    let frame = loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame.expect("a close frame's reason"),
            Ok(Some(Ok(_))) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    };
    assert_eq!(u16::from(frame.code), 1009);
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "closed after {:?}",
        sent.elapsed()
    );
    server.stop().await.unwrap();
}

/// A client's text frame (masked, as a client's must be) of `text`.
fn masked_text_frame(text: &[u8]) -> Vec<u8> {
    assert!(text.len() < 126);
    let mask = [7, 1, 9, 4];
    let mut frame = vec![0x81, 0x80 | text.len() as u8];
    frame.extend_from_slice(&mask);
    frame.extend(text.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

/// A client that floods pings and never reads fills its queue with the answers (`pong`,
/// then `too_fast` refusals): it is closed as too slow (and told so, once it reads),
/// counted, and the table's other clients are answered all the while. The queue's own
/// bound is tested in the server's `outbox` module.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed_as_too_slow() {
    let (_dir, server, created) = server_with_table(
        seeded_hub(1, Duration::from_secs(60)),
        kaibosh_with_bots(1, "bot:rules"),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let mut watcher = hello(&server, id, json!({})).await;
    until(&mut watcher, "welcome").await;
    // A small receive window, so that the server's side fills soon.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let mut stream = upgrade(stream, &server, id).await;
    stream
        .write_all(&masked_text_frame(br#"{"type":"hello"}"#))
        .await
        .unwrap();
    // Pings, each answered (`pong`, or past the rate `too_fast`), never read.
    let burst = masked_text_frame(br#"{"type":"ping"}"#).repeat(1000);
    let started = Instant::now();
    let (mut sent, mut writing) = (0, true);
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "not closed after {sent} pings"
        );
        if writing {
            match tokio::time::timeout(Duration::from_millis(500), stream.write_all(&burst)).await {
                Ok(Ok(())) => sent += 1000,
                // The server reads no more (a frame may be cut: write nothing after it).
                Ok(Err(_)) | Err(_) => writing = false,
            }
        }
        let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
        if metrics.contains("calltrump_refused_total{reason=\"too_slow\"} 1") {
            break;
        }
        if !writing {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // The table's task was never held: another client is answered.
    send(&mut watcher, json!({"type": "ping"})).await;
    tokio::time::timeout(Duration::from_secs(5), until(&mut watcher, "pong"))
        .await
        .expect("the watcher is answered");
    // Read at last: what was written before, then `closing` too_slow, then the end.
    let mut socket = tokio_tungstenite::WebSocketStream::from_raw_socket(
        tokio_tungstenite::MaybeTlsStream::Plain(stream),
        Role::Client,
        None,
    )
    .await;
    let mut closing = None;
    let mut read = 0;
    let deadline = Instant::now() + Duration::from_secs(10);
    while let Ok(Some(Ok(message))) = tokio::time::timeout_at(deadline.into(), socket.next()).await
    {
        if let Message::Text(text) = message {
            read += 1;
            let message: serde_json::Value = serde_json::from_str(&text).unwrap();
            if message["type"] == "closing" {
                closing = Some(message);
            }
        }
    }
    assert!(Instant::now() < deadline, "the connection did not end");
    let closing = closing.unwrap_or_else(|| panic!("no closing in {read} messages"));
    assert_eq!(closing["kind"], "too_slow", "{closing}");
    let (status, _) = http_at(server.addr, "GET", "/healthz", None).await;
    assert_eq!(status, 200);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_head_never_ends_is_closed_at_the_header_timeout() {
    let limits = Limits {
        header_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    let mut slow = connect_from("127.0.0.1", &server).await;
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .await
        .unwrap();
    let opened = Instant::now();
    let answer = until_closed(&mut slow, Duration::from_secs(10)).await;
    assert!(answer.is_some(), "still open after 10 s");
    assert!(
        opened.elapsed() < Duration::from_secs(5),
        "closed after {:?}",
        opened.elapsed()
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_silent_in_the_middle_of_a_body_is_closed_at_the_idle_timeout() {
    let limits = Limits {
        header_timeout: Duration::from_secs(60),
        idle_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    let mut slow = connect_from("127.0.0.1", &server).await;
    let head = format!(
        "POST /api/replay HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"a",
        server.addr
    );
    slow.write_all(head.as_bytes()).await.unwrap();
    let opened = Instant::now();
    assert!(until_closed(&mut slow, Duration::from_secs(10))
        .await
        .is_some());
    assert!(
        opened.elapsed() < Duration::from_secs(5),
        "closed after {:?}",
        opened.elapsed()
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_over_its_creation_rate_gets_429_with_retry_after() {
    let limits = Limits {
        creates_per_minute: 2,
        create_burst: 3,
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    let table = json!({"game": "kaibosh"}).to_string();
    let create = "POST /api/tables HTTP/1.1\r\nContent-Type: application/json";
    for _ in 0..3 {
        let answer = request_from("127.0.0.1", &server, create, &table).await;
        assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    }
    let refused = request_from("127.0.0.1", &server, create, &table).await;
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    let retry: u64 = header_of(&refused, "retry-after")
        .expect("a Retry-After")
        .parse()
        .unwrap();
    // A token comes back every 30 s at 2 a minute.
    assert!((1..=30).contains(&retry), "Retry-After: {retry}");
    assert!(refused.contains("too many tables and nights"), "{refused}");
    // Nights count with tables; another address has its own allowance.
    let night = json!({"players": [{"name": "Ann"}], "sets": 1}).to_string();
    let nights = "POST /api/nights HTTP/1.1\r\nContent-Type: application/json";
    let refused = request_from("127.0.0.1", &server, nights, &night).await;
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    let answer = request_from("127.0.0.2", &server, create, &table).await;
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
    assert!(
        metrics.contains("calltrump_refused_total{reason=\"create_rate\"} 2"),
        "{metrics}"
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_over_its_replay_rate_gets_429_with_retry_after() {
    let limits = Limits {
        replays_per_minute: 2,
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    let record = include_str!("../../../../e2e/fixtures/bid-euchre-loner.json");
    let replay = "POST /api/replay?seat=0 HTTP/1.1\r\nContent-Type: application/json";
    // The burst: 20 at once, then one every 30 s at 2 a minute.
    for _ in 0..20 {
        let answer = request_from("127.0.0.1", &server, replay, record).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let refused = request_from("127.0.0.1", &server, replay, record).await;
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    let retry: u64 = header_of(&refused, "retry-after")
        .expect("a Retry-After")
        .parse()
        .unwrap();
    assert!((1..=30).contains(&retry), "Retry-After: {retry}");
    assert!(
        refused.contains(&format!(
            "too many replays asked for from your address: try again in {retry} s"
        )),
        "{refused}"
    );
    // A table's replay counts with the posted ones; another address has its own.
    let table = "GET /api/tables/nosuch/replay HTTP/1.1\r\nAccept: */*";
    let refused = request_from("127.0.0.1", &server, table, "").await;
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    let answer = request_from("127.0.0.2", &server, replay, record).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Creating a table is not held back by the replays.
    let create = "POST /api/tables HTTP/1.1\r\nContent-Type: application/json";
    let created = request_from(
        "127.0.0.1",
        &server,
        create,
        &json!({"game": "kaibosh"}).to_string(),
    )
    .await;
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
    assert!(
        metrics.contains("calltrump_refused_total{reason=\"replay_rate\"} 2"),
        "{metrics}"
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_caps_are_refused_and_healthz_still_answers() {
    let limits = Limits {
        max_connections: 4,
        max_connections_per_address: 2,
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(connect_from("127.0.0.1", &server).await);
    }
    let mut third = connect_from("127.0.0.1", &server).await;
    let refused = until_closed(&mut third, Duration::from_secs(5))
        .await
        .expect("the connection over the address's cap is closed at once");
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(refused.contains("your address"), "{refused}");
    // Another address is served while the first has its share.
    let health = request_from("127.0.0.2", &server, "GET /healthz HTTP/1.1", "").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    held.push(connect_from("127.0.0.2", &server).await);
    held.push(connect_from("127.0.0.3", &server).await);
    let mut fifth = connect_from("127.0.0.4", &server).await;
    let refused = until_closed(&mut fifth, Duration::from_secs(5))
        .await
        .expect("the connection over the server's cap is closed at once");
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(refused.contains("the server has all"), "{refused}");
    // A connection closed gives its place back.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    let health = loop {
        let answer = request_from("127.0.0.4", &server, "GET /metrics HTTP/1.1", "").await;
        if answer.starts_with("HTTP/1.1 200") {
            break answer;
        }
        assert!(Instant::now() < deadline, "no place given back: {answer}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        health.contains("calltrump_refused_total{reason=\"address_full\"} 1"),
        "{health}"
    );
    server.stop().await.unwrap();
}

/// One request from 127.0.0.1 with the raw `headers` lines (each ending in `\r\n`),
/// `Host` among them: the whole answer.
async fn request_with(
    server: &calltrump_server::RunningServer,
    line: &str,
    headers: &str,
    body: &str,
) -> String {
    let mut stream = connect_from("127.0.0.1", server).await;
    let request = format!(
        "{line}\r\n{headers}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    until_closed(&mut stream, Duration::from_secs(10))
        .await
        .expect("an answer within 10 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebinding_host_is_refused_and_only_loopback_names_are_answered() {
    let (_dir, server) = server_with_limits(Limits::default(), None).await;
    let port = server.addr.port();
    for host in [
        "evil.example",
        &format!("evil.example:{port}"),
        &format!("localhost:{}", port + 1),
    ] {
        for line in [
            "GET / HTTP/1.1",
            "GET /api/tables HTTP/1.1",
            "GET /healthz HTTP/1.1",
        ] {
            let answer = request_with(&server, line, &format!("Host: {host}\r\n"), "").await;
            assert!(
                answer.starts_with("HTTP/1.1 421"),
                "{host} {line}: {answer}"
            );
            assert!(answer.contains("--public-url"), "{answer}");
        }
    }
    // A WebSocket by a rebinding name does not reach a table.
    let created = create(&server, json!({"game": "kaibosh"})).await;
    let id = created["id"].as_str().unwrap();
    let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
    let mut stream = connect_from("127.0.0.1", &server).await;
    let request = format!("GET /ws/{id} HTTP/1.1\r\nHost: evil.example:{port}\r\n{upgrade}\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = answer_head(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 421"), "{answer}");
    // Nor from a page of another origin at this name.
    let mut stream = connect_from("127.0.0.1", &server).await;
    let request = format!(
        "GET /ws/{id} HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\n{upgrade}\r\n",
        server.addr
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = answer_head(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ] {
        let answer = request_with(
            &server,
            "GET /healthz HTTP/1.1",
            &format!("Host: {host}\r\n"),
            "",
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{host}: {answer}");
    }
    let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
    assert!(
        metrics.contains("calltrump_refused_total{reason=\"host\"} 10"),
        "{metrics}"
    );
    assert!(
        metrics.contains("calltrump_refused_total{reason=\"origin\"} 1"),
        "{metrics}"
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_url_names_the_links_and_its_pages_may_act() {
    let public = "https://cards.example.org";
    let (_dir, server) = server_with_limits(Limits::default(), Some(public)).await;
    let table = json!({"game": "kaibosh"}).to_string();
    let json_from = |origin: &str| {
        format!("Host: cards.example.org\r\nContent-Type: application/json\r\nOrigin: {origin}\r\n")
    };
    let answer = request_with(
        &server,
        "POST /api/tables HTTP/1.1",
        &json_from(public),
        &table,
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let body: serde_json::Value =
        serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    let id = body["id"].as_str().unwrap();
    assert_eq!(body["watch_url"], format!("{public}/table/{id}"));
    // The host's link is the page's host link (`#host=`), not a seat's (`#token=`).
    assert_eq!(
        body["host_url"],
        format!(
            "{public}/table/{id}#host={}",
            body["host_token"].as_str().unwrap()
        )
    );
    assert!(body["invites"][0]["url"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{public}/table/{id}#token=")));
    // Links name the public URL even when the server is reached at loopback.
    let (status, body) = http_at(server.addr, "POST", "/api/tables", Some(&table)).await;
    assert_eq!(status, 201, "{body}");
    assert!(
        body.contains(&format!("\"watch_url\":\"{public}/table/")),
        "{body}"
    );
    // The public URL at plain http, or another site, may not act.
    for origin in ["http://cards.example.org", "https://evil.example"] {
        let answer = request_with(
            &server,
            "POST /api/tables HTTP/1.1",
            &json_from(origin),
            &table,
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 403"), "{origin}: {answer}");
    }
    let answer = request_with(&server, "GET / HTTP/1.1", "Host: evil.example\r\n", "").await;
    assert!(answer.starts_with("HTTP/1.1 421"), "{answer}");
    assert!(answer.contains(public), "{answer}");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers() {
    let (_dir, server) = server_with_limits(Limits::default(), None).await;
    let host = format!("Host: {}\r\n", server.addr);
    for line in [
        "GET / HTTP/1.1",
        "GET /table/nonexistent HTTP/1.1",
        "GET /assets/table.js HTTP/1.1",
        "GET /rules/kaibosh HTTP/1.1",
        "GET /api/tables HTTP/1.1",
        "GET /api/nowhere HTTP/1.1",
        "GET /healthz HTTP/1.1",
        "DELETE /api/tables HTTP/1.1",
    ] {
        let answer = request_with(&server, line, &host, "").await;
        let policy = header_of(&answer, "content-security-policy")
            .unwrap_or_else(|| panic!("{line}: no Content-Security-Policy: {answer}"));
        assert!(policy.contains("default-src 'self'"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
        assert!(!policy.contains("unsafe-inline"), "{policy}");
        assert_eq!(
            header_of(&answer, "x-content-type-options"),
            Some("nosniff"),
            "{line}"
        );
        assert_eq!(
            header_of(&answer, "referrer-policy"),
            Some("no-referrer"),
            "{line}"
        );
        assert_eq!(
            header_of(&answer, "x-frame-options"),
            Some("DENY"),
            "{line}"
        );
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_or_a_chat_line_that_is_not_well_formed_is_refused() {
    malformed::an_id_or_a_chat_line_that_is_not_well_formed_is_refused(Backend::Sqlite).await;
}
