//! Card order under trump, and tricks.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Suit, ACE, JACK};
use crate::card_set::CardSet;
use crate::seat::Seat;

/// The cards of `hand` that may be played to a trick whose led suit has the cards
/// `led`: those of the led suit if the hand has any, else every card (the rule of all
/// three games; Kout Bo adds its jokers).
pub fn follow(hand: CardSet, led: CardSet) -> CardSet {
    let following = hand.and(led);
    if following.is_empty() {
        hand
    } else {
        following
    }
}

/// How the cards rank during one hand: each card's effective suit (the left bower and
/// jokers belong to trump) and its strength within that suit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardOrder {
    trump: Option<Suit>,
    /// The trump suit's index, or 4 (no suit's) in no-trump: lets `beats` compare bytes.
    trump_code: u8,
    suit_of: [u8; 64],
    strength: [u8; 64],
    suit_cards: [CardSet; 4],
}

/// Orders for Euchre-family games (Kaibosh, Bid Euchre): index 0..4 a trump suit, 4 no-trump.
static EUCHRE_ORDERS: [CardOrder; 5] = [
    CardOrder::euchre_new(Some(Suit::Spades)),
    CardOrder::euchre_new(Some(Suit::Hearts)),
    CardOrder::euchre_new(Some(Suit::Diamonds)),
    CardOrder::euchre_new(Some(Suit::Clubs)),
    CardOrder::euchre_new(None),
];

/// Orders for Kout Bo, one per trump suit.
static KOUT_ORDERS: [CardOrder; 4] = [
    CardOrder::kout_new(Suit::Spades),
    CardOrder::kout_new(Suit::Hearts),
    CardOrder::kout_new(Suit::Diamonds),
    CardOrder::kout_new(Suit::Clubs),
];

/// Strength of trumps: above every plain card.
const TRUMP_BASE: u8 = 32;

impl CardOrder {
    const fn natural(trump: Option<Suit>) -> CardOrder {
        let mut order = CardOrder {
            trump,
            trump_code: match trump {
                Some(suit) => suit as u8,
                None => 4,
            },
            suit_of: [0; 64],
            strength: [0; 64],
            suit_cards: [CardSet::EMPTY; 4],
        };
        let mut suit = 0;
        while suit < 4 {
            order.suit_cards[suit] = CardSet::suit(Suit::from_index(suit));
            let mut rank = 2;
            while rank <= ACE {
                let card = Card::new(rank, Suit::from_index(suit));
                order.suit_of[card.index()] = suit as u8;
                order.strength[card.index()] = rank;
                rank += 1;
            }
            suit += 1;
        }
        order
    }

    const fn move_to_trump(mut self, card: Card, trump: Suit, strength: u8) -> CardOrder {
        if let Some(printed) = card.suit() {
            self.suit_cards[printed.index()].0 &= !(1 << card.index());
        }
        self.suit_cards[trump.index()].0 |= 1 << card.index();
        self.suit_of[card.index()] = trump as u8;
        self.strength[card.index()] = strength;
        self
    }

    const fn raise_trumps(mut self, trump: Suit) -> CardOrder {
        let mut rank = 2;
        while rank <= ACE {
            let card = Card::new(rank, trump);
            self.strength[card.index()] = TRUMP_BASE + rank;
            rank += 1;
        }
        self
    }

    const fn euchre_new(trump: Option<Suit>) -> CardOrder {
        let order = CardOrder::natural(trump);
        match trump {
            None => order,
            Some(trump) => order
                .raise_trumps(trump)
                .move_to_trump(Card::new(JACK, trump), trump, TRUMP_BASE + 20)
                .move_to_trump(Card::new(JACK, trump.same_colour()), trump, TRUMP_BASE + 19),
        }
    }

