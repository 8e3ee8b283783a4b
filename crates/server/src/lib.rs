//! calltrump's table server: shared tables over WebSocket for friends and bots, every
//! action kept in the database (SQLite or PostgreSQL) before anyone hears of it, tables
//! resumed after a restart.
//!
//! - [`store`]: where tables live, behind the [`store::Store`] trait (SQLite by default,
//!   or PostgreSQL).
//! - [`session`]: one table as a synchronous state machine, `handle(input, now) ->
//!   effects`, that owns its [`calltrump_table::Table`]; every message with cards in it
//!   is made by the table's per-recipient choke point.
//! - [`hub`]: the registry of tables, each run by a task that carries out its
//!   session's effects (persist, then publish), watched by a supervisor.
//! - [`night`]: the alexa Bid Euchre night, a table per set.
//! - [`migrate`]: a SQLite database copied into PostgreSQL (`calltrump migrate`).
//! - `game_analysis`: the analysis of a finished game (`GET /api/tables/{id}/analysis`).
//! - [`accounts`]: people's accounts, sign-in sessions and their limits.
//! - [`lobby`]: who is online, and a host's invitations by name.
//! - [`model`]: the server's typed vocabulary (a table's status, who sits at a seat).
//! - [`http`]: the routes and the WebSocket endpoint; [`protocol`] its messages
//!   (docs/table-protocol.md).
//! - [`limits`], [`site`]: the edge: connection caps and timeouts (served by the accept
//!   loop of `listen`), rates per client address, the names the server answers to.

pub mod accounts;
pub mod client;
mod connection;
mod game_analysis;
mod games;
pub mod http;
pub mod hub;
pub mod limits;
mod listen;
pub mod loadtest;
pub mod lobby;
pub mod metrics;
pub mod migrate;
pub mod model;
pub mod names;
pub mod night;
pub mod outbox;
mod pages;
mod players;
pub mod protocol;
mod rated;
pub mod rating;
mod ready;
mod relay;
pub mod replay;
mod request;
mod reserve;
pub mod session;
mod sign_ins;
pub mod site;
mod socket;
mod startup;
pub mod store;

use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

pub use hub::{Hub, HubConfig};
pub use limits::Limits;
use limits::{Connections, RateLimit, Refusals};
pub use site::PublicUrl;
use site::Site;
use store::{DatabaseOptions, NodeOptions, PostgresStore, SqliteStore};

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The database: `sqlite://PATH` or `postgres://USER@HOST:PORT/DB`.
    pub database_url: String,
    /// The database's connection pool.
    pub database: DatabaseOptions,
    /// The tables' pacing, grace and deal seed.
    pub hub: HubConfig,
    /// The caps, timeouts and rates of the server's edge.
    pub limits: Limits,
    /// The address people reach the server at (behind a proxy): links are built from
    /// it, and pages of its origin may act. `None`: only loopback and the address
    /// listened on.
    pub public_url: Option<PublicUrl>,
    /// On PostgreSQL, this node of the cluster: its name (`None`: a random one), the
    /// address the others reach it at, and its leases' length.
    pub node: NodeConfig,
}

/// A node of a cluster (several servers on one PostgreSQL database).
#[derive(Clone, Debug)]
pub struct NodeConfig {
    /// The node's name, unique in the cluster; `None`: `node-` and random hex.
    pub name: Option<String>,
    /// Where the other nodes reach this one (`HOST:PORT`) to relay sockets to it;
    /// `None`: the address listened on (loopback if that is every address).
    pub advertise: Option<String>,
    /// How long a lease lasts unrenewed: a dead node's tables are taken over after it.
    pub lease: Duration,
}

impl Default for NodeConfig {
    fn default() -> Self {
        NodeConfig {
            name: None,
            advertise: None,
            lease: Duration::from_secs(5),
        }
    }
}

impl ServerConfig {
    /// A server at `addr` on the database `database_url`, the edge's limits at their
    /// defaults and no public URL.
    pub fn new(addr: SocketAddr, database_url: impl Into<String>, hub: HubConfig) -> Self {
        ServerConfig {
            addr,
            database_url: database_url.into(),
            database: DatabaseOptions::default(),
            hub,
            limits: Limits::default(),
            public_url: None,
            node: NodeConfig::default(),
        }
    }
}

