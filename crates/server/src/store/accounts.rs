//! The accounts part of the store ([`Accounts`]): people's accounts and their sessions,
//! on SQLite and PostgreSQL alike (the same columns, migrations `0004` and `0002`, and
//! the names' skeletons `0006` on both).

use super::attempts::take_attempt;
use super::sqlite::TableRow;
use super::{codec, PostgresStore, SqliteStore, StoreError, StoreFuture, StoredTable};
use crate::model::{random_hex, SeatRecord, FORMER_PLAYER};

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredAccount {
    /// The account's id (random; never shown to others).
    pub id: String,
    /// The name as its owner wrote it.
    pub name: String,
    /// The name after Unicode normalisation (NFKC) and case folding: unique.
    pub name_key: String,
    /// The key's UTS #39 skeleton, what the name looks like (a Cyrillic `а` and a
    /// Latin `a` alike): unique. None for an account made before skeletons were kept.
    pub name_skeleton: Option<String>,
    /// The password's Argon2id hash as a PHC string; never the password.
    pub password_hash: String,
    /// Seconds since 1970 at creation.
    pub created_at: i64,
}

/// Where accounts and their sessions are kept. A session is known only by the SHA-256
/// of its token, so that a copy of the database lets nobody sign in.
pub trait Accounts: Send + Sync {
    /// Adds an account: `false`, and nothing changed, if its `name_key` or its
    /// `name_skeleton` is taken.
    fn create_account<'a>(&'a self, account: &'a StoredAccount) -> StoreFuture<'a, bool>;
    /// The account whose name has the key `name_key`, if any.
    fn account_named<'a>(&'a self, name_key: &'a str) -> StoreFuture<'a, Option<StoredAccount>>;
    /// Opens a session of `account_id` known by `token_hash`.
    fn create_session<'a>(
        &'a self,
        token_hash: &'a str,
        account_id: &'a str,
        created_at: i64,
    ) -> StoreFuture<'a, ()>;
    /// The account of the session known by `token_hash`, if it was opened at or after
    /// `since` (older ones have expired) and neither it nor its account is deleted.
    fn session_account<'a>(
        &'a self,
        token_hash: &'a str,
        since: i64,
    ) -> StoreFuture<'a, Option<StoredAccount>>;
    /// Ends the session known by `token_hash` (nothing if there is none).
    fn delete_session<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, ()>;
    /// Deletes account `id` and every session of it, in one transaction: whether it was
    /// there. Its name is free again; its seats keep their games, bound to no one, under
    /// the name [`FORMER_PLAYER`].
    fn delete_account<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool>;
    /// Every table with a seat bound to account `id`, newest first.
    fn account_tables<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredTable>>;
    /// The accounts made before names' skeletons were kept (none stored): their ids and
    /// names, oldest first.
    fn accounts_without_skeleton(&self) -> StoreFuture<'_, Vec<(String, String)>>;
    /// Gives account `id`, which has none, the name skeleton `skeleton`: `false`, and
    /// nothing changed, if another account's name has it (or `id` has one already).
    fn set_name_skeleton<'a>(&'a self, id: &'a str, skeleton: &'a str) -> StoreFuture<'a, bool>;
    /// Takes a sign-in attempt on the limited `key` (a name from an address, or an
    /// address), `per_minute` of them allowed on average and at once after a quiet
    /// minute (0: no limit): `None` if taken, else how long until one is. Counted in the
    /// database, so that every node of a cluster counts every node's attempts.
    fn take_attempt<'a>(
        &'a self,
        key: &'a str,
        per_minute: u32,
    ) -> StoreFuture<'a, Option<std::time::Duration>>;
}

// The skeletons' queries, one text for both stores (SQLite reads `$N` as PostgreSQL).

/// Accounts without a skeleton.
const WITHOUT_SKELETON: &str =
    "SELECT id, name FROM accounts WHERE name_skeleton IS NULL ORDER BY created_at, id";
/// An account's skeleton given, unless another account has it.
const SET_SKELETON: &str = "UPDATE accounts SET name_skeleton = $1 \
                            WHERE id = $2 AND name_skeleton IS NULL \
                            AND NOT EXISTS (SELECT 1 FROM accounts WHERE name_skeleton = $1)";

