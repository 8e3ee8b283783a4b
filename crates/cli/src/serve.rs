//! `calltrump serve` (the table server) and `calltrump join` (a bot at a seat link).

use std::io::IsTerminal;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use calltrump_server::client::{play_seat, SeatLink};
use calltrump_server::store::{DatabaseOptions, SqliteSync};
use calltrump_server::{HubConfig, Limits, NodeConfig, PublicUrl, ServerConfig};

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
    /// The database, instead of --data: `sqlite://PATH`, or PostgreSQL as
    /// `postgres://USER[:PASSWORD]@HOST:PORT/DB` (the database must exist; calltrump
    /// makes its tables in it, and refuses one holding another program's tables).
    #[arg(long)]
    database: Option<String>,
    /// Connections to the database at most (default: 4 for SQLite, 10 for PostgreSQL).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    database_pool: Option<u32>,
    /// Seconds to wait for a database connection (at start, and for a free one of the
    /// pool) before giving up.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    database_connect_timeout_secs: u64,
    /// On PostgreSQL, this node's name in the cluster of servers sharing the database
    /// (letters, digits, `-`, `_`, `.`; default: `node-` and random hex).
    #[arg(long, value_parser = node_name)]
    node: Option<String>,
    /// On PostgreSQL, where the other nodes reach this one (`HOST:PORT`) to relay the
    /// sockets of its tables (default: the --addr listened on, loopback for 0.0.0.0).
    #[arg(long)]
    advertise: Option<String>,
    /// On PostgreSQL, seconds a node's lease on a table lasts unrenewed (renewed every
    /// fifth of it): a dead node's tables are taken over after it.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=600))]
    lease_secs: u64,
    /// When a SQLite commit is on the disk: `full` (each action on the disk before
    /// anyone is told: it survives a power loss) or `normal` (on the disk at the next
    /// checkpoint: faster, and a power loss may lose the last actions told).
    #[arg(long, value_enum, default_value = "full")]
    sqlite_synchronous: SqliteSynchronous,
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
    /// The address people open, behind a proxy (`https://cards.example.org`): links are
    /// built from it and its pages may act. Without it the server answers only to
    /// loopback names and the address it listens on (any IP address at 0.0.0.0): a page
    /// reaching it by another name (DNS rebinding) is refused.
    #[arg(long)]
    public_url: Option<String>,
    /// Connections (HTTP and WebSocket) open at once; more are answered 503.
    #[arg(long, default_value_t = Limits::default().max_connections as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_connections: u64,
    /// Connections open at once from one client address (an IPv6 client by its /64);
    /// 0 for no cap (behind a proxy, which every client shares).
    #[arg(long, default_value_t = Limits::default().max_connections_per_address)]
    max_connections_per_address: usize,
    /// Seconds a client has to send a request's headers (and an idle keep-alive
    /// connection waits for the next request).
    #[arg(long, default_value_t = Limits::default().header_timeout.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout_secs: u64,
    /// Seconds a connection may stay silent both ways before it is closed.
    #[arg(long, default_value_t = Limits::default().idle_timeout.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    idle_timeout_secs: u64,
    /// Tables and nights one client address may create per minute (0: no limit); past
    /// it, 429 with Retry-After.
    #[arg(long, default_value_t = Limits::default().creates_per_minute)]
    creates_per_minute: u32,
    /// Tables and nights one client address may create at once after a quiet while.
    #[arg(long, default_value_t = Limits::default().create_burst,
          value_parser = clap::value_parser!(u32).range(1..))]
    create_burst: u32,
    /// Replays (`POST /api/replay`, `GET /api/tables/{id}/replay`) one client address
    /// may ask for per minute, 20 at once (0: no limit); past it, 429 with Retry-After.
    #[arg(long, default_value_t = Limits::default().replays_per_minute)]
    replays_per_minute: u32,
    /// Sign-in attempts on one account's name from one client address per minute (0: no
    /// limit); past it, 429 with Retry-After (other addresses are not held back).
    #[arg(long, default_value_t = Limits::default().sign_ins_per_name)]
    sign_ins_per_name: u32,
    /// Sign-in attempts and accounts created from one client address per minute (0: no
    /// limit); past it, 429 with Retry-After.
    #[arg(long, default_value_t = Limits::default().sign_ins_per_address)]
    sign_ins_per_address: u32,
    /// Chat lines one client address may send per minute over all its sockets (0: no
    /// limit; 10 at once after a quiet while).
    #[arg(long, default_value_t = Limits::default().chat_lines_per_minute)]
    chat_lines_per_minute: u32,
    /// Chat lines the whole server takes per minute from everyone together (0: no
    /// limit; 100 at once after a quiet while), on top of the per-address rate.
    #[arg(long, default_value_t = Limits::default().chat_lines_per_minute_total)]
    chat_lines_per_minute_total: u32,
    /// Seconds a client has to send a request's whole body, however it trickles in
    /// (408 past it).
    #[arg(long, default_value_t = Limits::default().body_timeout.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    body_timeout_secs: u64,
    /// Connections over the connection caps that are given a second to show they are a
    /// health probe (/healthz, /readyz, /metrics), then served; 0: refused at once.
    #[arg(long, default_value_t = Limits::default().probe_reserve)]
    probe_reserve: usize,
    /// Tables of bots alone that may play with nobody watching, at once, when their
    /// host asks for it ("unattended"); other tables of bots play only while watched.
    #[arg(long, default_value_t = calltrump_server::hub::DEFAULT_MAX_UNATTENDED)]
    max_unattended_tables: usize,
    /// Of those, how many one client address may have at once (past it, 429); by
    /// default a quarter of --max-unattended-tables, at least 1.
    #[arg(long)]
    max_unattended_tables_per_address: Option<usize>,
    /// Tables open or in play that the server holds at once; past it, a new table or
    /// night is answered 503 saying why (a night's next set still opens).
    #[arg(long, default_value_t = calltrump_server::hub::DEFAULT_MAX_LIVE_TABLES,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_live_tables: usize,
    /// A header naming the client's address, set by a proxy in front (X-Real-IP): the
    /// limits on creating, signing in and chat count by it. Give it only behind a proxy
    /// that sets it.
    #[arg(long)]
    client_address_header: Option<String>,
}

