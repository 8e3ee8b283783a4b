//! Kout Bo: two partnerships (three a side in `kout6`, two in `kout4`), nine cards each,
//! two jokers that rank as trumps, a one-round auction from 5 (Bab) to 9 (Bawan), and
//! the rules on when a joker may be led.
//!
//! Rules: `rules/kout-bo.txt` with the Kout Bo rulings of `RULINGS.md`.

use serde::{Deserialize, Serialize};

use crate::action::{Action, Strain};
use crate::card::{Card, Suit, ACE, JACK};
use crate::card_set::{CardBag, CardSet};
use crate::game::Goal;
use crate::game::{
    push_first, push_plays, ActionList, AllPass, Broken, DealError, Game, HandOutcome, HandStart,
    HandSummary, Observation, Outcome,
};
use crate::hand::{hand_state_methods, HandState, Stage, TrickEnd};
use crate::seat::{Seat, Team};
use crate::shuffle;
use crate::trick::CardOrder;
use crate::GameRng;

/// The most seats at a Kout table.
const MAX_SEATS: usize = 6;
const HAND_SIZE: usize = 9;
/// The lowest bid (Bab) and the highest (Bawan).
const LOWEST_BID: u8 = 5;
const BAWAN: u8 = 9;
/// Every bid by the name the rules give it, Bab (5) to Bawan (9); Malzom is a
/// contract, not a call.
pub const CALL_NAMES: [(Action, &str); 5] = [
    (Action::Bid(LOWEST_BID), "Bab"),
    (Action::Bid(6), "Six"),
    (Action::Bid(7), "Seven"),
    (Action::Bid(8), "Eight"),
    (Action::Bid(BAWAN), "Bawan"),
];
/// Most actions in one hand: six calls, trump, 54 cards.
const MAX_HAND_ACTIONS: usize = 61;
/// A made Bawan scores this much.
const BAWAN_MADE: i32 = 36;
/// A team at this score wins while the other has none.
pub const SHUTOUT_TARGET: i32 = 51;
/// A team at this score wins.
pub const TARGET: i32 = 101;

/// The Kout Bo 6 deck: 52 cards and both jokers.
pub const DECK6: CardSet = CardSet::ranks(2, ACE).or(CardSet::JOKERS);
/// The text's Kout Bo 4 deck: 6 to ace and both jokers, 38 cards for 36 places.
pub const DECK4_FULL: CardSet = CardSet::ranks(6, ACE).or(CardSet::JOKERS);
/// The default Kout Bo 4 deck: the full one less the black sixes, 36 cards.
pub const DECK4: CardSet = DECK4_FULL.minus(
    CardSet::single(Card::new(6, Suit::Spades)).or(CardSet::single(Card::new(6, Suit::Clubs))),
);

/// A deck's cards in index order, for dealing; slots past its size are unused.
const fn deck_cards(deck: CardSet) -> [Card; 54] {
    let mut cards = [Card::RED_JOKER; 54];
    let mut bits = deck.0;
    let mut i = 0;
    while bits != 0 {
        cards[i] = match Card::from_index(bits.trailing_zeros() as u8) {
            Some(card) => card,
            None => panic!("a deck holds only cards"),
        };
        bits &= bits - 1;
        i += 1;
    }
    cards
}

static DECK6_CARDS: [Card; 54] = deck_cards(DECK6);
static DECK4_CARDS: [Card; 54] = deck_cards(DECK4);
static DECK4_FULL_CARDS: [Card; 54] = deck_cards(DECK4_FULL);

/// Six players (`kout6`) or four (`kout4`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Kout Bo 6: six seats, 54 cards.
    #[default]
    Six,
    /// Kout Bo 4: four seats, 36 cards dealt.
    Four,
}

impl Variant {
    /// Seats at the table.
    pub const fn seats(self) -> usize {
        match self {
            Variant::Six => 6,
            Variant::Four => 4,
        }
    }
}

/// When a joker may be led (RULINGS.md, Kout Bo 6). Under every choice the leader's
/// team may lead either joker on a contract of 9, and `RJ` on a contract of 8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JokerLead {
    /// Also once trump A, K, Q and J have all been played this hand.
    #[default]
    Standard,
    /// Only on the contract.
    ContractOnly,
    /// Also once every trump-suit card of the deck has been played.
    AllTrumpsPlayed,
    /// Also once the trump ace has been played; and the maker, if not dealt the trump
    /// ace, at any time.
    TrumpAcePlayed,
}

