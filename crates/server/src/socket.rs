//! The WebSocket endpoint: one connection's reader and writer, between its socket and
//! its table's task.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Extension, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use crate::connection::RelayedFor;
use crate::hub::{Command, Hub, Route};
use crate::limits::client_address;
use crate::model::SignedIn;
use crate::outbox::{Outbox, Outgoing, Queue, OUTBOX_MESSAGES};
use crate::protocol::{ClientMessage, CloseKind, ErrorCode, ServerMessage};
use crate::relay::SOCKET_BUFFER_BYTES;
use crate::request::{base_url, error, plain_json_error, TableId};
use crate::session::Input;
use crate::Edge;

/// Largest message a client may send.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// The `closing` reason of a connection that sent a message over the size limit.
pub const TOO_BIG: &str = "a message over 16 KiB";
/// The `closing` reason of a connection that did not read what it was sent.
pub const TOO_SLOW: &str = "too much waited to be sent: the connection does not read";
/// How long a connection closed as too slow has to take its `closing`.
const TOO_SLOW_WAIT: Duration = Duration::from_secs(2);
/// The close code of a message too big (RFC 6455).
const CLOSE_TOO_BIG: u16 = 1009;
/// The close code of every other `closing`: going away.
const CLOSE_GOING_AWAY: u16 = 1001;
/// A connection that sends nothing for this long is closed (clients ping every 20 s).
const IDLE_TIMEOUT: Duration = Duration::from_secs(90);
/// Most messages a connection may send per second, on average.
const MESSAGES_PER_SECOND: f64 = 20.0;
/// How many messages a connection may send at once.
const MESSAGE_BURST: f64 = 40.0;

/// `GET /ws/{id}`: a table's WebSocket.
pub(crate) async fn websocket(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    TableId(id): TableId,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    relayed_for: Option<Extension<RelayedFor>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    // A socket another node of the cluster relays is its client's, as that node signed
    // it (checked, and the connection counted under the client, as its request came:
    // `Counted::place`); a client naming an address itself is not believed.
    let relayed_for = relayed_for.map(|Extension(RelayedFor(client))| client);
    let client = relayed_for.or_else(|| {
        client_address(
            &edge.limits,
            &headers,
            peer.map(|Extension(ConnectInfo(p))| p),
        )
    });
    // (Its origin is checked with every request's, by `check_site`.)
    let mailbox = match hub.route(&id).await {
        Ok(Some(Route::Here(mailbox))) => mailbox,
        Ok(Some(Route::There(owner))) => {
            let table = (id.as_str(), owner);
            // The owner counts the client's own address (its chat limit), not this
            // node's: signed with the cluster's secret.
            let from = client.zip(edge.relay_key.as_deref());
            let relayed = crate::relay::Relaying {
                headers: &headers,
                from,
            };
            return crate::relay::relay(&hub, table, relayed, upgrade, MAX_MESSAGE_BYTES).await;
        }
        Ok(None) => return error(StatusCode::NOT_FOUND, format!("there is no table {id}")),
        Err(e) => return e.into_response(),
    };
    // The account is read once, here: a sign-out later does not unseat the connection.
    let account = match crate::accounts::signed_in(&hub, &headers).await {
        Ok(account) => account.map(|(account, _)| SignedIn {
            id: account.id,
            name: account.name,
        }),
        Err(failed) => return failed,
    };
    let conn = hub.next_conn();
    let base = base_url(&headers);
    // Small buffers: thousands of quiet sockets, each message a few KB. A frame over the
    // limit is refused from its header, before its payload is read (the library's
    // default would buffer frames of up to 16 MiB).
    upgrade
        .read_buffer_size(SOCKET_BUFFER_BYTES)
        .write_buffer_size(SOCKET_BUFFER_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .max_message_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection(socket, conn, mailbox, (base, account), edge, client))
}

/// A token bucket: `MESSAGES_PER_SECOND` on average, `MESSAGE_BURST` at once.
struct RateLimit {
    tokens: f64,
    last: tokio::time::Instant,
}

