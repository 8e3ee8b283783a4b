//! The edge's tests share: a server with limits of the test's own, raw TCP clients and
//! spectators from chosen loopback addresses, and the counts of what the edge refused.

use std::time::Duration;

use calltrump_server::{Limits, PublicUrl, RunningServer, ServerConfig};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{database_url, http_at, seeded_hub, send, until, Socket};

/// A server on loopback whose edge has `limits` (and `public_url`).
pub async fn server_with_limits(
    limits: Limits,
    public_url: Option<&str>,
) -> (tempfile::TempDir, RunningServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = calltrump_server::start(ServerConfig {
        limits,
        public_url: public_url.map(|url| PublicUrl::parse(url).unwrap()),
        ..ServerConfig::new(
            "127.0.0.1:0".parse().unwrap(),
            database_url(&dir),
            seeded_hub(1, Duration::from_secs(60)),
        )
    })
    .await
    .unwrap();
    (dir, server)
}

/// A TCP connection to the server from the loopback address `source` (127.0.0.0/8 is
/// every machine's own, so each is another client address).
pub async fn connect_from(source: &str, server: &RunningServer) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    socket.connect(server.addr).await.unwrap()
}

/// Everything the server sends until it closes the connection, or `None` if it is
/// still open after `wait`.
pub async fn until_closed(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    let mut answer = Vec::new();
    match tokio::time::timeout(wait, stream.read_to_end(&mut answer)).await {
        Ok(_) => Some(String::from_utf8_lossy(&answer).into_owned()),
        Err(_) => None,
    }
}

/// The head of the next answer on a connection kept open (within 10 s).
pub async fn answer_head(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let byte = tokio::time::timeout(Duration::from_secs(10), stream.read_u8())
            .await
            .expect("an answer within 10 s")
            .unwrap();
        head.push(byte);
    }
    String::from_utf8(head).unwrap()
}

/// One request from `source` (`Connection: close`): the whole answer, head and body.
pub async fn request_from(source: &str, server: &RunningServer, head: &str, body: &str) -> String {
    let mut stream = connect_from(source, server).await;
    let request = format!(
        "{head}\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        server.addr,
        body.len()
    );
    // (A connection refused at accept may be closed before the request is written.)
    let _ = stream.write_all(request.as_bytes()).await;
    until_closed(&mut stream, Duration::from_secs(10))
        .await
        .expect("an answer within 10 s")
}

/// The value of header `name` in a raw answer.
pub fn header_of<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split("\r\n\r\n").next()?;
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

/// A spectator's WebSocket at table `id` from the loopback address `source`.
pub async fn spectator_from(source: &str, server: &RunningServer, id: &str) -> Socket {
    let stream = connect_from(source, server).await;
    let url = format!("ws://{}/ws/{id}", server.addr);
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    let (mut socket, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    send(&mut socket, json!({"type": "hello"})).await;
    until(&mut socket, "welcome").await;
    socket
}

/// The value of `calltrump_refused_total{reason}` in the server's metrics.
pub async fn refused(server: &RunningServer, reason: &str) -> u64 {
    let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
    let line = format!("calltrump_refused_total{{reason=\"{reason}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&line))
        .unwrap_or_else(|| panic!("no {line} in {metrics}"))
        .parse()
        .unwrap()
}
