//! The interface every game implements, and the types it speaks in.

use std::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize, Serializer};

use crate::action::{Action, Strain};
use crate::card::{serde_as_text, Card, Suit};
use crate::card_set::{CardBag, CardSet};
use crate::seat::{Seat, Team};
use crate::trick::Trick;
use crate::GameRng;

/// The most legal actions any decision of any game offers (Bid Euchre's two-card
/// discard from ten cards: 45).
pub const MAX_ACTIONS: usize = 64;

/// The legal actions of one decision, on the stack.
pub type ActionList = ArrayVec<Action, MAX_ACTIONS>;

/// Appends the first `count` of `actions` to `out`. All are copied and the list cut back,
/// so no loop exit depends on `count`: listing a varying number of cards or bids costs no
/// mispredicted branch.
#[inline(always)]
pub(crate) fn push_first<const N: usize>(out: &mut ActionList, actions: [Action; N], count: usize) {
    debug_assert!(count <= N);
    let len = out.len();
    match out.try_extend_from_slice(&actions) {
        Ok(()) => out.truncate(len + count),
        Err(_) => push_each(out, &actions[..count]),
    }
}

/// Appends a play of each card of `cards` (at most `MAX` of them), in index order, with
/// `push_first`.
#[inline(always)]
pub(crate) fn push_plays<const MAX: usize>(out: &mut ActionList, cards: CardSet) {
    debug_assert!(cards.len() <= MAX);
    let mut rest = cards.0;
    let mut count = 0;
    let plays: [Action; MAX] = std::array::from_fn(|_| {
        count += usize::from(rest != 0);
        // Past the last card this is the card at index 0, cut away by push_first.
        let card = Card::from_valid_index(rest.trailing_zeros() as u8 & 63);
        rest &= rest.wrapping_sub(1);
        Action::Play(card)
    });
    push_first(out, plays, count);
}

/// Appends `actions` one by one: `push_first` when the list is nearly full.
#[cold]
fn push_each(out: &mut ActionList, actions: &[Action]) {
    out.extend(actions.iter().copied());
}

/// Who moves next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Turn {
    /// This seat acts.
    Seat(Seat),
    /// A hand is to be dealt: chance moves.
    Chance,
    /// The game is over.
    Over,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This team won.
    Winner(Team),
    /// Level at the end: a draw.
    Draw,
}

impl<'de> Deserialize<'de> for Outcome {
    /// A team number, or `"draw"`, as [`Outcome`] is written.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Outcome, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Team(u8),
            Word(String),
        }
        match Written::deserialize(deserializer)? {
            Written::Team(team @ (0 | 1)) => Ok(Outcome::Winner(Team(team))),
            Written::Word(word) if word == "draw" => Ok(Outcome::Draw),
            _ => Err(serde::de::Error::custom(
                "an outcome is a team number (0 or 1) or \"draw\"",
            )),
        }
    }
}

impl Serialize for Outcome {
    /// A team number, or `"draw"`, as the replay output writes it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Outcome::Winner(team) => serializer.serialize_u8(team.0),
            Outcome::Draw => serializer.serialize_str("draw"),
        }
    }
}

/// How a hand ended, as the replay output writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandOutcome {
    /// Played out and scored.
    Played,
    /// A player declared a misdeal.
    Misdeal,
    /// Everyone passed.
    ThrownIn,
    /// Not finished yet.
    InProgress,
}

/// What one hand amounted to: a row of the replay output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandSummary {
    /// The dealer of the hand.
    pub dealer: Seat,
    /// How the hand ended, or that it has not.
    pub outcome: HandOutcome,
    /// The seat that won the auction, once it is over.
    pub declarer: Option<Seat>,
    /// The winning bid, once the auction is over.
    pub contract: Option<Action>,
    /// Trump (or no-trump) once named.
    pub trump: Option<Strain>,
    /// Tricks taken by each team so far.
    pub tricks: [u8; 2],
    /// Points each team scored on the hand, once it is complete.
    pub points: Option<[i32; 2]>,
}

