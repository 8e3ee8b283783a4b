//! The HTTP routes and the WebSocket endpoint.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::mpsc;

use crate::hub::{Command, Hub, HubError, NewTable, SeatRecord};
use crate::limits::Refusals;
use crate::model::Sitter;
use crate::pages;
use crate::protocol::{ClientMessage, CloseKind, ErrorCode, ServerMessage};
use crate::replay::{self, ReplayViewer};
use crate::Edge;

/// Largest message a client may send.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// The `closing` reason of a connection that sent a message over the size limit.
pub const TOO_BIG: &str = "a message over 16 KiB";
/// The close code of a message too big (RFC 6455).
const CLOSE_TOO_BIG: u16 = 1009;
/// The close code of every other `closing`: going away.
const CLOSE_GOING_AWAY: u16 = 1001;
/// The read and write buffers of one WebSocket (the library's default is 128 KB each).
const SOCKET_BUFFER_BYTES: usize = 4 * 1024;
/// A connection that sends nothing for this long is closed (clients ping every 20 s).
const IDLE_TIMEOUT: Duration = Duration::from_secs(90);
/// Most messages a connection may send per second, on average.
const MESSAGES_PER_SECOND: f64 = 20.0;
/// How many messages a connection may send at once.
const MESSAGE_BURST: f64 = 40.0;
/// What a page may load and do: only this server's own scripts, styles, images and
/// connections (the pages have no inline script or style), and no other site may frame it.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The server's routes.
pub(crate) fn router(hub: Hub, edge: Arc<Edge>) -> Router {
    Router::new()
        .route("/", get(pages::lobby))
        .route("/table/{id}", get(pages::table_page))
        .route("/replay", get(pages::replay_page))
        .route("/replay/{id}", get(pages::replay_page))
        .route("/rules", get(pages::rules_index))
        .route("/rules/{game}", get(pages::rules_page))
        .route("/assets/{file}", get(pages::asset))
        .route("/api/games", get(crate::games::games))
        .route("/api/tables", post(create_table).get(list_tables))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/replay", get(table_replay))
        .route("/api/replay", post(replay_record))
        .route("/ws/{id}", get(websocket))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .merge(crate::night::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(limit_creates))
        .layer(middleware::from_fn(check_site))
        .layer(middleware::map_response(security_headers))
        .layer(Extension(edge))
        .with_state(hub)
}

/// The headers of every answer: the policy of [`CONTENT_SECURITY_POLICY`], no sniffing
/// of types, no framing by another site, no address handed on to another site.
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// Refuses a request for a name this server does not answer to (a DNS rebinding: a
/// page of another site whose name now points here), and a state-changing request or a
/// WebSocket from a page of another origin. Programs send no `Origin` and go on. With a
/// public URL, the request is then taken as addressed to it, so that links name it.
async fn check_site(
    Extension(edge): Extension<Arc<Edge>>,
    mut request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !edge.site.answers_to(host) {
        Refusals::count(&edge.refusals.hosts);
        let open_at = match &edge.site.public {
            Some(public) => public.origin(),
            None => format!("http://{}", edge.site.listen),
        };
        return error(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server does not answer to the name {host:?}: open it at {open_at} (a server reached by another name is started with --public-url)"
            ),
        );
    }
    let changes = !matches!(*request.method(), Method::GET | Method::HEAD);
    let websocket = request
        .headers()
        .get(header::UPGRADE)
        .is_some_and(|u| u.as_bytes().eq_ignore_ascii_case(b"websocket"));
    let origin = request
        .headers()
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or("?"));
    if let Some(origin) = origin.filter(|o| (changes || websocket) && !edge.site.own_origin(o)) {
        Refusals::count(&edge.refusals.origins);
        if websocket {
            return error(
                StatusCode::FORBIDDEN,
                format!("a page of {origin} may not open this table"),
            );
        }
        let own = match &edge.site.public {
            Some(public) => public.origin(),
            None => base_url(request.headers()),
        };
        return error(
            StatusCode::FORBIDDEN,
            format!(
                "a page of {origin} may not {} here: only this server's own pages ({own}) may",
                request.method()
            ),
        );
    }
    if let Some(public) = &edge.site.public {
        let headers = request.headers_mut();
        if let Ok(authority) = HeaderValue::from_str(public.authority()) {
            headers.insert(header::HOST, authority);
        }
        headers.insert(
            "x-forwarded-proto",
            HeaderValue::from_static(if public.scheme() == "https" {
                "https"
            } else {
                "http"
            }),
        );
    }
    next.run(request).await
}

