//! What the search bots need to know of a game family beyond [`Game`]: one small impl of
//! [`BotGame`] per family, plus the dispatch from [`GameRules`] to the concrete type.

use calltrump_engine::{
    Action, Card, CardBag, Game, GameRng, Observation, Phase, Seat, SeenAction,
};

use crate::position::{JokerRules, Layout, Position, MAX_SEATS};
use crate::sampler::{DealSampler, Inconsistent, Knowledge};

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

    /// The layout of the card play under the trump named (called only in the play).
    fn play_layout(&self) -> &'static Layout;

    /// The joker rules of the card play under `layout` (Kout Bo); none by default.
    fn joker_rules(&self, _layout: &Layout) -> Option<JokerRules> {
        None
    }

    /// The card play as a compact position, when a card is to be played: every seat's
    /// cards, the seat out, the trick so far and the tricks taken, the same in every
    /// game.
    fn position(&self) -> Option<(Position, Layout)> {
        if self.phase() != Phase::Play {
            return None;
        }
        let layout = self.play_layout();
        let seats = self.seats();
        let mut hands = [CardBag::EMPTY; MAX_SEATS];
        for (s, hand) in hands.iter_mut().enumerate().take(seats) {
            *hand = self.hand(Seat(s as u8));
        }
        let position = Position::build(
            layout,
            &hands[..seats],
            self.sitting_out(),
            self.trick(),
            self.hand_summary().tricks,
            self.joker_rules(layout),
        );
        Some((position, layout.clone()))
    }

    /// The team and tricks the hand's points hang on, when they hang on nothing else:
    /// whether that team takes that many (Kout Bo: the makers and their bid). The
    /// search then asks only that, which is cheaper than counting every trick.
    fn contract_tricks(&self) -> Option<(usize, u8)> {
        None
    }

    /// How well `call`, made by `seat` after the actions `before`, fits `hand` (that
    /// seat's dealt cards), from 0 to 1: the auction model behind inference.
    fn call_fit(
        rules: &Self::Rules,
        seat: Seat,
        call: Action,
        before: &[(Seat, SeenAction)],
        hand: CardBag,
    ) -> f64;

    /// How well the action at `observation.actions[index]` fits `hand` (that seat's
    /// dealt cards), from 0 to 1: [`BotGame::call_fit`] for an action seen face up, 1
    /// for one seen face down (it tells nothing of the hand).
    fn call_likelihood(
        rules: &Self::Rules,
        observation: &Observation,
        index: usize,
        hand: CardBag,
    ) -> f64 {
        let (seat, seen) = observation.actions[index];
        match seen {
            SeenAction::Open(call) => {
                Self::call_fit(rules, seat, call, &observation.actions[..index], hand)
            }
            _ => 1.0,
        }
    }

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

    /// The call a simulated call must beat, and by how many standard errors of the
    /// paired differences over the sampled deals, to be taken instead: by default the
    /// rules' call by [`BotGame::CALL_MARGIN`], where that is above 0.
    fn call_baseline(
        rules: &Self::Rules,
        observation: &Observation,
        legal: &[Action],
    ) -> Option<(Action, f64)> {
        (Self::CALL_MARGIN > 0.0).then(|| {
            let pick = crate::calls::in_legal(Self::rules_call(rules, observation, legal), legal);
            (pick, Self::CALL_MARGIN)
        })
    }

    /// The tricks `hand` takes by itself with its best trump (or strain), by the
    /// estimate the bots bid by: what a call tells of a hand's strength.
    fn own_tricks(rules: &Self::Rules, hand: CardBag) -> f64;
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

/// The deals consistent with one seat's observation, for one decision: what it reveals
/// and the sampler over it are worked out once, then full states are drawn from them.
pub struct Deals<'a, G: BotGame> {
    rules: &'a G::Rules,
    observation: &'a Observation,
    sampler: DealSampler,
}

impl<'a, G: BotGame> Deals<'a, G> {
    /// The deals behind `observation`, or [`Inconsistent`] if none fits it.
    pub fn new(rules: &'a G::Rules, observation: &'a Observation) -> Result<Self, Inconsistent> {
        Ok(Deals {
            rules,
            observation,
            sampler: DealSampler::new(G::knowledge(rules, observation))?,
        })
    }

    /// The sampler of the unknown cards.
    pub fn sampler(&self) -> &DealSampler {
        &self.sampler
    }

    /// The likelihood of the auction seen given each seat's cards: the product of
    /// [`BotGame::call_likelihood`] over the calls of the other seats.
    pub fn auction_likelihood(&self, dealt: &[CardBag]) -> f64 {
        let observation = self.observation;
        let mut w = 1.0;
        for (i, (seat, seen)) in observation.actions.iter().enumerate() {
            if *seat == observation.seat {
                continue;
            }
            if let SeenAction::Open(action) = seen {
                if action.is_call() {
                    w *= G::call_likelihood(self.rules, observation, i, dealt[seat.index()]);
                }
            }
        }
        w
    }

    /// Draws completions until one replays: a full state consistent with the
    /// observation (weighted by the auction if `auction`), or `None` after `tries`
    /// failures.
    pub fn draw(&self, auction: bool, tries: usize, rng: &mut GameRng) -> Option<(G, Completion)> {
        for _ in 0..tries {
            let buckets = if auction {
                self.sampler
                    .sample_weighted(rng, AUCTION_TRIES, |d| self.auction_likelihood(d))
            } else {
                self.sampler.sample(rng)
            };
            let knowledge = self.sampler.knowledge();
            let Some(completion) =
                G::complete(self.rules, self.observation, knowledge, buckets, rng)
            else {
                continue;
            };
            if let Ok(game) = rebuild::<G>(self.rules, self.observation, &completion) {
                return Some((game, completion));
            }
        }
        None
    }
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
