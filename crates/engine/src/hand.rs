//! The machinery of a hand that every game here shares: dealing, turn order over the
//! seats in play, the calls of a one-round auction, the trick in play and its winner,
//! the tricks taken, and finishing the hand on the [`Table`]. Each game keeps only its
//! own rules (what may be called, led and followed, what a hand scores) and drives this
//! through them, so a rule common to the games lives here once.

use std::fmt;

use arrayvec::ArrayVec;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::action::{Action, Strain};
use crate::card::Card;
use crate::card_set::{CardBag, CardSet};
use crate::game::{
    check_deal, Broken, DealError, Declared, HandOutcome, HandStart, HandSummary, Observation,
    Outcome, Turn,
};
use crate::game::{Phase, TrickState};
use crate::seat::Seat;
use crate::table::Table;
use crate::trick::{self, CardOrder, Trick};

/// A seat's cards as a game keeps them: a set (single deck) or a bag (double deck).
pub(crate) trait Held:
    Copy + Eq + fmt::Debug + Send + Sync + Serialize + DeserializeOwned
{
    /// No cards.
    const EMPTY: Self;
    /// The cards of a dealt hand (already checked against the deck).
    fn from_bag(bag: CardBag) -> Self;
    /// The cards as a bag, as observations give them.
    fn bag(self) -> CardBag;
    /// Removes one copy of `card`.
    fn take(&mut self, card: Card);
}

impl Held for CardSet {
    const EMPTY: CardSet = CardSet::EMPTY;

    fn from_bag(bag: CardBag) -> CardSet {
        bag.faces()
    }

    #[inline]
    fn bag(self) -> CardBag {
        CardBag::from_set(self)
    }

    #[inline]
    fn take(&mut self, card: Card) {
        self.remove(card);
    }
}

impl Held for CardBag {
    const EMPTY: CardBag = CardBag::EMPTY;

    fn from_bag(bag: CardBag) -> CardBag {
        bag
    }

    #[inline]
    fn bag(self) -> CardBag {
        self
    }

    #[inline]
    fn take(&mut self, card: Card) {
        self.remove(card);
    }
}

/// Where a game stands. Each game passes through the stages its rules have: a bid names
/// trump in Bid Euchre (no `NameTrump`), only Bid Euchre exchanges (`Give`, `Discard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Stage {
    /// Waiting for the next deal.
    Deal,
    Auction,
    NameTrump,
    /// The loner's partner gives cards.
    Give,
    /// The loner discards.
    Discard,
    Play,
    GameOver,
}

/// What a card played did to its trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TrickEnd {
    /// The trick goes on; the next seat in play is to play.
    Open,
    /// The trick was taken and its winner leads the next.
    Taken,
    /// The hand's last trick was taken: the hand is played out, to be scored.
    LastTaken,
}

/// One game's table and current hand, for games of at most `SEATS` seats and at most
/// `ACTIONS` actions a hand, each seat holding cards as `C`.
///
/// Games flatten it into their serialized form, so its field names are theirs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(
    serialize = "[C; SEATS]: Serialize",
    deserialize = "[C; SEATS]: Deserialize<'de>"
))]
pub(crate) struct HandState<C: Held, const SEATS: usize, const ACTIONS: usize> {
    /// Deal count, dealer, scores and the hand's result.
    #[serde(flatten)]
    table: Table,
    /// Seats at the table (`SEATS` or fewer).
    seats: u8,
    phase: Stage,
    to_act: Seat,
    hands: [C; SEATS],
    dealt: [C; SEATS],
    /// Calls made so far in the auction.
    calls: u8,
    /// The seat out of play this hand (a loner's partner), if any.
    out: Option<Seat>,
    trick: Trick,
    /// The cards that follow the trick's suit: the seat to play must play one of them if
    /// it holds any. Empty until a card sets the suit (the lead, or the card after a
    /// dead lead).
    follow: CardSet,
    /// Whether the trick was led dead: a card that sets no suit and wins nothing (a
    /// Kout Bo joker led when it may not be led live).
    dead_lead: bool,
    /// The cards that can take the trick: those that follow, and trumps.
    contenders: CardSet,
    /// The card winning the trick so far as a key whose greatest value wins: see
    /// [`HandState::play`]. Its low three bits are the winner's seat.
    best: u16,
    tricks: [u8; 2],
    history: ArrayVec<(Seat, Action), ACTIONS>,
}

