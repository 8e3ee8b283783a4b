//! Hints: a seat asks on its turn; the hint is worked out off the table's task from
//! what the seat knows, and sent to whoever still waits for it.

use calltrump_bots::{hint, hint_bot, Decision};
use calltrump_engine::{Action, Game, GameRules, Observation, Seat, Turn};

use super::{Effect, Session};
use crate::model::TableStatus;
use crate::protocol::{CallShows, ErrorCode, HintAction, ServerMessage};

/// A hint to work out: what the seat knows, and nothing else.
pub struct HintJob {
    /// The seat.
    pub seat: Seat,
    /// The version it is for.
    pub version: u64,
    rules: GameRules,
    observation: Observation,
    legal: Vec<Action>,
    names: Vec<String>,
}

impl HintJob {
    /// The `hint` message (a blocking computation).
    pub fn work(&self) -> ServerMessage {
        hint_message(
            &self.rules,
            &self.observation,
            &self.legal,
            self.version,
            &self.names,
        )
    }
}

impl Session {
    /// A hint for `seat` of connection `conn`: from the cache, or asked of the shell,
    /// answered when ready.
    pub(super) fn ask_hint(
        &mut self,
        conn: u64,
        seat: Option<Seat>,
    ) -> Result<(), (ErrorCode, String)> {
        if !self.hints {
            return Err((ErrorCode::NoHint, "this table does not allow hints".into()));
        }
        let Some(seat) = seat else {
            return Err((
                ErrorCode::NotSeated,
                "only a seated player may ask for a hint".into(),
            ));
        };
        if self.status != TableStatus::Playing {
            return Err((
                ErrorCode::Status,
                format!("the table is {}, not playing", self.status),
            ));
        }
        if self.table.turn() != Turn::Seat(seat) {
            return Err((
                ErrorCode::NoHint,
                "a hint is for your own turn: it is not your turn".into(),
            ));
        }
        let version = self.table.version();
        if let Some((s, v, message)) = &self.last_hint {
            if (*s, *v) == (seat, version) {
                let message = message.clone();
                self.send(conn, message);
                return Ok(());
            }
        }
        let waiting = self.hints_waiting.entry((seat, version)).or_default();
        let first = waiting.is_empty();
        if !waiting.contains(&conn) {
            waiting.push(conn);
        }
        if !first {
            return Ok(());
        }
        let game = self.table.game();
        let names: Vec<String> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match (&s.name, s.bot_level()) {
                (Some(name), _) => format!("{name} (seat {i})"),
                (None, Some(_)) => format!("Bot {i}"),
                (None, None) => format!("seat {i}"),
            })
            .collect();
        let job = HintJob {
            seat,
            version,
            rules: game.rules().clone(),
            observation: game.observation(seat),
            legal: game.legal_action_list().to_vec(),
            names,
        };
        self.effects.push(Effect::ComputeHint(Box::new(job)));
        Ok(())
    }

    /// A hint was worked out (or its task failed): sent to the connections still at the
    /// seat, while it still holds.
    pub(super) fn hint_ready(
        &mut self,
        seat: Seat,
        version: u64,
        message: Option<Box<ServerMessage>>,
    ) {
        let waiting = self.hints_waiting.remove(&(seat, version));
        let message = match message {
            Some(message) => *message,
            None => {
                tracing::error!(table = %self.id, %seat, version, "a hint's task failed");
                ServerMessage::error(ErrorCode::NoHint, "the hint could not be worked out")
            }
        };
        let current = version == self.table.version();
        for conn in waiting.unwrap_or_default().into_iter().filter(|_| current) {
            if self.connections.get(&conn).and_then(|c| c.seat) == Some(seat) {
                self.send(conn, message.clone());
            }
        }
        if matches!(message, ServerMessage::Hint { .. }) {
            self.last_hint = Some((seat, version, message));
        }
    }
}

/// The `hint` message for the seat of `observation`, whose turn it is at `version`:
/// [`calltrump_bots::hint`] with [`hint_bot`], as the terminal gives it. `names` name
/// the seats in the explanation of a call.
pub fn hint_message(
    rules: &GameRules,
    observation: &Observation,
    legal: &[Action],
    version: u64,
    names: &[String],
) -> ServerMessage {
    let decision = Decision {
        rules,
        observation,
        legal,
    };
    let hint = hint(&mut hint_bot(), &decision);
    let (actions, deals, unweighed) = match hint.best {
        Ok(best) => (
            best.actions
                .iter()
                .map(|value| HintAction {
                    action: value.action,
                    points: value.shown_points(),
                })
                .collect(),
            best.deals,
            best.unweighed,
        ),
        Err(_) => (Vec::new(), 0, 0),
    };
    let readings: Vec<CallShows> = hint
        .readings
        .iter()
        .map(|r| CallShows {
            seat: r.seat,
            call: r.call,
            shows: r.reading.to_string(),
        })
        .collect();
    let explanation = hint.readings.last().map(|r| {
        let name = names
            .get(r.seat.index())
            .cloned()
            .unwrap_or_else(|| format!("seat {}", r.seat));
        format!("{name}: {} shows {}.", r.call, r.reading)
    });
    ServerMessage::Hint {
        version,
        actions,
        deals,
        unweighed,
        explanation,
        readings,
    }
}
