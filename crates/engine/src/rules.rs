//! Which game, variant and options a game is played under, read from and written to a
//! record's header.

use serde_json::{Map, Value};

use crate::bid_euchre::{BidEuchreRules, Variant as BidEuchreVariant};
use crate::fair_deal::{CutSide, CUT_SIDES};
use crate::game::AllPass;
use crate::kaibosh::KaiboshRules;
use crate::kout::{JokerLead, Kout4Deck, KoutRules, Variant as KoutVariant};

/// A fault in a record's header (or a table's settings): unknown game, variant or
/// option, or an option's value out of place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// No such game.
    #[error("unknown game \"{game}\" (known: {known})")]
    UnknownGame {
        /// The name given.
        game: String,
        /// The games there are, comma-separated.
        known: String,
    },
    /// The game has no such variant.
    #[error("unknown variant \"{variant}\" for {game} (known: {known})")]
    UnknownVariant {
        /// The game.
        game: String,
        /// The variant given.
        variant: String,
        /// The game's variants, comma-separated.
        known: String,
    },
    /// The game has no such option.
    #[error("unknown option \"{key}\" for {game}")]
    UnknownOption {
        /// The option given.
        key: String,
        /// The game.
        game: String,
    },
    /// An option that takes a whole number got something else.
    #[error("option \"{key}\" must be a whole number of at least 1, not {value}")]
    NotACount {
        /// The option.
        key: &'static str,
        /// The value given, as JSON.
        value: String,
    },
    /// An option that takes one of a few words got something else.
    #[error("option \"{key}\" must be one of {choices}, not {value}")]
    NotAChoice {
        /// The option.
        key: &'static str,
        /// Its words, comma-separated.
        choices: String,
        /// The value given, as JSON.
        value: String,
    },
    /// Options that do not go together, or an option of another variant.
    #[error("{0}")]
    Conflict(&'static str),
}

/// The game and variant with its options: everything that decides how a game is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameRules {
    /// Kaibosh.
    Kaibosh(KaiboshRules),
    /// Kout Bo.
    Kout(KoutRules),
    /// Bid Euchre, `alexa` or `simplified`.
    BidEuchre(BidEuchreRules),
}

/// The games and their variants, as the notation names them; the first variant of each
/// is its default.
pub const GAMES: &[(&str, &[&str])] = &[
    ("kaibosh", &["standard"]),
    ("bid-euchre", &["alexa", "simplified"]),
    ("kout", &["kout6", "kout4"]),
];

impl GameRules {
    /// Reads the rules from a header's `game`, `variant` (`None`: the game's first) and
    /// `options` (overrides of the defaults).
    pub fn from_header(
        game: &str,
        variant: Option<&str>,
        options: &Map<String, Value>,
    ) -> Result<GameRules, HeaderError> {
        let variants = GAMES
            .iter()
            .find(|(name, _)| *name == game)
            .map(|(_, variants)| *variants)
            .ok_or_else(|| HeaderError::UnknownGame {
                game: game.to_string(),
                known: GAMES.iter().map(|g| g.0).collect::<Vec<_>>().join(", "),
            })?;
        let variant = variant.unwrap_or(variants[0]);
        if !variants.contains(&variant) {
            return Err(HeaderError::UnknownVariant {
                game: game.to_string(),
                variant: variant.to_string(),
                known: variants.join(", "),
            });
        }
        let mut options = OptionReader::new(game, options);
        let rules = match game {
            "kaibosh" => {
                let all_pass = options.all_pass()?;
                let target = options.count("target")?;
                let deals = options.count("deals")?;
                GameRules::Kaibosh(KaiboshRules {
                    all_pass,
                    // A fixed number of deals alone switches the target off.
                    target: match (target, deals) {
                        (Some(t), _) => Some(t as i32),
                        (None, Some(_)) => None,
                        (None, None) => KaiboshRules::default().target,
                    },
                    deals: deals.map(|d| d as u32),
                })
            }
            "kout" => {
                let variant = if variant == "kout4" {
                    KoutVariant::Four
                } else {
                    KoutVariant::Six
                };
                let joker_lead = match options.choice("joker_lead", &JOKER_LEADS)? {
                    Some(value) => kout_joker_lead(value),
                    None => JokerLead::Standard,
                };
                let deck = match (variant, options.choice("deck", &KOUT4_DECKS)?) {
                    (KoutVariant::Six, Some(_)) => {
                        return Err(HeaderError::Conflict(
                            "option \"deck\" is for kout4 only, not kout6",
                        ))
                    }
                    (KoutVariant::Four, Some("two-undealt")) => Kout4Deck::TwoUndealt,
                    _ => Kout4Deck::NoBlackSixes,
                };
                GameRules::Kout(KoutRules {
                    variant,
                    joker_lead,
                    deck,
                })
            }
            "bid-euchre" => {
                let mut rules = BidEuchreRules::new(if variant == "alexa" {
                    BidEuchreVariant::Alexa
                } else {
                    BidEuchreVariant::Simplified
                });
                rules.all_pass = options.all_pass()?;
                let deals = options.count("deals")?;
                let rounds = options.count("rounds")?;
                rules.deals = match (deals, rounds) {
                    (Some(_), Some(_)) => {
                        return Err(HeaderError::Conflict(
                            "options \"deals\" and \"rounds\" may not both be given",
                        ))
                    }
                    (Some(d), None) => d as u32,
                    // `count` keeps values below u32::MAX / 4, so four deals a round fit.
                    (None, Some(r)) => r as u32 * 4,
                    (None, None) => rules.deals,
                };
                GameRules::BidEuchre(rules)
            }
            _ => unreachable!("every game of GAMES is read above"),
        };
        // Every game: who cuts (docs/fair-deals.md); it changes no rule of play.
        options.choice(CutSide::OPTION, &CUT_SIDES)?;
        options.finish()?;
        Ok(rules)
    }

