//! The game catalogue: every game and variant calltrump plays, as the notation names
//! them, with each variant's facts (seats, partners, hand, deck, direction of play, rules
//! document, how a hand is shown) and the specification of its options (key, values,
//! default, meaning, the variants it applies to), in the manner of OpenSpiel's parameter
//! specification.
//!
//! Everything that lists games, variants or options reads them from here: the record
//! header ([`GameRules::from_header`](crate::GameRules::from_header)), the command
//! line's help, and the table server's `GET /api/games` that the browser's pages read.
//! A new variant is a new [`VariantKind`] whose `match`es the compiler then asks for.

use std::cmp::Reverse;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::action::{Action, Strain};
use crate::card::{Card, Suit, ACE, JACK};
use crate::card_set::CardBag;
use crate::{bid_euchre, kaibosh, kout};

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
    Conflict(String),
}

/// A game, as the notation's `game` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    /// Kaibosh.
    Kaibosh,
    /// Bid Euchre.
    BidEuchre,
    /// Kout Bo.
    Kout,
}

/// A variant of a game, as the notation's `variant` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VariantKind {
    /// Kaibosh, the one variant.
    Standard,
    /// Bid Euchre by the alexa rules.
    Alexa,
    /// Bid Euchre by the simplified rules.
    Simplified,
    /// Kout Bo for six players.
    Kout6,
    /// Kout Bo for four players.
    Kout4,
}

/// The order of play round the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// To the left: the next seat sits on a player's left.
    Clockwise,
    /// To the right: the next seat sits on a player's right.
    CounterClockwise,
}

/// The top trumps a hand is sorted by for display. Every game shows trumps first (from
/// the highest), then the other suits in the order spades, hearts, clubs, diamonds from
/// the suit after trump, so that colours alternate, each from its highest card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandOrder {
    /// The jack of trump, then the other jack of its colour, are the top trumps (and the
    /// latter shown among the trumps); aces rank high.
    Bowers,
    /// The red joker, the trump ace, then the black joker are the top trumps; a joker
    /// before trump is named is shown first.
    Jokers,
}

impl HandOrder {
    /// The suits from the first shown (with no trump named, or at no-trump) round to the
    /// last: black and red alternate from any of them.
    const SUITS: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

    /// `hand` as a screen shows it, `trump` named or not yet (`None`): trumps first from
    /// the highest (a joker before trump is named comes first), then the other suits from
    /// the one after trump in `HandOrder::SUITS`' round, each from its highest card.
    pub fn sort(self, hand: CardBag, trump: Option<Strain>) -> Vec<Card> {
        let trump = trump.and_then(Strain::trump);
        let mut cards: Vec<Card> = hand.iter().collect();
        cards.sort_by_key(|&card| {
            (
                self.group(card, trump),
                Reverse(self.power(card, trump)),
                card,
            )
        });
        cards
    }

    /// Where `card`'s suit comes in the hand: 0 for jokers before trump is named, then 1
    /// for trump (or the first suit) and on round [`HandOrder::SUITS`].
    fn group(self, card: Card, trump: Option<Suit>) -> usize {
        let suit = match (card.suit(), trump) {
            (None, None) => return 0,
            (None, Some(trump)) => trump,
            (Some(suit), Some(trump))
                if self == HandOrder::Bowers
                    && card.rank() == JACK
                    && suit == trump.same_colour() =>
            {
                trump
            }
            (Some(suit), _) => suit,
        };
        let at = |suit: Suit| Self::SUITS.iter().position(|&s| s == suit).unwrap_or(0);
        let first = trump.map_or(0, at);
        1 + (at(suit) + 4 - first) % 4
    }

    /// How high `card` is shown within its group.
    fn power(self, card: Card, trump: Option<Suit>) -> u8 {
        let Some(suit) = card.suit() else {
            return if card == Card::RED_JOKER { 100 } else { 98 };
        };
        match (self, trump) {
            (HandOrder::Jokers, Some(trump)) if suit == trump && card.rank() == ACE => 99,
            (HandOrder::Bowers, Some(trump)) if card.rank() == JACK && suit == trump => 60,
            (HandOrder::Bowers, Some(trump))
                if card.rank() == JACK && suit == trump.same_colour() =>
            {
                59
            }
            _ => card.rank(),
        }
    }
}

/// A game's rules page, in `docs/rules/`, built into the binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesDocument {
    /// Its file name in `docs/rules/`.
    pub file: &'static str,
    /// The page, in Markdown.
    pub text: &'static str,
}

