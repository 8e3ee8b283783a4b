//! The tables a server runs: one task per table owns its [`Table`], its seats and its
//! connections; everything a client may learn of the game leaves through
//! [`Table::update_for`] and [`Table::snapshot`], and only after the store committed it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use calltrump_bots::{bot_by_name, hint, table_hint_bot, Decision};
use calltrump_engine::fair_deal::{self, CutSide, Seed};
use calltrump_engine::{
    seeded, stream, Action, AnyGame, Broken, Game, GameRng, GameRules, Observation, PlayError,
    Record, Seat, Turn, Viewer,
};
use calltrump_table::{
    BotPlayer, Budget, Entry, Event, Player, Request, Settings, Table, TableError,
};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use crate::metrics::Metrics;
use crate::model::{Sitter, TableStatus};
use crate::protocol::{
    CallShows, ChatMessage, ClientMessage, CloseKind, ErrorCode, HintAction, SeatInfo,
    ServerMessage,
};
use crate::store::{ChatLine, ChatPlace, Store, StoreError, StoredTable};

/// Longest chat line, in characters.
pub const CHAT_MAX_CHARS: usize = 500;
/// Shortest time between two chat lines of one connection.
const CHAT_INTERVAL: Duration = Duration::from_millis(500);
/// Chat lines sent to a client on joining.
const CHAT_HISTORY: usize = 50;
/// The level that fills empty seats when the host starts.
pub const FILL_LEVEL: &str = "medium";
/// How long a person who must cut may take before the server cuts at random
/// ([`HubConfig::cut_wait`]).
pub const DEFAULT_CUT_WAIT: Duration = Duration::from_secs(15);
/// The bot that plays a turn whose own bot failed: one that cannot fail while the game
/// has a legal action.
const FALLBACK_LEVEL: &str = "random";
/// Longest time a bot may think over one decision.
const BOT_BUDGET: Duration = Duration::from_secs(5);
/// The most deals a table plays unless the server says otherwise (`--max-deals`): far
/// more than a game between people lasts, a bound on bots that never finish.
pub const DEFAULT_MAX_DEALS: usize = 200;
/// How long a table whose game is over stays in memory once nobody is connected.
pub const DEFAULT_KEEP_OVER: Duration = Duration::from_secs(10 * 60);
/// How long a table waiting for players may stay with nobody connected before it is
/// closed as abandoned ([`HubConfig::abandon_open`]).
pub const DEFAULT_ABANDON_OPEN: Duration = Duration::from_secs(24 * 60 * 60);

/// How the tables run.
#[derive(Clone, Debug)]
pub struct HubConfig {
    /// The pause before a bot acts or the next hand is dealt, so people can follow.
    pub bot_delay: Duration,
    /// How long a person may be away before a bot stands in.
    pub grace: Duration,
    /// Deal every table from this seed (tests, demonstrations); otherwise from the OS.
    pub seed: Option<u64>,
    /// The most deals a table plays: when the next deal would pass it, the game ends as
    /// a draw ([`DEFAULT_MAX_DEALS`]).
    pub max_deals: usize,
    /// How long a table whose game is over stays in memory after its last connection
    /// left ([`DEFAULT_KEEP_OVER`]); it is loaded again from the store when asked for.
    pub keep_over: Duration,
    /// How long a table whose game has not started may have nobody connected before it
    /// is ended as abandoned ([`DEFAULT_ABANDON_OPEN`]), so that it is not resumed at
    /// every start for ever.
    pub abandon_open: Duration,
    /// How long a person who must cut the deck may take before the server cuts at
    /// random for them ([`DEFAULT_CUT_WAIT`]).
    pub cut_wait: Duration,
}

impl HubConfig {
    /// The defaults of `calltrump serve`, with these bot pacing and grace.
    pub fn new(bot_delay: Duration, grace: Duration) -> HubConfig {
        HubConfig {
            bot_delay,
            grace,
            seed: None,
            max_deals: DEFAULT_MAX_DEALS,
            keep_over: DEFAULT_KEEP_OVER,
            abandon_open: DEFAULT_ABANDON_OPEN,
            cut_wait: DEFAULT_CUT_WAIT,
        }
    }
}

/// Who sits at a seat, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The seat's secret: whoever holds it plays the seat.
    pub token: String,
    /// The person's name (or none).
    pub name: Option<String>,
    /// `open` (a person's seat not yet taken), `person`, or `bot:LEVEL`.
    pub sitter: Sitter,
}

impl SeatRecord {
    fn bot_level(&self) -> Option<&str> {
        self.sitter.bot_level()
    }
}

/// A new table's request (`POST /api/tables`); a field it does not know is refused.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// The game (`kaibosh`, `bid-euchre`, `kout`).
    pub game: String,
    /// The variant; the game's first if none.
    #[serde(default)]
    pub variant: Option<String>,
    /// Options that differ from the rules' defaults.
    #[serde(default)]
    pub options: serde_json::Map<String, serde_json::Value>,
    /// Each seat: `open` or `bot:LEVEL`; all open if none.
    #[serde(default)]
    pub seats: Option<Vec<Sitter>>,
    /// Whether a person may take back an action.
    #[serde(default)]
    pub undo: bool,
    /// Whether a seat may ask for a hint on its turn (games against bots).
    #[serde(default)]
    pub hints: bool,
    /// The name shown at each seat until its player gives one (a night's players, the
    /// host's own seat); an empty name is none.
    #[serde(default)]
    pub names: Option<Vec<String>>,
    /// The seat that deals first; drawn at random if none.
    #[serde(default)]
    pub first_dealer: Option<Seat>,
}

/// A created table: its id and the links' tokens.
#[derive(Clone, Debug, Serialize)]
pub struct CreatedTable {
    /// The table's id.
    pub id: String,
    /// The host's token.
    pub host_token: String,
    /// The token of each open seat, by seat.
    pub seat_tokens: Vec<(Seat, String)>,
}

/// A table as the lobby lists it.
#[derive(Clone, Debug, Serialize)]
pub struct TableSummary {
    /// The id.
    pub id: String,
    /// The game.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// `open`, `playing`, `over` or `ended`.
    pub status: TableStatus,
    /// Who sits where.
    pub seats: Vec<SeatInfo>,
}

