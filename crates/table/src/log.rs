//! The table's log: every event in full, numbered. It stays with the table; what a
//! recipient receives of it is redacted ([`SeenEvent`](crate::SeenEvent)).

use calltrump_engine::{Action, CardBag, GameRng, HandSummary, Outcome, Seat};
use serde::{Deserialize, Serialize};

/// What happened at the table, in full: kept in the log, never sent as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Event {
    /// A hand was dealt: every seat's cards, and the deal generator after the deal (so a
    /// table restored from its log deals on exactly as it would have).
    Dealt {
        /// The hand's dealer.
        dealer: Seat,
        /// Each seat's cards.
        hands: Vec<CardBag>,
        /// The deal generator after this deal.
        rng: GameRng,
    },
    /// A seat acted.
    Acted {
        /// The seat.
        seat: Seat,
        /// What it did.
        action: Action,
    },
    /// The hand ended.
    HandEnded {
        /// What it amounted to.
        summary: HandSummary,
        /// The running totals after it.
        scores: [i32; 2],
    },
    /// The next hand's secret seed was drawn and committed to (the seed stays in the
    /// log, server side, until the hand is over).
    Committed {
        /// The secret seed, 64 hex digits.
        seed: String,
        /// Its commitment, 64 hex digits, announced to everyone.
        commitment: String,
        /// The seat that cuts.
        cutter: Seat,
    },
    /// The cutting seat cut the deck; the deal follows.
    Cut {
        /// The seat.
        seat: Seat,
        /// Cards lifted from the top, from 1 to the deck's size less one.
        cut: u64,
    },
    /// After a committed hand, its seed for everyone to check.
    Revealed {
        /// The seed, 64 hex digits.
        seed: String,
    },
    /// The game ended.
    GameEnded {
        /// Who won.
        outcome: Outcome,
        /// The final scores.
        scores: [i32; 2],
    },
    /// A seat took back its last action and the bot actions after it.
    Undone {
        /// The seat that asked.
        seat: Seat,
        /// How many actions were taken back.
        actions: usize,
    },
}

/// One event of the log with its version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The table's version after this event: 1 for the first.
    pub version: u64,
    /// The event.
    pub event: Event,
}