/// The values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValues {
    /// A whole number of at least 1.
    Count,
    /// One of these words, each with what it means.
    Choice(&'static [(&'static str, &'static str)]),
}

/// One option of a game: what a header's `options` and `--option KEY=VALUE` take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key.
    pub key: &'static str,
    /// A short label for a form.
    pub label: &'static str,
    /// What it decides.
    pub meaning: &'static str,
    /// The values it takes.
    pub values: OptionValues,
    /// The default as the notation writes it, or `None` when the option is off unless
    /// given.
    pub default: Option<&'static str>,
    /// The variants it applies to; empty: every variant of its game.
    pub variants: &'static [VariantKind],
}

impl OptionSpec {
    /// The values of a [`OptionValues::Choice`] option (none for a count).
    pub fn choices(&self) -> impl Iterator<Item = &'static str> {
        let choices: &'static [(&'static str, &'static str)] = match self.values {
            OptionValues::Count => &[],
            OptionValues::Choice(choices) => choices,
        };
        choices.iter().map(|(value, _)| *value)
    }

    /// Whether the option applies to `variant` (of the option's game).
    pub fn applies_to(&self, variant: VariantKind) -> bool {
        self.variants.is_empty() || self.variants.contains(&variant)
    }
}

/// The options of every game, by key, in the order a header is read.
pub mod options {
    use super::{OptionSpec, OptionValues, VariantKind};

    const ALL_PASS_VALUES: OptionValues = OptionValues::Choice(&[
        ("redeal", "deal again"),
        ("dealer-must-bid", "the dealer must bid"),
    ]);

    /// `all_pass` of Kaibosh and Bid Euchre.
    pub const ALL_PASS: OptionSpec = OptionSpec {
        key: "all_pass",
        label: "When everyone passes",
        meaning: "what happens when all four pass",
        values: ALL_PASS_VALUES,
        default: Some("redeal"),
        variants: &[],
    };

    /// Kaibosh's `target`.
    pub const TARGET: OptionSpec = OptionSpec {
        key: "target",
        label: "Points to win",
        meaning: "the score that ends the game",
        values: OptionValues::Count,
        default: Some("50"),
        variants: &[],
    };

    /// Kaibosh's `deals`.
    pub const KAIBOSH_DEALS: OptionSpec = OptionSpec {
        key: "deals",
        label: "Deals",
        meaning: "a fixed number of deals; alone, it switches the target off",
        values: OptionValues::Count,
        default: None,
        variants: &[],
    };

    /// Bid Euchre's `deals`.
    pub const BID_EUCHRE_DEALS: OptionSpec = OptionSpec {
        key: "deals",
        label: "Deals",
        meaning: "the length of the game in deals",
        values: OptionValues::Count,
        default: Some("8"),
        variants: &[],
    };

    /// Bid Euchre's `rounds`.
    pub const ROUNDS: OptionSpec = OptionSpec {
        key: "rounds",
        label: "Rounds of 4 deals",
        meaning: "the length in rounds of 4 deals, not with deals",
        values: OptionValues::Count,
        default: Some("2"),
        variants: &[],
    };

    /// Kout Bo's `joker_lead`.
    pub const JOKER_LEAD: OptionSpec = OptionSpec {
        key: "joker_lead",
        label: "Leading a joker",
        meaning: "when a joker may be led besides on a contract of 8 or 9",
        values: OptionValues::Choice(&[
            ("standard", "standard"),
            ("contract-only", "contract only"),
            ("all-trumps-played", "once all top trumps are out"),
            ("trump-ace-played", "once the trump ace is out"),
        ]),
        default: Some("standard"),
        variants: &[],
    };

    /// Kout Bo 4's `deck`.
    pub const DECK: OptionSpec = OptionSpec {
        key: "deck",
        label: "Deck",
        meaning: "the four-player deck",
        values: OptionValues::Choice(&[
            ("no-black-sixes", "36 cards: no black sixes"),
            ("two-undealt", "38 cards: two left undealt"),
        ]),
        default: Some("no-black-sixes"),
        variants: &[VariantKind::Kout4],
    };

    const CUT_VALUES: OptionValues = OptionValues::Choice(&[
        ("right", "the dealer's right"),
        ("left", "the dealer's left"),
    ]);

