//! Kaibosh: four players in two partnerships, 24 cards (9 to ace), a one-round auction
//! for the right to name trump, bowers, and the lone `kaibosh` bid.
//!
//! Rules: `rules/kaibosh.txt` with the Kaibosh rulings of `RULINGS.md`.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::action::{Action, Strain};
use crate::card::{Card, Suit};
use crate::card_set::{CardBag, CardSet};
use crate::game::{
    check_deal, push_first, push_plays, ActionList, AllPass, Broken, DealError, Game, HandOutcome,
    HandStart, HandSummary, Observation, Outcome, Turn,
};
use crate::seat::Seat;
use crate::shuffle;
use crate::table::Table;
use crate::trick::{self, CardOrder, Trick};
use crate::view::{self, Goal, TrickState};
use crate::GameRng;

const SEATS: usize = 4;
const HAND_SIZE: usize = 6;
const TRICKS: u8 = 6;
/// Points won or lost on a kaibosh.
const KAIBOSH_POINTS: i32 = 12;
/// Most actions in one hand: four calls, trump, 24 cards.
const MAX_HAND_ACTIONS: usize = 29;

/// The 24-card deck: 9, 10, J, Q, K, A of each suit.
pub const DECK: CardSet = CardSet::ranks(9, 14);

/// The deck as a list, in index order, for dealing.
const DECK_CARDS: [Card; 24] = {
    let mut cards = [Card::RED_JOKER; 24];
    let mut i = 0;
    while i < 24 {
        cards[i] = Card::new(9 + (i % 6) as u8, Suit::from_index(i / 6));
        i += 1;
    }
    cards
};

/// Options of a Kaibosh game (see NOTATION.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KaiboshRules {
    /// What happens when all four pass.
    pub all_pass: AllPass,
    /// The score that ends the game, if any.
    pub target: Option<i32>,
    /// A fixed number of deals, if any.
    pub deals: Option<u32>,
}

impl Default for KaiboshRules {
    /// Redeal on all-pass, game to 50.
    fn default() -> KaiboshRules {
        KaiboshRules {
            all_pass: AllPass::Redeal,
            target: Some(50),
            deals: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// Waiting for the next deal.
    Deal,
    Auction,
    NameTrump,
    Play,
    GameOver,
}

/// A game of Kaibosh.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kaibosh {
    rules: KaiboshRules,
    /// Deal count, dealer, scores and the hand's result, flattened so that the
    /// serialized state keeps its field names.
    #[serde(flatten)]
    table: Table,
    phase: Phase,
    to_act: Seat,
    hands: [CardSet; SEATS],
    dealt: [CardSet; SEATS],
    /// Calls made so far in the auction.
    calls: u8,
    /// The high bid and its bidder.
    high: Option<(Seat, Action)>,
    trump: Option<Suit>,
    /// The kaiboshing player's partner, out of play.
    out: Option<Seat>,
    trick: Trick,
    /// The cards that follow the trick's lead (none before the lead): the seat to play
    /// must play one of them if it holds any.
    follow: CardSet,
    /// The cards that can take the trick: those of the led suit, and trumps (none before
    /// the lead).
    contenders: CardSet,
    /// The card winning the trick so far, as its strength times four plus its seat (0
    /// before the lead). Cards that can win differ in strength, so the greatest such key
    /// is the winner's.
    best: u8,
    tricks: [u8; 2],
    history: ArrayVec<(Seat, Action), MAX_HAND_ACTIONS>,
}

/// Whether a hand may declare a misdeal: four 9s, or three 9s and at least two 10s.
pub fn can_misdeal(hand: CardSet) -> bool {
    let nines = hand.and(CardSet::ranks(9, 9)).len();
    let tens = hand.and(CardSet::ranks(10, 10)).len();
    nines == 4 || (nines == 3 && tens >= 2)
}

impl Kaibosh {
    fn order(&self) -> &'static CardOrder {
        CardOrder::euchre(self.trump)
    }

    fn declarer(&self) -> Option<Seat> {
        self.high.map(|(seat, _)| seat)
    }

    /// The cards `seat` holds (a bag, as in every game).
    pub fn hand(&self, seat: Seat) -> CardBag {
        CardBag::from_set(self.hands[seat.index()])
    }

