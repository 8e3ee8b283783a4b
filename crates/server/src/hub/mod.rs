//! The server's tables: a registry of running tables, each run by its own task
//! (`actor`) around its [`Session`]; a supervisor watches every task, and one that
//! panics is retired, its clients told, and the table restored from its log.

mod actor;
mod api;
mod caps;
mod cluster;
mod codec;
mod create;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use calltrump_engine::Record;
use calltrump_table::Entry;
use serde::Serialize;
use tokio::sync::{mpsc, oneshot};

use crate::metrics::Metrics;
pub(crate) use crate::model::random_hex;
use crate::model::TableStatus;
use crate::protocol::{CloseKind, ServerMessage};
pub(crate) use crate::session::player_name;
use crate::session::{Input, Session};
use crate::store::{Store, StoreError, StoredChat, StoredTable};
use actor::{Listeners, TableActor};
use codec::{corrupt, stored_table};

pub use crate::model::SeatRecord;
pub use crate::session::{
    hint_message, HubConfig, TableSummary, CHAT_MAX_CHARS, DEFAULT_ABANDON_OPEN, DEFAULT_CUT_WAIT,
    DEFAULT_KEEP_OVER, DEFAULT_MAX_DEALS, DEFAULT_MAX_LIVE_TABLES, DEFAULT_MAX_UNATTENDED,
    FILL_LEVEL,
};
pub use actor::{Command, Outbox};
pub use api::{CreatedTable, HubError, NewTable};
pub(crate) use caps::Capped;
pub(crate) use cluster::Relayed;
pub use cluster::{Roster, Route};
pub(crate) use create::PreparedTable;

/// How many times a table whose task panicked is restored from its log before it is
/// given up (a log that makes the task panic at every start would loop otherwise).
const MAX_RESTARTS: u32 = 3;

/// Shared by the hub and every table's task.
pub struct Shared {
    /// Where tables are kept.
    pub store: Arc<dyn Store>,
    /// How tables run.
    pub config: HubConfig,
    /// The counters of `/metrics`.
    pub metrics: Metrics,
    /// Every running table's mailbox and its lobby summary.
    tables: Mutex<HashMap<String, (mpsc::UnboundedSender<Command>, TableSummary)>>,
    next_conn: AtomicU64,
    /// How many times each table's task was restored after it panicked.
    restarts: Mutex<HashMap<String, u32>>,
    /// Hints worked out at once, over every table: one per core.
    hint_slots: Arc<tokio::sync::Semaphore>,
    /// Tables whose last write the store failed, with its error: paused until a write
    /// is kept.
    unsaved: Mutex<HashMap<String, String>>,
    /// Tables whose log did not replay at start: kept in the store as they are, never
    /// run, listed as damaged.
    damaged: Mutex<HashMap<String, DamagedTable>>,
    /// The sockets this node relays to another (a cluster's).
    relays: cluster::Relays,
    /// The nights whose task runs on this node.
    pub(crate) nights: Mutex<HashSet<String>>,
    /// Set once the hub shuts down: a cluster's node then takes nothing more over.
    stopping: AtomicBool,
    /// Who asked for each unattended table, for each address's share of them.
    unattended: caps::Unattended,
}

/// A table quarantined at start: its row or its log does not read back, or its log
/// does not replay. Its rows stay in the store as they were, for whoever runs the server
/// to look at.
#[derive(Clone, Debug, Serialize)]
pub struct DamagedTable {
    /// The id.
    pub id: String,
    /// The game (none if the table's row itself is damaged).
    pub game: Option<String>,
    /// The variant (none if the table's row itself is damaged).
    pub variant: Option<String>,
    /// Always `damaged`.
    pub status: &'static str,
    /// What is wrong with it.
    pub error: String,
}

/// The server's tables.
#[derive(Clone)]
pub struct Hub {
    shared: Arc<Shared>,
}