    /// `cut` of Kaibosh and Bid Euchre: who cuts a committed deal.
    pub const CUT_RIGHT: OptionSpec = OptionSpec {
        key: "cut",
        label: "Who cuts",
        meaning: "who cuts a committed deal",
        values: CUT_VALUES,
        default: Some("right"),
        variants: &[],
    };

    /// Kout Bo's `cut`.
    pub const CUT_LEFT: OptionSpec = OptionSpec {
        default: Some("left"),
        ..CUT_RIGHT
    };
}

impl GameKind {
    /// Every game, in the order lists show them.
    pub const ALL: [GameKind; 3] = [GameKind::Kaibosh, GameKind::BidEuchre, GameKind::Kout];

    /// The notation's name.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Kaibosh => "kaibosh",
            GameKind::BidEuchre => "bid-euchre",
            GameKind::Kout => "kout",
        }
    }

    /// The name people use.
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Kaibosh => "Kaibosh",
            GameKind::BidEuchre => "Bid Euchre",
            GameKind::Kout => "Kout Bo",
        }
    }

    /// The variants; the first is the default.
    pub const fn variants(self) -> &'static [VariantKind] {
        match self {
            GameKind::Kaibosh => &[VariantKind::Standard],
            GameKind::BidEuchre => &[VariantKind::Alexa, VariantKind::Simplified],
            GameKind::Kout => &[VariantKind::Kout6, VariantKind::Kout4],
        }
    }

    /// The variant named `name`, or `None` for the default one.
    pub fn variant(self, name: Option<&str>) -> Result<VariantKind, HeaderError> {
        let variants = self.variants();
        let Some(name) = name else {
            return Ok(variants[0]);
        };
        variants
            .iter()
            .find(|v| v.name() == name)
            .copied()
            .ok_or_else(|| HeaderError::UnknownVariant {
                game: self.name().to_string(),
                variant: name.to_string(),
                known: names(variants.iter().map(|v| v.name())),
            })
    }

    /// The options of every variant, in the order a header is read.
    pub const fn options(self) -> &'static [OptionSpec] {
        use options::*;
        match self {
            GameKind::Kaibosh => &[ALL_PASS, TARGET, KAIBOSH_DEALS, CUT_RIGHT],
            GameKind::BidEuchre => &[ALL_PASS, BID_EUCHRE_DEALS, ROUNDS, CUT_RIGHT],
            GameKind::Kout => &[JOKER_LEAD, DECK, CUT_LEFT],
        }
    }

    /// The calls that go by a name of their own, with it (Kout Bo's Bab, Six, Seven,
    /// Eight and Bawan).
    pub const fn call_names(self) -> &'static [(Action, &'static str)] {
        match self {
            GameKind::Kout => &kout::CALL_NAMES,
            GameKind::Kaibosh | GameKind::BidEuchre => &[],
        }
    }

    /// Other names people give the game, which `calltrump rules` takes too.
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            GameKind::Kaibosh => &[],
            GameKind::BidEuchre => &["bideuchre", "euchre"],
            GameKind::Kout => &["kout-bo", "koutbo"],
        }
    }

    /// The rules page.
    pub const fn rules_document(self) -> RulesDocument {
        match self {
            GameKind::Kaibosh => RulesDocument {
                file: "kaibosh.md",
                text: include_str!("../../../docs/rules/kaibosh.md"),
            },
            GameKind::BidEuchre => RulesDocument {
                file: "bid-euchre.md",
                text: include_str!("../../../docs/rules/bid-euchre.md"),
            },
            GameKind::Kout => RulesDocument {
                file: "kout-bo.md",
                text: include_str!("../../../docs/rules/kout-bo.md"),
            },
        }
    }
}

impl fmt::Display for GameKind {
    /// The notation's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = HeaderError;

    /// The game the notation names `name`.
    fn from_str(name: &str) -> Result<GameKind, HeaderError> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == name)
            .ok_or_else(|| HeaderError::UnknownGame {
                game: name.to_string(),
                known: names(GameKind::ALL.iter().map(|g| g.name())),
            })
    }
}

impl VariantKind {
    /// Every variant, game by game.
    pub const ALL: [VariantKind; 5] = [
        VariantKind::Standard,
        VariantKind::Alexa,
        VariantKind::Simplified,
        VariantKind::Kout6,
        VariantKind::Kout4,
    ];

    /// The game it is a variant of.
    pub const fn game(self) -> GameKind {
        match self {
            VariantKind::Standard => GameKind::Kaibosh,
            VariantKind::Alexa | VariantKind::Simplified => GameKind::BidEuchre,
            VariantKind::Kout6 | VariantKind::Kout4 => GameKind::Kout,
        }
    }

