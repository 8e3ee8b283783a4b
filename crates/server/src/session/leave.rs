//! A player leaves a table before its game starts, or declines the seat a host invited
//! them to; the host closes a table whose game has not started. Asked over HTTP ("My
//! tables"), so that tables a person holds do not pile up with no way out.

use std::time::Instant;

use calltrump_engine::Seat;

use super::{Effect, InviteRefused, Session, FILL_LEVEL};
use crate::model::{Sitter, TableStatus};
use crate::protocol::{CloseKind, ServerMessage};

/// What a person asks of a table from outside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outside {
    /// The signed-in account gives up its seat: an invitation not yet taken (declined,
    /// at any time), or a seat taken at a table whose game has not started.
    Leave {
        /// The account's id.
        account: String,
    },
    /// The host closes a table whose game has not started.
    Close {
        /// The host's token.
        host_token: String,
    },
}

impl Session {
    /// The seat `account` holds at this table, if any.
    fn seat_of(&self, account: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.account.as_deref() == Some(account))
            .map(|i| Seat(i as u8))
    }

    /// Why `request` is refused, or none: a wrong host token; a table over; an account
    /// holding no seat here; a seat taken at a game under way (whoever leaves a game is
    /// played by a stand-in bot); a table already started, to close.
    pub fn outside_refusal(&self, request: &Outside) -> Option<InviteRefused> {
        if !self.status.is_live() {
            return Some(InviteRefused::Seat(format!(
                "the table is {} already",
                self.status
            )));
        }
        match request {
            Outside::Close { host_token } if *host_token != self.host_token => {
                Some(InviteRefused::NotHost)
            }
            Outside::Close { .. } if self.status != TableStatus::Open => Some(InviteRefused::Seat(
                "the game has started: a table is closed here only before its start (the host ends it from the table's page)".into(),
            )),
            Outside::Close { .. } => None,
            Outside::Leave { account } => {
                let Some(seat) = self.seat_of(account) else {
                    return Some(InviteRefused::Seat(
                        "you hold no seat at this table (nor an invitation to one)".into(),
                    ));
                };
                let record = &self.seats[seat.index()];
                let taken = record.sitter != Sitter::Open;
                (taken && self.status != TableStatus::Open).then(|| {
                    InviteRefused::Seat(format!(
                        "seat {seat}: the game has started: a seat is left only before the start (whoever leaves a game is played by a stand-in bot)"
                    ))
                })
            }
        }
    }

    /// Carries out `request` (after [`Session::outside_refusal`] found nothing wrong).
    pub(super) fn outside(&mut self, request: Outside, now: Instant) {
        if let Some(why) = self.outside_refusal(&request) {
            tracing::warn!("table {}: a request refused late: {why}", self.id);
            return;
        }
        match request {
            Outside::Close { .. } => {
                self.set_status(TableStatus::Ended);
                self.close_all(CloseKind::TableGone, "the host closed the table");
                self.effects.push(Effect::Stop);
            }
            Outside::Leave { account } => {
                if let Some(seat) = self.seat_of(&account) {
                    self.leave(seat, now);
                }
            }
        }
    }

    /// `seat`'s account gives it up: the seat waits for a person again, with a new link
    /// (the old one seats no one), and the host is told and handed the new link.
    fn leave(&mut self, seat: Seat, now: Instant) {
        let fresh = (self.tokens)();
        let old = std::mem::replace(&mut self.seats[seat.index()].token, fresh.clone());
        self.revoked.insert(old, seat);
        // A night's set has no host to hand the seat on: a bot plays it, for no one.
        let night = self.night.is_some();
        let record = &mut self.seats[seat.index()];
        let declined = record.sitter == Sitter::Open;
        let name = record.name.take();
        record.account = None;
        record.invited_by = None;
        record.sitter = if night {
            Sitter::Bot(FILL_LEVEL.into())
        } else {
            Sitter::Open
        };
        tracing::info!(
            "table {}: seat {seat} {}",
            self.id,
            if declined { "declined" } else { "left" }
        );
        // Kept first: should the store fail, the seat stays its account's.
        self.save_seats();
        let leaving: Vec<u64> = self
            .connections
            .iter()
            .filter(|(_, c)| c.seat == Some(seat))
            .map(|(&conn, _)| conn)
            .collect();
        for conn in leaving {
            self.connections.remove(&conn);
            self.effects.push(Effect::Close {
                conn,
                closing: Some(ServerMessage::closing(
                    CloseKind::SeatGone,
                    format!("you left seat {seat}"),
                )),
            });
        }
        // At a night's set, everyone is told who declined; elsewhere the host, who
        // hands the seat's new link on.
        let told: Vec<(u64, String, bool)> = self
            .connections
            .iter()
            .filter(|(_, c)| c.host || night)
            .map(|(&conn, c)| (conn, c.base.clone(), c.host))
            .collect();
        for (conn, base, host) in told {
            self.send(
                conn,
                ServerMessage::SeatLeft {
                    seat,
                    name: name.clone(),
                    declined,
                },
            );
            if night || !host {
                continue;
            }
            self.send(
                conn,
                ServerMessage::Invite {
                    seat,
                    url: format!("{base}/table/{}#token={fresh}", self.id),
                    token: fresh.clone(),
                },
            );
        }
        self.broadcast_seats(now);
        // The bot was the last seat the set waited for: it starts.
        if self.status == TableStatus::Open && self.seats.iter().all(|s| s.sitter != Sitter::Open) {
            self.start(now);
        }
        self.schedule();
    }
}