    /// The trick being played.
    pub fn trick(&self) -> &Trick {
        &self.trick
    }

    /// The seat that sits this hand out after a kaibosh, if any.
    pub fn out(&self) -> Option<Seat> {
        self.out
    }

    /// The trump suit once named.
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    fn is_dealer_forced(&self, seat: Seat) -> bool {
        self.rules
            .all_pass
            .forces(seat, self.table.dealer(), self.high.is_some())
    }

    /// The cards `seat` may play now.
    fn playable(&self) -> CardSet {
        trick::follow(self.hands[self.to_act.index()], self.follow)
    }

    /// Starts an empty trick led by `leader`.
    fn start_trick(&mut self, leader: Seat) {
        self.trick = Trick::new(leader);
        self.to_act = leader;
        self.follow = CardSet::EMPTY;
        self.contenders = CardSet::EMPTY;
        self.best = 0;
    }

    fn check_call(&self, action: Action) -> Result<(), Broken> {
        let seat = self.to_act;
        match action {
            Action::Pass if self.is_dealer_forced(seat) => Err(Broken::DealerMustBid),
            Action::Pass | Action::Kaibosh => Ok(()),
            Action::Bid(n) if !(1..=TRICKS).contains(&n) => Err(Broken::BidOutOfRange {
                low: 1,
                high: TRICKS,
            }),
            Action::Bid(n) => match self.high {
                Some((_, high @ Action::Bid(h))) if n <= h => Err(Broken::BidTooLow { high }),
                _ => Ok(()),
            },
            Action::Misdeal if can_misdeal(self.hands[seat.index()]) => Ok(()),
            Action::Misdeal => Err(Broken::NoMisdeal),
            _ => unreachable!("only calls reach check_call"),
        }
    }

    fn finish_hand(&mut self, outcome: HandOutcome, points: [i32; 2]) {
        self.table.finish_hand(outcome, points);
        self.phase = if self.ends_game() {
            Phase::GameOver
        } else {
            Phase::Deal
        };
    }

    fn ends_game(&self) -> bool {
        let reached = self
            .rules
            .target
            .is_some_and(|target| self.table.scores().iter().any(|&s| s >= target));
        let dealt_out = self
            .rules
            .deals
            .is_some_and(|deals| self.table.deals_played() >= deals);
        reached || dealt_out
    }

    fn score_hand(&mut self) {
        let points = self.hand_points(self.tricks);
        self.finish_hand(HandOutcome::Played, points);
    }

    fn end_auction(&mut self) {
        match self.high {
            Some((declarer, _)) => {
                self.phase = Phase::NameTrump;
                self.to_act = declarer;
            }
            None => self.finish_hand(HandOutcome::ThrownIn, [0, 0]),
        }
    }

    fn start_hand(&mut self, hands: [CardSet; SEATS]) {
        self.table.start_hand(SEATS);
        self.hands = hands;
        self.dealt = hands;
        self.phase = Phase::Auction;
        self.to_act = self.table.dealer().next(SEATS);
        self.calls = 0;
        self.high = None;
        self.trump = None;
        self.out = None;
        self.start_trick(self.to_act);
        self.tricks = [0, 0];
        self.history.clear();
    }
}

impl Game for Kaibosh {
    type Rules = KaiboshRules;

    fn new(rules: &KaiboshRules, first_dealer: Seat) -> Kaibosh {
        Kaibosh::resume(rules, HandStart::first(first_dealer))
    }

    fn resume(rules: &KaiboshRules, start: HandStart) -> Kaibosh {
        Kaibosh {
            rules: *rules,
            table: Table::resume(start, SEATS),
            phase: Phase::Deal,
            to_act: start.dealer,
            hands: [CardSet::EMPTY; SEATS],
            dealt: [CardSet::EMPTY; SEATS],
            calls: 0,
            high: None,
            trump: None,
            out: None,
            trick: Trick::new(start.dealer),
            follow: CardSet::EMPTY,
            contenders: CardSet::EMPTY,
            best: 0,
            tricks: [0, 0],
            history: ArrayVec::new(),
        }
    }

    fn rules(&self) -> &KaiboshRules {
        &self.rules
    }