    const fn kout_new(trump: Suit) -> CardOrder {
        CardOrder::natural(Some(trump))
            .raise_trumps(trump)
            .move_to_trump(Card::RED_JOKER, trump, TRUMP_BASE + 30)
            .move_to_trump(Card::new(ACE, trump), trump, TRUMP_BASE + 29)
            .move_to_trump(Card::BLACK_JOKER, trump, TRUMP_BASE + 28)
    }

    /// The Euchre-family order (Kaibosh, Bid Euchre): in a trump suit the right bower
    /// (jack of trump), the left bower (the other jack of its colour, a trump for every
    /// purpose), then A, K, Q, 10, 9; in no-trump (`None`) A, K, Q, J in every suit.
    pub fn euchre(trump: Option<Suit>) -> &'static CardOrder {
        &EUCHRE_ORDERS[trump.map_or(4, Suit::index)]
    }

    /// Kout Bo's order: `RJ`, the trump ace, `BJ`, then trump K down to 2; the jokers are
    /// trumps.
    pub fn kout(trump: Suit) -> &'static CardOrder {
        &KOUT_ORDERS[trump.index()]
    }

    /// The trump suit, if any.
    pub const fn trump(&self) -> Option<Suit> {
        self.trump
    }

    /// The suit `card` belongs to for following, leading and voids.
    pub const fn suit_of(&self, card: Card) -> Suit {
        Suit::from_index(self.suit_of[card.index()] as usize)
    }

    /// Every card that belongs to `suit` under this order.
    pub const fn cards_of(&self, suit: Suit) -> CardSet {
        self.suit_cards[suit.index()]
    }

    /// Every trump (none in no-trump).
    pub const fn trumps(&self) -> CardSet {
        match self.trump {
            Some(suit) => self.suit_cards[suit.index()],
            None => CardSet::EMPTY,
        }
    }

    /// Whether `card` is a trump.
    pub const fn is_trump(&self, card: Card) -> bool {
        self.suit_of[card.index()] == self.trump_code
    }

    /// The card's strength within its effective suit (higher wins; trumps above all).
    pub const fn strength(&self, card: Card) -> u8 {
        self.strength[card.index()]
    }

    /// Whether `challenger`, played after `best`, takes the trick from it. An identical
    /// card played later never does: the first of two equal cards wins.
    pub const fn beats(&self, challenger: Card, best: Card) -> bool {
        let (cs, bs) = (self.suit_of[challenger.index()], self.suit_of[best.index()]);
        if cs == bs {
            self.strength[challenger.index()] > self.strength[best.index()]
        } else {
            cs == self.trump_code
        }
    }
}

/// The cards of one trick in the order they were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "TrickRepr", try_from = "TrickRepr")]
pub struct Trick {
    /// The seat that led.
    pub leader: Seat,
    /// The cards played, then fillers (never read) up to six.
    cards: [Card; 6],
    len: u8,
}

/// How a trick is written: the leader and the cards played so far.
#[derive(Serialize, Deserialize)]
struct TrickRepr {
    leader: Seat,
    cards: Vec<Card>,
}

impl From<Trick> for TrickRepr {
    fn from(trick: Trick) -> TrickRepr {
        TrickRepr {
            leader: trick.leader,
            cards: trick.cards().collect(),
        }
    }
}

impl TryFrom<TrickRepr> for Trick {
    type Error = String;

    fn try_from(repr: TrickRepr) -> Result<Trick, String> {
        if repr.cards.len() > 6 {
            return Err(format!("a trick of {} cards", repr.cards.len()));
        }
        let mut trick = Trick::new(repr.leader);
        for card in repr.cards {
            trick.push(card);
        }
        Ok(trick)
    }
}

impl Trick {
    /// An empty trick led by `leader`.
    pub const fn new(leader: Seat) -> Trick {
        Trick {
            leader,
            cards: [Card::RED_JOKER; 6],
            len: 0,
        }
    }

