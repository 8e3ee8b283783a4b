//! Which game, variant and options a game is played under, read from and written to a
//! record's header by the catalogue's specification of each variant's options.

use serde_json::{Map, Value};

use crate::bid_euchre::{BidEuchreRules, Variant as BidEuchreVariant};
use crate::catalog::{
    options as spec, GameKind, HeaderError, OptionSpec, OptionValues, VariantKind,
};
use crate::game::AllPass;
use crate::kaibosh::KaiboshRules;
use crate::kout::{JokerLead, Kout4Deck, KoutRules, Variant as KoutVariant};

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

impl GameRules {
    /// Reads the rules from a header's `game`, `variant` (`None`: the game's first) and
    /// `options` (overrides of the defaults).
    pub fn from_header(
        game: &str,
        variant: Option<&str>,
        options: &Map<String, Value>,
    ) -> Result<GameRules, HeaderError> {
        let variant = game.parse::<GameKind>()?.variant(variant)?;
        GameRules::from_options(variant, options)
    }

    /// The rules of `variant` at its defaults.
    pub fn new(variant: VariantKind) -> GameRules {
        GameRules::from_options(variant, &Map::new()).expect("no options are default options")
    }

    /// The rules of `variant` with `options` (overrides of the defaults), each read by
    /// its specification in the catalogue.
    pub fn from_options(
        variant: VariantKind,
        options: &Map<String, Value>,
    ) -> Result<GameRules, HeaderError> {
        let mut options = OptionReader::new(variant, options);
        let rules = match variant {
            VariantKind::Standard => {
                let all_pass = options.all_pass()?;
                let target = options.count(&spec::TARGET)?;
                let deals = options.count(&spec::KAIBOSH_DEALS)?;
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
            VariantKind::Kout6 | VariantKind::Kout4 => {
                let joker_lead = match options.choice(&spec::JOKER_LEAD)? {
                    Some(value) => named(&JOKER_LEADS, value, joker_lead_name),
                    None => JokerLead::Standard,
                };
                let deck = match options.choice(&spec::DECK)? {
                    Some(value) => named(&KOUT4_DECKS, value, kout4_deck_name),
                    None => Kout4Deck::NoBlackSixes,
                };
                GameRules::Kout(KoutRules {
                    variant: if variant == VariantKind::Kout4 {
                        KoutVariant::Four
                    } else {
                        KoutVariant::Six
                    },
                    joker_lead,
                    deck,
                })
            }
            VariantKind::Alexa | VariantKind::Simplified => {
                let mut rules = BidEuchreRules::new(if variant == VariantKind::Alexa {
                    BidEuchreVariant::Alexa
                } else {
                    BidEuchreVariant::Simplified
                });
                rules.all_pass = options.all_pass()?;
                let deals = options.count(&spec::BID_EUCHRE_DEALS)?;
                let rounds = options.count(&spec::ROUNDS)?;
                rules.deals = match (deals, rounds) {
                    (Some(_), Some(_)) => {
                        return Err(HeaderError::Conflict(
                            "options \"deals\" and \"rounds\" may not both be given".to_string(),
                        ))
                    }
                    (Some(d), None) => d as u32,
                    // `count` keeps values below u32::MAX / 4, so four deals a round fit.
                    (None, Some(r)) => r as u32 * 4,
                    (None, None) => rules.deals,
                };
                GameRules::BidEuchre(rules)
            }
        };
        // Every game: who cuts (docs/fair-deals.md); it changes no rule of play.
        let cut = match variant.game() {
            GameKind::Kout => &spec::CUT_LEFT,
            GameKind::Kaibosh | GameKind::BidEuchre => &spec::CUT_RIGHT,
        };
        options.choice(cut)?;
        options.finish()?;
        Ok(rules)
    }

    /// The game's variant in the catalogue, which holds its facts.
    pub fn kind(&self) -> VariantKind {
        match self {
            GameRules::Kaibosh(_) => VariantKind::Standard,
            GameRules::Kout(rules) => match rules.variant {
                KoutVariant::Six => VariantKind::Kout6,
                KoutVariant::Four => VariantKind::Kout4,
            },
            GameRules::BidEuchre(rules) => match rules.variant {
                BidEuchreVariant::Alexa => VariantKind::Alexa,
                BidEuchreVariant::Simplified => VariantKind::Simplified,
            },
        }
    }

    /// The notation's game name.
    pub fn game(&self) -> &'static str {
        self.kind().game().name()
    }

