//! The accept loop: every connection counted against the caps of [`Limits`], its
//! request heads timed, closed once silent for too long, served by hyper over HTTP/1.1
//! (with upgrades, for the WebSocket).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

use crate::connection::{service, Counted};
use crate::limits::Slot;
use crate::reserve::Reserve;
use crate::Edge;

/// Serves `app` on `listener` until `stop` resolves, then lets every request in flight
/// finish (WebSockets are closed by the hub).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    edge: Arc<Edge>,
    stop: impl Future<Output = ()>,
) -> io::Result<()> {
    // Told to every connection when the server stops; each holds an `alive` until done.
    let (stopping, stopped) = tokio::sync::watch::channel(());
    let (alive, mut all_done) = tokio::sync::mpsc::channel::<()>(1);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(edge.limits.header_timeout);
    let reserve = Arc::new(Reserve::new(edge.limits.probe_reserve));
    let mut stop = std::pin::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(error).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // A node of the cluster's connection is counted under an address once its
        // request says whose it is: a socket it relays is its client's from the start.
        let admitted = match &edge.relay_key {
            Some(key) if key.is_node(peer.ip()) => edge.connections.admit_node(&edge.limits),
            _ => edge.connections.admit(peer.ip(), &edge.limits),
        };
        let slot = match admitted {
            Ok(slot) => slot,
            Err(crowded) => {
                // A probe still gets in, by the reserve; everyone else is told 503.
                reserve.take(stream, peer, crowded, app.clone(), Arc::clone(&edge));
                continue;
            }
        };
        // Small messages go out at once: Nagle's wait for an acknowledgement would hold
        // a card behind the previous message.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::warn!(%error, "TCP_NODELAY could not be set");
        }
        let slot = Arc::new(slot);
        let io = TokioIo::new(Watched::new(
            stream,
            edge.limits.idle_timeout,
            Arc::clone(&slot),
        ));
        // Requests read on the connection: a head that times out before the first is a
        // client too slow (or hostile), after it an idle keep-alive connection.
        let requests = Arc::new(AtomicU64::new(0));
        let service = service(
            app.clone(),
            peer,
            Some(Counted {
                requests: Arc::clone(&requests),
                edge: Arc::clone(&edge),
                slot,
            }),
            edge.limits.body_timeout,
        );
        let connection = http.serve_connection(io, service).with_upgrades();
        let mut stopped = stopped.clone();
        let alive = alive.clone();
        let edge = Arc::clone(&edge);
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let ended = tokio::select! {
                ended = connection.as_mut() => ended,
                _ = stopped.changed() => {
                    // The request in flight is answered; no other is read.
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(error) = ended {
                let refusals = &edge.refusals;
                if error.is_timeout() && requests.load(Ordering::Relaxed) == 0 {
                    refusals.header_timeout.hit(
                        Some(peer.ip()),
                        "a request's head that did not come in time",
                    );
                } else if timed_out(&error) {
                    refusals
                        .idle_timeout
                        .hit(Some(peer.ip()), "a connection silent for too long");
                }
                tracing::debug!(%error, %peer, "connection ended");
            }
            drop(alive);
        });
    }
    drop(listener);
    let _ = stopping.send(());
    drop(alive);
    let _ = all_done.recv().await;
    Ok(())
}

/// Whether a connection ended because [`Watched`] found it silent for too long.
fn timed_out(error: &hyper::Error) -> bool {
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::TimedOut)
        {
            return true;
        }
        source = cause.source();
    }
    false
}

/// An accept that failed: a connection that went away before it was taken is nothing;
/// out of file descriptors, wait a little for some to close rather than spin.
async fn accept_failed(error: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::warn!(%error, "accepting a connection failed");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// A connection that is closed (an error to hyper) once no byte has moved either way
/// for `idle`, and gives its [`Slot`] back when dropped.
struct Watched {
    stream: TcpStream,
    idle: Duration,
    last_moved: Instant,
    deadline: Pin<Box<Sleep>>,
    _slot: Arc<Slot>,
}

impl Watched {
    fn new(stream: TcpStream, idle: Duration, slot: Arc<Slot>) -> Self {
        let now = Instant::now();
        Watched {
            stream,
            idle,
            last_moved: now,
            deadline: Box::pin(tokio::time::sleep_until(now + idle)),
            _slot: slot,
        }
    }

    /// Whether the connection has been silent for `idle`; if not, the deadline is moved
    /// to `idle` after the last byte (and `cx` woken then).
    fn silent(&mut self, cx: &mut Context<'_>) -> bool {
        while Future::poll(self.deadline.as_mut(), cx).is_ready() {
            let due = self.last_moved + self.idle;
            if due <= Instant::now() {
                return true;
            }
            self.deadline.as_mut().reset(due);
        }
        false
    }

    /// What an operation on the stream came to: progress moves the deadline; waiting
    /// past it is an error.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
        moved: impl FnOnce(&T) -> bool,
    ) -> Poll<io::Result<T>> {
        match polled {
            Poll::Ready(Ok(value)) => {
                if moved(&value) {
                    self.last_moved = Instant::now();
                }
                Poll::Ready(Ok(value))
            }
            Poll::Pending if self.silent(cx) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the connection was silent for too long",
            ))),
            other => other,
        }
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        let read = buf.filled().len() > before;
        this.watch(cx, polled, |_| read)
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.watch(cx, polled, |&written| written > 0)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.watch(cx, polled, |&written| written > 0)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// The peer of a request served by [`serve`].
pub(crate) fn peer(request: &axum::extract::Request) -> Option<SocketAddr> {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(peer)| *peer)
}