    fn seats(&self) -> usize {
        SEATS
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Deal => Turn::Chance,
            Phase::GameOver => Turn::Over,
            Phase::Auction | Phase::NameTrump | Phase::Play => Turn::Seat(self.to_act),
        }
    }

    #[inline]
    fn legal_actions(&self, out: &mut ActionList) {
        match self.phase {
            Phase::Deal | Phase::GameOver => {}
            Phase::Auction => {
                let seat = self.to_act;
                if !self.is_dealer_forced(seat) {
                    out.push(Action::Pass);
                }
                let lowest = match self.high {
                    Some((_, Action::Bid(h))) => h + 1,
                    _ => 1,
                };
                let bids: [Action; TRICKS as usize] =
                    std::array::from_fn(|k| Action::Bid(lowest + k as u8));
                push_first(out, bids, usize::from(TRICKS + 1 - lowest));
                out.push(Action::Kaibosh);
                if can_misdeal(self.hands[seat.index()]) {
                    out.push(Action::Misdeal);
                }
            }
            Phase::NameTrump => out.extend(Suit::ALL.map(Action::Trump)),
            Phase::Play => push_plays::<HAND_SIZE>(out, self.playable()),
        }
    }

    fn check(&self, action: Action) -> Result<(), Broken> {
        let expected = match self.phase {
            Phase::Deal => return Err(Broken::DealDue),
            Phase::GameOver => return Err(Broken::GameOver),
            Phase::Auction => "a call: pass, bid 1 to 6, kaibosh or misdeal",
            Phase::NameTrump => "the declarer to name trump",
            Phase::Play => "a card to be played",
        };
        match (self.phase, action) {
            (Phase::Auction, Action::Pass | Action::Bid(_) | Action::Kaibosh | Action::Misdeal) => {
                self.check_call(action)
            }
            (Phase::NameTrump, Action::Trump(_)) => Ok(()),
            (Phase::Play, Action::Play(card)) => {
                let hand = self.hands[self.to_act.index()];
                if !hand.contains(card) {
                    Err(Broken::NotHeld(card))
                } else if self.playable().contains(card) {
                    Ok(())
                } else {
                    let order = self.order();
                    Err(Broken::MustFollow(order.suit_of(self.trick.card(0))))
                }
            }
            (
                _,
                Action::BidStrain(..) | Action::Loner(..) | Action::Give(_) | Action::Discard(_),
            ) => Err(Broken::NotInGame),
            _ => Err(Broken::NotNow { expected }),
        }
    }

    fn apply_unchecked(&mut self, action: Action) {
        let seat = self.to_act;
        self.history.push((seat, action));
        match action {
            Action::Pass | Action::Bid(_) => {
                if action != Action::Pass {
                    self.high = Some((seat, action));
                }
                self.calls += 1;
                if self.calls as usize == SEATS {
                    self.end_auction();
                } else {
                    self.to_act = seat.next(SEATS);
                }
            }
            Action::Kaibosh => {
                self.high = Some((seat, action));
                self.out = Some(seat.partner4());
                self.end_auction();
            }
            Action::Misdeal => self.finish_hand(HandOutcome::Misdeal, [0, 0]),
            Action::Trump(suit) => {
                self.trump = Some(suit);
                self.phase = Phase::Play;
                let leader = if self.out.is_some() {
                    seat
                } else {
                    self.table.dealer().next(SEATS)
                };
                self.start_trick(leader);
            }
            Action::Play(card) => {
                self.hands[seat.index()].remove(card);
                let order = self.order();
                if self.trick.is_empty() {
                    let led = order.suit_of(card);
                    self.follow = order.cards_of(led);
                    self.contenders = self.follow.or(order.trumps());
                }
                // The winner is kept card by card, so a full trick needs no second look.
                // Trumps are stronger than any plain card, and a card that neither
                // follows nor trumps counts as strength 0: it cannot win.
                let strength = u8::from(self.contenders.contains(card)) * order.strength(card);
                self.best = self.best.max(strength << 2 | seat.0);
                self.trick.push(card);
                let in_play = if self.out.is_some() { 3 } else { SEATS };
                if self.trick.len() < in_play {
                    self.to_act = seat.next_in_play(SEATS, self.out);
                    return;
                }
                let winner = Seat(self.best & 3);
                self.tricks[winner.team().index()] += 1;
                if self.tricks[0] + self.tricks[1] == TRICKS {
                    self.score_hand();
                } else {
                    self.start_trick(winner);
                }
            }
            Action::BidStrain(..) | Action::Loner(..) | Action::Give(_) | Action::Discard(_) => {
                unreachable!("not a Kaibosh action: {action}")
            }
        }
    }

    fn deal(&mut self, hands: &[CardBag]) -> Result<(), DealError> {
        if self.phase != Phase::Deal {
            return Err(DealError::NotDue);
        }
        check_deal(hands, SEATS, HAND_SIZE, CardBag::from_set(DECK))?;
        self.start_hand(std::array::from_fn(|seat| hands[seat].faces()));
        Ok(())
    }

    fn deal_random(&mut self, rng: &mut GameRng) {
        debug_assert_eq!(self.phase, Phase::Deal);
        let mut hands = [CardSet::EMPTY; SEATS];
        shuffle::deal(&DECK_CARDS, &[HAND_SIZE; SEATS], rng, |seat, card| {
            hands[seat].insert(card)
        });
        self.start_hand(hands);
    }

    fn observation(&self, seat: Seat) -> Observation {
        Observation::open(
            seat,
            self.hand_start(),
            CardBag::from_set(self.dealt[seat.index()]),
            CardBag::from_set(self.hands[seat.index()]),
            &self.history,
            self.declared(),
        )
    }

    fn hand_start(&self) -> HandStart {
        self.table.hand_start()
    }

    fn hand_summary(&self) -> HandSummary {
        // The contract shows once the auction is won, and stays on a played hand; a hand
        // that ended in a misdeal or all passes has none.
        let show_contract = match self.table.outcome() {
            HandOutcome::Played => true,
            HandOutcome::InProgress => matches!(self.phase, Phase::NameTrump | Phase::Play),
            HandOutcome::Misdeal | HandOutcome::ThrownIn => false,
        };
        HandSummary {
            dealer: self.table.dealer(),
            outcome: self.table.outcome(),
            declarer: self.declarer().filter(|_| show_contract),
            contract: self.high.map(|(_, bid)| bid).filter(|_| show_contract),
            trump: self.trump.map(Strain::Suit).filter(|_| show_contract),
            tricks: self.tricks,
            points: self.table.points(),
        }
    }

    fn scores(&self) -> [i32; 2] {
        self.table.scores()
    }

    fn hand_points(&self, tricks: [u8; 2]) -> [i32; 2] {
        let Some((declarer, contract)) = self.high else {
            return [0, 0];
        };
        let bidders = declarer.team();
        let taken = tricks[bidders.index()];
        let mut points = [0; 2];
        let (made, stake) = match contract {
            Action::Kaibosh => (taken == TRICKS, KAIBOSH_POINTS),
            Action::Bid(n) => (taken >= n, i32::from(n)),
            _ => unreachable!("a Kaibosh contract is a bid or a kaibosh"),
        };
        if made {
            points[bidders.index()] = if contract == Action::Kaibosh {
                KAIBOSH_POINTS
            } else {
                i32::from(taken)
            };
        } else {
            points[bidders.index()] = -stake;
            points[bidders.other().index()] = i32::from(TRICKS - taken);
        }
        points
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::GameOver {
            return None;
        }
        Some(self.table.score_outcome())
    }

    fn phase(&self) -> view::Phase {
        match self.phase {
            Phase::Deal => self.table.between_hands(),
            Phase::Auction => view::Phase::Auction,
            Phase::NameTrump => view::Phase::TrumpNaming,
            Phase::Play => view::Phase::Play,
            Phase::GameOver => view::Phase::GameOver,
        }
    }

    fn goal(&self) -> Goal {
        Goal {
            target: self.rules.target,
            deals: self.rules.deals,
        }
    }

    fn sitting_out(&self) -> Option<Seat> {
        self.out
    }

    fn current_trick(&self) -> Option<TrickState> {
        (self.phase == Phase::Play || self.table.played_out()).then(|| TrickState {
            leader: self.trick.leader,
            winning: (!self.trick.is_empty()).then_some(Seat(self.best & 3)),
        })
    }
}
