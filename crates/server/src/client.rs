//! A headless client of the table protocol: seats one of calltrump's bots at a seat link
//! of a running server (`calltrump join`), reconnecting with back-off when the server goes
//! away. Tests and the load test use it too.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use calltrump_bots::bot_by_name;
use calltrump_engine::{seeded, Action, GameRng, Viewer};
use calltrump_table::{BotPlayer, Budget, ClientState, Player, Request};
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};

use crate::model::TableStatus;
use crate::protocol::{ClientMessage, ServerMessage};

/// A client socket's read and write buffers (the library's default is 128 KB each,
/// zeroed on every read).
const SOCKET_BUFFER_BYTES: usize = 4 * 1024;

/// Where a seat link points: the server, the table and the seat's token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLink {
    /// `host:port` (with a path prefix, if the server sits behind one).
    pub base: String,
    /// Whether the link is `https`.
    pub secure: bool,
    /// The table's id.
    pub table: String,
    /// The seat's token.
    pub token: String,
}

impl SeatLink {
    /// Reads a seat link as the server hands it out: `http://HOST/table/ID#token=TOKEN`.
    pub fn parse(url: &str) -> Result<SeatLink, String> {
        let bad = |why: &str| {
            format!(
                "\"{url}\" is not a seat link ({why}); expected http://HOST/table/ID#token=TOKEN"
            )
        };
        let (secure, rest) = if let Some(rest) = url.strip_prefix("http://") {
            (false, rest)
        } else if let Some(rest) = url.strip_prefix("https://") {
            (true, rest)
        } else {
            return Err(bad("it does not start with http:// or https://"));
        };
        let (path, token) = rest
            .split_once("#token=")
            .ok_or_else(|| bad("no #token="))?;
        let (base, table) = path
            .rsplit_once("/table/")
            .ok_or_else(|| bad("no /table/"))?;
        if table.is_empty() || token.is_empty() || base.is_empty() {
            return Err(bad("a part is empty"));
        }
        Ok(SeatLink {
            base: base.to_string(),
            secure,
            table: table.to_string(),
            token: token.to_string(),
        })
    }

    /// The table's WebSocket address.
    pub fn websocket(&self) -> String {
        let scheme = if self.secure { "wss" } else { "ws" };
        format!("{scheme}://{}/ws/{}", self.base, self.table)
    }
}

/// How a joined bot's game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The final state as the seat saw it.
    pub state: ClientState,
    /// Actions this client sent and the server accepted.
    pub actions: u64,
    /// Times the connection was lost and made again.
    pub reconnects: u32,
}

/// Where load-test clients gather each action's round trip as soon as it is measured:
/// when it was sent, and how long until the update that carries it came back. Shared,
/// so that a run stopped mid-game keeps what its clients measured.
pub type RoundTrips = Arc<Mutex<Vec<(Instant, Duration)>>>;

/// Why a client stopped before the game's end.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server kept refusing or was unreachable past the back-off's limit.
    #[error("gave up reaching {url}: {last}")]
    Unreachable {
        /// The address.
        url: String,
        /// The last error.
        last: String,
    },
    /// The server closed the seat for good.
    #[error("the server closed the seat: {0}")]
    Closed(String),
    /// The server answered the connection with a refusal that trying again would only
    /// hear again (no such table, a refused origin).
    #[error("{url}: {why}")]
    Rejected {
        /// The address.
        url: String,
        /// The server's answer.
        why: String,
    },
    /// The bot name is unknown.
    #[error("{0}")]
    Bot(String),
}

/// Plays the seat of `link` with the bot `level` until the game is over, reconnecting
/// with back-off (up to `patience` without a connection) when the server goes away.
pub async fn play_seat(
    link: &SeatLink,
    level: &str,
    seed: u64,
    patience: Duration,
) -> Result<Finished, ClientError> {
    play(link, level, seed, patience, Duration::ZERO, None).await
}

/// [`play_seat`], thinking about `think` before each action as a person would (from
/// half to one and a half times it, drawn from `seed`, so that many clients do not act
/// in step), and adding each action's round trip to `round_trips`: the load test's way
/// to offer a chosen rate of actions and to measure the answers.
pub async fn play_seat_paced(
    link: &SeatLink,
    level: &str,
    seed: u64,
    patience: Duration,
    think: Duration,
    round_trips: &RoundTrips,
) -> Result<Finished, ClientError> {
    play(link, level, seed, patience, think, Some(round_trips)).await
}

