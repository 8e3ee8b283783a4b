//! The HTTP routes (the WebSocket endpoint is `socket`'s) and the edge's
//! checks of every request.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, Extension, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use tokio::sync::Semaphore;

use crate::hub::{Hub, NewTable};
use crate::limits::client_address;
use crate::model::Sitter;
use crate::pages;
use crate::replay::{self, ReplayViewer};
use crate::request::{base_url, error, json_content, json_request, Refusal, TableId};
use crate::Edge;

/// What a page may load and do: only this server's own scripts, styles, images and
/// connections (the pages have no inline script or style), and no other site may frame it.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Most hands of a record the server replays. A whole game of any variant has far
/// fewer; the cap bounds one request's work and answer (every step's view of a hand is
/// some 16 KB of JSON: a 2 MB record of 5,000 hands answered 80 MB).
pub const REPLAY_HANDS: usize = 500;

/// Replays worked out at once over the whole server, each on a blocking thread: the
/// others wait their turn without holding a thread, so that the tables' threads and
/// `/healthz` stay free however many replays are asked for.
const REPLAY_WORKERS: usize = 2;

/// The permits of the replays being worked out.
struct ReplayWorkers(Semaphore);

/// The server's routes.
pub(crate) fn router(hub: Hub, edge: Arc<Edge>) -> Router {
    Router::new()
        .route("/", get(pages::lobby))
        .route("/table/{id}", get(pages::table_page))
        .route("/replay", get(pages::replay_page))
        .route("/replay/{id}", get(pages::replay_page))
        .route("/sign-in", get(pages::sign_in_page))
        .route("/rules", get(pages::rules_index))
        .route("/rules/{game}", get(pages::rules_page))
        .route("/assets/{file}", get(pages::asset))
        .route("/api/games", get(crate::games::games))
        .route("/api/tables", post(create_table).get(list_tables))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/replay", get(table_replay))
        .route("/api/replay", post(replay_record))
        .route("/ws/{id}", get(crate::socket::websocket))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .merge(crate::accounts::routes())
        .merge(crate::players::routes())
        .merge(crate::lobby::routes())
        .merge(crate::rated::routes())
        .merge(crate::night::routes())
        .merge(crate::game_analysis::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(limit_creates))
        .layer(middleware::from_fn(check_site))
        .layer(middleware::map_response(security_headers))
        .layer(Extension(edge))
        .layer(Extension(Arc::new(ReplayWorkers(Semaphore::new(
            REPLAY_WORKERS,
        )))))
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
        let client = client_address(
            &edge.limits,
            request.headers(),
            crate::listen::peer(&request),
        );
        edge.refusals
            .hosts
            .hit(client, &format!("a request for the name {host:?}"));
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
    // A browser that sends no `Origin` still says where the request comes from.
    let fetched_from = request
        .headers()
        .get("sec-fetch-site")
        .and_then(|s| s.to_str().ok())
        .filter(|site| (changes || websocket) && matches!(*site, "cross-site" | "same-site"));
    let client = || {
        client_address(
            &edge.limits,
            request.headers(),
            crate::listen::peer(&request),
        )
    };
    if let Some(site) = fetched_from.filter(|_| origin.is_none()) {
        edge.refusals
            .origins
            .hit(client(), &format!("a {site} request with no Origin"));
        return error(
            StatusCode::FORBIDDEN,
            format!(
                "a page of another site ({site}) may not {} here: only this server's own pages may",
                request.method()
            ),
        );
    }
    if let Some(origin) = origin.filter(|o| (changes || websocket) && !edge.site.own_origin(o)) {
        edge.refusals
            .origins
            .hit(client(), &format!("a request from a page of {origin}"));
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

/// Refuses a client address's creation of a table or a night, or its replay, over its
/// rate: 429 with `Retry-After`, the seconds until it may ask again.
async fn limit_creates(
    Extension(edge): Extension<Arc<Edge>>,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let creates = request.method() == Method::POST && matches!(path, "/api/tables" | "/api/nights");
    let replays = (request.method() == Method::POST && path == "/api/replay")
        || (request.method() == Method::GET
            && path.starts_with("/api/tables/")
            && path.ends_with("/replay"));
    let (limit, refusals, what, per_minute) = if creates {
        (
            &edge.creates,
            &edge.refusals.creates,
            "tables and nights created",
            edge.limits.creates_per_minute,
        )
    } else if replays {
        (
            &edge.replays,
            &edge.refusals.replays,
            "replays asked for",
            edge.limits.replays_per_minute,
        )
    } else {
        return next.run(request).await;
    };
    let peer = crate::listen::peer(&request);
    let Some(client) = client_address(&edge.limits, request.headers(), peer) else {
        return next.run(request).await;
    };
    if let Err(wait) = limit.take(client, Instant::now()) {
        refusals.hit(Some(client), &format!("{what} over the address's rate"));
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        let mut refused = error(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many {what} from your address: try again in {seconds} s (at most {per_minute} a minute)"
            ),
        );
        refused
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        return refused;
    }
    next.run(request).await
}

/// No such route: under `/api/`, a JSON error as every API error; elsewhere an empty 404.
async fn not_found(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "no API at {method} {path}: the API is /api/tables, /api/tables/{{id}}/record, /api/tables/{{id}}/replay, /api/tables/{{id}}/analysis, /api/replay, /api/nights, /api/accounts, /api/session and /api/me (docs/table-protocol.md)"
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

async fn create_table(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let mut request = match json_request::<NewTable>(&headers, &body, "table") {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    if request.rated || request.host_seat.is_some() {
        match crate::accounts::signed_in(&hub, &headers).await {
            Ok(Some((account, _))) => request.host_account = Some(account.id),
            Ok(None) if request.rated => {
                return error(
                    StatusCode::UNAUTHORIZED,
                    "rated: only a signed-in host makes a rated table: POST /api/session {name, password} first",
                )
            }
            Ok(None) => {}
            Err(failed) => return failed,
        }
    }
    let from = crate::accounts::client_address(&edge, &headers, peer);
    match hub.create(request, from).await {
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
                    "host_url": format!("{base}/table/{}#host={}", created.id, created.host_token),
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

/// Tables in a page of the lobby's list, unless the query asks for another count.
const LOBBY_PAGE: usize = 100;
/// The most tables a page of the lobby's list holds.
const LOBBY_PAGE_MAX: usize = 500;

/// The query of the lobby's list: the first table of the page and how many.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LobbyQuery {
    offset: Option<usize>,
    limit: Option<usize>,
}

/// `GET /api/tables?offset=&limit=`: a page of the live tables by id, their `total` and
/// the `next` page's offset (null on the last); a server of thousands of tables answers
/// a poll with one page, not megabytes.
async fn list_tables(
    State(hub): State<Hub>,
    query: Result<Query<LobbyQuery>, QueryRejection>,
) -> Response {
    let query = match query {
        Ok(Query(query)) => query,
        Err(e) => {
            let why = format!(
                "the query: {}; it takes offset (from 0) and limit (1 to {LOBBY_PAGE_MAX})",
                e.body_text()
            );
            return Refusal(StatusCode::BAD_REQUEST, why).into_response();
        }
    };
    let offset = query.offset.unwrap_or(0);
    let limit = query.limit.unwrap_or(LOBBY_PAGE);
    if !(1..=LOBBY_PAGE_MAX).contains(&limit) {
        let why = format!("limit: {limit}: a page holds 1 to {LOBBY_PAGE_MAX} tables");
        return Refusal(StatusCode::BAD_REQUEST, why).into_response();
    }
    match hub.lobby(offset, limit).await {
        Ok((tables, total)) => {
            let next = offset.saturating_add(limit);
            Json(json!({
                "tables": tables,
                "total": total,
                "next": (next < total).then_some(next),
                "damaged": hub.damaged(),
            }))
            .into_response()
        }
        Err(e) => e.into_response(),
    }
}

async fn record(State(hub): State<Hub>, TableId(id): TableId) -> Response {
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
/// a 400 with the engine's one line; a record of more than [`REPLAY_HANDS`] hands is
/// refused (413). Worked out on a blocking thread, [`REPLAY_WORKERS`] at a time.
async fn replay_states(
    workers: &ReplayWorkers,
    record: calltrump_engine::Record,
    query: &ReplayQuery,
    players: Option<Vec<String>>,
) -> Response {
    let viewer = match ReplayViewer::parse(query.seat.as_deref()) {
        Ok(viewer) => viewer,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    if record.hands.len() > REPLAY_HANDS {
        return error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the record has {} hands: the server replays at most {REPLAY_HANDS}",
                record.hands.len()
            ),
        );
    }
    let Ok(_permit) = workers.0.acquire().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping");
    };
    let worked = tokio::task::spawn_blocking(move || {
        replay::states(&record, viewer).map(|mut states| {
            states.players = players;
            serde_json::to_string(&states).expect("replay states serialise")
        })
    })
    .await;
    match worked {
        Ok(Ok(json)) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Ok(Err(e)) => error(StatusCode::BAD_REQUEST, e.to_string()),
        Err(_) => {
            tracing::error!("a replay's worker failed");
            error(StatusCode::INTERNAL_SERVER_ERROR, "the replay failed")
        }
    }
}

/// A table's players by seat as its page names them: a person's name (else `Seat N`),
/// `Bot N` for a bot. Read from the stored seats, of which nothing else (no token) is used.
async fn players(hub: &Hub, id: &str) -> Option<Vec<String>> {
    let stored = hub.shared().store.table(id).await.ok()??;
    Some(
        stored
            .seats
            .iter()
            .enumerate()
            .map(|(seat, record)| {
                let bot = matches!(record.sitter, Sitter::Bot(_));
                let now = match record.name.as_deref().filter(|n| !n.is_empty()) {
                    // A named seat a bot plays: a night's player.
                    Some(name) if bot => format!("{name} (bot)"),
                    None if bot => format!("Bot {seat}"),
                    Some(name) => name.to_string(),
                    None => format!("Seat {seat}"),
                };
                // The host handed the seat on during the game: everyone who played it.
                record
                    .former
                    .iter()
                    .map(String::as_str)
                    .chain([now.as_str()])
                    .collect::<Vec<_>>()
                    .join(", then ")
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
    Extension(workers): Extension<Arc<ReplayWorkers>>,
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
        Ok(record) => replay_states(&workers, record, &query, None).await,
        Err(e) => error(StatusCode::BAD_REQUEST, e.to_string()),
    }
}

/// `GET /api/tables/{id}/replay`: a table's states from its public record: a finished or
/// ended table's whole game; during a game, its complete hands and the public actions of
/// the hand in progress (never a hidden card: the record holds none). A table whose game
/// has not started is refused (409): there is nothing to show yet.
async fn table_replay(
    State(hub): State<Hub>,
    Extension(workers): Extension<Arc<ReplayWorkers>>,
    TableId(id): TableId,
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
    replay_states(&workers, record, &query, players).await
}

/// `GET /readyz`: `ready` while the store can write, else 503 saying what stops it: a
/// table whose last write failed (it is paused), or the store's probe (`/healthz`
/// answers as long as the process serves).
async fn readyz(State(hub): State<Hub>, Extension(edge): Extension<Arc<Edge>>) -> Response {
    if let Some((table, why)) = hub.unsaved() {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: table {table} cannot save: {why}"),
        );
    }
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
