//! Bid Euchre: four players in two partnerships, a double deck of 32 cards (J, Q, K, A
//! twice in each suit), one auction round of level bids 1..8 in a strain and the loner
//! bids `call2`, `call1` and `moon`, with a card exchange for the first two.
//!
//! Rules: `rules/bid-euchre-alexa.txt` and `rules/bid-euchre-simplified.txt` with the
//! Bid Euchre rulings of `RULINGS.md`. One game is a fixed number of deals; the alexa
//! "night" of several sets is in [`crate::night`].

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::action::{Action, CardPair, Loner, Strain};
use crate::card::{Card, Suit, ACE, JACK, KING, QUEEN};
use crate::card_set::{CardBag, CardSet};
use crate::game::Goal;
use crate::game::{
    push_plays, ActionList, AllPass, Broken, DealError, Game, HandOutcome, HandStart, HandSummary,
    Observation, Outcome, SeenAction,
};
use crate::hand::{hand_state_methods, HandState, Stage, TrickEnd};
use crate::seat::Seat;
use crate::shuffle;
use crate::trick::CardOrder;
use crate::GameRng;

const SEATS: usize = 4;
const HAND_SIZE: usize = 8;
const TRICKS: u8 = 8;
/// Most actions in one hand: four calls, a give, a discard, 8 tricks of at most 4 cards.
const MAX_HAND_ACTIONS: usize = 38;
/// Deals in an alexa set and in two simplified rounds: the default game length.
pub const DEFAULT_DEALS: u32 = 8;

/// The 16 faces of the deck: J, Q, K, A of each suit; each is in the deck twice.
pub const DECK: CardSet = CardSet::ranks(JACK, ACE);

/// The bit index of each of the 32 cards, twins side by side.
const DOUBLE_DECK: [Card; 32] = {
    let mut deck = [Card::RED_JOKER; 32];
    let mut i = 0;
    let mut faces = DECK.0;
    while faces != 0 {
        let card = Card::from_valid_index(faces.trailing_zeros() as u8);
        deck[i] = card;
        deck[i + 1] = card;
        faces &= faces - 1;
        i += 2;
    }
    deck
};

/// Which rules text a game follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// `rules/bid-euchre-alexa.txt`: the partner gives their highest trumps; the dealer
    /// may match a loner bid.
    Alexa,
    /// `rules/bid-euchre-simplified.txt`: the partner gives freely; the dealer may match
    /// any bid at level 8.
    Simplified,
}

/// Variant and options of a Bid Euchre game (see NOTATION.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidEuchreRules {
    /// The rules text followed.
    pub variant: Variant,
    /// What happens when all four pass.
    pub all_pass: AllPass,
    /// Length of the game in deals (thrown-in ones included).
    pub deals: u32,
}

impl BidEuchreRules {
    /// The defaults of `variant`: redeal on all-pass, 8 deals (an alexa set, or two
    /// simplified rounds).
    pub const fn new(variant: Variant) -> BidEuchreRules {
        BidEuchreRules {
            variant,
            all_pass: AllPass::Redeal,
            deals: DEFAULT_DEALS,
        }
    }
}

/// A game of Bid Euchre.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidEuchre {
    rules: BidEuchreRules,
    /// The table and the hand's deal, turn, tricks and history, flattened so that the
    /// serialized state keeps its field names.
    #[serde(flatten)]
    state: HandState<CardBag, SEATS, MAX_HAND_ACTIONS>,
    /// The high bid and its bidder: after the auction, the contract and declarer.
    high: Option<(Seat, Action)>,
    /// The contract's trump suit once the auction is won (`None` also in no-trump).
    trump: Option<Suit>,
}

/// A bid's rank: levels 1..8, then `call2` 9, `call1` 10, `moon` 11; 0 for anything else.
const fn bid_rank(action: Action) -> u8 {
    match action {
        Action::BidStrain(level, _) => level,
        Action::Loner(loner, _) => 9 + loner as u8,
        _ => 0,
    }
}

