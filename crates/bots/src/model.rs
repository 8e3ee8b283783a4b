//! What the search bots need to know of a game family beyond [`Game`]: one small impl of
//! [`BotGame`] per family, plus the dispatch from [`GameRules`] to the concrete type.

use calltrump_engine::{
    Action, Card, CardBag, CardOrder, CardSet, Game, GameRules, Observation, Seat, SeenAction,
};

use crate::position::{Layout, Position, MAX_SEATS};

/// What an observation reveals about the deal: the cards each seat is known to have been
/// dealt, the cards each seat cannot hold among those still unknown, and the unknown pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// The observing seat.
    pub observer: Seat,
    /// Seats at the table.
    pub seats: usize,
    /// Cards each seat is dealt.
    pub hand_size: usize,
    /// Cards each seat is known to have been dealt (the observer: all of its own).
    pub known: [CardBag; MAX_SEATS],
    /// Cards each seat cannot hold among its unknown cards (revealed voids).
    pub excluded: [CardSet; MAX_SEATS],
    /// The cards whose holder is unknown, one entry per copy.
    pub pool: Vec<Card>,
}

impl Knowledge {
    /// Knowledge of `observation` for a deck of `deck` (one entry per copy) and hands of
    /// `hand_size`: the observer's dealt cards, and every card seen played, as dealt to
    /// the seat that played it. Voids are added by the caller.
    pub fn from_plays(
        observation: &Observation,
        seats: usize,
        hand_size: usize,
        deck: &[Card],
    ) -> Knowledge {
        let observer = observation.seat;
        let mut known = [CardBag::EMPTY; MAX_SEATS];
        known[observer.index()] = observation.dealt;
        for (seat, seen) in &observation.actions {
            if let SeenAction::Open(Action::Play(card)) = seen {
                if *seat != observer {
                    known[seat.index()].insert(*card);
                }
            }
        }
        let mut taken: CardBag = CardBag::EMPTY;
        let mut pool = Vec::with_capacity(deck.len());
        let mut all_known = CardBag::EMPTY;
        for bag in &known[..seats] {
            for card in bag.iter() {
                all_known.insert(card);
            }
        }
        for &card in deck {
            if taken.count(card) < all_known.count(card) {
                taken.insert(card);
            } else {
                pool.push(card);
            }
        }
        Knowledge {
            observer,
            seats,
            hand_size,
            known,
            excluded: [CardSet::EMPTY; MAX_SEATS],
            pool,
        }
    }

    /// How many unknown cards `seat` holds.
    pub fn hidden(&self, seat: usize) -> usize {
        self.hand_size - self.known[seat].len()
    }

    /// Marks the voids revealed by failures to follow: `plays` are the hand's card plays
    /// in order, `players` the seats in play (cards per trick), `order` the effective
    /// suits.
    pub fn add_voids(
        &mut self,
        plays: impl Iterator<Item = (Seat, Card)>,
        players: usize,
        order: &CardOrder,
    ) {
        let mut led = None;
        for (i, (seat, card)) in plays.enumerate() {
            if i % players == 0 {
                led = Some(order.suit_of(card));
            } else if let Some(suit) = led {
                if order.suit_of(card) != suit {
                    self.excluded[seat.index()] =
                        self.excluded[seat.index()].or(order.cards_of(suit));
                }
            }
        }
    }
}

/// One game family as the bots see it. Adding a game to the bots is one impl of this.
pub trait BotGame: Game + Sized + 'static {
    /// Largest point swing between the teams on one hand, to scale search rewards.
    const SWING: f64;

    /// This family's rules, if `rules` are of this family.
    fn rules_of(rules: &GameRules) -> Option<&Self::Rules>;

    /// The deck, one entry per copy.
    fn deck(rules: &Self::Rules) -> Vec<Card>;

    /// The score that ends the game, if any.
    fn target(rules: &Self::Rules) -> Option<i32>;

    /// What `observation` reveals about the deal, voids included.
    fn knowledge(rules: &Self::Rules, observation: &Observation) -> Knowledge;

    /// The card play as a compact position, when a card is to be played.
    fn position(&self) -> Option<(Position, Layout)>;

    /// The points of each team if the current hand's play ends with `tricks`.
    fn hand_points(&self, tricks: [u8; 2]) -> [i32; 2];

    /// How well the call at `observation.actions[index]` fits `hand` (that seat's dealt
    /// cards), from 0 to 1: the auction model behind inference. 1 everywhere ignores it.
    fn call_likelihood(
        rules: &Self::Rules,
        observation: &Observation,
        index: usize,
        hand: CardBag,
    ) -> f64;

    /// A rule-of-thumb choice for a decision that is not a card play.
    fn rules_call(rules: &Self::Rules, observation: &Observation, legal: &[Action]) -> Action;
}

/// Rebuilds the full state of the game from the observation and a full deal consistent
/// with it: resume at the hand's start, deal, replay the seen actions (checked).
pub fn rebuild<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    dealt: &[CardBag],
) -> Result<G, String> {
    let mut game = G::resume(rules, observation.start);
    game.deal(dealt).map_err(|e| e.to_string())?;
    for (i, (_, seen)) in observation.actions.iter().enumerate() {
        match seen {
            SeenAction::Open(action) => game
                .apply(*action)
                .map_err(|e| format!("action {i}: {e}"))?,
            hidden => return Err(format!("action {i}: cannot replay the hidden \"{hidden}\"")),
        }
    }
    Ok(game)
}

/// Calls a generic function with the concrete game type of some [`GameRules`]:
/// `with_game!(rules, |r, G| body)` binds `r` to that family's rules and `G` to its type.
macro_rules! with_game {
    ($rules:expr, |$r:ident, $g:ident| $body:expr) => {
        match $rules {
            calltrump_engine::GameRules::Kaibosh($r) => {
                type $g = calltrump_engine::Kaibosh;
                $body
            }
        }
    };
}
pub(crate) use with_game;
