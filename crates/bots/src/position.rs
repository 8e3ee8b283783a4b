//! A compact position of the card play, for search: every hand as a bitset in which each
//! effective suit is a 16-bit lane ordered by strength, so following suit, beating a card
//! and spotting equivalent cards are a few bit operations.

use calltrump_engine::{Card, CardBag, CardOrder, CardSet, Seat, Suit, Trick};

/// Most seats at any table (Kout Bo 6).
pub const MAX_SEATS: usize = 6;

/// No trump suit, as [`Position::trump`] writes it.
pub const NO_TRUMP: u8 = 4;

/// How the cards of one hand map to compact indices: `16 * effective suit + k`, where
/// `k` counts up from the weakest card of that suit in the deck. In a double deck each
/// face takes two neighbouring indices, one per copy, and strength is the index shifted
/// right by one ([`Position::shift`]).
#[derive(Clone, Debug)]
pub struct Layout {
    order: &'static CardOrder,
    to_index: [u8; 64],
    to_card: [Card; 64],
    /// The indices of every copy of each card: placing a drawn card is a lookup.
    copies: [u64; 64],
    shift: u8,
}

impl Layout {
    /// The layout of `deck` under `order`; a deck holding any face twice is laid out as a
    /// double deck.
    pub fn new(order: &'static CardOrder, deck: CardBag) -> Layout {
        let shift = u8::from(!deck.doubles().is_empty());
        let mut layout = Layout {
            order,
            to_index: [u8::MAX; 64],
            to_card: [Card::RED_JOKER; 64],
            copies: [0; 64],
            shift,
        };
        for suit in Suit::ALL {
            let mut cards: Vec<Card> = order.cards_of(suit).and(deck.faces()).iter().collect();
            cards.sort_by_key(|&c| order.strength(c));
            for (k, card) in cards.into_iter().enumerate() {
                let index = 16 * suit.index() + (k << shift);
                layout.to_index[card.index()] = index as u8;
                layout.copies[card.index()] = ((1u64 << (1 << shift)) - 1) << index;
                for copy in 0..=shift as usize {
                    layout.to_card[index + copy] = card;
                }
            }
        }
        layout
    }

    /// 1 for a double deck (two indices per face), else 0.
    pub fn shift(&self) -> u8 {
        self.shift
    }

    /// The indices of every copy of `card`.
    pub fn copies(&self, card: Card) -> u64 {
        self.copies[card.index()]
    }

    /// The index of a copy of `card` not in `taken`.
    pub fn place(&self, taken: u64, card: Card) -> u8 {
        (self.copies(card) & !taken).trailing_zeros() as u8
    }

    /// The compact hands of `hands`, seat by seat, each copy of a face at its own index.
    pub fn pack_bags(&self, hands: &[CardBag]) -> [u64; MAX_SEATS] {
        let mut out = [0; MAX_SEATS];
        let mut taken = 0;
        for (bits, hand) in out.iter_mut().zip(hands) {
            for card in hand.iter() {
                let i = self.place(taken, card);
                taken |= 1 << i;
                *bits |= 1 << i;
            }
        }
        out
    }

    /// The order the layout follows.
    pub fn order(&self) -> &'static CardOrder {
        self.order
    }

    /// The compact index of `card`.
    pub fn index(&self, card: Card) -> u8 {
        self.to_index[card.index()]
    }

    /// The card at a compact index (either copy).
    pub fn card(&self, index: u8) -> Card {
        self.to_card[index as usize]
    }

    /// The compact bitset of `cards` (one copy of each).
    pub fn pack(&self, cards: CardSet) -> u64 {
        cards
            .iter()
            .fold(0, |acc, c| acc | 1u64 << self.to_index[c.index()])
    }

    /// The cards of a compact bitset.
    pub fn unpack(&self, bits: u64) -> CardSet {
        Bits(bits).map(|i| self.card(i)).collect()
    }

    /// The compact trump lane, or [`NO_TRUMP`].
    pub fn trump(&self) -> u8 {
        self.order.trump().map_or(NO_TRUMP, |s| s.index() as u8)
    }
}

