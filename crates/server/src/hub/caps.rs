//! The server's caps on tables: how many may be live, and how many play unattended,
//! overall and asked for from one client address.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Mutex;

use super::{Hub, HubError};
use crate::limits::address_key;

/// Whether a new table counts against the caps on unattended tables.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Capped {
    /// It does: asked for from this client address (if known), counted in its share.
    From(Option<IpAddr>),
    /// It does not: a night's next set, which replaces its last.
    No,
}

/// Who asked for each unattended table, and the turn of making one.
#[derive(Default)]
pub(crate) struct Unattended {
    /// Held while an unattended table is checked against the caps and made.
    pub(super) creating: tokio::sync::Mutex<()>,
    /// Table id to the address (by [`address_key`]) that asked for it; a table no
    /// longer live is forgotten at the next count.
    askers: Mutex<HashMap<String, IpAddr>>,
}

impl Unattended {
    /// Table `id`, unattended, was asked for from `from`.
    pub(super) fn asked(&self, id: &str, from: IpAddr) {
        self.askers
            .lock()
            .expect("the askers are never poisoned")
            .insert(id.to_string(), address_key(from));
    }
}

impl Hub {
    /// Refused (503, saying why) if the server holds all the open and playing tables it
    /// takes ([`super::HubConfig::max_live_tables`]): checked for a new table or night.
    pub(crate) fn check_live_tables(&self) -> Result<(), HubError> {
        let cap = self.shared.config.max_live_tables;
        let live = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned")
            .values()
            .filter(|(_, summary)| summary.status.is_live())
            .count();
        if live >= cap {
            return Err(HubError::Busy(format!(
                "the server has {live} tables open or in play, all it takes (--max-live-tables {cap}): join one from the lobby, or try again later"
            )));
        }
        Ok(())
    }

    /// Refused if the server plays all the unattended tables it takes (503), or the
    /// address `from` asked for its share of them (429).
    pub(super) fn check_unattended(&self, from: Option<IpAddr>) -> Result<(), HubError> {
        let live: HashSet<String> = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned")
            .iter()
            .filter(|(_, (_, summary))| summary.unattended && summary.status.is_live())
            .map(|(id, _)| id.clone())
            .collect();
        let config = &self.shared.config;
        let cap = config.max_unattended;
        if live.len() >= cap {
            return Err(HubError::Busy(format!(
                "unattended: the server already plays {cap} tables of bots with nobody watching, all it takes (--max-unattended-tables): leave \"unattended\" out (the bots then play while someone watches), or try again later"
            )));
        }
        let Some(from) = from.map(address_key) else {
            return Ok(());
        };
        let mut askers = self
            .shared
            .unattended
            .askers
            .lock()
            .expect("the askers are never poisoned");
        askers.retain(|id, _| live.contains(id));
        let share = config.unattended_share();
        if askers.values().filter(|&&a| a == from).count() >= share {
            return Err(HubError::TooMany(format!(
                "unattended: your address has its share of the tables of bots playing with nobody watching ({share} of the server's {cap}, --max-unattended-tables-per-address): leave \"unattended\" out (the bots then play while someone watches), or wait until one of them ends"
            )));
        }
        Ok(())
    }
}
