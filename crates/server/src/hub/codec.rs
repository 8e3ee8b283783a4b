//! A stored table's game, rebuilt from its log.

use calltrump_table::{Entry, Table};

use super::HubError;
use crate::store::{StoreError, StoredTable};

/// The store's corruption of table `id`.
pub(super) fn corrupt(id: &str, message: String) -> HubError {
    HubError::Store(StoreError::Corrupt {
        table: id.to_string(),
        message,
    })
}

/// A stored table's game, rebuilt from its log.
pub(super) fn stored_table(stored: &StoredTable, log: &[Entry]) -> Result<Table, HubError> {
    Table::restore(stored.settings.clone(), stored.deal_rng.clone(), log)
        .map_err(|e| corrupt(&stored.id, e.to_string()))
}
