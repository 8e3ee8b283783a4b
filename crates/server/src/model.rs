//! The server's own vocabulary, typed: a table's status, who sits at a seat, a night's
//! status. Each is written on the wire and in the store as the word the protocol
//! document gives (`open`, `bot:medium`, ...); that word is read and written here only.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// `N` random bytes from the operating system's secure generator.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buffer = [0u8; N];
    getrandom::fill(&mut buffer).expect("the OS's random source works");
    buffer
}

/// 16 random bytes from the OS, as hex: tokens and ids.
pub(crate) fn random_hex() -> String {
    random_bytes::<16>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(rename_all = "lowercase")]
pub enum TableStatus {
    /// Waiting for its players; the host may start it.
    Open,
    /// The game is under way.
    Playing,
    /// The game is over; its record is whole.
    Over,
    /// The host ended the table (or nobody came): final.
    Ended,
}

impl TableStatus {
    /// The status's word on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            TableStatus::Open => "open",
            TableStatus::Playing => "playing",
            TableStatus::Over => "over",
            TableStatus::Ended => "ended",
        }
    }

    /// Whether the lobby lists the table and a restart resumes it: open or playing.
    pub fn is_live(self) -> bool {
        matches!(self, TableStatus::Open | TableStatus::Playing)
    }
}

impl fmt::Display for TableStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who sits at a seat: written `open`, `person` or `bot:LEVEL`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Sitter {
    /// A person's seat nobody has taken yet: its link waits.
    Open,
    /// A person took the seat (they may be away now).
    Person,
    /// A bot of this level (a name [`calltrump_bots::bot_by_name`] knows) plays it.
    Bot(String),
}

impl Sitter {
    /// The bot's level, if a bot sits here.
    pub fn bot_level(&self) -> Option<&str> {
        match self {
            Sitter::Bot(level) => Some(level),
            Sitter::Open | Sitter::Person => None,
        }
    }
}

impl fmt::Display for Sitter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sitter::Open => f.write_str("open"),
            Sitter::Person => f.write_str("person"),
            Sitter::Bot(level) => write!(f, "bot:{level}"),
        }
    }
}

/// A sitter's word that is not `open`, `person` or `bot:LEVEL`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is neither \"open\", \"person\" nor \"bot:LEVEL\"")]
pub struct BadSitter(pub String);

impl FromStr for Sitter {
    type Err = BadSitter;

    fn from_str(word: &str) -> Result<Sitter, BadSitter> {
        match word {
            "open" => Ok(Sitter::Open),
            "person" => Ok(Sitter::Person),
            _ => match word.strip_prefix("bot:") {
                Some(level) if !level.is_empty() => Ok(Sitter::Bot(level.to_string())),
                _ => Err(BadSitter(word.to_string())),
            },
        }
    }
}

impl TryFrom<String> for Sitter {
    type Error = BadSitter;

    fn try_from(word: String) -> Result<Sitter, BadSitter> {
        word.parse()
    }
}

impl From<Sitter> for String {
    fn from(sitter: Sitter) -> String {
        sitter.to_string()
    }
}

/// What a deleted account's name becomes wherever it was shown.
pub const FORMER_PLAYER: &str = "a former player";

/// Who sits at a seat, as a table keeps it: the seat's secret, the person's name and
/// the sitter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The seat's secret: whoever holds it plays the seat.
    pub token: String,
    /// The person's name (or none).
    pub name: Option<String>,
    /// `open` (a person's seat not yet taken), `person`, or `bot:LEVEL`.
    pub sitter: Sitter,
    /// A bot stands in for the person, away past their grace: kept so that a restart
    /// does not give the seat a fresh grace and make the table wait again. (Absent in
    /// the store when false, so that seats kept before it read back.)
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
    /// The id of the account that sat down here signed in: the seat is that account's
    /// alone, from any device, and no longer its link's. (Absent when none.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// On a table with a turn clock, while it is this person's decision: when the clock
    /// runs out, in milliseconds since 1970. Kept with the step that made it their turn,
    /// so that a restart does not give them a fresh clock. (Absent when none.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<i64>,
    /// The people who played this seat before the host handed it on during the game,
    /// first to last: a replay credits their hands to them too. (Absent when none.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub former: Vec<String>,
    /// The name of the host who invited this seat's account by name, until the person
    /// sits down: "My tables" shows the invitation. (Absent when none.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invited_by: Option<String>,
}

