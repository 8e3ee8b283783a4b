//! Several nodes on one store: the seam's leases ([`Cluster`]), and their PostgreSQL
//! implementation.
//!
//! A node runs a table only while it holds the table's lease (a row: owner, fencing
//! epoch, expiry). Every write of the table's rows checks the lease in its own
//! transaction, so that a node that lost it (paused past its expiry, or taken over)
//! commits nothing more: two nodes never both append to one table.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use sqlx::{Postgres, Transaction};

use super::{PostgresStore, StoreError, StoreFuture, StoredTable};

/// Who a node is in a cluster, and how long its leases last unrenewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeOptions {
    /// The node's name, unique in the cluster.
    pub name: String,
    /// How long a lease lasts unless renewed: a dead node's tables are taken over
    /// after it.
    pub lease: Duration,
}

impl NodeOptions {
    /// A node named `name` with leases of 5 seconds.
    pub fn named(name: impl Into<String>) -> NodeOptions {
        NodeOptions {
            name: name.into(),
            lease: Duration::from_secs(5),
        }
    }
}

/// Another live node that runs a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    /// Its name.
    pub node: String,
    /// Its internal address (`HOST:PORT`).
    pub addr: String,
}

/// The leases of a store that several nodes share, as one node sees them.
pub trait Cluster: Send + Sync {
    /// This node's name.
    fn node(&self) -> &str;
    /// Takes table `id`'s lease for this node if no live node holds it (none, or
    /// lapsed), raising its epoch; whether this node holds it now.
    fn claim<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool>;
    /// Renews every lease this node holds, with the lobby's summary (JSON) of each table
    /// of `summaries` (a table not in it is shown by no lobby), and says the node is
    /// alive at `addr`; the tables whose lease it lost (lapsed or taken over).
    fn renew<'a>(
        &'a self,
        addr: &'a str,
        summaries: &'a HashMap<String, String>,
    ) -> StoreFuture<'a, Vec<String>>;
    /// Lets table `id`'s lease go (the table left this node), so that any node may take
    /// it at once.
    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()>;
    /// Every table open or playing whose lease no live node holds: to take over. A row
    /// that does not read back is its [`StoreError::Corrupt`], so that one damaged table
    /// does not keep the others from being taken over.
    fn orphans(&self) -> StoreFuture<'_, Vec<Result<StoredTable, StoreError>>>;
    /// The live node other than this one that runs table `id`, if one does.
    fn owner<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Owner>>;
    /// The lobby summaries (JSON) of the live tables the other nodes run.
    fn others_lobby(&self) -> StoreFuture<'_, Vec<String>>;
    /// The node that holds the running lease of each of `ids` (this one included), by
    /// table; a table no node holds is left out.
    fn owners<'a>(&'a self, ids: &'a [String]) -> StoreFuture<'a, HashMap<String, String>>;
    /// Takes night `id`'s lease if no live node holds it (none, or lapsed), raising its
    /// epoch: whether this node holds it now. The node that stores a new night holds its
    /// lease from then on; [`Cluster::renew`] renews it with the tables'.
    fn claim_night<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool>;
    /// Whether this node still holds night `id`'s lease, as far as it knows (a renewal
    /// that failed, or a save fenced, forgets it).
    fn holds_night(&self, id: &str) -> bool;
    /// Every night still playing whose lease no live node holds: to take over.
    fn orphan_nights(&self) -> StoreFuture<'_, Vec<String>>;
    /// Lets every night's lease this node holds go, so that another node takes them at
    /// once (the node is shutting down).
    fn release_nights(&self) -> StoreFuture<'_, ()>;
    /// Publishes the names of the accounts online on this node (a socket open on it),
    /// for the other nodes' lists of who is online.
    fn publish_online<'a>(&'a self, names: &'a [String]) -> StoreFuture<'a, ()>;
    /// The names online on the other live nodes (seen within a lease), as they last
    /// published them.
    fn others_online(&self) -> StoreFuture<'_, Vec<String>>;
    /// The cluster's secret (32 random bytes), made by the first node that asks and the
    /// same for every node after: a relaying node signs its client's address with it.
    fn secret(&self) -> StoreFuture<'_, Vec<u8>>;
    /// PostgreSQL's clock (the cluster's, which its leases go by) in milliseconds since
    /// the Unix epoch, and the address (`HOST:PORT`) of every live node, this one's
    /// among them.
    fn survey(&self) -> StoreFuture<'_, (i64, Vec<String>)>;
}

