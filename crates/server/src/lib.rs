//! calltrump's table server: shared tables over WebSocket for friends and bots, every
//! action kept in SQLite before anyone hears of it, tables resumed after a restart.
//!
//! - [`store`]: where tables live, behind the [`store::Store`] trait (SQLite by default).
//! - [`hub`]: one task per table owns its [`calltrump_table::Table`]; every message
//!   with cards in it is made by the table's per-recipient choke point.
//! - [`night`]: the alexa Bid Euchre night, a table per set.
//! - [`http`]: the routes and the WebSocket endpoint; [`protocol`] its messages
//!   (docs/table-protocol.md).

pub mod client;
pub mod http;
pub mod hub;
pub mod metrics;
pub mod night;
mod pages;
pub mod protocol;
pub mod replay;
pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;

pub use hub::{Hub, HubConfig};
use store::SqliteStore;

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The database (`sqlite://PATH`).
    pub database_url: String,
    /// The tables' pacing, grace and deal seed.
    pub hub: HubConfig,
}

/// A running server.
pub struct RunningServer {
    /// The address it listens on (the port chosen, if 0 was asked).
    pub addr: SocketAddr,
    hub: Hub,
    shutdown: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl RunningServer {
    /// Stops accepting, closes every connection with a reason, and waits.
    pub async fn stop(self) -> std::io::Result<()> {
        let _ = self.shutdown.send(());
        self.hub.shutdown().await;
        self.task.await.unwrap_or(Ok(()))
    }
}

/// Opens the database, resumes its tables and starts listening.
pub async fn start(
    config: ServerConfig,
) -> Result<RunningServer, Box<dyn std::error::Error + Send + Sync>> {
    let store = SqliteStore::open(&config.database_url).await?;
    let hub = Hub::start(Arc::new(store), config.hub).await?;
    night::resume_nights(&hub).await?;
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    // Small messages go out at once: Nagle's wait for an acknowledgement would hold a
    // card behind the previous message.
    let listener = listener.tap_io(|socket| {
        if let Err(error) = socket.set_nodelay(true) {
            tracing::warn!(%error, "TCP_NODELAY could not be set");
        }
    });
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = http::router(hub.clone());
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(RunningServer {
        addr,
        hub,
        shutdown,
        task,
    })
}

/// Runs a server until SIGINT or SIGTERM, then shuts it down gracefully.
pub async fn serve(config: ServerConfig) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = start(config).await?;
    println!("calltrump is serving at http://{}/", server.addr);
    tracing::info!(addr = %server.addr, "listening");
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