/// A request refused by the hub.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    /// A table's request that cannot be met.
    #[error("{0}")]
    BadRequest(String),
    /// No such table.
    #[error("there is no table {0}")]
    NoTable(String),
    /// No such night.
    #[error("there is no night {0}")]
    NoNight(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Sends to one connection.
pub type Outbox = mpsc::UnboundedSender<ServerMessage>;

/// A table's connections by number, as its supervisor reaches them.
type Listeners = Arc<Mutex<HashMap<u64, Outbox>>>;

/// How many times a table whose task panicked is restored from its log before it is
/// given up (a log that makes the task panic at every start would loop otherwise).
const MAX_RESTARTS: u32 = 3;

/// What a table's task is asked to do.
pub enum Command {
    /// A client connected: `hello` is its first message.
    Connect {
        /// The connection's number.
        conn: u64,
        /// Its first message.
        hello: ClientMessage,
        /// Where its messages go.
        outbox: Outbox,
        /// The address the client reached (`http://HOST`), for the links sent to it.
        base: String,
    },
    /// A client's message after `hello`.
    Message {
        /// The connection.
        conn: u64,
        /// The message.
        message: ClientMessage,
    },
    /// A client went away.
    Disconnect {
        /// The connection.
        conn: u64,
    },
    /// The game record as every player may see it now.
    Record {
        /// Where the record goes.
        reply: oneshot::Sender<Record>,
    },
    /// The server is shutting down.
    Shutdown {
        /// Answered once the table has closed its connections.
        done: oneshot::Sender<()>,
    },
    /// A bot answered (internal).
    BotAnswer {
        /// The version it answered.
        version: u64,
        /// Its seat.
        seat: Seat,
        /// Its action, or none if it failed.
        action: Option<Action>,
        /// The bot, handed back (none if its task panicked: it is made again).
        player: Option<Box<dyn Player>>,
    },
    /// Time to deal (internal).
    DealDue {
        /// The version the deal was due at.
        version: u64,
    },
    /// Start the game, as the host would (a night starts its sets of bots so).
    Start,
    /// Time to cut for the cutting seat (internal).
    CutDue {
        /// The version the cut was due at.
        version: u64,
    },
    /// A table whose game is over may leave memory, if nobody came since (internal).
    Retire {
        /// The count of connections made when the table fell idle.
        epoch: u64,
    },
    /// A hint was worked out (internal).
    HintReady {
        /// The seat it is for.
        seat: Seat,
        /// The version it is for.
        version: u64,
        /// The `hint` message, or none if its task failed.
        message: Option<Box<ServerMessage>>,
    },
    /// A person's grace ran out (internal).
    GraceOver {
        /// The seat.
        seat: Seat,
        /// When the person went away.
        since: Instant,
    },
}

/// Shared by the hub and every table's task.
pub struct Shared {
    /// Where tables are kept.
    pub store: Arc<dyn Store>,
    /// How tables run.
    pub config: HubConfig,
    /// The counters of `/metrics`.
    pub metrics: Metrics,
    /// Every running table's mailbox and its lobby summary.
    tables: Mutex<HashMap<String, (mpsc::UnboundedSender<Command>, TableSummary)>>,
    next_conn: AtomicU64,
    /// How many times each table's task was restored after it panicked.
    restarts: Mutex<HashMap<String, u32>>,
    /// Hints worked out at once, over every table: one per core.
    hint_slots: Arc<tokio::sync::Semaphore>,
}

/// The server's tables.
#[derive(Clone)]
pub struct Hub {
    shared: Arc<Shared>,
}

/// `N` random bytes from the operating system's secure generator.
fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buffer = [0u8; N];
    getrandom::fill(&mut buffer).expect("the OS's random source works");
    buffer
}

/// Most characters of a player's name.
const NAME_CHARS: usize = 40;

/// A name as a seat or a night shows it: trimmed, at most [`NAME_CHARS`] characters;
/// none if blank.
pub(crate) fn player_name(name: &str) -> Option<String> {
    Some(name.trim().chars().take(NAME_CHARS).collect::<String>()).filter(|n| !n.is_empty())
}