/// What a lease is on: a table, or a night; each kind in its own table of leases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Table,
    Night,
}

impl Kind {
    /// The statement that takes a lease of this kind (`$1` the id, `$2` the node, `$3`
    /// the lease's seconds) where no live node holds it: the new epoch, or no row.
    fn take_statement(self) -> String {
        // A table's lobby summary is its holder's, cleared with the lease; a table
        // whose row names this node is taken again too (its epoch raised).
        let (leases, key, summary, mine) = match self {
            Kind::Table => (
                "leases",
                "table_id",
                ", summary = NULL",
                " OR leases.owner = excluded.owner",
            ),
            Kind::Night => ("night_leases", "night_id", "", ""),
        };
        format!(
            "INSERT INTO {leases} ({key}, owner, epoch, expires_at) \
             VALUES ($1, $2, 1, clock_timestamp() + make_interval(secs => $3)) \
             ON CONFLICT ({key}) DO UPDATE SET owner = excluded.owner, \
             epoch = {leases}.epoch + 1, expires_at = excluded.expires_at{summary} \
             WHERE {leases}.expires_at <= clock_timestamp(){mine} RETURNING epoch"
        )
    }

    /// How a write refused for want of this kind's lease names `id`.
    pub(super) fn lost(self, id: &str) -> StoreError {
        StoreError::LeaseLost {
            table: match self {
                Kind::Table => id.to_string(),
                Kind::Night => format!("night {id}"),
            },
        }
    }
}

/// This node's leases on PostgreSQL: the epoch of each table and each night it holds.
#[derive(Debug)]
pub(super) struct Leases {
    pub(super) node: NodeOptions,
    held: Mutex<HashMap<String, i64>>,
    nights: Mutex<HashMap<String, i64>>,
}

impl Leases {
    pub(super) fn new(node: NodeOptions) -> Leases {
        Leases {
            node,
            held: Mutex::new(HashMap::new()),
            nights: Mutex::new(HashMap::new()),
        }
    }