/// Iterator over the set bits of a `u64`, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// The 16-bit lane of effective suit `suit`.
pub const fn lane(suit: u8) -> u64 {
    0xFFFF << (16 * suit as u32)
}

/// The card play of one hand, every hand open: what the solver and the play-phase
/// searches work on. Copy-make: playing a card returns nothing and the caller keeps a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Each seat's cards (compact indices); a seat out of play holds none.
    pub hands: [u64; MAX_SEATS],
    /// Seats at the table.
    pub seats: u8,
    /// Bit `s` set when seat `s` plays this hand.
    pub in_play: u8,
    /// The trump lane (0..4) or [`NO_TRUMP`].
    pub trump: u8,
    /// Index bits that tell copies of a face apart (see [`Layout::shift`]): a later copy
    /// never beats an earlier one.
    pub shift: u8,
    /// The seat that led the current trick.
    pub leader: u8,
    /// The seat to play.
    pub to_act: u8,
    /// Cards of the current trick, in play order.
    pub trick: [u8; MAX_SEATS],
    /// How many cards the current trick holds.
    pub trick_len: u8,
    /// The seat winning the current trick so far.
    pub winner: u8,
    /// The card winning the current trick so far.
    pub best: u8,
    /// Tricks each team has taken this hand.
    pub tricks: [u8; 2],
    /// The lane the current trick follows; [`NO_LANE`] after a dead joker lead until
    /// the next card sets it.
    pub led: u8,
    /// Joker rules (Kout Bo); `None` in games without jokers.
    pub jokers: Option<JokerRules>,
}

/// No lane set yet (after a dead joker lead).
pub const NO_LANE: u8 = 255;

/// Kout Bo's jokers in a compact position: a joker may be played to any trick another
/// seat led; it may be led live only when the contract allows it to the leader or every
/// card of `gate` has been played; led otherwise (when nothing else is held), it is dead:
/// it wins nothing and the next card sets the suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JokerRules {
    /// The jokers' compact indices.
    pub jokers: u64,
    /// The jokers each seat may lead live by the contract (or as the maker).
    pub free: [u64; MAX_SEATS],
    /// Cards that must all have been played before anyone may lead a joker live
    /// (`u64::MAX`: never).
    pub gate: u64,
    /// Cards played this hand (compact).
    pub played: u64,
    /// Whether the current trick was led with a dead joker.
    pub dead: bool,
}

impl Position {
    /// The play of a hand from its parts: the seats' hands (a seat out of play holds
    /// none), the trick so far, the tricks taken, and the joker rules if any (their
    /// `played` before the current trick).
    pub fn build(
        layout: &Layout,
        hands: &[CardBag],
        out: Option<Seat>,
        trick: &Trick,
        tricks: [u8; 2],
        jokers: Option<JokerRules>,
    ) -> Position {
        let seats = hands.len() as u8;
        let mut packed = layout.pack_bags(hands);
        let in_play = (0..seats)
            .filter(|&s| out != Some(Seat(s)))
            .fold(0, |m, s| m | 1 << s);
        if let Some(out) = out {
            packed[out.index()] = 0;
        }
        let leader = trick.leader.0;
        let mut position = Position {
            hands: packed,
            seats,
            in_play,
            trump: layout.trump(),
            shift: layout.shift(),
            leader,
            to_act: leader,
            trick: [0; MAX_SEATS],
            trick_len: 0,
            winner: leader,
            best: 0,
            tricks,
            led: NO_LANE,
            jokers,
        };
        // Replay the trick so far, giving each card back to its player first.
        let mut taken = packed.iter().fold(0, |a, h| a | h);
        for card in trick.cards() {
            let c = layout.place(taken, card);
            taken |= 1 << c;
            position.hands[position.to_act as usize] |= 1 << c;
            position.play(c);
        }
        position
    }

