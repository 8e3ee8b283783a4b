//! What the hub takes and gives: a new table's request, the created table, errors.

use calltrump_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::model::{Sitter, TurnClock};
use crate::rating::anchors;
use crate::store::StoreError;

/// A new table's request (`POST /api/tables`); a field it does not know is refused.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// The game (`kaibosh`, `bid-euchre`, `kout`).
    pub game: String,
    /// The variant; the game's first if none.
    #[serde(default)]
    pub variant: Option<String>,
    /// Options that differ from the rules' defaults.
    #[serde(default)]
    pub options: serde_json::Map<String, serde_json::Value>,
    /// Each seat: `open` or `bot:LEVEL`; all open if none.
    #[serde(default)]
    pub seats: Option<Vec<Sitter>>,
    /// Whether a person may take back an action.
    #[serde(default)]
    pub undo: bool,
    /// Whether a seat may ask for a hint on its turn (games against bots).
    #[serde(default)]
    pub hints: bool,
    /// The name shown at each seat until its player gives one (a night's players, the
    /// host's own seat); an empty name is none.
    #[serde(default)]
    pub names: Option<Vec<String>>,
    /// The seat that deals first; drawn at random if none.
    #[serde(default)]
    pub first_dealer: Option<Seat>,
    /// Whether a table of bots alone starts at once and plays with nobody watching
    /// (within the server's `--max-unattended-tables`); otherwise its bots play only
    /// while someone is connected.
    #[serde(default)]
    pub unattended: bool,
    /// A turn clock: a person who has not decided in its time has a bot of its level
    /// make that one decision; none, no clock.
    #[serde(default)]
    pub turn_clock: Option<TurnClock>,
    /// Whether the game is rated: every person who sits down must be signed in (the
    /// host too, which the HTTP layer checks), and there are no hints and no undo.
    #[serde(default)]
    pub rated: bool,
    /// The account each seat is kept for from the start, by seat (a rated night's
    /// people); never read from a request's JSON.
    #[serde(skip)]
    pub accounts: Vec<Option<String>>,
    /// The seat the host plays (an open one): when the host is signed in, it is kept
    /// for their account from the start, so that it is in their "My tables" at once.
    #[serde(default)]
    pub host_seat: Option<Seat>,
    /// The signed-in host's account id, from the request's session (never its body).
    #[serde(skip)]
    pub host_account: Option<String>,
    /// The night whose set this table is (set by the night, never by a request's body).
    #[serde(skip)]
    pub night: Option<String>,
    /// The name of whoever kept the seats of `accounts` for them (a rated night's
    /// creator): their "My tables" says who named them (never from a request's body).
    #[serde(skip)]
    pub invited_by: Option<String>,
}

impl NewTable {
    /// Why a rated table's request cannot be met, if it cannot.
    pub fn rated_refusal(&self) -> Option<String> {
        if !self.rated {
            return None;
        }
        if self.hints {
            return Some("rated: a rated table gives no hints: leave \"hints\" out".into());
        }
        if self.undo {
            return Some("rated: a rated table takes no action back: leave \"undo\" out".into());
        }
        let seats = self.seats.as_deref().unwrap_or_default();
        // A bot is rated at its level's measured anchor: only those levels have one.
        let unrated_bot = seats.iter().enumerate().find(|(_, sitter)| {
            sitter
                .bot_level()
                .is_some_and(|level| !anchors::LEVELS.contains(&level))
        });
        if let Some((seat, sitter)) = unrated_bot {
            return Some(format!(
                "rated: seat {seat} is {sitter}: a rated table's bots are {} (their ratings are measured)",
                anchors::LEVELS.join(", ")
            ));
        }
        let people = self.seats.is_none() || seats.iter().any(|s| s.bot_level().is_none());
        (!people).then(|| "rated: a rated table needs a person's seat (it rates people)".into())
    }
}

/// A created table: its id and the links' tokens.
#[derive(Clone, Debug, Serialize)]
pub struct CreatedTable {
    /// The table's id.
    pub id: String,
    /// The host's token.
    pub host_token: String,
    /// The token of each open seat, by seat.
    pub seat_tokens: Vec<(Seat, String)>,
}

/// A request refused by the hub.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    /// A table's request that cannot be met.
    #[error("{0}")]
    BadRequest(String),
    /// No such table.
    #[error("there is no table {0}")]
    NoTable(String),
    /// The table was quarantined at start: its log does not replay.
    #[error("table {0}'s saved game is damaged (its log does not replay): it is kept as it is and cannot be played or replayed")]
    Damaged(String),
    /// The server runs all it takes of something (tables of bots playing unattended).
    #[error("{0}")]
    Busy(String),
    /// The client's address has its share of something (tables of bots playing
    /// unattended): answered 429.
    #[error("{0}")]
    TooMany(String),
    /// No such night.
    #[error("there is no night {0}")]
    NoNight(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}
