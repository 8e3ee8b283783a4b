//! What is done with a connection once accepted: served by the app, or, over a cap,
//! refused with 503 at once. Shared by the accept loop and the probes' reserve.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use tokio::net::TcpStream;
use tower::ServiceExt;

use crate::limits::{Crowded, Refusals};

/// The service of one connection from `peer`: the app, each request told its peer (and
/// counted in `requests`, if given).
pub(crate) fn service(
    app: Router,
    peer: SocketAddr,
    requests: Option<Arc<AtomicU64>>,
) -> impl hyper::service::Service<
    hyper::Request<Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future: Send + 'static,
> {
    hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        if let Some(requests) = &requests {
            requests.fetch_add(1, Ordering::Relaxed);
        }
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        app.clone().oneshot(request)
    })
}

/// Answers a connection over a cap with 503 (as far as its socket takes it at once) and
/// closes it: nothing waits on a client that is refused.
pub(crate) fn refuse(stream: &TcpStream, peer: SocketAddr, crowded: Crowded, refusals: &Refusals) {
    let (counter, why) = match crowded {
        Crowded::Server => (
            &refusals.server_full,
            "the server has all the connections it takes",
        ),
        Crowded::Address => (
            &refusals.address_full,
            "your address has all the connections it may open",
        ),
    };
    counter.hit(Some(peer.ip()), why);
    let body = format!("{{\"error\":\"{why}: try again later\"}}");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}
