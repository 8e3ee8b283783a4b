//! Copying a SQLite store's rows into a PostgreSQL store (`calltrump migrate`), empty or,
//! when asked, alongside rows whose ids differ: every table with its log and chat, every
//! night, account, session, rating, rating change and rated game's mark, in one
//! PostgreSQL transaction (all or nothing).

use calltrump_table::Table;
use sqlx::{Postgres, QueryBuilder, Row, Transaction};

use super::{PostgresStore, SqliteStore, Store, StoreError, ROWS_PER_STATEMENT};

/// How many rows of each kind a copy wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    /// Tables.
    pub tables: u64,
    /// Log entries, over every table.
    pub events: u64,
    /// Chat lines, over every table.
    pub chat_lines: u64,
    /// Nights.
    pub nights: u64,
    /// Accounts.
    pub accounts: u64,
    /// Signed-in sessions.
    pub sessions: u64,
    /// Ratings (one per account and game family).
    pub ratings: u64,
    /// Entries of the ratings' histories (one per account and rated game).
    pub rating_changes: u64,
    /// Rated games (each marked once, so that none is rated again).
    pub rated_games: u64,
}

impl Copied {
    /// The count of copied table `table`.
    fn count_of(&mut self, table: &str) -> &mut u64 {
        match table {
            "tables" => &mut self.tables,
            "events" => &mut self.events,
            "chat" => &mut self.chat_lines,
            "nights" => &mut self.nights,
            "accounts" => &mut self.accounts,
            "sessions" => &mut self.sessions,
            "ratings" => &mut self.ratings,
            "rating_history" => &mut self.rating_changes,
            _ => &mut self.rated_games,
        }
    }
}

/// Why a copy did not happen.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// The target already holds calltrump rows: nothing was written.
    #[error("the target database is not empty (it holds {tables} tables, {nights} nights and {accounts} accounts): nothing was written; give a new database (createdb), or --into-non-empty to copy alongside its rows (refused if an id is in both)")]
    NotEmpty {
        /// Tables there.
        tables: i64,
        /// Nights there.
        nights: i64,
        /// Accounts there.
        accounts: i64,
    },
    /// Copying alongside the target's rows, one of the source's ids is there already:
    /// nothing was written.
    #[error("the target database holds {what} {id} already, and so does the source: nothing was written (a copy alongside existing rows needs ids that are in one database only)")]
    Collides {
        /// What the id names (a table, a night, an account, an account's name…).
        what: &'static str,
        /// The first id in both, in order (a session's, whose key is a secret's hash,
        /// is not shown).
        id: String,
    },
    /// Reading or writing failed: nothing was written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The copy does not read back as the original (it was written, and is left for
    /// whoever runs the migration to look at).
    #[error("the copy differs from the original: {0}")]
    Differs(String),
}

impl From<sqlx::Error> for CopyError {
    fn from(error: sqlx::Error) -> CopyError {
        CopyError::Store(error.into())
    }
}

/// One table a copy writes: its columns (the same in both backends' schemas), and an
/// expression of them that is unique to a row, by which [`check_copy`] compares each
/// row read back, unless `read_back` by the stores already.
struct Copy {
    table: &'static str,
    columns: &'static [&'static str],
    key: &'static str,
    read_back: bool,
}

/// Every table of a SQLite server, in the order of their dependencies.
const COPIED: [Copy; 9] = [
    Copy {
        table: "tables",
        columns: &[
            "id",
            "settings",
            "deal_rng",
            "seats",
            "host_token",
            "status",
            "created_at",
        ],
        key: "id",
        read_back: true,
    },
    Copy {
        table: "events",
        columns: &["table_id", "version", "entry"],
        key: "table_id",
        read_back: true,
    },
    Copy {
        table: "chat",
        columns: &[
            "table_id", "seq", "sender", "body", "at", "deals", "actions",
        ],
        key: "table_id",
        read_back: true,
    },
    Copy {
        table: "nights",
        columns: &["id", "state", "status", "created_at"],
        key: "id",
        read_back: true,
    },
    Copy {
        table: "accounts",
        columns: &[
            "id",
            "name",
            "name_key",
            "name_skeleton",
            "password_hash",
            "created_at",
        ],
        key: "id",
        read_back: false,
    },
    Copy {
        table: "sessions",
        columns: &["token_hash", "account_id", "created_at"],
        key: "token_hash",
        read_back: false,
    },
    Copy {
        table: "ratings",
        columns: &["account_id", "family", "mu", "sigma", "games"],
        key: "account_id || ' ' || family",
        read_back: false,
    },
    Copy {
        table: "rating_history",
        columns: &[
            "account_id",
            "family",
            "table_id",
            "mu",
            "sigma",
            "games",
            "at",
        ],
        key: "account_id || ' ' || table_id",
        read_back: false,
    },
    Copy {
        table: "rated_games",
        columns: &["table_id", "family", "at"],
        key: "table_id",
        read_back: false,
    },
];

