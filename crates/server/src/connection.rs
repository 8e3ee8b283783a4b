//! What is done with a connection once accepted: served by the app, or, over a cap,
//! refused with 503 at once. Shared by the accept loop and the probes' reserve.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::body::Incoming;
use tokio::net::TcpStream;
use tower::ServiceExt;

use crate::limits::{Crowded, Refusals, Refused, Slot};
use crate::Edge;

/// The health probes' paths: served over the caps, from the probes' reserve too
/// ([`crate::reserve`]).
pub(crate) const PROBES: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// The largest request body read (axum's own default limit on what its extractors take).
const MAX_BODY: usize = 2 * 1024 * 1024;

/// The accept loop's count of a connection's requests, the edge whose refusals count
/// its bodies that came too slowly, and the connection's place in the caps (counted
/// under whoever each request is from: [`Counted::place`]).
pub(crate) struct Counted {
    pub(crate) requests: Arc<AtomicU64>,
    pub(crate) edge: Arc<Edge>,
    pub(crate) slot: Arc<Slot>,
}

/// The client of a socket relayed by another node of the cluster, as that node signed
/// it: told to the app with the request.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RelayedFor(pub(crate) std::net::IpAddr);

impl Counted {
    /// Whose `request` from `peer` is: a socket relayed by a node of the cluster, signed
    /// for its request target and for now, and not seen before, is its client's ([`RelayedFor`]); anything else is the
    /// peer's. The connection is counted under that address from then on: the 503 that
    /// refuses it if the address has all its connections open already.
    fn place(&self, request: &mut Request<Body>, peer: SocketAddr) -> Option<Response> {
        let edge = &self.edge;
        let key = edge.relay_key.as_ref()?;
        let uri = request.uri();
        let target = uri
            .path_and_query()
            .map_or(uri.path(), |target| target.as_str());
        let client = match key.verify(request.headers(), target) {
            None => None,
            Some(Ok(client)) => Some(client),
            Some(Err(unsigned)) => {
                let why = format!("{unsigned}; counted as the sender's own");
                edge.refusals.relay_signature.hit(Some(peer.ip()), &why);
                None
            }
        };
        if let Some(client) = client {
            request.extensions_mut().insert(RelayedFor(client));
        }
        let address = client.unwrap_or_else(|| peer.ip());
        let crowded = self.slot.count_under(address, &edge.limits).err()?;
        // A probe is served over the caps, as from the reserve (a node's address may be
        // the monitoring's too).
        if PROBES.contains(&request.uri().path()) {
            return None;
        }
        let (counter, why) = refusal_text(crowded, &edge.refusals);
        counter.hit(Some(address), why);
        let body = format!("{{\"error\":\"{why}: try again later\"}}");
        Some(
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [
                    (header::RETRY_AFTER, "5"),
                    (header::CONTENT_TYPE, "application/json"),
                    (header::CONNECTION, "close"),
                ],
                body,
            )
                .into_response(),
        )
    }
}

/// The service of one connection from `peer`: the app, each request told its peer (and
/// counted, if `counted` is given), its body (if any) read whole within `body_time`.
pub(crate) fn service(
    app: Router,
    peer: SocketAddr,
    counted: Option<Counted>,
    body_time: Duration,
) -> impl hyper::service::Service<
    hyper::Request<Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future: Send + 'static,
> {
    hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let edge = counted.as_ref().map(|counted| {
            counted.requests.fetch_add(1, Ordering::Relaxed);
            Arc::clone(&counted.edge)
        });
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        let crowded = counted
            .as_ref()
            .and_then(|counted| counted.place(&mut request, peer));
        let app = app.clone();
        async move {
            if let Some(refused) = crowded {
                return Ok(refused);
            }
            match within(request, body_time).await {
                Ok(request) => app.oneshot(request).await,
                Err(refused) => {
                    if let Some(edge) =
                        edge.filter(|_| refused.status() == StatusCode::REQUEST_TIMEOUT)
                    {
                        edge.refusals.body_timeout.hit(
                            Some(peer.ip()),
                            "a request's body that did not come whole in time",
                        );
                    }
                    Ok(refused)
                }
            }
        }
    })
}

/// `request` with its body read whole within `time`, so that a body trickled a byte at a
/// time (each byte within the idle timeout) holds its connection no longer than that:
/// else 408, or 413 past [`MAX_BODY`]. A request that has no body goes on as it is (a
/// WebSocket's upgrade among them).
async fn within(request: Request<Body>, time: Duration) -> Result<Request<Body>, Response> {
    let bodiless = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) && !request.headers().contains_key(header::CONTENT_LENGTH)
        && !request.headers().contains_key(header::TRANSFER_ENCODING);
    if bodiless {
        return Ok(request);
    }
    let (parts, body) = request.into_parts();
    let refused = |status: StatusCode, why: String| {
        let body = serde_json::json!({ "error": why }).to_string();
        (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    };
    match tokio::time::timeout(time, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => Ok(Request::from_parts(parts, Body::from(bytes))),
        Ok(Err(error)) => Err(refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request's body was not read: {error} (at most {MAX_BODY} bytes)"),
        )),
        Err(_) => Err(refused(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body took over {} s to arrive (--body-timeout-secs)",
                time.as_secs()
            ),
        )),
    }
}

/// Answers a connection over a cap with 503 (as far as its socket takes it at once) and
/// closes it: nothing waits on a client that is refused.
pub(crate) fn refuse(stream: &TcpStream, peer: SocketAddr, crowded: Crowded, refusals: &Refusals) {
    let (counter, why) = refusal_text(crowded, refusals);
    counter.hit(Some(peer.ip()), why);
    let body = format!("{{\"error\":\"{why}: try again later\"}}");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// The counter of a refusal for `crowded`, and what the client is told.
fn refusal_text(crowded: Crowded, refusals: &Refusals) -> (&Refused, &'static str) {
    match crowded {
        Crowded::Server => (
            &refusals.server_full,
            "the server has all the connections it takes",
        ),
        Crowded::Address => (
            &refusals.address_full,
            "your address has all the connections it may open",
        ),
    }
}