/// 16 random bytes from the OS, as hex: tokens and ids.
pub(crate) fn random_hex() -> String {
    random_bytes::<16>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(crate) fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Hub {
    /// A hub over `store` that resumes every table open or playing (a table whose game
    /// is over is loaded when someone asks for it).
    pub async fn start(store: Arc<dyn Store>, config: HubConfig) -> Result<Hub, HubError> {
        let hub = Hub {
            shared: Arc::new(Shared {
                store,
                config,
                metrics: Metrics::default(),
                tables: Mutex::new(HashMap::new()),
                next_conn: AtomicU64::new(1),
                restarts: Mutex::new(HashMap::new()),
                hint_slots: Arc::new(tokio::sync::Semaphore::new(
                    std::thread::available_parallelism().map_or(1, |n| n.get()),
                )),
            }),
        };
        for stored in hub.shared.store.live_tables().await? {
            let log = hub.shared.store.log(&stored.id).await?;
            let chat = hub.shared.store.chat_history(&stored.id).await?;
            let actor = TableActor::restore(&hub.shared, stored, &log, chat)?;
            hub.spawn(actor);
        }
        Ok(hub)
    }

    /// The shared state, for the HTTP layer.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// A fresh connection number.
    pub fn next_conn(&self) -> u64 {
        self.shared.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Creates a table.
    pub async fn create(&self, request: NewTable) -> Result<CreatedTable, HubError> {
        let rules =
            GameRules::from_header(&request.game, request.variant.as_deref(), &request.options)
                .map_err(|e| HubError::BadRequest(e.to_string()))?;
        let seat_count = AnyGame::new(&rules, Seat(0)).seats();
        let sitters = request
            .seats
            .unwrap_or_else(|| vec![Sitter::Open; seat_count]);
        if sitters.len() != seat_count {
            return Err(HubError::BadRequest(format!(
                "{} {} has {seat_count} seats, not {}",
                rules.game(),
                rules.variant(),
                sitters.len()
            )));
        }
        for (s, sitter) in sitters.iter().enumerate() {
            check_sitter(sitter).map_err(|e| HubError::BadRequest(format!("seat {s}: {e}")))?;
        }
        let names = request.names.unwrap_or_default();
        if !names.is_empty() && names.len() != seat_count {
            return Err(HubError::BadRequest(format!(
                "names: {} names for {seat_count} seats: give one per seat, in seat order (\"\" for a seat without one)",
                names.len()
            )));
        }
        if let Some(dealer) = request.first_dealer.filter(|d| d.index() >= seat_count) {
            return Err(HubError::BadRequest(format!(
                "first_dealer: there is no seat {dealer} at a table of {seat_count}"
            )));
        }
        let id = random_hex()[..16].to_string();
        let mut deal_rng = match self.shared.config.seed {
            Some(seed) => seeded(seed),
            None => {
                let mut seed = [0u8; 8];
                getrandom::fill(&mut seed).expect("the OS's random source works");
                seeded(u64::from_le_bytes(seed))
            }
        };
        let drawn = Seat(rand::Rng::random_range(&mut deal_rng, 0..seat_count) as u8);
        let first_dealer = request.first_dealer.unwrap_or(drawn);
        let seats: Vec<SeatRecord> = sitters
            .iter()
            .enumerate()
            .map(|(s, sitter)| SeatRecord {
                token: random_hex(),
                name: names.get(s).and_then(|n| player_name(n)),
                sitter: sitter.clone(),
            })
            .collect();
        // The `cut` option (read above with the rules) moves who cuts a committed deal.
        let cut_side = CutSide::from_options(&rules, &request.options)
            .map_err(|e| HubError::BadRequest(e.to_string()))?;
        let settings = Settings {
            cut_side: (cut_side != CutSide::default_for(&rules)).then_some(cut_side),
            rules,
            first_dealer,
            humans: seats.iter().map(|s| s.bot_level().is_none()).collect(),
            undo: request.undo,
            // Shared tables deal committed hands; a seeded server deals reproducibly.
            committed: self.shared.config.seed.is_none().then(|| id.clone()),
        };
        let stored = StoredTable {
            id: id.clone(),
            settings: settings_json(&settings, request.hints),
            deal_rng: serde_json::to_string(&deal_rng).expect("a generator serializes"),
            seats: serde_json::to_string(&seats).expect("seats serialize"),
            host_token: random_hex(),
            status: TableStatus::Open,
            created_at: now_secs(),
        };
        self.shared.store.create_table(&stored).await?;
        tracing::info!(
            "table {id}: {} {}, seats {}",
            settings.rules.game(),
            settings.rules.variant(),
            sitters
                .iter()
                .map(Sitter::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let created = CreatedTable {
            id: id.clone(),
            host_token: stored.host_token.clone(),
            seat_tokens: seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.sitter == Sitter::Open)
                .map(|(i, s)| (Seat(i as u8), s.token.clone()))
                .collect(),
        };
        let actor = TableActor::restore(&self.shared, stored, &[], Vec::new())?;
        self.spawn(actor);
        Ok(created)
    }

    /// Runs `actor`'s task, unless its table runs already; the table's mailbox.
    fn spawn(&self, actor: TableActor) -> mpsc::UnboundedSender<Command> {
        let mut tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        if let Some((tx, _)) = tables.get(&actor.id) {
            return tx.clone();
        }
        let (tx, rx) = mpsc::unbounded_channel();
        tables.insert(actor.id.clone(), (tx.clone(), actor.summary()));
        self.shared.metrics.tables.fetch_add(1, Ordering::Relaxed);
        let (id, listeners, stop) = (
            actor.id.clone(),
            Arc::clone(&actor.listeners),
            Arc::clone(&actor.stop),
        );
        let task = tokio::spawn(actor.run(rx, tx.clone()));
        // The supervisor: a task that panicked left its table in the registry and its
        // connections waiting; it is retired, they are told, and it is restored.
        let hub = self.clone();
        let mailbox = tx.clone();
        tokio::spawn(async move {
            if let Err(error) = task.await {
                stop.store(true, Ordering::Relaxed);
                if error.is_panic() {
                    tracing::error!(table = %id, "the table's task panicked");
                    hub.table_failed(&id, &mailbox, &listeners).await;
                }
            }
        });
        tx
    }

    /// Retires table `id`, whose task (at `mailbox`) panicked, from the registry and the
    /// metrics; restores it from its log if that replays (a few times at most), and
    /// tells its connections whether to come again.
    async fn table_failed(
        &self,
        id: &str,
        mailbox: &mpsc::UnboundedSender<Command>,
        listeners: &Listeners,
    ) {
        {
            let mut tables = self
                .shared
                .tables
                .lock()
                .expect("the table map is never poisoned");
            if tables
                .get(id)
                .is_some_and(|(tx, _)| tx.same_channel(mailbox))
            {
                tables.remove(id);
                self.shared.metrics.tables.fetch_sub(1, Ordering::Relaxed);
            }
        }
        let outboxes: Vec<Outbox> = listeners
            .lock()
            .map(|mut l| l.drain().map(|(_, outbox)| outbox).collect())
            .unwrap_or_default();
        self.shared
            .metrics
            .connections
            .fetch_sub(outboxes.len() as u64, Ordering::Relaxed);
        let restarts = {
            let mut restarts = self.shared.restarts.lock().expect("never poisoned");
            let count = restarts.entry(id.to_string()).or_default();
            *count += 1;
            *count
        };
        let restored = if restarts <= MAX_RESTARTS {
            match self.restore(id).await {
                Ok(restored) => restored,
                Err(error) => {
                    tracing::error!(table = %id, %error, "the table cannot be restored");
                    false
                }
            }
        } else {
            tracing::error!(table = %id, "the table failed {restarts} times: it is given up");
            false
        };
        let closing = if restored {
            tracing::info!(table = %id, "the table was restored from its log");
            ServerMessage::closing(CloseKind::Retry, "the table restarts")
        } else {
            ServerMessage::closing(
                CloseKind::TableGone,
                "the table broke and cannot be restored",
            )
        };
        for outbox in outboxes {
            let _ = outbox.send(closing.clone());
        }
    }

    /// Runs table `id` again from the store, if it is live there; whether it runs.
    async fn restore(&self, id: &str) -> Result<bool, HubError> {
        let Some(stored) = self.shared.store.table(id).await? else {
            return Ok(false);
        };
        if !stored.status.is_live() && stored.status != TableStatus::Over {
            return Ok(false);
        }
        let log = self.shared.store.log(id).await?;
        let chat = self.shared.store.chat_history(id).await?;
        let actor = TableActor::restore(&self.shared, stored, &log, chat)?;
        self.spawn(actor);
        Ok(true)
    }

    /// The mailbox of table `id` for a new connection: a table running, or one whose
    /// game is over, loaded again from the store. None for an unknown or ended table.
    pub async fn open(&self, id: &str) -> Result<Option<mpsc::UnboundedSender<Command>>, HubError> {
        if let Some(mailbox) = self.mailbox(id) {
            return Ok(Some(mailbox));
        }
        let Some(stored) = self.shared.store.table(id).await? else {
            return Ok(None);
        };
        if stored.status != TableStatus::Over {
            return Ok(None);
        }
        let log = self.shared.store.log(id).await?;
        let chat = self.shared.store.chat_history(id).await?;
        let actor = TableActor::restore(&self.shared, stored, &log, chat)?;
        Ok(Some(self.spawn(actor)))
    }

    /// The mailbox of table `id`.
    pub fn mailbox(&self, id: &str) -> Option<mpsc::UnboundedSender<Command>> {
        let tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        tables.get(id).map(|(tx, _)| tx.clone())
    }

    /// Starts table `id`'s game if it waits for players: bots fill the open seats.
    pub fn start_table(&self, id: &str) {
        if let Some(mailbox) = self.mailbox(id) {
            let _ = mailbox.send(Command::Start);
        }
    }

    /// The status of table `id`, from memory or the store; none for an unknown table.
    pub async fn status(&self, id: &str) -> Result<Option<TableStatus>, HubError> {
        let running = {
            let tables = self
                .shared
                .tables
                .lock()
                .expect("the table map is never poisoned");
            tables.get(id).map(|(_, summary)| summary.status)
        };
        match running {
            Some(status) => Ok(Some(status)),
            None => Ok(self.shared.store.table(id).await?.map(|t| t.status)),
        }
    }

    /// The tables the lobby shows: those waiting for players, and those in play.
    pub fn list(&self) -> Vec<TableSummary> {
        let tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        let mut list: Vec<TableSummary> = tables
            .values()
            .map(|(_, summary)| summary.clone())
            .filter(|s| s.status.is_live())
            .collect();
        list.sort_by(|a, b| a.id.cmp(&b.id));
        list
    }

    /// The record of table `id` as every player may see it now: from its task while it
    /// runs, else from the store (whole, for a table over or ended).
    pub async fn record(&self, id: &str) -> Result<Record, HubError> {
        if let Some(mailbox) = self.mailbox(id) {
            let (reply, answer) = oneshot::channel();
            if mailbox.send(Command::Record { reply }).is_ok() {
                if let Ok(record) = answer.await {
                    return Ok(record);
                }
            }
            // The task left meanwhile: the store has the table.
        }
        let stored = self
            .shared
            .store
            .table(id)
            .await?
            .ok_or_else(|| HubError::NoTable(id.to_string()))?;
        let log = self.shared.store.log(id).await?;
        let table = stored_table(&stored, &log)?;
        Ok(match stored.status {
            TableStatus::Over => table.record().clone(),
            TableStatus::Ended => table.ended_record(),
            TableStatus::Open | TableStatus::Playing => table.public_record(),
        })
    }

    /// Asks every table to close its connections, and waits until they have.
    pub async fn shutdown(&self) {
        let mailboxes: Vec<_> = {
            let tables = self
                .shared
                .tables
                .lock()
                .expect("the table map is never poisoned");
            tables.values().map(|(tx, _)| tx.clone()).collect()
        };
        for mailbox in mailboxes {
            let (done, finished) = oneshot::channel();
            if mailbox.send(Command::Shutdown { done }).is_ok() {
                let _ = finished.await;
            }
        }
    }
}

/// A refused action's message; when the game waits for another kind of action (a card
/// in the auction, a call in the play), what the seat may do instead.
fn with_choices(table: &Table, seat: Seat, error: &TableError) -> String {
    let TableError::Illegal(PlayError {
        broken: Broken::NotNow { .. },
        ..
    }) = error
    else {
        return error.to_string();
    };
    let legal = table.view(Viewer::Seat(seat)).legal;
    let choices: Vec<String> = legal.iter().map(Action::to_string).collect();
    format!("{error}; seat {seat} may now: {}", choices.join(", "))
}

/// Checks a seat's sitter as a host gives it: `open` or `bot:LEVEL` with a known level.
fn check_sitter(sitter: &Sitter) -> Result<(), String> {
    match sitter {
        Sitter::Open => Ok(()),
        Sitter::Person => Err("\"person\" is no seat to give: \"open\" waits for a person".into()),
        Sitter::Bot(level) => bot_by_name(level).map(|_| ()).map_err(|e| e.to_string()),
    }
}

/// A client connected to a table.
struct Connection {
    seat: Option<Seat>,
    host: bool,
    /// The name it gave: a spectator's shows on its chat lines.
    name: Option<String>,
    outbox: Outbox,
    last_chat: Option<Instant>,
    /// The address it reached (`http://HOST`).
    base: String,
}

/// The store's corruption of table `id`.
fn corrupt(id: &str, message: String) -> HubError {
    HubError::Store(StoreError::Corrupt {
        table: id.to_string(),
        message,
    })
}

/// A table's settings as stored: the table's [`Settings`] and, beside them, `hints`
/// when the table allows hints (the server's own option; the table knows nothing of it).
fn settings_json(settings: &Settings, hints: bool) -> String {
    let mut value = serde_json::to_value(settings).expect("settings serialize");
    if let (true, Some(object)) = (hints, value.as_object_mut()) {
        object.insert("hints".into(), true.into());
    }
    value.to_string()
}

/// A stored table's settings and whether it allows hints.
fn stored_settings(stored: &StoredTable) -> Result<(Settings, bool), HubError> {
    let mut value: serde_json::Value =
        serde_json::from_str(&stored.settings).map_err(|e| corrupt(&stored.id, e.to_string()))?;
    let hints = value
        .as_object_mut()
        .and_then(|o| o.remove("hints"))
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let settings: Settings =
        serde_json::from_value(value).map_err(|e| corrupt(&stored.id, e.to_string()))?;
    Ok((settings, hints))
}

/// A stored table's settings, first deal generator and seats.
fn stored_parts(stored: &StoredTable) -> Result<(Settings, GameRng, Vec<SeatRecord>), HubError> {
    let (settings, _) = stored_settings(stored)?;
    let deal_rng: GameRng =
        serde_json::from_str(&stored.deal_rng).map_err(|e| corrupt(&stored.id, e.to_string()))?;
    let seats: Vec<SeatRecord> =
        serde_json::from_str(&stored.seats).map_err(|e| corrupt(&stored.id, e.to_string()))?;
    Ok((settings, deal_rng, seats))
}

/// A stored table's game, rebuilt from its log.
fn stored_table(stored: &StoredTable, log: &[Entry]) -> Result<Table, HubError> {
    let (settings, deal_rng, _) = stored_parts(stored)?;
    Table::restore(settings, deal_rng, log).map_err(|e| corrupt(&stored.id, e.to_string()))
}

/// One table's task.
struct TableActor {
    id: String,
    shared: Arc<Shared>,
    table: Table,
    seats: Vec<SeatRecord>,
    host_token: String,
    status: TableStatus,
    connections: HashMap<u64, Connection>,
    /// Every connection's outbox, shared with the table's supervisor: if the task
    /// panics, its connections are told all the same.
    listeners: Listeners,
    /// Raised when the table's task ends: a bot still thinking stops.
    stop: Arc<AtomicBool>,
    /// People away, since when.
    away: HashMap<Seat, Instant>,
    /// Seats of people away past their grace, where a bot plays.
    standing_in: HashSet<Seat>,
    /// Each seat's bot, made when first needed (taken out while it thinks).
    players: Mutex<Vec<Option<Box<dyn Player>>>>,
    /// A bot is thinking, or a deal is scheduled, at this version.
    pending: Option<u64>,
    chat_seq: i64,
    chat: Vec<ChatMessage>,
    /// The deal generator before the first deal, to rebuild the table from its log.
    initial_rng: GameRng,
    mailbox: Option<mpsc::UnboundedSender<Command>>,
    /// Connections made so far: a table over and idle since then may leave memory.
    epoch: u64,
    /// Whether a seat may ask for a hint.
    hints: bool,
    /// The latest hint worked out: its seat, version and message.
    last_hint: Option<(Seat, u64, ServerMessage)>,
    /// Hints being worked out, by seat and version: the connections waiting for each.
    hints_waiting: HashMap<(Seat, u64), Vec<u64>>,
}

impl TableActor {
    fn restore(
        shared: &Arc<Shared>,
        stored: StoredTable,
        log: &[Entry],
        chat: Vec<ChatMessage>,
    ) -> Result<TableActor, HubError> {
        let (settings, deal_rng, seats) = stored_parts(&stored)?;
        let (_, hints) = stored_settings(&stored)?;
        let table = Table::restore(settings, deal_rng.clone(), log)
            .map_err(|e| corrupt(&stored.id, e.to_string()))?;
        let seat_count = table.seats();
        // Nobody is connected after a restart: people's graces start now.
        let away = if stored.status == TableStatus::Playing {
            seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.sitter == Sitter::Person)
                .map(|(i, _)| (Seat(i as u8), Instant::now()))
                .collect()
        } else {
            HashMap::new()
        };
        Ok(TableActor {
            id: stored.id,
            shared: Arc::clone(shared),
            table,
            seats,
            host_token: stored.host_token,
            status: stored.status,
            connections: HashMap::new(),
            listeners: Listeners::default(),
            stop: Arc::default(),
            away,
            standing_in: HashSet::new(),
            players: Mutex::new((0..seat_count).map(|_| None).collect()),
            pending: None,
            chat_seq: chat.last().map_or(0, |message| message.line.seq),
            // Each line with where in the game it was said, as stored (none for a line
            // stored before the place was).
            chat,
            initial_rng: deal_rng,
            mailbox: None,
            epoch: 0,
            hints,
            last_hint: None,
            hints_waiting: HashMap::new(),
        })
    }

    fn summary(&self) -> TableSummary {
        let rules = &self.table.settings().rules;
        TableSummary {
            id: self.id.clone(),
            game: rules.game().to_string(),
            variant: rules.variant().to_string(),
            status: self.status,
            seats: self.seat_infos(),
        }
    }

    fn seat_infos(&self) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, record)| {
                let seat = Seat(i as u8);
                let connected = self.connections.values().any(|c| c.seat == Some(seat));
                SeatInfo {
                    seat,
                    name: record
                        .name
                        .clone()
                        .or_else(|| record.bot_level().map(str::to_string)),
                    sitter: record.sitter.clone(),
                    connected,
                    grace_ms: self
                        .away
                        .get(&seat)
                        .filter(|_| !self.standing_in.contains(&seat))
                        .map(|since| {
                            self.shared
                                .config
                                .grace
                                .saturating_sub(since.elapsed())
                                .as_millis() as u64
                        }),
                    bot_standing_in: self.standing_in.contains(&seat),
                }
            })
            .collect()
    }

    async fn run(
        mut self,
        mut inbox: mpsc::UnboundedReceiver<Command>,
        mailbox: mpsc::UnboundedSender<Command>,
    ) {
        self.mailbox = Some(mailbox);
        for (&seat, &since) in &self.away.clone() {
            self.start_grace_timer(seat, since);
        }
        self.retire_when_idle();
        self.schedule();
        while let Some(command) = inbox.recv().await {
            match command {
                Command::Shutdown { done } => {
                    self.close_all(
                        CloseKind::Retry,
                        "the server is shutting down; reconnect in a moment",
                    );
                    let _ = done.send(());
                    break;
                }
                command => {
                    if !self.handle(command).await {
                        break;
                    }
                }
            }
            self.publish_summary();
        }
        self.stop.store(true, Ordering::Relaxed);
        self.shared
            .tables
            .lock()
            .expect("the table map is never poisoned")
            .remove(&self.id);
        self.shared.metrics.tables.fetch_sub(1, Ordering::Relaxed);
        // Whoever reached the mailbox as the task ended: told, so that they come again
        // to a table that only left memory, and not to one that ended.
        inbox.close();
        let kind = if self.status == TableStatus::Ended {
            CloseKind::TableGone
        } else {
            CloseKind::Retry
        };
        while let Ok(command) = inbox.try_recv() {
            match command {
                Command::Connect { outbox, .. } => {
                    let _ = outbox.send(ServerMessage::closing(kind, "the table has closed"));
                }
                Command::Shutdown { done } => {
                    let _ = done.send(());
                }
                _ => {}
            }
        }
    }

    /// Once the game is over and nobody is connected, the table leaves memory after a
    /// while (unless someone comes meanwhile); it stays in the store. A table whose game
    /// has not started and that nobody visits for [`HubConfig::abandon_open`] is ended.
    fn retire_when_idle(&self) {
        if !self.connections.is_empty() {
            return;
        }
        let wait = match self.status {
            TableStatus::Over => self.shared.config.keep_over,
            TableStatus::Open => self.shared.config.abandon_open,
            TableStatus::Playing | TableStatus::Ended => return,
        };
        let Some(mailbox) = self.mailbox.clone() else {
            return;
        };
        let epoch = self.epoch;
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = mailbox.send(Command::Retire { epoch });
        });
    }

    fn publish_summary(&self) {
        let summary = self.summary();
        let mut tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        if let Some(entry) = tables.get_mut(&self.id) {
            entry.1 = summary;
        }
    }

    /// Handles one command; `false` once the table has ended.
    async fn handle(&mut self, command: Command) -> bool {
        match command {
            Command::Connect {
                conn,
                hello,
                outbox,
                base,
            } => self.connect(conn, hello, outbox, base).await,
            Command::Start => {
                if self.status == TableStatus::Open {
                    self.start().await;
                }
            }
            Command::Retire { epoch } => {
                if epoch == self.epoch && self.connections.is_empty() {
                    match self.status {
                        TableStatus::Over => return false,
                        TableStatus::Open => {
                            tracing::info!(table = %self.id, "nobody came: the table is closed");
                            self.set_status(TableStatus::Ended).await;
                            return false;
                        }
                        TableStatus::Playing | TableStatus::Ended => {}
                    }
                }
            }
            Command::Message { conn, message } => return self.message(conn, message).await,
            Command::Disconnect { conn } => self.disconnect(conn),
            Command::Record { reply } => {
                let record = if self.status == TableStatus::Ended {
                    self.table.ended_record()
                } else if self.table.turn() == Turn::Over {
                    self.table.record().clone()
                } else {
                    self.table.public_record()
                };
                let _ = reply.send(record);
            }
            Command::BotAnswer {
                version,
                seat,
                action,
                player,
            } => {
                self.players.lock().expect("never poisoned")[seat.index()] = player;
                if self.pending == Some(version) {
                    self.pending = None;
                }
                let still_bot = self.is_bot_seat(seat);
                if version == self.table.version()
                    && still_bot
                    && self.status == TableStatus::Playing
                {
                    self.play_bot_action(seat, action).await;
                }
                self.schedule();
            }
            Command::DealDue { version } => {
                if self.pending == Some(version) {
                    self.pending = None;
                }
                if version == self.table.version()
                    && self.status == TableStatus::Playing
                    && self.table.turn() == Turn::Chance
                {
                    let committed = self.table.settings().committed.is_some();
                    // At the deal limit the game ends as a draw instead.
                    let at_limit = self.table.deals() >= self.shared.config.max_deals;
                    let result = self
                        .step(|t| {
                            if at_limit {
                                t.end_as_draw()
                            } else if committed {
                                t.commit(Seed(random_bytes()))
                            } else {
                                t.deal()
                            }
                            .map_err(|e| e.to_string())
                        })
                        .await;
                    if let Err(error) = result {
                        tracing::error!(table = %self.id, error = %error.1, "a deal failed");
                    }
                }
                self.schedule();
            }
            Command::CutDue { version } => {
                if self.pending == Some(version) {
                    self.pending = None;
                }
                if let (true, Some(cutter)) = (version == self.table.version(), self.table.cutter())
                {
                    let deck = fair_deal::deck(&self.table.settings().rules).len() as u64;
                    let cut = 1 + u64::from_le_bytes(random_bytes::<8>()) % (deck - 1);
                    if let Err(error) = self
                        .step(|t| t.cut(cutter, cut).map_err(|e| e.to_string()))
                        .await
                    {
                        tracing::error!(table = %self.id, error = %error.1, "a cut failed");
                    }
                }
                self.schedule();
            }
            Command::GraceOver { seat, since } => {
                if self.away.get(&seat) == Some(&since) && self.status == TableStatus::Playing {
                    self.standing_in.insert(seat);
                    self.broadcast_seats();
                    self.schedule();
                }
            }
            Command::HintReady {
                seat,
                version,
                message,
            } => {
                let waiting = self.hints_waiting.remove(&(seat, version));
                let message = match message {
                    Some(message) => *message,
                    None => {
                        tracing::error!(table = %self.id, %seat, version, "a hint's task failed");
                        ServerMessage::error(ErrorCode::NoHint, "the hint could not be worked out")
                    }
                };
                // Only to a connection still at the seat, while the hint still holds.
                let current = version == self.table.version();
                for conn in waiting.unwrap_or_default().into_iter().filter(|_| current) {
                    if self.connections.get(&conn).and_then(|c| c.seat) == Some(seat) {
                        self.send(conn, message.clone());
                    }
                }
                if matches!(message, ServerMessage::Hint { .. }) {
                    self.last_hint = Some((seat, version, message));
                }
            }
            Command::Shutdown { .. } => {}
        }
        true
    }

    /// A bot's action at `seat`, whose turn it is; if the bot failed (no action, or
    /// one the table refuses), the failure is logged and a fallback bot plays the turn,
    /// so that the table never waits on a broken bot.
    async fn play_bot_action(&mut self, seat: Seat, action: Option<Action>) {
        let played = match action {
            Some(action) => self
                .step(|t| t.apply(seat, action).map_err(|e| e.to_string()))
                .await
                .map_err(|(_, error)| error),
            None => Err("it gave no action".to_string()),
        };
        let Err(error) = played else {
            return;
        };
        tracing::error!(table = %self.id, %seat, %error, "the seat's bot failed: a fallback bot plays the turn");
        let fallback = bot_by_name(FALLBACK_LEVEL).map(|bot| {
            let player = BotPlayer::new(bot, stream(self.table.version(), seat.0.into()));
            let budget = Budget::within(BOT_BUDGET).stopped_by(Arc::clone(&self.stop));
            decide(Box::new(player), self.table.game(), seat, &budget).0
        });
        let Ok(Some(action)) = fallback else {
            tracing::error!(table = %self.id, %seat, "the fallback bot gave no action either");
            return;
        };
        if let Err((_, error)) = self
            .step(|t| t.apply(seat, action).map_err(|e| e.to_string()))
            .await
        {
            tracing::error!(table = %self.id, %seat, %error, "the fallback bot's action was refused");
        }
    }

    fn is_bot_seat(&self, seat: Seat) -> bool {
        self.seats[seat.index()].bot_level().is_some() || self.standing_in.contains(&seat)
    }

    /// Applies one step to a copy of the table, commits its events, then swaps it in and
    /// tells every connection: nobody hears of an event the store has not kept.
    /// A seated player's action, cut or undo: applied, or refused to connection `conn`
    /// with the reason; then the table's timers are set again.
    async fn seated_move(
        &mut self,
        conn: u64,
        apply: impl FnOnce(&mut Table) -> Result<Vec<Entry>, String>,
    ) {
        if let Err((code, message)) = self.step(apply).await {
            self.send(conn, ServerMessage::error(code, message));
        }
        self.schedule();
    }

    async fn step(
        &mut self,
        apply: impl FnOnce(&mut Table) -> Result<Vec<Entry>, String>,
    ) -> Result<(), (ErrorCode, String)> {
        let started = Instant::now();
        let before = self.table.version();
        let entries = apply(&mut self.table).map_err(|message| (ErrorCode::Illegal, message))?;
        if let Err(error) = self.shared.store.append(&self.id, &entries).await {
            // Not kept, so not done: back to the table as the store has it.
            let settings = self.table.settings().clone();
            let log = &self.table.log()[..before as usize];
            let initial = self.initial_rng.clone();
            self.table =
                Table::restore(settings, initial, log).expect("a log that was played replays");
            return Err((
                ErrorCode::NotSaved,
                format!("the action could not be saved: {error}"),
            ));
        }
        self.broadcast_updates(&entries);
        if self.table.turn() == Turn::Over && self.status == TableStatus::Playing {
            self.set_status(TableStatus::Over).await;
            self.retire_when_idle();
        }
        self.shared.metrics.actions.fetch_add(1, Ordering::Relaxed);
        self.shared.metrics.observe_latency(started.elapsed());
        Ok(())
    }

    fn broadcast_updates(&self, entries: &[Entry]) {
        let mut cache: HashMap<Viewer, ServerMessage> = HashMap::new();
        for connection in self.connections.values() {
            let recipient = connection.seat.map_or(Viewer::Spectator, Viewer::Seat);
            let message = cache.entry(recipient).or_insert_with(|| {
                ServerMessage::Update(self.table.update_for(entries, recipient))
            });
            let _ = connection.outbox.send(message.clone());
        }
    }

    fn broadcast(&self, message: &ServerMessage) {
        for connection in self.connections.values() {
            let _ = connection.outbox.send(message.clone());
        }
    }

    fn broadcast_seats(&self) {
        self.broadcast(&ServerMessage::Seats {
            seats: self.seat_infos(),
        });
    }

    async fn set_status(&mut self, status: TableStatus) {
        self.status = status;
        let scores = self.table.game().scores();
        match status {
            TableStatus::Playing => tracing::info!("table {}: the game starts", self.id),
            TableStatus::Over => tracing::info!(
                "table {}: the game is over, {} to {}",
                self.id,
                scores[0],
                scores[1]
            ),
            _ => tracing::info!("table {}: {status}", self.id),
        }
        self.save_seats().await;
        self.broadcast(&ServerMessage::Status { status });
    }

    async fn save_seats(&self) {
        let seats = serde_json::to_string(&self.seats).expect("seats serialize");
        if let Err(error) = self
            .shared
            .store
            .update_table(&self.id, &seats, self.status)
            .await
        {
            tracing::error!(table = %self.id, %error, "the table's seats could not be saved");
        }
    }

    /// Starts whatever comes next without a person: a deal, or a bot's decision.
    fn schedule(&mut self) {
        let version = self.table.version();
        // Something is already under way for this version (a timer from an older one
        // finds the table moved on and does nothing).
        if self.status != TableStatus::Playing || self.pending == Some(version) {
            return;
        }
        let delay = self.shared.config.bot_delay;
        let Some(mailbox) = self.mailbox.clone() else {
            return;
        };
        match self.table.turn() {
            Turn::Over => {}
            Turn::Chance => {
                self.pending = Some(version);
                match self.table.cutter() {
                    // A committed deck waits for its cut: a person gets time to cut.
                    Some(cutter) => {
                        let person_here = !self.is_bot_seat(cutter)
                            && self.connections.values().any(|c| c.seat == Some(cutter));
                        let wait = if person_here {
                            self.shared.config.cut_wait
                        } else {
                            delay
                        };
                        tokio::spawn(async move {
                            tokio::time::sleep(wait).await;
                            let _ = mailbox.send(Command::CutDue { version });
                        });
                    }
                    None => {
                        tokio::spawn(async move {
                            tokio::time::sleep(delay).await;
                            let _ = mailbox.send(Command::DealDue { version });
                        });
                    }
                }
            }
            Turn::Seat(seat) if self.is_bot_seat(seat) => {
                let Some(player) = self.take_player(seat) else {
                    return;
                };
                self.pending = Some(version);
                let game = self.table.game().clone();
                let stop = Arc::clone(&self.stop);
                tokio::spawn(async move {
                    tokio::time::sleep(delay).await;
                    let budget = Budget::within(BOT_BUDGET).stopped_by(stop);
                    let answer =
                        tokio::task::spawn_blocking(move || decide(player, &game, seat, &budget))
                            .await;
                    // A bot whose thread panicked is answered as one that failed.
                    let (action, player) = match answer {
                        Ok((action, player)) => (action, Some(player)),
                        Err(_) => (None, None),
                    };
                    let _ = mailbox.send(Command::BotAnswer {
                        version,
                        seat,
                        action,
                        player,
                    });
                });
            }
            Turn::Seat(_) => {}
        }
    }

    /// The seat's bot, made on first use: the seat's level, or the standing-in level.
    fn take_player(&mut self, seat: Seat) -> Option<Box<dyn Player>> {
        let mut players = self.players.lock().expect("never poisoned");
        if players[seat.index()].is_none() {
            let level = self.seats[seat.index()]
                .bot_level()
                .unwrap_or(FILL_LEVEL)
                .to_string();
            let bot = bot_by_name(&level).ok()?;
            let seed = self
                .id
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
            players[seat.index()] =
                Some(Box::new(BotPlayer::new(bot, stream(seed, seat.0.into()))));
        }
        players[seat.index()].take()
    }

    fn start_grace_timer(&self, seat: Seat, since: Instant) {
        let Some(mailbox) = self.mailbox.clone() else {
            return;
        };
        let grace = self.shared.config.grace.saturating_sub(since.elapsed());
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            let _ = mailbox.send(Command::GraceOver { seat, since });
        });
    }

    fn send(&self, conn: u64, message: ServerMessage) {
        if let Some(connection) = self.connections.get(&conn) {
            let _ = connection.outbox.send(message);
        }
    }

    fn close_all(&mut self, kind: CloseKind, reason: &str) {
        for connection in self.connections.values() {
            let _ = connection.outbox.send(ServerMessage::closing(kind, reason));
        }
        self.connections.clear();
        self.listeners.lock().expect("never poisoned").clear();
    }

    async fn connect(&mut self, conn: u64, hello: ClientMessage, outbox: Outbox, base: String) {
        // `look`: a seat's link whose person has not sat down yet watches; the seat
        // stays open (`welcome` names it all the same).
        let (token, name, version, host_token, looking) = match hello {
            ClientMessage::Hello {
                token,
                name,
                version,
                host,
            } => (token, name, version, host, false),
            ClientMessage::Look { token } => (Some(token), None, None, None, true),
            _ => {
                let _ = outbox.send(ServerMessage::error(
                    ErrorCode::Hello,
                    "the first message must be \"hello\"",
                ));
                return;
            }
        };
        let name = name.as_deref().and_then(player_name);
        let host_only = token.as_deref() == Some(self.host_token.as_str());
        let host =
            !looking && (host_only || host_token.as_deref() == Some(self.host_token.as_str()));
        let seat = match token.as_deref() {
            None => None,
            Some(_) if host_only && !looking => None,
            Some(token) => match self.seats.iter().position(|s| s.token == token) {
                Some(i) => Some(Seat(i as u8)),
                None => {
                    let _ = outbox.send(ServerMessage::error(
                        ErrorCode::BadToken,
                        "this link's token does not belong to this table",
                    ));
                    let _ =
                        outbox.send(ServerMessage::closing(CloseKind::BadToken, "unknown token"));
                    return;
                }
            },
        };
        if let Some(seat) = seat {
            let record = &mut self.seats[seat.index()];
            if record.bot_level().is_some() {
                let _ = outbox.send(ServerMessage::error(
                    ErrorCode::SeatTaken,
                    format!("seat {seat} is played by a bot now; ask the host for it"),
                ));
                let _ = outbox.send(ServerMessage::closing(
                    CloseKind::SeatGone,
                    "seat taken by a bot",
                ));
                return;
            }
        }
        // The seat the token is for; a connection that only looks holds none.
        let token_seat = seat;
        let seat = seat.filter(|_| !looking);
        if let Some(seat) = seat {
            let record = &mut self.seats[seat.index()];
            record.sitter = Sitter::Person;
            if name.is_some() {
                record.name = name.clone();
            }
            tracing::info!(
                "table {}: seat {seat} is taken by {}",
                self.id,
                record.name.as_deref().unwrap_or("a player with no name")
            );
            // Back before or after the grace: the person plays again.
            self.away.remove(&seat);
            self.standing_in.remove(&seat);
            self.save_seats().await;
        }
        self.listeners
            .lock()
            .expect("never poisoned")
            .insert(conn, outbox.clone());
        self.connections.insert(
            conn,
            Connection {
                seat,
                host,
                name,
                outbox,
                last_chat: None,
                base,
            },
        );
        self.epoch += 1;
        self.shared
            .metrics
            .connections
            .fetch_add(1, Ordering::Relaxed);
        self.send(
            conn,
            ServerMessage::Welcome {
                table: self.id.clone(),
                seat: token_seat,
                host,
                rules: self.table.settings().rules.clone(),
                status: self.status,
                undo: self.table.settings().undo,
                hints: self.hints,
                cut_wait_ms: self.shared.config.cut_wait.as_millis() as u64,
            },
        );
        let recipient = seat.map_or(Viewer::Spectator, Viewer::Seat);
        if version != Some(self.table.version()) {
            self.send(
                conn,
                ServerMessage::Snapshot(self.table.snapshot(recipient)),
            );
        }
        let skip = self.chat.len().saturating_sub(CHAT_HISTORY);
        for line in &self.chat[skip..] {
            self.send(conn, ServerMessage::Chat(line.clone()));
        }
        if looking {
            // Nothing changed for the others; this client needs the seats.
            self.send(
                conn,
                ServerMessage::Seats {
                    seats: self.seat_infos(),
                },
            );
            return;
        }
        self.broadcast_seats();
        // Every person's seat taken: the game starts.
        if self.status == TableStatus::Open && self.seats.iter().all(|s| s.sitter != Sitter::Open) {
            self.start().await;
        }
        self.schedule();
    }

    fn disconnect(&mut self, conn: u64) {
        self.listeners.lock().expect("never poisoned").remove(&conn);
        let Some(connection) = self.connections.remove(&conn) else {
            return;
        };
        self.shared
            .metrics
            .connections
            .fetch_sub(1, Ordering::Relaxed);
        if let Some(seat) = connection.seat {
            let still_here = self.connections.values().any(|c| c.seat == Some(seat));
            if !still_here {
                tracing::info!("table {}: seat {seat}'s player left", self.id);
            }
            if !still_here && self.status == TableStatus::Playing {
                self.put_on_grace(seat);
            }
        }
        self.broadcast_seats();
        self.retire_when_idle();
    }

    /// The person of `seat` is away: a bot stands in once the grace runs out.
    fn put_on_grace(&mut self, seat: Seat) {
        let since = Instant::now();
        self.away.insert(seat, since);
        self.start_grace_timer(seat, since);
    }

    async fn start(&mut self) {
        for record in &mut self.seats {
            if record.sitter == Sitter::Open {
                record.sitter = Sitter::Bot(FILL_LEVEL.into());
            }
        }
        // People who took a seat and left before the start: their grace starts now.
        let absent: Vec<Seat> = (0..self.seats.len())
            .map(|i| Seat(i as u8))
            .filter(|&seat| {
                self.seats[seat.index()].sitter == Sitter::Person
                    && !self.connections.values().any(|c| c.seat == Some(seat))
            })
            .collect();
        for seat in absent {
            self.put_on_grace(seat);
        }
        self.set_status(TableStatus::Playing).await;
        self.broadcast_seats();
        self.schedule();
    }

    /// Handles a message after `hello`; `false` once the table has ended.
    async fn message(&mut self, conn: u64, message: ClientMessage) -> bool {
        let Some(connection) = self.connections.get(&conn) else {
            return true;
        };
        let (seat, host) = (connection.seat, connection.host);
        let refuse = |this: &Self, code: ErrorCode, message: String| {
            this.send(conn, ServerMessage::error(code, message))
        };
        match message {
            ClientMessage::Hello { .. } | ClientMessage::Look { .. } => {
                refuse(self, ErrorCode::Hello, "already said hello".into())
            }
            ClientMessage::Ping => self.send(conn, ServerMessage::Pong),
            ClientMessage::Act { version, action } => {
                let Some(seat) = seat else {
                    refuse(
                        self,
                        ErrorCode::NotSeated,
                        "only a seated player may act".into(),
                    );
                    return true;
                };
                if self.status != TableStatus::Playing {
                    refuse(
                        self,
                        ErrorCode::Status,
                        format!("the table is {}, not playing", self.status),
                    );
                    return true;
                }
                let current = self.table.version();
                if version != current {
                    refuse(
                        self,
                        ErrorCode::Version,
                        if version < current {
                            format!("stale version {version}: the table is at version {current}")
                        } else {
                            format!(
                                "version {version} is ahead of the table, which is at version {current}: answer the last version received"
                            )
                        },
                    );
                    return true;
                }
                let action: Action = match action.parse() {
                    Ok(action) => action,
                    Err(error) => {
                        refuse(
                            self,
                            ErrorCode::Malformed,
                            format!("\"{action}\" is not an action: {error}"),
                        );
                        return true;
                    }
                };
                self.seated_move(conn, |t| {
                    t.apply(seat, action)
                        .map_err(|error| with_choices(t, seat, &error))
                })
                .await;
            }
            ClientMessage::Cut { cut } => {
                let Some(seat) = seat else {
                    refuse(
                        self,
                        ErrorCode::NotSeated,
                        "only a seated player may cut".into(),
                    );
                    return true;
                };
                self.seated_move(conn, |t| t.cut(seat, cut).map_err(|e| e.to_string()))
                    .await;
            }
            ClientMessage::Undo => {
                let Some(seat) = seat else {
                    refuse(
                        self,
                        ErrorCode::NotSeated,
                        "only a seated player may undo".into(),
                    );
                    return true;
                };
                self.seated_move(conn, |t| {
                    t.undo(seat).map_err(|e| format!("cannot undo: {e}"))
                })
                .await;
            }
            ClientMessage::Hint => {
                if let Err((code, message)) = self.ask_hint(conn, seat) {
                    refuse(self, code, message);
                }
            }
            ClientMessage::Chat { text } => self.chat_line(conn, seat, text).await,
            ClientMessage::Start | ClientMessage::End | ClientMessage::SetSeat { .. } if !host => {
                refuse(self, ErrorCode::NotHost, "only the host may do that".into());
            }
            ClientMessage::Start => {
                if self.status == TableStatus::Open {
                    self.start().await;
                } else {
                    refuse(
                        self,
                        ErrorCode::Status,
                        format!("the table is {} already", self.status),
                    );
                }
            }
            ClientMessage::End => {
                self.set_status(TableStatus::Ended).await;
                self.close_all(CloseKind::TableGone, "the host ended the table");
                return false;
            }
            ClientMessage::SetSeat { seat, sitter } => {
                if seat.index() >= self.seats.len() {
                    refuse(self, ErrorCode::BadSeat, format!("there is no seat {seat}"));
                    return true;
                }
                if let Err(message) = check_sitter(&sitter) {
                    refuse(self, ErrorCode::BadSeat, message);
                    return true;
                }
                let record = &mut self.seats[seat.index()];
                if sitter == Sitter::Open {
                    // Back to a person: the seat waits for its link again.
                    record.sitter = if record.name.is_some() {
                        Sitter::Person
                    } else {
                        Sitter::Open
                    };
                    if self.status == TableStatus::Playing
                        && !self.connections.values().any(|c| c.seat == Some(seat))
                    {
                        self.put_on_grace(seat);
                    }
                    // The host gets the seat's link, to hand to whoever takes it.
                    let token = self.seats[seat.index()].token.clone();
                    for connection in self.connections.values().filter(|c| c.host) {
                        let _ = connection.outbox.send(ServerMessage::Invite {
                            seat,
                            url: format!("{}/table/{}#token={token}", connection.base, self.id),
                            token: token.clone(),
                        });
                    }
                } else {
                    record.sitter = sitter;
                    self.players.lock().expect("never poisoned")[seat.index()] = None;
                    // The person's connections leave the seat.
                    let leaving: Vec<u64> = self
                        .connections
                        .iter()
                        .filter(|(_, c)| c.seat == Some(seat))
                        .map(|(&k, _)| k)
                        .collect();
                    for k in leaving {
                        self.listeners.lock().expect("never poisoned").remove(&k);
                        if let Some(c) = self.connections.remove(&k) {
                            self.shared
                                .metrics
                                .connections
                                .fetch_sub(1, Ordering::Relaxed);
                            let _ = c.outbox.send(ServerMessage::closing(
                                CloseKind::SeatGone,
                                format!("the host gave seat {seat} to a bot"),
                            ));
                        }
                    }
                }
                self.save_seats().await;
                self.broadcast_seats();
                self.schedule();
            }
        }
        true
    }

    /// A hint for `seat` of connection `conn`: from the cache, or worked out on a
    /// blocking thread from the seat's observation alone, answered when ready.
    fn ask_hint(&mut self, conn: u64, seat: Option<Seat>) -> Result<(), (ErrorCode, String)> {
        if !self.hints {
            return Err((ErrorCode::NoHint, "this table does not allow hints".into()));
        }
        let Some(seat) = seat else {
            return Err((
                ErrorCode::NotSeated,
                "only a seated player may ask for a hint".into(),
            ));
        };
        if self.status != TableStatus::Playing {
            return Err((
                ErrorCode::Status,
                format!("the table is {}, not playing", self.status),
            ));
        }
        if self.table.turn() != Turn::Seat(seat) {
            return Err((
                ErrorCode::NoHint,
                "a hint is for your own turn: it is not your turn".into(),
            ));
        }
        let version = self.table.version();
        if let Some((s, v, message)) = &self.last_hint {
            if (*s, *v) == (seat, version) {
                self.send(conn, message.clone());
                return Ok(());
            }
        }
        let waiting = self.hints_waiting.entry((seat, version)).or_default();
        let first = waiting.is_empty();
        if !waiting.contains(&conn) {
            waiting.push(conn);
        }
        if !first {
            return Ok(());
        }
        let Some(mailbox) = self.mailbox.clone() else {
            return Err((ErrorCode::Status, "the table is closing".into()));
        };
        // What the seat knows, and nothing else, goes to the thread.
        let game = self.table.game();
        let observation = game.observation(seat);
        let legal = game.legal_action_list().to_vec();
        let rules = game.rules().clone();
        let names: Vec<String> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match (&s.name, s.bot_level()) {
                (Some(name), _) => format!("{name} (seat {i})"),
                (None, Some(_)) => format!("Bot {i}"),
                (None, None) => format!("seat {i}"),
            })
            .collect();
        let slots = Arc::clone(&self.shared.hint_slots);
        tokio::spawn(async move {
            // The semaphore is never closed; a hint's thread that panics is answered
            // all the same, so that nobody waits for it for ever.
            let message = match slots.acquire_owned().await {
                Ok(_slot) => tokio::task::spawn_blocking(move || {
                    hint_message(&rules, &observation, &legal, version, &names)
                })
                .await
                .ok(),
                Err(_) => None,
            };
            let _ = mailbox.send(Command::HintReady {
                seat,
                version,
                message: message.map(Box::new),
            });
        });
        Ok(())
    }

    async fn chat_line(&mut self, conn: u64, seat: Option<Seat>, text: String) {
        let text: String = text.trim().to_string();
        if text.is_empty() {
            return;
        }
        if text.chars().count() > CHAT_MAX_CHARS {
            self.send(
                conn,
                ServerMessage::error(
                    ErrorCode::Chat,
                    format!("a chat line has at most {CHAT_MAX_CHARS} characters"),
                ),
            );
            return;
        }
        let Some(connection) = self.connections.get_mut(&conn) else {
            return;
        };
        if connection
            .last_chat
            .is_some_and(|t| t.elapsed() < CHAT_INTERVAL)
        {
            let _ = connection.outbox.send(ServerMessage::error(
                ErrorCode::Chat,
                "slow down: one chat line every half second",
            ));
            return;
        }
        connection.last_chat = Some(Instant::now());
        let sender = match seat {
            Some(seat) => self.seats[seat.index()]
                .name
                .clone()
                .unwrap_or_else(|| format!("seat {seat}")),
            // A watcher's own name, marked so nobody takes it for a player's.
            None => {
                let role = if connection.host { "host" } else { "watching" };
                match &connection.name {
                    Some(name) => format!("{name} ({role})"),
                    None => role.to_string(),
                }
            }
        };
        self.chat_seq += 1;
        let line = ChatLine {
            seq: self.chat_seq,
            sender,
            body: text,
            at: now_secs(),
        };
        let (deals, actions) = self.place_in_game();
        let place = ChatPlace { deals, actions };
        if let Err(error) = self.shared.store.chat(&self.id, &line, place).await {
            self.chat_seq -= 1;
            self.send(
                conn,
                ServerMessage::error(
                    ErrorCode::NotSaved,
                    format!("the chat line could not be saved: {error}"),
                ),
            );
            return;
        }
        let message = ChatMessage {
            line,
            deals: Some(deals),
            actions: Some(actions),
        };
        self.chat.push(message.clone());
        self.broadcast(&ServerMessage::Chat(message));
    }

    /// Where the game stands, for a chat line said now: the deals so far and the
    /// actions of the latest one (less those taken back), so that a log rebuilt later
    /// puts the line where it was said.
    fn place_in_game(&self) -> (u32, u32) {
        let (mut deals, mut actions) = (0u32, 0u32);
        for entry in self.table.log() {
            match &entry.event {
                Event::Dealt { .. } => {
                    deals += 1;
                    actions = 0;
                }
                Event::Acted { .. } => actions += 1,
                Event::Undone { actions: back, .. } => {
                    actions = actions.saturating_sub(*back as u32);
                }
                _ => {}
            }
        }
        (deals, actions)
    }
}