    /// The notation's variant name.
    pub fn variant(&self) -> &'static str {
        self.kind().name()
    }

    /// The options that differ from the defaults, as a header writes them.
    pub fn options(&self) -> Map<String, Value> {
        let mut map = Map::new();
        match self {
            GameRules::Kaibosh(rules) => {
                let default = KaiboshRules::default();
                if rules.all_pass != default.all_pass {
                    map.insert(
                        spec::ALL_PASS.key.into(),
                        all_pass_name(rules.all_pass).into(),
                    );
                }
                if let Some(deals) = rules.deals {
                    map.insert(spec::KAIBOSH_DEALS.key.into(), deals.into());
                }
                // With deals given the target is off unless stated; without, 50 is default.
                if rules.target != default.target
                    || (rules.deals.is_some() && rules.target.is_some())
                {
                    if let Some(target) = rules.target {
                        map.insert(spec::TARGET.key.into(), target.into());
                    }
                }
            }
            GameRules::Kout(rules) => {
                if rules.joker_lead != JokerLead::Standard {
                    map.insert(
                        spec::JOKER_LEAD.key.into(),
                        joker_lead_name(rules.joker_lead).into(),
                    );
                }
                if rules.variant == KoutVariant::Four && rules.deck == Kout4Deck::TwoUndealt {
                    map.insert(spec::DECK.key.into(), kout4_deck_name(rules.deck).into());
                }
            }
            GameRules::BidEuchre(rules) => {
                let default = BidEuchreRules::new(rules.variant);
                if rules.all_pass != default.all_pass {
                    map.insert(
                        spec::ALL_PASS.key.into(),
                        all_pass_name(rules.all_pass).into(),
                    );
                }
                if rules.deals != default.deals {
                    // Simplified games are agreed in rounds of four deals.
                    if rules.variant == BidEuchreVariant::Simplified && rules.deals % 4 == 0 {
                        map.insert(spec::ROUNDS.key.into(), (rules.deals / 4).into());
                    } else {
                        map.insert(spec::BID_EUCHRE_DEALS.key.into(), rules.deals.into());
                    }
                }
            }
        }
        map
    }
}

/// Every `joker_lead` rule.
const JOKER_LEADS: [JokerLead; 4] = [
    JokerLead::Standard,
    JokerLead::ContractOnly,
    JokerLead::AllTrumpsPlayed,
    JokerLead::TrumpAcePlayed,
];

/// Every Kout Bo 4 deck.
const KOUT4_DECKS: [Kout4Deck; 2] = [Kout4Deck::NoBlackSixes, Kout4Deck::TwoUndealt];

/// Every `all_pass` rule.
const ALL_PASSES: [AllPass; 2] = [AllPass::Redeal, AllPass::DealerMustBid];

/// The `joker_lead` value of a rule.
const fn joker_lead_name(rule: JokerLead) -> &'static str {
    match rule {
        JokerLead::Standard => "standard",
        JokerLead::ContractOnly => "contract-only",
        JokerLead::AllTrumpsPlayed => "all-trumps-played",
        JokerLead::TrumpAcePlayed => "trump-ace-played",
    }
}

/// The `deck` value of a Kout Bo 4 deck.
const fn kout4_deck_name(deck: Kout4Deck) -> &'static str {
    match deck {
        Kout4Deck::NoBlackSixes => "no-black-sixes",
        Kout4Deck::TwoUndealt => "two-undealt",
    }
}

/// The `all_pass` value of a rule.
const fn all_pass_name(rule: AllPass) -> &'static str {
    match rule {
        AllPass::Redeal => "redeal",
        AllPass::DealerMustBid => "dealer-must-bid",
    }
}

