//! Storage: every table, its log and its chat, behind one trait; SQLite by default.

use std::future::Future;
use std::pin::Pin;

use calltrump_table::Entry;
use serde::{Deserialize, Serialize};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{FromRow, QueryBuilder, Row, Sqlite, SqlitePool};
use tokio::sync::{mpsc, oneshot};

use crate::model::{NightStatus, SeatRecord, TableStatus};

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
    /// A stored value does not read back.
    #[error("stored data of table {table}: {message}")]
    Corrupt {
        /// The table.
        table: String,
        /// What is wrong.
        message: String,
    },
}

/// What is stored of a table beside its log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct StoredTable {
    /// The table's id.
    pub id: String,
    /// Its settings, as JSON.
    pub settings: String,
    /// The deal generator before the first deal, as JSON.
    pub deal_rng: String,
    /// The seats, as JSON.
    pub seats: String,
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
    /// and status: in one transaction, all or nothing.
    fn append<'a>(
        &'a self,
        id: &'a str,
        entries: &'a [Entry],
        table: Option<(&'a [SeatRecord], TableStatus)>,
    ) -> StoreFuture<'a, ()>;
    /// Appends a chat line and where in the game it was said.
    fn chat<'a>(&'a self, id: &'a str, line: &'a ChatLine, place: ChatPlace)
        -> StoreFuture<'a, ()>;
    /// Every table open or playing, oldest first: those resumed at start.
    fn live_tables(&self) -> StoreFuture<'_, Vec<StoredTable>>;
    /// One table by id.
    fn table<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTable>>;
    /// A table's log.
    fn log<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<Entry>>;
    /// A table's chat, in order, each line with where in the game it was said.
    fn chat_history<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredChat>>;
    /// Adds a night, or changes its state and status.
    fn save_night<'a>(&'a self, night: &'a StoredNight) -> StoreFuture<'a, ()>;
    /// One night by id.
    fn night<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredNight>>;
    /// Every night still playing: those resumed at start.
    fn live_nights(&self) -> StoreFuture<'_, Vec<StoredNight>>;
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

/// SQLite in WAL mode, with the migrations embedded in the binary.
///
/// Log appends, the one write of every action, go through a single writer task that
/// commits whatever has queued up meanwhile in one transaction (group commit): SQLite
/// has one writer at a time, and a transaction per action from many tables would queue
/// on its lock and on the connections' threads. Each append still returns only once its
/// own rows are committed.
pub struct SqliteStore {
    pool: SqlitePool,
    appends: mpsc::UnboundedSender<Append>,
}

/// One table's step waiting for the writer, and who waits for it.
struct Append {
    table: String,
    /// (version, the entry as JSON)
    rows: Vec<(i64, String)>,
    /// The seats (as JSON) and status after the step, if it changed them.
    update: Option<(String, TableStatus)>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// Most rows in one INSERT statement: 3 parameters a row, well under SQLite's limit.
const ROWS_PER_STATEMENT: usize = 1_000;

/// The writer: waits for an append, takes every other one already queued, and commits
/// them together. If the batch fails, each append is tried alone so that only the one
/// at fault gets the error.
async fn write_appends(pool: SqlitePool, mut queue: mpsc::UnboundedReceiver<Append>) {
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while let Ok(next) = queue.try_recv() {
            batch.push(next);
        }
        if insert_rows(&pool, &batch).await.is_ok() {
            for append in batch {
                let _ = append.done.send(Ok(()));
            }
            continue;
        }
        for append in batch {
            let result = insert_rows(&pool, std::slice::from_ref(&append)).await;
            let _ = append.done.send(result);
        }
    }
}

/// Writes the steps of `appends` in one transaction: each table's seats and status
/// first, then every log row.
async fn insert_rows(pool: &SqlitePool, appends: &[Append]) -> Result<(), StoreError> {
    let rows: Vec<(&str, i64, &str)> = appends
        .iter()
        .flat_map(|a| {
            a.rows
                .iter()
                .map(|(version, entry)| (a.table.as_str(), *version, entry.as_str()))
        })
        .collect();
    let mut tx = pool.begin().await?;
    for append in appends {
        if let Some((seats, status)) = &append.update {
            sqlx::query("UPDATE tables SET seats = ?, status = ? WHERE id = ?")
                .bind(seats)
                .bind(*status)
                .bind(&append.table)
                .execute(&mut *tx)
                .await?;
        }
    }
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let mut insert: QueryBuilder<Sqlite> =
            QueryBuilder::new("INSERT INTO events (table_id, version, entry) ");
        insert.push_values(chunk, |mut row, (table, version, entry)| {
            row.push_bind(*table).push_bind(*version).push_bind(*entry);
        });
        insert.build().execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Seats as stored: JSON text.
pub fn seats_json(seats: &[SeatRecord]) -> String {
    serde_json::to_string(seats).expect("seats serialize")
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `url` (`sqlite://PATH`) and migrates it.
    pub async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        let options: SqliteConnectOptions = url
            .parse::<SqliteConnectOptions>()?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        let (appends, queue) = mpsc::unbounded_channel();
        tokio::spawn(write_appends(pool.clone(), queue));
        Ok(SqliteStore { pool, appends })
    }
}

