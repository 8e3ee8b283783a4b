//! Sets of card faces as 64-bit bitsets, and hands that may hold two copies of a face.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Rank, Suit};

/// A set of card faces, one bit per face (see [`Card`] for the layout).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// Both jokers.
    pub const JOKERS: CardSet = CardSet(0b11 << 62);

    /// The set holding only `card`.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.index())
    }

    /// Every card of `suit` from 2 to ace.
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(0x1FFF << (16 * suit as u32))
    }

    /// Every suited card whose rank lies in `low..=high`.
    pub const fn ranks(low: Rank, high: Rank) -> CardSet {
        let lane = ((1u64 << (high - low + 1)) - 1) << (low - 2);
        CardSet(lane | lane << 16 | lane << 32 | lane << 48)
    }

    /// Number of cards in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    /// Removes `card`.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    /// The cards in both sets.
    pub const fn and(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The cards in either set.
    pub const fn or(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The cards of `self` not in `other`.
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The lowest card by index, if any.
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_index(self.0.trailing_zeros() as u8)
        }
    }

    /// The `n`-th card in index order (0-based), if the set has that many.
    pub fn nth(self, n: usize) -> Option<Card> {
        self.iter().nth(n)
    }

    /// Every bit that names a card: 2 to ace in each suit, and the jokers.
    const VALID: u64 = 0x1FFF_1FFF_1FFF_1FFF | CardSet::JOKERS.0;

    /// The cards in index order (by suit, then rank).
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0 & CardSet::VALID)
    }
}

/// Iterator over a [`CardSet`] in index order.
#[derive(Clone, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        // Only bits of VALID are ever set here.
        Some(Card::from_valid_index(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;

    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Collecting cards into a set or a bag, and showing and writing one as the list of its
/// cards in index order. In a bag a third copy of a face is dropped when collecting
/// (validate counts before collecting).
macro_rules! card_list_impls {
    ($type:ident) => {
        impl FromIterator<Card> for $type {
            fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> $type {
                let mut cards = $type::EMPTY;
                for card in iter {
                    cards.insert(card);
                }
                cards
            }
        }

        impl fmt::Debug for $type {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.iter())
            }
        }
    };
}

card_list_impls!(CardSet);
card_list_impls!(CardBag);

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CardSet, D::Error> {
        Ok(Vec::<Card>::deserialize(deserializer)?
            .into_iter()
            .collect())
    }
}

/// A hand or pile that may hold up to two copies of each face, as in Bid Euchre's double
/// deck. In single-deck games `twice` stays empty and it behaves as a [`CardSet`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardBag {
    /// The faces held at least once.
    once: CardSet,
    /// The faces held twice (a subset of `once`).
    twice: CardSet,
}

impl CardBag {
    /// The empty bag.
    pub const EMPTY: CardBag = CardBag {
        once: CardSet::EMPTY,
        twice: CardSet::EMPTY,
    };

    /// A bag holding each card of `set` once.
    pub const fn from_set(set: CardSet) -> CardBag {
        CardBag {
            once: set,
            twice: CardSet::EMPTY,
        }
    }

    /// A bag holding each card of `set` twice: a double deck.
    pub const fn double(set: CardSet) -> CardBag {
        CardBag {
            once: set,
            twice: set,
        }
    }

    /// The distinct faces in the bag.
    pub const fn faces(self) -> CardSet {
        self.once
    }

    /// The faces held twice.
    pub const fn doubles(self) -> CardSet {
        self.twice
    }

    /// Number of cards, counting copies.
    pub const fn len(self) -> usize {
        self.once.len() + self.twice.len()
    }

    /// Whether the bag is empty.
    pub const fn is_empty(self) -> bool {
        self.once.is_empty()
    }

    /// How many copies of `card` the bag holds (0, 1 or 2).
    pub const fn count(self, card: Card) -> usize {
        self.once.contains(card) as usize + self.twice.contains(card) as usize
    }

    /// Whether the bag holds at least one copy of `card`.
    pub const fn contains(self, card: Card) -> bool {
        self.once.contains(card)
    }