/// Refuses a client address's creation of a table or a night over its rate: 429 with
/// `Retry-After`, the seconds until it may create again.
async fn limit_creates(
    Extension(edge): Extension<Arc<Edge>>,
    request: Request,
    next: Next,
) -> Response {
    let creates = request.method() == Method::POST
        && matches!(request.uri().path(), "/api/tables" | "/api/nights");
    if !creates {
        return next.run(request).await;
    }
    let from_proxy = edge.limits.client_address_header.as_ref().and_then(|name| {
        request
            .headers()
            .get(name.as_str())
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<std::net::IpAddr>().ok())
    });
    let Some(client) = from_proxy.or_else(|| crate::listen::peer(&request).map(|p| p.ip())) else {
        return next.run(request).await;
    };
    if let Err(wait) = edge.creates.take(client, Instant::now()) {
        Refusals::count(&edge.refusals.creates);
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        let mut refused = error(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many tables and nights created from your address: try again in {seconds} s (at most {} a minute)",
                edge.limits.creates_per_minute
            ),
        );
        refused
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        return refused;
    }
    next.run(request).await
}

/// A request's JSON body, or what is wrong with it as `what`'s JSON.
fn json_body<T: serde::de::DeserializeOwned>(body: &[u8], what: &str) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| format!("the {what}'s JSON: {}", plain_json_error(&e)))
}

/// A JSON library's error in the words of a reader of the protocol: Rust's integer
/// types are whole numbers to them.
fn plain_json_error(error: &serde_json::Error) -> String {
    ["u64", "u32", "u16", "u8", "usize", "i64", "i32"]
        .iter()
        .fold(error.to_string(), |text, rust| {
            text.replace(&format!("expected {rust}"), "expected a whole number")
        })
}

/// A request refused before it is handled: its status and what is wrong, answered as
/// [`error`] answers.
pub(crate) struct Refusal(StatusCode, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

/// Whether the request says its body is JSON: `Content-Type: application/json` (with
/// or without parameters such as `charset`).
fn says_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .and_then(|t| t.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// A request body that must be JSON (`what`, e.g. `table`): refused with 415 unless it
/// is sent as `Content-Type: application/json`: a form or plain text is not read as
/// JSON by chance.
pub(crate) fn json_content(headers: &HeaderMap, what: &str) -> Result<(), Refusal> {
    if says_json(headers) {
        return Ok(());
    }
    let sent = headers
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .map_or("no Content-Type".to_string(), |t| {
            format!("Content-Type: {t}")
        });
    Err(Refusal(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        format!("the {what} must be JSON sent with Content-Type: application/json, not {sent}"),
    ))
}

/// A JSON request body read as `T`: 415 if it is not sent as JSON, 400 naming what is
/// wrong (a syntax error, a missing field, a field `T` does not know).
pub(crate) fn json_request<T: serde::de::DeserializeOwned>(
    headers: &HeaderMap,
    body: &[u8],
    what: &str,
) -> Result<T, Refusal> {
    json_content(headers, what)?;
    json_body(body, what).map_err(|message| Refusal(StatusCode::BAD_REQUEST, message))
}

/// No such route: under `/api/`, a JSON error as every API error; elsewhere an empty 404.
async fn not_found(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "no API at {method} {path}: the API is /api/tables, /api/tables/{{id}}/record, /api/tables/{{id}}/replay, /api/replay and /api/nights (docs/table-protocol.md)"
            ),
        );
    }
    StatusCode::NOT_FOUND.into_response()
}

/// A route asked with a method it does not take: a JSON error naming the method.
async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return error(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{path} does not take {method} (docs/table-protocol.md)"),
        );
    }
    StatusCode::METHOD_NOT_ALLOWED.into_response()
}

/// An error as JSON: `{"error": "..."}` with a status.
pub(crate) fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