impl JokerLead {
    /// Why a joker lead was refused under this rule.
    const fn requirement(self) -> &'static str {
        match self {
            JokerLead::Standard => {
                "the leader's team must hold the contract at 9, or at 8 for RJ, \
                 or trump A, K, Q and J must all have been played"
            }
            JokerLead::ContractOnly => {
                "the leader's team must hold the contract at 9, or at 8 for RJ"
            }
            JokerLead::AllTrumpsPlayed => {
                "the leader's team must hold the contract at 9, or at 8 for RJ, \
                 or every trump must have been played"
            }
            JokerLead::TrumpAcePlayed => {
                "the leader's team must hold the contract at 9, or at 8 for RJ, \
                 or the trump ace must have been played, or the leader must be the maker \
                 and not have been dealt the trump ace"
            }
        }
    }
}

/// The Kout Bo 4 deck (ignored in `kout6`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kout4Deck {
    /// 6S and 6C removed: 36 cards, all dealt.
    #[default]
    NoBlackSixes,
    /// All 38 cards; two are left undealt, unseen.
    TwoUndealt,
}

/// Variant and options of a Kout Bo game (see NOTATION.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KoutRules {
    /// Six or four players.
    pub variant: Variant,
    /// When a joker may be led.
    pub joker_lead: JokerLead,
    /// The `kout4` deck.
    pub deck: Kout4Deck,
}

impl KoutRules {
    /// The jokers `seat` may lead live whatever has been played: its team's by the
    /// contract `(maker, bid)` (either joker on 9, `RJ` on 8), and under
    /// [`JokerLead::TrumpAcePlayed`] both for a maker not dealt the trump ace.
    pub fn free_jokers(
        &self,
        seat: Seat,
        (maker, bid): (Seat, u8),
        maker_has_ace: bool,
    ) -> CardSet {
        if self.joker_lead == JokerLead::TrumpAcePlayed && seat == maker && !maker_has_ace {
            CardSet::JOKERS
        } else if seat.team() != maker.team() {
            CardSet::EMPTY
        } else if bid == BAWAN {
            CardSet::JOKERS
        } else if bid == 8 {
            CardSet::single(Card::RED_JOKER)
        } else {
            CardSet::EMPTY
        }
    }

    /// The cards that, once all played, let any seat lead a joker live; `None` under
    /// [`JokerLead::ContractOnly`].
    pub fn joker_gate(&self, trump: Suit) -> Option<CardSet> {
        let trumps = CardSet::suit(trump);
        match self.joker_lead {
            JokerLead::Standard => Some(CardSet::ranks(JACK, ACE).and(trumps)),
            JokerLead::ContractOnly => None,
            JokerLead::AllTrumpsPlayed => Some(self.deck().and(trumps)),
            JokerLead::TrumpAcePlayed => Some(CardSet::single(Card::new(ACE, trump))),
        }
    }

    /// The cards the game is dealt from.
    pub const fn deck(&self) -> CardSet {
        match (self.variant, self.deck) {
            (Variant::Six, _) => DECK6,
            (Variant::Four, Kout4Deck::NoBlackSixes) => DECK4,
            (Variant::Four, Kout4Deck::TwoUndealt) => DECK4_FULL,
        }
    }
}

/// A game of Kout Bo.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kout {
    rules: KoutRules,
    /// The table and the hand's deal, turn, tricks and history, flattened so that the
    /// serialized state keeps its field names.
    #[serde(flatten)]
    state: HandState<CardSet, MAX_SEATS, MAX_HAND_ACTIONS>,
    winner: Option<Team>,
    /// Cards played this hand. Joker leads consult it only at a lead, when every card
    /// in it was played to an earlier trick.
    played: CardSet,
    /// The high bid and its bidder.
    high: Option<(Seat, u8)>,
    trump: Option<Suit>,
}

/// Points for a contract of `bid`: (made, failed). `malzom` is the dealer's forced 5.
pub const fn contract_points(bid: u8, malzom: bool) -> (i32, i32) {
    match bid {
        BAWAN => (BAWAN_MADE, 18),
        5 if malzom => (5, 5),
        n => (n as i32, 2 * n as i32),
    }
}