    /// The notation's name.
    pub const fn name(self) -> &'static str {
        match self {
            VariantKind::Standard => "standard",
            VariantKind::Alexa => "alexa",
            VariantKind::Simplified => "simplified",
            VariantKind::Kout6 => "kout6",
            VariantKind::Kout4 => "kout4",
        }
    }

    /// The name people use, among the game's variants.
    pub const fn title(self) -> &'static str {
        match self {
            VariantKind::Standard => "Standard",
            VariantKind::Alexa => "Alexa",
            VariantKind::Simplified => "Simplified",
            VariantKind::Kout6 => "Six players (54 cards)",
            VariantKind::Kout4 => "Four players (36 cards)",
        }
    }

    /// A shorter title, after the game's: "Kout Bo · 6 players".
    pub const fn short_title(self) -> &'static str {
        match self {
            VariantKind::Kout6 => "6 players",
            VariantKind::Kout4 => "4 players",
            other => other.title(),
        }
    }

    /// Seats at the table.
    pub const fn seats(self) -> usize {
        match self {
            VariantKind::Kout6 => 6,
            _ => 4,
        }
    }

    /// Each player's partners: the seats of the same parity (teams alternate round the
    /// table), so one at four seats and two at six.
    pub const fn partners(self) -> usize {
        self.seats() / 2 - 1
    }

    /// Cards dealt to each seat.
    pub const fn hand_size(self) -> usize {
        match self {
            VariantKind::Standard => 6,
            VariantKind::Alexa | VariantKind::Simplified => 8,
            VariantKind::Kout6 | VariantKind::Kout4 => 9,
        }
    }

    /// The cards of the deck under the default options (Kout Bo 4's `deck` option may
    /// change it).
    pub const fn deck(self) -> CardBag {
        match self {
            VariantKind::Standard => CardBag::from_set(kaibosh::DECK),
            VariantKind::Alexa | VariantKind::Simplified => CardBag::double(bid_euchre::DECK),
            VariantKind::Kout6 => CardBag::from_set(kout::DECK6),
            VariantKind::Kout4 => CardBag::from_set(kout::DECK4),
        }
    }

    /// What the deck holds, in words.
    pub const fn deck_text(self) -> &'static str {
        match self {
            VariantKind::Standard => "24 cards: 9 to ace of each suit",
            VariantKind::Alexa | VariantKind::Simplified => {
                "32 cards: two of each jack to ace of each suit"
            }
            VariantKind::Kout6 => "54 cards: 2 to ace of each suit and two jokers",
            VariantKind::Kout4 => {
                "36 cards: 6 to ace of each suit but the black sixes, and two jokers"
            }
        }
    }

    /// How long a game lasts under the default options, in words: "to 50 points, ...".
    pub const fn length(self) -> &'static str {
        match self.game() {
            GameKind::Kaibosh => "to 50 points, or the options' target or number of deals",
            GameKind::BidEuchre => "over 8 deals, or the options' number of deals or rounds",
            GameKind::Kout => "to 101 points (51 with the other side at none)",
        }
    }

    /// The order of play.
    pub const fn direction(self) -> Direction {
        match self.game() {
            GameKind::Kout => Direction::CounterClockwise,
            GameKind::Kaibosh | GameKind::BidEuchre => Direction::Clockwise,
        }
    }

    /// The top trumps a hand is sorted by for display.
    pub const fn hand_order(self) -> HandOrder {
        match self.game() {
            GameKind::Kout => HandOrder::Jokers,
            GameKind::Kaibosh | GameKind::BidEuchre => HandOrder::Bowers,
        }
    }

    /// The game's rules page (its parts for other variants marked as such).
    pub const fn rules_document(self) -> RulesDocument {
        self.game().rules_document()
    }

    /// The options of this variant, in the order a header is read.
    pub fn options(self) -> impl Iterator<Item = &'static OptionSpec> {
        self.game()
            .options()
            .iter()
            .filter(move |option| option.applies_to(self))
    }
}

impl fmt::Display for VariantKind {
    /// The notation's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for VariantKind {
    type Err = HeaderError;

    /// The variant the notation names `name`, of whichever game (variant names are
    /// unique across games).
    fn from_str(name: &str) -> Result<VariantKind, HeaderError> {
        VariantKind::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or_else(|| HeaderError::UnknownVariant {
                game: "any game".to_string(),
                variant: name.to_string(),
                known: names(VariantKind::ALL.iter().map(|v| v.name())),
            })
    }
}

