//! The limits on signing in: attempts on one account's name counted per client address,
//! and attempts from one address over every name. A stranger who tries wrong passwords
//! on a name spends only their own address's attempts on it: the owner, from any other
//! address, is never kept out. Guessing from many addresses is held by each one's limit
//! and by the few password hashes worked out at once (`accounts::MAX_HASHES_AT_ONCE`).

use std::net::IpAddr;
use std::time::{Duration, Instant};

use crate::limits::{address_key, RateLimit};

/// The limits on signing in, kept by the edge.
pub(crate) struct SignInLimits {
    /// Per (name key, client address); no address (a request not from a socket) counts
    /// as one of its own.
    by_name: RateLimit<(String, Option<IpAddr>)>,
    pub(crate) by_address: RateLimit,
}

impl SignInLimits {
    /// `per_name` attempts a minute on one name from one address, `per_address` from
    /// one address over all names (0: no limit), each also the burst after a quiet while.
    pub(crate) fn new(per_name: u32, per_address: u32) -> Self {
        SignInLimits {
            by_name: RateLimit::new(per_name, per_name),
            by_address: RateLimit::new(per_address, per_address),
        }
    }

    /// Takes an attempt on the name `key` from `address`: `Ok`, or the time until one
    /// is allowed.
    pub(crate) fn take_name(
        &self,
        key: &str,
        address: Option<IpAddr>,
        now: Instant,
    ) -> Result<(), Duration> {
        self.by_name
            .take_key((key.to_string(), address.map(address_key)), now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_names_attempts_are_counted_per_address() {
        let limits = SignInLimits::new(2, 0);
        let now = Instant::now();
        let owner: IpAddr = "192.0.2.1".parse().unwrap();
        let stranger: IpAddr = "198.51.100.7".parse().unwrap();
        assert!(limits.take_name("ann", Some(stranger), now).is_ok());
        assert!(limits.take_name("ann", Some(stranger), now).is_ok());
        assert!(limits.take_name("ann", Some(stranger), now).is_err());
        // The stranger's /64 neighbour is the stranger.
        let v6: IpAddr = "2001:db8::1".parse().unwrap();
        let v6_next: IpAddr = "2001:db8::2".parse().unwrap();
        assert!(limits.take_name("ann", Some(v6), now).is_ok());
        assert!(limits.take_name("ann", Some(v6), now).is_ok());
        assert!(limits.take_name("ann", Some(v6_next), now).is_err());
        // Another address, and another name, are not held back.
        assert!(limits.take_name("ann", Some(owner), now).is_ok());
        assert!(limits.take_name("bob", Some(stranger), now).is_ok());
    }
}
