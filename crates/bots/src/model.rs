//! What the search bots need to know of a game family beyond [`Game`]: one small impl of
//! [`BotGame`] per family, plus the dispatch from [`GameRules`] to the concrete type.

use calltrump_engine::{
    Action, Card, CardBag, CardOrder, CardSet, Game, GameRng, Observation, Seat, SeenAction,
};

use crate::position::{Layout, Position, MAX_SEATS};
use crate::sampler::{auction_likelihood, DealSampler};

/// Most buckets of unknown cards: the seats, then up to two more (cards discarded face
/// down, cards left undealt).
pub const MAX_BUCKETS: usize = MAX_SEATS + 2;

/// What an observation reveals about the deal: the cards each seat is known to have been
/// dealt, and where the unknown cards may be. Unknown cards go to buckets: one per seat
/// (its unknown cards), then any extra buckets a game needs (cards discarded face down,
/// cards left undealt), each with a size and the cards it cannot hold (revealed voids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// The observing seat.
    pub observer: Seat,
    /// Seats at the table.
    pub seats: usize,
    /// Cards each seat is known to hold or have held (the observer: all of its own).
    pub known: [CardBag; MAX_SEATS],
    /// How many unknown cards each bucket takes (the observer's: none).
    pub sizes: [usize; MAX_BUCKETS],
    /// Cards each bucket cannot hold.
    pub excluded: [CardSet; MAX_BUCKETS],
    /// Buckets in use: the seats, then the extra ones.
    pub buckets: usize,
    /// The cards whose place is unknown, one entry per copy.
    pub pool: Vec<Card>,
}

impl Knowledge {
    /// Knowledge of `observation` for a deck of `deck` (one entry per copy) and hands of
    /// `hand_size`: the observer's dealt cards, and every card seen played, as held by
    /// the seat that played it. Voids and extra buckets are added by the caller.
    pub fn from_plays(
        observation: &Observation,
        seats: usize,
        hand_size: usize,
        deck: &[Card],
    ) -> Knowledge {
        let observer = observation.seat;
        let mut known = [CardBag::EMPTY; MAX_SEATS];
        // A seat beyond the table (a faulty observation: see `check_decision`) is left
        // out rather than indexed.
        if let Some(bag) = known.get_mut(observer.index()) {
            *bag = observation.dealt;
        }
        for (seat, seen) in &observation.actions {
            if let SeenAction::Open(Action::Play(card)) = seen {
                if *seat != observer {
                    if let Some(bag) = known.get_mut(seat.index()) {
                        bag.insert(*card);
                    }
                }
            }
        }
        let mut knowledge = Knowledge {
            observer,
            seats,
            known,
            sizes: [0; MAX_BUCKETS],
            excluded: [CardSet::EMPTY; MAX_BUCKETS],
            buckets: seats,
            pool: Vec::new(),
        };
        for (s, bag) in known.iter().enumerate().take(seats) {
            if s != observer.index() {
                knowledge.sizes[s] = hand_size.saturating_sub(bag.len());
            }
        }
        knowledge.pool = knowledge.unknown(deck);
        knowledge
    }

    /// The cards of `deck` not accounted for by `known`.
    pub fn unknown(&self, deck: &[Card]) -> Vec<Card> {
        let mut all_known = CardBag::EMPTY;
        for bag in &self.known[..self.seats] {
            for card in bag.iter() {
                all_known.insert(card);
            }
        }
        let mut taken = CardBag::EMPTY;
        let mut pool = Vec::with_capacity(deck.len());
        for &card in deck {
            if taken.count(card) < all_known.count(card) {
                taken.insert(card);
            } else {
                pool.push(card);
            }
        }
        pool
    }

    /// Adds a bucket of `size` unknown cards that belong to no seat; returns its index.
    pub fn add_bucket(&mut self, size: usize) -> usize {
        let b = self.buckets;
        self.sizes[b] = size;
        self.buckets += 1;
        b
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

/// A full deal consistent with an observation, and the cards of the actions the
/// observer saw face down, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// Every seat's dealt cards.
    pub dealt: Vec<CardBag>,
    /// The actions behind the observation's hidden gives and discards, in order.
    pub hidden: Vec<Action>,
}

/// How far a search looks ahead where a game is not searched to the end of the hand:
/// the stronger levels afford to look further ([`BotGame::search_depth`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lookahead {
    /// The game's cheap horizon.
    #[default]
    Near,
    /// Further, at several times the cost, where that plays measurably better.
    Far,
}