/// Milliseconds since 1970.
fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub(crate) fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Hub {
    /// A hub over `store` that resumes every table open or playing (a table whose game
    /// is over is loaded when someone asks for it).
    pub async fn start(store: Arc<dyn Store>, config: HubConfig) -> Result<Hub, HubError> {
        let hub = Hub {
            shared: Arc::new(Shared {
                store,
                config,
                metrics: Metrics::default(),
                tables: Mutex::new(HashMap::new()),
                next_conn: AtomicU64::new(1),
                restarts: Mutex::new(HashMap::new()),
                hint_slots: Arc::new(tokio::sync::Semaphore::new(
                    std::thread::available_parallelism().map_or(1, |n| n.get()),
                )),
                unsaved: Mutex::new(HashMap::new()),
                damaged: Mutex::new(HashMap::new()),
                relays: cluster::Relays::default(),
                nights: Mutex::default(),
                stopping: AtomicBool::new(false),
                unattended: caps::Unattended::default(),
            }),
        };
        // A cluster's node takes its tables as it joins (`join_cluster`): only those no
        // live node runs.
        let live = if hub.shared.store.cluster().is_some() {
            Vec::new()
        } else {
            hub.shared.store.live_tables().await?
        };
        for stored in live {
            let stored = match stored {
                Ok(stored) => stored,
                // Its row itself does not read back: nothing of it can run.
                Err(StoreError::Corrupt { table, message }) => {
                    hub.quarantine(&table, None, message);
                    continue;
                }
                Err(error) => return Err(error.into()),
            };
            match hub.resume(&stored).await {
                Ok(actor) => {
                    hub.spawn(actor);
                }
                Err(HubError::Store(StoreError::Corrupt { message, .. })) => {
                    let rules = &stored.settings.rules;
                    let game = (rules.game().to_string(), rules.variant().to_string());
                    hub.quarantine(&stored.id, Some(game), message)
                }
                Err(error) => return Err(error),
            }
        }
        Ok(hub)
    }

    /// The task of stored table `id`, from its log and chat.
    async fn resume(&self, stored: &StoredTable) -> Result<TableActor, HubError> {
        let log = self.shared.store.log(&stored.id).await?;
        let chat = self.shared.store.chat_history(&stored.id).await?;
        self.actor(stored, &log, chat)
    }

    /// Table `id` (its game and variant, if its row reads back), whose row or log does
    /// not read back or replay for `error`, is set aside: logged, listed as damaged,
    /// never run; its rows are left as they are.
    fn quarantine(&self, id: &str, game: Option<(String, String)>, error: String) {
        tracing::error!(
            table = %id,
            %error,
            "the table's saved state does not read back or replay: the table is quarantined (left in the database as it is; the other tables play)"
        );
        let (game, variant) = game.unzip();
        let damaged = DamagedTable {
            id: id.to_string(),
            game,
            variant,
            status: "damaged",
            error,
        };
        let mut quarantined = self.shared.damaged.lock().expect("never poisoned");
        quarantined.insert(id.to_string(), damaged);
    }

    /// The tables quarantined at start, by id.
    pub fn damaged(&self) -> Vec<DamagedTable> {
        let quarantined = self.shared.damaged.lock().expect("never poisoned");
        let mut list: Vec<DamagedTable> = quarantined.values().cloned().collect();
        list.sort_by(|a, b| a.id.cmp(&b.id));
        list
    }

    /// Whether table `id` was quarantined at start.
    pub fn is_damaged(&self, id: &str) -> bool {
        let quarantined = self.shared.damaged.lock().expect("never poisoned");
        quarantined.contains_key(id)
    }

    /// The shared state, for the HTTP layer.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// A table whose last write the store failed, and the error, if any is.
    pub fn unsaved(&self) -> Option<(String, String)> {
        let unsaved = self.shared.unsaved.lock().expect("never poisoned");
        unsaved
            .iter()
            .next()
            .map(|(id, error)| (id.clone(), error.clone()))
    }

    /// A fresh connection number.
    pub fn next_conn(&self) -> u64 {
        self.shared.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The task of a stored table, whose log is `log` and chat `chat`.
    fn actor(
        &self,
        stored: &StoredTable,
        log: &[Entry],
        chat: Vec<StoredChat>,
    ) -> Result<TableActor, HubError> {
        let session = Session::restore(
            stored.clone(),
            log,
            chat,
            self.shared.config.clone(),
            (Instant::now(), now_millis()),
            Box::new(random_hex),
        )
        .map_err(|e| corrupt(&stored.id, e.to_string()))?;
        Ok(TableActor::new(&self.shared, session))
    }

    /// Runs `actor`'s task, unless its table runs already; the table's mailbox.
    fn spawn(&self, actor: TableActor) -> mpsc::UnboundedSender<Command> {
        self.spawn_new(actor).0
    }

    /// As [`Hub::spawn`]; and whether the task is a new one (not the table's running
    /// task, which another caller started meanwhile).
    fn spawn_new(&self, actor: TableActor) -> (mpsc::UnboundedSender<Command>, bool) {
        let mut tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        if let Some((tx, _)) = tables.get(actor.id()) {
            return (tx.clone(), false);
        }
        let (tx, rx) = mpsc::unbounded_channel();
        tables.insert(actor.id().to_string(), (tx.clone(), actor.summary()));
        self.shared.metrics.tables.fetch_add(1, Ordering::Relaxed);
        let (id, listeners, stop) = (
            actor.id().to_string(),
            Arc::clone(&actor.listeners),
            Arc::clone(&actor.stop),
        );
        let task = tokio::spawn(actor.run(rx, tx.clone()));
        // The supervisor: a task that panicked left its table in the registry and its
        // connections waiting; it is retired, they are told, and it is restored.
        let hub = self.clone();
        let mailbox = tx.clone();
        tokio::spawn(async move {
            if let Err(error) = task.await {
                stop.store(true, Ordering::Relaxed);
                if error.is_panic() {
                    tracing::error!(table = %id, "the table's task panicked");
                    hub.table_failed(&id, &mailbox, &listeners).await;
                }
            }
        });
        (tx, true)
    }

    /// Retires table `id`, whose task (at `mailbox`) panicked, from the registry and the
    /// metrics; restores it from its log if that replays (a few times at most), and
    /// tells its connections whether to come again.
    async fn table_failed(
        &self,
        id: &str,
        mailbox: &mpsc::UnboundedSender<Command>,
        listeners: &Listeners,
    ) {
        {
            let mut tables = self
                .shared
                .tables
                .lock()
                .expect("the table map is never poisoned");
            if tables
                .get(id)
                .is_some_and(|(tx, _)| tx.same_channel(mailbox))
            {
                tables.remove(id);
                self.shared.metrics.tables.fetch_sub(1, Ordering::Relaxed);
            }
        }
        let outboxes: Vec<Outbox> = listeners
            .lock()
            .map(|mut l| l.drain().map(|(_, outbox)| outbox).collect())
            .unwrap_or_default();
        self.shared
            .metrics
            .connections
            .fetch_sub(outboxes.len() as u64, Ordering::Relaxed);
        let restarts = {
            let mut restarts = self.shared.restarts.lock().expect("never poisoned");
            let count = restarts.entry(id.to_string()).or_default();
            *count += 1;
            *count
        };
        let restored = if restarts <= MAX_RESTARTS {
            match self.restore(id).await {
                Ok(restored) => restored,
                Err(error) => {
                    tracing::error!(table = %id, %error, "the table cannot be restored");
                    false
                }
            }
        } else {
            tracing::error!(table = %id, "the table failed {restarts} times: it is given up");
            false
        };
        let closing = if restored {
            tracing::info!(table = %id, "the table was restored from its log");
            ServerMessage::closing(CloseKind::Retry, "the table restarts")
        } else {
            ServerMessage::closing(
                CloseKind::TableGone,
                "the table broke and cannot be restored",
            )
        };
        for outbox in outboxes {
            let _ = outbox.send(closing.clone());
        }
    }

    /// Runs table `id` again from the store, if it is live there; whether it runs.
    async fn restore(&self, id: &str) -> Result<bool, HubError> {
        let Some(stored) = self.shared.store.table(id).await? else {
            return Ok(false);
        };
        if !stored.status.is_live() && stored.status != TableStatus::Over {
            return Ok(false);
        }
        let actor = self.resume(&stored).await?;
        self.spawn(actor);
        Ok(true)
    }

    /// The mailbox of table `id` for a new connection: a table running, or one whose
    /// game is over, loaded again from the store. None for an unknown or ended table.
    pub async fn open(&self, id: &str) -> Result<Option<mpsc::UnboundedSender<Command>>, HubError> {
        if let Some(mailbox) = self.mailbox(id) {
            return Ok(Some(mailbox));
        }
        if self.is_damaged(id) {
            return Err(HubError::Damaged(id.to_string()));
        }
        let Some(stored) = self.shared.store.table(id).await? else {
            return Ok(None);
        };
        if stored.status != TableStatus::Over {
            return Ok(None);
        }
        let actor = self.resume(&stored).await?;
        Ok(Some(self.spawn(actor)))
    }

    /// Whether the hub is shutting down (a cluster's node takes nothing more over).
    pub fn stopping(&self) -> bool {
        self.shared.stopping.load(Ordering::Relaxed)
    }

    /// The mailbox of table `id`.
    pub fn mailbox(&self, id: &str) -> Option<mpsc::UnboundedSender<Command>> {
        let tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        tables.get(id).map(|(tx, _)| tx.clone())
    }

    /// After account `id` was deleted (the store renamed its seats already): each of
    /// `tables` in memory renames its seats too, and tells its people.
    pub fn forget_account(&self, id: &str, tables: &[StoredTable]) {
        for table in tables.iter().filter(|t| t.status.is_live()) {
            if let Some(mailbox) = self.mailbox(&table.id) {
                let _ = mailbox.send(Command::Input(Input::AccountGone {
                    account: id.to_string(),
                }));
            }
        }
    }

    /// Starts table `id`'s game if it waits for players: bots fill the open seats.
    pub fn start_table(&self, id: &str) {
        if let Some(mailbox) = self.mailbox(id) {
            let _ = mailbox.send(Command::Input(Input::Start));
        }
    }

    /// The status of table `id`, from memory or the store; none for an unknown table.
    pub async fn status(&self, id: &str) -> Result<Option<TableStatus>, HubError> {
        let running = {
            let tables = self
                .shared
                .tables
                .lock()
                .expect("the table map is never poisoned");
            tables.get(id).map(|(_, summary)| summary.status)
        };
        match running {
            Some(status) => Ok(Some(status)),
            None => Ok(self.shared.store.table(id).await?.map(|t| t.status)),
        }
    }

    /// The tables the lobby shows: those waiting for players, and those in play.
    pub fn list(&self) -> Vec<TableSummary> {
        let tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        let mut list: Vec<TableSummary> = tables
            .values()
            .map(|(_, summary)| summary.clone())
            .filter(|s| s.status.is_live())
            .collect();
        list.sort_by(|a, b| a.id.cmp(&b.id));
        list
    }

    /// The record of table `id` as every player may see it now: from its task while it
    /// runs, else from the store (whole, for a table over or ended).
    pub async fn record(&self, id: &str) -> Result<Record, HubError> {
        if let Some(mailbox) = self.mailbox(id) {
            let (reply, answer) = oneshot::channel();
            if mailbox.send(Command::Record { reply }).is_ok() {
                if let Ok(record) = answer.await {
                    return Ok(record);
                }
            }
            // The task left meanwhile: the store has the table.
        }
        if self.is_damaged(id) {
            return Err(HubError::Damaged(id.to_string()));
        }
        let stored = self
            .shared
            .store
            .table(id)
            .await?
            .ok_or_else(|| HubError::NoTable(id.to_string()))?;
        let log = self.shared.store.log(id).await?;
        let table = stored_table(&stored, &log)?;
        Ok(match stored.status {
            TableStatus::Over => table.record().clone(),
            TableStatus::Ended => table.ended_record(),
            TableStatus::Open | TableStatus::Playing => table.public_record(),
        })
    }

    /// Asks every table to close its connections, and waits until they have.
    pub async fn shutdown(&self) {
        self.shared.stopping.store(true, Ordering::Relaxed);
        // A cluster's nights go first: another node takes them at once, and their tasks
        // here stop at their next look.
        if let Some(cluster) = self.shared.store.cluster() {
            if let Err(error) = cluster.release_nights().await {
                tracing::warn!(%error, "the nights' leases could not be let go: they lapse");
            }
        }
        let mailboxes: Vec<_> = {
            let tables = self
                .shared
                .tables
                .lock()
                .expect("the table map is never poisoned");
            tables.values().map(|(tx, _)| tx.clone()).collect()
        };
        for mailbox in mailboxes {
            let (done, finished) = oneshot::channel();
            if mailbox.send(Command::Shutdown { done }).is_ok() {
                let _ = finished.await;
            }
        }
    }
}
