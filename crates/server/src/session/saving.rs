//! What the session puts back when the store does not keep a write: the checkpoints
//! taken before an input, and the rolling back to them (the session's memory never runs
//! ahead of the store).

use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

use calltrump_engine::Seat;
use calltrump_table::Table;

use super::Effect;
use super::{Connection, Input, ServerMessage, Session, Timer, STORE_RETRY};
use crate::model::{SeatRecord, TableStatus};
use crate::protocol::{ClientMessage, CloseKind, ErrorCode};

/// What a step or chat line changed, to put back if the store does not keep it.
pub(super) struct Checkpoint {
    /// The table's version before the step (none: a chat line).
    pub(super) version: Option<u64>,
    /// The seats' turn clock deadlines before the step.
    pub(super) deadlines: Vec<Option<i64>>,
    pub(super) status: TableStatus,
    pub(super) pending: Option<u64>,
    /// The connection that asked for it, told of the failure.
    pub(super) conn: Option<u64>,
}

/// The seats and status before an input that may change them (a connection taking a
/// seat, the host's controls, the start, the end of a table nobody came to), with what
/// changes along with them, to put back if the store does not keep them: the session's
/// memory never runs ahead of the store.
pub(super) struct SeatingCheckpoint {
    pub(super) seats: Vec<SeatRecord>,
    pub(super) status: TableStatus,
    pub(super) connections: HashMap<u64, Connection>,
    pub(super) away: HashMap<Seat, Instant>,
    pub(super) revoked: HashMap<String, Seat>,
    pub(super) opening: BTreeSet<Seat>,
    /// What was under way: a bot asked for a seat given to it is asked no more.
    pub(super) pending: Option<u64>,
    pub(super) epoch: u64,
    /// The connection that asked, told of the failure.
    pub(super) asker: Option<u64>,
    /// Whether the asker was connecting: it is closed (to come again), as it never
    /// joined.
    pub(super) connecting: bool,
}

impl Session {
    /// What `input` may change of the seats and status, taken before it is handled;
    /// none for inputs that never change them.
    pub(super) fn seating_checkpoint_for(&self, input: &Input) -> Option<Box<SeatingCheckpoint>> {
        let (asker, connecting) = match input {
            Input::Connect { conn, .. } => (Some(*conn), true),
            Input::Message {
                conn,
                message: ClientMessage::Start | ClientMessage::End | ClientMessage::SetSeat { .. },
            } => (Some(*conn), false),
            Input::Start
            | Input::AccountGone { .. }
            | Input::Invite(_)
            | Input::Timer {
                timer:
                    Timer::Retire { .. } | Timer::StoreRetry | Timer::Deal { .. } | Timer::Cut { .. },
                ..
            } => (None, false),
            _ => return None,
        };
        Some(Box::new(SeatingCheckpoint {
            seats: self.seats.clone(),
            status: self.status,
            connections: self.connections.clone(),
            away: self.away.clone(),
            revoked: self.revoked.clone(),
            opening: self.opening.clone(),
            pending: self.pending,
            epoch: self.epoch,
            asker,
            connecting,
        }))
    }

    /// The store did not keep the last write: what it changed is put back, the
    /// connections are told the table is paused (once), and the table tries again in a
    /// while.
    pub(super) fn not_saved(
        &mut self,
        checkpoint: Option<Checkpoint>,
        seating: Option<Box<SeatingCheckpoint>>,
        error: &str,
        now: Instant,
    ) {
        // (Logged, sampled, where the store failed: `Metrics::store_error`.)
        tracing::debug!(table = %self.id, %error, "not saved");
        if let Some(seating) = seating {
            self.roll_back_seating(*seating, error, now);
        }
        if let Some(checkpoint) = checkpoint {
            self.roll_back(checkpoint, error);
        }
        if !self.paused {
            self.paused = true;
            self.broadcast(&ServerMessage::Paused {
                reason: format!("the server cannot save: {error}; waiting"),
            });
        }
        // Not at once: a store that fails now likely fails a moment later too.
        self.effects.push(Effect::StartTimer {
            timer: Timer::StoreRetry,
            after: STORE_RETRY,
        });
    }

    /// The store did not keep the last step or chat line: the session goes back to
    /// where it was before it, and whoever asked is told.
    pub(super) fn roll_back(&mut self, checkpoint: Checkpoint, error: &str) {
        self.status = checkpoint.status;
        for (record, deadline) in self.seats.iter_mut().zip(checkpoint.deadlines) {
            record.deadline_ms = deadline;
        }
        self.pending = checkpoint.pending;
        let message = match checkpoint.version {
            Some(version) => {
                let settings = self.table.settings().clone();
                let log = &self.table.log()[..version as usize];
                self.table = Table::restore(settings, self.initial_rng.clone(), log)
                    .expect("a log that was played replays");
                format!("the action could not be saved: {error}")
            }
            None => {
                self.chat.pop_back();
                self.chat_seq -= 1;
                format!("the chat line could not be saved: {error}")
            }
        };
        if let Some(conn) = checkpoint.conn {
            self.send(conn, ServerMessage::error(ErrorCode::NotSaved, message));
        }
    }

    /// The store did not keep the seats and status: they, and what changed with them,
    /// are as they were before the input; whoever asked is told (a connection that
    /// was taking a seat is closed, to come again).
    pub(super) fn roll_back_seating(
        &mut self,
        checkpoint: SeatingCheckpoint,
        error: &str,
        now: Instant,
    ) {
        self.seats = checkpoint.seats;
        self.status = checkpoint.status;
        self.connections = checkpoint.connections;
        self.away = checkpoint.away;
        self.revoked = checkpoint.revoked;
        self.opening = checkpoint.opening;
        self.pending = checkpoint.pending;
        self.epoch = checkpoint.epoch;
        // Graces started or stopped along with the seats run as the seats stand again.
        for (seat, since) in self.away.clone() {
            self.start_grace_timer(seat, since, now);
        }
        let message = format!("the seats could not be saved: {error}");
        match checkpoint.asker {
            Some(conn) if checkpoint.connecting => {
                self.effects.push(Effect::Send {
                    conn,
                    message: ServerMessage::error(ErrorCode::NotSaved, message),
                });
                self.effects.push(Effect::Close {
                    conn,
                    closing: Some(ServerMessage::closing(
                        CloseKind::Retry,
                        "the server cannot save now; come again in a moment",
                    )),
                });
            }
            Some(conn) => self.send(conn, ServerMessage::error(ErrorCode::NotSaved, message)),
            None => {}
        }
        self.retire_when_idle();
    }
}