/// One game family as the bots see it. Adding a game to the bots is one impl of this.
pub trait BotGame: Game + Sized + 'static {
    /// Largest point swing between the teams on one hand, to scale search rewards.
    const SWING: f64;

    /// How sure a simulation must be to overrule the rules-of-thumb call: the gain, in
    /// standard errors of the paired differences over the sampled deals, that the best
    /// simulated call needs over the rules' call. 0 takes the best mean.
    const CALL_MARGIN: f64 = 0.0;

    /// How many tricks ahead the solver searches in this game before estimating
    /// (`None`: to the end, exactly), looking as far as `lookahead` allows.
    fn search_depth(_rules: &Self::Rules, _lookahead: Lookahead) -> Option<u32> {
        None
    }

    /// The deck, one entry per copy.
    fn deck(rules: &Self::Rules) -> Vec<Card>;

    /// The score that ends the game, if any.
    fn target(rules: &Self::Rules) -> Option<i32>;

    /// Points each team would still need to win the game if the current hand scored
    /// `points` on top of `scores` (0 or less: that team has won; `None`: the game has
    /// no target and the point difference is what counts). By default the target's.
    fn points_to_win(&self, scores: [i32; 2], points: [i32; 2]) -> Option<[i32; 2]> {
        Self::target(self.rules()).map(|target| {
            [
                target - scores[0] - points[0],
                target - scores[1] - points[1],
            ]
        })
    }

    /// What `observation` reveals about the deal, voids included.
    fn knowledge(rules: &Self::Rules, observation: &Observation) -> Knowledge;

    /// The deal (and hidden actions) behind one drawing of the unknown cards: `buckets`
    /// holds each seat's known and drawn cards, then the extra buckets' cards. `None`
    /// if the drawing fits no deal (the caller draws again). By default each seat was
    /// dealt its bucket and nothing was hidden.
    fn complete(
        _rules: &Self::Rules,
        _observation: &Observation,
        knowledge: &Knowledge,
        buckets: Vec<CardBag>,
        _rng: &mut GameRng,
    ) -> Option<Completion> {
        let mut dealt = buckets;
        dealt.truncate(knowledge.seats);
        Some(Completion {
            dealt,
            hidden: Vec::new(),
        })
    }

    /// The card play as a compact position, when a card is to be played.
    fn position(&self) -> Option<(Position, Layout)>;

    /// The team and tricks the hand's points hang on, when they hang on nothing else:
    /// whether that team takes that many (Kout Bo: the makers and their bid). The
    /// search then asks only that, which is cheaper than counting every trick.
    fn contract_tricks(&self) -> Option<(usize, u8)> {
        None
    }

    /// How well the call at `observation.actions[index]` fits `hand` (that seat's dealt
    /// cards), from 0 to 1: the auction model behind inference. 1 everywhere ignores it.
    fn call_likelihood(
        rules: &Self::Rules,
        observation: &Observation,
        index: usize,
        hand: CardBag,
    ) -> f64;

    /// The actions of a decision that is not a card play worth simulating (all of them
    /// by default); games with many calls prune the hopeless ones.
    fn call_candidates(
        _rules: &Self::Rules,
        _observation: &Observation,
        legal: &[Action],
    ) -> Vec<Action> {
        legal.to_vec()
    }

    /// A rule-of-thumb choice for a decision that is not a card play.
    fn rules_call(rules: &Self::Rules, observation: &Observation, legal: &[Action]) -> Action;
}

/// Rebuilds the full state of the game from the observation and a completion of it:
/// resume at the hand's start, deal, replay the actions (checked), the hidden ones from
/// the completion.
pub fn rebuild<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    completion: &Completion,
) -> Result<G, String> {
    let mut game = G::resume(rules, observation.start);
    game.deal(&completion.dealt).map_err(|e| e.to_string())?;
    let mut hidden = completion.hidden.iter();
    for (i, (_, seen)) in observation.actions.iter().enumerate() {
        let action = match seen {
            SeenAction::Open(action) => *action,
            _ => *hidden
                .next()
                .ok_or_else(|| format!("action {i}: no cards for the hidden \"{seen}\""))?,
        };
        game.apply(action).map_err(|e| format!("action {i}: {e}"))?;
    }
    Ok(game)
}

/// Draws completions until one replays: a full state consistent with the observation
/// (with the auction in view if `auction`), or `None` after `tries` failures.
pub fn draw_game<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    sampler: &DealSampler,
    auction: bool,
    tries: usize,
    rng: &mut GameRng,
) -> Option<(G, Completion)> {
    for _ in 0..tries {
        let buckets = if auction {
            sampler.sample_weighted(rng, AUCTION_TRIES, |d| {
                auction_likelihood::<G>(rules, observation, d)
            })
        } else {
            sampler.sample(rng)
        };
        let Some(completion) = G::complete(rules, observation, sampler.knowledge(), buckets, rng)
        else {
            continue;
        };
        if let Ok(game) = rebuild::<G>(rules, observation, &completion) {
            return Some((game, completion));
        }
    }
    None
}

/// Candidate deals tried per accepted sample when weighting by the auction.
const AUCTION_TRIES: usize = 24;

/// Calls a generic function with the concrete game type of some [`GameRules`]:
/// `with_game!(rules, |r, G| body)` binds `r` to that family's rules and `G` to its type.
/// Exported so tests and tools dispatch on the game the same way the bots do.
#[macro_export]
macro_rules! with_game {
    ($rules:expr, |$r:ident, $g:ident| $body:expr) => {
        match $rules {
            calltrump_engine::GameRules::Kaibosh($r) => {
                type $g = calltrump_engine::Kaibosh;
                $body
            }
            calltrump_engine::GameRules::BidEuchre($r) => {
                type $g = calltrump_engine::BidEuchre;
                $body
            }
            calltrump_engine::GameRules::Kout($r) => {
                type $g = calltrump_engine::Kout;
                $body
            }
        }
    };
}