/// A column's value, as either backend keeps it.
#[derive(Debug, PartialEq)]
enum Value {
    Text(Option<String>),
    Int(Option<i64>),
    Real(Option<f64>),
}

/// Whether column `column` holds integers.
fn is_int(column: &str) -> bool {
    matches!(
        column,
        "created_at" | "version" | "seq" | "at" | "deals" | "actions" | "games"
    )
}

/// Whether column `column` holds floating-point numbers.
fn is_real(column: &str) -> bool {
    matches!(column, "mu" | "sigma")
}

/// Row `row`'s `columns`, whichever backend it comes from.
fn values<R: Row>(row: &R, columns: &[&str]) -> Result<Vec<Value>, sqlx::Error>
where
    for<'c> &'c str: sqlx::ColumnIndex<R>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<f64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    columns
        .iter()
        .map(|column| {
            Ok(if is_int(column) {
                Value::Int(row.try_get(*column)?)
            } else if is_real(column) {
                Value::Real(row.try_get(*column)?)
            } else {
                Value::Text(row.try_get(*column)?)
            })
        })
        .collect()
}

/// The keys no two rows may share, by table, and what each names: a copy alongside
/// existing rows is refused when one of the source's is taken (a rating's or a rated
/// game's with its account's or table's, the first such in the order here).
const KEYS: [(&str, &str, &str); 8] = [
    ("tables", "id", "table"),
    ("nights", "id", "night"),
    ("accounts", "id", "account"),
    ("accounts", "name_key", "an account named (after folding)"),
    ("sessions", "token_hash", "a signed-in session"),
    (
        "ratings",
        "account_id || ' ' || family",
        "the rating of account and family",
    ),
    (
        "rating_history",
        "account_id || ' ' || table_id",
        "the rating change of account and table",
    ),
    ("rated_games", "table_id", "the rated game"),
];

/// Copies every row of `from` into `to`, which must hold no table, night or account
/// ([`CopyError::NotEmpty`] otherwise) unless `alongside`: then no id of `from` may be
/// in `to` ([`CopyError::Collides`], the first one). No lease is written: a node
/// started on `to` takes every live table and night over as a dead node's.
pub async fn copy_into(
    from: &SqliteStore,
    to: &PostgresStore,
    alongside: bool,
) -> Result<Copied, CopyError> {
    let mut tx = to.pool.begin().await?;
    let (tables, nights, accounts): (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM tables), (SELECT count(*) FROM nights), \
         (SELECT count(*) FROM accounts)",
    )
    .fetch_one(&mut *tx)
    .await?;
    if alongside {
        // In the copy's transaction: a row written meanwhile with one of these ids
        // fails the copy's insert, and the whole copy with it.
        for (table, key, what) in KEYS {
            let ids = source_keys(from, table, key).await?;
            let taken: Option<String> = sqlx::query_scalar(&format!(
                "SELECT {key} FROM {table} WHERE {key} = ANY($1) ORDER BY {key} LIMIT 1"
            ))
            .bind(&ids)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(id) = taken {
                let id = if table == "sessions" {
                    "(its hash not shown)".into()
                } else {
                    id
                };
                return Err(CopyError::Collides { what, id });
            }
        }
    } else if tables + nights + accounts > 0 {
        return Err(CopyError::NotEmpty {
            tables,
            nights,
            accounts,
        });
    }
    let mut copied = Copied::default();
    for copy in &COPIED {
        *copied.count_of(copy.table) = copy_table(from, &mut tx, copy.table, copy.columns).await?;
    }
    tx.commit().await?;
    Ok(copied)
}

/// Every `key` of `table` in `from`.
async fn source_keys(from: &SqliteStore, table: &str, key: &str) -> Result<Vec<String>, CopyError> {
    let sql = format!("SELECT {key} FROM {table}");
    Ok(sqlx::query_scalar(&sql).fetch_all(&from.pool).await?)
}