/// The bid of rank `rank` (1..=11) in `strain`.
const fn bid_of_rank(rank: u8, strain: Strain) -> Action {
    match rank {
        9 => Action::Loner(Loner::Call2, strain),
        10 => Action::Loner(Loner::Call1, strain),
        11 => Action::Loner(Loner::Moon, strain),
        level => Action::BidStrain(level, strain),
    }
}

/// Every bid, rank by rank (levels 1..8, `call2`, `call1`, `moon`), strains in
/// [`Strain::ALL`] order: the auction's legal bids are a tail of this list.
const ALL_BIDS: [Action; 55] = {
    let mut bids = [Action::Pass; 55];
    let mut i = 0;
    while i < 55 {
        bids[i] = bid_of_rank(i as u8 / 5 + 1, Strain::ALL[i % 5]);
        i += 1;
    }
    bids
};

/// The contract's strain.
const fn strain_of(contract: Action) -> Strain {
    match contract {
        Action::BidStrain(_, strain) | Action::Loner(_, strain) => strain,
        _ => Strain::NoTrump,
    }
}

/// Points a made loner scores (and a failed one loses).
const fn loner_points(loner: Loner) -> i32 {
    match loner {
        Loner::Call2 => 12,
        Loner::Call1 => 18,
        Loner::Moon => 24,
    }
}

/// The trump faces from highest to lowest: right bower, left bower, A, K, Q.
const fn trumps_high_to_low(trump: Suit) -> [Card; 5] {
    [
        Card::new(JACK, trump),
        Card::new(JACK, trump.same_colour()),
        Card::new(ACE, trump),
        Card::new(KING, trump),
        Card::new(QUEEN, trump),
    ]
}

/// The alexa give rule: the `n` highest trumps of `hand` as a multiset, or all its trumps
/// if it holds fewer.
pub fn highest_trumps(hand: CardBag, trump: Suit, n: usize) -> CardBag {
    let mut out = CardBag::EMPTY;
    let mut left = n;
    for card in trumps_high_to_low(trump) {
        for _ in 0..hand.count(card) {
            if left > 0 {
                out.insert(card);
                left -= 1;
            }
        }
    }
    out
}

/// Calls `f` with every distinct multiset of `n` (1 or 2) cards from `bag`, joined to
/// the cards of `base` (one or two in all).
fn for_each_choice(bag: CardBag, n: usize, base: &[Card], mut f: impl FnMut(CardPair)) {
    let pair = |extra: &[Card]| match (base, extra) {
        ([a], []) | ([], [a]) => CardPair::one(*a),
        ([a, b], []) | ([a], [b]) | ([], [a, b]) => CardPair::two(*a, *b),
        _ => unreachable!("one or two cards change hands"),
    };
    match n {
        0 => f(pair(&[])),
        1 => bag.faces().iter().for_each(|c| f(pair(&[c]))),
        _ => {
            let faces = bag.faces();
            for a in faces {
                if bag.count(a) == 2 {
                    f(pair(&[a, a]));
                }
                for b in faces.iter().filter(|b| *b > a) {
                    f(pair(&[a, b]));
                }
            }
        }
    }
}

/// The cards of a give or discard as a bag.
fn bag_of(pair: CardPair) -> CardBag {
    pair.cards().iter().copied().collect()
}

