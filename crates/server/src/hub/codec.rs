//! A table as the store keeps it (settings, generator and seats as JSON text) to and
//! from the session's typed state.

use calltrump_engine::GameRng;
use calltrump_table::{Entry, Settings, Table};

use super::HubError;
use crate::model::SeatRecord;
use crate::session::Stored;
pub(super) use crate::store::seats_json;
use crate::store::{StoreError, StoredTable};

/// The store's corruption of table `id`.
pub(super) fn corrupt(id: &str, message: String) -> HubError {
    HubError::Store(StoreError::Corrupt {
        table: id.to_string(),
        message,
    })
}

/// A table's settings as stored: the table's [`Settings`] and, beside them, `hints`
/// when the table allows hints (the server's own option; the table knows nothing of it).
pub(super) fn settings_json(settings: &Settings, hints: bool) -> String {
    let mut value = serde_json::to_value(settings).expect("settings serialize");
    if let (true, Some(object)) = (hints, value.as_object_mut()) {
        object.insert("hints".into(), true.into());
    }
    value.to_string()
}

/// A stored table, typed.
pub(super) fn decode(stored: &StoredTable) -> Result<Stored, HubError> {
    let bad = |e: serde_json::Error| corrupt(&stored.id, e.to_string());
    let mut value: serde_json::Value = serde_json::from_str(&stored.settings).map_err(bad)?;
    let hints = value
        .as_object_mut()
        .and_then(|o| o.remove("hints"))
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let settings: Settings = serde_json::from_value(value).map_err(bad)?;
    let deal_rng: GameRng = serde_json::from_str(&stored.deal_rng).map_err(bad)?;
    let seats: Vec<SeatRecord> = serde_json::from_str(&stored.seats).map_err(bad)?;
    Ok(Stored {
        id: stored.id.clone(),
        settings,
        hints,
        deal_rng,
        seats,
        host_token: stored.host_token.clone(),
        status: stored.status,
    })
}

/// A stored table's game, rebuilt from its log.
pub(super) fn stored_table(stored: &StoredTable, log: &[Entry]) -> Result<Table, HubError> {
    let typed = decode(stored)?;
    Table::restore(typed.settings, typed.deal_rng, log)
        .map_err(|e| corrupt(&stored.id, e.to_string()))
}
