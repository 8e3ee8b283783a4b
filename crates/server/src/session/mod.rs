//! One table's session: a plain synchronous state machine. [`Session::handle`] takes
//! one [`Input`] (a client's message, a timer firing, a bot's or a hint's answer, a
//! connection opening or closing) and the time, and returns the [`Effect`]s the table's
//! task must carry out in order: persist, send, start or cancel a timer, ask a bot,
//! work out a hint. It reads no clock, touches no socket and no store, so it is tested
//! without either (`tests.rs`); the task in `hub` is its asynchronous shell.
//!
//! Everything a client may learn of the game leaves through [`Table::update_for`] and
//! [`Table::snapshot`], and an effect that sends it always comes after the
//! [`Effect::Persist`] that keeps it: the shell stops at a persist that fails and hands
//! the session [`Input::NotSaved`], which puts the table back as the store has it.

mod chat;
mod clock;
mod config;
mod hints;
mod host;
mod invite;
mod io;
mod leave;
mod saving;
mod seating;
#[cfg(test)]
mod tests;
mod turns;

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::time::{Duration, Instant};

use calltrump_bots::bot_by_name;
use calltrump_engine::{Action, Broken, Game, GameRng, PlayError, Record, Seat, Turn, Viewer};
use calltrump_table::{Entry, Player, Table, TableError};
use serde::Serialize;

use crate::model::{SeatRecord, Sitter, TableStatus, TurnClock};
use crate::protocol::{ChatMessage, CloseKind, ErrorCode, SeatInfo, ServerMessage};
use crate::rating::RatedGame;
use crate::store::{StoredChat, StoredTable};

pub use clock::check_clock;
pub use config::{
    HubConfig, CHAT_MAX_CHARS, DEFAULT_ABANDON_OPEN, DEFAULT_CUT_WAIT, DEFAULT_KEEP_OVER,
    DEFAULT_MAX_DEALS, DEFAULT_MAX_LIVE_TABLES, DEFAULT_MAX_UNATTENDED, FILL_LEVEL,
};
pub use hints::{hint_message, HintJob};
pub use invite::{Invitation, InviteRefused};
pub use io::{Effect, Input, Persist, Timer, TimerKey};
pub use leave::Outside;
use saving::{Checkpoint, SeatingCheckpoint};
pub use seating::player_name;

/// The bot that plays a turn whose own bot failed: one that cannot fail while the game
/// has a legal action.
const FALLBACK_LEVEL: &str = "random";

/// How long a table waits, after the store failed to keep a step, before it tries its
/// own next step (a bot's turn, a deal) again: the table pauses while the store fails,
/// and resumes once it keeps steps again.
pub const STORE_RETRY: Duration = Duration::from_millis(500);

/// Chat lines a newcomer is sent.
const CHAT_HISTORY: usize = 50;
/// Chat lines kept in memory: those sent to a newcomer, and one more, so that a line
/// the store does not keep is taken back without losing one of them.
const CHAT_KEPT: usize = CHAT_HISTORY + 1;

/// A table as the lobby lists it.
#[derive(Clone, Debug, Serialize)]
pub struct TableSummary {
    /// The id.
    pub id: String,
    /// The game.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// `open`, `playing`, `over` or `ended`.
    pub status: TableStatus,
    /// Whether its bots play with nobody watching (counted against the server's cap).
    #[serde(skip)]
    pub unattended: bool,
    /// Who sits where.
    pub seats: Vec<SeatInfo>,
}

/// Where fresh seat tokens come from: the OS's randomness in the server, a counter in
/// tests. A seat the host hands on gets a new one, so that the old link seats no one.
pub type Tokens = Box<dyn FnMut() -> String + Send>;

/// A client connected to a table.
#[derive(Clone)]
struct Connection {
    seat: Option<Seat>,
    host: bool,
    /// The name it gave: a spectator's shows on its chat lines.
    name: Option<String>,
    last_chat: Option<Instant>,
    /// The address it reached (`http://HOST`).
    base: String,
}