impl IntoResponse for HubError {
    fn into_response(self) -> Response {
        let status = match self {
            HubError::BadRequest(_) => StatusCode::BAD_REQUEST,
            HubError::NoTable(_) | HubError::NoNight(_) => StatusCode::NOT_FOUND,
            HubError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        error(status, self.to_string())
    }
}

async fn create_table(
    State(hub): State<Hub>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let request = match json_request::<NewTable>(&headers, &body, "table") {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    match hub.create(request).await {
        Ok(created) => {
            let base = base_url(&headers);
            let invites: Vec<_> = created
                .seat_tokens
                .iter()
                .map(|(seat, token)| {
                    json!({
                        "seat": seat,
                        "token": token,
                        "url": format!("{base}/table/{}#token={token}", created.id),
                    })
                })
                .collect();
            (
                StatusCode::CREATED,
                Json(json!({
                    "id": created.id,
                    "host_token": created.host_token,
                    "host_url": format!("{base}/table/{}#token={}", created.id, created.host_token),
                    "watch_url": format!("{base}/table/{}", created.id),
                    "websocket": format!("/ws/{}", created.id),
                    "invites": invites,
                })),
            )
                .into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// The address clients reached, from the `Host` header (behind a proxy, the proxy
/// passes it on).
pub(crate) fn base_url(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let scheme = headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
        .filter(|p| *p == "https")
        .unwrap_or("http");
    format!("{scheme}://{host}")
}

async fn list_tables(State(hub): State<Hub>) -> Response {
    Json(json!({ "tables": hub.list() })).into_response()
}

async fn record(State(hub): State<Hub>, Path(id): Path<String>) -> Response {
    match hub.record(&id).await {
        Ok(record) => (
            [(header::CONTENT_TYPE, "application/json")],
            record.to_json(),
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

/// The query of a replay: whose view (`all`, `spectator` or a seat's number).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayQuery {
    seat: Option<String>,
}

/// The states of `record` for the query's viewer, as JSON (with the `players` given), or
/// a 400 with the engine's one line.
fn replay_states(
    record: &calltrump_engine::Record,
    query: &ReplayQuery,
    players: Option<Vec<String>>,
) -> Response {
    let viewer = match ReplayViewer::parse(query.seat.as_deref()) {
        Ok(viewer) => viewer,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    match replay::states(record, viewer) {
        Ok(mut states) => {
            states.players = players;
            Json(states).into_response()
        }
        Err(e) => error(StatusCode::BAD_REQUEST, e.to_string()),
    }
}

/// A table's players by seat as its page names them: a person's name (else `Seat N`),
/// `Bot N` for a bot. Read from the stored seats, of which nothing else (no token) is used.
async fn players(hub: &Hub, id: &str) -> Option<Vec<String>> {
    let stored = hub.shared().store.table(id).await.ok()??;
    let seats: Vec<SeatRecord> = serde_json::from_str(&stored.seats).ok()?;
    Some(
        seats
            .iter()
            .enumerate()
            .map(|(seat, record)| {
                let bot = matches!(record.sitter, Sitter::Bot(_));
                match record.name.as_deref().filter(|n| !n.is_empty()) {
                    // A named seat a bot plays: a night's player, or a person's seat
                    // the host gave a bot.
                    Some(name) if bot => format!("{name} (bot)"),
                    None if bot => format!("Bot {seat}"),
                    Some(name) => name.to_string(),
                    None => format!("Seat {seat}"),
                }
            })
            .collect(),
    )
}

/// A replay's query, or a JSON 400 naming what is wrong with it (`?viewer=0`).
fn replay_query(query: Result<Query<ReplayQuery>, QueryRejection>) -> Result<ReplayQuery, Refusal> {
    query.map(|Query(query)| query).map_err(|e| {
        Refusal(
            StatusCode::BAD_REQUEST,
            format!(
                "the query: {}; it takes only seat (all, spectator or a seat's number)",
                e.body_text()
            ),
        )
    })
}

/// `POST /api/replay`: a record in the body, every state of it for a viewer. Nothing is
/// kept.
async fn replay_record(
    query: Result<Query<ReplayQuery>, QueryRejection>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let query = match replay_query(query) {
        Ok(query) => query,
        Err(refused) => return refused.into_response(),
    };
    if let Err(refused) = json_content(&headers, "record") {
        return refused.into_response();
    }
    let Ok(text) = std::str::from_utf8(&body) else {
        return error(StatusCode::BAD_REQUEST, "the record is not UTF-8 text");
    };
    match calltrump_engine::Record::parse(text) {
        Ok(record) => replay_states(&record, &query, None),
        Err(e) => error(StatusCode::BAD_REQUEST, e.to_string()),
    }
}

/// `GET /api/tables/{id}/replay`: a table's states from its public record: a finished or
/// ended table's whole game; during a game, its complete hands and the public actions of
/// the hand in progress (never a hidden card: the record holds none). A table whose game
/// has not started is refused (409): there is nothing to show yet.
async fn table_replay(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    query: Result<Query<ReplayQuery>, QueryRejection>,
) -> Response {
    let query = match replay_query(query) {
        Ok(query) => query,
        Err(refused) => return refused.into_response(),
    };
    let record = match hub.record(&id).await {
        Ok(record) => record,
        Err(e) => return e.into_response(),
    };
    if record.hands.is_empty() {
        return error(
            StatusCode::CONFLICT,
            format!("table {id}'s game has not started: its replay opens once a hand is dealt"),
        );
    }
    let players = players(&hub, &id).await;
    replay_states(&record, &query, players)
}

/// `GET /readyz`: `ready` while the store can write, else 503 saying what stops it
/// (`/healthz` answers as long as the process serves).
async fn readyz(Extension(edge): Extension<Arc<Edge>>) -> Response {
    let Some(readiness) = &edge.readiness else {
        return "ready".into_response();
    };
    match readiness.check().await {
        Ok(()) => "ready".into_response(),
        Err(why) => error(StatusCode::SERVICE_UNAVAILABLE, format!("not ready: {why}")),
    }
}

async fn metrics(State(hub): State<Hub>, Extension(edge): Extension<Arc<Edge>>) -> Response {
    let mut text = hub.shared().metrics.render();
    text.push_str(&edge.refusals.render(edge.connections.open()));
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

async fn websocket(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    // (Its origin is checked with every request's, by `check_site`.)
    let mailbox = match hub.open(&id).await {
        Ok(Some(mailbox)) => mailbox,
        Ok(None) => return error(StatusCode::NOT_FOUND, format!("there is no table {id}")),
        Err(e) => return e.into_response(),
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
        .on_upgrade(move |socket| connection(socket, conn, mailbox, base, edge))
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

/// One client: its messages go to the table's task, the table's to it.
async fn connection(
    socket: WebSocket,
    conn: u64,
    mailbox: mpsc::UnboundedSender<Command>,
    base: String,
    edge: Arc<Edge>,
) {
    let (mut sink, mut stream) = socket.split();
    let (outbox, mut outgoing) = mpsc::unbounded_channel::<ServerMessage>();
    let refusals = Arc::clone(&edge);
    let writer = tokio::spawn(async move {
        while let Some(message) = outgoing.recv().await {
            let closing = match &message {
                ServerMessage::Closing { kind, reason } => Some((*kind, reason.clone())),
                _ => None,
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
                Refusals::count(&refusals.refusals.tokens);
            }
            let text = serde_json::to_string(&message).expect("server messages serialize");
            if sink.send(Message::Text(text.into())).await.is_err() {
                return;
            }
            if let Some((kind, reason)) = closing {
                let code = if kind == CloseKind::TooBig {
                    CLOSE_TOO_BIG
                } else {
                    CLOSE_GOING_AWAY
                };
                let _ = sink
                    .send(Message::Close(Some(CloseFrame {
                        code,
                        reason: reason.into(),
                    })))
                    .await;
                return;
            }
        }
    });
    let mut said_hello = false;
    let mut limit = RateLimit {
        tokens: MESSAGE_BURST,
        last: tokio::time::Instant::now(),
    };
    loop {
        let next = tokio::time::timeout(IDLE_TIMEOUT, stream.next()).await;
        let message = match next {
            Err(_) => {
                let _ = outbox.send(ServerMessage::closing(CloseKind::Idle, "idle for too long"));
                break;
            }
            Ok(None) => break,
            Ok(Some(Err(error))) => {
                // Over the size limit the socket refuses the message: say so, and close.
                if error.to_string().contains("Message too long") {
                    Refusals::count(&edge.refusals.oversize);
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
            Refusals::count(&edge.refusals.messages);
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
        let command = if said_hello {
            Command::Message {
                conn,
                message: parsed,
            }
        } else {
            said_hello = true;
            Command::Connect {
                conn,
                hello: parsed,
                outbox: outbox.clone(),
                base: base.clone(),
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
    let _ = mailbox.send(Command::Disconnect { conn });
    drop(outbox);
    let _ = writer.await;
}