/// A rule that an action breaks. Shown after the seat: "seat 3 must follow hearts".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Broken {
    /// The game is over: no action is possible.
    GameOver,
    /// The next hand must be dealt before anyone acts.
    DealDue,
    /// The action is not of the kind the game expects now.
    NotNow {
        /// What the game is waiting for, e.g. "a card to be played".
        expected: &'static str,
    },
    /// The action is not part of this game at all.
    NotInGame,
    /// A bid outside the game's range.
    BidOutOfRange {
        /// Lowest allowed level.
        low: u8,
        /// Highest allowed level.
        high: u8,
    },
    /// A bid that does not exceed the current high bid.
    BidTooLow {
        /// The bid to beat.
        high: Action,
    },
    /// The dealer may not pass when everyone else has.
    DealerMustBid,
    /// A misdeal needs four 9s, or three 9s and two 10s.
    NoMisdeal,
    /// The seat does not hold the card it tried to play or pass.
    NotHeld(Card),
    /// A card of the led suit was held.
    MustFollow(Suit),
    /// A joker led when the game's rule does not allow it; the text says what it needs.
    JokerLead(&'static str),
    /// The dealer matching a bid must bid at least as high (Bid Euchre).
    BidBelow {
        /// The bid to match or beat.
        high: Action,
    },
    /// A give or discard of the wrong number of cards (Bid Euchre).
    CardCount {
        /// `give` or `discard`.
        verb: &'static str,
        /// How many cards it must move.
        expected: u8,
    },
    /// A loner's partner must give their highest trumps (Bid Euchre, alexa).
    MustGiveHighestTrumps,
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Broken::GameOver => f.write_str("may not act: the game is over"),
            Broken::DealDue => f.write_str("may not act: the next hand has not been dealt"),
            Broken::NotNow { expected } => {
                write!(f, "may not do that now: the game expects {expected}")
            }
            Broken::NotInGame => {
                f.write_str("may not do that: the action is not part of this game")
            }
            Broken::BidOutOfRange { low, high } => write!(f, "must bid from {low} to {high}"),
            Broken::BidTooLow { high } => write!(f, "must bid higher than \"{high}\""),
            Broken::DealerMustBid => {
                f.write_str("may not pass: the dealer must bid when all others have passed")
            }
            Broken::NoMisdeal => {
                f.write_str("may not declare a misdeal without four 9s or three 9s and two 10s")
            }
            Broken::NotHeld(card) => write!(f, "does not hold {card}"),
            Broken::MustFollow(suit) => write!(f, "must follow {}", suit.name()),
            Broken::JokerLead(requirement) => write!(f, "may not lead a joker: {requirement}"),
            Broken::BidBelow { high } => write!(f, "must bid at least \"{high}\""),
            Broken::CardCount { verb, expected } => write!(
                f,
                "must {verb} {expected} card{}",
                if *expected == 1 { "" } else { "s" }
            ),
            Broken::MustGiveHighestTrumps => f.write_str("must give its highest trumps"),
        }
    }
}

/// An action refused by a checked apply; the game is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// The seat whose turn it was, if any.
    pub seat: Option<Seat>,
    /// The refused action.
    pub action: Action,
    /// The rule it breaks.
    pub broken: Broken,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.seat {
            Some(seat) => write!(f, "seat {seat} {}", self.broken),
            None => write!(f, "{}", self.broken),
        }
    }
}

impl std::error::Error for PlayError {}

/// A deal that is not a legal deal for the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealError {
    /// A deal is not due now.
    NotDue,
    /// Wrong number of hands.
    SeatCount {
        /// Hands the game needs.
        expected: usize,
        /// Hands given.
        found: usize,
    },
    /// A hand of the wrong size.
    HandSize {
        /// The seat.
        seat: Seat,
        /// Cards each seat must get.
        expected: usize,
        /// Cards given.
        found: usize,
    },
    /// A card the game's deck does not have.
    NotInDeck(Card),
    /// A card dealt more often than the deck holds it.
    TooMany(Card),
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::NotDue => f.write_str("a deal is not due now"),
            DealError::SeatCount { expected, found } => {
                write!(f, "the deal has {found} hands, not {expected}")
            }
            DealError::HandSize {
                seat,
                expected,
                found,
            } => write!(f, "seat {seat} is dealt {found} cards, not {expected}"),
            DealError::NotInDeck(card) => write!(f, "{card} is not in this game's deck"),
            DealError::TooMany(card) => {
                write!(f, "{card} is dealt more times than the deck holds it")
            }
        }
    }
}

impl std::error::Error for DealError {}

/// What happens when every player passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AllPass {
    /// The hand is thrown in without score and the deal passes on.
    #[default]
    Redeal,
    /// The dealer may not pass when everyone else has.
    DealerMustBid,
}

impl AllPass {
    /// Whether `seat` may not pass: it deals, under [`AllPass::DealerMustBid`], and no
    /// one has bid (`bid_made` false).
    pub fn forces(self, seat: Seat, dealer: Seat, bid_made: bool) -> bool {
        self == AllPass::DealerMustBid && seat == dealer && !bid_made
    }
}

