//! The limits on signing in: attempts per account name and per client address, sparing
//! on a name's limit the addresses that signed in to it before, so that a stranger who
//! tries wrong passwords on a name keeps its owner out of no device they used before.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::limits::{address_key, RateLimit};

/// Addresses remembered as having signed in to a name, before the oldest is forgotten.
const KNOWN_MAX: usize = 10_000;

/// The limits on signing in, kept by the edge.
pub(crate) struct SignInLimits {
    by_name: RateLimit<String>,
    pub(crate) by_address: RateLimit,
    /// (name key, client address) that signed in, and when.
    known: Mutex<HashMap<(String, IpAddr), Instant>>,
}

impl SignInLimits {
    /// `per_name` attempts a minute on one name, `per_address` from one address (0: no
    /// limit), each also the burst after a quiet while.
    pub(crate) fn new(per_name: u32, per_address: u32) -> Self {
        SignInLimits {
            by_name: RateLimit::new(per_name, per_name),
            by_address: RateLimit::new(per_address, per_address),
            known: Mutex::new(HashMap::new()),
        }
    }

    /// Takes an attempt on the name `key` from `address`: `Ok`, or the time until one
    /// is allowed. An address that signed in to the name before is not counted.
    pub(crate) fn take_name(
        &self,
        key: &str,
        address: Option<IpAddr>,
        now: Instant,
    ) -> Result<(), Duration> {
        if let Some(address) = address {
            let known = self.known.lock().expect("never poisoned");
            if known.contains_key(&(key.to_string(), address_key(address))) {
                return Ok(());
            }
        }
        self.by_name.take_key(key.to_string(), now)
    }

    /// `address` signed in to the name `key`: spared on the name's limit from now on.
    pub(crate) fn signed_in(&self, key: &str, address: Option<IpAddr>, now: Instant) {
        let Some(address) = address else {
            return;
        };
        let mut known = self.known.lock().expect("never poisoned");
        if known.len() >= KNOWN_MAX {
            // The one that signed in longest ago makes room: memory stays bounded.
            let oldest = known
                .iter()
                .min_by_key(|(_, at)| **at)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                known.remove(&oldest);
            }
        }
        known.insert((key.to_string(), address_key(address)), now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_that_signed_in_before_is_spared_the_names_limit() {
        let limits = SignInLimits::new(2, 0);
        let now = Instant::now();
        let owner: IpAddr = "192.0.2.1".parse().unwrap();
        let stranger: IpAddr = "198.51.100.7".parse().unwrap();
        limits.signed_in("ann", Some(owner), now);
        assert!(limits.take_name("ann", Some(stranger), now).is_ok());
        assert!(limits.take_name("ann", Some(stranger), now).is_ok());
        assert!(limits.take_name("ann", Some(stranger), now).is_err());
        // Another address is held back; the owner's is not, nor for another name.
        assert!(limits.take_name("ann", None, now).is_err());
        assert!(limits.take_name("ann", Some(owner), now).is_ok());
        assert!(limits.take_name("bob", Some(owner), now).is_ok());
    }
}
