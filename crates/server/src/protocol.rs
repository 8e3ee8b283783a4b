//! The WebSocket protocol's messages (docs/table-protocol.md): JSON text frames, each an
//! object with a `type`.

use calltrump_engine::{Action, GameRules, Seat};
use calltrump_table::{Snapshot, Update};
use serde::{Deserialize, Serialize};

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
    },
    /// Instead of `hello`, from a seat's link whose person has not sat down yet (a page
    /// asking for their name): the connection watches, as a spectator does, and
    /// `welcome` names the token's seat; the seat stays open, not taken, until a `hello`
    /// with the token takes it.
    Look {
        /// A seat's token.
        token: String,
    },
    /// An action in the notation (`bid 3`, `play JH`), answering `version`.
    Act {
        /// The version the action answers: the client's latest.
        version: u64,
        /// The action.
        action: String,
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
        sitter: String,
    },
    /// Keep-alive; answered with `pong`.
    Ping,
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
    pub sitter: String,
    /// Whether the person is connected now.
    pub connected: bool,
    /// While a person is away: the milliseconds until a bot stands in.
    pub grace_ms: Option<u64>,
    /// A bot stands in for the person who dropped.
    pub bot_standing_in: bool,
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
        status: String,
        /// Whether undo is allowed.
        undo: bool,
        /// Whether a seat may ask for hints.
        #[serde(default)]
        hints: bool,
        /// Committed deals: the milliseconds a person has to cut before the server cuts
        /// at random for them.
        #[serde(default)]
        cut_wait_ms: u64,
    },
    /// The whole state as the client may see it: after `welcome`, or when it missed too
    /// much.
    Snapshot(Snapshot),
    /// One step of the game as the client may see it.
    Update(Update),
    /// Who sits where.
    Seats {
        /// Every seat.
        seats: Vec<SeatInfo>,
    },
    /// The table's status changed.
    Status {
        /// `open`, `playing`, `over` or `ended`.
        status: String,
    },
    /// A chat line (plain text, never markup).
    Chat(ChatMessage),
    /// A request was refused; nothing changed.
    Error {
        /// What was wrong.
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
    /// The answer to `ping`.
    Pong,
    /// The server closes the connection.
    Closing {
        /// Why.
        reason: String,
    },
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
