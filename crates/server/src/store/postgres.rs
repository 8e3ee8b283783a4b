//! The [`Store`] on PostgreSQL: the same tables as SQLite's, a transaction per call.
//!
//! PostgreSQL takes many writers at once, so each step is its own transaction on a
//! pooled connection (no group-commit writer as for SQLite); each call returns once
//! its transaction is committed. Several nodes may share the database: every write of a
//! table's rows is fenced by this node's lease on the table ([`super::cluster`]).

use calltrump_table::Entry;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};
use sqlx::{Postgres, QueryBuilder, Row, Transaction};

use super::cluster::{Kind, Leases};
use super::codec::{self, TableText};
use super::{
    check_versions, Accounts, ChatLine, ChatPlace, Cluster, DatabaseOptions, NodeOptions, Store,
    StoreError, StoreFuture, StoredChat, StoredNight, StoredTable, ROWS_PER_STATEMENT,
};
use crate::model::{SeatRecord, TableStatus};

/// PostgreSQL, with its migrations embedded in the binary, as one node of a cluster sees
/// it.
pub struct PostgresStore {
    pub(super) pool: PgPool,
    pub(super) leases: Leases,
}

impl PostgresStore {
    /// [`PostgresStore::open_node`] as a node of a fresh random name.
    pub async fn open(url: &str, options: DatabaseOptions) -> Result<PostgresStore, StoreError> {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes).expect("the OS's random source works");
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let name = format!("node-{hex}");
        PostgresStore::open_node(url, options, NodeOptions::named(name)).await
    }

    /// Connects to the database at `url` (`postgres://USER@HOST:PORT/DB`) with the pool
    /// of `options`, as the node `node`, and migrates it (nodes starting at once migrate
    /// in turn: sqlx holds a lock meanwhile). The database must exist; calltrump makes
    /// its tables in it.
    pub async fn open_node(
        url: &str,
        options: DatabaseOptions,
        node: NodeOptions,
    ) -> Result<PostgresStore, StoreError> {
        // A transaction left open by a node that was paused (SIGSTOP) would hold its
        // table's lease row locked, and a takeover waiting on it: PostgreSQL ends such a
        // session once a lease has passed.
        let idle = node.lease.as_millis().max(1).to_string();
        let connect: PgConnectOptions = url
            .parse::<PgConnectOptions>()?
            .options([("idle_in_transaction_session_timeout", idle.as_str())]);
        let pool = PgPoolOptions::new()
            .max_connections(options.max_connections.unwrap_or(10))
            .acquire_timeout(options.connect_timeout())
            .connect_with(connect)
            .await?;
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        Ok(PostgresStore {
            pool,
            leases: Leases::new(node),
        })
    }
}

/// A stored value of table `id` that does not read back.
fn corrupt(id: &str, message: impl Into<String>) -> StoreError {
    StoreError::Corrupt {
        table: id.to_string(),
        message: message.into(),
    }
}

pub(super) fn table_of(row: &PgRow) -> Result<StoredTable, StoreError> {
    let id: String = row.try_get("id")?;
    let status: String = row.try_get("status")?;
    let status = status.parse().map_err(|e: String| corrupt(&id, e))?;
    let text = TableText {
        settings: row.try_get("settings")?,
        deal_rng: row.try_get("deal_rng")?,
        seats: row.try_get("seats")?,
    };
    codec::decode(
        id,
        text,
        row.try_get("host_token")?,
        status,
        row.try_get("created_at")?,
    )
}

fn night_of(row: &PgRow) -> Result<StoredNight, StoreError> {
    let id: String = row.try_get("id")?;
    let status: String = row.try_get("status")?;
    Ok(StoredNight {
        status: status.parse().map_err(|e: String| corrupt(&id, e))?,
        state: row.try_get("state")?,
        created_at: row.try_get("created_at")?,
        id,
    })
}

impl PostgresStore {
    /// Every row of `sql` (with `id` bound as `$1`, if given), read by `read`.
    pub(super) async fn rows<T>(
        &self,
        sql: &'static str,
        id: Option<&str>,
        read: fn(&PgRow) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let query = sqlx::query(sql);
        let query = match id {
            Some(id) => query.bind(id),
            None => query,
        };
        query
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(read)
            .collect()
    }
}

