//! A table's typed state as the databases keep it, the same in SQLite and PostgreSQL:
//! its settings, deal generator and seats as JSON text. The settings column also holds
//! `"hints": true` for a table that allows hints and `"unattended": true` for one whose
//! bots play with nobody watching, `"turn_clock": {...}` for one with a turn clock and
//! `"rated": true` for a rated one (the server's own options, beside the table library's
//! settings), so databases written before the store was typed read back.

use calltrump_engine::GameRng;
use calltrump_table::Settings;

use super::{StoreError, StoredTable};
use crate::model::{SeatRecord, TableStatus};

/// The JSON columns of a table.
pub(super) struct TableText {
    pub settings: String,
    pub deal_rng: String,
    pub seats: String,
}

/// A table's JSON columns.
pub(super) fn encode(table: &StoredTable) -> TableText {
    let mut settings = serde_json::to_value(&table.settings).expect("settings serialize");
    for (option, on) in [
        ("hints", table.hints),
        ("unattended", table.unattended),
        ("rated", table.rated),
    ] {
        if let (true, Some(object)) = (on, settings.as_object_mut()) {
            object.insert(option.into(), true.into());
        }
    }
    if let (Some(night), Some(object)) = (&table.night, settings.as_object_mut()) {
        object.insert("night".into(), night.clone().into());
    }
    if let (Some(clock), Some(object)) = (&table.turn_clock, settings.as_object_mut()) {
        let clock = serde_json::to_value(clock).expect("a clock serializes");
        object.insert("turn_clock".into(), clock);
    }
    TableText {
        settings: settings.to_string(),
        deal_rng: serde_json::to_string(&table.deal_rng).expect("a generator serializes"),
        seats: seats_json(&table.seats),
    }
}

/// A table's row, typed; a column that does not read back is the store's corruption.
pub(super) fn decode(
    id: String,
    text: TableText,
    host_token: String,
    status: TableStatus,
    created_at: i64,
) -> Result<StoredTable, StoreError> {
    let corrupt = |column: &str, e: serde_json::Error| StoreError::Corrupt {
        table: id.clone(),
        message: format!("{column}: {e}"),
    };
    let mut settings: serde_json::Value =
        serde_json::from_str(&text.settings).map_err(|e| corrupt("settings", e))?;
    let mut option = |name: &str| {
        settings
            .as_object_mut()
            .and_then(|o| o.remove(name))
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    };
    let (hints, unattended, rated) = (option("hints"), option("unattended"), option("rated"));
    // A table kept before sets named their night has none.
    let night = match settings.as_object_mut().and_then(|o| o.remove("night")) {
        Some(serde_json::Value::String(night)) => Some(night),
        Some(other) => {
            let e = <serde_json::Error as serde::de::Error>::custom(format!("not an id: {other}"));
            return Err(corrupt("night", e));
        }
        None => None,
    };
    let turn_clock = match settings
        .as_object_mut()
        .and_then(|o| o.remove("turn_clock"))
    {
        Some(clock) => Some(serde_json::from_value(clock).map_err(|e| corrupt("turn_clock", e))?),
        None => None,
    };
    let settings: Settings =
        serde_json::from_value(settings).map_err(|e| corrupt("settings", e))?;
    let deal_rng: GameRng =
        serde_json::from_str(&text.deal_rng).map_err(|e| corrupt("deal generator", e))?;
    let seats: Vec<SeatRecord> =
        serde_json::from_str(&text.seats).map_err(|e| corrupt("seats", e))?;
    Ok(StoredTable {
        id,
        settings,
        hints,
        unattended,
        turn_clock,
        rated,
        night,
        deal_rng,
        seats,
        host_token,
        status,
        created_at,
    })
}

/// Seats as stored: JSON text.
pub(super) fn seats_json(seats: &[SeatRecord]) -> String {
    serde_json::to_string(seats).expect("seats serialize")
}
