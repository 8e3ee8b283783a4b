//! Who is online and invitations by name: the lobby's people.
//!
//! - An account is online while it has a live WebSocket on a node: a table's
//!   (`/ws/{id}`) or the lobby's (`/ws/lobby`, which a signed-in lobby holds open). On a
//!   cluster each node publishes its own with its lease renewal and reads the others'
//!   (docs/operations.md).
//! - `GET /api/online`: the names online, for a signed-in person; the lobby's socket is
//!   sent them again whenever they change, and whenever an invitation is made.
//! - `POST /api/tables/{id}/invitations {host_token, seat, name}`: a signed-in host binds
//!   an open seat to the account named (taken by it alone, from any device); the invited
//!   person's "My tables" shows the invitation with the seat's link.
//! - `POST /api/tables/{id}/leave`: the signed-in account declines its invitation, or
//!   leaves its seat at a table whose game has not started; the host is told.
//! - `POST /api/tables/{id}/close {host_token}`: the host closes a table whose game has
//!   not started.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use calltrump_engine::Seat;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use sha2::Digest;
use tokio::sync::{oneshot, watch};

use crate::accounts::{name_key, signed_in};
use crate::hub::{Command, Hub, Roster, Route};
use crate::model::SignedIn;
use crate::request::{error, json_request, TableId};
use crate::session::{Invitation, InviteRefused, Outside};
use crate::Edge;

/// Most names `GET /api/online` and the lobby's socket send (the first by name).
pub const ONLINE_SHOWN: usize = 200;

/// How often the lobby's socket pings its browser: a dead connection is found and let
/// go (a browser answers pings by itself).
const LOBBY_PING: Duration = Duration::from_secs(30);

/// The accounts with a live WebSocket on this node, each with its name and how many;
/// on a cluster, the names online on the other nodes too.
#[derive(Default)]
pub struct Presence {
    accounts: Mutex<HashMap<String, (String, usize)>>,
    /// The names online on the other nodes, as the last renewal read them.
    elsewhere: Mutex<Vec<String>>,
    /// Raised at every change of who is online and at every invitation.
    changed: watch::Sender<u64>,
}

/// An account's socket, online until dropped.
pub struct Present {
    presence: Arc<Presence>,
    id: String,
}

impl Presence {
    /// `account` has one more live socket.
    pub fn enter(self: &Arc<Self>, account: &SignedIn) -> Present {
        let mut accounts = self.accounts.lock().expect("never poisoned");
        let entry = accounts
            .entry(account.id.clone())
            .or_insert_with(|| (account.name.clone(), 0));
        entry.1 += 1;
        let first = entry.1 == 1;
        drop(accounts);
        if first {
            self.bump();
        }
        Present {
            presence: Arc::clone(self),
            id: account.id.clone(),
        }
    }

    /// The names online on this node or another, sorted without regard to case, each
    /// once, at most [`ONLINE_SHOWN`].
    pub fn names(&self) -> Vec<String> {
        let mut names = self.here();
        names.extend(
            self.elsewhere
                .lock()
                .expect("never poisoned")
                .iter()
                .cloned(),
        );
        names.sort_by_key(|name| name.to_lowercase());
        names.dedup();
        names.truncate(ONLINE_SHOWN);
        names
    }

    /// Tells every lobby socket to send the names again.
    fn bump(&self) {
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
    }
}

impl Roster for Presence {
    fn here(&self) -> Vec<String> {
        let accounts = self.accounts.lock().expect("never poisoned");
        accounts.values().map(|(name, _)| name.clone()).collect()
    }

    fn elsewhere(&self, mut names: Vec<String>) {
        names.sort();
        names.dedup();
        let mut elsewhere = self.elsewhere.lock().expect("never poisoned");
        if *elsewhere != names {
            *elsewhere = names;
            drop(elsewhere);
            self.bump();
        }
    }
}

impl Drop for Present {
    fn drop(&mut self) {
        let mut accounts = self.presence.accounts.lock().expect("never poisoned");
        let gone = match accounts.get_mut(&self.id) {
            Some(entry) if entry.1 > 1 => {
                entry.1 -= 1;
                false
            }
            Some(_) => accounts.remove(&self.id).is_some(),
            None => false,
        };
        drop(accounts);
        if gone {
            self.presence.bump();
        }
    }
}

/// The routes of who is online and of invitations.
pub fn routes() -> Router<Hub> {
    Router::new()
        .route("/api/online", get(online))
        .route("/ws/lobby", get(lobby_socket))
        .route("/api/tables/{id}/invitations", post(invite))
        .route("/api/tables/{id}/leave", post(leave))
        .route("/api/tables/{id}/close", post(close))
        .route("/api/tables/{id}/holder", post(holder))
}

/// The body of `POST /api/tables/{id}/holder`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HolderRequest {
    token: String,
}

