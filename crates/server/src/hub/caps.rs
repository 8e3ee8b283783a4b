//! The server's caps on tables: how many may be live, and how many play unattended.

use super::{Hub, HubError};

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

    /// Live tables whose bots play unattended.
    pub(super) fn unattended_tables(&self) -> usize {
        let tables = self
            .shared
            .tables
            .lock()
            .expect("the table map is never poisoned");
        tables
            .values()
            .filter(|(_, summary)| summary.unattended && summary.status.is_live())
            .count()
    }
}