/// An action as one seat saw it: in full, or a pass of cards it did not see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeenAction {
    /// The action, every card in it visible to this seat.
    Open(Action),
    /// `give ?? ??`: cards given face down, unseen.
    HiddenGive(u8),
    /// `discard ??`: cards discarded face down, unseen.
    HiddenDiscard(u8),
}

impl fmt::Display for SeenAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (word, count) = match self {
            SeenAction::Open(action) => return write!(f, "{action}"),
            SeenAction::HiddenGive(count) => ("give", count),
            SeenAction::HiddenDiscard(count) => ("discard", count),
        };
        f.write_str(word)?;
        for _ in 0..*count {
            f.write_str(" ??")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for SeenAction {
    type Err = crate::action::ParseActionError;

    /// Reads an action, or `give ?? ??` / `discard ??` for cards not seen.
    fn from_str(s: &str) -> Result<SeenAction, Self::Err> {
        let mut words = s.split(' ');
        let keyword = words.next().unwrap_or_default();
        let rest: Vec<&str> = words.collect();
        if !rest.is_empty() && rest.iter().all(|w| *w == "??") && rest.len() <= 2 {
            let count = rest.len() as u8;
            if keyword.eq_ignore_ascii_case("give") {
                return Ok(SeenAction::HiddenGive(count));
            }
            if keyword.eq_ignore_ascii_case("discard") {
                return Ok(SeenAction::HiddenDiscard(count));
            }
        }
        s.parse().map(SeenAction::Open)
    }
}

serde_as_text!(SeenAction);

/// Where a hand starts: everything a fresh state needs to continue a game at a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandStart {
    /// Deals completed before this one (thrown-in and misdealt ones included).
    pub deals_played: u32,
    /// The dealer of this hand.
    pub dealer: Seat,
    /// The scores before this hand.
    pub scores: [i32; 2],
}

impl HandStart {
    /// The start of a game's first hand, dealt by `dealer`.
    pub const fn first(dealer: Seat) -> HandStart {
        HandStart {
            deals_played: 0,
            dealer,
            scores: [0, 0],
        }
    }

    /// The game's first dealer: the deal passes to the next seat after every hand.
    pub const fn first_dealer(&self, seats: usize) -> Seat {
        let back = self.deals_played as usize % seats;
        Seat(((self.dealer.index() + seats - back) % seats) as u8)
    }
}

/// Checks that `hands` is a deal of `seats` hands of `hand_size` cards each from `deck`
/// (a bag, so a double deck holds each face twice), with no card dealt more often than
/// the deck holds it. Errors come in reading order: the seat count, then hand by hand
/// each card, then the hand's size.
pub fn check_deal(
    hands: &[CardBag],
    seats: usize,
    hand_size: usize,
    deck: CardBag,
) -> Result<(), DealError> {
    if hands.len() != seats {
        return Err(DealError::SeatCount {
            expected: seats,
            found: hands.len(),
        });
    }
    let mut seen = CardBag::EMPTY;
    for (i, hand) in hands.iter().enumerate() {
        for card in hand.iter() {
            if !deck.contains(card) {
                return Err(DealError::NotInDeck(card));
            }
            if seen.count(card) == deck.count(card) {
                return Err(DealError::TooMany(card));
            }
            seen.insert(card);
        }
        if hand.len() != hand_size {
            return Err(DealError::HandSize {
                seat: Seat(i as u8),
                expected: hand_size,
                found: hand.len(),
            });
        }
    }
    Ok(())
}

/// The stage of a game, as a screen names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No hand dealt yet: the first deal is due.
    Dealing,
    /// Seats call in turn.
    Auction,
    /// The auction's winner names trump.
    TrumpNaming,
    /// Cards pass face down: a loner's partner gives, the loner discards (Bid Euchre).
    Exchange,
    /// Cards are played to tricks.
    Play,
    /// The hand is over; the next deal is due.
    HandOver,
    /// The game is over.
    GameOver,
}

/// The auction's result: who won it and with what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contract {
    /// The seat that won the auction.
    pub declarer: Seat,
    /// The winning call (`bid 4`, `bid 3 H`, `call1 S`, `kaibosh`, ...).
    pub bid: Action,
    /// Whether the declarer plays alone, its partner out of the hand.
    pub alone: bool,
}

/// The trick a game shows: the current one during play, or the hand's last once it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrickState {
    /// The seat that led.
    pub leader: Seat,
    /// The seat winning so far (none before the lead).
    pub winning: Option<Seat>,
}

/// What ends the game: a score, a number of deals, or both (whichever comes first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Goal {
    /// The score that wins, if any.
    pub target: Option<i32>,
    /// The number of deals the game lasts, if fixed.
    pub deals: Option<u32>,
}