impl BidEuchre {
    fn order(&self) -> &'static CardOrder {
        CardOrder::euchre(self.trump)
    }

    /// The winning bid once the auction is over (the high bid while it goes on).
    pub fn contract(&self) -> Option<Action> {
        self.high.map(|(_, bid)| bid)
    }

    /// The declarer once the auction is over (the high bidder while it goes on).
    pub fn declarer(&self) -> Option<Seat> {
        self.high.map(|(seat, _)| seat)
    }

    /// The loner's partner, who sits this hand out, if any.
    pub fn out(&self) -> Option<Seat> {
        self.state.out()
    }

    fn is_dealer_forced(&self, seat: Seat) -> bool {
        self.rules
            .all_pass
            .forces(seat, self.state.table().dealer(), self.high.is_some())
    }

    /// Whether `seat` may equal the high bid (rank `high`) instead of exceeding it.
    fn may_match(&self, seat: Seat, high: u8) -> bool {
        seat == self.state.table().dealer()
            && match self.rules.variant {
                Variant::Alexa => high >= 9,
                Variant::Simplified => high >= 8,
            }
    }

    fn high_rank(&self) -> u8 {
        self.contract().map_or(0, bid_rank)
    }

    /// How many cards the exchange moves: 2 after `call2`, 1 after `call1`.
    fn exchange(&self) -> usize {
        match self.contract() {
            Some(Action::Loner(loner, _)) => loner.exchange(),
            _ => 0,
        }
    }

    /// The trump suit when the alexa give rule binds the partner's choice.
    fn give_rule_trump(&self) -> Option<Suit> {
        match self.rules.variant {
            Variant::Alexa => self.trump,
            Variant::Simplified => None,
        }
    }

    fn check_call(&self, action: Action) -> Result<(), Broken> {
        let seat = self.state.to_act();
        if action == Action::Pass {
            return if self.is_dealer_forced(seat) {
                Err(Broken::DealerMustBid)
            } else {
                Ok(())
            };
        }
        if let Action::BidStrain(level, _) = action {
            if !(1..=TRICKS).contains(&level) {
                return Err(Broken::BidOutOfRange {
                    low: 1,
                    high: TRICKS,
                });
            }
        }
        let (rank, high) = (bid_rank(action), self.high_rank());
        match self.high {
            None => Ok(()),
            Some(_) if rank > high => Ok(()),
            Some((_, high_bid)) if self.may_match(seat, high) => {
                if rank == high {
                    Ok(())
                } else {
                    Err(Broken::BidBelow { high: high_bid })
                }
            }
            Some((_, high_bid)) => Err(Broken::BidTooLow { high: high_bid }),
        }
    }

    /// Checks that the seat to act holds the cards `pair` passes face down (`verb`:
    /// give or discard), as many as the contract's exchange; returns them as a bag.
    fn check_exchange(&self, pair: CardPair, verb: &'static str) -> Result<CardBag, Broken> {
        let n = self.exchange();
        if pair.len() != n {
            return Err(Broken::CardCount {
                verb,
                expected: n as u8,
            });
        }
        let hand = self.state.held(self.state.to_act());
        let passed = bag_of(pair);
        match pair
            .cards()
            .iter()
            .find(|&&c| passed.count(c) > hand.count(c))
        {
            Some(card) => Err(Broken::NotHeld(*card)),
            None => Ok(passed),
        }
    }

    fn check_give(&self, pair: CardPair) -> Result<(), Broken> {
        let given = self.check_exchange(pair, "give")?;
        if let Some(trump) = self.give_rule_trump() {
            let hand = self.state.held(self.state.to_act());
            let trumps = CardOrder::euchre(Some(trump)).cards_of(trump);
            if given.only_faces(trumps) != highest_trumps(hand, trump, self.exchange()) {
                return Err(Broken::MustGiveHighestTrumps);
            }
        }
        Ok(())
    }

    fn finish_hand(&mut self, outcome: HandOutcome, points: [i32; 2]) {
        self.state.finish(outcome, points);
        if self.state.table().deals_played() >= self.rules.deals {
            self.state.end_game();
        }
    }

    fn end_auction(&mut self) {
        self.trump = self.contract().and_then(|c| strain_of(c).trump());
        match self.high {
            None => self.finish_hand(HandOutcome::ThrownIn, [0, 0]),
            Some((declarer, Action::Loner(loner, _))) => {
                let partner = declarer.partner4();
                self.state.set_out(partner);
                if loner.exchange() == 0 {
                    self.state.start_play(declarer);
                } else {
                    self.state.give_turn(Stage::Give, partner);
                }
            }
            Some((declarer, _)) => self.state.start_play(declarer),
        }
    }

    fn start_hand(&mut self, hands: [CardBag; SEATS]) {
        self.state.start(hands);
        self.high = None;
        self.trump = None;
    }
}

