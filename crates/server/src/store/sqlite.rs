//! The [`Store`] on SQLite: WAL mode, a group-commit writer for the log.

use std::collections::HashMap;

use calltrump_table::Entry;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{FromRow, QueryBuilder, Row, Sqlite, SqlitePool};
use tokio::sync::{mpsc, oneshot};

use super::{
    check_versions, codec, Accounts, ChatLine, ChatPlace, DatabaseOptions, SqliteSync, Store,
    StoreError, StoreFuture, StoredChat, StoredNight, StoredTable, ROWS_PER_STATEMENT,
};
use crate::model::{SeatRecord, TableStatus};

/// A table's row in SQLite.
#[derive(sqlx::FromRow)]
pub(super) struct TableRow {
    id: String,
    settings: String,
    deal_rng: String,
    seats: String,
    host_token: String,
    status: TableStatus,
    created_at: i64,
}

impl TableRow {
    pub(super) fn typed(self) -> Result<StoredTable, StoreError> {
        let text = codec::TableText {
            settings: self.settings,
            deal_rng: self.deal_rng,
            seats: self.seats,
        };
        codec::decode(self.id, text, self.host_token, self.status, self.created_at)
    }
}

/// SQLite in WAL mode, with the migrations embedded in the binary.
///
/// Log appends, the one write of every action, and chat lines go through a single writer
/// task that commits whatever has queued up meanwhile in one transaction (group commit):
/// SQLite has one writer at a time, and a transaction per action or line from many
/// tables would queue on its lock (a chat flood made other tables' steps fail with
/// "database is locked") and on the connections' threads. Each write still returns only
/// once its own rows are committed.
pub struct SqliteStore {
    pub(super) pool: SqlitePool,
    appends: mpsc::UnboundedSender<Append>,
}

/// One table's step or chat line waiting for the writer, and who waits for it.
struct Append {
    table: String,
    write: Write,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// What one [`Append`] writes.
enum Write {
    Step {
        /// (version, the entry as JSON)
        rows: Vec<(i64, String)>,
        /// The seats (as JSON) and status after the step, if it changed them.
        update: Option<(String, TableStatus)>,
    },
    Chat(ChatLine, ChatPlace),
}

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

/// One step of a batch: its table, its log rows, and its seats and status if changed.
type StepRows<'a> = (
    &'a str,
    &'a [(i64, String)],
    &'a Option<(String, TableStatus)>,
);

