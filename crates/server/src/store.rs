//! Storage: every table, its log and its chat, and people's accounts, behind one trait: SQLite by default
//! ([`SqliteStore`]), or PostgreSQL ([`PostgresStore`]).

mod accounts;
mod attempts;
mod cluster;
mod codec;
mod copy;
mod postgres;
mod ratings;
mod sqlite;

pub use accounts::{Accounts, StoredAccount};
pub use cluster::{Cluster, NodeOptions, Owner};
pub use copy::{check_copy, copy_into, Copied, CopyError};
pub use postgres::PostgresStore;
pub use ratings::{Leader, RatingPoint, Ratings, StoredRating};
pub use sqlite::SqliteStore;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use calltrump_engine::GameRng;
use calltrump_table::{Entry, Settings};
use serde::{Deserialize, Serialize};

use crate::model::{NightStatus, SeatRecord, TableStatus, TurnClock};

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The migrations failed.
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The store's writer has stopped (the server is shutting down).
    #[error("the database writer has stopped")]
    WriterGone,
    /// A step's versions do not follow the table's log (one taken already, or a gap):
    /// nothing of the step is kept.
    #[error("table {table}: version {got} does not follow the log, which expects {expected}")]
    OutOfOrder {
        /// The table.
        table: String,
        /// The version that would follow the log (and the step's earlier entries).
        expected: i64,
        /// The version given.
        got: i64,
    },
    /// This node no longer holds table `table`'s lease (it expired, or another node
    /// took the table over): nothing of the write is kept, and the node lets the table go.
    #[error("table {table}: this node no longer holds the table's lease (another node runs it)")]
    LeaseLost {
        /// The table.
        table: String,
    },
    /// A stored value does not read back.
    #[error("stored data of table {table}: {message}")]
    Corrupt {
        /// The table.
        table: String,
        /// What is wrong.
        message: String,
    },
}

/// What is stored of a table beside its log, typed (each backend keeps it in its own
/// columns).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTable {
    /// The table's id.
    pub id: String,
    /// Its settings.
    pub settings: Settings,
    /// Whether a seat may ask for a hint (the server's option, beside the settings).
    pub hints: bool,
    /// Whether its bots play with nobody watching (the host's choice, within
    /// `--max-unattended-tables`); otherwise a table of bots alone plays only while
    /// someone is connected.
    pub unattended: bool,
    /// The turn clock the host chose, if any.
    pub turn_clock: Option<TurnClock>,
    /// Whether its game is rated (the host's choice; every person at it signed in).
    pub rated: bool,
    /// The night whose set this table is, if it is one.
    pub night: Option<String>,
    /// The deal generator before the first deal.
    pub deal_rng: GameRng,
    /// The seats.
    pub seats: Vec<SeatRecord>,
    /// The host's token.
    pub host_token: String,
    /// Where the table stands.
    pub status: TableStatus,
    /// Seconds since 1970 at creation.
    pub created_at: i64,
}

/// A chat line as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct ChatLine {
    /// Its number at the table, from 1.
    pub seq: i64,
    /// Who wrote it (a player's name, or `seat N`).
    pub sender: String,
    /// What was written, as plain text.
    pub body: String,
    /// Seconds since 1970.
    pub at: i64,
}

/// Where in the game a chat line was said: after `deals` deals and `actions` actions of
/// the latest one (as a `snapshot`'s `actions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatPlace {
    /// Deals so far (0: before the first).
    pub deals: u32,
    /// Actions of the latest deal, less those taken back.
    pub actions: u32,
}

/// A chat line as stored, with where in the game it was said (none for a line stored
/// before migration 0003 kept it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChat {
    /// The line.
    pub line: ChatLine,
    /// Where it was said.
    pub place: Option<ChatPlace>,
}

/// When a SQLite commit is on the disk (PostgreSQL follows its own
/// `synchronous_commit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SqliteSync {
    /// Each commit is on the disk before it returns (`synchronous=FULL`): what players
    /// were told survives a power loss.
    #[default]
    Full,
    /// Commits are on the disk by the next checkpoint (`synchronous=NORMAL` with the
    /// write-ahead log): a crash of the server loses nothing, a power loss may lose the
    /// last commits, told or not.
    Normal,
}

