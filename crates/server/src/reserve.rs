//! The probes' reserve: a connection over the caps of [`crate::Limits`] is not refused
//! at once, in case it is a health probe (`/healthz`, `/readyz`, `/metrics`): it has a
//! moment to send its request's head, and a probe's is served; anything else (another
//! path, a head that does not come) is answered 503 and closed. Without it, clients
//! holding every connection (request heads that never end, from the address the
//! monitoring also uses) would make the server look dead to its supervisor.
//!
//! The reserve holds at most `--probe-reserve` connections; when it is full the oldest
//! is refused to make room, so that a probe, which sends its head at once, gets in
//! however many slow connections arrive before it.

use std::collections::VecDeque;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;

use crate::connection::{refuse, service, PROBES};
use crate::limits::Crowded;
use crate::Edge;

/// How long a connection in the reserve has to send its request's head.
const HEAD_WAIT: Duration = Duration::from_secs(1);
/// The longest request head the reserve reads (a probe's is a few lines).
const HEAD_BYTES: usize = 2048;
/// How long a probe's answer may take to be worked out and written.
const PROBE_TIME: Duration = Duration::from_secs(5);

/// The connections in the reserve, oldest first, each with its signal to give way.
pub(crate) struct Reserve {
    size: usize,
    next: AtomicU64,
    places: Mutex<VecDeque<(u64, Arc<Notify>)>>,
}

impl Reserve {
    /// A reserve of `size` connections (0: none, a connection over a cap is refused at
    /// once).
    pub(crate) fn new(size: usize) -> Self {
        Reserve {
            size,
            next: AtomicU64::new(0),
            places: Mutex::new(VecDeque::new()),
        }
    }

    /// Takes `stream` from `peer`, refused a place by the caps for `crowded`: a probe
    /// is served, anything else answered 503.
    pub(crate) fn take(
        self: &Arc<Self>,
        stream: TcpStream,
        peer: SocketAddr,
        crowded: Crowded,
        app: Router,
        edge: Arc<Edge>,
    ) {
        if self.size == 0 {
            refuse(&stream, peer, crowded, &edge.refusals);
            return;
        }
        let (place, give_way) = self.enter();
        let reserve = Arc::clone(self);
        tokio::spawn(async move {
            let mut stream = stream;
            let head = tokio::select! {
                head = tokio::time::timeout(HEAD_WAIT, read_head(&mut stream)) => {
                    head.ok().flatten()
                }
                () = give_way.notified() => None,
            };
            match head.filter(|head| is_probe(head)) {
                Some(head) => {
                    reserve.leave(place);
                    serve_probe(
                        Prefixed {
                            head,
                            read: 0,
                            stream,
                        },
                        peer,
                        app,
                    )
                    .await;
                }
                None => {
                    refuse(&stream, peer, crowded, &edge.refusals);
                    reserve.leave(place);
                }
            }
        });
    }

    /// A place in the reserve, the oldest told to give way if it is full.
    fn enter(&self) -> (u64, Arc<Notify>) {
        let place = self.next.fetch_add(1, Ordering::Relaxed);
        let give_way = Arc::new(Notify::new());
        let mut places = self.places.lock().expect("the reserve is never poisoned");
        if places.len() >= self.size {
            if let Some((_, oldest)) = places.pop_front() {
                oldest.notify_one();
            }
        }
        places.push_back((place, Arc::clone(&give_way)));
        (place, give_way)
    }

    fn leave(&self, place: u64) {
        let mut places = self.places.lock().expect("the reserve is never poisoned");
        places.retain(|(p, _)| *p != place);
    }
}

/// The bytes of a request's head (through its blank line), or none if the client
/// closes or sends more than [`HEAD_BYTES`] first.
async fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(512);
    let mut chunk = [0u8; 512];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 || head.len() + n > HEAD_BYTES {
            return None;
        }
        head.extend_from_slice(&chunk[..n]);
    }
    Some(head)
}

/// Whether `head` asks for a probe: `GET` or `HEAD` of one of [`PROBES`].
fn is_probe(head: &[u8]) -> bool {
    let line = head.split(|&b| b == b'\r').next().unwrap_or_default();
    let mut words = line.split(|&b| b == b' ');
    let (Some(method), Some(target)) = (words.next(), words.next()) else {
        return false;
    };
    let path = target.split(|&b| b == b'?').next().unwrap_or_default();
    matches!(method, b"GET" | b"HEAD") && PROBES.iter().any(|p| p.as_bytes() == path)
}

/// Serves the one request of a probe, its head already read, then closes.
async fn serve_probe(io: Prefixed, peer: SocketAddr, app: Router) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEAD_WAIT)
        .keep_alive(false);
    let connection = http.serve_connection(TokioIo::new(io), service(app, peer, None, PROBE_TIME));
    if let Ok(Err(error)) = tokio::time::timeout(PROBE_TIME, connection).await {
        tracing::debug!(%error, %peer, "a probe's connection ended");
    }
}

/// A stream whose first bytes were read already: they are read again first.
struct Prefixed {
    head: Vec<u8>,
    read: usize,
    stream: TcpStream,
}

impl AsyncRead for Prefixed {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let left = &this.head[this.read..];
        if left.is_empty() {
            return Pin::new(&mut this.stream).poll_read(cx, buf);
        }
        let n = left.len().min(buf.remaining());
        buf.put_slice(&left[..n]);
        this.read += n;
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Prefixed {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::is_probe;

    #[test]
    fn only_a_probes_head_is_a_probe() {
        assert!(is_probe(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
        assert!(is_probe(b"HEAD /readyz?x=1 HTTP/1.1\r\n\r\n"));
        assert!(is_probe(b"GET /metrics HTTP/1.1\r\n\r\n"));
        assert!(!is_probe(b"GET / HTTP/1.1\r\n\r\n"));
        assert!(!is_probe(b"GET /healthzz HTTP/1.1\r\n\r\n"));
        assert!(!is_probe(b"POST /healthz HTTP/1.1\r\n\r\n"));
        assert!(!is_probe(b"GET /ws/abc HTTP/1.1\r\n\r\n"));
    }
}