/// What the edge's routes and accept loop share.
pub(crate) struct Edge {
    pub(crate) limits: Limits,
    pub(crate) site: Site,
    pub(crate) connections: Arc<Connections>,
    /// Creations of tables and nights per client address.
    pub(crate) creates: RateLimit,
    /// Replays asked for per client address.
    pub(crate) replays: RateLimit,
    /// Chat lines per client address, over all its sockets.
    pub(crate) chats: RateLimit,
    /// Chat lines of the whole server.
    pub(crate) all_chats: RateLimit<()>,
    /// Sign-in attempts per name and per client address.
    pub(crate) sign_ins: sign_ins::SignInLimits,
    pub(crate) refusals: Refusals,
    /// The probes of `/readyz`; none for a store given by the caller (always ready).
    pub(crate) readiness: Option<ready::Readiness>,
    /// The accounts with a live WebSocket on this node.
    pub(crate) presence: Arc<lobby::Presence>,
    /// The cluster's key, with which relayed sockets' client addresses are signed and
    /// checked; none on a store of one server.
    pub(crate) relay_key: Option<Arc<relay::RelayKey>>,
}

/// A running server.
pub struct RunningServer {
    /// The address it listens on (the port chosen, if 0 was asked).
    pub addr: SocketAddr,
    hub: Hub,
    shutdown: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    /// The database's lock, let go when the server stops or is dropped.
    lock: Option<startup::DatabaseLock>,
}

impl RunningServer {
    /// Stops accepting, closes every connection with a reason, and waits.
    pub async fn stop(self) -> std::io::Result<()> {
        let _ = self.shutdown.send(());
        self.hub.shutdown().await;
        let served = self.task.await.unwrap_or(Ok(()));
        drop(self.lock);
        served
    }
}

/// Opens the database, resumes its tables and starts listening. Refused: a SQLite
/// database another server runs on (its lock, `PATH.lock`, is held for the server's
/// life), a database file that is empty or another program's, and a PostgreSQL database
/// holding other tables than calltrump's. On PostgreSQL the server is a node of a
/// cluster: it runs the tables it creates and those no live node runs.
pub async fn start(
    config: ServerConfig,
) -> Result<RunningServer, Box<dyn std::error::Error + Send + Sync>> {
    // The port first: a second server on the same address and data is told of the port.
    let listener = bind(config.addr).await?;
    let url = &config.database_url;
    if startup::is_postgres(url) {
        let timeout = config.database.connect_timeout();
        startup::check_postgres(url, timeout).await?;
        let name = config
            .node
            .name
            .clone()
            .unwrap_or_else(|| format!("node-{}", &hub::random_hex()[..8]));
        let node = NodeOptions {
            name,
            lease: config.node.lease,
        };
        let store = PostgresStore::open_node(url, config.database, node)
            .await
            .map_err(|e| format!("the database {}: {e}", startup::shown_url(url)))?;
        let readiness = ready::Readiness::postgres(url)?;
        return launch(config, Arc::new(store), (None, Some(readiness)), listener).await;
    }
    let database = match startup::database_path(&config.database_url) {
        Some(path) => {
            let lock = startup::lock(&path)?;
            startup::check_database(&path, &config.database_url).await?;
            (
                Some(lock),
                Some(ready::Readiness::new(&config.database_url, &path)?),
            )
        }
        None => (None, None),
    };
    let store = SqliteStore::open_with(&config.database_url, config.database).await?;
    launch(config, Arc::new(store), database, listener).await
}

/// As [`start`], on `store` instead of the database of `config.database_url`.
pub async fn start_with_store(
    config: ServerConfig,
    store: Arc<dyn store::Store>,
) -> Result<RunningServer, Box<dyn std::error::Error + Send + Sync>> {
    let listener = bind(config.addr).await?;
    launch(config, store, (None, None), listener).await
}

async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener, String> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|error| listen_error(addr, &error))
}