/// `POST /api/tables/{id}/holder {token}`: the seat a seat link's token still opens,
/// `{seat}` (null once the host gave the seat to a bot or to someone else), so that the
/// lobby offers "Back to my seat" only for a seat that is still the browser's. The token
/// goes in the body, never in an address that a log keeps. 404 for no such table.
async fn holder(
    State(hub): State<Hub>,
    TableId(id): TableId,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let request: HolderRequest = match json_request(&headers, &body, "holder") {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    let table = match hub.shared().store.table(&id).await {
        Ok(Some(table)) => table,
        Ok(None) => return error(StatusCode::NOT_FOUND, "there is no such table"),
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    // Compared by digest, so that the time taken says nothing of a token's characters.
    let digest = |token: &str| sha2::Sha256::digest(token.as_bytes());
    let wanted = digest(&request.token);
    let seat = (!request.token.is_empty())
        .then(|| table.seats.iter().position(|s| digest(&s.token) == wanted))
        .flatten();
    Json(json!({ "seat": seat })).into_response()
}

fn not_signed_in(what: &str) -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        format!("not signed in: {what}: POST /api/session {{name, password}} first"),
    )
}

/// The signed-in account of the request as a seat knows it, or the answer refusing it.
async fn account(hub: &Hub, headers: &HeaderMap, what: &str) -> Result<SignedIn, Response> {
    match signed_in(hub, headers).await? {
        Some((account, _)) => Ok(SignedIn {
            id: account.id,
            name: account.name,
        }),
        None => Err(not_signed_in(what)),
    }
}

/// `GET /api/online`: `{"online": [names]}` for a signed-in person; 401 otherwise.
async fn online(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) =
        account(&hub, &headers, "only a signed-in person sees who is online").await
    {
        return refused;
    }
    Json(json!({ "online": edge.presence.names() })).into_response()
}

/// `GET /ws/lobby`: a signed-in lobby's socket: the account is online while it is open,
/// and it is sent `{"type": "online", "online": [names]}` at once and at every change.
async fn lobby_socket(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let me = match account(&hub, &headers, "the lobby's socket is a signed-in person's").await {
        Ok(me) => me,
        Err(refused) => return refused,
    };
    upgrade
        .max_frame_size(1024)
        .max_message_size(1024)
        .on_upgrade(move |socket| lobby_connection(socket, me, edge))
}

async fn lobby_connection(socket: WebSocket, me: SignedIn, edge: Arc<Edge>) {
    let _present = edge.presence.enter(&me);
    let mut changed = edge.presence.changed.subscribe();
    changed.mark_changed();
    let (mut sink, mut stream) = socket.split();
    let mut ping = tokio::time::interval(LOBBY_PING);
    loop {
        tokio::select! {
            news = changed.changed() => {
                if news.is_err() {
                    break;
                }
                let names = edge.presence.names();
                let text = json!({ "type": "online", "online": names }).to_string();
                if sink.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            _ = ping.tick() => {
                if sink.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break;
                }
            }
            // The lobby sends nothing of its own: anything but a close is let be.
            message = stream.next() => match message {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            },
        }
    }
}

/// The body of `POST /api/tables/{id}/invitations`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct InvitationRequest {
    host_token: String,
    seat: Seat,
    name: String,
}

/// `POST /api/tables/{id}/invitations {host_token, seat, name}`: the signed-in host
/// invites the account `name` to `seat` (201 `{seat, name, link}`); 401 not signed in,
/// 403 not the host's token, 404 no such table or account, 409 the host's own account or
/// a seat that cannot take it (why said), 503 a table another node of the cluster runs.
async fn invite(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    TableId(id): TableId,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let request: InvitationRequest = match json_request(&headers, &body, "invitation") {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    let host = match account(&hub, &headers, "only a signed-in host invites by name").await {
        Ok(host) => host,
        Err(refused) => return refused,
    };
    let Ok((_, key)) = name_key(&request.name) else {
        return no_account(&request.name);
    };
    let invitee = match hub.shared().store.accounts().account_named(&key).await {
        Ok(Some(account)) => SignedIn {
            id: account.id,
            name: account.name,
        },
        Ok(None) => return no_account(&request.name),
        Err(e) => {
            tracing::error!("invitations: {e}");
            return error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
        }
    };
    if invitee.id == host.id {
        return error(
            StatusCode::CONFLICT,
            "name: that is your own account: to sit down yourself, open the seat's link",
        );
    }
    let mailbox = match hub.route(&id).await {
        Ok(Some(Route::Here(mailbox))) => mailbox,
        Ok(Some(Route::There(_))) => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "table {id} runs on another node of the cluster: invite from its host's page"
                ),
            )
        }
        Ok(None) => return error(StatusCode::NOT_FOUND, format!("there is no table {id}")),
        Err(e) => return e.into_response(),
    };
    let seat = request.seat;
    let name = invitee.name.clone();
    let invitation = Invitation {
        host_token: request.host_token,
        seat,
        invitee,
        by: host.name,
    };
    let (reply, answer) = oneshot::channel();
    let gone = || {
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the table has closed: try again",
        )
    };
    if mailbox.send(Command::Invite { invitation, reply }).is_err() {
        return gone();
    }
    match answer.await {
        Ok(Ok(())) => {
            edge.presence.bump();
            (
                StatusCode::CREATED,
                Json(json!({ "seat": seat, "name": name, "link": format!("/table/{id}#seat={seat}") })),
            )
                .into_response()
        }
        Ok(Err(InviteRefused::NotHost)) => {
            error(StatusCode::FORBIDDEN, InviteRefused::NotHost.to_string())
        }
        Ok(Err(refused)) => error(StatusCode::CONFLICT, refused.to_string()),
        Err(_) => gone(),
    }
}