impl<C: Held, const SEATS: usize, const ACTIONS: usize> HandState<C, SEATS, ACTIONS> {
    /// A game of `seats` seats continued at `start`, before its deal (or over, at
    /// `phase` [`Stage::GameOver`]).
    pub(crate) fn resume(start: HandStart, seats: usize, phase: Stage) -> Self {
        debug_assert!(seats <= SEATS);
        HandState {
            table: Table::resume(start, seats),
            seats: seats as u8,
            phase,
            to_act: start.dealer,
            hands: [C::EMPTY; SEATS],
            dealt: [C::EMPTY; SEATS],
            calls: 0,
            out: None,
            trick: Trick::new(start.dealer),
            follow: CardSet::EMPTY,
            dead_lead: false,
            contenders: CardSet::EMPTY,
            best: 0,
            tricks: [0, 0],
            history: ArrayVec::new(),
        }
    }

    /// The table: deals played, dealer, scores.
    #[inline]
    pub(crate) fn table(&self) -> &Table {
        &self.table
    }

    /// Seats at the table.
    #[inline]
    pub(crate) fn seats(&self) -> usize {
        self.seats as usize
    }

    /// The current stage.
    #[inline]
    pub(crate) fn stage(&self) -> Stage {
        self.phase
    }

    /// The seat to act.
    #[inline]
    pub(crate) fn to_act(&self) -> Seat {
        self.to_act
    }

    /// The cards `seat` holds.
    #[inline]
    pub(crate) fn held(&self, seat: Seat) -> C {
        self.hands[seat.index()]
    }

    /// The cards `seat` holds, to change (an exchange).
    pub(crate) fn held_mut(&mut self, seat: Seat) -> &mut C {
        &mut self.hands[seat.index()]
    }

    /// The cards `seat` was dealt this hand.
    #[inline]
    pub(crate) fn dealt(&self, seat: Seat) -> C {
        self.dealt[seat.index()]
    }

    /// The seat out of play this hand, if any.
    #[inline]
    pub(crate) fn out(&self) -> Option<Seat> {
        self.out
    }

    /// Puts `seat` out of play for the rest of the hand.
    pub(crate) fn set_out(&mut self, seat: Seat) {
        self.out = Some(seat);
    }

    /// The trick being played.
    #[inline]
    pub(crate) fn trick(&self) -> &Trick {
        &self.trick
    }

    /// Whether the trick was led dead (see [`HandState::play`]).
    pub(crate) fn dead_lead(&self) -> bool {
        self.dead_lead
    }

    /// Tricks taken per team this hand.
    #[inline]
    pub(crate) fn tricks(&self) -> [u8; 2] {
        self.tricks
    }

    /// Every action of this hand, with its seat.
    pub(crate) fn history(&self) -> &[(Seat, Action)] {
        &self.history
    }

    /// Whose turn it is.
    #[inline]
    pub(crate) fn turn(&self) -> Turn {
        match self.phase {
            Stage::Deal => Turn::Chance,
            Stage::GameOver => Turn::Over,
            _ => Turn::Seat(self.to_act),
        }
    }

    /// The stage as a screen names it.
    pub(crate) fn phase(&self) -> Phase {
        match self.phase {
            Stage::Deal => self.table.between_hands(),
            Stage::Auction => Phase::Auction,
            Stage::NameTrump => Phase::TrumpNaming,
            Stage::Give | Stage::Discard => Phase::Exchange,
            Stage::Play => Phase::Play,
            Stage::GameOver => Phase::GameOver,
        }
    }

    /// The hands of a deal given seat by seat, once it is checked: a deal must be due,
    /// and be a deal of `hand_size` cards a seat from `deck`.
    pub(crate) fn checked_deal(
        &self,
        hands: &[CardBag],
        hand_size: usize,
        deck: CardBag,
    ) -> Result<[C; SEATS], DealError> {
        if self.phase != Stage::Deal {
            return Err(DealError::NotDue);
        }
        check_deal(hands, self.seats(), hand_size, deck)?;
        let mut out = [C::EMPTY; SEATS];
        for (held, hand) in out.iter_mut().zip(hands) {
            *held = C::from_bag(*hand);
        }
        Ok(out)
    }