impl RateLimit {
    fn allow(&mut self) -> bool {
        let now = tokio::time::Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * MESSAGES_PER_SECOND;
        self.tokens = (self.tokens + refill).min(MESSAGE_BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// How a connection's writer stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WriterEnd {
    /// It wrote a `closing`, or nobody sends to it any more: the client closes.
    Closed,
    /// The client did not read and its queue overflowed; or the socket failed. Nothing
    /// more of it is read.
    Dropped,
}

/// Writes what the table's task (and the reader) queue for one connection; closes a
/// connection too slow to read, after giving it [`TOO_SLOW_WAIT`] to take its `closing`.
async fn write(
    mut sink: SplitSink<WebSocket, Message>,
    mut queue: Queue,
    edge: Arc<Edge>,
    client: Option<IpAddr>,
) -> WriterEnd {
    loop {
        let message = match queue.next().await {
            Outgoing::Message(message) => message,
            Outgoing::Done => return WriterEnd::Closed,
            Outgoing::TooSlow => return close_too_slow(sink, queue, &edge, client).await,
        };
        if matches!(
            message,
            ServerMessage::Error {
                code: ErrorCode::BadToken,
                ..
            } | ServerMessage::Closing {
                kind: CloseKind::BadToken,
                ..
            }
        ) {
            edge.refusals
                .tokens
                .hit(client, "a hello with a token no seat of the table has");
        }
        // A socket that takes nothing blocks the write: the queue overflowing meanwhile
        // ends it.
        let sent = tokio::select! {
            biased;
            () = queue.overflowed() => None,
            sent = send(&mut sink, &message) => Some(sent),
        };
        match sent {
            None => return close_too_slow(sink, queue, &edge, client).await,
            Some(Err(())) => return WriterEnd::Dropped,
            Some(Ok(true)) => return WriterEnd::Closed,
            Some(Ok(false)) => {}
        }
    }
}

/// Closes a connection whose queue overflowed: what waits is dropped at once, and the
/// client has [`TOO_SLOW_WAIT`] to take its `closing`.
async fn close_too_slow(
    mut sink: SplitSink<WebSocket, Message>,
    queue: Queue,
    edge: &Edge,
    client: Option<IpAddr>,
) -> WriterEnd {
    edge.refusals
        .too_slow
        .hit(client, "a WebSocket that did not read what it was sent");
    drop(queue);
    let closing = ServerMessage::closing(CloseKind::TooSlow, TOO_SLOW);
    let _ = tokio::time::timeout(TOO_SLOW_WAIT, send(&mut sink, &closing)).await;
    WriterEnd::Dropped
}

/// Writes `message`, and after a `closing` the close frame; whether it was a `closing`.
async fn send(
    sink: &mut SplitSink<WebSocket, Message>,
    message: &ServerMessage,
) -> Result<bool, ()> {
    let text = serde_json::to_string(message).expect("server messages serialize");
    sink.send(Message::Text(text.into()))
        .await
        .map_err(|_| ())?;
    let ServerMessage::Closing { kind, reason } = message else {
        return Ok(false);
    };
    let code = if *kind == CloseKind::TooBig {
        CLOSE_TOO_BIG
    } else {
        CLOSE_GOING_AWAY
    };
    let _ = sink
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: close_reason(reason).into(),
        })))
        .await;
    Ok(true)
}

/// A close frame's reason: `reason` cut at a character's end to the 123 bytes a close
/// frame may carry after its code (RFC 6455 5.5: a control frame's payload is at most
/// 125 bytes; a longer one is a protocol error to the client). The `closing` message
/// before it carries the whole reason.
fn close_reason(reason: &str) -> &str {
    const MAX: usize = 123;
    if reason.len() <= MAX {
        return reason;
    }
    let end = (0..=MAX)
        .rev()
        .find(|&i| reason.is_char_boundary(i))
        .unwrap_or(0);
    &reason[..end]
}