impl Game for BidEuchre {
    type Rules = BidEuchreRules;

    hand_state_methods!();

    fn resume(rules: &BidEuchreRules, start: HandStart) -> BidEuchre {
        let phase = if start.deals_played >= rules.deals {
            Stage::GameOver
        } else {
            Stage::Deal
        };
        BidEuchre {
            rules: *rules,
            state: HandState::resume(start, SEATS, phase),
            high: None,
            trump: None,
        }
    }

    fn rules(&self) -> &BidEuchreRules {
        &self.rules
    }

    fn legal_actions(&self, out: &mut ActionList) {
        let seat = self.state.to_act();
        match self.state.stage() {
            Stage::Auction => {
                if !self.is_dealer_forced(seat) {
                    out.push(Action::Pass);
                }
                let high = self.high_rank();
                let lowest = if self.high.is_some() && self.may_match(seat, high) {
                    high
                } else {
                    high + 1
                };
                out.try_extend_from_slice(&ALL_BIDS[(lowest as usize - 1) * 5..])
                    .expect("the bids fit in an action list");
            }
            Stage::Give => {
                let hand = self.state.held(seat);
                let n = self.exchange();
                match self.give_rule_trump() {
                    None => for_each_choice(hand, n, &[], |p| out.push(Action::Give(p))),
                    Some(trump) => {
                        let must: ArrayVec<Card, 2> =
                            highest_trumps(hand, trump, n).iter().collect();
                        let trumps = CardOrder::euchre(Some(trump)).cards_of(trump);
                        let rest = hand.without_faces(trumps);
                        for_each_choice(rest, n - must.len(), &must, |p| out.push(Action::Give(p)));
                    }
                }
            }
            Stage::Discard => {
                let hand = self.state.held(seat);
                for_each_choice(hand, self.exchange(), &[], |p| out.push(Action::Discard(p)));
            }
            Stage::Play => push_plays::<HAND_SIZE>(out, self.state.following()),
            Stage::Deal | Stage::GameOver | Stage::NameTrump => {}
        }
    }

    fn check(&self, action: Action) -> Result<(), Broken> {
        let stage = self.state.stage();
        let expected = match stage {
            Stage::Deal => return Err(Broken::DealDue),
            Stage::GameOver => return Err(Broken::GameOver),
            Stage::Auction => "a call: pass, bid 1 to 8 with a strain, call2, call1 or moon",
            Stage::Give => "the declarer's partner to give cards",
            Stage::Discard => "the declarer to discard",
            Stage::Play => "a card to be played",
            Stage::NameTrump => unreachable!("a Bid Euchre bid names trump"),
        };
        match (stage, action) {
            (Stage::Auction, Action::Pass | Action::BidStrain(..) | Action::Loner(..)) => {
                self.check_call(action)
            }
            (Stage::Give, Action::Give(pair)) => self.check_give(pair),
            (Stage::Discard, Action::Discard(pair)) => {
                self.check_exchange(pair, "discard").map(drop)
            }
            (Stage::Play, Action::Play(card)) => {
                let playable = self.state.following();
                self.state.check_play(card, playable, self.order(), || {
                    unreachable!("any card may lead")
                })
            }
            (_, Action::Bid(_) | Action::Kaibosh | Action::Misdeal | Action::Trump(_)) => {
                Err(Broken::NotInGame)
            }
            _ => Err(Broken::NotNow { expected }),
        }
    }