/// Copies every row of `table` (its `columns`), a batch at a time; how many.
async fn copy_table(
    from: &SqliteStore,
    tx: &mut Transaction<'_, Postgres>,
    table: &str,
    columns: &[&str],
) -> Result<u64, CopyError> {
    let list = columns.join(", ");
    // By rowid, a batch after the last: each row read once, in the order written.
    let select =
        format!("SELECT rowid, {list} FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?");
    let mut count = 0u64;
    let mut after = 0i64;
    loop {
        let rows = sqlx::query(&select)
            .bind(after)
            .bind(ROWS_PER_STATEMENT as i64)
            .fetch_all(&from.pool)
            .await?;
        let Some(last) = rows.last() else {
            return Ok(count);
        };
        after = last.try_get("rowid")?;
        let batch = rows
            .iter()
            .map(|row| values(row, columns))
            .collect::<Result<Vec<_>, _>>()?;
        let mut insert = QueryBuilder::<Postgres>::new(format!("INSERT INTO {table} ({list}) "));
        insert.push_values(batch, |mut row, values| {
            for value in values {
                match value {
                    Value::Text(text) => row.push_bind(text),
                    Value::Int(int) => row.push_bind(int),
                    Value::Real(real) => row.push_bind(real),
                };
            }
        });
        insert.build().execute(&mut **tx).await?;
        count += rows.len() as u64;
    }
}

/// Checks a copy against its original: each table's row, log and chat read back the
/// same through both stores, and each log replays on the copy to the same game record
/// as on the original; each night reads back the same; every other row (accounts,
/// sessions, ratings…) is in the copy, the same. The number of tables replayed.
pub async fn check_copy(from: &SqliteStore, to: &PostgresStore) -> Result<u64, CopyError> {
    let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM tables ORDER BY rowid")
        .fetch_all(&from.pool)
        .await?;
    let differs = |id: &str, what: &str| CopyError::Differs(format!("table {id}: its {what}"));
    for id in &ids {
        let (original, copy) = (from.table(id).await?, to.table(id).await?);
        if original != copy {
            return Err(differs(id, "row"));
        }
        let Some(copy) = copy else {
            return Err(differs(id, "row"));
        };
        let (log, copied_log) = (from.log(id).await?, to.log(id).await?);
        if log != copied_log {
            return Err(differs(id, "log"));
        }
        if from.chat_history(id).await? != to.chat_history(id).await? {
            return Err(differs(id, "chat"));
        }
        let replay = |log| Table::restore(copy.settings.clone(), copy.deal_rng.clone(), log);
        match (replay(&log), replay(&copied_log)) {
            (Ok(original), Ok(copied)) if original.record() == copied.record() => {}
            (Err(original), Err(copied)) if original.to_string() == copied.to_string() => {}
            _ => return Err(differs(id, "log's replay")),
        }
    }
    let nights: Vec<String> = sqlx::query_scalar("SELECT id FROM nights ORDER BY rowid")
        .fetch_all(&from.pool)
        .await?;
    for id in &nights {
        if from.night(id).await? != to.night(id).await? {
            return Err(CopyError::Differs(format!("night {id}")));
        }
    }
    for copy in COPIED.iter().filter(|copy| !copy.read_back) {
        check_rows(from, to, copy).await?;
    }
    Ok(ids.len() as u64)
}

/// Checks that every row of `copy`'s table in `from` is in `to`, the same.
async fn check_rows(from: &SqliteStore, to: &PostgresStore, copy: &Copy) -> Result<(), CopyError> {
    let Copy {
        table,
        columns,
        key,
        ..
    } = copy;
    let list = columns.join(", ");
    let keys = source_keys(from, table, key).await?;
    let mut original = Vec::with_capacity(keys.len());
    for row in sqlx::query(&format!("SELECT {key} AS row_key, {list} FROM {table}"))
        .fetch_all(&from.pool)
        .await?
    {
        original.push((row.try_get::<String, _>("row_key")?, values(&row, columns)?));
    }
    let sql = format!("SELECT {key} AS row_key, {list} FROM {table} WHERE {key} = ANY($1)");
    let mut copied = Vec::with_capacity(keys.len());
    for row in sqlx::query(&sql).bind(&keys).fetch_all(&to.pool).await? {
        copied.push((row.try_get::<String, _>("row_key")?, values(&row, columns)?));
    }
    // The keys' order, which differs between the backends' collations, does not count.
    original.sort_by(|a, b| a.0.cmp(&b.0));
    copied.sort_by(|a, b| a.0.cmp(&b.0));
    if original.len() != copied.len() {
        return Err(CopyError::Differs(format!(
            "{table}: {} rows, not {}",
            copied.len(),
            original.len()
        )));
    }
    match original.iter().zip(&copied).find(|(a, b)| a != b) {
        // A session's key is a secret's hash: not shown.
        Some(_) if *table == "sessions" => Err(CopyError::Differs(
            "sessions: a row (its hash not shown)".into(),
        )),
        Some((row, _)) => Err(CopyError::Differs(format!("{table}: row {}", row.0))),
        None => Ok(()),
    }
}
