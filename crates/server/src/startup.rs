//! Faults found at start, before the database is opened: another server on the same
//! SQLite database (a file lock held for the server's life; several nodes may share a
//! PostgreSQL database, each table leased to one), and a database that is empty or
//! another program's (refused, saying what to do, rather than started on or migrated).

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use std::time::Duration;

use sqlx::postgres::PgConnectOptions;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

/// The first 16 bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// The lock of a SQLite database, held while the server runs: the lock file open and
/// locked, let go by the operating system when the process ends, however it ends.
#[derive(Debug)]
pub(crate) struct DatabaseLock {
    /// The lock file, held open (never read: holding it is the lock).
    _held: File,
}

/// Whether `url` names a PostgreSQL database (`postgres://` or `postgresql://`).
pub(crate) fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// `url` with its password, if any, hidden: fit for messages and logs.
pub(crate) fn shown_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _password)) => format!("{scheme}://{name}:***@{host}{path}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// Opens a connection of its own to the PostgreSQL database at `url` and refuses a
/// database that holds other tables than calltrump's.
pub(crate) async fn check_postgres(url: &str, timeout: Duration) -> Result<(), String> {
    let shown = shown_url(url);
    let options =
        PgConnectOptions::from_str(url).map_err(|e| format!("the database {shown}: {e}"))?;
    let mut connection = match tokio::time::timeout(timeout, options.connect()).await {
        Err(_) => {
            return Err(format!(
                "the database {shown} did not answer within {} s (--database-connect-timeout-secs)",
                timeout.as_secs_f64()
            ))
        }
        Ok(Err(e)) => return Err(format!("cannot connect to the database {shown}: {e}")),
        Ok(Ok(connection)) => connection,
    };
    let cannot = |e: sqlx::Error| format!("cannot read the database {shown}: {e}");
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = current_schema() ORDER BY table_name",
    )
    .fetch_all(&mut connection)
    .await
    .map_err(cannot)?;
    if !ours(&names) {
        return Err(format!(
            "{shown} is the database of another program (its tables: {}): give calltrump a database of its own (CREATE DATABASE calltrump)",
            names.join(", ")
        ));
    }
    let _ = connection.close().await;
    Ok(())
}

/// Whether a database whose tables are `names` may be calltrump's: none yet (it is
/// migrated), or calltrump's own (its migrations' table, its tables and its log).
fn ours(names: &[String]) -> bool {
    names.is_empty()
        || ["_sqlx_migrations", "tables", "events"]
            .iter()
            .all(|table| names.iter().any(|name| name == table))
}

/// The file of a `sqlite://PATH` (or `sqlite:PATH`) URL; none for an in-memory database.
pub(crate) fn database_path(url: &str) -> Option<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or(rest);
    (!path.is_empty() && path != ":memory:").then(|| PathBuf::from(path))
}

/// Locks the database at `path` for this server: `PATH.lock` beside it, held until the
/// lock is dropped. Another server on the same database is refused.
pub(crate) fn lock(path: &Path) -> Result<DatabaseLock, String> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    let lock_path = path.with_file_name(name);
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("cannot open the lock file {}: {e}", lock_path.display()))?;
    match try_lock(&file) {
        Ok(true) => {}
        Ok(false) => {
            return Err(format!(
                "another calltrump server is running on the database {} (it holds {}): stop it first, or give this one a data folder of its own (--data)",
                path.display(),
                lock_path.display()
            ))
        }
        Err(e) => return Err(format!("cannot lock {}: {e}", lock_path.display())),
    }
    // Which process holds it, for whoever looks (the lock, not the text, is what counts).
    let _ = file.set_len(0);
    let _ = writeln!(file, "{}", std::process::id());
    Ok(DatabaseLock { _held: file })
}

/// Takes `file`'s exclusive lock if no one holds it: whether it was taken. (std's
/// `File::try_lock` is newer than the workspace's minimum Rust.)
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use rustix::fs::{flock, FlockOperation};
    match flock(file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::WOULDBLOCK) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Elsewhere there is no lock: one server per database is the operator's to keep.
#[cfg(not(unix))]
fn try_lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}

/// Refuses a database file that is not calltrump's: an empty file, a file that is not
/// SQLite, or another program's SQLite database. A missing file is fine (it is created).
pub(crate) async fn check_database(path: &Path, url: &str) -> Result<(), String> {
    let shown = path.display();
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read the database {shown}: {e}")),
    };
    let mut header = Vec::with_capacity(SQLITE_HEADER.len());
    (&mut file)
        .take(SQLITE_HEADER.len() as u64)
        .read_to_end(&mut header)
        .map_err(|e| format!("cannot read the database {shown}: {e}"))?;
    if header.is_empty() {
        return Err(format!(
            "the database {shown} is an empty file, not calltrump's: restore it from a backup, or move it away to start with no tables"
        ));
    }
    if header != SQLITE_HEADER {
        return Err(format!(
            "{shown} is not an SQLite database: give calltrump a database of its own (--data FOLDER, or --database sqlite://ANOTHER.db)"
        ));
    }
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|e| format!("the database {url}: {e}"))?
        .create_if_missing(false);
    let mut connection = options
        .connect()
        .await
        .map_err(|e| format!("cannot open the database {shown}: {e}"))?;
    let names: Vec<String> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .fetch_all(&mut connection)
            .await
            .map_err(|e| format!("cannot read the database {shown}: {e}"))?;
    let _ = connection.close().await;
    if !ours(&names) {
        return Err(format!(
            "{shown} is the SQLite database of another program (its tables: {}): give calltrump a database of its own (--data FOLDER, or --database sqlite://ANOTHER.db)",
            names.join(", ")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_url_names_its_file() {
        assert_eq!(
            database_path("sqlite:///var/lib/calltrump/calltrump.db"),
            Some(PathBuf::from("/var/lib/calltrump/calltrump.db"))
        );
        assert_eq!(
            database_path("sqlite://data.db?mode=rwc"),
            Some(PathBuf::from("data.db"))
        );
        assert_eq!(database_path("sqlite::memory:"), None);
        assert_eq!(database_path("postgres://x"), None);
    }

    #[test]
    fn a_postgres_url_is_shown_without_its_password() {
        assert!(is_postgres("postgres://u@h:5432/db") && is_postgres("postgresql://h/db"));
        assert!(!is_postgres("sqlite://postgres.db"));
        assert_eq!(
            shown_url("postgres://ann:secret@db.example:5432/calltrump"),
            "postgres://ann:***@db.example:5432/calltrump"
        );
        assert_eq!(shown_url("postgres://ann@h/db"), "postgres://ann@h/db");
        assert_eq!(shown_url("sqlite://a.db"), "sqlite://a.db");
    }
}
