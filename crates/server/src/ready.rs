//! `/readyz`: whether the store can write now. `/healthz` says the process serves;
//! this says a table's next action could be kept. SQLite: the data folder takes a write
//! (not full, not read-only) and the database's write lock can be taken (not stuck
//! locked). PostgreSQL: the server answers, is no read-only standby, and the lock an
//! insert into the log takes can be had.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

/// How long each probe may take before the store counts as unable to write.
const PROBE_TIME: Duration = Duration::from_secs(2);
/// The size of the probe file: a few pages, as an action's write is.
const PROBE_BYTES: usize = 16 * 1024;
/// How long an answer is given again without probing: `/readyz` asked in a loop costs a
/// probe a second at most.
const ANSWER_KEPT: Duration = Duration::from_secs(1);

/// The probes of one database, each on one connection of its own, opened at the
/// first probe.
enum Probe {
    Sqlite { folder: PathBuf, pool: SqlitePool },
    Postgres { pool: PgPool },
}

/// The probes of one database.
pub(crate) struct Readiness {
    probe: Probe,
    /// The last answer and when it was found.
    last: std::sync::Mutex<Option<(Instant, Result<(), String>)>>,
}

impl Readiness {
    /// The probes of the database at `url`, whose file is `path`.
    pub(crate) fn new(url: &str, path: &std::path::Path) -> Result<Self, String> {
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| format!("the database {url}: {e}"))?
            .busy_timeout(Duration::from_secs(1));
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(PROBE_TIME)
            .connect_lazy_with(options);
        Ok(Readiness {
            probe: Probe::Sqlite { folder, pool },
            last: std::sync::Mutex::new(None),
        })
    }

    /// The probes of the PostgreSQL database at `url`.
    pub(crate) fn postgres(url: &str) -> Result<Self, String> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| format!("the database {}: {e}", crate::startup::shown_url(url)))?;
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .acquire_timeout(PROBE_TIME)
            .connect_lazy_with(options);
        Ok(Readiness {
            probe: Probe::Postgres { pool },
            last: std::sync::Mutex::new(None),
        })
    }

    /// `Ok` if the store can write now, else what stops it.
    pub(crate) async fn check(&self) -> Result<(), String> {
        let kept = self.last.lock().ok().and_then(|last| last.clone());
        if let Some((when, answer)) = kept {
            if when.elapsed() < ANSWER_KEPT {
                return answer;
            }
        }
        let answer = self.probe().await;
        if let Ok(mut last) = self.last.lock() {
            *last = Some((Instant::now(), answer.clone()));
        }
        answer
    }

    async fn probe(&self) -> Result<(), String> {
        match &self.probe {
            Probe::Sqlite { folder, pool } => probe_sqlite(folder, pool).await,
            Probe::Postgres { pool } => {
                match tokio::time::timeout(PROBE_TIME, take_log_lock(pool)).await {
                    Err(_) => Err("the database's log could not be locked within 2 s".into()),
                    Ok(result) => result,
                }
            }
        }
    }
}

/// Writes a probe file in `folder` and takes the write lock of the SQLite `pool`.
async fn probe_sqlite(folder: &std::path::Path, pool: &SqlitePool) -> Result<(), String> {
    let folder = folder.to_path_buf();
    let wrote = tokio::time::timeout(
        PROBE_TIME,
        tokio::task::spawn_blocking(move || write_probe(&folder)),
    )
    .await;
    match wrote {
        Err(_) => return Err("the data folder did not take a write within 2 s".into()),
        Ok(Err(e)) => return Err(format!("the data folder's probe failed: {e}")),
        Ok(Ok(Err(e))) => return Err(e),
        Ok(Ok(Ok(()))) => {}
    }
    match tokio::time::timeout(PROBE_TIME, take_write_lock(pool)).await {
        Err(_) => Err("the database's write lock was not had within 2 s".into()),
        Ok(result) => result,
    }
}

/// Takes the SQLite database's write lock and lets it go (`BEGIN IMMEDIATE`,
/// `ROLLBACK`): nothing is written. (The pool's one connection runs both statements.)
async fn take_write_lock(pool: &SqlitePool) -> Result<(), String> {
    let cannot = |e: sqlx::Error| format!("the database cannot be written: {e}");
    sqlx::query("BEGIN IMMEDIATE")
        .execute(pool)
        .await
        .map_err(cannot)?;
    sqlx::query("ROLLBACK")
        .execute(pool)
        .await
        .map_err(cannot)?;
    Ok(())
}

/// Takes, in a transaction rolled back, the lock an insert into PostgreSQL's log takes
/// (`ROW EXCLUSIVE` on `events`): refused on a read-only server or transaction, and
/// waited for while something holds the table locked. Nothing is written.
async fn take_log_lock(pool: &PgPool) -> Result<(), String> {
    let cannot = |e: sqlx::Error| format!("the database cannot be written: {e}");
    let mut tx = pool.begin().await.map_err(cannot)?;
    let standby: bool = sqlx::query_scalar("SELECT pg_is_in_recovery()")
        .fetch_one(&mut *tx)
        .await
        .map_err(cannot)?;
    if standby {
        return Err("the database is a read-only standby".into());
    }
    // PostgreSQL gives up waiting before the probe's time is out, so the connection
    // stays whole.
    sqlx::query("SET LOCAL lock_timeout = '1s'")
        .execute(&mut *tx)
        .await
        .map_err(cannot)?;
    sqlx::query("LOCK TABLE events IN ROW EXCLUSIVE MODE")
        .execute(&mut *tx)
        .await
        .map_err(cannot)?;
    tx.rollback().await.map_err(cannot)?;
    Ok(())
}

/// Writes, syncs and removes a small file in `folder`: a full or read-only disk fails.
fn write_probe(folder: &std::path::Path) -> Result<(), String> {
    let path = folder.join(".calltrump-ready-probe");
    let written = write_synced(&path);
    let _ = std::fs::remove_file(&path);
    written.map_err(|e| {
        format!(
            "the data folder {} cannot be written: {e}",
            folder.display()
        )
    })
}

/// Writes [`PROBE_BYTES`] to a new file at `path` and waits for them to be on disk.
fn write_synced(path: &std::path::Path) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::File::create(path)?;
    file.write_all(&[0u8; PROBE_BYTES])?;
    file.sync_data()
}
