//! The limits at the server's edge, before a request reaches a table: connections open
//! overall and per client address, how long a request's head may take, how long a
//! connection may stay silent, how fast one address may create tables and nights, and
//! the counters of what they refused.

use std::collections::HashMap;
use std::fmt::Write;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::metrics::SampledLog;

/// Every limit of the edge; each is a `serve` flag (README, docs/operations.md).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections (HTTP and WebSocket) open at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// Connections open at once from one client address (an IPv6 address counts by its
    /// /64); 0 for no cap (behind a proxy, whose address every client shares).
    pub max_connections_per_address: usize,
    /// Time a client has to send a request's line and headers, and the longest an idle
    /// keep-alive connection waits for its next request.
    pub header_timeout: Duration,
    /// A connection on which no byte moves either way for this long is closed.
    pub idle_timeout: Duration,
    /// Time a client has to send a request's whole body (answered 408 past it), however
    /// it trickles in.
    pub body_timeout: Duration,
    /// Tables and nights one client address may create per minute, on average; 0 for
    /// no limit.
    pub creates_per_minute: u32,
    /// Tables and nights one client address may create at once after a quiet while.
    pub create_burst: u32,
    /// Replays (`POST /api/replay`, `GET /api/tables/{id}/replay`) one client address
    /// may ask for per minute, on average ([`REPLAY_BURST`] at once): each is some 50
    /// times the work of its request; 0 for no limit.
    pub replays_per_minute: u32,
    /// Sign-in attempts on one account's name from one client address per minute, on
    /// average and at once after a quiet while; 0 for no limit.
    pub sign_ins_per_name: u32,
    /// Sign-in attempts and accounts created from one client address per minute, on
    /// average and at once after a quiet while; 0 for no limit.
    pub sign_ins_per_address: u32,
    /// Chat lines one client address may send per minute, on average, over all its
    /// sockets and tables ([`CHAT_BURST`] at once); 0 for no limit.
    pub chat_lines_per_minute: u32,
    /// Chat lines the whole server takes per minute, on average, from everyone
    /// ([`CHAT_BURST_TOTAL`] at once): many addresses together cannot flood the
    /// database; 0 for no limit.
    pub chat_lines_per_minute_total: u32,
    /// Connections over the caps given a moment to show they are a health probe
    /// (`/healthz`, `/readyz`, `/metrics`), which is then served (`reserve`); 0: a
    /// connection over a cap is refused at once.
    pub probe_reserve: usize,
    /// A request header naming the client's address, set by a trusted proxy in front
    /// (`X-Real-IP`); the per-address limits on creating, signing in and chat then count
    /// by it. `None`: the connection's own address.
    pub client_address_header: Option<String>,
}

/// Chat lines one client address may send at once after a quiet while.
pub const CHAT_BURST: u32 = 10;

/// Chat lines the whole server takes at once after a quiet while.
pub const CHAT_BURST_TOTAL: u32 = 100;

/// Replays one client address may ask for at once after a quiet while.
pub const REPLAY_BURST: u32 = 20;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 1000,
            max_connections_per_address: 50,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(120),
            body_timeout: Duration::from_secs(30),
            creates_per_minute: 30,
            create_burst: 20,
            replays_per_minute: 60,
            sign_ins_per_name: 5,
            sign_ins_per_address: 20,
            chat_lines_per_minute: 60,
            chat_lines_per_minute_total: 1200,
            probe_reserve: 64,
            client_address_header: None,
        }
    }
}

/// The client's address: the one `limits.client_address_header` names if the server
/// is given such a header (a trusted proxy's), else the connection's `peer`.
pub(crate) fn client_address(
    limits: &Limits,
    headers: &axum::http::HeaderMap,
    peer: Option<std::net::SocketAddr>,
) -> Option<IpAddr> {
    let from_proxy = limits.client_address_header.as_ref().and_then(|name| {
        headers
            .get(name.as_str())
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<IpAddr>().ok())
    });
    from_proxy.or_else(|| peer.map(|p| p.ip()))
}

/// What one client address is counted as: itself, or its /64 for IPv6 (one machine
/// usually holds a whole /64, so single addresses would be free for the taking).
pub(crate) fn address_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(bits.into())
            }
        },
    }
}

/// The open connections, overall and per client address.
#[derive(Debug, Default)]
pub(crate) struct Connections {
    open: Mutex<OpenConnections>,
}

