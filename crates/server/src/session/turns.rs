//! What comes next without a person: deals, cuts, bots' turns (and a fallback bot when
//! one fails), graces running out, idle tables leaving memory.

use std::time::{Duration, Instant};

use calltrump_bots::{bot_by_name, Bot};
use calltrump_engine::fair_deal::{self, Seed};
use calltrump_engine::{stream, Action, Seat, Turn};
use calltrump_table::{BotPlayer, Player};

use super::{Effect, Session, Timer, FALLBACK_LEVEL, FILL_LEVEL};
use crate::model::{Sitter, TableStatus};

impl Session {
    pub(super) fn timer(&mut self, timer: Timer, entropy: [u8; 32], now: Instant) {
        match timer {
            Timer::Deal { version } | Timer::Cut { version }
                if version == self.table.version()
                    && self.status == TableStatus::Playing
                    && !self.opening.is_empty() =>
            {
                // Between hands: the seats opened during the last one open first,
                // and the deal (or cut) comes after as usual.
                if self.pending == Some(version) {
                    self.pending = None;
                }
                self.open_after_hand(now);
                self.schedule();
            }
            Timer::Deal { version } => {
                if self.pending == Some(version) {
                    self.pending = None;
                }
                if version == self.table.version()
                    && self.status == TableStatus::Playing
                    && self.table.turn() == Turn::Chance
                {
                    let committed = self.table.settings().committed.is_some();
                    // At the deal limit the game ends as a draw instead.
                    let at_limit = self.table.deals() >= self.config.max_deals;
                    let done = self.step(None, |t| {
                        if at_limit {
                            t.end_as_draw()
                        } else if committed {
                            t.commit(Seed(entropy))
                        } else {
                            t.deal()
                        }
                        .map_err(|e| e.to_string())
                    });
                    if let Err(error) = done {
                        tracing::error!(table = %self.id, %error, "a deal failed");
                    }
                }
                self.schedule();
            }
            Timer::Cut { version } => {
                if self.pending == Some(version) {
                    self.pending = None;
                }
                let cutter = self
                    .table
                    .cutter()
                    .filter(|_| version == self.table.version());
                // The quick cut set while nobody sat there waits for a person who sat
                // down at the cutter's seat since: they see the deck to cut, and get their time.
                let waited = self.cut_until.is_some_and(|(at, _, _)| at == version);
                if let Some(cutter) = cutter.filter(|&c| waited || !self.person_here(c)) {
                    let deck = fair_deal::deck(&self.table.settings().rules).len() as u64;
                    let mut bytes = [0u8; 8];
                    bytes.copy_from_slice(&entropy[..8]);
                    let cut = 1 + u64::from_le_bytes(bytes) % (deck - 1);
                    if let Err(error) =
                        self.step(None, |t| t.cut(cutter, cut).map_err(|e| e.to_string()))
                    {
                        tracing::error!(table = %self.id, %error, "a cut failed");
                    }
                }
                self.schedule();
            }
            Timer::Grace { seat, since } => {
                if self.away.get(&seat) == Some(&since) && self.status == TableStatus::Playing {
                    // Kept, so that a restart finds the bot still standing in.
                    self.seats[seat.index()].stand_in = true;
                    self.save_seats();
                    self.broadcast_seats(now);
                    self.schedule();
                }
            }
            Timer::Clock { version, seat } => self.clock_ran_out(version, seat),
            Timer::StoreRetry => {
                self.schedule();
                // Nothing of the table's own to write (a person's turn): the seats are
                // written again as they stand, to learn when the store keeps writes.
                if self.paused && self.pending != Some(self.table.version()) {
                    self.save_seats();
                }
            }
            Timer::Retire { epoch } => {
                if epoch == self.epoch && self.connections.is_empty() {
                    match self.status {
                        TableStatus::Over => self.effects.push(Effect::Stop),
                        TableStatus::Open => {
                            tracing::info!(table = %self.id, "nobody came: the table is closed");
                            self.set_status(TableStatus::Ended);
                            self.effects.push(Effect::Stop);
                        }
                        TableStatus::Playing | TableStatus::Ended => {}
                    }
                }
            }
        }
    }