    /// Adds a copy of `card`; returns `false` (and changes nothing) if it already held two.
    pub fn insert(&mut self, card: Card) -> bool {
        if !self.once.contains(card) {
            self.once.insert(card);
            true
        } else if !self.twice.contains(card) {
            self.twice.insert(card);
            true
        } else {
            false
        }
    }

    /// Removes a copy of `card`; returns `false` (and changes nothing) if it held none.
    pub fn remove(&mut self, card: Card) -> bool {
        if self.twice.contains(card) {
            self.twice.remove(card);
            true
        } else if self.once.contains(card) {
            self.once.remove(card);
            true
        } else {
            false
        }
    }

    /// Whether every copy in `other` is also in `self`.
    pub const fn contains_all(self, other: CardBag) -> bool {
        other.once.minus(self.once).is_empty() && other.twice.minus(self.twice).is_empty()
    }

    /// The bag with both copies of each face of `set` removed.
    pub const fn without_faces(self, set: CardSet) -> CardBag {
        CardBag {
            once: self.once.minus(set),
            twice: self.twice.minus(set),
        }
    }

    /// The copies whose face is in `set`.
    pub const fn only_faces(self, set: CardSet) -> CardBag {
        CardBag {
            once: self.once.and(set),
            twice: self.twice.and(set),
        }
    }

    /// Every copy in the bag, in index order, twins side by side.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        self.once
            .iter()
            .flat_map(move |card| std::iter::repeat_n(card, self.count(card)))
    }
}

impl<'de> Deserialize<'de> for CardBag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CardBag, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        let mut bag = CardBag::EMPTY;
        for card in cards {
            if !bag.insert(card) {
                return Err(serde::de::Error::custom(format!(
                    "{card} appears more than twice"
                )));
            }
        }
        Ok(bag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn suit_masks_partition_the_suited_cards() {
        let all = Suit::ALL
            .iter()
            .fold(CardSet::EMPTY, |acc, &s| acc.or(CardSet::suit(s)));
        assert_eq!(all.len(), 52);
        assert!(all.and(CardSet::JOKERS).is_empty());
        assert!(CardSet::suit(Suit::Hearts).contains(card("2H")));
        assert!(CardSet::suit(Suit::Hearts).contains(card("AH")));
        assert!(!CardSet::suit(Suit::Hearts).contains(card("AD")));
    }

    #[test]
    fn rank_ranges_select_every_suit() {
        let euchre = CardSet::ranks(9, 14);
        assert_eq!(euchre.len(), 24);
        assert!(euchre.contains(card("9C")) && euchre.contains(card("AS")));
        assert!(!euchre.contains(card("8C")));
    }

    #[test]
    fn iteration_follows_index_order() {
        let set: CardSet = [card("AS"), card("9H"), card("9S")].into_iter().collect();
        let listed: Vec<String> = set.iter().map(|c| c.to_string()).collect();
        assert_eq!(listed, ["9S", "AS", "9H"]);
        assert_eq!(set.nth(2), Some(card("9H")));
        assert_eq!(set.first(), Some(card("9S")));
    }

    #[test]
    fn bag_counts_two_copies_and_refuses_a_third() {
        let mut bag = CardBag::EMPTY;
        assert!(bag.insert(card("AS")));
        assert!(bag.insert(card("AS")));
        assert!(!bag.insert(card("AS")));
        assert_eq!(bag.count(card("AS")), 2);
        assert_eq!(bag.len(), 2);
        assert!(bag.remove(card("AS")));
        assert_eq!(bag.count(card("AS")), 1);
        assert!(bag.remove(card("AS")));
        assert!(!bag.remove(card("AS")));
        assert!(bag.is_empty());
    }

    #[test]
    fn bag_serializes_every_copy() {
        let bag: CardBag = [card("KH"), card("KH"), card("JD")].into_iter().collect();
        let json = serde_json::to_string(&bag).unwrap();
        assert_eq!(json, r#"["KH","KH","JD"]"#);
        assert_eq!(serde_json::from_str::<CardBag>(&json).unwrap(), bag);
        assert!(serde_json::from_str::<CardBag>(r#"["KH","KH","KH"]"#).is_err());
    }
}
