//! The WebSocket protocol's messages (docs/table-protocol.md): JSON text frames, each an
//! object with a `type`.

use calltrump_engine::{Action, GameRules, Seat};
use calltrump_table::{Snapshot, Update};
use serde::{Deserialize, Serialize};

use crate::model::{Sitter, TableStatus};
use crate::store::ChatLine;

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ClientMessage {
    /// The first message: take a seat with its token, or watch without one. `version`
    /// is the last version the client saw (on reconnecting), so that only what it
    /// missed is sent.
    Hello {
        /// A seat's token (or the host's); none to watch.
        #[serde(default)]
        token: Option<String>,
        /// The player's name, shown to the others.
        #[serde(default)]
        name: Option<String>,
        /// The last version seen.
        #[serde(default)]
        version: Option<u64>,
        /// The host's token, from a host who also plays a seat (`token` is then the
        /// seat's): one connection for both.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        host: Option<String>,
        /// Instead of `token`: the seat bound to the connection's signed-in account
        /// (its "My tables" link), taken without the seat's token.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Instead of `hello`, from a seat's link whose person has not sat down yet (a page
    /// asking for their name): the connection watches, as a spectator does, and
    /// `welcome` names the token's seat; the seat stays open, not taken, until a `hello`
    /// with the token takes it.
    Look {
        /// A seat's token.
        token: String,
    },
    /// An action in the notation (`bid 3`, `play JH`), answering `version`: read where
    /// the message is read, so that text that is no action is refused there.
    Act {
        /// The version the action answers: the client's latest.
        version: u64,
        /// The action.
        #[serde(deserialize_with = "action_in_notation")]
        action: Action,
    },
    /// Cut the deck, when this seat is the one to cut (committed deals): cards lifted
    /// from the top, from 1 to the deck's size less one.
    Cut {
        /// How many cards.
        cut: u64,
    },
    /// Take back this seat's last action (tables that allow undo).
    Undo,
    /// Ask for a hint for this seat, when it is its turn (tables that allow hints).
    Hint,
    /// A chat line.
    Chat {
        /// Plain text.
        text: String,
    },
    /// The host starts the game: empty seats get bots.
    Start,
    /// The host ends the table.
    End,
    /// The host puts a bot in a seat, or opens it for a person again.
    SetSeat {
        /// The seat.
        seat: Seat,
        /// `open` or `bot:LEVEL`.
        sitter: Sitter,
    },
    /// Keep-alive; answered with `pong`.
    Ping,
}

/// An action's text read as the notation's; what is wrong, quoting the text, if it is
/// no action.
fn action_in_notation<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Action, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse()
        .map_err(|error| serde::de::Error::custom(format!("\"{text}\" is not an action: {error}")))
}

