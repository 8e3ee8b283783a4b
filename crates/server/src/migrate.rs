//! `calltrump migrate`: a SQLite server's database copied into a PostgreSQL database
//! (empty, or alongside rows whose ids differ), then checked; a cluster's nodes started on it take every live table and
//! night over.

use std::time::Duration;

use crate::startup;
use crate::store::{
    check_copy, copy_into, Copied, DatabaseOptions, NodeOptions, PostgresStore, SqliteStore,
};

/// Copies the SQLite database `from` (`sqlite://PATH`: a file a server has used, and no
/// server runs on now) into the PostgreSQL database `to` (`postgres://...`; empty unless
/// `alongside`, then holding none of `from`'s ids), and checks the copy; what was
/// copied, and how many tables' logs replayed the same.
pub async fn migrate(from: &str, to: &str, alongside: bool) -> Result<Migrated, String> {
    let path = startup::database_path(from)
        .filter(|_| !startup::is_postgres(from))
        .ok_or_else(|| format!("--from {from}: give the SQLite database as sqlite://PATH"))?;
    if !path.is_file() {
        return Err(format!(
            "--from {from}: there is no database at {}",
            path.display()
        ));
    }
    if !startup::is_postgres(to) {
        return Err(format!(
            "--to {}: give the PostgreSQL database as postgres://USER@HOST:PORT/DB",
            startup::shown_url(to)
        ));
    }
    // No server writes the source meanwhile.
    let _lock = startup::lock(&path).map_err(|e| format!("--from: {e}"))?;
    startup::check_database(&path, from)
        .await
        .map_err(|e| format!("--from: {e}"))?;
    let shown = startup::shown_url(to);
    startup::check_postgres(to, Duration::from_secs(10))
        .await
        .map_err(|e| format!("--to: {e}"))?;
    let source = SqliteStore::open(from)
        .await
        .map_err(|e| format!("--from {}: {e}", path.display()))?;
    let target = PostgresStore::open_node(
        to,
        DatabaseOptions::default(),
        NodeOptions::named("calltrump-migrate"),
    )
    .await
    .map_err(|e| format!("--to {shown}: {e}"))?;
    let copied = copy_into(&source, &target, alongside)
        .await
        .map_err(|e| format!("--to {shown}: {e}"))?;
    let replayed = check_copy(&source, &target)
        .await
        .map_err(|e| format!("--to {shown}: {e}"))?;
    Ok(Migrated { copied, replayed })
}

/// What [`migrate`] copied and checked; displayed, the report for the person migrating.
#[derive(Debug)]
pub struct Migrated {
    /// The rows copied, by kind.
    pub copied: Copied,
    /// The tables whose copied log replays to the same game.
    pub replayed: u64,
}

impl std::fmt::Display for Migrated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Copied {
            tables,
            events,
            chat_lines,
            nights,
            accounts,
            sessions,
            ratings,
            rating_changes,
            rated_games,
        } = self.copied;
        writeln!(
            f,
            "copied {tables} tables ({events} log entries, {chat_lines} chat lines), \
             {nights} nights, {accounts} accounts, {sessions} sessions, {ratings} ratings \
             ({rating_changes} rating changes, {rated_games} rated games)"
        )?;
        writeln!(
            f,
            "checked: every row reads back the same, and each of the {} tables' logs \
             replays to the same game",
            self.replayed
        )?;
        write!(
            f,
            "start the nodes with --database and that URL: they take every table and \
             night still playing over"
        )
    }
}
