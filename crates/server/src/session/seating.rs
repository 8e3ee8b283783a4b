//! Connections and seats: who comes, who takes a seat, who is away, and the grace
//! before a bot stands in for a person away.

use std::time::Instant;

use calltrump_engine::{Seat, Viewer};

use super::{Connection, Effect, Session, Timer, TimerKey, CHAT_HISTORY, FILL_LEVEL};
use crate::model::{SignedIn, Sitter, TableStatus, FORMER_PLAYER};
use crate::protocol::{ClientMessage, CloseKind, ErrorCode, ServerMessage};

/// Most characters of a player's name.
const NAME_CHARS: usize = 40;

/// A name as a seat or a night shows it: without control characters or the marks that
/// reorder text (a right-to-left override would make "Ann" spoof another name on every
/// page), trimmed, at most `NAME_CHARS` characters; none if blank.
pub fn player_name(name: &str) -> Option<String> {
    let kept: String = name.chars().filter(|&c| !hidden_in_a_name(c)).collect();
    Some(kept.trim().chars().take(NAME_CHARS).collect::<String>()).filter(|n| !n.is_empty())
}

/// Why a connection may not take `seat`, kept for the account `kept_for` (none: for
/// whoever holds its link), coming with `account` and, or instead of, the seat's token:
/// none if it may.
fn refusal_of_account(
    seat: Seat,
    kept_for: Option<&str>,
    account: Option<&SignedIn>,
    with_token: bool,
) -> Option<String> {
    match (kept_for, account) {
        (Some(kept), Some(account)) if kept == account.id => None,
        (None, _) if with_token => None,
        (None, _) => Some(format!(
            "seat {seat} is not kept for your account: open it with its link"
        )),
        (Some(_), None) => Some(format!(
            "seat {seat} is kept for the account that sat down there: sign in as that player to take it"
        )),
        (Some(_), Some(_)) => Some(format!(
            "seat {seat} is kept for another account: sign in as that player to take it"
        )),
    }
}