    fn map(&self, kind: Kind) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        match kind {
            Kind::Table => &self.held,
            Kind::Night => &self.nights,
        }
        .lock()
        .expect("never poisoned")
    }

    pub(super) fn epoch_of(&self, kind: Kind, id: &str) -> Option<i64> {
        self.map(kind).get(id).copied()
    }

    fn epoch(&self, id: &str) -> Option<i64> {
        self.epoch_of(Kind::Table, id)
    }

    /// Holds `id` under `epoch`, or under the later one already held: two claims of one
    /// table at once on this node (a socket's and a takeover round's) both succeed, the
    /// second raising the epoch, and may return in either order.
    pub(super) fn hold_as(&self, kind: Kind, id: &str, epoch: i64) {
        let mut held = self.map(kind);
        let at = held.entry(id.to_string()).or_insert(epoch);
        *at = (*at).max(epoch);
    }

    pub(super) fn hold(&self, id: &str, epoch: i64) {
        self.hold_as(Kind::Table, id, epoch);
    }

    fn forget_as(&self, kind: Kind, id: &str) -> Option<i64> {
        self.map(kind).remove(id)
    }

    fn forget(&self, id: &str) -> Option<i64> {
        self.forget_as(Kind::Table, id)
    }

    /// The lease's length in seconds, as PostgreSQL takes it.
    pub(super) fn seconds(&self) -> f64 {
        self.node.lease.as_secs_f64()
    }

    /// Checks, in `tx`, that this node still holds table `id`'s lease, and keeps it
    /// held until `tx` ends (a takeover waits for the write, or the write sees the
    /// takeover). Lost: the node forgets the table and the write fails.
    pub(super) async fn fence(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        id: &str,
    ) -> Result<(), StoreError> {
        self.fence_as(tx, Kind::Table, id).await
    }

    /// [`Leases::fence`] for a lease of `kind`.
    pub(super) async fn fence_as(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        kind: Kind,
        id: &str,
    ) -> Result<(), StoreError> {
        let lost = || kind.lost(id);
        let epoch = self.epoch_of(kind, id).ok_or_else(lost)?;
        let sql = match kind {
            Kind::Table => {
                "SELECT epoch FROM leases WHERE table_id = $1 AND owner = $2 AND epoch = $3 \
                 AND expires_at > clock_timestamp() FOR SHARE"
            }
            Kind::Night => {
                "SELECT epoch FROM night_leases WHERE night_id = $1 AND owner = $2 \
                 AND epoch = $3 AND expires_at > clock_timestamp() FOR SHARE"
            }
        };
        let held: Option<i64> = sqlx::query_scalar(sql)
            .bind(id)
            .bind(&self.node.name)
            .bind(epoch)
            .fetch_optional(&mut **tx)
            .await?;
        if held.is_none() {
            self.forget_as(kind, id);
            return Err(lost());
        }
        Ok(())
    }
}

impl PostgresStore {
    /// Renews every night's lease this node holds; forgets those it lost (their tasks
    /// stop at their next look).
    async fn renew_nights(&self) -> Result<(), StoreError> {
        let held: Vec<(String, i64)> = self
            .leases
            .map(Kind::Night)
            .iter()
            .map(|(id, epoch)| (id.clone(), *epoch))
            .collect();
        if held.is_empty() {
            return Ok(());
        }
        let (ids, epochs): (Vec<String>, Vec<i64>) = held.into_iter().unzip();
        let renewed: Vec<String> = sqlx::query_scalar(
            "UPDATE night_leases SET expires_at = clock_timestamp() + make_interval(secs => $2) \
             FROM UNNEST($3::text[], $4::int8[]) AS mine(id, epoch) \
             WHERE night_leases.night_id = mine.id AND night_leases.epoch = mine.epoch \
             AND night_leases.owner = $1 AND night_leases.expires_at > clock_timestamp() \
             RETURNING night_leases.night_id",
        )
        .bind(&self.leases.node.name)
        .bind(self.leases.seconds())
        .bind(&ids)
        .bind(&epochs)
        .fetch_all(&self.pool)
        .await?;
        for id in ids.iter().filter(|id| !renewed.contains(id)) {
            self.leases.forget_as(Kind::Night, id);
        }
        Ok(())
    }
}

impl PostgresStore {
    /// Takes the lease of `kind` `id` for this node if no live node holds it (none, or
    /// lapsed), raising its epoch so that the writes of its last holder, whatever they
    /// were, are fenced from then on; whether it did (this node then holds the new
    /// epoch).
    async fn take(&self, kind: Kind, id: &str) -> Result<bool, StoreError> {
        let epoch: Option<i64> = sqlx::query_scalar(&kind.take_statement())
            .bind(id)
            .bind(&self.leases.node.name)
            .bind(self.leases.seconds())
            .fetch_optional(&self.pool)
            .await?;
        if let Some(epoch) = epoch {
            self.leases.hold_as(kind, id, epoch);
        }
        Ok(epoch.is_some())
    }
}

impl Cluster for PostgresStore {
    fn node(&self) -> &str {
        &self.leases.node.name
    }