    /// Seats that play this hand.
    #[inline]
    pub fn players(&self) -> u32 {
        self.in_play.count_ones()
    }

    /// The team of `seat`.
    pub const fn team(seat: u8) -> usize {
        (seat & 1) as usize
    }

    /// The next seat in play after `seat`.
    #[inline]
    pub fn next(&self, seat: u8) -> u8 {
        let mut s = seat;
        loop {
            s = if s + 1 == self.seats { 0 } else { s + 1 };
            if self.in_play & (1 << s) != 0 {
                return s;
            }
        }
    }

    /// Tricks still to be decided, the current one included.
    #[inline]
    pub fn tricks_left(&self) -> u32 {
        self.hands[self.leader as usize].count_ones() + u32::from(self.trick_len > 0)
    }

    /// Whether every trick has been played.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.trick_len == 0 && self.hands[self.leader as usize] == 0
    }

    /// The cards the seat to act may play (follow the led effective suit if able).
    #[inline]
    pub fn playable(&self) -> u64 {
        let hand = self.hands[self.to_act as usize];
        let Some(j) = &self.jokers else {
            if self.trick_len == 0 {
                return hand;
            }
            let follow = hand & lane(self.led);
            return if follow == 0 { hand } else { follow };
        };
        if self.trick_len == 0 {
            let live = hand & !j.jokers | hand & j.jokers & self.live_jokers(self.to_act);
            return if live == 0 { hand } else { live };
        }
        if self.led == NO_LANE {
            return hand;
        }
        let follow = hand & lane(self.led);
        if follow == 0 {
            hand
        } else {
            follow | hand & j.jokers
        }
    }

    /// The jokers `seat` may lead live now.
    fn live_jokers(&self, seat: u8) -> u64 {
        match &self.jokers {
            None => 0,
            Some(j) if j.gate & !j.played == 0 => j.jokers,
            Some(j) => j.free[seat as usize],
        }
    }

    /// Whether `challenger` takes the trick from `best`.
    #[inline]
    pub fn beats(&self, challenger: u8, best: u8) -> bool {
        let (cs, bs) = (challenger >> 4, best >> 4);
        if cs == bs {
            challenger >> self.shift > best >> self.shift
        } else {
            cs == self.trump
        }
    }

    /// Plays `card` (compact index) for the seat to act; returns whether that completed
    /// a trick.
    #[inline]
    pub fn play(&mut self, card: u8) -> bool {
        let seat = self.to_act;
        self.hands[seat as usize] &= !(1u64 << card);
        if self.trick_len == 0 {
            self.winner = seat;
            self.best = card;
            self.led = card >> 4;
            if let Some(j) = &mut self.jokers {
                j.dead = j.jokers & (1 << card) != 0 && {
                    let free = if j.gate & !j.played == 0 {
                        j.jokers
                    } else {
                        j.free[seat as usize]
                    };
                    free & (1 << card) == 0
                };
                if j.dead {
                    self.led = NO_LANE;
                }
            }
        } else if self.led == NO_LANE {
            // The card after a dead joker sets the suit and beats the joker.
            self.winner = seat;
            self.best = card;
            self.led = card >> 4;
        } else if self.beats(card, self.best) {
            self.winner = seat;
            self.best = card;
        }
        if let Some(j) = &mut self.jokers {
            j.played |= 1 << card;
        }
        self.trick[self.trick_len as usize] = card;
        self.trick_len += 1;
        // The trick is complete when it comes back round to its leader: cheaper than
        // counting the players.
        let next = self.next(seat);
        if next == self.leader {
            self.tricks[Position::team(self.winner)] += 1;
            self.leader = self.winner;
            self.to_act = self.winner;
            self.trick_len = 0;
            true
        } else {
            self.to_act = next;
            false
        }
    }

    /// Every card still held or on the table (compact).
    pub fn live_cards(&self) -> u64 {
        let mut live = self.hands.iter().fold(0, |a, h| a | h);
        for &c in &self.trick[..self.trick_len as usize] {
            live |= 1u64 << c;
        }
        live
    }

    /// The seat to act as a [`Seat`].
    pub fn seat_to_act(&self) -> Seat {
        Seat(self.to_act)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cards: &str) -> CardSet {
        cards
            .split(' ')
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn layout_orders_each_effective_suit_by_strength() {
        let order = CardOrder::euchre(Some(Suit::Clubs));
        let layout = Layout::new(order, CardBag::from_set(CardSet::ranks(9, 14)));
        let jc = layout.index("JC".parse().unwrap());
        let js = layout.index("JS".parse().unwrap());
        let ac = layout.index("AC".parse().unwrap());
        assert_eq!(jc >> 4, Suit::Clubs.index() as u8);
        assert_eq!(js >> 4, Suit::Clubs.index() as u8);
        assert!(jc > js && js > ac);
        assert_eq!(layout.unpack(layout.pack(set("JS 9H AC"))), set("JS 9H AC"));
    }

    #[test]
    fn a_trick_goes_to_the_highest_trump_and_the_leader_must_be_followed() {
        let order = CardOrder::euchre(Some(Suit::Hearts));
        let layout = Layout::new(order, CardBag::from_set(CardSet::ranks(9, 14)));
        let hands = ["AS 9C", "KS 9H", "9S JD", "TD QC"].map(|h| layout.pack(set(h)));
        let mut p = Position {
            hands: [hands[0], hands[1], hands[2], hands[3], 0, 0],
            seats: 4,
            in_play: 0b1111,
            trump: layout.trump(),
            shift: 0,
            leader: 0,
            to_act: 0,
            trick: [0; MAX_SEATS],
            trick_len: 0,
            winner: 0,
            best: 0,
            tricks: [0, 0],
            led: NO_LANE,
            jokers: None,
        };
        let c = |t: &str| layout.index(t.parse().unwrap());
        p.play(c("AS"));
        // Seat 1 holds a spade and must follow; seat 2 too; seat 3 is void.
        assert_eq!(p.playable(), 1 << c("KS"));
        p.play(c("KS"));
        assert_eq!(p.playable(), 1 << c("9S"));
        p.play(c("9S"));
        assert_eq!(p.playable(), hands[3]);
        assert!(p.play(c("QC")));
        assert_eq!(p.tricks, [1, 0]);
        assert_eq!((p.leader, p.to_act), (0, 0));
        // The left bower (JD) is a trump: it takes the trick.
        p.play(c("9C"));
        p.play(c("9H"));
        p.play(c("JD"));
        p.play(c("TD"));
        assert!(p.is_over());
        assert_eq!(p.tricks, [2, 0]);
        assert_eq!(p.leader, 2);
    }

    #[test]
    fn in_a_double_deck_the_first_of_two_equal_cards_wins() {
        let order = CardOrder::euchre(Some(Suit::Hearts));
        let faces = CardSet::ranks(11, 14);
        let deck: CardBag = faces.iter().chain(faces.iter()).collect();
        let layout = Layout::new(order, deck);
        assert_eq!(layout.shift(), 1);
        let bag =
            |t: &str| -> CardBag { t.split(' ').map(|c| c.parse::<Card>().unwrap()).collect() };
        let hands = [bag("AS KH"), bag("AS QS"), bag("KS KS"), bag("QC JD")];
        let trick = Trick::new(Seat(0));
        let mut p = Position::build(&layout, &hands, None, &trick, [0, 0], None);
        let copies = layout.copies("AS".parse().unwrap());
        assert_eq!(copies.count_ones(), 2);
        assert_eq!((p.hands[0] | p.hands[1]) & copies, copies);
        p.play((p.hands[0] & copies).trailing_zeros() as u8);
        p.play((p.hands[1] & copies).trailing_zeros() as u8);
        p.play(p.hands[2].trailing_zeros() as u8);
        p.play(layout.index("QC".parse().unwrap()));
        assert_eq!(p.tricks, [1, 0]);
        assert_eq!(p.leader, 0);
    }
}
