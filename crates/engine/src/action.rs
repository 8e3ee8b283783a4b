//! Actions: everything a seat can do, in one type for every game, with the notation's
//! text form.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::card::{serde_as_text, Card, Suit};

/// What a contract is played in: a trump suit or no-trump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strain {
    /// A trump suit.
    Suit(Suit),
    /// No trump (Bid Euchre only).
    NoTrump,
}

impl Strain {
    /// Every strain: the four suits, then no-trump.
    pub const ALL: [Strain; 5] = [
        Strain::Suit(Suit::Spades),
        Strain::Suit(Suit::Hearts),
        Strain::Suit(Suit::Diamonds),
        Strain::Suit(Suit::Clubs),
        Strain::NoTrump,
    ];

    /// The trump suit, or `None` in no-trump.
    pub const fn trump(self) -> Option<Suit> {
        match self {
            Strain::Suit(suit) => Some(suit),
            Strain::NoTrump => None,
        }
    }
}

impl fmt::Display for Strain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strain::Suit(suit) => suit.fmt(f),
            Strain::NoTrump => f.write_str("NT"),
        }
    }
}

impl FromStr for Strain {
    type Err = String;

    fn from_str(s: &str) -> Result<Strain, String> {
        if s.eq_ignore_ascii_case("NT") {
            Ok(Strain::NoTrump)
        } else {
            s.parse::<Suit>()
                .map(Strain::Suit)
                .map_err(|_| format!("\"{s}\" is not a strain (S, H, D, C or NT)"))
        }
    }
}

serde_as_text!(Strain);

/// Bid Euchre's loner bids, in rank order: `call2` < `call1` < `moon`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Loner {
    /// The partner gives two cards, the declarer discards two.
    Call2,
    /// The partner gives one card, the declarer discards one.
    Call1,
    /// Shoot the moon: no exchange.
    Moon,
}

impl Loner {
    /// All loner bids from lowest to highest.
    pub const ALL: [Loner; 3] = [Loner::Call2, Loner::Call1, Loner::Moon];

    /// The notation keyword.
    pub const fn keyword(self) -> &'static str {
        match self {
            Loner::Call2 => "call2",
            Loner::Call1 => "call1",
            Loner::Moon => "moon",
        }
    }

    /// How many cards change hands in the exchange.
    pub const fn exchange(self) -> usize {
        match self {
            Loner::Call2 => 2,
            Loner::Call1 => 1,
            Loner::Moon => 0,
        }
    }
}

/// Up to two cards given or discarded in one action.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CardPair {
    cards: [Card; 2],
    len: u8,
}

impl CardPair {
    /// One card.
    pub const fn one(card: Card) -> CardPair {
        CardPair {
            cards: [card, card],
            len: 1,
        }
    }

    /// Two cards, kept in a canonical order so equal pairs compare equal.
    pub fn two(a: Card, b: Card) -> CardPair {
        CardPair {
            cards: [a.min(b), a.max(b)],
            len: 2,
        }
    }

    /// The cards.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// How many cards (1 or 2).
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: a pair holds one or two cards.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl fmt::Debug for CardPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cards()).finish()
    }
}

/// One action of any game, as the notation writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `pass`: pass in the auction.
    Pass,
    /// `bid N`: bid N tricks (Kaibosh 1..6, Kout 5..9).
    Bid(u8),
    /// `bid N STRAIN`: a Bid Euchre level bid.
    BidStrain(u8, Strain),
    /// `kaibosh`: take every trick alone.
    Kaibosh,
    /// `call2 STRAIN`, `call1 STRAIN`, `moon STRAIN`: a Bid Euchre loner bid.
    Loner(Loner, Strain),
    /// `misdeal`: declare a misdeal (Kaibosh).
    Misdeal,
    /// `trump SUIT`: the maker names trump.
    Trump(Suit),
    /// `give CARD...`: a loner's partner passes cards.
    Give(CardPair),
    /// `discard CARD...`: the loner discards.
    Discard(CardPair),
    /// `play CARD`: play a card to the trick.
    Play(Card),
}

impl Action {
    /// Whether this is an auction call (pass, bid, kaibosh, loner, misdeal).
    pub const fn is_call(&self) -> bool {
        matches!(
            self,
            Action::Pass
                | Action::Bid(_)
                | Action::BidStrain(..)
                | Action::Kaibosh
                | Action::Loner(..)
                | Action::Misdeal
        )
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => f.write_str("pass"),
            Action::Bid(n) => write!(f, "bid {n}"),
            Action::BidStrain(n, strain) => write!(f, "bid {n} {strain}"),
            Action::Kaibosh => f.write_str("kaibosh"),
            Action::Loner(loner, strain) => write!(f, "{} {strain}", loner.keyword()),
            Action::Misdeal => f.write_str("misdeal"),
            Action::Trump(suit) => write!(f, "trump {suit}"),
            Action::Give(pair) | Action::Discard(pair) => {
                f.write_str(if matches!(self, Action::Give(_)) {
                    "give"
                } else {
                    "discard"
                })?;
                for card in pair.cards() {
                    f.write_char(' ')?;
                    f.write_str(card.name())?;
                }
                Ok(())
            }
            Action::Play(card) => {
                f.write_str("play ")?;
                f.write_str(card.name())
            }
        }
    }
}

