//! The hub as one node of a cluster on a shared store: its leases renewed, the tables of
//! dead nodes taken over, and where a table a socket asks for runs.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc};

use super::{Command, Hub, HubError, TableSummary};
use crate::model::TableStatus;
use crate::store::{Cluster, Owner, StoreError};

/// Who is online on this node, as the cluster's rounds publish it, and the other nodes'
/// as they read it back.
pub trait Roster: Send + Sync {
    /// The names of the accounts online on this node.
    fn here(&self) -> Vec<String>;
    /// The names online on the other live nodes, as just read.
    fn elsewhere(&self, names: Vec<String>);
}

/// Where a table runs, for a socket that asks for it.
pub enum Route {
    /// On this node: its task's mailbox.
    Here(mpsc::UnboundedSender<Command>),
    /// On another live node of the cluster: the socket is relayed to it.
    There(Owner),
}

/// The tables whose sockets this node relays, each with the node it relays them to and
/// how many; and the news of a table that moved, which ends its relays (the clients
/// come again to the table's new node).
pub(super) struct Relays {
    relayed: Mutex<HashMap<String, (String, usize)>>,
    moved: broadcast::Sender<String>,
}

impl Default for Relays {
    fn default() -> Self {
        Relays {
            relayed: Mutex::default(),
            moved: broadcast::channel(256).0,
        }
    }
}

/// A socket relayed to another node, counted while it lives.
pub(crate) struct Relayed {
    hub: Hub,
    table: String,
    /// Raised when the table moves away from the node relayed to.
    pub(crate) moved: broadcast::Receiver<String>,
}

impl Drop for Relayed {
    fn drop(&mut self) {
        let mut relayed = self
            .hub
            .shared
            .relays
            .relayed
            .lock()
            .expect("never poisoned");
        if let Some((_, count)) = relayed.get_mut(&self.table) {
            *count -= 1;
            if *count == 0 {
                relayed.remove(&self.table);
            }
        }
    }
}

impl Hub {
    /// Counts a socket of table `id` relayed to `owner`, until the value is dropped.
    pub(crate) fn relaying(&self, id: &str, owner: &Owner) -> Relayed {
        let relays = &self.shared.relays;
        let moved = relays.moved.subscribe();
        let mut relayed = relays.relayed.lock().expect("never poisoned");
        let entry = relayed
            .entry(id.to_string())
            .or_insert_with(|| (owner.node.clone(), 0));
        entry.0.clone_from(&owner.node);
        entry.1 += 1;
        Relayed {
            hub: self.clone(),
            table: id.to_string(),
            moved,
        }
    }

    /// The store's leases, when several nodes share it.
    fn cluster(&self) -> Option<&dyn Cluster> {
        self.shared.store.cluster()
    }

    /// Where table `id` runs for a new connection: a table running here; one running on
    /// another live node; or one without a live node (its node died, or its game is
    /// over and nobody has it in memory), taken here. None for an unknown or ended
    /// table.
    pub async fn route(&self, id: &str) -> Result<Option<Route>, HubError> {
        let Some(cluster) = self.cluster() else {
            return Ok(self.open(id).await?.map(Route::Here));
        };
        if let Some(mailbox) = self.mailbox(id) {
            return Ok(Some(Route::Here(mailbox)));
        }
        if self.is_damaged(id) {
            return Err(HubError::Damaged(id.to_string()));
        }
        if let Some(owner) = cluster.owner(id).await? {
            return Ok(Some(Route::There(owner)));
        }
        let Some(stored) = self.shared.store.table(id).await? else {
            return Ok(None);
        };
        if stored.status == TableStatus::Ended {
            return Ok(None);
        }
        if !cluster.claim(id).await? {
            // Another node took it meanwhile.
            return Ok(cluster.owner(id).await?.map(Route::There));
        }
        // The log is read after the lease is held: it holds every write of the last owner.
        let actor = self.resume(&stored).await?;
        let (mailbox, new) = self.spawn_new(actor);
        if new && stored.status.is_live() {
            self.shared
                .metrics
                .takeovers
                .fetch_add(1, Ordering::Relaxed);
            tracing::info!(table = %id, "took the table over: no live node ran it");
        }
        Ok(Some(Route::Here(mailbox)))
    }

    /// Joins the cluster, if the store is shared: says this node is alive at `addr`
    /// (where the others relay sockets to it) and takes over every table no live node
    /// runs; then, every fifth of a lease, renews this node's leases (dropping the
    /// tables whose lease it lost) and takes over the tables of nodes that died.
    /// With each round, it publishes who is online on it (`roster`'s names) and reads
    /// who is on the others.
    pub async fn join_cluster(
        &self,
        addr: String,
        lease: Duration,
        roster: Arc<dyn Roster>,
    ) -> Result<(), StoreError> {
        if self.cluster().is_none() {
            return Ok(());
        }
        self.tend(&addr, &*roster).await?;
        self.repeat(
            lease / 5,
            "the cluster's leases could not be renewed",
            move |hub| {
                let (addr, roster) = (addr.clone(), Arc::clone(&roster));
                async move { hub.tend(&addr, &*roster).await }
            },
        );
        Ok(())
    }