/// `--sqlite-synchronous`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum SqliteSynchronous {
    /// `synchronous=FULL`.
    Full,
    /// `synchronous=NORMAL`.
    Normal,
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

/// `--node`: a name of 1 to 64 letters, digits, `-`, `_` or `.`.
fn node_name(text: &str) -> Result<String, String> {
    let fits = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if text.is_empty() || text.len() > 64 || !text.chars().all(fits) {
        return Err(format!(
            "{text:?}: a node's name is 1 to 64 letters, digits, '-', '_' or '.' (e.g. --node web-1)"
        ));
    }
    Ok(text.to_string())
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
                None => calltrump_play::save::default_data_dir()?,
            };
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create the data folder {}", dir.display()))?;
            format!("sqlite://{}", dir.join("calltrump.db").display())
        }
    };
    let public_url = match &args.public_url {
        Some(url) => Some(PublicUrl::parse(url).map_err(anyhow::Error::msg)?),
        None => None,
    };
    let limits = Limits {
        max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
        max_connections_per_address: args.max_connections_per_address,
        header_timeout: Duration::from_secs(args.header_timeout_secs),
        idle_timeout: Duration::from_secs(args.idle_timeout_secs),
        body_timeout: Duration::from_secs(args.body_timeout_secs),
        creates_per_minute: args.creates_per_minute,
        create_burst: args.create_burst,
        replays_per_minute: args.replays_per_minute,
        sign_ins_per_name: args.sign_ins_per_name,
        sign_ins_per_address: args.sign_ins_per_address,
        chat_lines_per_minute: args.chat_lines_per_minute,
        chat_lines_per_minute_total: args.chat_lines_per_minute_total,
        probe_reserve: args.probe_reserve,
        client_address_header: args.client_address_header.clone(),
    };
    let config = ServerConfig {
        addr: listen_address(&args.addr)?,
        database_url,
        database: DatabaseOptions {
            sqlite_sync: match args.sqlite_synchronous {
                SqliteSynchronous::Full => SqliteSync::Full,
                SqliteSynchronous::Normal => SqliteSync::Normal,
            },
            max_connections: args.database_pool,
            connect_timeout: Some(Duration::from_secs(args.database_connect_timeout_secs)),
        },
        limits,
        public_url,
        node: NodeConfig {
            name: args.node.clone(),
            advertise: args.advertise.clone(),
            lease: Duration::from_secs(args.lease_secs),
        },
        hub: HubConfig {
            seed: args.seed,
            max_deals: args.max_deals as usize,
            cut_wait: Duration::from_millis(args.cut_wait_ms),
            max_unattended: args.max_unattended_tables,
            max_unattended_per_address: args.max_unattended_tables_per_address,
            max_live_tables: args.max_live_tables,
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
