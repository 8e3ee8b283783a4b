//! The table's chat: lines kept in the store, then sent to everyone, each with where in
//! the game it was said.

use std::time::{Duration, Instant};

use calltrump_engine::Seat;
use calltrump_table::Event;

use super::{Checkpoint, Persist, Session, CHAT_KEPT, CHAT_MAX_CHARS};
use crate::protocol::{ChatMessage, ErrorCode, ServerMessage};
use crate::store::{ChatLine, ChatPlace};

/// Shortest time between two chat lines of one connection.
const CHAT_INTERVAL: Duration = Duration::from_millis(500);

impl Session {
    /// Connection `conn`, at `seat` if seated, says `text`.
    pub(super) fn chat_line(&mut self, conn: u64, seat: Option<Seat>, text: String, now: Instant) {
        let text: String = text.trim().to_string();
        if text.is_empty() {
            return;
        }
        // Control characters show nothing a line needs, and a NUL is text PostgreSQL
        // refuses to keep: the line is refused, nothing kept or sent.
        if let Some(bad) = text.chars().find(|c| c.is_control()) {
            self.send(
                conn,
                ServerMessage::error(
                    ErrorCode::Chat,
                    format!(
                        "a chat line may not hold control characters: it holds U+{:04X}",
                        u32::from(bad)
                    ),
                ),
            );
            return;
        }
        if text.chars().count() > CHAT_MAX_CHARS {
            self.send(
                conn,
                ServerMessage::error(
                    ErrorCode::Chat,
                    format!("a chat line has at most {CHAT_MAX_CHARS} characters"),
                ),
            );
            return;
        }
        let wall = self.wall_secs(now);
        let Some(connection) = self.connections.get_mut(&conn) else {
            return;
        };
        if connection
            .last_chat
            .is_some_and(|t| now.saturating_duration_since(t) < CHAT_INTERVAL)
        {
            self.send(
                conn,
                ServerMessage::error(
                    ErrorCode::Chat,
                    "slow down: one chat line every half second",
                ),
            );
            return;
        }
        connection.last_chat = Some(now);
        let sender = match seat {
            Some(seat) => self.seats[seat.index()]
                .name
                .clone()
                .unwrap_or_else(|| format!("seat {seat}")),
            // A watcher's own name, marked so nobody takes it for a player's.
            None => {
                let role = if connection.host { "host" } else { "watching" };
                match &connection.name {
                    Some(name) => format!("{name} ({role})"),
                    None => role.to_string(),
                }
            }
        };
        self.chat_seq += 1;
        let line = ChatLine {
            seq: self.chat_seq,
            sender,
            body: text,
            at: wall,
        };
        let (deals, actions) = self.place_in_game();
        self.checkpoint = Some(Checkpoint {
            version: None,
            deadlines: self.deadlines(),
            status: self.status,
            pending: self.pending,
            conn: Some(conn),
        });
        self.persist(Persist::Chat {
            line: line.clone(),
            place: ChatPlace { deals, actions },
        });
        let message = ChatMessage {
            line,
            deals: Some(deals),
            actions: Some(actions),
        };
        self.chat.push_back(message.clone());
        if self.chat.len() > CHAT_KEPT {
            self.chat.pop_front();
        }
        self.broadcast(&ServerMessage::Chat(message));
    }

    /// Where the game stands, for a chat line said now: the deals so far and the
    /// actions of the latest one (less those taken back), so that a log rebuilt later
    /// puts the line where it was said.
    fn place_in_game(&self) -> (u32, u32) {
        let (mut deals, mut actions) = (0u32, 0u32);
        for entry in self.table.log() {
            match &entry.event {
                Event::Dealt { .. } => {
                    deals += 1;
                    actions = 0;
                }
                Event::Acted { .. } => actions += 1,
                Event::Undone { actions: back, .. } => {
                    actions = actions.saturating_sub(*back as u32);
                }
                _ => {}
            }
        }
        (deals, actions)
    }
}