/// One table: its game, seats, connections and whatever is under way.
pub struct Session {
    id: String,
    config: HubConfig,
    table: Table,
    /// The deal generator before the first deal, to rebuild the table from its log.
    initial_rng: GameRng,
    seats: Vec<SeatRecord>,
    host_token: String,
    status: TableStatus,
    connections: HashMap<u64, Connection>,
    /// People away, since when (a seat whose record says a bot stands in is past its
    /// grace).
    away: HashMap<Seat, Instant>,
    /// Each seat's bot, made when first needed (taken out while it thinks).
    players: Vec<Option<Box<dyn Player>>>,
    /// A bot is thinking, or a deal or cut is due, at this version.
    pending: Option<u64>,
    chat_seq: i64,
    /// The latest chat lines, at most [`CHAT_KEPT`]: all a newcomer is sent (the rest
    /// stays in the store).
    chat: VecDeque<ChatMessage>,
    /// Connections made so far: a table idle since then may leave memory.
    epoch: u64,
    /// Whether a seat may ask for a hint.
    hints: bool,
    /// Whether its bots play with nobody watching and no person seated.
    unattended: bool,
    /// The host's turn clock, if any.
    turn_clock: Option<TurnClock>,
    /// The version at which the turn clock ran out and its bot decides for the person.
    clock_bot: Option<u64>,
    /// A person here must cut at this version: the seat, and when the server cuts.
    cut_until: Option<(u64, Seat, Instant)>,
    /// The clock the connections were last told of (see `clock.rs`).
    clock_told: Option<(Seat, bool, i64)>,
    /// The moment of the input being handled.
    now: Instant,
    /// Whether its game is rated: only signed-in people sit down.
    rated: bool,
    /// The night whose set this table is, if it is one.
    night: Option<String>,
    /// The latest hint worked out: its seat, version and message.
    last_hint: Option<(Seat, u64, ServerMessage)>,
    /// Hints being worked out, by seat and version: the connections waiting for each.
    hints_waiting: HashMap<(Seat, u64), Vec<u64>>,
    /// A moment and its wall-clock milliseconds since 1970: chat lines' times and turn
    /// clocks' deadlines follow it.
    wall: (Instant, i64),
    checkpoint: Option<Checkpoint>,
    /// What the input being handled may change of the seats, to put back.
    seating_checkpoint: Option<Box<SeatingCheckpoint>>,
    /// The store failed the last write, and the connections were told `paused` (and not
    /// `resumed` since): the next write that the store keeps tells them `resumed`.
    paused: bool,
    /// The input being handled queued `resumed` after its first persist: sent only if
    /// that persist is kept.
    resuming: bool,
    /// Fresh tokens for seats the host hands on.
    tokens: Tokens,
    /// Links the host revoked, with their seat: refused with a word of why.
    revoked: HashMap<String, Seat>,
    /// Seats the host opened for someone else during a hand: opened when it ends, so
    /// that nobody new sees the cards of a hand in play (kept in memory only).
    opening: BTreeSet<Seat>,
    /// The effects of the input being handled.
    effects: Vec<Effect>,
}