#[derive(Debug, Default)]
struct OpenConnections {
    total: usize,
    per_address: HashMap<IpAddr, usize>,
}

/// Why a connection was refused at accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Crowded {
    /// Every one of the server's connections is taken.
    Server,
    /// The client's address has its share open already.
    Address,
}

/// An open connection's place in [`Connections`], given back when dropped.
pub(crate) struct Slot {
    connections: Arc<Connections>,
    /// The address it counts under; none until its first request says whose it is, for
    /// a connection from a node of the cluster ([`Connections::admit_node`]).
    key: Mutex<Option<IpAddr>>,
}

impl Connections {
    /// A slot for a connection from `address`, or why there is none.
    pub(crate) fn admit(
        self: &Arc<Self>,
        address: IpAddr,
        limits: &Limits,
    ) -> Result<Slot, Crowded> {
        let key = address_key(address);
        let mut open = self
            .open
            .lock()
            .expect("the connection counts are never poisoned");
        if open.total >= limits.max_connections {
            return Err(Crowded::Server);
        }
        let mine = open.per_address.entry(key).or_default();
        if limits.max_connections_per_address > 0 && *mine >= limits.max_connections_per_address {
            return Err(Crowded::Address);
        }
        *mine += 1;
        open.total += 1;
        Ok(Slot {
            connections: Arc::clone(self),
            key: Mutex::new(Some(key)),
        })
    }

    /// A slot for a connection from a node of the cluster, counted in the total only
    /// until its first request names whose it is (a relayed socket's, signed, is its
    /// client's; anything else is the node's): [`Slot::count_under`].
    pub(crate) fn admit_node(self: &Arc<Self>, limits: &Limits) -> Result<Slot, Crowded> {
        let mut open = self
            .open
            .lock()
            .expect("the connection counts are never poisoned");
        if open.total >= limits.max_connections {
            return Err(Crowded::Server);
        }
        open.total += 1;
        Ok(Slot {
            connections: Arc::clone(self),
            key: Mutex::new(None),
        })
    }

    /// Connections open now.
    pub(crate) fn open(&self) -> usize {
        self.open.lock().map(|open| open.total).unwrap_or(0)
    }
}

impl Slot {
    /// Counts the connection under `address` (a relayed socket's client, or a node's
    /// own request) from now on, and no longer under the address it counted under, if
    /// any; refused, counting as before, if `address` has its share open already.
    pub(crate) fn count_under(&self, address: IpAddr, limits: &Limits) -> Result<(), Crowded> {
        let new = address_key(address);
        let mut key = self.key.lock().expect("never poisoned");
        if *key == Some(new) {
            return Ok(());
        }
        let mut open = self
            .connections
            .open
            .lock()
            .expect("the connection counts are never poisoned");
        let theirs = open.per_address.get(&new).copied().unwrap_or(0);
        if limits.max_connections_per_address > 0 && theirs >= limits.max_connections_per_address {
            return Err(Crowded::Address);
        }
        if let Some(old) = key.take() {
            open.release(old);
        }
        *open.per_address.entry(new).or_default() += 1;
        *key = Some(new);
        Ok(())
    }
}