/// One client: its messages go to the table's task, the table's to it.
async fn connection(
    socket: WebSocket,
    conn: u64,
    mailbox: mpsc::UnboundedSender<Command>,
    (base, account): (String, Option<SignedIn>),
    edge: Arc<Edge>,
    client: Option<IpAddr>,
) {
    // A signed-in person is online while the socket is open.
    let _present = account.as_ref().map(|a| edge.presence.enter(a));
    let (sink, mut stream) = socket.split();
    let (outbox, queue) = Outbox::bounded(OUTBOX_MESSAGES);
    let mut writer = Some(tokio::spawn(write(sink, queue, Arc::clone(&edge), client)));
    let mut said_hello = false;
    let mut limit = RateLimit {
        tokens: MESSAGE_BURST,
        last: tokio::time::Instant::now(),
    };
    loop {
        let next = tokio::time::timeout(IDLE_TIMEOUT, stream.next());
        let next = match writer.as_mut() {
            Some(handle) => tokio::select! {
                end = handle => {
                    writer = None;
                    match end {
                        Ok(WriterEnd::Closed) => continue,
                        _ => break,
                    }
                }
                next = next => next,
            },
            None => next.await,
        };
        let message = match next {
            Err(_) => {
                let _ = outbox.send(ServerMessage::closing(CloseKind::Idle, "idle for too long"));
                break;
            }
            Ok(None) => break,
            Ok(Some(Err(error))) => {
                // Over the size limit the socket refuses the message: say so, and close.
                if error.to_string().contains("Message too long") {
                    edge.refusals
                        .oversize
                        .hit(client, "a WebSocket frame over 16 KiB");
                    let _ = outbox.send(ServerMessage::closing(CloseKind::TooBig, TOO_BIG));
                }
                break;
            }
            Ok(Some(Ok(message))) => message,
        };
        let text = match message {
            Message::Text(text) => text,
            Message::Close(_) => break,
            Message::Binary(_) => {
                let _ = outbox.send(ServerMessage::error(
                    ErrorCode::Malformed,
                    "messages are JSON text, not binary",
                ));
                continue;
            }
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !limit.allow() {
            edge.refusals
                .messages
                .hit(client, "WebSocket messages over 20 a second");
            let _ = outbox.send(ServerMessage::error(
                ErrorCode::TooFast,
                "too many messages: slow down",
            ));
            continue;
        }
        let parsed: ClientMessage = match serde_json::from_str(text.as_str()) {
            Ok(parsed) => parsed,
            Err(e) => {
                let _ = outbox.send(ServerMessage::error(
                    ErrorCode::Malformed,
                    format!("not a message of the protocol: {}", plain_json_error(&e)),
                ));
                continue;
            }
        };
        if !said_hello
            && !matches!(
                parsed,
                ClientMessage::Hello { .. } | ClientMessage::Look { .. }
            )
        {
            let _ = outbox.send(ServerMessage::error(
                ErrorCode::Hello,
                "the first message must be \"hello\"",
            ));
            continue;
        }
        if let (ClientMessage::Chat { .. }, Some(client)) = (&parsed, client) {
            if edge.chats.take(client, std::time::Instant::now()).is_err() {
                edge.refusals
                    .chat
                    .hit(Some(client), "chat lines over the address's rate");
                let _ = outbox.send(ServerMessage::error(
                    ErrorCode::Chat,
                    format!(
                        "slow down: at most {} chat lines a minute from your address",
                        edge.limits.chat_lines_per_minute
                    ),
                ));
                continue;
            }
        }
        if matches!(parsed, ClientMessage::Chat { .. })
            && edge
                .all_chats
                .take_key((), std::time::Instant::now())
                .is_err()
        {
            edge.refusals
                .chat_total
                .hit(client, "chat lines over the server's rate");
            let _ = outbox.send(ServerMessage::error(
                ErrorCode::Chat,
                format!(
                    "the server is taking too many chat lines (at most {} a minute from everyone); try again in a moment",
                    edge.limits.chat_lines_per_minute_total
                ),
            ));
            continue;
        }
        let command = if said_hello {
            Command::Input(Input::Message {
                conn,
                message: parsed,
            })
        } else {
            said_hello = true;
            Command::Connect {
                conn,
                hello: parsed,
                outbox: outbox.clone(),
                base: base.clone(),
                account: account.clone(),
            }
        };
        if mailbox.send(command).is_err() {
            // The task left: the table went out of memory (a new connection loads it
            // again) or ended (a new connection finds no table).
            let _ = outbox.send(ServerMessage::closing(
                CloseKind::Retry,
                "the table has closed",
            ));
            break;
        }
    }
    let _ = mailbox.send(Command::Input(Input::Disconnect { conn }));
    drop(outbox);
    if let Some(writer) = writer {
        let _ = writer.await;
    }
}

#[cfg(test)]
mod tests {
    use super::close_reason;

    #[test]
    fn a_close_reason_fits_a_close_frame_and_ends_at_a_characters_end() {
        assert_eq!(
            close_reason("the host ended the table"),
            "the host ended the table"
        );
        let long = "seat 1 is at a rated table where your account holds seat 0 already: ".repeat(3);
        assert_eq!(close_reason(&long).len(), 123);
        assert!(long.starts_with(close_reason(&long)));
        // Two-byte letters: cut before a letter, never inside one.
        let arabic = "مقعد".repeat(40);
        let cut = close_reason(&arabic);
        assert!(cut.len() <= 123 && cut.len() >= 121 && arabic.starts_with(cut));
    }
}