impl Session {
    /// The session of a stored table whose log is `log` and chat `chat`; `now` is the
    /// moment and `wall_ms` its milliseconds since 1970; new seat tokens come from
    /// `tokens`. People seated at a game in play are away from `now` (nobody is
    /// connected yet).
    pub fn restore(
        stored: StoredTable,
        log: &[Entry],
        chat: Vec<StoredChat>,
        config: HubConfig,
        (now, wall_ms): (Instant, i64),
        tokens: Tokens,
    ) -> Result<Session, TableError> {
        let table = Table::restore(stored.settings, stored.deal_rng.clone(), log)?;
        let away = if stored.status == TableStatus::Playing {
            stored
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.sitter == Sitter::Person)
                .map(|(i, _)| (Seat(i as u8), now))
                .collect()
        } else {
            HashMap::new()
        };
        Ok(Session {
            players: (0..table.seats()).map(|_| None).collect(),
            id: stored.id,
            config,
            table,
            initial_rng: stored.deal_rng,
            seats: stored.seats,
            host_token: stored.host_token,
            status: stored.status,
            connections: HashMap::new(),
            away,
            pending: None,
            chat_seq: chat.last().map_or(0, |stored| stored.line.seq),
            chat: chat[chat.len().saturating_sub(CHAT_KEPT)..]
                .iter()
                .cloned()
                .map(|stored| ChatMessage {
                    line: stored.line,
                    deals: stored.place.map(|p| p.deals),
                    actions: stored.place.map(|p| p.actions),
                })
                .collect(),
            epoch: 0,
            hints: stored.hints,
            unattended: stored.unattended,
            turn_clock: stored.turn_clock,
            clock_bot: None,
            cut_until: None,
            clock_told: None,
            now,
            rated: stored.rated,
            night: stored.night.clone(),
            last_hint: None,
            hints_waiting: HashMap::new(),
            wall: (now, wall_ms),
            checkpoint: None,
            seating_checkpoint: None,
            paused: false,
            resuming: false,
            tokens,
            revoked: HashMap::new(),
            opening: BTreeSet::new(),
            effects: Vec::new(),
        })
    }

    /// The table's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Where the table stands.
    pub fn status(&self) -> TableStatus {
        self.status
    }

    /// The table's game.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The seats.
    pub fn seats(&self) -> &[SeatRecord] {
        &self.seats
    }

    /// The game record as every player may see it now.
    pub fn record(&self) -> Record {
        if self.status == TableStatus::Ended {
            self.table.ended_record()
        } else if self.table.turn() == Turn::Over {
            self.table.record().clone()
        } else {
            self.table.public_record()
        }
    }

    /// The table as the lobby lists it at `now`.
    pub fn summary(&self, now: Instant) -> TableSummary {
        let rules = &self.table.settings().rules;
        TableSummary {
            id: self.id.clone(),
            game: rules.game().to_string(),
            variant: rules.variant().to_string(),
            status: self.status,
            unattended: self.unattended,
            seats: self.seat_infos(now),
        }
    }

    /// Handles `input` at `now`: what the table's task must do, in order.
    pub fn handle(&mut self, input: Input, now: Instant) -> Vec<Effect> {
        let checkpoint = self.checkpoint.take();
        let seating_checkpoint = self.seating_checkpoint.take();
        let resuming = std::mem::take(&mut self.resuming);
        self.now = now;
        self.seating_checkpoint = self.seating_checkpoint_for(&input);
        match input {
            Input::Resume => {
                // A seat a bot stood in for before the restart keeps its bot: no
                // fresh grace.
                for (seat, since) in self.away.clone() {
                    if !self.seats[seat.index()].stand_in {
                        self.start_grace_timer(seat, since, now);
                    }
                }
                self.retire_when_idle();
                self.schedule();
            }
            Input::Connect {
                conn,
                hello,
                base,
                account,
            } => self.connect(conn, hello, base, account, now),
            Input::Message { conn, message } => self.message(conn, message, now),
            Input::Disconnect { conn } => self.disconnect(conn, now),
            Input::AccountGone { account } => self.forget_account(&account, now),
            Input::Invite(invitation) => self.invite(invitation, now),
            Input::Outside(request) => self.outside(request, now),
            Input::Start => {
                if self.status == TableStatus::Open {
                    self.start(now);
                }
            }
            Input::Shutdown => {
                self.close_all(
                    CloseKind::Retry,
                    "the server is shutting down; reconnect in a moment",
                );
                self.effects.push(Effect::Stop);
            }
            Input::Timer { timer, entropy } => self.timer(timer, entropy, now),
            Input::BotAnswer {
                version,
                seat,
                action,
                player,
                fallback,
            } => self.bot_answer(version, seat, action, player, fallback),
            Input::HintReady {
                seat,
                version,
                message,
            } => self.hint_ready(seat, version, message),
            Input::NotSaved { error, kept } => {
                // `resumed` went out only if the persist before it was kept.
                if resuming && kept == 0 {
                    self.paused = true;
                }
                self.not_saved(checkpoint, seating_checkpoint, &error, now)
            }
        }
        std::mem::take(&mut self.effects)
    }

    /// Whether the table is paused: the store failed its last write.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Hands `persist` to the table's task, to keep before anything after it is sent.
    /// While paused, `resumed` follows it: sent only if the store keeps it (should it
    /// fail, the connections never heard `resumed`, and are not told `paused` again).
    fn persist(&mut self, persist: Persist) {
        self.effects.push(Effect::Persist(persist));
        if self.paused {
            self.paused = false;
            self.resuming = true;
            self.broadcast(&ServerMessage::Resumed);
        }
    }

    fn is_bot_seat(&self, seat: Seat) -> bool {
        let record = &self.seats[seat.index()];
        record.bot_level().is_some() || record.stand_in
    }

    /// A seated player's action, cut or undo: applied, or refused to connection `conn`
    /// with the reason; then the table's timers are set again.
    fn seated_move(
        &mut self,
        conn: u64,
        apply: impl FnOnce(&mut Table) -> Result<Vec<Entry>, String>,
    ) {
        if let Err(message) = self.step(Some(conn), apply) {
            self.send(conn, ServerMessage::error(ErrorCode::Illegal, message));
        }
        self.schedule();
    }

    /// Applies one step to the table: its entries (and the status, if the game ended)
    /// are persisted, then every connection is told. Refused: the table is unchanged.
    fn step(
        &mut self,
        conn: Option<u64>,
        apply: impl FnOnce(&mut Table) -> Result<Vec<Entry>, String>,
    ) -> Result<(), String> {
        let checkpoint = Checkpoint {
            version: Some(self.table.version()),
            deadlines: self.deadlines(),
            status: self.status,
            pending: self.pending,
            conn,
        };
        let entries = apply(&mut self.table)?;
        let over = self.table.turn() == Turn::Over && self.status == TableStatus::Playing;
        if over {
            self.status = TableStatus::Over;
            let scores = self.table.game().scores();
            tracing::info!(
                "table {}: the game is over, {} to {}",
                self.id,
                scores[0],
                scores[1]
            );
        }
        self.checkpoint = Some(checkpoint);
        // The clock of the decision the step leads to is kept with it.
        let clock_changed = self.set_deadline();
        let rated = match self.table.outcome() {
            Some(outcome) if over && self.rated => Some(RatedGame::new(
                &self.id,
                &self.table.settings().rules,
                &self.seats,
                outcome,
            )),
            _ => None,
        };
        self.persist(Persist::Step {
            entries: entries.clone(),
            table: (over || clock_changed).then(|| (self.status, self.seats.clone())),
            rated,
        });
        self.broadcast_updates(&entries);
        self.tell_clock();
        if over {
            self.broadcast(&ServerMessage::Status {
                status: self.status,
            });
            // No hand follows: a seat waiting to open may be opened now as it stands.
            self.opening.clear();
            self.retire_when_idle();
        }
        Ok(())
    }

    fn broadcast_updates(&mut self, entries: &[Entry]) {
        let mut cache: HashMap<Viewer, ServerMessage> = HashMap::new();
        for (&conn, connection) in &self.connections {
            let recipient = connection.seat.map_or(Viewer::Spectator, Viewer::Seat);
            let message = cache.entry(recipient).or_insert_with(|| {
                ServerMessage::Update(Box::new(self.table.update_for(entries, recipient)))
            });
            self.effects.push(Effect::Send {
                conn,
                message: message.clone(),
            });
        }
    }

    fn broadcast(&mut self, message: &ServerMessage) {
        for &conn in self.connections.keys() {
            self.effects.push(Effect::Send {
                conn,
                message: message.clone(),
            });
        }
    }

    fn broadcast_seats(&mut self, now: Instant) {
        let seats = self.seat_infos(now);
        self.broadcast(&ServerMessage::Seats { seats });
    }

    fn send(&mut self, conn: u64, message: ServerMessage) {
        if self.connections.contains_key(&conn) {
            self.effects.push(Effect::Send { conn, message });
        }
    }

    fn close_all(&mut self, kind: CloseKind, reason: &str) {
        for (conn, _) in self.connections.drain() {
            self.effects.push(Effect::Close {
                conn,
                closing: Some(ServerMessage::closing(kind, reason)),
            });
        }
    }

    /// The table's status becomes `status`: kept with the seats, then everyone told.
    fn set_status(&mut self, status: TableStatus) {
        self.status = status;
        match status {
            TableStatus::Playing => tracing::info!("table {}: the game starts", self.id),
            _ => tracing::info!("table {}: {status}", self.id),
        }
        self.save_seats();
        self.broadcast(&ServerMessage::Status { status });
    }

    fn save_seats(&mut self) {
        self.persist(Persist::Seats {
            status: self.status,
            seats: self.seats.clone(),
        });
    }

    /// Once the game is over and nobody is connected, the table leaves memory after a
    /// while (unless someone comes meanwhile); it stays in the store. A table whose game
    /// has not started and that nobody visits for [`HubConfig::abandon_open`] is ended.
    fn retire_when_idle(&mut self) {
        if !self.connections.is_empty() {
            return;
        }
        let after = match self.status {
            TableStatus::Over => self.config.keep_over,
            TableStatus::Open => self.config.abandon_open,
            TableStatus::Playing | TableStatus::Ended => return,
        };
        self.effects.push(Effect::StartTimer {
            timer: Timer::Retire { epoch: self.epoch },
            after,
        });
    }

    fn seat_infos(&self, now: Instant) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, record)| {
                let seat = Seat(i as u8);
                SeatInfo {
                    seat,
                    name: record
                        .name
                        .clone()
                        .or_else(|| record.bot_level().map(str::to_string)),
                    sitter: record.sitter.clone(),
                    connected: self.connections.values().any(|c| c.seat == Some(seat)),
                    grace_ms: self
                        .away
                        .get(&seat)
                        .filter(|_| !record.stand_in)
                        .map(|&since| {
                            let away = now.saturating_duration_since(since);
                            self.config.grace.saturating_sub(away).as_millis() as u64
                        }),
                    bot_standing_in: record.stand_in,
                    opens_after_hand: self.opening.contains(&seat),
                }
            })
            .collect()
    }

    /// Seconds since 1970 at `now`.
    fn wall_secs(&self, now: Instant) -> i64 {
        let (at, ms) = self.wall;
        (ms + now.saturating_duration_since(at).as_millis() as i64) / 1000
    }
}

/// A refused action's message; when the game waits for another kind of action (a card
/// in the auction, a call in the play), what the seat may do instead.
fn with_choices(table: &Table, seat: Seat, error: &TableError) -> String {
    let TableError::Illegal(PlayError {
        broken: Broken::NotNow { .. },
        ..
    }) = error
    else {
        return error.to_string();
    };
    let legal = table.view(Viewer::Seat(seat)).legal;
    let choices: Vec<String> = legal.iter().map(Action::to_string).collect();
    format!("{error}; seat {seat} may now: {}", choices.join(", "))
}

/// Checks a seat's sitter as a host gives it: `open` or `bot:LEVEL` with a known level.
pub fn check_sitter(sitter: &Sitter) -> Result<(), String> {
    match sitter {
        Sitter::Open => Ok(()),
        Sitter::Person => Err("\"person\" is no seat to give: \"open\" waits for a person".into()),
        Sitter::Bot(level) => bot_by_name(level).map(|_| ()).map_err(|e| e.to_string()),
    }
}
