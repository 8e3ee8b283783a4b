//! `calltrump serve` (the table server) and `calltrump join` (a bot at a seat link).

use std::io::IsTerminal;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use calltrump_server::client::{play_seat, SeatLink};
use calltrump_server::{HubConfig, ServerConfig};

use crate::game_args::MAX_DEALS;

/// Arguments of `serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Where to listen, as HOST:PORT (127.0.0.1:8080, localhost:8080). Use 0.0.0.0:8080
    /// to let other machines in (or put a proxy in front, passing `Host` and the
    /// WebSocket upgrade on).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The folder of the database (default: a calltrump folder in the user's data folder).
    #[arg(long)]
    data: Option<PathBuf>,
    /// The database, as `sqlite://PATH` (instead of --data).
    #[arg(long)]
    database: Option<String>,
    /// Milliseconds a bot waits before it acts (and before each deal), so people can
    /// follow.
    #[arg(long, default_value_t = 700)]
    bot_delay_ms: u64,
    /// Seconds a player may be away before a bot stands in.
    #[arg(long, default_value_t = 60)]
    grace_secs: u64,
    /// Milliseconds a person has to cut the deck (committed deals) before the server
    /// cuts at random for them.
    #[arg(long, default_value_t = calltrump_server::hub::DEFAULT_CUT_WAIT.as_millis() as u64)]
    cut_wait_ms: u64,
    /// Deal every table from this seed (demonstrations and tests); by default each table
    /// draws its own from the operating system.
    #[arg(long, allow_hyphen_values = true)]
    seed: Option<u64>,
    /// End a table's game as a draw once this many deals have been played without a
    /// winner (1 to 1,000,000).
    #[arg(long, default_value_t = calltrump_server::hub::DEFAULT_MAX_DEALS as u64,
          value_parser = clap::value_parser!(u64).range(1..=MAX_DEALS))]
    max_deals: u64,
}

/// Arguments of `join`.
#[derive(clap::Args, Debug)]
pub struct JoinArgs {
    /// A seat link, as the server hands it out: http://HOST/table/ID#token=TOKEN.
    url: String,
    /// The bot to seat (`random`, `rules`, `easy` .. `expert`).
    #[arg(long, default_value = "medium")]
    level: String,
    /// The seed of the bot's decisions.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0)]
    seed: u64,
    /// Seconds to keep trying while the server is away.
    #[arg(long, default_value_t = 120)]
    patience_secs: u64,
}

/// The per-user data folder: `$XDG_DATA_HOME/calltrump`, or `~/.local/share/calltrump`.
pub(crate) fn default_data_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir).join("calltrump"));
    }
    let home =
        std::env::var_os("HOME").context("neither XDG_DATA_HOME nor HOME is set: give --data")?;
    Ok(PathBuf::from(home).join(".local/share/calltrump"))
}

/// Log lines on standard error, at `info` unless `RUST_LOG` says otherwise; coloured
/// only on a terminal, so that a log file holds plain text.
fn logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}

/// The address `--addr` names: `HOST:PORT`, the host a name or an IP address.
fn listen_address(addr: &str) -> Result<SocketAddr> {
    let advice = "give HOST:PORT, e.g. 127.0.0.1:8080, localhost:8080 or 0.0.0.0:8080";
    let mut found = addr
        .to_socket_addrs()
        .map_err(|error| anyhow::anyhow!("--addr {addr}: {error}; {advice}"))?;
    found
        .next()
        .with_context(|| format!("--addr {addr} names no address; {advice}"))
}

/// Runs the server until SIGINT or SIGTERM.
pub fn serve(args: &ServeArgs) -> Result<ExitCode> {
    logging();
    let database_url = match (&args.database, &args.data) {
        (Some(_), Some(_)) => bail!("give --data or --database, not both"),
        (Some(url), None) => url.clone(),
        (None, data) => {
            let dir = match data {
                Some(dir) => dir.clone(),
                None => default_data_dir()?,
            };
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create the data folder {}", dir.display()))?;
            format!("sqlite://{}", dir.join("calltrump.db").display())
        }
    };
    let config = ServerConfig {
        addr: listen_address(&args.addr)?,
        database_url,
        hub: HubConfig {
            seed: args.seed,
            max_deals: args.max_deals as usize,
            cut_wait: Duration::from_millis(args.cut_wait_ms),
            ..HubConfig::new(
                Duration::from_millis(args.bot_delay_ms),
                Duration::from_secs(args.grace_secs),
            )
        },
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(calltrump_server::serve(config))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Plays a seat with a bot until the game ends.
pub fn join(args: &JoinArgs) -> Result<ExitCode> {
    logging();
    let link = SeatLink::parse(&args.url).map_err(anyhow::Error::msg)?;
    let runtime = tokio::runtime::Runtime::new()?;
    let finished = runtime
        .block_on(play_seat(
            &link,
            &args.level,
            args.seed,
            Duration::from_secs(args.patience_secs),
        ))
        .context("join")?;
    let view = &finished.state.view;
    let times = match finished.reconnects {
        1 => "1 time".to_string(),
        n => format!("{n} times"),
    };
    println!(
        "game over: scores {} to {}, {} actions sent, reconnected {times}",
        view.scores[0], view.scores[1], finished.actions
    );
    Ok(ExitCode::SUCCESS)
}
