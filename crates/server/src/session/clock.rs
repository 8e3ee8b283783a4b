//! The turn clock (the host's option) and the cut's wait, counted by the server: each
//! connection is told how long the seat to decide (or to cut) has left, by the server's
//! clock, so that a page opened again counts down what is left, not a fresh wait. When a
//! decision's time runs out, a bot of the clock's level makes that one decision and
//! everyone is told. A decision's deadline is kept with the step that made it due, so
//! that a restart gives no fresh clock.

use std::time::Duration;

use calltrump_bots::bot_by_name;
use calltrump_engine::{Seat, Turn};

use super::{Effect, Session, Timer};
use crate::model::{TableStatus, TurnClock};
use crate::protocol::ServerMessage;

/// A clock running: the seat, whether it is for a cut, and when it runs out (in
/// milliseconds since 1970).
type Running = (Seat, bool, i64);

/// Checks a host's turn clock: its seconds in range and its bot's level known.
pub fn check_clock(clock: &TurnClock) -> Result<(), String> {
    if !(1..=TurnClock::MAX_SECONDS).contains(&clock.seconds) {
        return Err(format!(
            "seconds: {} is not from 1 to {}",
            clock.seconds,
            TurnClock::MAX_SECONDS
        ));
    }
    bot_by_name(&clock.level)
        .map(|_| ())
        .map_err(|e| format!("level: {e}"))
}

impl Session {
    /// Each seat's deadline, to put back if a step is not kept.
    pub(super) fn deadlines(&self) -> Vec<Option<i64>> {
        self.seats.iter().map(|s| s.deadline_ms).collect()
    }

    /// On a table with a turn clock, the person whose decision the table waits for.
    fn clocked_seat(&self) -> Option<Seat> {
        self.turn_clock.as_ref()?;
        if self.status != TableStatus::Playing {
            return None;
        }
        match self.table.turn() {
            Turn::Seat(seat) if !self.is_bot_seat(seat) => Some(seat),
            _ => None,
        }
    }

    /// After a step: the deadline of the decision it leads to (the clock's length from
    /// now) at the seat of the person to decide, and none elsewhere. Whether any seat's
    /// changed (the seats are then kept with the step).
    pub(super) fn set_deadline(&mut self) -> bool {
        let seat = self.clocked_seat();
        let due = match (seat, &self.turn_clock) {
            (Some(_), Some(clock)) => Some(self.wall_ms() + clock.length().as_millis() as i64),
            _ => None,
        };
        let mut changed = false;
        for (i, record) in self.seats.iter_mut().enumerate() {
            let deadline = due.filter(|_| seat == Some(Seat(i as u8)));
            if record.deadline_ms != deadline {
                record.deadline_ms = deadline;
                changed = true;
            }
        }
        changed
    }

    /// The person of `seat` is to decide at `version`: their clock's timer runs until
    /// the seat's deadline (after a restart, what was left of it).
    pub(super) fn arm_clock(&mut self, seat: Seat, version: u64) {
        let Some(clock) = &self.turn_clock else {
            return;
        };
        let length = clock.length().as_millis() as i64;
        let now = self.wall_ms();
        // None: a person back at their seat while a bot stood in for them, or a table
        // from before the clock was kept: a whole clock, kept with the next write.
        let deadline = *self.seats[seat.index()]
            .deadline_ms
            .get_or_insert(now + length);
        self.effects.push(Effect::StartTimer {
            timer: Timer::Clock { version, seat },
            after: Duration::from_millis((deadline - now).max(0) as u64),
        });
    }

    /// The clock of `seat` at `version` ran out: if the person has still not decided, a
    /// bot of the clock's level decides for them.
    pub(super) fn clock_ran_out(&mut self, version: u64, seat: Seat) {
        let due = self.seats[seat.index()].deadline_ms;
        if version != self.table.version()
            || self.clocked_seat() != Some(seat)
            || self.pending == Some(version)
            || due.is_none_or(|due| due > self.wall_ms())
        {
            return;
        }
        let Some(level) = self.turn_clock.as_ref().map(|c| c.level.clone()) else {
            return;
        };
        tracing::info!(table = %self.id, %seat, "the turn clock ran out: a bot decides");
        self.clock_bot = Some(version);
        match bot_by_name(&level) {
            Ok(bot) => self.ask_bot_now(seat, bot, false),
            Err(_) => self.ask_fallback(seat),
        }
        self.tell_clock();
    }

    /// Whether the bot asked at `version` decides for a person whose clock ran out.
    pub(super) fn deciding_for_clock(&self, version: u64) -> bool {
        self.clock_bot == Some(version)
    }

    /// A bot decided for the person of `seat` whose clock ran out: everyone is told.
    pub(super) fn tell_time_up(&mut self, seat: Seat) {
        self.clock_bot = None;
        let level = self
            .turn_clock
            .as_ref()
            .map_or_else(String::new, |c| c.level.clone());
        self.broadcast(&ServerMessage::TimeUp { seat, level });
    }

    /// The clock running now, if any: a person's decision, or a person's cut.
    fn running_clock(&self) -> Option<Running> {
        let version = self.table.version();
        if let Some(seat) = self
            .clocked_seat()
            .filter(|_| self.clock_bot != Some(version))
        {
            return self.seats[seat.index()]
                .deadline_ms
                .map(|due| (seat, false, due));
        }
        let (at, seat, until) = self.cut_until?;
        (at == version && self.table.cutter() == Some(seat) && self.status == TableStatus::Playing)
            .then(|| (seat, true, self.wall_ms_at(until)))
    }

    fn clock_message(&self, running: Option<Running>) -> ServerMessage {
        let Some((seat, cut, due)) = running else {
            return ServerMessage::Clock {
                seat: None,
                ms: 0,
                of_ms: 0,
                cut: false,
            };
        };
        let of = match (&self.turn_clock, cut) {
            (Some(clock), false) => clock.length(),
            _ => self.config.cut_wait,
        };
        ServerMessage::Clock {
            seat: Some(seat),
            ms: (due - self.wall_ms()).max(0) as u64,
            of_ms: of.as_millis() as u64,
            cut,
        }
    }

    /// Tells every connection the clock now running (or that none runs), if it is not
    /// the one they were last told of.
    pub(super) fn tell_clock(&mut self) {
        let running = self.running_clock();
        if running != self.clock_told {
            self.clock_told = running;
            let message = self.clock_message(running);
            self.broadcast(&message);
        }
    }

    /// Tells connection `conn`, just come, the clock running now, if any.
    pub(super) fn send_clock(&mut self, conn: u64) {
        if let Some(running) = self.running_clock() {
            let message = self.clock_message(Some(running));
            self.send(conn, message);
        }
    }

    /// Milliseconds since 1970 now.
    fn wall_ms(&self) -> i64 {
        self.wall_ms_at(self.now)
    }

    /// Milliseconds since 1970 at `at`.
    fn wall_ms_at(&self, at: std::time::Instant) -> i64 {
        let (start, ms) = self.wall;
        ms + at.saturating_duration_since(start).as_millis() as i64
    }
}