/// How to open a database: its connection pool, and SQLite's durability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DatabaseOptions {
    /// When a SQLite commit is on the disk; FULL by default.
    pub sqlite_sync: SqliteSync,
    /// Connections in the pool; `None`: the backend's default (4 for SQLite, 10 for
    /// PostgreSQL).
    pub max_connections: Option<u32>,
    /// How long to wait for a connection (to connect, or for one of the pool's to be
    /// free) before the store counts as failing; `None`: 10 seconds.
    pub connect_timeout: Option<Duration>,
}

impl DatabaseOptions {
    /// How long to wait for a connection: the one given, or 10 seconds.
    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout.unwrap_or(Duration::from_secs(10))
    }
}

/// Checks that a step's `versions` follow a log whose last version is `last` (0: an
/// empty log): each one more than the one before.
fn check_versions(
    table: &str,
    last: i64,
    versions: impl IntoIterator<Item = i64>,
) -> Result<(), StoreError> {
    for (expected, got) in (last + 1..).zip(versions) {
        if got != expected {
            return Err(StoreError::OutOfOrder {
                table: table.to_string(),
                expected,
                got,
            });
        }
    }
    Ok(())
}

/// A boxed future, so that the trait can be used as `dyn Store`.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Where tables are kept. Each call returns once its write is durable.
pub trait Store: Send + Sync {
    /// Adds a new table.
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()>;
    /// Changes a table's seats and status.
    fn update_table<'a>(
        &'a self,
        id: &'a str,
        seats: &'a [SeatRecord],
        status: TableStatus,
    ) -> StoreFuture<'a, ()>;
    /// Appends a step's log entries and, if the step changed them, the table's seats
    /// and status: in one transaction, all or nothing. The entries' versions must
    /// follow the log's last one by one ([`StoreError::OutOfOrder`] otherwise).
    fn append<'a>(
        &'a self,
        id: &'a str,
        entries: &'a [Entry],
        table: Option<(&'a [SeatRecord], TableStatus)>,
    ) -> StoreFuture<'a, ()>;
    /// Appends a chat line and where in the game it was said.
    fn chat<'a>(&'a self, id: &'a str, line: &'a ChatLine, place: ChatPlace)
        -> StoreFuture<'a, ()>;
    /// Every table open or playing, oldest first: those resumed at start. A row that
    /// does not read back is its [`StoreError::Corrupt`], so that one damaged table
    /// does not keep the others from resuming.
    fn live_tables(&self) -> StoreFuture<'_, Vec<Result<StoredTable, StoreError>>>;
    /// One table by id.
    fn table<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTable>>;
    /// A table's log.
    fn log<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<Entry>>;
    /// A table's chat, in order, each line with where in the game it was said.
    fn chat_history<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredChat>>;
    /// Adds a night, or changes its state and status (on a cluster, fenced by this
    /// node's lease on the night; a new night takes it).
    fn save_night<'a>(&'a self, night: &'a StoredNight) -> StoreFuture<'a, ()>;
    /// Adds the table of a night's next set and saves the night (which names it) in one
    /// transaction, both or neither: a night whose node lost its lease meanwhile
    /// leaves no table outside it.
    fn create_set_table<'a>(
        &'a self,
        table: &'a StoredTable,
        night: &'a StoredNight,
    ) -> StoreFuture<'a, ()>;
    /// One night by id.
    fn night<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredNight>>;
    /// Every night still playing: those resumed at start.
    fn live_nights(&self) -> StoreFuture<'_, Vec<StoredNight>>;
    /// The accounts and their sessions, in the same database.
    fn accounts(&self) -> &dyn Accounts;
    /// The ratings, in the same database.
    fn ratings(&self) -> &dyn Ratings;
    /// The leases of a store several nodes share (PostgreSQL): every write of a table's
    /// rows is fenced by this node's lease on it. None: one server per store (SQLite),
    /// which runs every table.
    fn cluster(&self) -> Option<&dyn Cluster> {
        None
    }
}

/// A night as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct StoredNight {
    /// The night's id.
    pub id: String,
    /// The night's players, sets and results, as JSON.
    pub state: String,
    /// Where the night stands.
    pub status: NightStatus,
    /// Seconds since 1970 at creation.
    pub created_at: i64,
}

/// Most rows in one INSERT statement: 3 parameters a row, well under SQLite's limit.
pub(crate) const ROWS_PER_STATEMENT: usize = 1_000;
