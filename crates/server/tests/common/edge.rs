//! The edge's tests share: a server with limits of the test's own, and raw TCP clients
//! from chosen loopback addresses.

use std::time::Duration;

use calltrump_server::{Limits, PublicUrl, RunningServer, ServerConfig};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

use super::{database_url, seeded_hub};

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