    /// A bot's answer at `seat`; if the bot failed (no action, or one the table
    /// refuses), the failure is logged and a fallback bot is asked for the turn, so that
    /// the table never waits on a broken bot.
    pub(super) fn bot_answer(
        &mut self,
        version: u64,
        seat: Seat,
        action: Option<Action>,
        player: Option<Box<dyn Player>>,
        fallback: bool,
    ) {
        // A bot that decided for a person whose clock ran out is not the seat's.
        if !fallback && self.is_bot_seat(seat) {
            self.players[seat.index()] = player;
        }
        if self.pending == Some(version) {
            self.pending = None;
        }
        let for_clock = self.deciding_for_clock(version);
        if version == self.table.version()
            && (self.is_bot_seat(seat) || for_clock)
            && self.status == TableStatus::Playing
        {
            let played = match action {
                Some(action) => {
                    self.step(None, |t| t.apply(seat, action).map_err(|e| e.to_string()))
                }
                None => Err("it gave no action".to_string()),
            };
            if played.is_ok() && for_clock {
                self.tell_time_up(seat);
            }
            if let Err(error) = played {
                if fallback {
                    tracing::error!(table = %self.id, %seat, %error, "the fallback bot failed too");
                } else {
                    tracing::error!(table = %self.id, %seat, %error, "the seat's bot failed: a fallback bot plays the turn");
                    self.ask_fallback(seat);
                    return;
                }
            }
        }
        self.schedule();
    }

    pub(super) fn ask_fallback(&mut self, seat: Seat) {
        let Ok(bot) = bot_by_name(FALLBACK_LEVEL) else {
            return;
        };
        self.ask_bot_now(seat, bot, true);
    }

    /// Asks `bot` at once for `seat`'s decision at this version (`fallback`: it stands
    /// in for a bot that failed).
    pub(super) fn ask_bot_now(&mut self, seat: Seat, bot: Box<dyn Bot>, fallback: bool) {
        let version = self.table.version();
        self.pending = Some(version);
        self.effects.push(Effect::AskBot {
            seat,
            version,
            player: Box::new(BotPlayer::new(bot, stream(version, seat.0.into()))),
            game: Box::new(self.table.game().clone()),
            after: Duration::ZERO,
            fallback,
        });
    }

    /// Starts whatever comes next without a person (a deal, a cut, or a bot's
    /// decision) or a person's turn clock, and tells the connections the clock running.
    pub(super) fn schedule(&mut self) {
        self.schedule_next();
        self.tell_clock();
    }

    fn schedule_next(&mut self) {
        let version = self.table.version();
        // Something is already under way for this version (a timer from an older one
        // finds the table moved on and does nothing).
        if self.status != TableStatus::Playing || self.pending == Some(version) {
            return;
        }
        // Bots alone play while someone watches, or unattended if the host chose so:
        // nobody's table plays for ever in an empty room.
        let someone =
            !self.connections.is_empty() || self.seats.iter().any(|s| s.sitter == Sitter::Person);
        if !someone && !self.unattended {
            return;
        }
        let delay = self.config.bot_delay;
        match self.table.turn() {
            Turn::Over => {}
            Turn::Chance => {
                self.pending = Some(version);
                let (timer, after) = match self.table.cutter() {
                    // A committed deck waits for its cut: a person gets time to cut.
                    Some(cutter) => {
                        let wait = if self.person_here(cutter) {
                            self.cut_until =
                                Some((version, cutter, self.now + self.config.cut_wait));
                            self.config.cut_wait
                        } else {
                            delay
                        };
                        (Timer::Cut { version }, wait)
                    }
                    None => (Timer::Deal { version }, delay),
                };
                self.effects.push(Effect::StartTimer { timer, after });
            }
            Turn::Seat(seat) if self.is_bot_seat(seat) => {
                let Some(player) = self.take_player(seat) else {
                    return;
                };
                self.pending = Some(version);
                self.effects.push(Effect::AskBot {
                    seat,
                    version,
                    player,
                    game: Box::new(self.table.game().clone()),
                    after: delay,
                    fallback: false,
                });
            }
            Turn::Seat(seat) => self.arm_clock(seat, version),
        }
    }

    /// Whether a person is connected at `seat`, which no bot plays.
    fn person_here(&self, seat: Seat) -> bool {
        !self.is_bot_seat(seat) && self.connections.values().any(|c| c.seat == Some(seat))
    }

    /// The seat's bot, made on first use: the seat's level, or the standing-in level.
    fn take_player(&mut self, seat: Seat) -> Option<Box<dyn Player>> {
        let slot = &mut self.players[seat.index()];
        if slot.is_none() {
            let level = self.seats[seat.index()].bot_level().unwrap_or(FILL_LEVEL);
            let bot = bot_by_name(level).ok()?;
            let seed = self
                .id
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
            *slot = Some(Box::new(BotPlayer::new(bot, stream(seed, seat.0.into()))));
        }
        slot.take()
    }
}