    /// Runs `round` every `every` (the first after one period) until the hub stops (shut
    /// down, the node renews and takes over nothing: what it let go stays free),
    /// logging a round that fails with `failed`.
    pub(crate) fn repeat<F, R, E>(&self, every: Duration, failed: &'static str, round: F)
    where
        F: Fn(Hub) -> R + Send + 'static,
        R: std::future::Future<Output = Result<(), E>> + Send,
        E: std::fmt::Display,
    {
        let hub = self.clone();
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                if hub.stopping() {
                    break;
                }
                if let Err(error) = round(hub.clone()).await {
                    tracing::warn!(%error, "{failed}");
                }
            }
        });
    }

    /// One round: renew, drop what was lost, take over what no node runs; then who is
    /// online, published and read back.
    async fn tend(&self, addr: &str, roster: &dyn Roster) -> Result<(), StoreError> {
        let Some(cluster) = self.cluster() else {
            return Ok(());
        };
        let summaries: HashMap<String, String> = self
            .list()
            .into_iter()
            .filter_map(|summary| {
                let json = serde_json::to_string(&summary).ok()?;
                Some((summary.id, json))
            })
            .collect();
        for id in cluster.renew(addr, &summaries).await? {
            self.shared
                .metrics
                .leases_lost
                .fetch_add(1, Ordering::Relaxed);
            if let Some(mailbox) = self.mailbox(&id) {
                let _ = mailbox.send(Command::Lost);
            }
        }
        self.end_stale_relays(cluster).await?;
        for stored in cluster.orphans().await? {
            let stored = match stored {
                Ok(stored) => stored,
                // Its row itself does not read back: nothing of it can run here, and
                // the other orphans are taken over all the same.
                Err(StoreError::Corrupt { table, message }) => {
                    if !self.is_damaged(&table) {
                        self.quarantine(&table, None, message);
                    }
                    continue;
                }
                Err(error) => return Err(error),
            };
            if self.mailbox(&stored.id).is_some() || !cluster.claim(&stored.id).await? {
                continue;
            }
            match self.resume(&stored).await {
                Ok(actor) => {
                    if self.spawn_new(actor).1 {
                        self.shared
                            .metrics
                            .takeovers
                            .fetch_add(1, Ordering::Relaxed);
                        tracing::info!(table = %stored.id, "took the table over: its node died or let it go");
                    }
                }
                Err(HubError::Store(StoreError::Corrupt { message, .. })) => {
                    let rules = &stored.settings.rules;
                    let game = (rules.game().to_string(), rules.variant().to_string());
                    self.quarantine(&stored.id, Some(game), message);
                }
                Err(error) => {
                    tracing::error!(table = %stored.id, %error, "the table could not be taken over");
                    let _ = cluster.release(&stored.id).await;
                }
            }
        }
        cluster.publish_online(&roster.here()).await?;
        roster.elsewhere(cluster.others_online().await?);
        Ok(())
    }

    /// Ends the relays of every table whose lease the node relayed to no longer holds
    /// (it died, was paused, or let the table go): their clients come again.
    async fn end_stale_relays(&self, cluster: &dyn Cluster) -> Result<(), StoreError> {
        let relayed: Vec<(String, String)> = {
            let relayed = self.shared.relays.relayed.lock().expect("never poisoned");
            relayed
                .iter()
                .map(|(id, (node, _))| (id.clone(), node.clone()))
                .collect()
        };
        if relayed.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = relayed.iter().map(|(id, _)| id.clone()).collect();
        let owners = cluster.owners(&ids).await?;
        for (id, node) in relayed {
            if owners.get(&id) != Some(&node) {
                let _ = self.shared.relays.moved.send(id);
            }
        }
        Ok(())
    }

    /// The lobby: the live tables of this node and of every other live node, by id; of
    /// them `limit` from `offset` on (only those serialized), and how many there are.
    pub async fn lobby(
        &self,
        offset: usize,
        limit: usize,
    ) -> Result<(Vec<serde_json::Value>, usize), HubError> {
        let page = |tables: &[TableSummary]| -> Vec<serde_json::Value> {
            tables
                .iter()
                .skip(offset)
                .take(limit)
                .filter_map(|summary| serde_json::to_value(summary).ok())
                .collect()
        };
        let local = self.list();
        let Some(cluster) = self.cluster() else {
            return Ok((page(&local), local.len()));
        };
        let mut tables: Vec<serde_json::Value> = local
            .iter()
            .filter_map(|summary| serde_json::to_value(summary).ok())
            .collect();
        for text in cluster.others_lobby().await? {
            if let Ok(summary) = serde_json::from_str(&text) {
                tables.push(summary);
            }
        }
        tables.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
        let total = tables.len();
        Ok((tables.into_iter().skip(offset).take(limit).collect(), total))
    }
}