impl Kout {
    fn order(&self) -> &'static CardOrder {
        CardOrder::kout(self.trump.expect("trump is named before play"))
    }

    /// Whether the current trick was led with a dead joker (it can win nothing).
    pub fn dead_lead(&self) -> bool {
        self.state.dead_lead()
    }

    /// The trump suit once named.
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    /// The maker and the contract (5..9), once bid.
    pub fn contract(&self) -> Option<(Seat, u8)> {
        self.high
    }

    /// Whether the contract is Malzom: the dealer's forced bid of exactly 5.
    pub fn is_malzom(&self) -> bool {
        // A 5 can only be bid when nobody bid before, so the dealer's 5 is the forced one.
        self.high == Some((self.state.table().dealer(), LOWEST_BID))
    }

    fn is_dealer_forced(&self, seat: Seat) -> bool {
        AllPass::DealerMustBid.forces(seat, self.state.table().dealer(), self.high.is_some())
    }

    /// Whether `seat` may lead `joker` live now.
    fn may_lead_joker(&self, seat: Seat, joker: Card) -> bool {
        let contract = self.high.expect("play follows the auction");
        let trump = self.trump.expect("play follows naming trump");
        let maker_has_ace = self.state.dealt(contract.0).contains(Card::new(ACE, trump));
        self.rules
            .free_jokers(seat, contract, maker_has_ace)
            .contains(joker)
            || self
                .rules
                .joker_gate(trump)
                .is_some_and(|gate| self.played.and(gate) == gate)
    }

    /// The cards the seat to act may lead: any but a joker it may not lead live, unless
    /// it holds nothing else (then any joker, led dead).
    fn leadable(&self) -> CardSet {
        let seat = self.state.to_act();
        let hand = self.state.held(seat);
        let mut lead = hand.minus(CardSet::JOKERS);
        for joker in hand.and(CardSet::JOKERS) {
            if self.may_lead_joker(seat, joker) {
                lead.insert(joker);
            }
        }
        if lead.is_empty() {
            hand
        } else {
            lead
        }
    }

    /// The cards the seat to act may play now.
    #[inline]
    fn playable(&self) -> CardSet {
        if self.state.trick().is_empty() {
            return self.leadable();
        }
        // A joker may always be played to a trick another seat led (after a dead joker
        // every card is free).
        let hand = self.state.held(self.state.to_act());
        self.state.following().or(hand.and(CardSet::JOKERS))
    }

    fn check_call(&self, action: Action) -> Result<(), Broken> {
        match action {
            Action::Pass if self.is_dealer_forced(self.state.to_act()) => {
                Err(Broken::DealerMustBid)
            }
            Action::Pass => Ok(()),
            Action::Bid(n) if !(LOWEST_BID..=BAWAN).contains(&n) => Err(Broken::BidOutOfRange {
                low: LOWEST_BID,
                high: BAWAN,
            }),
            Action::Bid(n) => match self.high {
                Some((_, h)) if n <= h => Err(Broken::BidTooLow {
                    high: Action::Bid(h),
                }),
                _ => Ok(()),
            },
            _ => unreachable!("only calls reach check_call"),
        }
    }

    fn check_play(&self, card: Card) -> Result<(), Broken> {
        self.state
            .check_play(card, self.playable(), self.order(), || {
                Broken::JokerLead(self.rules.joker_lead.requirement())
            })
    }

    fn score_hand(&mut self) {
        let (maker, bid) = self.high.expect("a played hand has a contract");
        let makers = maker.team();
        let tricks = self.state.tricks();
        let made = tricks[makers.index()] >= bid;
        let points = self.hand_points(tricks);
        let scorers = if made { makers } else { makers.other() };
        let first_hand = self.state.table().deals_played() == 0;
        self.state.finish(HandOutcome::Played, points);
        // Only one team scores on a hand, and the game ends as soon as a team wins, so a
        // win can only be the scoring team's.
        let scores = self.state.table().scores();
        let mine = scores[scorers.index()];
        let theirs = scores[scorers.other().index()];
        let wins = (first_hand && made && bid == BAWAN)
            || mine >= TARGET
            || (mine >= SHUTOUT_TARGET && theirs == 0);
        if wins {
            self.winner = Some(scorers);
            self.state.end_game();
        }
    }

    fn start_hand(&mut self, hands: [CardSet; MAX_SEATS]) {
        self.state.start(hands);
        self.played = CardSet::EMPTY;
        self.high = None;
        self.trump = None;
    }

    fn play_card(&mut self, seat: Seat, card: Card) {
        // A joker led when it may not be led live is dead: it sets no suit, wins nothing.
        let dead =
            self.state.trick().is_empty() && card.is_joker() && !self.may_lead_joker(seat, card);
        self.played.insert(card);
        if self.state.play(card, self.order(), dead) == TrickEnd::LastTaken {
            self.score_hand();
        }
    }
}

impl Game for Kout {
    type Rules = KoutRules;

    hand_state_methods!();

    fn resume(rules: &KoutRules, start: HandStart) -> Kout {
        Kout {
            rules: *rules,
            state: HandState::resume(start, rules.variant.seats(), Stage::Deal),
            winner: None,
            played: CardSet::EMPTY,
            high: None,
            trump: None,
        }
    }

    fn rules(&self) -> &KoutRules {
        &self.rules
    }