/// The `hint` message for the seat of `observation`, whose turn it is at `version`:
/// [`calltrump_bots::hint`] at the table's budget ([`table_hint_bot`]). `names` name
/// the seats in the explanation of a call.
pub fn hint_message(
    rules: &GameRules,
    observation: &Observation,
    legal: &[Action],
    version: u64,
    names: &[String],
) -> ServerMessage {
    let decision = Decision {
        rules,
        observation,
        legal,
    };
    let hint = hint(&mut table_hint_bot(), &decision);
    let (actions, deals, unweighed) = match hint.best {
        Ok(best) => (
            best.actions
                .iter()
                .map(|value| HintAction {
                    action: value.action,
                    points: (value.points * 100.0).round() / 100.0,
                })
                .collect(),
            best.deals,
            best.unweighed,
        ),
        Err(_) => (Vec::new(), 0, 0),
    };
    let readings: Vec<CallShows> = hint
        .readings
        .iter()
        .map(|r| CallShows {
            seat: r.seat,
            call: r.call,
            shows: r.reading.to_string(),
        })
        .collect();
    let explanation = hint.readings.last().map(|r| {
        let name = names
            .get(r.seat.index())
            .cloned()
            .unwrap_or_else(|| format!("seat {}", r.seat));
        format!("{name}: {} shows {}.", r.call, r.reading)
    });
    ServerMessage::Hint {
        version,
        actions,
        deals,
        unweighed,
        explanation,
        readings,
    }
}

/// A bot's decision at `seat` of `game`, from that seat's observation only.
fn decide(
    mut player: Box<dyn Player>,
    game: &AnyGame,
    seat: Seat,
    budget: &Budget,
) -> (Option<Action>, Box<dyn Player>) {
    let observation = game.observation(seat);
    let view = game.view(Viewer::Seat(seat));
    let legal = game.legal_action_list();
    let request = Request {
        rules: game.rules(),
        observation: &observation,
        view: &view,
        legal: &legal,
        deal: 0,
    };
    let action = player.decide(&request, budget).ok();
    (action, player)
}