/// Starts a server on `store`, holding the database's lock and probing it for
/// `/readyz` when it is one of [`start`]'s; on a shared store, as a node of its cluster.
async fn launch(
    config: ServerConfig,
    store: Arc<dyn store::Store>,
    (lock, readiness): (Option<startup::DatabaseLock>, Option<ready::Readiness>),
    listener: tokio::net::TcpListener,
) -> Result<RunningServer, Box<dyn std::error::Error + Send + Sync>> {
    // Games that ended while the server stopped before rating them.
    rated::rate_missed(&*store).await?;
    // Accounts made before names' skeletons were kept get theirs.
    names::fill_name_skeletons(&*store).await?;
    let relay_key = match store.cluster() {
        Some(cluster) => Some(Arc::new(relay::RelayKey::new(cluster.secret().await?))),
        None => None,
    };
    let cluster_store = Arc::clone(&store);
    let hub = Hub::start(store, config.hub).await?;
    night::resume_nights(&hub, config.node.lease).await?;
    let addr = listener.local_addr()?;
    let advertise = config.node.advertise.clone().unwrap_or_else(|| {
        let ip = match addr.ip() {
            ip if ip.is_unspecified() && addr.is_ipv4() => Ipv4Addr::LOCALHOST.into(),
            ip if ip.is_unspecified() => Ipv6Addr::LOCALHOST.into(),
            ip => ip,
        };
        SocketAddr::new(ip, addr.port()).to_string()
    });
    let presence = Arc::<lobby::Presence>::default();
    let roster: Arc<dyn hub::Roster> = presence.clone();
    hub.join_cluster(advertise, config.node.lease, roster)
        .await?;
    if let (Some(key), Some(cluster)) = (&relay_key, cluster_store.cluster()) {
        // The clock relays are signed on, and which peers are nodes, read before the
        // first connection and then with every round of the leases.
        key.survey(cluster).await?;
        let key = Arc::clone(key);
        hub.repeat(
            config.node.lease / 5,
            "the cluster's clock and nodes could not be read",
            move |_| {
                let (key, store) = (Arc::clone(&key), Arc::clone(&cluster_store));
                async move {
                    match store.cluster() {
                        Some(cluster) => key.survey(cluster).await,
                        None => Ok(()),
                    }
                }
            },
        );
    }
    let edge = Arc::new(Edge {
        creates: RateLimit::new(config.limits.creates_per_minute, config.limits.create_burst),
        replays: RateLimit::new(config.limits.replays_per_minute, limits::REPLAY_BURST),
        chats: RateLimit::new(config.limits.chat_lines_per_minute, limits::CHAT_BURST),
        all_chats: RateLimit::new(
            config.limits.chat_lines_per_minute_total,
            limits::CHAT_BURST_TOTAL,
        ),
        sign_ins: sign_ins::SignInLimits::new(
            config.limits.sign_ins_per_name,
            config.limits.sign_ins_per_address,
        ),
        limits: config.limits,
        site: Site {
            public: config.public_url,
            listen: addr,
        },
        connections: Arc::default(),
        refusals: Refusals::default(),
        readiness,
        presence,
        relay_key,
    });
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = http::router(hub.clone(), Arc::clone(&edge));
    let task = tokio::spawn(listen::serve(listener, app, edge, async {
        let _ = stopped.await;
    }));
    Ok(RunningServer {
        addr,
        hub,
        shutdown,
        task,
        lock,
    })
}

/// Why the server cannot listen at `addr`, and what to do about it.
fn listen_error(addr: SocketAddr, error: &std::io::Error) -> String {
    let advice = match error.kind() {
        std::io::ErrorKind::AddrInUse => {
            "; another program (another calltrump serve?) listens there: choose another port, e.g. --addr 127.0.0.1:8081"
        }
        std::io::ErrorKind::PermissionDenied => {
            "; ports below 1024 need privileges: choose a port above 1024, e.g. --addr 127.0.0.1:8080"
        }
        std::io::ErrorKind::AddrNotAvailable => {
            "; that address is not one of this machine's: use 127.0.0.1 (this machine only) or 0.0.0.0 (every network)"
        }
        _ => "",
    };
    format!("cannot listen at {addr}: {error}{advice}")
}

/// Runs a server until SIGINT or SIGTERM, then shuts it down gracefully.
pub async fn serve(config: ServerConfig) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = start(config).await?;
    let addr = server.addr;
    if addr.ip().is_unspecified() {
        // 0.0.0.0 is no address to open: this machine is at loopback, others at its
        // own name or address on their network.
        let here = SocketAddr::new(
            if addr.is_ipv4() {
                Ipv4Addr::LOCALHOST.into()
            } else {
                Ipv6Addr::LOCALHOST.into()
            },
            addr.port(),
        );
        println!("calltrump is serving at http://{here}/");
        println!(
            "other machines: http://THIS-MACHINE:{}/ (this machine's IP address on their network; to be reached by a name, give --public-url)",
            addr.port()
        );
    } else {
        println!("calltrump is serving at http://{addr}/");
    }
    tracing::info!("listening at {addr}");
    shutdown_signal().await;
    tracing::info!("shutting down");
    let stopping = server.stop();
    // Connections get their reason at once; a stuck one does not hold the exit.
    let _ = tokio::time::timeout(Duration::from_secs(10), stopping).await;
    Ok(())
}

async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                .expect("a SIGTERM handler can be installed");
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}