    /// Opens the next hand with `hands` dealt: the auction starts left of its dealer.
    #[inline]
    pub(crate) fn start(&mut self, hands: [C; SEATS]) {
        self.table.start_hand(self.seats());
        self.hands = hands;
        self.dealt = hands;
        self.calls = 0;
        self.out = None;
        self.tricks = [0, 0];
        self.history.clear();
        self.give_turn(Stage::Auction, self.table.dealer().next(self.seats()));
        self.start_trick(self.to_act);
    }

    /// Notes `action` in the hand's history; returns the seat that made it (the seat to
    /// act).
    #[inline]
    pub(crate) fn record(&mut self, action: Action) -> Seat {
        self.history.push((self.to_act, action));
        self.to_act
    }

    /// Counts a call of the one-round auction: returns whether every seat has called,
    /// else passes the turn to the next seat.
    #[inline]
    pub(crate) fn count_call(&mut self) -> bool {
        self.calls += 1;
        if self.calls == self.seats {
            return true;
        }
        self.to_act = self.next_in_play(self.to_act);
        false
    }

    /// Moves to `phase` with `seat` to act.
    #[inline]
    pub(crate) fn give_turn(&mut self, phase: Stage, seat: Seat) {
        self.phase = phase;
        self.to_act = seat;
    }

    /// Starts the card play: `leader` leads the first trick.
    pub(crate) fn start_play(&mut self, leader: Seat) {
        self.phase = Stage::Play;
        self.start_trick(leader);
    }

    /// Starts an empty trick led by `leader`.
    #[inline]
    fn start_trick(&mut self, leader: Seat) {
        self.trick = Trick::new(leader);
        self.to_act = leader;
        self.follow = CardSet::EMPTY;
        self.contenders = CardSet::EMPTY;
        self.dead_lead = false;
    }

    /// The seat winning the trick so far (meaningless before the lead).
    #[inline]
    fn winner(&self) -> Seat {
        Seat((self.best & 7) as u8)
    }

    /// The seat in play after `seat`, passing over the seat out. No division: the hot
    /// path of every card played.
    #[inline]
    fn next_in_play(&self, seat: Seat) -> Seat {
        let step = |s: u8| if s + 1 == self.seats { 0 } else { s + 1 };
        let next = step(seat.0);
        if self.out == Some(Seat(next)) {
            Seat(step(next))
        } else {
            Seat(next)
        }
    }

    /// The cards the seat to act may play by the rule of following suit: those that
    /// follow the trick's suit if it holds any, else all (every card before the lead).
    #[inline]
    pub(crate) fn following(&self) -> CardSet {
        trick::follow(self.hands[self.to_act.index()].bag().faces(), self.follow)
    }

    /// Whether the seat to act may play `card`, `playable` being the cards its game lets
    /// it play now: a card not held, or one that does not follow the trick's suit, is
    /// refused; a lead the game refuses is refused as `refused_lead` says.
    pub(crate) fn check_play(
        &self,
        card: Card,
        playable: CardSet,
        order: &CardOrder,
        refused_lead: impl FnOnce() -> Broken,
    ) -> Result<(), Broken> {
        if !self.hands[self.to_act.index()].bag().faces().contains(card) {
            Err(Broken::NotHeld(card))
        } else if playable.contains(card) {
            Ok(())
        } else if let Some(suit_card) = self.follow.iter().next() {
            Err(Broken::MustFollow(order.suit_of(suit_card)))
        } else {
            Err(refused_lead())
        }
    }

    /// Plays `card` for the seat to act under `order`. A lead sets the suit to follow
    /// and wins so far, unless it is `dead`: then the next card sets the suit and takes
    /// the trick from it. A later card takes the trick if it beats the best so far (the
    /// first of two equal cards wins). Once every seat in play has played, the winner
    /// takes the trick and leads the next, if cards are left.
    #[inline]
    pub(crate) fn play(&mut self, card: Card, order: &CardOrder, dead: bool) -> TrickEnd {
        let seat = self.to_act;
        self.hands[seat.index()].take(card);
        let sets_suit = if self.trick.is_empty() {
            self.dead_lead = dead;
            self.best = 0;
            !dead
        } else {
            self.follow.is_empty()
        };
        if sets_suit {
            self.follow = order.cards_of(order.suit_of(card));
        }
        if sets_suit {
            self.contenders = self.follow.or(order.trumps());
        }
        // The winner is kept card by card without a branch (which card wins is
        // unpredictable): a card that can take the trick ranks by its strength (trumps
        // above the suit led), one that cannot as 0; then the earlier card, which
        // settles equal cards of a double deck; the seat is in the low bits.
        let strength = u16::from(self.contenders.contains(card)) * u16::from(order.strength(card));
        let earlier = 7 - self.trick.len() as u16;
        self.best = self
            .best
            .max(strength << 6 | earlier << 3 | u16::from(seat.0));
        self.trick.push(card);
        let in_play = self.seats() - usize::from(self.out.is_some());
        if self.trick.len() < in_play {
            self.to_act = self.next_in_play(seat);
            return TrickEnd::Open;
        }
        let winner = self.winner();
        self.tricks[winner.team().index()] += 1;
        // Every seat in play holds as many cards as the others: the winner's last card
        // was the hand's.
        if self.hands[winner.index()].bag().is_empty() {
            TrickEnd::LastTaken
        } else {
            self.start_trick(winner);
            TrickEnd::Taken
        }
    }