fn names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_to_what_displays_them() {
        for game in GameKind::ALL {
            assert_eq!(game.to_string().parse::<GameKind>(), Ok(game));
            for &variant in game.variants() {
                assert_eq!(variant.game(), game);
                assert_eq!(variant.to_string().parse::<VariantKind>(), Ok(variant));
                assert_eq!(game.variant(Some(variant.name())), Ok(variant));
            }
        }
        let every: Vec<VariantKind> = GameKind::ALL
            .iter()
            .flat_map(|g| g.variants().iter().copied())
            .collect();
        assert_eq!(every, VariantKind::ALL);
        assert!("bridge".parse::<GameKind>().is_err());
        assert!("kout5".parse::<VariantKind>().is_err());
        assert!(GameKind::Kout.variant(Some("alexa")).is_err());
    }

    #[test]
    fn an_option_key_is_given_once_per_variant() {
        for variant in VariantKind::ALL {
            let keys: Vec<&str> = variant.options().map(|o| o.key).collect();
            for key in &keys {
                assert_eq!(
                    keys.iter().filter(|k| *k == key).count(),
                    1,
                    "{variant} {key}"
                );
            }
            for option in variant.game().options() {
                assert!(option.variants.iter().all(|v| v.game() == variant.game()));
            }
        }
    }

    fn sorted(order: HandOrder, cards: &str, trump: Option<&str>) -> String {
        let mut hand = CardBag::EMPTY;
        for card in cards.split(' ') {
            hand.insert(card.parse().unwrap());
        }
        let trump = trump.map(|t| t.parse().unwrap());
        let shown: Vec<String> = order
            .sort(hand, trump)
            .iter()
            .map(|c| c.to_string())
            .collect();
        shown.join(" ")
    }

    #[test]
    fn a_hand_is_shown_trumps_first_then_suits_alternating_in_colour() {
        let hand = "9S JC TH AD JS QC KH 9D";
        // Spades: the bowers on top, then hearts, clubs, diamonds.
        assert_eq!(
            sorted(HandOrder::Bowers, hand, Some("S")),
            "JS JC 9S KH TH QC AD 9D"
        );
        // Diamonds: the jack of hearts would be the left bower; then spades, hearts, clubs.
        assert_eq!(
            sorted(HandOrder::Bowers, hand, Some("D")),
            "AD 9D JS 9S KH TH QC JC"
        );
        // No trump, or none named yet: jacks are plain, from spades round.
        assert_eq!(
            sorted(HandOrder::Bowers, hand, Some("NT")),
            "JS 9S KH TH QC JC AD 9D"
        );
        assert_eq!(
            sorted(HandOrder::Bowers, hand, None),
            sorted(HandOrder::Bowers, hand, Some("NT"))
        );

        let hand = "BJ 2H AH RJ KH JC 5D AS";
        // Kout Bo: the colour joker, the trump ace, the black-and-white joker.
        assert_eq!(
            sorted(HandOrder::Jokers, hand, Some("H")),
            "RJ AH BJ KH 2H JC 5D AS"
        );
        // Before trump is named the jokers come first.
        assert_eq!(
            sorted(HandOrder::Jokers, hand, None),
            "RJ BJ AS AH KH 2H JC 5D"
        );

        // The hearts' bowers; with no trump (named or not) every jack is plain.
        let hand = "9C AS JD KH JH QD TH AC";
        assert_eq!(
            sorted(HandOrder::Bowers, hand, Some("H")),
            "JH JD KH TH AC 9C QD AS"
        );
        assert_eq!(
            sorted(HandOrder::Bowers, hand, None),
            "AS KH JH TH AC 9C QD JD"
        );
        assert_eq!(
            sorted(HandOrder::Jokers, "KS BJ 2S AS RJ AH JS", Some("S")),
            "RJ AS BJ KS JS 2S AH"
        );
        // Bid Euchre's two copies stay side by side.
        assert_eq!(
            sorted(HandOrder::Bowers, "JS AH JS JC", Some("S")),
            "JS JS JC AH"
        );
    }

    #[test]
    fn every_seat_holds_its_hand_from_the_deck() {
        for variant in VariantKind::ALL {
            assert!(variant.seats() * variant.hand_size() <= variant.deck().len());
            assert!(variant
                .deck_text()
                .starts_with(&variant.deck().len().to_string()));
        }
    }
}