/// 404 for an invitation to a name no account has (the name cut short if long).
fn no_account(name: &str) -> Response {
    error(
        StatusCode::NOT_FOUND,
        format!(
            "no account is called {}: invite a player by the name they signed up with",
            crate::names::quoted(name)
        ),
    )
}

/// `POST /api/tables/{id}/leave` (no body): the signed-in account declines the seat it
/// is invited to, or leaves the seat it took at a table whose game has not started: the
/// seat waits for a person again with a new link, and the host is told (200
/// `{"left": seat}`). 401 not signed in, 404 no such table, 409 no seat of the account
/// here or a game under way (why said).
async fn leave(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    TableId(id): TableId,
    headers: HeaderMap,
) -> Response {
    let me = match account(&hub, &headers, "only a signed-in player leaves a seat").await {
        Ok(me) => me,
        Err(refused) => return refused,
    };
    let seat = match hub.shared().store.table(&id).await {
        Ok(Some(table)) => table
            .seats
            .iter()
            .position(|s| s.account.as_deref() == Some(me.id.as_str())),
        Ok(None) => None,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let answer = ask(&hub, &id, Outside::Leave { account: me.id }).await;
    if answer.status() == StatusCode::OK {
        // The lobbies refresh "My tables" (an invitation gone).
        edge.presence.bump();
        return Json(json!({ "left": seat })).into_response();
    }
    answer
}

/// The body of `POST /api/tables/{id}/close`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CloseRequest {
    host_token: String,
}

/// `POST /api/tables/{id}/close {host_token}`: the host closes a table whose game has
/// not started; everyone at it is told (200 `{"closed": id}`). 403 not the host's token,
/// 404 no such table, 409 a game under way or a table over.
async fn close(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    TableId(id): TableId,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let request: CloseRequest = match json_request(&headers, &body, "close") {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    let host_token = request.host_token;
    let answer = ask(&hub, &id, Outside::Close { host_token }).await;
    if answer.status() == StatusCode::OK {
        edge.presence.bump();
        return Json(json!({ "closed": id })).into_response();
    }
    answer
}

/// Hands `request` to table `id` and answers 200 once it is kept, or why not: a table
/// over or ended (or ending meanwhile) is 409, whichever node saw it last.
async fn ask(hub: &Hub, id: &str, request: Outside) -> Response {
    let over = || async {
        match hub.shared().store.table(id).await {
            Ok(Some(table)) if !table.status.is_live() => Some(error(
                StatusCode::CONFLICT,
                format!("the table is {} already", table.status),
            )),
            Ok(None) => Some(error(
                StatusCode::NOT_FOUND,
                format!("there is no table {id}"),
            )),
            Ok(Some(_)) => None,
            Err(e) => Some(error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
        }
    };
    if let Some(refused) = over().await {
        return refused;
    }
    let mailbox = match hub.route(id).await {
        Ok(Some(Route::Here(mailbox))) => mailbox,
        Ok(Some(Route::There(_))) => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("table {id} runs on another node of the cluster: ask on the table's page"),
            )
        }
        Ok(None) => return error(StatusCode::NOT_FOUND, format!("there is no table {id}")),
        Err(e) => return e.into_response(),
    };
    let (reply, answer) = oneshot::channel();
    let gone = || {
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the table has closed: try again",
        )
    };
    if mailbox.send(Command::Outside { request, reply }).is_err() {
        return gone();
    }
    let answer = answer.await;
    if answer.is_err() {
        // The table stopped before answering: it may have been closed meanwhile.
        return over().await.unwrap_or_else(gone);
    }
    match answer {
        Ok(Ok(())) => StatusCode::OK.into_response(),
        Ok(Err(InviteRefused::NotHost)) => error(
            StatusCode::FORBIDDEN,
            "host_token: only the table's host closes it (the token of the host's link)",
        ),
        Ok(Err(refused)) => error(StatusCode::CONFLICT, refused.to_string()),
        Err(_) => gone(),
    }
}