    /// Closes the hand with `outcome`, adding `points` to the scores; the next deal is
    /// due (see [`HandState::end_game`]).
    pub(crate) fn finish(&mut self, outcome: HandOutcome, points: [i32; 2]) {
        self.table.finish_hand(outcome, points);
        self.phase = Stage::Deal;
    }

    /// Ends the game after the hand just finished.
    pub(crate) fn end_game(&mut self) {
        self.phase = Stage::GameOver;
    }

    /// The result of a game decided on the scores alone, once it is over.
    pub(crate) fn score_outcome(&self) -> Option<Outcome> {
        (self.phase == Stage::GameOver).then(|| self.table.score_outcome())
    }

    /// The hand's summary, given the high bid with its bidder and trump (or no-trump).
    /// They show once the auction is won and stay on a played hand; a hand that ended
    /// otherwise (a misdeal, all passes) has none.
    pub(crate) fn summary(
        &self,
        high: Option<(Seat, Action)>,
        trump: Option<Strain>,
    ) -> HandSummary {
        let show = self.table.played_out()
            || matches!(
                self.phase,
                Stage::NameTrump | Stage::Give | Stage::Discard | Stage::Play
            );
        let high = high.filter(|_| show);
        HandSummary {
            dealer: self.table.dealer(),
            outcome: self.table.outcome(),
            declarer: high.map(|(seat, _)| seat),
            contract: high.map(|(_, bid)| bid),
            trump: trump.filter(|_| show),
            tricks: self.tricks,
            points: self.table.points(),
        }
    }

    /// The trick on the table: during the play, and the last one of a played-out hand.
    pub(crate) fn current_trick(&self) -> Option<TrickState> {
        (self.phase == Stage::Play || self.table.played_out()).then(|| TrickState {
            leader: self.trick.leader,
            winning: (!self.trick.is_empty()).then(|| self.winner()),
        })
    }

    /// The observation of `seat` in a game where every action is seen by every seat.
    pub(crate) fn open_observation(&self, seat: Seat, declared: Declared) -> Observation {
        Observation::open(
            seat,
            self.table.hand_start(),
            self.dealt(seat).bag(),
            self.held(seat).bag(),
            &self.history,
            declared,
        )
    }
}

/// The [`Game`](crate::Game) methods that a game answers from its [`HandState`] alone,
/// for a game that keeps it in a field `state`: expanded inside its `impl Game`.
macro_rules! hand_state_methods {
    () => {
        fn seats(&self) -> usize {
            self.state.seats()
        }

        #[inline]
        fn turn(&self) -> $crate::game::Turn {
            self.state.turn()
        }

        fn hand(&self, seat: $crate::seat::Seat) -> $crate::card_set::CardBag {
            $crate::hand::Held::bag(self.state.held(seat))
        }

        fn trick(&self) -> &$crate::trick::Trick {
            self.state.trick()
        }

        fn hand_start(&self) -> $crate::game::HandStart {
            self.state.table().hand_start()
        }

        fn scores(&self) -> [i32; 2] {
            self.state.table().scores()
        }

        fn phase(&self) -> $crate::game::Phase {
            self.state.phase()
        }

        fn sitting_out(&self) -> Option<$crate::seat::Seat> {
            self.state.out()
        }

        fn current_trick(&self) -> Option<$crate::game::TrickState> {
            self.state.current_trick()
        }
    };
}
pub(crate) use hand_state_methods;
