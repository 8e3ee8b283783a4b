//! The cluster's key: a relaying node signs its client's address with it, bound to the
//! socket's request target (path and query), to a time on the cluster's clock
//! (PostgreSQL's, read with every round of the leases) and to a random nonce, and the
//! node that runs the table checks them all. A signature is good for one socket: the
//! owner remembers those it believed until they are [`MAX_AGE_SECS`] old, past which
//! none is believed anyway, so one taken off the wire is good for nothing once used.

use std::collections::{BTreeSet, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Mutex, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::HeaderMap;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::store::{Cluster, StoreError};

/// The header under which a relaying node names its client's address.
const RELAYED_FOR: &str = "x-calltrump-relayed-for";
/// The header of the time the relaying node signed at: whole seconds since the Unix
/// epoch, on the cluster's clock.
const RELAY_TIME: &str = "x-calltrump-relay-time";
/// The header of a random nonce (16 bytes, in hex): two sockets of one client to one
/// table in one second are signed differently.
const RELAY_NONCE: &str = "x-calltrump-relay-nonce";
/// The header of the signature of the address, the request target, the time and the
/// nonce: HMAC-SHA-256 under the cluster's secret, in hex.
const RELAY_SIGNATURE: &str = "x-calltrump-relay-signature";
/// How far a signature's time may be from the checking node's, either way: the relay
/// itself takes milliseconds; the rest is the drift of the nodes' clocks between two
/// readings of PostgreSQL's.
pub(crate) const MAX_AGE_SECS: i64 = 60;
/// The most signatures remembered at once (each some 40 bytes, a few MB in all): over
/// 500 relayed sockets a second for two minutes. Past it a new one is not believed
/// rather than an unexpired one forgotten (which would make that one good again).
const MAX_REMEMBERED: usize = 65_536;

/// The cluster's secret (kept in the shared database), the offset of its clock from
/// this node's, and the addresses of its live nodes.
pub(crate) struct RelayKey {
    secret: Vec<u8>,
    /// PostgreSQL's clock less this node's, in milliseconds, as last read.
    offset_ms: AtomicI64,
    /// The addresses of the cluster's live nodes, as last read: a connection from one
    /// is counted under an address only once its request says whose it is.
    nodes: RwLock<HashSet<IpAddr>>,
    /// The signatures believed, by their time, until past [`MAX_AGE_SECS`]: each is good
    /// for one socket.
    used: Mutex<BTreeSet<(i64, [u8; 32])>>,
}

/// Why relay headers were not believed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unsigned {
    /// A header missing or unreadable, or a signature that is not the cluster's for
    /// this address, request target, time and nonce (made up, or altered).
    Wrong,
    /// Signed this many seconds ago, more than [`MAX_AGE_SECS`] (replayed), or this
    /// many ahead if negative.
    Stale(i64),
    /// Believed once already, for another socket (replayed).
    Reused,
    /// Fresh, but [`MAX_REMEMBERED`] signatures are remembered already.
    Unremembered,
}

impl std::fmt::Display for Unsigned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsigned::Wrong => f.write_str(
                "relay headers with a signature that is not the cluster's for that address, request target, time and nonce",
            ),
            Unsigned::Reused => f.write_str(
                "relay headers whose signature was believed once already (replayed)",
            ),
            Unsigned::Unremembered => write!(
                f,
                "relay headers not believed: the {MAX_REMEMBERED} signatures of the last {MAX_AGE_SECS} s that this node remembers are as many as it keeps"
            ),
            Unsigned::Stale(age) => {
                let when = if *age >= 0 { "ago" } else { "ahead" };
                write!(
                    f,
                    "relay headers signed {} s {when} on the cluster's clock (over {MAX_AGE_SECS} s: replayed, or a node's clock jumped)",
                    age.abs()
                )
            }
        }
    }
}