impl PostgresStore {
    /// Every row of `sql`, each read on its own: a row that does not read back is its
    /// [`StoreError::Corrupt`], and the others are read all the same.
    pub(super) async fn tables_each(
        &self,
        sql: &'static str,
    ) -> Result<Vec<Result<StoredTable, StoreError>>, StoreError> {
        let rows = sqlx::query(sql).fetch_all(&self.pool).await?;
        Ok(rows
            .iter()
            .map(|row| {
                table_of(row).map_err(|e| match e {
                    corrupt @ StoreError::Corrupt { .. } => corrupt,
                    other => {
                        let id = row.try_get("id").unwrap_or_else(|_| "?".to_string());
                        corrupt(&id, other.to_string())
                    }
                })
            })
            .collect())
    }
}

impl PostgresStore {
    /// Inserts `table`'s row and this node's lease on it (epoch 1) in `tx`; the caller
    /// holds the lease once `tx` commits.
    async fn insert_table(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        table: &StoredTable,
    ) -> Result<(), StoreError> {
        let text = codec::encode(table);
        sqlx::query(
            "INSERT INTO tables (id, settings, deal_rng, seats, host_token, status, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&table.id)
        .bind(&text.settings)
        .bind(&text.deal_rng)
        .bind(&text.seats)
        .bind(&table.host_token)
        .bind(table.status.as_str())
        .bind(table.created_at)
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT INTO leases (table_id, owner, epoch, expires_at) \
             VALUES ($1, $2, 1, clock_timestamp() + make_interval(secs => $3))",
        )
        .bind(&table.id)
        .bind(self.node())
        .bind(self.leases.seconds())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Saves `night` in `tx`: a night this node holds, fenced by its lease; else a new
    /// night with this node's lease on it (epoch 1), whether it is new (the caller then
    /// holds its lease once `tx` commits). A night of another node's, or one this node
    /// lost, is not this node's to change: [`StoreError::LeaseLost`].
    async fn write_night(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        night: &StoredNight,
    ) -> Result<bool, StoreError> {
        if self.leases.epoch_of(Kind::Night, &night.id).is_some() {
            self.leases.fence_as(tx, Kind::Night, &night.id).await?;
            sqlx::query("UPDATE nights SET state = $2, status = $3 WHERE id = $1")
                .bind(&night.id)
                .bind(&night.state)
                .bind(night.status.as_str())
                .execute(&mut **tx)
                .await?;
            return Ok(false);
        }
        let made = sqlx::query(
            "INSERT INTO nights (id, state, status, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(&night.id)
        .bind(&night.state)
        .bind(night.status.as_str())
        .bind(night.created_at)
        .execute(&mut **tx)
        .await?;
        if made.rows_affected() == 0 {
            return Err(Kind::Night.lost(&night.id));
        }
        sqlx::query(
            "INSERT INTO night_leases (night_id, owner, epoch, expires_at) \
             VALUES ($1, $2, 1, clock_timestamp() + make_interval(secs => $3))",
        )
        .bind(&night.id)
        .bind(self.node())
        .bind(self.leases.seconds())
        .execute(&mut **tx)
        .await?;
        Ok(true)
    }
}

impl Store for PostgresStore {
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            // The table and this node's lease on it, together.
            let mut tx = self.pool.begin().await?;
            self.insert_table(&mut tx, table).await?;
            tx.commit().await?;
            self.leases.hold(&table.id, 1);
            Ok(())
        })
    }

    fn create_set_table<'a>(
        &'a self,
        table: &'a StoredTable,
        night: &'a StoredNight,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            let new_night = self.write_night(&mut tx, night).await?;
            self.insert_table(&mut tx, table).await?;
            tx.commit().await?;
            self.leases.hold(&table.id, 1);
            if new_night {
                self.leases.hold_as(Kind::Night, &night.id, 1);
            }
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
            let mut tx = self.pool.begin().await?;
            self.leases.fence(&mut tx, id).await?;
            sqlx::query("UPDATE tables SET seats = $1, status = $2 WHERE id = $3")
                .bind(codec::seats_json(seats))
                .bind(status.as_str())
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
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
                    let text =
                        serde_json::to_string(entry).map_err(|e| corrupt(id, e.to_string()))?;
                    Ok((entry.version as i64, text))
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            // An unknown table is refused by the events' foreign key; a version taken
            // twice by their primary key, a gap by the check.
            let mut tx = self.pool.begin().await?;
            self.leases.fence(&mut tx, id).await?;
            let last: i64 = sqlx::query_scalar(
                "SELECT COALESCE(MAX(version), 0) FROM events WHERE table_id = $1",
            )
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            check_versions(id, last, rows.iter().map(|(version, _)| *version))?;
            if let Some((seats, status)) = table {
                sqlx::query("UPDATE tables SET seats = $1, status = $2 WHERE id = $3")
                    .bind(codec::seats_json(seats))
                    .bind(status.as_str())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            for chunk in rows.chunks(ROWS_PER_STATEMENT) {
                let mut insert: QueryBuilder<Postgres> =
                    QueryBuilder::new("INSERT INTO events (table_id, version, entry) ");
                insert.push_values(chunk, |mut row, (version, entry)| {
                    row.push_bind(id).push_bind(*version).push_bind(entry);
                });
                insert.build().execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn chat<'a>(
        &'a self,
        id: &'a str,
        line: &'a ChatLine,
        place: ChatPlace,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            self.leases.fence(&mut tx, id).await?;
            sqlx::query(
                "INSERT INTO chat (table_id, seq, sender, body, at, deals, actions) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(id)
            .bind(line.seq)
            .bind(&line.sender)
            .bind(&line.body)
            .bind(line.at)
            .bind(i64::from(place.deals))
            .bind(i64::from(place.actions))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn live_tables(&self) -> StoreFuture<'_, Vec<Result<StoredTable, StoreError>>> {
        Box::pin(self.tables_each(
            "SELECT * FROM tables WHERE status IN ('open', 'playing') ORDER BY created_at, id",
        ))
    }

    fn table<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTable>> {
        Box::pin(async move {
            let mut rows = self
                .rows("SELECT * FROM tables WHERE id = $1", Some(id), table_of)
                .await?;
            Ok(rows.pop())
        })
    }

    fn log<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<Entry>> {
        Box::pin(async move {
            let texts: Vec<String> =
                sqlx::query_scalar("SELECT entry FROM events WHERE table_id = $1 ORDER BY version")
                    .bind(id)
                    .fetch_all(&self.pool)
                    .await?;
            texts
                .iter()
                .map(|text| serde_json::from_str(text).map_err(|e| corrupt(id, e.to_string())))
                .collect()
        })
    }

    fn chat_history<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredChat>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT seq, sender, body, at, deals, actions FROM chat \
                 WHERE table_id = $1 ORDER BY seq",
            )
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
            let count = |row: &PgRow, column: &str| -> Result<Option<u32>, StoreError> {
                let value: Option<i64> = row.try_get(column)?;
                value
                    .map(|n| {
                        u32::try_from(n).map_err(|_| corrupt(id, format!("chat {column} {n}")))
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
                        line: ChatLine {
                            seq: row.try_get("seq")?,
                            sender: row.try_get("sender")?,
                            body: row.try_get("body")?,
                            at: row.try_get("at")?,
                        },
                        place,
                    })
                })
                .collect()
        })
    }

    fn save_night<'a>(&'a self, night: &'a StoredNight) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            let new_night = self.write_night(&mut tx, night).await?;
            tx.commit().await?;
            if new_night {
                self.leases.hold_as(Kind::Night, &night.id, 1);
            }
            Ok(())
        })
    }

    fn night<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredNight>> {
        Box::pin(async move {
            let mut rows = self
                .rows("SELECT * FROM nights WHERE id = $1", Some(id), night_of)
                .await?;
            Ok(rows.pop())
        })
    }

    fn live_nights(&self) -> StoreFuture<'_, Vec<StoredNight>> {
        Box::pin(self.rows(
            "SELECT * FROM nights WHERE status = 'playing' ORDER BY created_at, id",
            None,
            night_of,
        ))
    }

    fn accounts(&self) -> &dyn Accounts {
        self
    }

    fn ratings(&self) -> &dyn super::Ratings {
        self
    }

    fn cluster(&self) -> Option<&dyn Cluster> {
        Some(self)
    }
}
