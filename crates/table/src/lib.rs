//! A calltrump table: one game run for people and bots, the library under the terminal
//! (`calltrump play`, `simulate`, `arena`, `night`) and the table server.
//!
//! - [`Table`] is push-style: [`Table::apply`] takes an action from the seat that sent it,
//!   checks it against that seat, applies it and returns the [`Entry`]s it caused, each
//!   numbered with the table's next version (1, 2, 3, ...). Deals are chance, drawn from
//!   the table's seeded generator by [`Table::deal`].
//! - The full log stays with the table. What a seat or a spectator receives passes one
//!   choke point, [`Table::update_for`]: its own cards and what it saw, never more.
//! - [`Table::snapshot`] is what a client that joins late or reconnects draws; it equals
//!   the fold of that recipient's updates ([`ClientState`]).
//! - [`Table::undo`] takes back a human seat's last action and the bot actions after it,
//!   where the table allows undo, by replaying the record.
//! - The game record is the log's projection ([`Table::record`]); [`Table::restore`]
//!   rebuilds a table from its log.
//! - Bots (and outside programs) sit at seats as a [`Player`], given a [`Budget`].

mod client;
mod log;
mod player;
mod table;

pub use client::{ClientState, DealCheck, SeenEvent, Snapshot, Update};
pub use log::{Entry, Event};
pub use player::{BotPlayer, Budget, Player, PlayerError, Request};
pub use table::{Settings, Table, TableError, UndoError};