    /// The notation's game name.
    pub fn game(&self) -> &'static str {
        match self {
            GameRules::Kaibosh(_) => "kaibosh",
            GameRules::Kout(_) => "kout",
            GameRules::BidEuchre(_) => "bid-euchre",
        }
    }

    /// The notation's variant name.
    pub fn variant(&self) -> &'static str {
        match self {
            GameRules::Kaibosh(_) => "standard",
            GameRules::Kout(rules) => match rules.variant {
                KoutVariant::Six => "kout6",
                KoutVariant::Four => "kout4",
            },
            GameRules::BidEuchre(rules) => rules.variant.name(),
        }
    }

    /// The options that differ from the defaults, as a header writes them.
    pub fn options(&self) -> Map<String, Value> {
        let mut map = Map::new();
        match self {
            GameRules::Kaibosh(rules) => {
                let default = KaiboshRules::default();
                if rules.all_pass != default.all_pass {
                    map.insert("all_pass".into(), all_pass_value(rules.all_pass));
                }
                if let Some(deals) = rules.deals {
                    map.insert("deals".into(), deals.into());
                }
                // With deals given the target is off unless stated; without, 50 is default.
                if rules.target != default.target
                    || (rules.deals.is_some() && rules.target.is_some())
                {
                    if let Some(target) = rules.target {
                        map.insert("target".into(), target.into());
                    }
                }
            }
            GameRules::Kout(rules) => {
                if rules.joker_lead != JokerLead::Standard {
                    let name = JOKER_LEADS
                        .into_iter()
                        .find(|name| kout_joker_lead(name) == rules.joker_lead)
                        .expect("every joker lead rule has a name");
                    map.insert("joker_lead".into(), name.into());
                }
                if rules.variant == KoutVariant::Four && rules.deck == Kout4Deck::TwoUndealt {
                    map.insert("deck".into(), KOUT4_DECKS[1].into());
                }
            }
            GameRules::BidEuchre(rules) => {
                let default = BidEuchreRules::new(rules.variant);
                if rules.all_pass != default.all_pass {
                    map.insert("all_pass".into(), all_pass_value(rules.all_pass));
                }
                if rules.deals != default.deals {
                    // Simplified games are agreed in rounds of four deals.
                    if rules.variant == BidEuchreVariant::Simplified && rules.deals % 4 == 0 {
                        map.insert("rounds".into(), (rules.deals / 4).into());
                    } else {
                        map.insert("deals".into(), rules.deals.into());
                    }
                }
            }
        }
        map
    }
}

/// Kout's `joker_lead` values.
const JOKER_LEADS: [&str; 4] = [
    "standard",
    "contract-only",
    "all-trumps-played",
    "trump-ace-played",
];