/// Text that is not an action of the notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseActionError(pub String);

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseActionError {}

fn parse_cards(words: &[&str]) -> Result<CardPair, ParseActionError> {
    let cards = words
        .iter()
        .map(|w| w.parse::<Card>())
        .collect::<Result<Vec<Card>, _>>()
        .map_err(|e| ParseActionError(e.to_string()))?;
    match cards[..] {
        [a] => Ok(CardPair::one(a)),
        [a, b] => Ok(CardPair::two(a, b)),
        _ => Err(ParseActionError(format!(
            "expected one or two cards, found {}",
            cards.len()
        ))),
    }
}

fn parse_level(word: &str) -> Result<u8, ParseActionError> {
    // Digits only: Rust's parser would also take "+3".
    word.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| word.parse::<u8>().ok())
        .flatten()
        .ok_or_else(|| ParseActionError(format!("\"{word}\" is not a number of tricks")))
}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Reads one action: words separated by single spaces, case-insensitive.
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let words: Vec<&str> = s.split(' ').collect();
        if words.iter().any(|w| w.is_empty()) {
            return Err(ParseActionError(
                "words must be separated by single spaces".to_string(),
            ));
        }
        let keyword = words[0].to_ascii_lowercase();
        let strain = |w: &str| w.parse::<Strain>().map_err(ParseActionError);
        let action = match (keyword.as_str(), &words[1..]) {
            ("pass", []) => Action::Pass,
            ("kaibosh", []) => Action::Kaibosh,
            ("misdeal", []) => Action::Misdeal,
            ("bid", [n]) => Action::Bid(parse_level(n)?),
            ("bid", [n, s]) => Action::BidStrain(parse_level(n)?, strain(s)?),
            ("call2", [s]) => Action::Loner(Loner::Call2, strain(s)?),
            ("call1", [s]) => Action::Loner(Loner::Call1, strain(s)?),
            ("moon", [s]) => Action::Loner(Loner::Moon, strain(s)?),
            ("trump", [s]) => Action::Trump(
                s.parse::<Suit>()
                    .map_err(|_| ParseActionError(format!("\"{s}\" is not a suit")))?,
            ),
            ("give", cards) if !cards.is_empty() => Action::Give(parse_cards(cards)?),
            ("discard", cards) if !cards.is_empty() => Action::Discard(parse_cards(cards)?),
            ("play", [c]) => Action::Play(
                c.parse()
                    .map_err(|e: crate::card::ParseCardError| ParseActionError(e.to_string()))?,
            ),
            (
                "pass" | "kaibosh" | "misdeal" | "bid" | "call2" | "call1" | "moon" | "trump"
                | "give" | "discard" | "play",
                _,
            ) => {
                return Err(ParseActionError(format!(
                    "wrong number of words for \"{keyword}\""
                )))
            }
            _ => return Err(ParseActionError(format!("unknown action \"{}\"", words[0]))),
        };
        Ok(action)
    }
}

serde_as_text!(Action);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_text() {
        for text in [
            "pass",
            "bid 3",
            "bid 4 NT",
            "bid 8 H",
            "kaibosh",
            "call2 H",
            "call1 NT",
            "moon C",
            "misdeal",
            "trump S",
            "give AS JD",
            "discard KH",
            "play 9H",
            "play RJ",
        ] {
            let action: Action = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
    }

    #[test]
    fn actions_are_case_insensitive() {
        assert_eq!(
            "BID 4 nt".parse::<Action>().unwrap(),
            Action::BidStrain(4, Strain::NoTrump)
        );
        assert_eq!("Play 10h".parse::<Action>().unwrap().to_string(), "play TH");
    }

    #[test]
    fn malformed_actions_are_rejected_with_a_reason() {
        for (text, reason) in [
            ("", "single spaces"),
            ("bid  3", "single spaces"),
            ("bet 3", "unknown action"),
            ("bid x", "not a number"),
            ("bid +3", "not a number"),
            ("bid 300", "not a number"),
            ("bid 3 X", "not a strain"),
            ("play ZZ", "unknown card"),
            ("give AS KS QS", "one or two cards"),
            ("pass now", "wrong number"),
            ("trump NT", "not a suit"),
        ] {
            let err = text.parse::<Action>().unwrap_err();
            assert!(err.0.contains(reason), "{text}: {err}");
        }
    }

    #[test]
    fn card_pairs_compare_regardless_of_order() {
        let a: Card = "AS".parse().unwrap();
        let b: Card = "JD".parse().unwrap();
        assert_eq!(CardPair::two(a, b), CardPair::two(b, a));
    }
}