/// The skeletons' methods of [`Accounts`], alike on both stores.
macro_rules! shared_skeletons {
    () => {
        fn accounts_without_skeleton(&self) -> StoreFuture<'_, Vec<(String, String)>> {
            Box::pin(async move {
                Ok(sqlx::query_as(WITHOUT_SKELETON)
                    .fetch_all(&self.pool)
                    .await?)
            })
        }

        fn set_name_skeleton<'a>(
            &'a self,
            id: &'a str,
            skeleton: &'a str,
        ) -> StoreFuture<'a, bool> {
            Box::pin(async move {
                // A look-alike given one at the same time meets the unique index: refused.
                let done = sqlx::query(SET_SKELETON)
                    .bind(skeleton)
                    .bind(id)
                    .execute(&self.pool)
                    .await;
                match done {
                    Ok(done) => Ok(done.rows_affected() == 1),
                    Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
                    Err(e) => Err(e.into()),
                }
            })
        }
    };
}

/// A `LIKE` pattern that the seats' JSON of every table with a seat bound to account
/// `id` matches (and perhaps a few more: [`holds_seat`] has the last word). None for an
/// id that is no account's (ids are hex), so that no pattern character slips in.
fn seats_pattern(id: &str) -> Option<String> {
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| format!("%\"account\":\"{id}\"%"))
}

/// Whether a seat of `table` is bound to account `id`.
fn holds_seat(table: &StoredTable, id: &str) -> bool {
    table.seats.iter().any(|s| s.account.as_deref() == Some(id))
}

/// Table `table`'s seats (as stored) with account `id`'s made a former player's, each
/// with a new token: the new seats' JSON, or none if no seat was the account's.
fn former_players_seats(table: &str, seats: &str, id: &str) -> Result<Option<String>, StoreError> {
    let mut seats: Vec<SeatRecord> =
        serde_json::from_str(seats).map_err(|e| StoreError::Corrupt {
            table: table.to_string(),
            message: format!("seats: {e}"),
        })?;
    let mut changed = false;
    for seat in seats
        .iter_mut()
        .filter(|s| s.account.as_deref() == Some(id))
    {
        seat.account = None;
        seat.name = Some(FORMER_PLAYER.to_string());
        // The account's old link seats no one (the table's task, if running, gives
        // its own new token and saves it over this one).
        seat.token = random_hex();
        changed = true;
    }
    Ok(changed.then(|| codec::seats_json(&seats)))
}

/// The columns of an account, as every query reads them.
const ACCOUNT_COLUMNS: &str = "accounts.id, accounts.name, accounts.name_key, \
                               accounts.name_skeleton, accounts.password_hash, accounts.created_at";

impl Accounts for SqliteStore {
    shared_skeletons!();

    fn take_attempt<'a>(
        &'a self,
        key: &'a str,
        per_minute: u32,
    ) -> StoreFuture<'a, Option<std::time::Duration>> {
        Box::pin(async move {
            // One server per SQLite database: its own clock is the only one.
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            take_attempt!(&self.pool, "MAX", key, per_minute, now)
        })
    }

    fn create_account<'a>(&'a self, account: &'a StoredAccount) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let done = sqlx::query(
                "INSERT INTO accounts (id, name, name_key, name_skeleton, password_hash, created_at) \
                 VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            )
            .bind(&account.id)
            .bind(&account.name)
            .bind(&account.name_key)
            .bind(&account.name_skeleton)
            .bind(&account.password_hash)
            .bind(account.created_at)
            .execute(&self.pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    fn account_named<'a>(&'a self, name_key: &'a str) -> StoreFuture<'a, Option<StoredAccount>> {
        Box::pin(async move {
            let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?");
            Ok(sqlx::query_as(&sql)
                .bind(name_key)
                .fetch_optional(&self.pool)
                .await?)
        })
    }

    fn create_session<'a>(
        &'a self,
        token_hash: &'a str,
        account_id: &'a str,
        created_at: i64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO sessions (token_hash, account_id, created_at) VALUES (?, ?, ?)",
            )
            .bind(token_hash)
            .bind(account_id)
            .bind(created_at)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn session_account<'a>(
        &'a self,
        token_hash: &'a str,
        since: i64,
    ) -> StoreFuture<'a, Option<StoredAccount>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {ACCOUNT_COLUMNS} FROM sessions JOIN accounts ON accounts.id = sessions.account_id \
                 WHERE sessions.token_hash = ? AND sessions.created_at >= ?"
            );
            Ok(sqlx::query_as(&sql)
                .bind(token_hash)
                .bind(since)
                .fetch_optional(&self.pool)
                .await?)
        })
    }

    fn delete_session<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("DELETE FROM sessions WHERE token_hash = ?")
                .bind(token_hash)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn delete_account<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = ?")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            if let Some(pattern) = seats_pattern(id) {
                let held: Vec<(String, String)> =
                    sqlx::query_as("SELECT id, seats FROM tables WHERE seats LIKE ?")
                        .bind(pattern)
                        .fetch_all(&mut *tx)
                        .await?;
                for (table, seats) in held {
                    if let Some(seats) = former_players_seats(&table, &seats, id)? {
                        sqlx::query("UPDATE tables SET seats = ? WHERE id = ?")
                            .bind(seats)
                            .bind(&table)
                            .execute(&mut *tx)
                            .await?;
                    }
                }
            }
            let done = sqlx::query("DELETE FROM accounts WHERE id = ?")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(done.rows_affected() == 1)
        })
    }

    fn account_tables<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredTable>> {
        Box::pin(async move {
            let Some(pattern) = seats_pattern(id) else {
                return Ok(Vec::new());
            };
            let rows: Vec<TableRow> = sqlx::query_as(
                "SELECT * FROM tables WHERE seats LIKE ? ORDER BY created_at DESC, id",
            )
            .bind(pattern)
            .fetch_all(&self.pool)
            .await?;
            let tables = rows
                .into_iter()
                .map(TableRow::typed)
                .collect::<Result<Vec<_>, _>>()?;
            Ok(tables.into_iter().filter(|t| holds_seat(t, id)).collect())
        })
    }
}