/// This node's clock, in milliseconds since the Unix epoch.
fn local_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl RelayKey {
    /// The key of the cluster whose secret is `secret` (its clock taken as this node's
    /// until [`RelayKey::update`]).
    pub(crate) fn new(secret: Vec<u8>) -> Self {
        RelayKey {
            secret,
            offset_ms: AtomicI64::new(0),
            nodes: RwLock::default(),
            used: Mutex::default(),
        }
    }

    /// Takes a reading of the cluster: PostgreSQL's clock (`cluster_ms`, read just now)
    /// and its live nodes' addresses (`HOST:PORT`; a name is looked up).
    async fn update(&self, cluster_ms: i64, nodes: &[String]) {
        self.offset_ms
            .store(cluster_ms - local_ms(), Ordering::Relaxed);
        let mut addresses = HashSet::new();
        for node in nodes {
            match node.parse::<SocketAddr>() {
                Ok(addr) => {
                    addresses.insert(addr.ip());
                }
                Err(_) => match tokio::net::lookup_host(node.as_str()).await {
                    Ok(found) => addresses.extend(found.map(|addr| addr.ip())),
                    Err(error) => {
                        tracing::warn!(%node, %error, "a node's address could not be looked up")
                    }
                },
            }
        }
        *self.nodes.write().expect("never poisoned") = addresses;
    }

    /// Reads the cluster's clock and live nodes from `cluster` (at start, then with
    /// every round of the leases).
    pub(crate) async fn survey(&self, cluster: &dyn Cluster) -> Result<(), StoreError> {
        let (cluster_ms, nodes) = cluster.survey().await?;
        self.update(cluster_ms, &nodes).await;
        Ok(())
    }

    /// Whether `address` is one of the cluster's live nodes'.
    pub(crate) fn is_node(&self, address: IpAddr) -> bool {
        self.nodes
            .read()
            .expect("never poisoned")
            .contains(&address)
    }

    /// Now on the cluster's clock, in whole seconds since the Unix epoch.
    fn now(&self) -> i64 {
        (local_ms() + self.offset_ms.load(Ordering::Relaxed)).div_euclid(1000)
    }

    fn mac(&self, address: &str, target: &str, time: &str, nonce: &str) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes a key of any length");
        // Each part ends with a newline, which none of them holds (header values and
        // request targets cannot): no two lists of parts make the same message.
        for part in ["calltrump relay 3", address, target, time, nonce] {
            mac.update(part.as_bytes());
            mac.update(b"\n");
        }
        mac
    }

    /// The headers naming `address` as the client of a relayed socket to `target` (its
    /// path and query), signed now with a fresh nonce.
    pub(crate) fn sign(&self, address: IpAddr, target: &str) -> [(&'static str, String); 4] {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("the OS's random source works");
        self.sign_at(address, target, self.now(), &hex(&nonce))
    }

    fn sign_at(
        &self,
        address: IpAddr,
        target: &str,
        time: i64,
        nonce: &str,
    ) -> [(&'static str, String); 4] {
        let (address, time) = (address.to_string(), time.to_string());
        let signature = self.mac(&address, target, &time, nonce).finalize();
        [
            (RELAYED_FOR, address),
            (RELAY_TIME, time),
            (RELAY_NONCE, nonce.to_string()),
            (RELAY_SIGNATURE, hex(&signature.into_bytes())),
        ]
    }

    /// The client's address that a node of the cluster named in `headers`, relaying its
    /// socket to `target` (the request's path and query) within [`MAX_AGE_SECS`] (the
    /// signature compared in constant time), the first time these headers are seen;
    /// none for a request without relay headers, and why they are not believed for one
    /// whose headers a client could have written or replayed.
    pub(crate) fn verify(
        &self,
        headers: &HeaderMap,
        target: &str,
    ) -> Option<Result<IpAddr, Unsigned>> {
        self.verify_at(headers, target, self.now())
    }

    fn verify_at(
        &self,
        headers: &HeaderMap,
        target: &str,
        now: i64,
    ) -> Option<Result<IpAddr, Unsigned>> {
        if ![RELAYED_FOR, RELAY_TIME, RELAY_NONCE, RELAY_SIGNATURE]
            .iter()
            .any(|name| headers.contains_key(*name))
        {
            return None;
        }
        let Some((address, time, signature)) = self.check(headers, target) else {
            return Some(Err(Unsigned::Wrong));
        };
        let mut used = self.used.lock().expect("never poisoned");
        // Those past the window would be refused as stale: no need to remember them.
        while used
            .first()
            .is_some_and(|(signed, _)| now - signed > MAX_AGE_SECS)
        {
            used.pop_first();
        }
        Some(if (now - time).abs() > MAX_AGE_SECS {
            Err(Unsigned::Stale(now - time))
        } else if used.contains(&(time, signature)) {
            Err(Unsigned::Reused)
        } else if used.len() >= MAX_REMEMBERED {
            Err(Unsigned::Unremembered)
        } else {
            used.insert((time, signature));
            Ok(address)
        })
    }

    /// The address, time and signature of `headers` if the cluster signed them for
    /// `target`.
    fn check(&self, headers: &HeaderMap, target: &str) -> Option<(IpAddr, i64, [u8; 32])> {
        let address = headers.get(RELAYED_FOR)?.to_str().ok()?;
        let time = headers.get(RELAY_TIME)?.to_str().ok()?;
        let nonce = headers.get(RELAY_NONCE)?.to_str().ok()?;
        let hex = headers.get(RELAY_SIGNATURE)?.as_bytes();
        if hex.len() != 64 {
            return None;
        }
        let mut signature = [0u8; 32];
        for (byte, pair) in signature.iter_mut().zip(hex.chunks(2)) {
            *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
        }
        self.mac(address, target, time, nonce)
            .verify_slice(&signature)
            .ok()?;
        Some((address.parse().ok()?, time.parse().ok()?, signature))
    }
}

/// `bytes` in lower-case hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(signed: [(&'static str, String); 4]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in signed {
            map.insert(name, HeaderValue::try_from(value).unwrap());
        }
        map
    }

    const NOW: i64 = 1_800_000_000;
    const NONCE: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn a_fresh_signature_is_believed_for_its_path_only() {
        let key = RelayKey::new(vec![7; 32]);
        let client: IpAddr = "192.0.2.9".parse().unwrap();
        let signed = headers(key.sign_at(client, "/ws/abc", NOW - 5, NONCE));
        assert_eq!(key.verify_at(&signed, "/ws/abc", NOW), Some(Ok(client)));
        assert_eq!(
            key.verify_at(&signed, "/ws/other", NOW),
            Some(Err(Unsigned::Wrong))
        );
        // Another cluster's key does not make it.
        let other = RelayKey::new(vec![8; 32]);
        assert_eq!(
            other.verify_at(&signed, "/ws/abc", NOW),
            Some(Err(Unsigned::Wrong))
        );
        assert_eq!(key.verify_at(&HeaderMap::new(), "/ws/abc", NOW), None);
    }

    #[test]
    fn an_old_or_altered_signature_is_refused() {
        let key = RelayKey::new(vec![7; 32]);
        let client: IpAddr = "192.0.2.9".parse().unwrap();
        let old = headers(key.sign_at(client, "/ws/abc", NOW - MAX_AGE_SECS - 1, NONCE));
        assert_eq!(
            key.verify_at(&old, "/ws/abc", NOW),
            Some(Err(Unsigned::Stale(MAX_AGE_SECS + 1)))
        );
        let ahead = headers(key.sign_at(client, "/ws/abc", NOW + MAX_AGE_SECS + 1, NONCE));
        assert_eq!(
            key.verify_at(&ahead, "/ws/abc", NOW),
            Some(Err(Unsigned::Stale(-MAX_AGE_SECS - 1)))
        );
        assert_eq!(
            Unsigned::Stale(75).to_string(),
            "relay headers signed 75 s ago on the cluster's clock (over 60 s: replayed, or a node's clock jumped)"
        );
        let edge = headers(key.sign_at(client, "/ws/abc", NOW - MAX_AGE_SECS, NONCE));
        assert_eq!(key.verify_at(&edge, "/ws/abc", NOW), Some(Ok(client)));
        // The old one made young again, or given to another address: not the cluster's.
        let mut retimed = old.clone();
        retimed.insert(RELAY_TIME, HeaderValue::from(NOW));
        assert_eq!(
            key.verify_at(&retimed, "/ws/abc", NOW),
            Some(Err(Unsigned::Wrong))
        );
        let mut moved = headers(key.sign_at(client, "/ws/abc", NOW, NONCE));
        moved.insert(RELAYED_FOR, HeaderValue::from_static("192.0.2.10"));
        assert_eq!(
            key.verify_at(&moved, "/ws/abc", NOW),
            Some(Err(Unsigned::Wrong))
        );
        let mut unsigned = headers(key.sign_at(client, "/ws/abc", NOW, NONCE));
        unsigned.remove(RELAY_SIGNATURE);
        assert_eq!(
            key.verify_at(&unsigned, "/ws/abc", NOW),
            Some(Err(Unsigned::Wrong))
        );
    }

    #[tokio::test]
    async fn the_cluster_clock_is_the_databases_and_its_nodes_are_known_by_address() {
        let key = RelayKey::new(vec![7; 32]);
        key.update(
            local_ms() + 3_600_000,
            &["127.0.0.9:80".into(), "[::1]:81".into()],
        )
        .await;
        let now = key.now();
        let local = local_ms().div_euclid(1000);
        assert!((now - local - 3600).abs() <= 1, "{now} vs {local}");
        assert!(key.is_node("127.0.0.9".parse().unwrap()));
        assert!(key.is_node("::1".parse().unwrap()));
        assert!(!key.is_node("127.0.0.1".parse().unwrap()));
        // Signed on the cluster's clock, an hour off this node's, it is fresh.
        let client: IpAddr = "192.0.2.9".parse().unwrap();
        let signed = headers(key.sign(client, "/ws/abc"));
        assert_eq!(key.verify(&signed, "/ws/abc"), Some(Ok(client)));
        assert!(
            matches!(
                key.verify_at(&signed, "/ws/abc", local),
                Some(Err(Unsigned::Stale(age))) if (age + 3600).abs() <= 1
            ),
            "signed on this node's own clock, it is an hour ahead"
        );
    }

    #[test]
    fn a_signature_is_believed_for_one_socket_only() {
        let key = RelayKey::new(vec![7; 32]);
        let client: IpAddr = "192.0.2.9".parse().unwrap();
        let signed = headers(key.sign_at(client, "/ws/abc", NOW, NONCE));
        assert_eq!(key.verify_at(&signed, "/ws/abc", NOW), Some(Ok(client)));
        assert_eq!(
            key.verify_at(&signed, "/ws/abc", NOW + 30),
            Some(Err(Unsigned::Reused))
        );
        // Past the window it is refused as old, and forgotten.
        assert_eq!(
            key.verify_at(&signed, "/ws/abc", NOW + MAX_AGE_SECS + 1),
            Some(Err(Unsigned::Stale(MAX_AGE_SECS + 1)))
        );
        assert!(key.used.lock().unwrap().is_empty());
        // The same client, table and second with another nonce: another socket.
        let again = headers(key.sign_at(client, "/ws/abc", NOW, &"f".repeat(32)));
        assert_eq!(key.verify_at(&again, "/ws/abc", NOW), Some(Ok(client)));
        let (first, second) = (key.sign(client, "/ws/abc"), key.sign(client, "/ws/abc"));
        assert_ne!(first[2], second[2], "each signing draws its own nonce");
        // Another nonce under the same signature: not the cluster's.
        let mut renonced = headers(key.sign_at(client, "/ws/abc", NOW, NONCE));
        renonced.insert(RELAY_NONCE, HeaderValue::from_static("00"));
        assert_eq!(
            key.verify_at(&renonced, "/ws/abc", NOW),
            Some(Err(Unsigned::Wrong))
        );
    }

    #[test]
    fn the_query_is_signed_with_the_path() {
        let key = RelayKey::new(vec![7; 32]);
        let client: IpAddr = "192.0.2.9".parse().unwrap();
        let signed = headers(key.sign_at(client, "/ws/abc?x=1", NOW, NONCE));
        assert_eq!(
            key.verify_at(&signed, "/ws/abc", NOW),
            Some(Err(Unsigned::Wrong))
        );
        assert_eq!(
            key.verify_at(&signed, "/ws/abc?x=2", NOW),
            Some(Err(Unsigned::Wrong))
        );
        assert_eq!(key.verify_at(&signed, "/ws/abc?x=1", NOW), Some(Ok(client)));
    }

    #[test]
    fn a_full_memory_refuses_new_signatures_until_the_old_expire() {
        let key = RelayKey::new(vec![7; 32]);
        let client: IpAddr = "192.0.2.9".parse().unwrap();
        key.used
            .lock()
            .unwrap()
            .extend((0..MAX_REMEMBERED).map(|i| {
                (
                    NOW - 10,
                    [0, 0, (i >> 8) as u8, i as u8]
                        .repeat(8)
                        .try_into()
                        .unwrap(),
                )
            }));
        let signed = headers(key.sign_at(client, "/ws/abc", NOW, NONCE));
        assert_eq!(
            key.verify_at(&signed, "/ws/abc", NOW),
            Some(Err(Unsigned::Unremembered))
        );
        // Once those are past the window, there is room again.
        assert_eq!(
            key.verify_at(&signed, "/ws/abc", NOW + MAX_AGE_SECS - 9),
            Some(Ok(client))
        );
        assert_eq!(key.used.lock().unwrap().len(), 1);
    }
}