/// Writes the steps and chat lines of `appends` in one transaction: each table's
/// versions checked against its log, its seats and status, then every log row, then
/// every chat line.
async fn insert_rows(pool: &SqlitePool, appends: &[Append]) -> Result<(), StoreError> {
    let steps: Vec<StepRows> = appends
        .iter()
        .filter_map(|a| match &a.write {
            Write::Step { rows, update } => Some((a.table.as_str(), rows.as_slice(), update)),
            Write::Chat(..) => None,
        })
        .collect();
    let rows: Vec<(&str, i64, &str)> = steps
        .iter()
        .flat_map(|(table, rows, _)| {
            rows.iter()
                .map(|(version, entry)| (*table, *version, entry.as_str()))
        })
        .collect();
    let mut tx = pool.begin().await?;
    // Every table's last version in one query per chunk of tables, not one per table:
    // a batch holds a step of each of many tables.
    let mut tables: Vec<&str> = steps.iter().map(|(table, ..)| *table).collect();
    tables.sort_unstable();
    tables.dedup();
    let mut last_versions: HashMap<String, i64> = HashMap::with_capacity(tables.len());
    for chunk in tables.chunks(ROWS_PER_STATEMENT) {
        let mut query: QueryBuilder<Sqlite> =
            QueryBuilder::new("SELECT table_id, MAX(version) FROM events WHERE table_id IN (");
        let mut ids = query.separated(", ");
        for table in chunk {
            ids.push_bind(*table);
        }
        query.push(") GROUP BY table_id");
        let found: Vec<(String, i64)> = query.build_query_as().fetch_all(&mut *tx).await?;
        last_versions.extend(found);
    }
    for (table, rows, update) in &steps {
        // A table with no row yet has an empty log; two steps of one table in a batch
        // follow each other.
        let last = last_versions.entry(table.to_string()).or_insert(0);
        check_versions(table, *last, rows.iter().map(|(v, _)| *v))?;
        if let Some((version, _)) = rows.last() {
            *last = *version;
        }
        if let Some((seats, status)) = update {
            sqlx::query("UPDATE tables SET seats = ?, status = ? WHERE id = ?")
                .bind(seats)
                .bind(*status)
                .bind(table)
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
    for append in appends {
        if let Write::Chat(line, place) = &append.write {
            sqlx::query(
                "INSERT INTO chat (table_id, seq, sender, body, at, deals, actions) \
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(&append.table)
            .bind(line.seq)
            .bind(&line.sender)
            .bind(&line.body)
            .bind(line.at)
            .bind(i64::from(place.deals))
            .bind(i64::from(place.actions))
            .execute(&mut *tx)
            .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

impl SqliteStore {
    /// Hands `write` of table `id` to the writer; returns once it is committed.
    async fn write(&self, id: &str, write: Write) -> Result<(), StoreError> {
        let (done, committed) = oneshot::channel();
        self.appends
            .send(Append {
                table: id.to_string(),
                write,
                done,
            })
            .map_err(|_| StoreError::WriterGone)?;
        committed.await.map_err(|_| StoreError::WriterGone)?
    }
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `url` (`sqlite://PATH`) and migrates
    /// it, with the pool's defaults.
    pub async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(url, DatabaseOptions::default()).await
    }

    /// As [`SqliteStore::open`], with the pool of `options`.
    pub async fn open_with(url: &str, options: DatabaseOptions) -> Result<SqliteStore, StoreError> {
        let pool_options = SqlitePoolOptions::new()
            .max_connections(options.max_connections.unwrap_or(4))
            .acquire_timeout(options.connect_timeout());
        let connect: SqliteConnectOptions = url
            .parse::<SqliteConnectOptions>()?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match options.sqlite_sync {
                SqliteSync::Full => SqliteSynchronous::Full,
                SqliteSync::Normal => SqliteSynchronous::Normal,
            })
            .foreign_keys(true);
        let pool = pool_options.connect_with(connect).await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
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

/// Inserts `table`'s row through `db` (the pool, or a transaction).
async fn insert_table<'e>(
    db: impl sqlx::Executor<'e, Database = Sqlite>,
    table: &StoredTable,
) -> Result<(), StoreError> {
    let text = codec::encode(table);
    sqlx::query(
        "INSERT INTO tables (id, settings, deal_rng, seats, host_token, status, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&table.id)
    .bind(&text.settings)
    .bind(&text.deal_rng)
    .bind(&text.seats)
    .bind(&table.host_token)
    .bind(table.status)
    .bind(table.created_at)
    .execute(db)
    .await?;
    Ok(())
}

/// Adds `night`, or changes its state and status, through `db`.
async fn upsert_night<'e>(
    db: impl sqlx::Executor<'e, Database = Sqlite>,
    night: &StoredNight,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO nights (id, state, status, created_at) VALUES (?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET state = excluded.state, status = excluded.status",
    )
    .bind(&night.id)
    .bind(&night.state)
    .bind(night.status)
    .bind(night.created_at)
    .execute(db)
    .await?;
    Ok(())
}

impl Store for SqliteStore {
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
        Box::pin(async move { insert_table(&self.pool, table).await })
    }

    fn update_table<'a>(
        &'a self,
        id: &'a str,
        seats: &'a [SeatRecord],
        status: TableStatus,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE tables SET seats = ?, status = ? WHERE id = ?")
                .bind(codec::seats_json(seats))
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
            let update = table.map(|(seats, status)| (codec::seats_json(seats), status));
            self.write(id, Write::Step { rows, update }).await
        })
    }

    fn chat<'a>(
        &'a self,
        id: &'a str,
        line: &'a ChatLine,
        place: ChatPlace,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.write(id, Write::Chat(line.clone(), place)))
    }

    fn live_tables(&self) -> StoreFuture<'_, Vec<Result<StoredTable, StoreError>>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT * FROM tables WHERE status IN ('open', 'playing') ORDER BY created_at, id",
            )
            .fetch_all(&self.pool)
            .await?;
            Ok(rows
                .iter()
                .map(|row| {
                    // A column of the wrong type (SQLite keeps whatever it is given) is
                    // as damaged as JSON that does not read back.
                    TableRow::from_row(row)
                        .map_err(|e| StoreError::Corrupt {
                            table: row.try_get("id").unwrap_or_else(|_| "?".to_string()),
                            message: e.to_string(),
                        })
                        .and_then(TableRow::typed)
                })
                .collect())
        })
    }

    fn table<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTable>> {
        Box::pin(async move {
            let row: Option<TableRow> = self
                .row_by_id("SELECT * FROM tables WHERE id = ?", id)
                .await?;
            row.map(TableRow::typed).transpose()
        })
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
        Box::pin(async move { upsert_night(&self.pool, night).await })
    }

    fn create_set_table<'a>(
        &'a self,
        table: &'a StoredTable,
        night: &'a StoredNight,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            insert_table(&mut *tx, table).await?;
            upsert_night(&mut *tx, night).await?;
            tx.commit().await?;
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

    fn accounts(&self) -> &dyn Accounts {
        self
    }

    fn ratings(&self) -> &dyn super::Ratings {
        self
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