impl SqliteStore {
    /// Every row of `sql` (with `id` bound, if given), read as `T`.
    async fn rows<T>(&self, sql: &'static str, id: Option<&str>) -> Result<Vec<T>, StoreError>
    where
        T: for<'r> sqlx::FromRow<'r, SqliteRow> + Send + Unpin,
    {
        let query = sqlx::query_as(sql);
        let query = match id {
            Some(id) => query.bind(id),
            None => query,
        };
        Ok(query.fetch_all(&self.pool).await?)
    }

    /// The row of `sql` for `id`, read as `T`, if there is one.
    async fn row_by_id<T>(&self, sql: &'static str, id: &str) -> Result<Option<T>, StoreError>
    where
        T: for<'r> sqlx::FromRow<'r, SqliteRow> + Send + Unpin,
    {
        Ok(sqlx::query_as(sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?)
    }
}

impl Store for SqliteStore {
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO tables (id, settings, deal_rng, seats, host_token, status, created_at) \
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(&table.id)
            .bind(&table.settings)
            .bind(&table.deal_rng)
            .bind(&table.seats)
            .bind(&table.host_token)
            .bind(table.status)
            .bind(table.created_at)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn update_table<'a>(
        &'a self,
        id: &'a str,
        seats: &'a [SeatRecord],
        status: TableStatus,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE tables SET seats = ?, status = ? WHERE id = ?")
                .bind(seats_json(seats))
                .bind(status)
                .bind(id)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        entries: &'a [Entry],
        table: Option<(&'a [SeatRecord], TableStatus)>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let rows = entries
                .iter()
                .map(|entry| {
                    let text = serde_json::to_string(entry).map_err(|e| StoreError::Corrupt {
                        table: id.to_string(),
                        message: e.to_string(),
                    })?;
                    Ok((entry.version as i64, text))
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            let (done, committed) = oneshot::channel();
            self.appends
                .send(Append {
                    table: id.to_string(),
                    rows,
                    update: table.map(|(seats, status)| (seats_json(seats), status)),
                    done,
                })
                .map_err(|_| StoreError::WriterGone)?;
            committed.await.map_err(|_| StoreError::WriterGone)?
        })
    }

    fn chat<'a>(
        &'a self,
        id: &'a str,
        line: &'a ChatLine,
        place: ChatPlace,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO chat (table_id, seq, sender, body, at, deals, actions) \
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(id)
            .bind(line.seq)
            .bind(&line.sender)
            .bind(&line.body)
            .bind(line.at)
            .bind(i64::from(place.deals))
            .bind(i64::from(place.actions))
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn live_tables(&self) -> StoreFuture<'_, Vec<StoredTable>> {
        Box::pin(self.rows(
            "SELECT * FROM tables WHERE status IN ('open', 'playing') ORDER BY created_at, id",
            None,
        ))
    }

    fn table<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTable>> {
        Box::pin(self.row_by_id("SELECT * FROM tables WHERE id = ?", id))
    }

    fn log<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<Entry>> {
        Box::pin(async move {
            let rows = sqlx::query("SELECT entry FROM events WHERE table_id = ? ORDER BY version")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
            rows.iter()
                .map(|row| {
                    let text: String = row.try_get("entry")?;
                    serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                        table: id.to_string(),
                        message: e.to_string(),
                    })
                })
                .collect()
        })
    }

    fn save_night<'a>(&'a self, night: &'a StoredNight) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO nights (id, state, status, created_at) VALUES (?, ?, ?, ?) \
                 ON CONFLICT (id) DO UPDATE SET state = excluded.state, status = excluded.status",
            )
            .bind(&night.id)
            .bind(&night.state)
            .bind(night.status)
            .bind(night.created_at)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn night<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredNight>> {
        Box::pin(self.row_by_id("SELECT * FROM nights WHERE id = ?", id))
    }

    fn live_nights(&self) -> StoreFuture<'_, Vec<StoredNight>> {
        Box::pin(self.rows(
            "SELECT * FROM nights WHERE status = 'playing' ORDER BY created_at, id",
            None,
        ))
    }

    fn chat_history<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredChat>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT seq, sender, body, at, deals, actions FROM chat \
                 WHERE table_id = ? ORDER BY seq",
            )
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
            let count = |row: &SqliteRow, column: &str| -> Result<Option<u32>, StoreError> {
                let value: Option<i64> = row.try_get(column)?;
                value
                    .map(|n| {
                        u32::try_from(n).map_err(|_| StoreError::Corrupt {
                            table: id.to_string(),
                            message: format!("chat {column} {n}"),
                        })
                    })
                    .transpose()
            };
            rows.iter()
                .map(|row| {
                    let place = match (count(row, "deals")?, count(row, "actions")?) {
                        (Some(deals), Some(actions)) => Some(ChatPlace { deals, actions }),
                        _ => None,
                    };
                    Ok(StoredChat {
                        line: ChatLine::from_row(row)?,
                        place,
                    })
                })
                .collect()
        })
    }
}