async fn play(
    link: &SeatLink,
    level: &str,
    seed: u64,
    patience: Duration,
    think: Duration,
    round_trips: Option<&RoundTrips>,
) -> Result<Finished, ClientError> {
    let bot = bot_by_name(level).map_err(|e| ClientError::Bot(e.to_string()))?;
    let mut player: Option<Box<dyn Player>> = Some(Box::new(BotPlayer::new(bot, seeded(seed))));
    let mut pacing = Pacing {
        think,
        rng: seeded(!seed),
    };
    let mut state: Option<ClientState> = None;
    let mut actions = 0;
    let mut reconnects = 0;
    let mut backoff = Duration::from_millis(50);
    let mut unreachable_since: Option<Instant> = None;
    loop {
        let attempt = session(
            link,
            level,
            &mut player,
            &mut state,
            &mut actions,
            round_trips,
            &mut pacing,
        )
        .await;
        match attempt {
            Ok(Session::Over) => {
                let state = state.expect("an ended game was seen");
                return Ok(Finished {
                    state,
                    actions,
                    reconnects,
                });
            }
            Ok(Session::Refused(error)) => return Err(error),
            Ok(Session::Dropped) => {
                tracing::warn!("lost the connection to the table; connecting again");
                reconnects += 1;
                unreachable_since = None;
                backoff = Duration::from_millis(50);
            }
            Err(error) => {
                if unreachable_since.is_none() {
                    tracing::warn!(
                        "cannot reach the table ({error}); trying again for up to {} s",
                        patience.as_secs()
                    );
                }
                let since = *unreachable_since.get_or_insert_with(Instant::now);
                if since.elapsed() > patience {
                    return Err(ClientError::Unreachable {
                        url: link.websocket(),
                        last: error,
                    });
                }
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(2));
    }
}

/// A client's pause before each action.
struct Pacing {
    think: Duration,
    rng: GameRng,
}

impl Pacing {
    /// From half to one and a half times `think`.
    fn pause(&mut self) -> Duration {
        self.think.mul_f64(0.5 + self.rng.random::<f64>())
    }
}

enum Session {
    /// The game is over.
    Over,
    /// The connection dropped: try again.
    Dropped,
    /// The server refused the seat for good.
    Refused(ClientError),
}

/// One connection: hello, then fold updates and act whenever it is the seat's turn.
async fn session(
    link: &SeatLink,
    level: &str,
    player: &mut Option<Box<dyn Player>>,
    state: &mut Option<ClientState>,
    actions: &mut u64,
    round_trips: Option<&RoundTrips>,
    pacing: &mut Pacing,
) -> Result<Session, String> {
    // Small buffers and no Nagle delay: a load test holds thousands of these, each
    // message a few KB that should leave at once.
    let config = WebSocketConfig::default()
        .read_buffer_size(SOCKET_BUFFER_BYTES)
        .write_buffer_size(SOCKET_BUFFER_BYTES);
    let socket =
        match tokio_tungstenite::connect_async_with_config(link.websocket(), Some(config), true)
            .await
        {
            Ok((socket, _)) => socket,
            // The server answered and said no: no table by that id (it never was, or it
            // is gone), or a refused origin. Trying again would only hear it again.
            Err(tungstenite::Error::Http(response))
                if response.status().is_client_error()
                    && response.status() != StatusCode::TOO_MANY_REQUESTS =>
            {
                let status = response.status();
                return Ok(Session::Refused(ClientError::Rejected {
                    url: link.websocket(),
                    why: if status == StatusCode::NOT_FOUND {
                        format!(
                            "no such table ({status}): the link is mistyped or the table is gone"
                        )
                    } else {
                        format!("the server refused the connection ({status})")
                    },
                }));
            }
            Err(error) => return Err(error.to_string()),
        };
    let (mut sink, mut stream) = socket.split();
    let send = |message: &ClientMessage| {
        Message::Text(
            serde_json::to_string(message)
                .expect("messages serialize")
                .into(),
        )
    };
    sink.send(send(&ClientMessage::Hello {
        token: Some(link.token.clone()),
        name: Some(format!("bot {level}")),
        version: state.as_ref().map(|s| s.version),
        host: None,
        seat: None,
    }))
    .await
    .map_err(|e| e.to_string())?;
    // The version this client answered last, and when.
    let mut sent: Option<(u64, Instant)> = None;
    let mut status = None;
    let mut rules = None;
    let ping_every = Duration::from_secs(20);
    loop {
        let next = tokio::time::timeout(ping_every, stream.next()).await;
        let frame = match next {
            Err(_) => {
                sink.send(send(&ClientMessage::Ping))
                    .await
                    .map_err(|e| e.to_string())?;
                continue;
            }
            Ok(None) => return Ok(Session::Dropped),
            Ok(Some(Err(_))) => return Ok(Session::Dropped),
            Ok(Some(Ok(frame))) => frame,
        };
        let text = match frame {
            Message::Text(text) => text,
            Message::Close(_) => return Ok(Session::Dropped),
            _ => continue,
        };
        let message: ServerMessage =
            serde_json::from_str(text.as_str()).map_err(|e| format!("a server message: {e}"))?;
        match message {
            ServerMessage::Welcome {
                status: s,
                rules: r,
                table,
                seat,
                ..
            } => {
                let seat = seat.map_or("no seat".into(), |seat| format!("seat {}", seat.0));
                let game = format!("{} {}", r.game(), r.variant());
                if state.is_none() {
                    tracing::info!("at table {table}, {seat}: {game}, {s}");
                } else {
                    tracing::info!("back at table {table}, {seat}");
                }
                status = Some(s);
                rules = Some(r);
            }
            ServerMessage::Status { status: s } => status = Some(s),
            ServerMessage::Snapshot(snapshot) => *state = Some(*snapshot),
            ServerMessage::Update(update) => {
                if let Some(state) = state.as_mut() {
                    state.apply(&update);
                }
                if let Some((_, at)) = sent.take_if(|(v, _)| update.version > *v) {
                    if let Some(round_trips) = round_trips {
                        let took = at.elapsed();
                        round_trips.lock().expect("never poisoned").push((at, took));
                    }
                }
            }
            ServerMessage::Error { message, .. } => {
                tracing::warn!("the server refused: {message}");
                // Answer again from the current state, after a pause: a refusal for
                // going too fast would only repeat.
                tokio::time::sleep(Duration::from_millis(100)).await;
                sent = None;
            }
            ServerMessage::Closing { kind, reason } => {
                if kind.may_retry() {
                    return Ok(Session::Dropped);
                }
                return Ok(Session::Refused(ClientError::Closed(reason)));
            }
            ServerMessage::Seats { .. }
            | ServerMessage::Chat(_)
            | ServerMessage::Invite { .. }
            | ServerMessage::LinkRefused { .. }
            | ServerMessage::SeatLeft { .. }
            | ServerMessage::Hint { .. }
            | ServerMessage::Paused { .. }
            | ServerMessage::Resumed
            | ServerMessage::Clock { .. }
            | ServerMessage::TimeUp { .. }
            | ServerMessage::Pong => {}
        }
        let Some(current) = state.as_ref() else {
            continue;
        };
        if status == Some(TableStatus::Over) || current.view.outcome.is_some() {
            return Ok(Session::Over);
        }
        if status == Some(TableStatus::Ended) {
            return Ok(Session::Refused(ClientError::Closed(
                "the table was ended".into(),
            )));
        }
        // Committed deals: this seat cuts the deck when asked (at random, as a bot may).
        let must_cut = current.deal_check.as_ref().is_some_and(|check| {
            check.cut.is_none() && Some(check.cutter) == current.view.viewer.seat()
        });
        if must_cut && sent.is_none_or(|(v, _)| v != current.version) {
            let cut = 1 + current.version % 20;
            sink.send(send(&ClientMessage::Cut { cut }))
                .await
                .map_err(|e| e.to_string())?;
            sent = Some((current.version, Instant::now()));
            continue;
        }
        let my_turn =
            !current.view.legal.is_empty() && matches!(current.view.viewer, Viewer::Seat(_));
        if !my_turn || sent.is_some_and(|(v, _)| v == current.version) {
            continue;
        }
        let (Some(observation), Some(rules)) = (current.observation(), rules.clone()) else {
            continue;
        };
        let mut bot = player.take().expect("the bot is here between decisions");
        let view = current.view.clone();
        let version = current.version;
        let (action, bot) = tokio::task::spawn_blocking(move || {
            let request = Request {
                rules: &rules,
                observation: &observation,
                view: &view,
                legal: &view.legal,
                deal: 0,
            };
            let action = bot.decide(&request, &Budget::within(Duration::from_secs(5)));
            (action, bot)
        })
        .await
        .map_err(|e| e.to_string())?;
        *player = Some(bot);
        let action: Action = action.map_err(|e| e.to_string())?;
        let pause = pacing.pause();
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
        sink.send(send(&ClientMessage::Act { version, action }))
            .await
            .map_err(|e| e.to_string())?;
        *actions += 1;
        sent = Some((version, Instant::now()));
    }
}

/// A plain HTTP/1.1 request to `addr` (`host:port`): the status and the body. For the
/// load test and tools; browsers and proxies speak to the server as usual.
pub async fn http_request(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> std::io::Result<(u16, String)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let body = body.unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await?;
    let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "not an HTTP response");
    let status = response
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or_else(bad)?;
    let (head, body) = response.split_once("\r\n\r\n").ok_or_else(bad)?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    Ok((
        status,
        if chunked {
            unchunk(body)
        } else {
            body.to_string()
        },
    ))
}

/// The body of a chunked HTTP/1.1 response: each chunk's size in hex, its bytes, until
/// a chunk of size 0.
fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        let Some(chunk) = tail.get(..size).filter(|_| size > 0) else {
            break;
        };
        out.push_str(chunk);
        rest = tail.get(size + 2..).unwrap_or_default();
    }
    out
}
