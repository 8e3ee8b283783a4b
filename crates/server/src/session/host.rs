//! What a connection may ask after `hello`: play, cut, undo, hint, chat, and the host's
//! controls (start, end, give a seat to a bot or open it again).

use std::time::Instant;

use calltrump_engine::{Action, Seat, Turn};

use super::{check_sitter, with_choices, Effect, Session, TimerKey};
use crate::model::{Sitter, TableStatus};
use crate::protocol::{ClientMessage, CloseKind, ErrorCode, ServerMessage};
use crate::rating::anchors::LEVELS;

/// The most former players a seat names: a host handing a seat on again and again does
/// not grow its record without bound.
const MAX_FORMER: usize = 8;

impl Session {
    /// Handles a message of connection `conn` after `hello`.
    pub(super) fn message(&mut self, conn: u64, message: ClientMessage, now: Instant) {
        let Some(connection) = self.connections.get(&conn) else {
            return;
        };
        let (seat, host) = (connection.seat, connection.host);
        let refused = match message {
            ClientMessage::Hello { .. } | ClientMessage::Look { .. } => {
                Err((ErrorCode::Hello, "already said hello".to_string()))
            }
            ClientMessage::Ping => {
                self.send(conn, ServerMessage::Pong);
                Ok(())
            }
            ClientMessage::Act { version, action } => self.act(conn, seat, version, action),
            ClientMessage::Cut { cut } => match seat {
                Some(seat) => {
                    self.seated_move(conn, |t| t.cut(seat, cut).map_err(|e| e.to_string()));
                    Ok(())
                }
                None => Err((ErrorCode::NotSeated, "only a seated player may cut".into())),
            },
            ClientMessage::Undo => match seat {
                Some(seat) => {
                    self.undo(conn, seat);
                    Ok(())
                }
                None => Err((ErrorCode::NotSeated, "only a seated player may undo".into())),
            },
            ClientMessage::Hint => self.ask_hint(conn, seat),
            ClientMessage::Chat { text } => {
                self.chat_line(conn, seat, text, now);
                Ok(())
            }
            ClientMessage::Start | ClientMessage::End | ClientMessage::SetSeat { .. } if !host => {
                Err((ErrorCode::NotHost, "only the host may do that".into()))
            }
            ClientMessage::Start => {
                if self.status == TableStatus::Open {
                    self.start(now);
                    Ok(())
                } else {
                    Err((
                        ErrorCode::Status,
                        format!("the table is {} already", self.status),
                    ))
                }
            }
            // A game played out keeps its result: "ended" would hide who won.
            ClientMessage::End if self.status == TableStatus::Over => Err((
                ErrorCode::Status,
                "the game is over: its result stands (nothing to end)".to_string(),
            )),
            // Nor can a rated game be called off while it is played: a host who is
            // losing would leave no rating behind (it is played out, stand-ins for
            // whoever leaves).
            ClientMessage::End if self.rated && self.status == TableStatus::Playing => Err((
                ErrorCode::Status,
                "a rated game is played to its end: it cannot be ended while it is under way (whoever leaves is played by a stand-in bot and still rated)".to_string(),
            )),
            ClientMessage::End => {
                self.set_status(TableStatus::Ended);
                self.close_all(CloseKind::TableGone, "the host ended the table");
                self.effects.push(Effect::Stop);
                Ok(())
            }
            ClientMessage::SetSeat { seat, sitter } => self.set_seat(seat, sitter, now),
        };
        if let Err((code, message)) = refused {
            self.send(conn, ServerMessage::error(code, message));
        }
    }

    /// `act`: the seat's action at `version`.
    fn act(
        &mut self,
        conn: u64,
        seat: Option<Seat>,
        version: u64,
        action: Action,
    ) -> Result<(), (ErrorCode, String)> {
        let Some(seat) = seat else {
            return Err((ErrorCode::NotSeated, "only a seated player may act".into()));
        };
        if self.status != TableStatus::Playing {
            return Err((
                ErrorCode::Status,
                format!("the table is {}, not playing", self.status),
            ));
        }
        let current = self.table.version();
        if version != current {
            return Err((
                ErrorCode::Version,
                if version < current {
                    format!("stale version {version}: the table is at version {current}")
                } else {
                    format!(
                        "version {version} is ahead of the table, which is at version {current}: answer the last version received"
                    )
                },
            ));
        }
        self.seated_move(conn, |t| {
            t.apply(seat, action)
                .map_err(|error| with_choices(t, seat, &error))
        });
        Ok(())
    }

    /// `undo`: the seat's last action and what followed it taken back. Its player's own:
    /// a seat changes hands only between hands (`set_seat`), and undo stays in the hand.
    fn undo(&mut self, conn: u64, seat: Seat) {
        self.seated_move(conn, |t| {
            t.undo(seat).map_err(|e| format!("cannot undo: {e}"))
        });
    }

    /// Whether a hand is in play: dealt, and not yet over.
    fn in_hand(&self) -> bool {
        self.status == TableStatus::Playing && matches!(self.table.turn(), Turn::Seat(_))
    }