/// Control characters, and the bidirectional marks, embeddings, overrides and isolates
/// (U+200E-200F, U+202A-202E, U+2066-2069): nothing a name needs shown.
fn hidden_in_a_name(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

impl Session {
    /// Connection `conn` said `hello` (or `look`): it takes its token's seat, watches,
    /// or is refused and closed.
    pub(super) fn connect(
        &mut self,
        conn: u64,
        hello: ClientMessage,
        base: String,
        account: Option<SignedIn>,
        now: Instant,
    ) {
        // `look`: a seat's link whose person has not sat down yet watches; the seat
        // stays open (`welcome` names it all the same).
        let (token, name, version, host_token, looking, account_seat) = match hello {
            ClientMessage::Hello {
                token,
                name,
                version,
                host,
                seat,
            } => (token, name, version, host, false, seat),
            ClientMessage::Look { token } => (Some(token), None, None, None, true, None),
            _ => {
                self.refuse_connection(
                    conn,
                    ServerMessage::error(ErrorCode::Hello, "the first message must be \"hello\""),
                    None,
                );
                return;
            }
        };
        // A signed-in person is known by their account's name.
        let name = match &account {
            Some(account) => Some(account.name.clone()),
            None => name.as_deref().and_then(player_name),
        };
        let host_only = token.as_deref() == Some(self.host_token.as_str());
        let host =
            !looking && (host_only || host_token.as_deref() == Some(self.host_token.as_str()));
        let seat = match token.as_deref() {
            None => match account_seat {
                None => None,
                Some(seat) if seat.index() < self.seats.len() => Some(seat),
                Some(seat) => {
                    self.refuse_connection(
                        conn,
                        ServerMessage::error(
                            ErrorCode::BadSeat,
                            format!("there is no seat {seat}"),
                        ),
                        Some(ServerMessage::closing(CloseKind::SeatGone, "no such seat")),
                    );
                    return;
                }
            },
            Some(_) if host_only && !looking => None,
            Some(token) => match self.seats.iter().position(|s| s.token == token) {
                Some(i) => Some(Seat(i as u8)),
                None => {
                    let revoked_seat = self.revoked.get(token).copied();
                    let refusal = match revoked_seat {
                        Some(seat) => (
                            format!("this link is no longer seat {seat}'s: the host handed the seat on; ask the host for a new link"),
                            ServerMessage::closing(CloseKind::SeatGone, "the host handed the seat on"),
                        ),
                        None => (
                            "this link's token does not belong to this table".to_string(),
                            ServerMessage::closing(CloseKind::BadToken, "unknown token"),
                        ),
                    };
                    self.refuse_connection(
                        conn,
                        ServerMessage::error(ErrorCode::BadToken, refusal.0),
                        Some(refusal.1),
                    );
                    if let Some(seat) = revoked_seat {
                        self.tell_hosts_link_refused(seat);
                    }
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
            self.tell_hosts_link_refused(seat);
            return;
        }
        // The seat the token is for; a connection that only looks holds none.
        let token_seat = seat;
        let seat = seat.filter(|_| !looking);
        if let Some(seat) = seat {
            let kept_for = self.seats[seat.index()].account.as_deref();
            let refusal = if self.rated && account.is_none() {
                Some(format!(
                    "seat {seat} is at a rated table: sign in to sit down (a rated game rates every person at it)"
                ))
            } else if let Some(held) = self.rated_seat_held(account.as_ref(), seat) {
                Some(format!(
                    "seat {seat} is at a rated table where your account holds seat {held} already: one account, one seat (a rated game rates each person once)"
                ))
            } else {
                refusal_of_account(seat, kept_for, account.as_ref(), token.is_some())
            };
            if let Some(why) = refusal {
                self.refuse_connection(
                    conn,
                    ServerMessage::error(ErrorCode::SeatTaken, why.clone()),
                    Some(ServerMessage::closing(CloseKind::SeatGone, why)),
                );
                return;
            }
            let record = &mut self.seats[seat.index()];
            record.sitter = Sitter::Person;
            // The person is back: a bot standing in for them steps aside.
            record.stand_in = false;
            if name.is_some() {
                record.name = name.clone();
            }
            // Sitting down signed in binds the seat to the account.
            if let Some(account) = &account {
                record.account = Some(account.id.clone());
            }
            // An invitation taken up is no longer one.
            record.invited_by = None;
            tracing::info!(
                "table {}: seat {seat} is taken by {}",
                self.id,
                record.name.as_deref().unwrap_or("a player with no name")
            );
            // Back before or after the grace: the person plays again (the grace's timer
            // stopped once the seat is kept).
            let was_away = self.away.remove(&seat).is_some();
            self.save_seats();
            if was_away {
                self.effects
                    .push(Effect::CancelTimer(TimerKey::Grace(seat)));
            }
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
                rated: self.rated,
                night: self.night.clone(),
            },
        );
        if self.paused {
            self.send(
                conn,
                ServerMessage::Paused {
                    reason: "the server cannot save; waiting".into(),
                },
            );
        }
        let recipient = seat.map_or(Viewer::Spectator, Viewer::Seat);
        if version != Some(self.table.version()) {
            let snapshot = ServerMessage::Snapshot(Box::new(self.table.snapshot(recipient)));
            self.send(conn, snapshot);
        }
        self.send_clock(conn);
        let skip = self.chat.len().saturating_sub(CHAT_HISTORY);
        let history = self.chat.iter().skip(skip).map(|line| Effect::Send {
            conn,
            message: ServerMessage::Chat(line.clone()),
        });
        self.effects.extend(history);
        if looking || seat.is_none() {
            // Nothing changed for the others (a spectator, a host without a seat, a link
            // that only looks): only this client needs the seats.
            let seats = self.seat_infos(now);
            self.send(conn, ServerMessage::Seats { seats });
            if looking {
                return;
            }
        } else {
            self.broadcast_seats(now);
        }
        // Every person's seat taken: the game starts.
        if self.status == TableStatus::Open && self.seats.iter().all(|s| s.sitter != Sitter::Open) {
            self.start(now);
        }
        self.schedule();
    }

    /// At a rated table, the seat other than `seat` that `account` holds already, if any.
    fn rated_seat_held(&self, account: Option<&SignedIn>, seat: Seat) -> Option<Seat> {
        let account = account.filter(|_| self.rated)?;
        (0..self.seats.len()).map(|i| Seat(i as u8)).find(|&s| {
            s != seat && self.seats[s.index()].account.as_deref() == Some(account.id.as_str())
        })
    }

    /// An account deleted: its seats keep their games under the name
    /// [`FORMER_PLAYER`], bound to no one, each with a new token: the link that seated
    /// the account before seats no one (the host may hand the seat on).
    pub(super) fn forget_account(&mut self, account: &str, now: Instant) {
        let mut changed = false;
        for i in 0..self.seats.len() {
            if self.seats[i].account.as_deref() != Some(account) {
                continue;
            }
            let fresh = (self.tokens)();
            let record = &mut self.seats[i];
            record.account = None;
            record.name = Some(FORMER_PLAYER.to_string());
            record.token = fresh;
            changed = true;
        }
        if changed {
            self.save_seats();
            self.broadcast_seats(now);
        }
    }

    /// Someone tried `seat`'s link after the seat went to a bot or to a new link: every
    /// connection of the host is told, so that a late friend is not left out unnoticed.
    fn tell_hosts_link_refused(&mut self, seat: Seat) {
        let sitter = self.seats[seat.index()].sitter.clone();
        let hosts: Vec<u64> = self
            .connections
            .iter()
            .filter(|(_, c)| c.host)
            .map(|(&conn, _)| conn)
            .collect();
        for conn in hosts {
            self.send(
                conn,
                ServerMessage::LinkRefused {
                    seat,
                    sitter: sitter.clone(),
                },
            );
        }
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
            // A spectator's going changes no seat: nobody is told.
            self.broadcast_seats(now);
        }
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
                // A seat kept for an account that never took it (an invitation, a rated
                // night's player who did not come): nobody accepted it, so the bot plays
                // for no one and no account is rated for its game.
                if record.account.take().is_some() {
                    record.name = None;
                    record.invited_by = None;
                }
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

#[cfg(test)]
mod tests {
    use super::player_name;

    #[test]
    fn a_name_keeps_its_letters_and_loses_controls_and_reordering_marks() {
        assert_eq!(player_name("  Ann  ").as_deref(), Some("Ann"));
        assert_eq!(player_name("\u{202E}Ann\u{0}\u{7}").as_deref(), Some("Ann"));
        assert_eq!(
            player_name("A\u{2066}n\u{2069}n\u{200F}").as_deref(),
            Some("Ann")
        );
        // Arabic letters and spaces inside stay.
        assert_eq!(player_name("سارة علي").as_deref(), Some("سارة علي"));
        assert_eq!(player_name("\u{202E}\u{0} \t"), None);
        assert_eq!(
            player_name(&"x".repeat(100)).map(|n| n.chars().count()),
            Some(40)
        );
    }
}