    /// How many cards have been played.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no card has been played yet.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds the next card.
    pub fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }

    /// The card played `i`-th (0 is the lead); `i` must be below [`Trick::len`].
    pub fn card(&self, i: usize) -> Card {
        debug_assert!(i < self.len());
        self.cards[i]
    }

    /// The cards in play order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.cards[..self.len as usize].iter().copied()
    }

    /// The index (in play order) of the card winning so far, counting only the cards from
    /// `first` on, or `None` if there are none.
    pub fn winning_index(&self, order: &CardOrder, first: usize) -> Option<usize> {
        if first >= self.len() {
            return None;
        }
        let mut best = first;
        for i in first + 1..self.len() {
            if order.beats(self.cards[i], self.cards[best]) {
                best = i;
            }
        }
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn bowers_top_the_trump_suit() {
        let order = CardOrder::euchre(Some(Suit::Clubs));
        assert!(order.beats(card("JS"), card("AC")));
        assert!(order.beats(card("JC"), card("JS")));
        assert_eq!(order.suit_of(card("JS")), Suit::Clubs);
        assert!(order.cards_of(Suit::Clubs).contains(card("JS")));
        assert!(!order.cards_of(Suit::Spades).contains(card("JS")));
        assert!(order.is_trump(card("JS")));
        // Off-colour jacks keep their place between queen and ten.
        assert!(order.beats(card("QH"), card("JH")));
        assert!(order.beats(card("JH"), card("TH")));
    }

    #[test]
    fn a_card_beats_the_best_so_far_when_it_follows_or_trumps_and_is_stronger() {
        // What Kaibosh relies on to keep a trick's winner as a strength times four (so
        // strengths stay below 64) plus a seat.
        let deck = CardSet::ranks(9, ACE);
        for trump in Suit::ALL.map(Some).into_iter().chain([None]) {
            let order = CardOrder::euchre(trump);
            assert!(deck.iter().all(|card| order.strength(card) < 64));
            for lead in deck {
                let contenders = order.cards_of(order.suit_of(lead)).or(order.trumps());
                for best in deck.and(contenders) {
                    for card in deck.minus(CardSet::single(best)) {
                        let stronger = contenders.contains(card)
                            && order.strength(card) > order.strength(best);
                        assert_eq!(order.beats(card, best), stronger, "{lead} {best} {card}");
                    }
                }
            }
        }
    }

    #[test]
    fn no_trump_has_no_bowers() {
        let order = CardOrder::euchre(None);
        assert_eq!(order.suit_of(card("JS")), Suit::Spades);
        assert!(order.beats(card("AS"), card("KS")));
        assert!(!order.beats(card("AH"), card("9S")));
        assert!(!order.is_trump(card("JC")));
    }

    #[test]
    fn the_first_of_two_equal_cards_wins() {
        let order = CardOrder::euchre(Some(Suit::Hearts));
        assert!(!order.beats(card("JH"), card("JH")));
        let mut trick = Trick::new(Seat(0));
        for c in ["AS", "AS", "KS", "9C"] {
            trick.push(card(c));
        }
        assert_eq!(trick.winning_index(order, 0), Some(0));
    }

    #[test]
    fn kout_order_puts_the_trump_ace_between_the_jokers() {
        let order = CardOrder::kout(Suit::Diamonds);
        assert!(order.beats(Card::RED_JOKER, card("AD")));
        assert!(order.beats(card("AD"), Card::BLACK_JOKER));
        assert!(order.beats(Card::BLACK_JOKER, card("KD")));
        assert!(order.is_trump(Card::BLACK_JOKER));
        assert_eq!(order.suit_of(Card::RED_JOKER), Suit::Diamonds);
        assert!(order.beats(card("2D"), card("AS")));
        assert!(!order.beats(card("QS"), card("KS")));
    }

    #[test]
    fn a_trump_beats_the_led_suit_and_an_off_suit_never_wins() {
        let order = CardOrder::euchre(Some(Suit::Spades));
        let mut trick = Trick::new(Seat(1));
        for c in ["KH", "AD", "9S", "AH"] {
            trick.push(card(c));
        }
        assert_eq!(trick.winning_index(order, 0), Some(2));
    }
}
