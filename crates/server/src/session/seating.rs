//! Connections and seats: who comes, who takes a seat, who is away, and the grace
//! before a bot stands in for a person away.

use std::time::Instant;

use calltrump_engine::{Seat, Viewer};

use super::{Connection, Effect, Session, Timer, TimerKey, FILL_LEVEL};
use crate::model::{Sitter, TableStatus};
use crate::protocol::{ClientMessage, CloseKind, ErrorCode, ServerMessage};

/// Chat lines sent to a client on joining.
const CHAT_HISTORY: usize = 50;

/// Most characters of a player's name.
const NAME_CHARS: usize = 40;

/// A name as a seat or a night shows it: trimmed, at most [`NAME_CHARS`] characters;
/// none if blank.
pub fn player_name(name: &str) -> Option<String> {
    Some(name.trim().chars().take(NAME_CHARS).collect::<String>()).filter(|n| !n.is_empty())
}

impl Session {
    /// Connection `conn` said `hello` (or `look`): it takes its token's seat, watches,
    /// or is refused and closed.
    pub(super) fn connect(&mut self, conn: u64, hello: ClientMessage, base: String, now: Instant) {
        // `look`: a seat's link whose person has not sat down yet watches; the seat
        // stays open (`welcome` names it all the same).
        let (token, name, version, host_token, looking) = match hello {
            ClientMessage::Hello {
                token,
                name,
                version,
                host,
            } => (token, name, version, host, false),
            ClientMessage::Look { token } => (Some(token), None, None, None, true),
            _ => {
                self.refuse_connection(
                    conn,
                    ServerMessage::error(ErrorCode::Hello, "the first message must be \"hello\""),
                    None,
                );
                return;
            }
        };
        let name = name.as_deref().and_then(player_name);
        let host_only = token.as_deref() == Some(self.host_token.as_str());
        let host =
            !looking && (host_only || host_token.as_deref() == Some(self.host_token.as_str()));
        let seat = match token.as_deref() {
            None => None,
            Some(_) if host_only && !looking => None,
            Some(token) => match self.seats.iter().position(|s| s.token == token) {
                Some(i) => Some(Seat(i as u8)),
                None => {
                    self.refuse_connection(
                        conn,
                        ServerMessage::error(
                            ErrorCode::BadToken,
                            "this link's token does not belong to this table",
                        ),
                        Some(ServerMessage::closing(CloseKind::BadToken, "unknown token")),
                    );
                    return;
                }
            },
        };
        if let Some(seat) = seat.filter(|s| self.seats[s.index()].bot_level().is_some()) {
            self.refuse_connection(
                conn,
                ServerMessage::error(
                    ErrorCode::SeatTaken,
                    format!("seat {seat} is played by a bot now; ask the host for it"),
                ),
                Some(ServerMessage::closing(
                    CloseKind::SeatGone,
                    "seat taken by a bot",
                )),
            );
            return;
        }
        // The seat the token is for; a connection that only looks holds none.
        let token_seat = seat;
        let seat = seat.filter(|_| !looking);
        if let Some(seat) = seat {
            let record = &mut self.seats[seat.index()];
            record.sitter = Sitter::Person;
            if name.is_some() {
                record.name = name.clone();
            }
            tracing::info!(
                "table {}: seat {seat} is taken by {}",
                self.id,
                record.name.as_deref().unwrap_or("a player with no name")
            );
            // Back before or after the grace: the person plays again.
            if self.away.remove(&seat).is_some() {
                self.effects
                    .push(Effect::CancelTimer(TimerKey::Grace(seat)));
            }
            self.standing_in.remove(&seat);
            self.save_seats();
        }
        self.connections.insert(
            conn,
            Connection {
                seat,
                host,
                name,
                last_chat: None,
                base,
            },
        );
        self.epoch += 1;
        self.effects.push(Effect::CancelTimer(TimerKey::Retire));
        self.send(
            conn,
            ServerMessage::Welcome {
                table: self.id.clone(),
                seat: token_seat,
                host,
                rules: self.table.settings().rules.clone(),
                status: self.status,
                undo: self.table.settings().undo,
                hints: self.hints,
                cut_wait_ms: self.config.cut_wait.as_millis() as u64,
            },
        );
        let recipient = seat.map_or(Viewer::Spectator, Viewer::Seat);
        if version != Some(self.table.version()) {
            let snapshot = ServerMessage::Snapshot(self.table.snapshot(recipient));
            self.send(conn, snapshot);
        }
        let skip = self.chat.len().saturating_sub(CHAT_HISTORY);
        let history = self.chat[skip..].iter().map(|line| Effect::Send {
            conn,
            message: ServerMessage::Chat(line.clone()),
        });
        self.effects.extend(history);
        if looking {
            // Nothing changed for the others; this client needs the seats.
            let seats = self.seat_infos(now);
            self.send(conn, ServerMessage::Seats { seats });
            return;
        }
        self.broadcast_seats(now);
        // Every person's seat taken: the game starts.
        if self.status == TableStatus::Open && self.seats.iter().all(|s| s.sitter != Sitter::Open) {
            self.start(now);
        }
        self.schedule();
    }

    /// A connection refused at `hello`: told why, then forgotten.
    fn refuse_connection(
        &mut self,
        conn: u64,
        error: ServerMessage,
        closing: Option<ServerMessage>,
    ) {
        self.effects.push(Effect::Send {
            conn,
            message: error,
        });
        self.effects.push(Effect::Close { conn, closing });
    }

    pub(super) fn disconnect(&mut self, conn: u64, now: Instant) {
        let Some(connection) = self.connections.remove(&conn) else {
            return;
        };
        self.effects.push(Effect::Close {
            conn,
            closing: None,
        });
        if let Some(seat) = connection.seat {
            let still_here = self.connections.values().any(|c| c.seat == Some(seat));
            if !still_here {
                tracing::info!("table {}: seat {seat}'s player left", self.id);
            }
            if !still_here && self.status == TableStatus::Playing {
                self.put_on_grace(seat, now);
            }
        }
        self.broadcast_seats(now);
        self.retire_when_idle();
    }

    /// The person of `seat` is away: a bot stands in once the grace runs out.
    pub(super) fn put_on_grace(&mut self, seat: Seat, now: Instant) {
        self.away.insert(seat, now);
        self.start_grace_timer(seat, now, now);
    }

    pub(super) fn start_grace_timer(&mut self, seat: Seat, since: Instant, now: Instant) {
        let gone = now.saturating_duration_since(since);
        self.effects.push(Effect::StartTimer {
            timer: Timer::Grace { seat, since },
            after: self.config.grace.saturating_sub(gone),
        });
    }

    /// The game starts: bots fill the open seats.
    pub(super) fn start(&mut self, now: Instant) {
        for record in &mut self.seats {
            if record.sitter == Sitter::Open {
                record.sitter = Sitter::Bot(FILL_LEVEL.into());
            }
        }
        // People who took a seat and left before the start: their grace starts now.
        let absent: Vec<Seat> = (0..self.seats.len())
            .map(|i| Seat(i as u8))
            .filter(|&seat| {
                self.seats[seat.index()].sitter == Sitter::Person
                    && !self.connections.values().any(|c| c.seat == Some(seat))
            })
            .collect();
        for seat in absent {
            self.put_on_grace(seat, now);
        }
        self.set_status(TableStatus::Playing);
        self.broadcast_seats(now);
        self.schedule();
    }
}