    fn apply_unchecked(&mut self, action: Action) {
        let seat = self.state.record(action);
        match action {
            Action::Pass | Action::BidStrain(..) | Action::Loner(..) => {
                if action != Action::Pass {
                    self.high = Some((seat, action));
                }
                if self.state.count_call() {
                    self.end_auction();
                }
            }
            Action::Give(pair) => {
                let declarer = seat.partner4();
                for &card in pair.cards() {
                    self.state.held_mut(seat).remove(card);
                    self.state.held_mut(declarer).insert(card);
                }
                self.state.give_turn(Stage::Discard, declarer);
            }
            Action::Discard(pair) => {
                for &card in pair.cards() {
                    self.state.held_mut(seat).remove(card);
                }
                self.state.start_play(seat);
            }
            Action::Play(card) => {
                if self.state.play(card, self.order(), false) == TrickEnd::LastTaken {
                    let points = self.hand_points(self.state.tricks());
                    self.finish_hand(HandOutcome::Played, points);
                }
            }
            Action::Bid(_) | Action::Kaibosh | Action::Misdeal | Action::Trump(_) => {
                unreachable!("not a Bid Euchre action: {action}")
            }
        }
    }

    fn deal(&mut self, hands: &[CardBag]) -> Result<(), DealError> {
        let hands = self
            .state
            .checked_deal(hands, HAND_SIZE, CardBag::double(DECK))?;
        self.start_hand(hands);
        Ok(())
    }

    fn deal_random(&mut self, rng: &mut GameRng) {
        debug_assert_eq!(self.state.stage(), Stage::Deal);
        // Each seat's faces held at least once, and twice.
        let mut once = [0u64; SEATS];
        let mut twice = [0u64; SEATS];
        shuffle::deal(&DOUBLE_DECK, &[HAND_SIZE; SEATS], rng, |seat, card| {
            let bit = 1u64 << card.index();
            twice[seat] |= once[seat] & bit;
            once[seat] |= bit;
        });
        let hands: [CardBag; SEATS] = std::array::from_fn(|s| {
            let mut hand = CardBag::from_set(CardSet(once[s]));
            CardSet(twice[s]).iter().for_each(|card| {
                hand.insert(card);
            });
            hand
        });
        self.start_hand(hands);
    }

    fn observation(&self, seat: Seat) -> Observation {
        let declarer = self.declarer();
        Observation {
            seat,
            start: self.hand_start(),
            dealt: self.state.dealt(seat),
            hand: self.state.held(seat),
            declared: self.declared(),
            actions: self
                .state
                .history()
                .iter()
                .map(|&(actor, action)| {
                    // Exchanged cards go face down: the giver and the declarer see a
                    // give, only the declarer its discard.
                    let seen = match action {
                        Action::Give(pair) if seat != actor && Some(seat) != declarer => {
                            SeenAction::HiddenGive(pair.len() as u8)
                        }
                        Action::Discard(pair) if seat != actor => {
                            SeenAction::HiddenDiscard(pair.len() as u8)
                        }
                        _ => SeenAction::Open(action),
                    };
                    (actor, seen)
                })
                .collect(),
        }
    }

    fn hand_summary(&self) -> HandSummary {
        self.state
            .summary(self.high, self.contract().map(strain_of))
    }

    fn hand_points(&self, tricks: [u8; 2]) -> [i32; 2] {
        let Some((declarer, contract)) = self.high else {
            return [0, 0];
        };
        let bidders = declarer.team().index();
        let taken = tricks[bidders];
        let mut points = [0; 2];
        // Defenders always score their tricks.
        points[1 - bidders] = i32::from(TRICKS - taken);
        points[bidders] = match contract {
            Action::BidStrain(level, _) if taken >= level => i32::from(taken),
            Action::BidStrain(level, _) => -i32::from(level),
            Action::Loner(loner, _) if taken == TRICKS => loner_points(loner),
            Action::Loner(loner, _) => -loner_points(loner),
            _ => unreachable!("a Bid Euchre contract is a level or loner bid"),
        };
        points
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.score_outcome()
    }

    fn goal(&self) -> Goal {
        Goal {
            target: None,
            deals: Some(self.rules.deals),
        }
    }
}