/// Exactly what one seat may know: its own cards and what it saw. Other hands are not
/// in it at all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The observing seat.
    pub seat: Seat,
    /// Where the current hand started.
    pub start: HandStart,
    /// The seat's cards as dealt this hand.
    pub dealt: CardBag,
    /// The seat's cards now.
    pub hand: CardBag,
    /// Every action of this hand so far, in order, with the seat that made it.
    pub actions: Vec<(Seat, SeenAction)>,
    /// What the auction settled, as the game keeps it, so that nobody re-derives it from
    /// `actions`. Not in the bot protocol's `observation` (its `view` carries it); a host
    /// that receives an observation fills it by replaying it on the engine.
    #[serde(skip)]
    pub declared: Declared,
}

/// What every seat knows once the auction is won: the contract, trump (or no-trump) and
/// the seat out of play. Empty during the auction and on a hand thrown in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// The auction's result.
    pub contract: Option<Contract>,
    /// Trump, once named (with the contract in games where the bid names it).
    pub trump: Option<Strain>,
    /// The seat out of play this hand (a loner's partner).
    pub sitting_out: Option<Seat>,
}

impl Declared {
    /// Trump as a suit; `None` before it is named and at no-trump.
    pub fn trump_suit(&self) -> Option<Suit> {
        self.trump.and_then(Strain::trump)
    }
}

impl Observation {
    /// The observation of a game where every action is seen by every seat.
    pub fn open(
        seat: Seat,
        start: HandStart,
        dealt: CardBag,
        hand: CardBag,
        history: &[(Seat, Action)],
        declared: Declared,
    ) -> Observation {
        Observation {
            seat,
            start,
            dealt,
            hand,
            declared,
            actions: history
                .iter()
                .map(|&(actor, action)| (actor, SeenAction::Open(action)))
                .collect(),
        }
    }
}

/// One game of any family: whose turn it is, the legal actions, checked and unchecked
/// apply, observations, scores and the outcome.
///
/// Dealing is chance: at [`Turn::Chance`] call [`Game::deal`] or [`Game::deal_random`].
pub trait Game: Clone + fmt::Debug + Send + Sync {
    /// The variant and options the game is played under.
    type Rules: Clone + fmt::Debug + Send + Sync;

    /// A new game, before the first deal: the game resumed at its first hand.
    fn new(rules: &Self::Rules, first_dealer: Seat) -> Self {
        Self::resume(rules, HandStart::first(first_dealer))
    }

    /// The cards `seat` holds now (a bag, as in every game).
    fn hand(&self, seat: Seat) -> CardBag;

    /// The trick being played (during the play; after it, the hand's last trick).
    fn trick(&self) -> &Trick;

    /// A game continued at the start of a hand, before its deal: what a seat that knows
    /// only its observation can rebuild.
    fn resume(rules: &Self::Rules, start: HandStart) -> Self;

    /// The variant and options.
    fn rules(&self) -> &Self::Rules;

    /// Number of seats at the table.
    fn seats(&self) -> usize;

    /// Who moves next.
    fn turn(&self) -> Turn;

    /// Appends the legal actions of the seat to move, each once, to `out`.
    fn legal_actions(&self, out: &mut ActionList);

    /// Whether `action` is legal now, and if not, the rule it breaks.
    fn check(&self, action: Action) -> Result<(), Broken>;

    /// Applies an action known to be legal (from [`Game::legal_actions`]), for search.
    ///
    /// An illegal action leaves the state meaningless; it may panic.
    fn apply_unchecked(&mut self, action: Action);

    /// Deals the next hand from given hands, in seat order.
    fn deal(&mut self, hands: &[CardBag]) -> Result<(), DealError>;

    /// Deals the next hand at random.
    fn deal_random(&mut self, rng: &mut GameRng);

    /// What `seat` may know now.
    fn observation(&self, seat: Seat) -> Observation;

    /// Where the current hand started.
    fn hand_start(&self) -> HandStart;

    /// The current hand, or the one just finished while the next is not yet dealt.
    fn hand_summary(&self) -> HandSummary;

    /// Running totals after the last complete hand.
    fn scores(&self) -> [i32; 2];

    /// The points each team scores on the current hand if its play ends with `tricks`
    /// taken by each team (none before there is a contract): how the hand is scored,
    /// for search as much as for the end of the hand.
    fn hand_points(&self, tricks: [u8; 2]) -> [i32; 2];

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The stage of the game, as a screen names it.
    fn phase(&self) -> Phase;

    /// The seat out of play this hand (a loner's partner), if any.
    fn sitting_out(&self) -> Option<Seat>;

