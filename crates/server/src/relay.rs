//! A socket for a table another node runs: relayed, frame by frame, to that node's own
//! `/ws/{id}`, where the table's redaction choke point makes every message as for a
//! socket of its own. When that node goes away mid-game, the client is told to come
//! again (`closing` of kind `retry`) and finds the table wherever it runs by then.
//!
//! The relaying node names its client's address to the owner, signed with the cluster's
//! secret ([`RelayKey`]), for this socket's request target, for now and for this one
//! socket: the owner counts that client under its own address (connections, chat lines)
//! and not the relaying node's, and believes no address a client names itself nor a
//! signature replayed, late or at once.

use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::broadcast::error::RecvError;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message as Upstream;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::hub::{Hub, Relayed};
use crate::protocol::{CloseKind, ServerMessage};
use crate::request::error;
use crate::store::Owner;

mod key;
pub(crate) use key::RelayKey;

/// The read and write buffers of one WebSocket, served or relayed (the library's
/// default is 128 KB each).
pub(crate) const SOCKET_BUFFER_BYTES: usize = 4 * 1024;
/// How long the node that runs a table has to take a relayed socket.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

type UpstreamSocket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What a relayed socket's request passes on to the node that runs its table.
pub(crate) struct Relaying<'a> {
    /// The client's request's headers.
    pub(crate) headers: &'a HeaderMap,
    /// The client's address and the cluster's key to sign it with: the owner's
    /// per-address limits count the client rather than this node.
    pub(crate) from: Option<(IpAddr, &'a RelayKey)>,
}

/// `GET /ws/{id}` for table `id`, which `owner` runs: connects to it first (a client
/// finds a node that does not answer refused with 503, and tries again), then relays
/// messages of up to `max_message` bytes from the client (the owner's to it, whole).
pub(crate) async fn relay(
    hub: &Hub,
    (id, owner): (&str, Owner),
    relaying: Relaying<'_>,
    upgrade: WebSocketUpgrade,
    max_message: usize,
) -> Response {
    let headers = relaying.headers;
    let unreachable = || {
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server node that runs table {id} ({}) does not answer; try again in a moment",
                owner.node
            ),
        )
    };
    let Ok(mut request) = format!("ws://{}/ws/{id}", owner.addr).into_client_request() else {
        return unreachable();
    };
    // The links the owner makes are for the address this client reached.
    for name in [header::HOST.as_str(), "x-forwarded-proto"] {
        if let Some(value) = headers.get(name) {
            let forwarded = if name == "host" {
                "x-forwarded-host"
            } else {
                name
            };
            request.headers_mut().insert(forwarded, value.clone());
        }
    }
    // Headers of the client's own are not passed on: only this node names its client.
    if let Some((address, key)) = relaying.from {
        // The whole request target, as the owner will read it: path and query.
        let uri = request.uri();
        let target = uri
            .path_and_query()
            .map_or(uri.path(), |t| t.as_str())
            .to_string();
        for (name, value) in key.sign(address, &target) {
            if let Ok(value) = header::HeaderValue::try_from(value) {
                request.headers_mut().insert(name, value);
            }
        }
    }
    // The owner reads a signed-in person's account from their session cookie (the
    // sessions are in the shared database), to bind or give back their seat.
    if let Some(cookie) = headers.get(header::COOKIE) {
        request.headers_mut().insert(header::COOKIE, cookie.clone());
    }
    // Small buffers on both sides (the library's default, 128 KB each way, made a
    // relayed socket cost 300 KB).
    let config = WebSocketConfig::default()
        .read_buffer_size(SOCKET_BUFFER_BYTES)
        .write_buffer_size(SOCKET_BUFFER_BYTES)
        .max_message_size(Some(max_message * 64))
        .max_frame_size(Some(max_message * 64));
    let connect = tokio_tungstenite::connect_async_with_config(request, Some(config), true);
    let upstream = match tokio::time::timeout(CONNECT_TIMEOUT, connect).await {
        Ok(Ok((upstream, _))) => upstream,
        // The owner turned the client away (all the connections its address may open
        // there are open): it is told so, as if it had reached the owner itself.
        Ok(Err(tokio_tungstenite::tungstenite::Error::Http(refused)))
            if refused.status().as_u16() == StatusCode::SERVICE_UNAVAILABLE.as_u16() =>
        {
            let body = refused.body().clone().unwrap_or_default();
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::CONTENT_TYPE, "application/json")],
                body,
            )
                .into_response();
        }
        _ => return unreachable(),
    };
    hub.shared().metrics.relayed.fetch_add(1, Ordering::Relaxed);
    let relayed = hub.relaying(id, &owner);
    let id = id.to_string();
    upgrade
        .read_buffer_size(SOCKET_BUFFER_BYTES)
        .write_buffer_size(SOCKET_BUFFER_BYTES)
        .max_frame_size(max_message)
        .max_message_size(max_message)
        .on_upgrade(move |socket| pump(socket, upstream, id, relayed))
}

/// Waits until table `id` moves away from the node relayed to.
async fn moved(relayed: &mut Relayed, id: &str) {
    loop {
        match relayed.moved.recv().await {
            Ok(table) if table == id => return,
            Ok(_) | Err(RecvError::Lagged(_)) => {}
            Err(RecvError::Closed) => std::future::pending().await,
        }
    }
}

/// Relays frames both ways until either side closes. The owner's `closing` and close
/// frame pass through as they are; an owner that vanishes without them (it died) is
/// reported to the client as a `closing` of kind `retry`.
async fn pump(client: WebSocket, upstream: UpstreamSocket, id: String, mut relayed: Relayed) {
    let (mut to_client, mut from_client) = client.split();
    let (mut to_owner, mut from_owner) = upstream.split();
    loop {
        tokio::select! {
            () = moved(&mut relayed, &id) => break,
            message = from_client.next() => {
                let forwarded = match message {
                    Some(Ok(Message::Text(text))) => Upstream::Text(text.as_str().into()),
                    Some(Ok(Message::Binary(bytes))) => Upstream::Binary(bytes),
                    Some(Ok(Message::Ping(bytes))) => Upstream::Ping(bytes),
                    Some(Ok(Message::Pong(_))) => continue,
                    // The client left: so does the relay.
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                        let _ = to_owner.send(Upstream::Close(None)).await;
                        return;
                    }
                };
                if to_owner.send(forwarded).await.is_err() {
                    break;
                }
            }
            message = from_owner.next() => {
                let forwarded = match message {
                    Some(Ok(Upstream::Text(text))) => Message::Text(text.as_str().into()),
                    Some(Ok(Upstream::Binary(bytes))) => Message::Binary(bytes),
                    Some(Ok(Upstream::Close(frame))) => {
                        let frame = frame.map(|f| CloseFrame {
                            code: f.code.into(),
                            reason: f.reason.as_str().into(),
                        });
                        let _ = to_client.send(Message::Close(frame)).await;
                        return;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(_)) | None => break,
                };
                if to_client.send(forwarded).await.is_err() {
                    let _ = to_owner.send(Upstream::Close(None)).await;
                    return;
                }
            }
        }
    }
    // The owner went away without a word, or lost the table: the client comes again to
    // whoever runs the table next.
    let closing = ServerMessage::closing(
        CloseKind::Retry,
        "the server node running the table went away; reconnect",
    );
    let text = serde_json::to_string(&closing).expect("server messages serialize");
    let _ = to_client.send(Message::Text(text.into())).await;
    let _ = to_client
        .send(Message::Close(Some(CloseFrame {
            code: 1001,
            reason: "the table's node went away".into(),
        })))
        .await;
}