/// Kout4's `deck` values, the default first.
const KOUT4_DECKS: [&str; 2] = ["no-black-sixes", "two-undealt"];

fn kout_joker_lead(name: &str) -> JokerLead {
    match name {
        "contract-only" => JokerLead::ContractOnly,
        "all-trumps-played" => JokerLead::AllTrumpsPlayed,
        "trump-ace-played" => JokerLead::TrumpAcePlayed,
        _ => JokerLead::Standard,
    }
}

fn all_pass_value(all_pass: AllPass) -> Value {
    match all_pass {
        AllPass::Redeal => "redeal".into(),
        AllPass::DealerMustBid => "dealer-must-bid".into(),
    }
}

/// The largest count `OptionReader::count` returns: a target or a number of deals no
/// game reaches, small enough to multiply by four in a `u32`.
const COUNT_CAP: u64 = (u32::MAX / 4) as u64;

/// Reads a header's options one by one, then rejects any it did not read.
pub struct OptionReader<'a> {
    game: &'a str,
    options: &'a Map<String, Value>,
    read: Vec<&'static str>,
}

impl<'a> OptionReader<'a> {
    /// A reader over `options` of `game`.
    pub fn new(game: &'a str, options: &'a Map<String, Value>) -> OptionReader<'a> {
        OptionReader {
            game,
            options,
            read: Vec::new(),
        }
    }

    fn get(&mut self, key: &'static str) -> Option<&'a Value> {
        self.read.push(key);
        self.options.get(key)
    }

    /// A whole number of at least 1 (`target`, `deals`, `rounds`), if given. A larger
    /// number than any game can reach is read as a quarter of `u32::MAX`, so that
    /// callers may convert and multiply it without overflow.
    pub fn count(&mut self, key: &'static str) -> Result<Option<u64>, HeaderError> {
        match self.get(key) {
            None => Ok(None),
            Some(value) => match value.as_u64() {
                Some(n) if n >= 1 => Ok(Some(n.min(COUNT_CAP))),
                _ => Err(HeaderError::NotACount {
                    key,
                    value: value.to_string(),
                }),
            },
        }
    }

    /// One of `choices`, if given.
    pub fn choice(
        &mut self,
        key: &'static str,
        choices: &[&'static str],
    ) -> Result<Option<&'static str>, HeaderError> {
        match self.get(key) {
            None => Ok(None),
            Some(value) => choices
                .iter()
                .find(|c| value.as_str() == Some(**c))
                .map(|c| Some(*c))
                .ok_or_else(|| HeaderError::NotAChoice {
                    key,
                    choices: choices.join(", "),
                    value: value.to_string(),
                }),
        }
    }

    /// The `all_pass` option: `redeal` (default) or `dealer-must-bid`.
    pub fn all_pass(&mut self) -> Result<AllPass, HeaderError> {
        Ok(
            match self.choice("all_pass", &["redeal", "dealer-must-bid"])? {
                Some("dealer-must-bid") => AllPass::DealerMustBid,
                _ => AllPass::Redeal,
            },
        )
    }

    /// Fails on the first option that was never read: it is unknown to the game.
    pub fn finish(self) -> Result<(), HeaderError> {
        match self
            .options
            .keys()
            .find(|k| !self.read.contains(&k.as_str()))
        {
            Some(key) => Err(HeaderError::UnknownOption {
                key: key.clone(),
                game: self.game.to_string(),
            }),
            None => Ok(()),
        }
    }
}

/// How rules are written in JSON: as a record's header writes them.
#[derive(serde::Serialize, serde::Deserialize)]
struct WrittenRules {
    game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    variant: Option<String>,
    #[serde(default)]
    options: Map<String, Value>,
}

impl serde::Serialize for GameRules {
    /// `{"game": ..., "variant": ..., "options": {...}}`, options that differ from the
    /// defaults only.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenRules {
            game: self.game().to_string(),
            variant: Some(self.variant().to_string()),
            options: self.options(),
        }
        .serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for GameRules {
    /// Reads `{"game": ..., "variant": ..., "options": {...}}` as a header is read.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<GameRules, D::Error> {
        let written = WrittenRules::deserialize(deserializer)?;
        GameRules::from_header(&written.game, written.variant.as_deref(), &written.options)
            .map_err(serde::de::Error::custom)
    }
}