impl OpenConnections {
    fn release(&mut self, key: IpAddr) {
        if let Some(mine) = self.per_address.get_mut(&key) {
            *mine -= 1;
            if *mine == 0 {
                self.per_address.remove(&key);
            }
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Ok(mut open) = self.connections.open.lock() else {
            return;
        };
        open.total -= 1;
        if let Some(key) = self.key.lock().ok().and_then(|mut key| key.take()) {
            open.release(key);
        }
    }
}

/// Token buckets per key (a client address, or an account's name): `per_minute` on
/// average, `burst` at once.
#[derive(Debug)]
pub(crate) struct RateLimit<K = IpAddr> {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

/// Buckets kept before full ones (those of keys quiet for a while) are forgotten.
const BUCKETS_BEFORE_PRUNING: usize = 10_000;

impl<K: std::hash::Hash + Eq> RateLimit<K> {
    pub(crate) fn new(per_minute: u32, burst: u32) -> Self {
        RateLimit {
            per_second: f64::from(per_minute) / 60.0,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key`: `Ok`, or the time until one is there again.
    pub(crate) fn take_key(&self, key: K, now: Instant) -> Result<(), Duration> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().expect("the buckets are never poisoned");
        if buckets.len() >= BUCKETS_BEFORE_PRUNING {
            // A full bucket is as good as none: forgetting it keeps memory bounded.
            buckets.retain(|_, bucket| self.refilled(*bucket, now) < self.burst);
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: self.burst,
            last: now,
        });
        bucket.tokens = self.refilled(*bucket, now);
        bucket.last = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        Err(Duration::from_secs_f64(
            (1.0 - bucket.tokens) / self.per_second,
        ))
    }

    fn refilled(&self, bucket: Bucket, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(bucket.last).as_secs_f64();
        (bucket.tokens + elapsed * self.per_second).min(self.burst)
    }
}

impl RateLimit<IpAddr> {
    /// Takes one token for the client `address` (an IPv6 one by its /64).
    pub(crate) fn take(&self, address: IpAddr, now: Instant) -> Result<(), Duration> {
        self.take_key(address_key(address), now)
    }
}

/// One reason for refusing: its count for `/metrics`, and its log, sampled.
#[derive(Debug)]
pub(crate) struct Refused {
    reason: &'static str,
    total: AtomicU64,
    log: SampledLog,
}

impl Refused {
    fn new(reason: &'static str) -> Self {
        Refused {
            reason,
            total: AtomicU64::new(0),
            log: SampledLog::default(),
        }
    }

    /// Counts one refusal, of `client` (if known) for `detail`; logs it if it is the
    /// first in a while ([`crate::metrics::LOG_EVERY`]): a flood is a line now and then.
    pub(crate) fn hit(&self, client: Option<IpAddr>, detail: &str) {
        self.total.fetch_add(1, Ordering::Relaxed);
        if let Some(skipped) = self.log.sample() {
            let client = client.map_or_else(|| "?".to_string(), |c| c.to_string());
            tracing::warn!(
                reason = self.reason,
                %client,
                unlogged_since = skipped,
                total = self.total.load(Ordering::Relaxed),
                "refused: {detail} (sampled: one line a reason every 10 s; calltrump_refused_total counts them all)"
            );
        }
    }

    /// How many were refused.
    pub(crate) fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }
}

/// What the edge refused, for `/metrics` and the log.
#[derive(Debug)]
pub(crate) struct Refusals {
    /// Connections refused at accept: every connection taken.
    pub(crate) server_full: Refused,
    /// Connections refused at accept: the address had its share.
    pub(crate) address_full: Refused,
    /// Requests whose `Host` this server does not answer for.
    pub(crate) hosts: Refused,
    /// Requests and WebSockets from a page of another origin.
    pub(crate) origins: Refused,
    /// Creations of tables and nights over an address's rate.
    pub(crate) creates: Refused,
    /// Replays over an address's rate.
    pub(crate) replays: Refused,
    /// Sign-in attempts and account creations over a name's or an address's rate.
    pub(crate) sign_ins: Refused,
    /// WebSocket messages over a connection's rate.
    pub(crate) messages: Refused,
    /// Chat lines over an address's rate (all its sockets together).
    pub(crate) chat: Refused,
    /// Chat lines over the server's own rate (all addresses together).
    pub(crate) chat_total: Refused,
    /// WebSocket frames over the size limit.
    pub(crate) oversize: Refused,
    /// Hellos with a token no seat has.
    pub(crate) tokens: Refused,
    /// Connections closed as too slow: they did not read, and their queue overflowed.
    pub(crate) too_slow: Refused,
    /// Connections closed because their request's head did not come in time.
    pub(crate) header_timeout: Refused,
    /// Connections closed because nothing moved on them for the idle timeout.
    pub(crate) idle_timeout: Refused,
    /// Requests answered 408: their body did not come whole in time.
    pub(crate) body_timeout: Refused,
    /// Relay headers not believed: a signature wrong, or too old (replayed).
    pub(crate) relay_signature: Refused,
}

impl Default for Refusals {
    fn default() -> Self {
        Refusals {
            server_full: Refused::new("server_full"),
            address_full: Refused::new("address_full"),
            hosts: Refused::new("host"),
            origins: Refused::new("origin"),
            creates: Refused::new("create_rate"),
            replays: Refused::new("replay_rate"),
            sign_ins: Refused::new("sign_in_rate"),
            messages: Refused::new("message_rate"),
            chat: Refused::new("chat_rate"),
            chat_total: Refused::new("chat_total"),
            oversize: Refused::new("oversize_frame"),
            tokens: Refused::new("token"),
            too_slow: Refused::new("too_slow"),
            header_timeout: Refused::new("header_timeout"),
            idle_timeout: Refused::new("idle_timeout"),
            body_timeout: Refused::new("body_timeout"),
            relay_signature: Refused::new("relay_signature"),
        }
    }
}

impl Refusals {
    /// The counters in Prometheus' text format, and the connections open at the edge.
    pub(crate) fn render(&self, open: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP calltrump_http_connections HTTP and WebSocket connections open.\n\
             # TYPE calltrump_http_connections gauge\ncalltrump_http_connections {open}"
        );
        let name = "calltrump_refused_total";
        let _ = writeln!(
            out,
            "# HELP {name} Requests, connections and messages refused, by reason.\n# TYPE {name} counter"
        );
        for refused in [
            &self.server_full,
            &self.address_full,
            &self.hosts,
            &self.origins,
            &self.creates,
            &self.replays,
            &self.sign_ins,
            &self.messages,
            &self.chat,
            &self.chat_total,
            &self.oversize,
            &self.tokens,
            &self.too_slow,
            &self.header_timeout,
            &self.idle_timeout,
            &self.body_timeout,
            &self.relay_signature,
        ] {
            let _ = writeln!(
                out,
                "{name}{{reason=\"{}\"}} {}",
                refused.reason,
                refused.total()
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_refuses_past_its_burst_and_says_when_to_retry() {
        let limit = RateLimit::new(60, 3);
        let start = Instant::now();
        let client: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..3 {
            assert_eq!(limit.take(client, start), Ok(()));
        }
        let wait = limit.take(client, start).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        // Another address has its own bucket; a second later the first has a token again.
        assert_eq!(limit.take("192.0.2.2".parse().unwrap(), start), Ok(()));
        assert_eq!(limit.take(client, start + Duration::from_secs(1)), Ok(()));
    }

    #[test]
    fn an_ipv6_client_counts_by_its_64() {
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let other: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let elsewhere: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(address_key(one), address_key(other));
        assert_ne!(address_key(one), address_key(elsewhere));
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(address_key(mapped), "192.0.2.1".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn slots_are_given_back() {
        let connections = Arc::new(Connections::default());
        let limits = Limits {
            max_connections: 3,
            max_connections_per_address: 2,
            ..Limits::default()
        };
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = connections.admit(a, &limits).unwrap();
        let _second = connections.admit(a, &limits).unwrap();
        assert_eq!(connections.admit(a, &limits).err(), Some(Crowded::Address));
        let _third = connections.admit(b, &limits).unwrap();
        assert_eq!(connections.admit(b, &limits).err(), Some(Crowded::Server));
        drop(first);
        assert_eq!(connections.open(), 2);
        assert!(connections.admit(a, &limits).is_ok());
    }

    #[test]
    fn a_nodes_slot_counts_under_the_address_its_request_names() {
        let connections = Arc::new(Connections::default());
        let limits = Limits {
            max_connections: 4,
            max_connections_per_address: 1,
            ..Limits::default()
        };
        let (node, client): (IpAddr, IpAddr) =
            ("192.0.2.1".parse().unwrap(), "192.0.2.7".parse().unwrap());
        let relayed = connections.admit_node(&limits).unwrap();
        let _mine = connections.admit(node, &limits).unwrap();
        relayed.count_under(client, &limits).unwrap();
        relayed.count_under(client, &limits).unwrap();
        assert_eq!(
            connections.admit(client, &limits).err(),
            Some(Crowded::Address)
        );
        // The client's share is taken: another of its sockets through a node is refused
        // and stays counted in the total only.
        let second = connections.admit_node(&limits).unwrap();
        assert_eq!(second.count_under(client, &limits), Err(Crowded::Address));
        assert_eq!(connections.open(), 3);
        drop(second);
        // Moved to another address, it leaves the client's count.
        relayed
            .count_under("192.0.2.8".parse().unwrap(), &limits)
            .unwrap();
        let other = connections.admit(client, &limits).unwrap();
        drop(relayed);
        assert_eq!(connections.open(), 2);
        drop(other);
        assert!(connections.admit(client, &limits).is_ok());
        assert_eq!(
            connections.admit(node, &limits).err(),
            Some(Crowded::Address)
        );
    }
}