/// Who sits at a seat, as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The seat.
    pub seat: Seat,
    /// The player's name, or the bot's level.
    pub name: Option<String>,
    /// A bot plays the seat (`bot:LEVEL`), or a person does or will (`person`), or it is
    /// free (`open`).
    pub sitter: Sitter,
    /// Whether the person is connected now.
    pub connected: bool,
    /// While a person is away: the milliseconds until a bot stands in.
    pub grace_ms: Option<u64>,
    /// A bot stands in for the person who dropped.
    pub bot_standing_in: bool,
    /// The host opened the seat for someone else during a hand: it opens (with a new
    /// link) when the hand ends. Left out when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opens_after_hand: bool,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        /// The table.
        table: String,
        /// The client's seat (none for a spectator or the host without a seat).
        seat: Option<Seat>,
        /// Whether the client is the host.
        host: bool,
        /// The game, variant and options.
        rules: GameRules,
        /// `open` (waiting to start), `playing`, `over` or `ended`.
        status: TableStatus,
        /// Whether undo is allowed.
        undo: bool,
        /// Whether a seat may ask for hints.
        #[serde(default)]
        hints: bool,
        /// Committed deals: the milliseconds a person has to cut before the server cuts
        /// at random for them.
        #[serde(default)]
        cut_wait_ms: u64,
        /// Whether the game is rated (left out when not).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        rated: bool,
        /// The night whose set this table is (left out when none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        night: Option<String>,
    },
    /// The whole state as the client may see it: after `welcome`, or when it missed too
    /// much. (Boxed, as is `Update`: the other messages are small, and every message
    /// waiting in a connection's queue takes the size of the largest.)
    Snapshot(Box<Snapshot>),
    /// One step of the game as the client may see it.
    Update(Box<Update>),
    /// Who sits where.
    Seats {
        /// Every seat.
        seats: Vec<SeatInfo>,
    },
    /// The table's status changed.
    Status {
        /// `open`, `playing`, `over` or `ended`.
        status: TableStatus,
    },
    /// A chat line (plain text, never markup).
    Chat(ChatMessage),
    /// A request was refused; nothing changed.
    Error {
        /// What was wrong, for a program.
        #[serde(default)]
        code: ErrorCode,
        /// What was wrong, for a person.
        message: String,
    },
    /// To the host, when it opens a seat for a person (`set-seat` with `open`): the
    /// seat's link, to hand to whoever will take it.
    Invite {
        /// The seat.
        seat: Seat,
        /// The seat's token.
        token: String,
        /// The seat's link, `{base}/table/{id}#token={token}`.
        url: String,
    },
    /// To the host, when someone tries a seat's link that no longer seats them (the host
    /// handed the seat on, or gave it to a bot): the seat, and who sits there now, so
    /// that the host can hand on its new link or the seat itself.
    LinkRefused {
        /// The seat the link was for.
        seat: Seat,
        /// Who sits there now: `open` (a new link waits), `person` or `bot:LEVEL`.
        sitter: Sitter,
    },
    /// To the host, when a seat's account gave it up from "My tables": `declined` an
    /// invitation not yet taken, or left a seat before the game's start. The seat waits
    /// for a person again; its new link follows in an `invite`. At a night's set (no
    /// host), to everyone there: a bot plays the seat instead.
    SeatLeft {
        /// The seat.
        seat: Seat,
        /// The name the seat had, if any.
        name: Option<String>,
        /// Whether it was an invitation declined (else a seat left).
        declined: bool,
    },
    /// The answer to `hint`, to the seat that asked only: the best actions by the bots'
    /// evaluation from this seat's observation, and what the bots read into the other
    /// seats' calls.
    Hint {
        /// The version the hint is for: the seat's turn at it.
        version: u64,
        /// At most three actions, best first.
        actions: Vec<HintAction>,
        /// Deals sampled for the points.
        deals: u32,
        /// Legal actions the bots do not consider (calls they think hopeless).
        #[serde(default)]
        unweighed: usize,
        /// What the latest call by another seat in this hand shows, as a sentence.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
        /// What each call by another seat in this hand shows, oldest first.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        readings: Vec<CallShows>,
    },
    /// The clock running at the table, by the server's time: `seat` has `ms` of its
    /// `of_ms` left to decide (the table's turn clock) or, if `cut`, to cut before the
    /// server cuts at random. Sent when a clock starts or stops (`seat` null: none runs)
    /// and to a client that comes while one runs.
    Clock {
        /// The seat whose clock runs; none: no clock runs.
        seat: Option<Seat>,
        /// Milliseconds left.
        ms: u64,
        /// The clock's whole length, in milliseconds.
        of_ms: u64,
        /// Whether it is the wait for a cut (otherwise a decision's turn clock).
        cut: bool,
    },
    /// A person's turn clock ran out: a bot of the clock's `level` made that one
    /// decision for `seat` (the step was sent before this).
    TimeUp {
        /// The seat.
        seat: Seat,
        /// The bot's level.
        level: String,
    },
    /// The answer to `ping`.
    Pong,
    /// The server cannot save the table's actions now (a full or failing disk): nothing
    /// happens at the table until `resumed`, and an action asked meanwhile is refused
    /// (`not_saved`), never confirmed. The server keeps trying.
    Paused {
        /// What stops the server saving, for a person.
        reason: String,
    },
    /// The server saves again after `paused`: the table plays on.
    Resumed,
    /// The server closes the connection.
    Closing {
        /// Why, for a program: whether to connect again.
        #[serde(default)]
        kind: CloseKind,
        /// Why, for a person.
        reason: String,
    },
}

impl ServerMessage {
    /// An `error` message.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
        }
    }

    /// A `closing` message.
    pub fn closing(kind: CloseKind, reason: impl Into<String>) -> ServerMessage {
        ServerMessage::Closing {
            kind,
            reason: reason.into(),
        }
    }
}

/// Why the server closes a connection; only [`CloseKind::Retry`], [`CloseKind::Idle`]
/// and [`CloseKind::TooSlow`] are worth connecting again for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CloseKind {
    /// The server is stopping, or the table restarting: connect again in a moment.
    Retry,
    /// The connection sent nothing for too long: connect again when there is
    /// something to send.
    Idle,
    /// The seat is no longer this link's: the host gave it to a bot.
    SeatGone,
    /// The table is closed for good: the host ended it, nobody came, or it broke
    /// beyond repair.
    TableGone,
    /// The link's token is not one of this table's.
    BadToken,
    /// A message was over the size limit.
    TooBig,
    /// The client did not read what the server sent, and too much of it waited: connect
    /// again (a `snapshot` brings the client up to date).
    TooSlow,
    /// A kind this client does not know (a newer server's): taken as final.
    #[default]
    #[serde(other)]
    Other,
}