    #[inline]
    fn legal_actions(&self, out: &mut ActionList) {
        match self.state.stage() {
            Stage::Auction => {
                if !self.is_dealer_forced(self.state.to_act()) {
                    out.push(Action::Pass);
                }
                let lowest = self.high.map_or(LOWEST_BID, |(_, h)| h + 1);
                let bids: [Action; (BAWAN - LOWEST_BID + 1) as usize] =
                    std::array::from_fn(|k| Action::Bid(lowest + k as u8));
                push_first(out, bids, usize::from(BAWAN + 1 - lowest));
            }
            Stage::NameTrump => out.extend(Suit::ALL.map(Action::Trump)),
            Stage::Play => push_plays::<HAND_SIZE>(out, self.playable()),
            Stage::Deal | Stage::GameOver | Stage::Give | Stage::Discard => {}
        }
    }

    fn check(&self, action: Action) -> Result<(), Broken> {
        let stage = self.state.stage();
        let expected = match stage {
            Stage::Deal => return Err(Broken::DealDue),
            Stage::GameOver => return Err(Broken::GameOver),
            Stage::Auction => "a call: pass or bid 5 to 9",
            Stage::NameTrump => "the maker to name trump",
            Stage::Play => "a card to be played",
            Stage::Give | Stage::Discard => unreachable!("Kout Bo has no exchange"),
        };
        match (stage, action) {
            (Stage::Auction, Action::Pass | Action::Bid(_)) => self.check_call(action),
            (Stage::NameTrump, Action::Trump(_)) => Ok(()),
            (Stage::Play, Action::Play(card)) => self.check_play(card),
            (
                _,
                Action::BidStrain(..)
                | Action::Loner(..)
                | Action::Kaibosh
                | Action::Misdeal
                | Action::Give(_)
                | Action::Discard(_),
            ) => Err(Broken::NotInGame),
            _ => Err(Broken::NotNow { expected }),
        }
    }

    #[inline]
    fn apply_unchecked(&mut self, action: Action) {
        let seat = self.state.record(action);
        match action {
            Action::Pass | Action::Bid(_) => {
                if let Action::Bid(n) = action {
                    self.high = Some((seat, n));
                }
                if self.state.count_call() || action == Action::Bid(BAWAN) {
                    // Somebody bid: the dealer cannot pass when all others have.
                    let (maker, _) = self.high.expect("the auction always has a maker");
                    self.state.give_turn(Stage::NameTrump, maker);
                }
            }
            Action::Trump(suit) => {
                self.trump = Some(suit);
                self.state.start_play(seat);
            }
            Action::Play(card) => self.play_card(seat, card),
            Action::BidStrain(..)
            | Action::Loner(..)
            | Action::Kaibosh
            | Action::Misdeal
            | Action::Give(_)
            | Action::Discard(_) => unreachable!("not a Kout Bo action: {action}"),
        }
    }

    fn deal(&mut self, hands: &[CardBag]) -> Result<(), DealError> {
        let hands =
            self.state
                .checked_deal(hands, HAND_SIZE, CardBag::from_set(self.rules.deck()))?;
        self.start_hand(hands);
        Ok(())
    }

    fn deal_random(&mut self, rng: &mut GameRng) {
        debug_assert_eq!(self.state.stage(), Stage::Deal);
        let seats = self.state.seats();
        let (cards, size) = match (self.rules.variant, self.rules.deck) {
            (Variant::Six, _) => (&DECK6_CARDS, DECK6.len()),
            (Variant::Four, Kout4Deck::NoBlackSixes) => (&DECK4_CARDS, DECK4.len()),
            (Variant::Four, Kout4Deck::TwoUndealt) => (&DECK4_FULL_CARDS, DECK4_FULL.len()),
        };
        // A hand for each seat in play, then the cards left undealt (two under
        // `two-undealt`).
        let mut sizes = [0; MAX_SEATS + 1];
        sizes[..seats].fill(HAND_SIZE);
        sizes[MAX_SEATS] = size - seats * HAND_SIZE;
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        shuffle::deal(&cards[..size], &sizes, rng, |pile, card| {
            if let Some(hand) = hands.get_mut(pile) {
                hand.insert(card);
            }
        });
        self.start_hand(hands);
    }

    fn observation(&self, seat: Seat) -> Observation {
        self.state.open_observation(seat, self.declared())
    }

    fn hand_summary(&self) -> HandSummary {
        let high = self.high.map(|(maker, bid)| (maker, Action::Bid(bid)));
        self.state.summary(high, self.trump.map(Strain::Suit))
    }

    fn hand_points(&self, tricks: [u8; 2]) -> [i32; 2] {
        let Some((maker, bid)) = self.high else {
            return [0, 0];
        };
        let makers = maker.team().index();
        let (made_points, failed_points) = contract_points(bid, self.is_malzom());
        let mut points = [0; 2];
        if tricks[makers] >= bid {
            points[makers] = made_points;
        } else {
            points[1 - makers] = failed_points;
        }
        points
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Winner)
    }

    fn goal(&self) -> Goal {
        Goal {
            target: Some(TARGET),
            deals: None,
        }
    }
}
