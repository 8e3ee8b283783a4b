//! The limits on signing in: attempts on one account's name counted per client address,
//! and attempts from one address over every name. A stranger who tries wrong passwords
//! on a name spends only their own address's attempts on it: the owner, from any other
//! address, is never kept out. Guessing from many addresses is held by each one's limit
//! and by the few password hashes worked out at once (`accounts::MAX_HASHES_AT_ONCE`).
//!
//! The attempts are counted in the store ([`crate::store::Accounts::take_attempt`]): on
//! a cluster every node counts every node's, so that going round the nodes buys no more.

use std::net::IpAddr;
use std::time::Duration;

use crate::limits::address_key;
use crate::store::{Accounts, StoreError};

/// The limits on signing in, kept by the edge: attempts a minute (0: no limit), each also
/// the burst after a quiet while.
pub(crate) struct SignInLimits {
    /// On one name from one address.
    per_name: u32,
    /// From one address over every name (and accounts created).
    per_address: u32,
}

impl SignInLimits {
    /// `per_name` attempts a minute on one name from one address, `per_address` from
    /// one address over all names.
    pub(crate) fn new(per_name: u32, per_address: u32) -> Self {
        SignInLimits {
            per_name,
            per_address,
        }
    }

    /// Takes an attempt on the name `key` from `address` (no address, a request not
    /// from a socket, counts as one of its own): `None`, or the time until one is
    /// allowed.
    pub(crate) async fn take_name(
        &self,
        accounts: &dyn Accounts,
        key: &str,
        address: Option<IpAddr>,
    ) -> Result<Option<Duration>, StoreError> {
        let from = address.map_or_else(|| "-".to_string(), |a| address_key(a).to_string());
        // The address first: it has no space, so no name makes two keys alike.
        let limited = format!("name {from} {key}");
        accounts.take_attempt(&limited, self.per_name).await
    }

    /// Takes an attempt from `address` (none: not limited): `None`, or the time until
    /// one is allowed.
    pub(crate) async fn take_address(
        &self,
        accounts: &dyn Accounts,
        address: Option<IpAddr>,
    ) -> Result<Option<Duration>, StoreError> {
        let Some(address) = address else {
            return Ok(None);
        };
        let limited = format!("address {}", address_key(address));
        accounts.take_attempt(&limited, self.per_address).await
    }
}
