//! What goes in and out of a session: its inputs, its timers, and the effects the
//! table's task carries out.

use std::time::{Duration, Instant};

use calltrump_engine::{Action, AnyGame, Seat};
use calltrump_table::{Entry, Player};

use super::HintJob;
use crate::model::{SeatRecord, SignedIn, TableStatus};
use crate::protocol::{ClientMessage, ServerMessage};
use crate::rating::RatedGame;
use crate::store::{ChatLine, ChatPlace};

/// What happens to a table.
pub enum Input {
    /// The table's task starts (or starts again after a restart): its timers are set.
    Resume,
    /// A client connected: `hello` is its first message.
    Connect {
        /// The connection's number.
        conn: u64,
        /// Its first message.
        hello: ClientMessage,
        /// The address the client reached (`http://HOST`), for the links sent to it.
        base: String,
        /// The account it came signed in with, if any.
        account: Option<SignedIn>,
    },
    /// A client's message after `hello`.
    Message {
        /// The connection.
        conn: u64,
        /// The message.
        message: ClientMessage,
    },
    /// A client went away.
    Disconnect {
        /// The connection.
        conn: u64,
    },
    /// An account was deleted: the seats bound to it keep their games under the name
    /// "a former player".
    AccountGone {
        /// The account's id.
        account: String,
    },
    /// The host invites an account to a seat (checked first by
    /// [`super::Session::invite_refusal`]).
    Invite(super::Invitation),
    /// A player leaves or declines a seat, or the host closes the table, from outside it
    /// (checked first by [`super::Session::outside_refusal`]).
    Outside(super::Outside),
    /// Start the game, as the host would (a night starts its sets of bots so).
    Start,
    /// The server is shutting down.
    Shutdown,
    /// A timer set by [`Effect::StartTimer`] fired.
    Timer {
        /// The timer.
        timer: Timer,
        /// Random bytes from the OS, for a committed deal's seed or a cut.
        entropy: [u8; 32],
    },
    /// A bot asked by [`Effect::AskBot`] answered.
    BotAnswer {
        /// The version it answered.
        version: u64,
        /// Its seat.
        seat: Seat,
        /// Its action, or none if it failed.
        action: Option<Action>,
        /// The bot, handed back (none if its thread panicked: it is made again).
        player: Option<Box<dyn Player>>,
        /// Whether it was the fallback bot of a turn whose own bot failed.
        fallback: bool,
    },
    /// A hint asked by [`Effect::ComputeHint`] was worked out.
    HintReady {
        /// The seat it is for.
        seat: Seat,
        /// The version it is for.
        version: u64,
        /// The `hint` message, or none if its task failed.
        message: Option<Box<ServerMessage>>,
    },
    /// The last [`Effect::Persist`] failed: the effects after it were not carried out.
    NotSaved {
        /// The store's error.
        error: String,
        /// How many persists of the same input were kept before the one that failed.
        kept: usize,
    },
}

/// A table's timers; a timer that fires after the table moved on does nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// Time to deal at this version.
    Deal {
        /// The version the deal was due at.
        version: u64,
    },
    /// Time to cut for the cutting seat at this version.
    Cut {
        /// The version the cut was due at.
        version: u64,
    },
    /// A person's grace ran out.
    Grace {
        /// The seat.
        seat: Seat,
        /// When the person went away.
        since: Instant,
    },
    /// A person's turn clock ran out.
    Clock {
        /// The version the decision was due at.
        version: u64,
        /// The seat.
        seat: Seat,
    },
    /// The table may leave memory (or, not started, be ended), if nobody came since.
    Retire {
        /// The count of connections made when the table fell idle.
        epoch: u64,
    },
    /// A while after the store failed a write: what comes next without a person (a
    /// bot's turn, a deal) is tried again, or, if nothing is, the seats are written
    /// again, to learn when the store keeps writes.
    StoreRetry,
}

/// Which timer: starting one replaces the running one of the same key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimerKey {
    /// The deal or cut due next.
    Turn,
    /// A seat's grace.
    Grace(Seat),
    /// The turn clock of the decision due.
    Clock,
    /// Leaving memory.
    Retire,
    /// Trying again after the store failed.
    StoreRetry,
}

impl Timer {
    /// The timer's key.
    pub fn key(&self) -> TimerKey {
        match self {
            Timer::Deal { .. } | Timer::Cut { .. } => TimerKey::Turn,
            Timer::Grace { seat, .. } => TimerKey::Grace(*seat),
            Timer::Clock { .. } => TimerKey::Clock,
            Timer::Retire { .. } => TimerKey::Retire,
            Timer::StoreRetry => TimerKey::StoreRetry,
        }
    }
}

/// What the store must keep, before anything after it is sent.
#[derive(Clone, Debug, PartialEq)]
pub enum Persist {
    /// A step's log entries, with the table's status and seats if the step changed them:
    /// all together or nothing.
    Step {
        /// The entries, to append to the log.
        entries: Vec<Entry>,
        /// The status and seats after the step, if it changed them.
        table: Option<(TableStatus, Vec<SeatRecord>)>,
        /// The rated game the step ended, rated once the step is kept.
        rated: Option<RatedGame>,
    },
    /// The table's status and seats.
    Seats {
        /// The status.
        status: TableStatus,
        /// The seats.
        seats: Vec<SeatRecord>,
    },
    /// A chat line and where in the game it was said.
    Chat {
        /// The line.
        line: ChatLine,
        /// Where it was said.
        place: ChatPlace,
    },
}

/// What the table's task must do, in order.
pub enum Effect {
    /// Keep this; if it fails, skip the rest and hand the session [`Input::NotSaved`].
    Persist(Persist),
    /// Send a message to a connection.
    Send {
        /// The connection.
        conn: u64,
        /// The message.
        message: ServerMessage,
    },
    /// Forget a connection, after sending it its `closing` if any.
    Close {
        /// The connection.
        conn: u64,
        /// Its last message.
        closing: Option<ServerMessage>,
    },
    /// Fire `timer` after `after` (replacing the running timer of its key).
    StartTimer {
        /// The timer.
        timer: Timer,
        /// When.
        after: Duration,
    },
    /// Stop the running timer of this key.
    CancelTimer(TimerKey),
    /// After `after`, ask `player` for the action of `seat` in `game`, off the task, and
    /// answer with [`Input::BotAnswer`].
    AskBot {
        /// The seat.
        seat: Seat,
        /// The table's version.
        version: u64,
        /// The bot.
        player: Box<dyn Player>,
        /// The game as it stands.
        game: Box<AnyGame>,
        /// The pause first, so people can follow.
        after: Duration,
        /// Whether it is the fallback of a failed bot.
        fallback: bool,
    },
    /// Work out a hint off the task, and answer with [`Input::HintReady`].
    ComputeHint(Box<HintJob>),
    /// The table is done: its task ends.
    Stop,
}