    /// The hand is over (the next is to be dealt): the seats the host opened during it
    /// open now, each with a new link.
    pub(super) fn open_after_hand(&mut self, now: Instant) {
        let seats = std::mem::take(&mut self.opening);
        for seat in seats {
            if let Err((_, error)) = self.set_seat(seat, Sitter::Open, now) {
                tracing::error!(table = %self.id, %error, "a seat did not open after its hand");
            }
        }
    }

    /// Whether a rated table's host may give `seat` to `sitter`. A rated game's
    /// partners and opponents are what was rated: once it has started no seat changes
    /// hands (a host losing could otherwise swap in a weaker bot, or hand their own
    /// seat away and leave no rating behind; whoever leaves is played by the stand-in
    /// bot and stays rated). Before, only the bots a rated table takes at creation, and
    /// a person's seat is kept.
    fn check_rated_seat(&self, seat: Seat, sitter: &Sitter) -> Result<(), (ErrorCode, String)> {
        if self.status != TableStatus::Open {
            return Err((
                ErrorCode::Status,
                format!(
                    "seat {seat} cannot change hands: the table is rated and its game has started, so its players are what is rated (whoever leaves is played by a stand-in bot and still rated)"
                ),
            ));
        }
        if let Some(level) = sitter.bot_level() {
            if !LEVELS.contains(&level) {
                return Err((
                    ErrorCode::BadSeat,
                    format!(
                        "seat {seat} cannot go to {sitter}: a rated table's bots are {} (their ratings are measured)",
                        LEVELS.join(", ")
                    ),
                ));
            }
            let person_left = self
                .seats
                .iter()
                .enumerate()
                .any(|(i, s)| i != seat.index() && s.sitter.bot_level().is_none());
            if !person_left {
                return Err((
                    ErrorCode::BadSeat,
                    format!("seat {seat} cannot go to a bot: a rated table needs a person's seat (it rates people)"),
                ));
            }
        }
        Ok(())
    }

    /// The host gives `seat` to a bot, or opens it for a person again, with a new token
    /// (during a hand: once it ends).
    fn set_seat(
        &mut self,
        seat: Seat,
        sitter: Sitter,
        now: Instant,
    ) -> Result<(), (ErrorCode, String)> {
        if seat.index() >= self.seats.len() {
            return Err((ErrorCode::BadSeat, format!("there is no seat {seat}")));
        }
        check_sitter(&sitter).map_err(|message| (ErrorCode::BadSeat, message))?;
        if self.rated {
            self.check_rated_seat(seat, &sitter)?;
        }
        // Opened during a hand, the seat would show its new person the hand's cards
        // (a host could take another player's seat with a second connection and see
        // them): it opens when the hand ends. A bot may take it at once.
        if sitter == Sitter::Open && self.in_hand() {
            self.opening.insert(seat);
            self.broadcast_seats(now);
            return Ok(());
        }
        self.opening.remove(&seat);
        // The seat is handed on with a new token: the link handed out before seats no
        // one.
        let fresh = (self.tokens)();
        let old = std::mem::replace(&mut self.seats[seat.index()].token, fresh.clone());
        self.revoked.insert(old, seat);
        let reason = if sitter == Sitter::Open {
            format!("the host opened seat {seat} for someone else")
        } else {
            format!("the host gave seat {seat} to a bot")
        };
        let leaving: Vec<u64> = self
            .connections
            .iter()
            .filter(|(_, c)| c.seat == Some(seat))
            .map(|(&k, _)| k)
            .collect();
        for conn in &leaving {
            self.connections.remove(conn);
        }
        let to_bot = sitter != Sitter::Open;
        let mut invites = Vec::new();
        let record = &mut self.seats[seat.index()];
        record.stand_in = false;
        // Someone who played here is still named in the game's replay.
        if let Some(name) = record.name.take().filter(|_| self.table.deals() > 0) {
            if record.former.len() < MAX_FORMER {
                record.former.push(name);
            }
        }
        // Handed on: no longer its account's either.
        record.account = None;
        if !to_bot {
            // A person's again: the seat waits for whoever the host hands its new link.
            record.sitter = Sitter::Open;
            if self.status == TableStatus::Playing {
                self.put_on_grace(seat, now);
            }
            invites = self
                .connections
                .iter()
                .filter(|(_, c)| c.host)
                .map(|(&conn, c)| Effect::Send {
                    conn,
                    message: ServerMessage::Invite {
                        seat,
                        url: format!("{}/table/{}#token={fresh}", c.base, self.id),
                        token: fresh.clone(),
                    },
                })
                .collect();
        } else {
            record.sitter = sitter;
            self.away.remove(&seat);
            self.players[seat.index()] = None;
        }
        // Kept first: should the store fail, the seat's player stays as it was.
        self.save_seats();
        if to_bot {
            self.effects
                .push(Effect::CancelTimer(TimerKey::Grace(seat)));
        }
        for conn in leaving {
            self.effects.push(Effect::Close {
                conn,
                closing: Some(ServerMessage::closing(CloseKind::SeatGone, reason.clone())),
            });
        }
        self.effects.extend(invites);
        self.broadcast_seats(now);
        self.schedule();
        Ok(())
    }
}
