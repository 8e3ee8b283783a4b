//! The server's edge under hostile clients, over real loopback sockets: oversize frames,
//! slow headers, connection caps, per-address rate limits. Every wait is bounded.

mod common;

use std::time::{Duration, Instant};

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
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
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