/// A table's turn clock, the host's option: how long a person has for each decision,
/// and the bot that makes the decision for them when the time runs out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnClock {
    /// Seconds for each decision, from 1 to [`TurnClock::MAX_SECONDS`].
    pub seconds: u32,
    /// The bot's level (`medium` if none given).
    #[serde(default = "TurnClock::default_level")]
    pub level: String,
}

impl TurnClock {
    /// The longest clock: an hour a decision.
    pub const MAX_SECONDS: u32 = 3600;

    fn default_level() -> String {
        "medium".into()
    }

    /// The clock's time for a decision.
    pub fn length(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.seconds.into())
    }
}

/// The account a connection came signed in with (resolved from its session cookie at
/// the WebSocket's upgrade).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedIn {
    /// The account's id.
    pub id: String,
    /// Its name, shown at a seat it takes.
    pub name: String,
}

impl SeatRecord {
    /// The bot's level, if a bot sits here.
    pub fn bot_level(&self) -> Option<&str> {
        self.sitter.bot_level()
    }
}

impl FromStr for TableStatus {
    type Err = String;

    fn from_str(word: &str) -> Result<TableStatus, String> {
        [
            TableStatus::Open,
            TableStatus::Playing,
            TableStatus::Over,
            TableStatus::Ended,
        ]
        .into_iter()
        .find(|status| status.as_str() == word)
        .ok_or_else(|| format!("\"{word}\" is no table status"))
    }
}

/// Where a night of alexa Bid Euchre stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(rename_all = "lowercase")]
pub enum NightStatus {
    /// Its sets are being played.
    Playing,
    /// Every set was played.
    Over,
    /// A set's table was ended: so is the night.
    Ended,
}

impl NightStatus {
    /// The status's word in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            NightStatus::Playing => "playing",
            NightStatus::Over => "over",
            NightStatus::Ended => "ended",
        }
    }
}

impl FromStr for NightStatus {
    type Err = String;

    fn from_str(word: &str) -> Result<NightStatus, String> {
        [NightStatus::Playing, NightStatus::Over, NightStatus::Ended]
            .into_iter()
            .find(|status| status.as_str() == word)
            .ok_or_else(|| format!("\"{word}\" is no night status"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitters_read_back_as_written() {
        for sitter in [Sitter::Open, Sitter::Person, Sitter::Bot("medium".into())] {
            let word = sitter.to_string();
            assert_eq!(word.parse::<Sitter>(), Ok(sitter.clone()));
            let json = serde_json::to_string(&sitter).unwrap();
            assert_eq!(json, format!("\"{word}\""));
            assert_eq!(serde_json::from_str::<Sitter>(&json).unwrap(), sitter);
        }
    }

    #[test]
    fn a_word_that_is_no_sitter_is_refused() {
        for word in ["", "bot:", "bots:medium", "Person", "human"] {
            assert_eq!(word.parse::<Sitter>(), Err(BadSitter(word.into())));
        }
        assert!(serde_json::from_str::<Sitter>("\"robot\"").is_err());
    }

    #[test]
    fn statuses_are_their_words() {
        for status in [
            TableStatus::Open,
            TableStatus::Playing,
            TableStatus::Over,
            TableStatus::Ended,
        ] {
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.as_str()));
            assert_eq!(serde_json::from_str::<TableStatus>(&json).unwrap(), status);
            assert_eq!(status.as_str().parse::<TableStatus>(), Ok(status));
        }
        for status in [NightStatus::Playing, NightStatus::Over, NightStatus::Ended] {
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.as_str()));
            assert_eq!(status.as_str().parse::<NightStatus>(), Ok(status));
        }
        assert!("Open".parse::<TableStatus>().is_err());
        assert!("live".parse::<NightStatus>().is_err());
    }
}