    fn claim<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            if self.leases.epoch(id).is_some() {
                return Ok(true);
            }
            self.take(Kind::Table, id).await
        })
    }

    fn renew<'a>(
        &'a self,
        addr: &'a str,
        summaries: &'a HashMap<String, String>,
    ) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let held: Vec<(String, i64)> = {
                let held = self.leases.held.lock().expect("never poisoned");
                held.iter()
                    .map(|(id, epoch)| (id.clone(), *epoch))
                    .collect()
            };
            let node = &self.leases.node.name;
            sqlx::query(
                "INSERT INTO nodes (name, addr, seen_at) VALUES ($1, $2, clock_timestamp()) \
                 ON CONFLICT (name) DO UPDATE SET addr = excluded.addr, seen_at = excluded.seen_at",
            )
            .bind(node)
            .bind(addr)
            .execute(&self.pool)
            .await?;
            self.renew_nights().await?;
            if held.is_empty() {
                return Ok(Vec::new());
            }
            let ids: Vec<&str> = held.iter().map(|(id, _)| id.as_str()).collect();
            let epochs: Vec<i64> = held.iter().map(|(_, epoch)| *epoch).collect();
            let shown: Vec<Option<&str>> = ids
                .iter()
                .map(|id| summaries.get(*id).map(String::as_str))
                .collect();
            // Only a lease still running is renewed: one that lapsed (the node was
            // paused past it) is lost even if nobody took it yet.
            let renewed: Vec<String> = sqlx::query_scalar(
                "UPDATE leases SET expires_at = clock_timestamp() + make_interval(secs => $2), \
                 summary = mine.summary \
                 FROM UNNEST($3::text[], $4::int8[], $5::text[]) AS mine(id, epoch, summary) \
                 WHERE leases.table_id = mine.id AND leases.epoch = mine.epoch \
                 AND leases.owner = $1 AND leases.expires_at > clock_timestamp() \
                 RETURNING leases.table_id",
            )
            .bind(node)
            .bind(self.leases.seconds())
            .bind(&ids)
            .bind(&epochs)
            .bind(&shown)
            .fetch_all(&self.pool)
            .await?;
            let lost: Vec<String> = ids
                .iter()
                .filter(|id| !renewed.iter().any(|r| r == *id))
                .map(|id| id.to_string())
                .collect();
            for id in &lost {
                self.leases.forget(id);
            }
            Ok(lost)
        })
    }

    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if let Some(epoch) = self.leases.forget(id) {
                sqlx::query("DELETE FROM leases WHERE table_id = $1 AND owner = $2 AND epoch = $3")
                    .bind(id)
                    .bind(&self.leases.node.name)
                    .bind(epoch)
                    .execute(&self.pool)
                    .await?;
            }
            Ok(())
        })
    }

    fn orphans(&self) -> StoreFuture<'_, Vec<Result<StoredTable, StoreError>>> {
        Box::pin(self.tables_each(
            "SELECT t.* FROM tables t LEFT JOIN leases l ON l.table_id = t.id \
             WHERE t.status IN ('open', 'playing') \
             AND (l.table_id IS NULL OR l.expires_at <= clock_timestamp()) \
             ORDER BY t.created_at, t.id",
        ))
    }

    fn owner<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Owner>> {
        Box::pin(async move {
            let row: Option<(String, String)> = sqlx::query_as(
                "SELECT l.owner, n.addr FROM leases l JOIN nodes n ON n.name = l.owner \
                 WHERE l.table_id = $1 AND l.owner <> $2 AND l.expires_at > clock_timestamp()",
            )
            .bind(id)
            .bind(&self.leases.node.name)
            .fetch_optional(&self.pool)
            .await?;
            Ok(row.map(|(node, addr)| Owner { node, addr }))
        })
    }

    fn owners<'a>(&'a self, ids: &'a [String]) -> StoreFuture<'a, HashMap<String, String>> {
        Box::pin(async move {
            let rows: Vec<(String, String)> = sqlx::query_as(
                "SELECT table_id, owner FROM leases \
                 WHERE table_id = ANY($1) AND expires_at > clock_timestamp()",
            )
            .bind(ids)
            .fetch_all(&self.pool)
            .await?;
            Ok(rows.into_iter().collect())
        })
    }

    fn others_lobby(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            Ok(sqlx::query_scalar(
                "SELECT summary FROM leases WHERE owner <> $1 \
                 AND expires_at > clock_timestamp() AND summary IS NOT NULL ORDER BY table_id",
            )
            .bind(&self.leases.node.name)
            .fetch_all(&self.pool)
            .await?)
        })
    }

    fn claim_night<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            Ok(
                self.take(Kind::Night, id).await?
                    || self.leases.epoch_of(Kind::Night, id).is_some(),
            )
        })
    }

    fn holds_night(&self, id: &str) -> bool {
        self.leases.epoch_of(Kind::Night, id).is_some()
    }

    fn orphan_nights(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            Ok(sqlx::query_scalar(
                "SELECT n.id FROM nights n LEFT JOIN night_leases l ON l.night_id = n.id \
                 WHERE n.status = 'playing' \
                 AND (l.night_id IS NULL OR l.expires_at <= clock_timestamp()) \
                 ORDER BY n.created_at, n.id",
            )
            .fetch_all(&self.pool)
            .await?)
        })
    }

    fn secret(&self) -> StoreFuture<'_, Vec<u8>> {
        Box::pin(async move {
            let mut made = [0u8; 32];
            getrandom::fill(&mut made).expect("the OS's random source works");
            // Nodes starting at once: the first insert wins, every node reads it.
            sqlx::query(
                "INSERT INTO cluster_secret (id, secret) VALUES (1, $1) ON CONFLICT DO NOTHING",
            )
            .bind(&made[..])
            .execute(&self.pool)
            .await?;
            Ok(
                sqlx::query_scalar("SELECT secret FROM cluster_secret WHERE id = 1")
                    .fetch_one(&self.pool)
                    .await?,
            )
        })
    }

    fn survey(&self) -> StoreFuture<'_, (i64, Vec<String>)> {
        Box::pin(async move {
            Ok(sqlx::query_as(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT, \
                 COALESCE((SELECT array_agg(addr) FROM nodes \
                 WHERE seen_at > clock_timestamp() - make_interval(secs => $1)), '{}')",
            )
            .bind(self.leases.seconds())
            .fetch_one(&self.pool)
            .await?)
        })
    }

    fn publish_online<'a>(&'a self, names: &'a [String]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let json = serde_json::to_string(names).expect("names serialize");
            sqlx::query("UPDATE nodes SET online = $2 WHERE name = $1")
                .bind(&self.leases.node.name)
                .bind(json)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn others_online(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let lists: Vec<String> = sqlx::query_scalar(
                "SELECT online FROM nodes WHERE name <> $1 AND online IS NOT NULL \
                 AND seen_at > clock_timestamp() - make_interval(secs => $2)",
            )
            .bind(&self.leases.node.name)
            .bind(self.leases.seconds())
            .fetch_all(&self.pool)
            .await?;
            let mut names = Vec::new();
            for list in lists {
                let list: Vec<String> =
                    serde_json::from_str(&list).map_err(|e| StoreError::Corrupt {
                        table: "nodes".into(),
                        message: format!("online: {e}"),
                    })?;
                names.extend(list);
            }
            Ok(names)
        })
    }

    fn release_nights(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let held: Vec<(String, i64)> = self.leases.map(Kind::Night).drain().collect();
            let (ids, epochs): (Vec<String>, Vec<i64>) = held.into_iter().unzip();
            sqlx::query(
                "DELETE FROM night_leases USING UNNEST($2::text[], $3::int8[]) AS mine(id, epoch) \
                 WHERE night_id = mine.id AND night_leases.epoch = mine.epoch AND owner = $1",
            )
            .bind(&self.leases.node.name)
            .bind(&ids)
            .bind(&epochs)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }
}