impl CloseKind {
    /// Whether connecting again may help.
    pub fn may_retry(self) -> bool {
        matches!(
            self,
            CloseKind::Retry | CloseKind::Idle | CloseKind::TooSlow
        )
    }
}

/// What was wrong with a refused request, for a program (the `message` beside it says
/// it to a person).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, not a message of the protocol, or a value out of its range.
    Malformed,
    /// Too many messages at once.
    TooFast,
    /// The first message must be `hello` (or `look`); or it was said already.
    Hello,
    /// The token is not one of this table's.
    BadToken,
    /// The seat is played by a bot now.
    SeatTaken,
    /// Only a seated player may do that.
    NotSeated,
    /// Only the host may do that.
    NotHost,
    /// The table's status does not allow it (not playing, started already).
    Status,
    /// The version answered is not the table's.
    Version,
    /// The action is not legal now (or not this seat's).
    Illegal,
    /// There is no such seat, or no such sitter.
    BadSeat,
    /// The table does not allow hints, or it is not this seat's turn.
    NoHint,
    /// A chat line too long, or too soon after the last one.
    Chat,
    /// The store failed: nothing was done.
    NotSaved,
    /// A code this client does not know (a newer server's).
    #[default]
    #[serde(other)]
    Other,
}

/// A chat line as sent: the stored line and where in the game it was said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// The line.
    #[serde(flatten)]
    pub line: ChatLine,
    /// Where in the game the line was said: after this many deals (0: before the
    /// first)... Left out for a line stored by a server older than this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deals: Option<u32>,
    /// ...and this many actions of the latest deal (as a `snapshot`'s `actions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<u32>,
}

/// One action of a hint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HintAction {
    /// The action, as `act` sends it.
    pub action: Action,
    /// Expected net points on the hand: this seat's team's less the other team's.
    pub points: f64,
}

/// What the bots take a call to show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallShows {
    /// The seat that called.
    pub seat: Seat,
    /// The call.
    pub call: Action,
    /// What it shows of the caller's hand.
    pub shows: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_or_code_a_client_does_not_know_is_read_as_other() {
        let closing: ServerMessage =
            serde_json::from_str(r#"{"type":"closing","kind":"moved_to_mars","reason":"?"}"#)
                .unwrap();
        assert_eq!(closing, ServerMessage::closing(CloseKind::Other, "?"));
        assert!(!CloseKind::Other.may_retry());
        let error: ServerMessage =
            serde_json::from_str(r#"{"type":"error","code":"new_rule","message":"?"}"#).unwrap();
        assert_eq!(error, ServerMessage::error(ErrorCode::Other, "?"));
    }

    #[test]
    fn an_older_servers_closing_without_a_kind_is_final() {
        let closing: ServerMessage =
            serde_json::from_str(r#"{"type":"closing","reason":"unknown token"}"#).unwrap();
        assert_eq!(
            closing,
            ServerMessage::closing(CloseKind::Other, "unknown token")
        );
    }

    #[test]
    fn an_action_is_read_in_the_notation_where_the_message_is_read() {
        let text = r#"{"type":"act","version":3,"action":"play AD"}"#;
        let message: ClientMessage = serde_json::from_str(text).unwrap();
        assert_eq!(
            message,
            ClientMessage::Act {
                version: 3,
                action: "play AD".parse().unwrap(),
            }
        );
        assert_eq!(serde_json::to_string(&message).unwrap(), text);
        for (action, wrong) in [
            ("play 7X", "\"play 7X\" is not an action: "),
            ("kaibosh kaibosh", "wrong number of words for \"kaibosh\""),
            ("dance", "unknown action \"dance\""),
            ("", "\"\" is not an action"),
        ] {
            let text = serde_json::json!({"type": "act", "version": 3, "action": action});
            let error = serde_json::from_value::<ClientMessage>(text).unwrap_err();
            assert!(error.to_string().contains(wrong), "{action:?}: {error}");
        }
        let number = r#"{"type":"act","version":3,"action":7}"#;
        assert!(serde_json::from_str::<ClientMessage>(number).is_err());
    }

    #[test]
    fn a_sitter_that_is_none_is_refused_where_the_message_is_read() {
        let text = r#"{"type":"set-seat","seat":1,"sitter":"robot"}"#;
        let error = serde_json::from_str::<ClientMessage>(text).unwrap_err();
        assert_eq!(
            error.to_string(),
            "\"robot\" is neither \"open\", \"person\" nor \"bot:LEVEL\""
        );
    }
}
