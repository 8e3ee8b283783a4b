//! Kaibosh: four players in two partnerships, 24 cards (9 to ace), a one-round auction
//! for the right to name trump, bowers, and the lone `kaibosh` bid.
//!
//! Rules: `rules/kaibosh.txt` with the Kaibosh rulings of `RULINGS.md`.

use serde::{Deserialize, Serialize};

use crate::action::{Action, Strain};
use crate::card::{Card, Suit};
use crate::card_set::{CardBag, CardSet};
use crate::game::Goal;
use crate::game::{
    push_first, push_plays, ActionList, AllPass, Broken, DealError, Game, HandOutcome, HandStart,
    HandSummary, Observation, Outcome,
};
use crate::hand::{hand_state_methods, HandState, Stage, TrickEnd};
use crate::seat::Seat;
use crate::shuffle;
use crate::trick::CardOrder;
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

/// A game of Kaibosh.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kaibosh {
    rules: KaiboshRules,
    /// The table and the hand's deal, turn, tricks and history, flattened so that the
    /// serialized state keeps its field names.
    #[serde(flatten)]
    state: HandState<CardSet, SEATS, MAX_HAND_ACTIONS>,
    /// The high bid and its bidder.
    high: Option<(Seat, Action)>,
    trump: Option<Suit>,
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

    /// The seat that sits this hand out after a kaibosh, if any.
    pub fn out(&self) -> Option<Seat> {
        self.state.out()
    }

    /// The trump suit once named.
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    fn is_dealer_forced(&self, seat: Seat) -> bool {
        self.rules
            .all_pass
            .forces(seat, self.state.table().dealer(), self.high.is_some())
    }

    fn check_call(&self, action: Action) -> Result<(), Broken> {
        let seat = self.state.to_act();
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
            Action::Misdeal if can_misdeal(self.state.held(seat)) => Ok(()),
            Action::Misdeal => Err(Broken::NoMisdeal),
            _ => unreachable!("only calls reach check_call"),
        }
    }

    fn finish_hand(&mut self, outcome: HandOutcome, points: [i32; 2]) {
        self.state.finish(outcome, points);
        if self.ends_game() {
            self.state.end_game();
        }
    }

    fn ends_game(&self) -> bool {
        let table = self.state.table();
        let reached = self
            .rules
            .target
            .is_some_and(|target| table.scores().iter().any(|&s| s >= target));
        let dealt_out = self
            .rules
            .deals
            .is_some_and(|deals| table.deals_played() >= deals);
        reached || dealt_out
    }

    fn end_auction(&mut self) {
        match self.high {
            Some((declarer, _)) => self.state.give_turn(Stage::NameTrump, declarer),
            None => self.finish_hand(HandOutcome::ThrownIn, [0, 0]),
        }
    }

    fn start_hand(&mut self, hands: [CardSet; SEATS]) {
        self.state.start(hands);
        self.high = None;
        self.trump = None;
    }
}

impl Game for Kaibosh {
    type Rules = KaiboshRules;

    hand_state_methods!();

    fn resume(rules: &KaiboshRules, start: HandStart) -> Kaibosh {
        Kaibosh {
            rules: *rules,
            state: HandState::resume(start, SEATS, Stage::Deal),
            high: None,
            trump: None,
        }
    }

    fn rules(&self) -> &KaiboshRules {
        &self.rules
    }

    #[inline]
    fn legal_actions(&self, out: &mut ActionList) {
        match self.state.stage() {
            Stage::Auction => {
                let seat = self.state.to_act();
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
                if can_misdeal(self.state.held(seat)) {
                    out.push(Action::Misdeal);
                }
            }
            Stage::NameTrump => out.extend(Suit::ALL.map(Action::Trump)),
            Stage::Play => push_plays::<HAND_SIZE>(out, self.state.following()),
            Stage::Deal | Stage::GameOver | Stage::Give | Stage::Discard => {}
        }
    }

    fn check(&self, action: Action) -> Result<(), Broken> {
        let stage = self.state.stage();
        let expected = match stage {
            Stage::Deal => return Err(Broken::DealDue),
            Stage::GameOver => return Err(Broken::GameOver),
            Stage::Auction => "a call: pass, bid 1 to 6, kaibosh or misdeal",
            Stage::NameTrump => "the declarer to name trump",
            Stage::Play => "a card to be played",
            Stage::Give | Stage::Discard => unreachable!("Kaibosh has no exchange"),
        };
        match (stage, action) {
            (Stage::Auction, Action::Pass | Action::Bid(_) | Action::Kaibosh | Action::Misdeal) => {
                self.check_call(action)
            }
            (Stage::NameTrump, Action::Trump(_)) => Ok(()),
            (Stage::Play, Action::Play(card)) => {
                let playable = self.state.following();
                self.state.check_play(card, playable, self.order(), || {
                    unreachable!("any card may lead")
                })
            }
            (
                _,
                Action::BidStrain(..) | Action::Loner(..) | Action::Give(_) | Action::Discard(_),
            ) => Err(Broken::NotInGame),
            _ => Err(Broken::NotNow { expected }),
        }
    }

    fn apply_unchecked(&mut self, action: Action) {
        let seat = self.state.record(action);
        match action {
            Action::Pass | Action::Bid(_) => {
                if action != Action::Pass {
                    self.high = Some((seat, action));
                }
                if self.state.count_call() {
                    self.end_auction();
                }
            }
            Action::Kaibosh => {
                self.high = Some((seat, action));
                self.state.set_out(seat.partner4());
                self.end_auction();
            }
            Action::Misdeal => self.finish_hand(HandOutcome::Misdeal, [0, 0]),
            Action::Trump(suit) => {
                self.trump = Some(suit);
                // A lone declarer leads; otherwise the dealer's left.
                let leader = if self.state.out().is_some() {
                    seat
                } else {
                    self.state.table().dealer().next(SEATS)
                };
                self.state.start_play(leader);
            }
            Action::Play(card) => {
                if self.state.play(card, self.order(), false) == TrickEnd::LastTaken {
                    let points = self.hand_points(self.state.tricks());
                    self.finish_hand(HandOutcome::Played, points);
                }
            }
            Action::BidStrain(..) | Action::Loner(..) | Action::Give(_) | Action::Discard(_) => {
                unreachable!("not a Kaibosh action: {action}")
            }
        }
    }

    fn deal(&mut self, hands: &[CardBag]) -> Result<(), DealError> {
        let hands = self
            .state
            .checked_deal(hands, HAND_SIZE, CardBag::from_set(DECK))?;
        self.start_hand(hands);
        Ok(())
    }

    fn deal_random(&mut self, rng: &mut GameRng) {
        debug_assert_eq!(self.state.stage(), Stage::Deal);
        let mut hands = [CardSet::EMPTY; SEATS];
        shuffle::deal(&DECK_CARDS, &[HAND_SIZE; SEATS], rng, |seat, card| {
            hands[seat].insert(card)
        });
        self.start_hand(hands);
    }

    fn observation(&self, seat: Seat) -> Observation {
        self.state.open_observation(seat, self.declared())
    }

    fn hand_summary(&self) -> HandSummary {
        self.state.summary(self.high, self.trump.map(Strain::Suit))
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
        self.state.score_outcome()
    }

    fn goal(&self) -> Goal {
        Goal {
            target: self.rules.target,
            deals: self.rules.deals,
        }
    }
}