impl Accounts for PostgresStore {
    shared_skeletons!();

    fn take_attempt<'a>(
        &'a self,
        key: &'a str,
        per_minute: u32,
    ) -> StoreFuture<'a, Option<std::time::Duration>> {
        Box::pin(async move {
            // PostgreSQL's clock, the same for every node (theirs may differ).
            let (now,): (i64,) =
                sqlx::query_as("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT")
                    .fetch_one(&self.pool)
                    .await?;
            take_attempt!(&self.pool, "GREATEST", key, per_minute, now)
        })
    }

    fn create_account<'a>(&'a self, account: &'a StoredAccount) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let done = sqlx::query(
                "INSERT INTO accounts (id, name, name_key, name_skeleton, password_hash, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
            )
            .bind(&account.id)
            .bind(&account.name)
            .bind(&account.name_key)
            .bind(&account.name_skeleton)
            .bind(&account.password_hash)
            .bind(account.created_at)
            .execute(&self.pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    fn account_named<'a>(&'a self, name_key: &'a str) -> StoreFuture<'a, Option<StoredAccount>> {
        Box::pin(async move {
            let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1");
            Ok(sqlx::query_as(&sql)
                .bind(name_key)
                .fetch_optional(&self.pool)
                .await?)
        })
    }

    fn create_session<'a>(
        &'a self,
        token_hash: &'a str,
        account_id: &'a str,
        created_at: i64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO sessions (token_hash, account_id, created_at) VALUES ($1, $2, $3)",
            )
            .bind(token_hash)
            .bind(account_id)
            .bind(created_at)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn session_account<'a>(
        &'a self,
        token_hash: &'a str,
        since: i64,
    ) -> StoreFuture<'a, Option<StoredAccount>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {ACCOUNT_COLUMNS} FROM sessions JOIN accounts ON accounts.id = sessions.account_id \
                 WHERE sessions.token_hash = $1 AND sessions.created_at >= $2"
            );
            Ok(sqlx::query_as(&sql)
                .bind(token_hash)
                .bind(since)
                .fetch_optional(&self.pool)
                .await?)
        })
    }

    fn delete_session<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn delete_account<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            if let Some(pattern) = seats_pattern(id) {
                // Locked, so that no step of a table rewrites its seats meanwhile.
                let held: Vec<(String, String)> =
                    sqlx::query_as("SELECT id, seats FROM tables WHERE seats LIKE $1 FOR UPDATE")
                        .bind(pattern)
                        .fetch_all(&mut *tx)
                        .await?;
                for (table, seats) in held {
                    if let Some(seats) = former_players_seats(&table, &seats, id)? {
                        sqlx::query("UPDATE tables SET seats = $1 WHERE id = $2")
                            .bind(seats)
                            .bind(&table)
                            .execute(&mut *tx)
                            .await?;
                    }
                }
            }
            let done = sqlx::query("DELETE FROM accounts WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(done.rows_affected() == 1)
        })
    }

    fn account_tables<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredTable>> {
        Box::pin(async move {
            let Some(pattern) = seats_pattern(id) else {
                return Ok(Vec::new());
            };
            let rows = sqlx::query(
                "SELECT * FROM tables WHERE seats LIKE $1 ORDER BY created_at DESC, id",
            )
            .bind(pattern)
            .fetch_all(&self.pool)
            .await?;
            let tables = rows
                .iter()
                .map(super::postgres::table_of)
                .collect::<Result<Vec<_>, _>>()?;
            Ok(tables.into_iter().filter(|t| holds_seat(t, id)).collect())
        })
    }
}
