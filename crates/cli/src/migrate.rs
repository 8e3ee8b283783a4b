//! `calltrump migrate`: a SQLite server's database copied into PostgreSQL.

use std::process::ExitCode;

use anyhow::Result;

/// Arguments of `migrate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The SQLite database to copy, as `sqlite://PATH` (the `calltrump.db` of a server's
    /// --data folder). No server may run on it meanwhile; it is left as it was.
    #[arg(long)]
    from: String,
    /// The PostgreSQL database to copy into, as `postgres://USER[:PASSWORD]@HOST:PORT/DB`:
    /// it must exist and hold no calltrump table, night or account (migrate refuses one
    /// that does, writing nothing) unless --into-non-empty.
    #[arg(long)]
    to: String,
    /// Copy alongside the rows already in --to, if none has an id the source has (the
    /// first such id is named, and nothing is written).
    #[arg(long)]
    into_non_empty: bool,
}

/// Copies, checks, and says what was copied.
pub fn run(args: &Args) -> Result<ExitCode> {
    let migrated = tokio::runtime::Runtime::new()?
        .block_on(calltrump_server::migrate::migrate(
            &args.from,
            &args.to,
            args.into_non_empty,
        ))
        .map_err(anyhow::Error::msg)?;
    println!("{migrated}");
    Ok(ExitCode::SUCCESS)
}