    /// The trick on the table: the current one during play, the hand's last once a
    /// played hand is over, none before play.
    fn current_trick(&self) -> Option<TrickState>;

    /// What ends the game: a target score, a number of deals, or both.
    fn goal(&self) -> Goal;

    /// The contract, trump and the seat out, as every seat knows them.
    fn declared(&self) -> Declared {
        let summary = self.hand_summary();
        let sitting_out = self.sitting_out();
        Declared {
            contract: summary
                .declarer
                .zip(summary.contract)
                .map(|(declarer, bid)| Contract {
                    declarer,
                    bid,
                    alone: sitting_out.is_some(),
                }),
            trump: summary.trump,
            sitting_out,
        }
    }

    /// Applies `action` if it is legal; otherwise returns why not and changes nothing.
    fn apply(&mut self, action: Action) -> Result<(), PlayError> {
        match self.check(action) {
            Ok(()) => {
                self.apply_unchecked(action);
                Ok(())
            }
            Err(broken) => Err(PlayError {
                seat: match self.turn() {
                    Turn::Seat(seat) => Some(seat),
                    _ => None,
                },
                action,
                broken,
            }),
        }
    }

    /// Whether `action` is legal now.
    fn is_legal(&self, action: Action) -> bool {
        self.check(action).is_ok()
    }

    /// The legal actions as a list.
    fn legal_action_list(&self) -> ActionList {
        let mut list = ActionList::new();
        self.legal_actions(&mut list);
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_actions_write_unseen_cards_as_question_marks_and_read_back() {
        for text in ["give ?? ??", "discard ??", "play AS", "give JH JD", "bid 3"] {
            let seen: SeenAction = text.parse().unwrap();
            assert_eq!(seen.to_string(), text);
        }
        assert_eq!(
            "give ?? ??".parse::<SeenAction>(),
            Ok(SeenAction::HiddenGive(2))
        );
        assert!("give ?? ?? ??".parse::<SeenAction>().is_err());
        assert!("play ??".parse::<SeenAction>().is_err());
    }

    fn bag(cards: &[&str]) -> CardBag {
        cards.iter().map(|c| c.parse::<Card>().unwrap()).collect()
    }

    #[test]
    fn a_deal_is_checked_against_the_deck_and_its_copies() {
        let single = bag(&["AS", "KS", "AH", "KH"]);
        let ok = [bag(&["AS", "KS"]), bag(&["AH", "KH"])];
        assert_eq!(check_deal(&ok, 2, 2, single), Ok(()));
        let twice = [bag(&["AS", "AS"]), bag(&["AH", "KH"])];
        let card = |c: &str| c.parse::<Card>().unwrap();
        assert_eq!(
            check_deal(&twice, 2, 2, single),
            Err(DealError::TooMany(card("AS")))
        );
        // A double deck holds two copies, not three.
        let double = CardBag::double(single.faces());
        assert_eq!(check_deal(&twice, 2, 2, double), Ok(()));
        let thrice = [bag(&["AS", "AS"]), bag(&["AS", "KH"])];
        assert_eq!(
            check_deal(&thrice, 2, 2, double),
            Err(DealError::TooMany(card("AS")))
        );
        let foreign = [bag(&["AS", "QD"]), bag(&["AH", "KH"])];
        assert_eq!(
            check_deal(&foreign, 2, 2, single),
            Err(DealError::NotInDeck(card("QD")))
        );
        let short = [bag(&["AS"]), bag(&["AH", "KH"])];
        assert_eq!(
            check_deal(&short, 2, 2, single),
            Err(DealError::HandSize {
                seat: Seat(0),
                expected: 2,
                found: 1
            })
        );
        assert_eq!(
            check_deal(&ok[..1], 2, 2, single),
            Err(DealError::SeatCount {
                expected: 2,
                found: 1
            })
        );
    }

    #[test]
    fn the_first_dealer_is_found_by_rotating_back() {
        let start = HandStart {
            deals_played: 7,
            dealer: Seat(1),
            scores: [0, 0],
        };
        assert_eq!(start.first_dealer(4), Seat(2));
        assert_eq!(start.first_dealer(6), Seat(0));
        assert_eq!(HandStart::first(Seat(3)).first_dealer(4), Seat(3));
    }

    #[test]
    fn a_play_error_names_the_seat_then_the_rule() {
        let error = PlayError {
            seat: Some(Seat(3)),
            action: Action::Play("KS".parse().unwrap()),
            broken: Broken::MustFollow(Suit::Hearts),
        };
        assert_eq!(error.to_string(), "seat 3 must follow hearts");
    }
}