/// The one of `all` whose name is `value`, a value its option's specification accepted
/// (the tests hold each specification's values to the names of its rules).
fn named<T: Copy>(all: &[T], value: &str, name: fn(T) -> &'static str) -> T {
    *all.iter()
        .find(|rule| name(**rule) == value)
        .expect("every value of an option's specification names a rule")
}

/// The largest count `OptionReader::count` returns: a target or a number of deals no
/// game reaches, small enough to multiply by four in a `u32`.
const COUNT_CAP: u64 = (u32::MAX / 4) as u64;

/// Reads a header's options one by one, each by its specification in the catalogue,
/// then rejects any it did not read.
pub struct OptionReader<'a> {
    variant: VariantKind,
    options: &'a Map<String, Value>,
    read: Vec<&'static str>,
}

impl<'a> OptionReader<'a> {
    /// A reader over `options` of `variant`.
    pub fn new(variant: VariantKind, options: &'a Map<String, Value>) -> OptionReader<'a> {
        OptionReader {
            variant,
            options,
            read: Vec::new(),
        }
    }

    fn get(&mut self, option: &OptionSpec) -> Option<&'a Value> {
        debug_assert!(
            self.variant.game().options().contains(option),
            "{} is not an option of {}",
            option.key,
            self.variant.game()
        );
        self.read.push(option.key);
        self.options.get(option.key)
    }

    /// Fails if `option`, given, is for other variants of the game.
    fn applies(&self, option: &OptionSpec) -> Result<(), HeaderError> {
        if option.applies_to(self.variant) {
            return Ok(());
        }
        let variants: Vec<&str> = option.variants.iter().map(|v| v.name()).collect();
        Err(HeaderError::Conflict(format!(
            "option \"{}\" is for {} only, not {}",
            option.key,
            variants.join(", "),
            self.variant
        )))
    }

    /// A count option (a whole number of at least 1: `target`, `deals`, `rounds`), if
    /// given. A larger number than any game can reach is read as a quarter of
    /// `u32::MAX`, so that callers may convert and multiply it without overflow.
    pub fn count(&mut self, option: &OptionSpec) -> Result<Option<u64>, HeaderError> {
        debug_assert_eq!(option.values, OptionValues::Count);
        let Some(value) = self.get(option) else {
            return Ok(None);
        };
        match value.as_u64() {
            Some(n) if n >= 1 => {
                self.applies(option)?;
                Ok(Some(n.min(COUNT_CAP)))
            }
            _ => Err(HeaderError::NotACount {
                key: option.key,
                value: value.to_string(),
            }),
        }
    }

    /// A choice option's value, if given.
    pub fn choice(&mut self, option: &OptionSpec) -> Result<Option<&'static str>, HeaderError> {
        let Some(value) = self.get(option) else {
            return Ok(None);
        };
        match option.choices().find(|c| value.as_str() == Some(*c)) {
            Some(choice) => {
                self.applies(option)?;
                Ok(Some(choice))
            }
            None => Err(HeaderError::NotAChoice {
                key: option.key,
                choices: option.choices().collect::<Vec<_>>().join(", "),
                value: value.to_string(),
            }),
        }
    }

    /// The `all_pass` option: `redeal` (default) or `dealer-must-bid`.
    pub fn all_pass(&mut self) -> Result<AllPass, HeaderError> {
        Ok(match self.choice(&spec::ALL_PASS)? {
            Some(value) => named(&ALL_PASSES, value, all_pass_name),
            None => AllPass::Redeal,
        })
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
                game: self.variant.game().to_string(),
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rules_name_is_a_value_of_its_option_in_the_catalogue() {
        let names = |spec: &OptionSpec| spec.choices().collect::<Vec<_>>();
        assert_eq!(
            names(&spec::JOKER_LEAD),
            JOKER_LEADS.map(joker_lead_name).to_vec()
        );
        assert_eq!(
            names(&spec::DECK),
            KOUT4_DECKS.map(kout4_deck_name).to_vec()
        );
        assert_eq!(
            names(&spec::ALL_PASS),
            ALL_PASSES.map(all_pass_name).to_vec()
        );
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
