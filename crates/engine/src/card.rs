//! Cards, suits and ranks, and their two-character notation.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the four suits, in the notation's order `S H D C`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Suit {
    /// Spades (black).
    #[serde(rename = "S")]
    Spades = 0,
    /// Hearts (red).
    #[serde(rename = "H")]
    Hearts = 1,
    /// Diamonds (red).
    #[serde(rename = "D")]
    Diamonds = 2,
    /// Clubs (black).
    #[serde(rename = "C")]
    Clubs = 3,
}

impl Suit {
    /// All suits in notation order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit with index `i` (0..4) in notation order.
    pub const fn from_index(i: usize) -> Suit {
        match i & 3 {
            0 => Suit::Spades,
            1 => Suit::Hearts,
            2 => Suit::Diamonds,
            _ => Suit::Clubs,
        }
    }

    /// Index 0..4 in notation order.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other suit of the same colour (spades and clubs, hearts and diamonds):
    /// the suit of the left bower.
    pub const fn same_colour(self) -> Suit {
        match self {
            Suit::Spades => Suit::Clubs,
            Suit::Clubs => Suit::Spades,
            Suit::Hearts => Suit::Diamonds,
            Suit::Diamonds => Suit::Hearts,
        }
    }

    /// The notation letter.
    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// The suit's symbol, for display to people.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
        }
    }

    /// The suit's plural name in lower case, as rule messages use it ("must follow hearts").
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        }
    }

    /// Parses a suit letter, case-insensitively.
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char(self.letter())
    }
}

impl FromStr for Suit {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Suit, ParseCardError> {
        let mut chars = s.chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(ParseCardError::new(s, "a suit is one of S, H, D, C")),
        }
    }
}

/// A rank from 2 to ace (14). Jacks are 11, queens 12, kings 13.
pub type Rank = u8;

/// The rank of a jack.
pub const JACK: Rank = 11;
/// The rank of a queen.
pub const QUEEN: Rank = 12;
/// The rank of a king.
pub const KING: Rank = 13;
/// The rank of an ace.
pub const ACE: Rank = 14;

/// A card face: a suited card or one of the two jokers.
///
/// Double-deck games hold two copies of a face; a copy is not told apart from its twin,
/// exactly as the notation writes both the same way. Internally a card is its bit index
/// in a [`CardSet`](crate::CardSet): `16 * suit + rank - 2`, with the jokers at 62 and 63.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

/// Every card's name by its index (two characters each): sixteen places per suit in the
/// order of [`Suit`], ranks 2 to ace, then unused places (`??`) and the jokers.
const NAMES: &str = concat!(
    "2S3S4S5S6S7S8S9STSJSQSKSAS??????",
    "2H3H4H5H6H7H8H9HTHJHQHKHAH??????",
    "2D3D4D5D6D7D8D9DTDJDQDKDAD??????",
    "2C3C4C5C6C7C8C9CTCJCQCKCAC??BJRJ",
);

impl Card {
    /// The colour joker, the higher of the two.
    pub const RED_JOKER: Card = Card(63);
    /// The black-and-white joker.
    pub const BLACK_JOKER: Card = Card(62);

    /// The suited card of `rank` (2..=14) in `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        debug_assert!(rank >= 2 && rank <= ACE);
        Card((suit as u8) * 16 + rank - 2)
    }

    /// The card with bit index `index`, if that index names a card.
    pub const fn from_index(index: u8) -> Option<Card> {
        let card = Card(index);
        if index == 62 || index == 63 || (index < 64 && index % 16 <= 12) {
            Some(card)
        } else {
            None
        }
    }

    /// The card at a bit index known to name a card (see [`CardSet::iter`](crate::CardSet::iter)).
    pub(crate) const fn from_valid_index(index: u8) -> Card {
        Card(index)
    }

    /// The bit index of this card in a [`CardSet`](crate::CardSet).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this card is one of the jokers.
    pub const fn is_joker(self) -> bool {
        self.0 >= 62
    }

    /// The printed suit, or `None` for a joker.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::from_index((self.0 / 16) as usize))
        }
    }

    /// The printed rank (2..=14); jokers rank 16 (colour) and 15 (black-and-white).
    pub const fn rank(self) -> Rank {
        match self.0 {
            63 => 16,
            62 => 15,
            i => i % 16 + 2,
        }
    }

    /// The card in the notation (`JH`, `RJ`), without formatting: records write one for
    /// every card dealt and played.
    pub fn name(self) -> &'static str {
        let i = usize::from(self.0) * 2;
        &NAMES[i..i + 2]
    }

    fn rank_char(self) -> char {
        b"23456789TJQKA"[(self.rank() - 2) as usize] as char
    }

    /// The card with the suit symbol instead of the letter (`A♠`), for people.
    pub fn pretty(self) -> String {
        match self.suit() {
            Some(suit) => format!("{}{}", self.rank_char(), suit.symbol()),
            None => self.to_string(),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a card in the notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCardError {
    /// The text that was read.
    pub text: String,
    /// What the text should have been.
    pub expected: &'static str,
}

impl ParseCardError {
    fn new(text: &str, expected: &'static str) -> ParseCardError {
        ParseCardError {
            text: text.to_string(),
            expected,
        }
    }
}

impl fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown card \"{}\" ({})", self.text, self.expected)
    }
}

