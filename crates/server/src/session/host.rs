//! What a connection may ask after `hello`: play, cut, undo, hint, chat, and the host's
//! controls (start, end, give a seat to a bot or open it again).

use std::time::Instant;

use calltrump_engine::{Action, Seat};

use super::{check_sitter, with_choices, Effect, Session};
use crate::model::{Sitter, TableStatus};
use crate::protocol::{ClientMessage, CloseKind, ErrorCode, ServerMessage};

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
            ClientMessage::Act { version, action } => self.act(conn, seat, version, &action),
            ClientMessage::Cut { cut } => match seat {
                Some(seat) => {
                    self.seated_move(conn, |t| t.cut(seat, cut).map_err(|e| e.to_string()));
                    Ok(())
                }
                None => Err((ErrorCode::NotSeated, "only a seated player may cut".into())),
            },
            ClientMessage::Undo => match seat {
                Some(seat) => {
                    self.seated_move(conn, |t| {
                        t.undo(seat).map_err(|e| format!("cannot undo: {e}"))
                    });
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
        action: &str,
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
        let action: Action = action.parse().map_err(|error| {
            (
                ErrorCode::Malformed,
                format!("\"{action}\" is not an action: {error}"),
            )
        })?;
        self.seated_move(conn, |t| {
            t.apply(seat, action)
                .map_err(|error| with_choices(t, seat, &error))
        });
        Ok(())
    }

    /// The host gives `seat` to a bot, or opens it for a person again.
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
        let record = &mut self.seats[seat.index()];
        if sitter == Sitter::Open {
            // Back to a person: the seat waits for its link again.
            record.sitter = if record.name.is_some() {
                Sitter::Person
            } else {
                Sitter::Open
            };
            let token = record.token.clone();
            if self.status == TableStatus::Playing
                && !self.connections.values().any(|c| c.seat == Some(seat))
            {
                self.put_on_grace(seat, now);
            }
            // The host gets the seat's link, to hand to whoever takes it.
            let invites: Vec<Effect> = self
                .connections
                .iter()
                .filter(|(_, c)| c.host)
                .map(|(&conn, c)| Effect::Send {
                    conn,
                    message: ServerMessage::Invite {
                        seat,
                        url: format!("{}/table/{}#token={token}", c.base, self.id),
                        token: token.clone(),
                    },
                })
                .collect();
            self.effects.extend(invites);
        } else {
            record.sitter = sitter;
            self.players[seat.index()] = None;
            // The person's connections leave the seat.
            let leaving: Vec<u64> = self
                .connections
                .iter()
                .filter(|(_, c)| c.seat == Some(seat))
                .map(|(&k, _)| k)
                .collect();
            for conn in leaving {
                self.connections.remove(&conn);
                self.effects.push(Effect::Close {
                    conn,
                    closing: Some(ServerMessage::closing(
                        CloseKind::SeatGone,
                        format!("the host gave seat {seat} to a bot"),
                    )),
                });
            }
        }
        self.save_seats();
        self.broadcast_seats(now);
        self.schedule();
        Ok(())
    }
}