impl std::error::Error for ParseCardError {}

impl FromStr for Card {
    type Err = ParseCardError;

    /// Reads `AS`, `10H`, `th`, `RJ`, `BJ`: rank then suit, case-insensitive.
    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        const EXPECTED: &str = "a rank 2-9, T, J, Q, K, A then a suit S, H, D, C, or RJ, BJ";
        let upper = s.to_ascii_uppercase();
        match upper.as_str() {
            "RJ" => return Ok(Card::RED_JOKER),
            "BJ" => return Ok(Card::BLACK_JOKER),
            _ => {}
        }
        let (rank_text, suit_text) = match upper.char_indices().last() {
            Some((i, _)) if i > 0 => upper.split_at(i),
            _ => return Err(ParseCardError::new(s, EXPECTED)),
        };
        let rank = match rank_text {
            "10" | "T" => 10,
            "J" => JACK,
            "Q" => QUEEN,
            "K" => KING,
            "A" => ACE,
            digit if digit.len() == 1 && ("2"..="9").contains(&digit) => digit.as_bytes()[0] - b'0',
            _ => return Err(ParseCardError::new(s, EXPECTED)),
        };
        let suit = suit_text
            .parse::<Suit>()
            .map_err(|_| ParseCardError::new(s, EXPECTED))?;
        Ok(Card::new(rank, suit))
    }
}

/// Serializes a type as its notation text (`Display`) and reads it back with `FromStr`,
/// the parse error's text as the error: cards, strains and actions are written as in
/// the notation everywhere.
macro_rules! serde_as_text {
    ($type:ty) => {
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<$type, D::Error> {
                <String as serde::Deserialize>::deserialize(deserializer)?
                    .parse()
                    .map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use serde_as_text;

serde_as_text!(Card);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_notation() {
        for index in 0..64u8 {
            if let Some(card) = Card::from_index(index) {
                let text = card.to_string();
                assert_eq!(text.parse::<Card>(), Ok(card), "{text}");
                if let Some(suit) = card.suit() {
                    let spelled = format!("{}{}", card.rank_char(), suit.letter());
                    assert_eq!(text, spelled, "the names table at {index}");
                }
                assert_eq!(text.to_lowercase().parse::<Card>(), Ok(card), "{text}");
            }
        }
    }

    #[test]
    fn ten_is_accepted_as_10_and_written_as_t() {
        let ten: Card = "10h".parse().unwrap();
        assert_eq!(ten, Card::new(10, Suit::Hearts));
        assert_eq!(ten.to_string(), "TH");
    }

    #[test]
    fn bad_cards_are_rejected() {
        for bad in ["", "A", "1S", "AX", "11S", "JJ", "ASS", "ZZ"] {
            assert!(bad.parse::<Card>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn left_bower_suit_is_the_same_colour() {
        assert_eq!(Suit::Clubs.same_colour(), Suit::Spades);
        assert_eq!(Suit::Hearts.same_colour(), Suit::Diamonds);
        assert_eq!(Suit::Diamonds.same_colour(), Suit::Hearts);
        assert_eq!(Suit::Spades.same_colour(), Suit::Clubs);
    }

    #[test]
    fn jokers_have_no_suit() {
        assert_eq!(Card::RED_JOKER.suit(), None);
        assert_eq!(Card::BLACK_JOKER.to_string(), "BJ");
        assert!(Card::RED_JOKER.rank() > Card::BLACK_JOKER.rank());
    }
}
