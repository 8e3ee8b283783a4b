//! The card play of a search level by information-set MCTS rooted in PIMC's sampled
//! worlds (`tree:N`, and `expert@TIME`'s play): every iteration draws a deal as PIMC does
//! (weighted by the auction, and by the play seen where the bot reads it), descends one
//! tree of the observer's information set over the cards legal in that deal, adds a
//! node, and values it by solving the rest of the hand with every hand open, as PIMC
//! values a card.
//!
//! Why, against PIMC alone: PIMC lets every later decision see the deal it is solved on
//! (strategy fusion), so more deals only sharpen an estimate that is biased. In the tree
//! a later decision of the bot (and of the others) is one node shared by every deal that
//! reaches it, so the deeper the tree grows with time, the fewer decisions are made with
//! the hidden cards in view (Cowling, Powley and Whitehouse 2012, "Information Set Monte
//! Carlo Tree Search"; the solver at the leaves as in their Dou Di Zhu and Spades work).

use calltrump_engine::{Action, GameRng, Observation};

use crate::ismcts::{Determinized, PlayState, RootChoice, Tree};
use crate::model::{BotGame, Deals};
use crate::position::Position;

/// What a rooted search is allowed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeSearch {
    /// The most iterations (deals drawn).
    pub iterations: u32,
    /// Whether deals are weighted by the auction.
    pub reads_auction: bool,
    /// Whether deals are weighted by the other seats' card plays too.
    pub reads_play: bool,
}

/// UCT's exploration constant for rewards scaled to 0..=1 (as measured: see the README's
/// "Strength against thinking time").
const EXPLORATION: f64 = 0.7;

/// Iterations between two looks at the clock.
const CLOCK_EVERY: u32 = 8;

/// How the tree values what it reaches: the caller's PIMC evaluation.
pub(crate) struct Valuation<'a, G> {
    /// The tricks each team takes from a position of a drawn deal (the solver).
    pub solve: &'a mut dyn FnMut(&G, &Position) -> [u8; 2],
    /// Team 0's utility of a hand's points, the game score in view.
    pub utility: &'a dyn Fn(&G, [i32; 2]) -> f64,
}

/// The card to play in the decision of `observation` (a card play), by `search` and
/// `value`, until `stop` says the time is up; and the iterations run. `None` if no deal
/// is consistent with the observation.
pub(crate) fn tree_choose<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    legal: &[Action],
    search: TreeSearch,
    value: Valuation<'_, G>,
    stop: &dyn Fn() -> bool,
    rng: &mut GameRng,
) -> Option<(Action, u32)> {
    let deals = Deals::<G>::new(rules, observation).ok()?;
    let (template, _) = deals.draw(false, 32, rng)?;
    let (position, layout) = template.position()?;
    let rewards = reward_table(&template, &position, value.utility);
    let mut tree = Tree::new(0u8, search.iterations);
    let mut path = Vec::new();
    let mut done = 0;
    for i in 0..search.iterations {
        if i > 0 && i % CLOCK_EVERY == 0 && stop() {
            break;
        }
        let drawn = if search.reads_play {
            deals.draw_reading_play(search.reads_auction, 8, rng)
        } else {
            deals.draw(search.reads_auction, 8, rng)
        };
        let Some((game, _)) = drawn else {
            continue;
        };
        let Some((position, _)) = game.position() else {
            continue;
        };
        let state = PlayState {
            position,
            rewards: &rewards,
        };
        let mut finish = |leaf: PlayState<'_>, _: &mut GameRng| {
            if leaf.position.is_over() {
                return leaf.rewards();
            }
            let tricks = (value.solve)(&game, &leaf.position);
            rewards[tricks[0] as usize]
        };
        tree.iterate(state, rng, &mut path, EXPLORATION, &mut finish);
        done += 1;
    }
    let card = tree.best_root_move(RootChoice::Visits, |c| {
        legal.contains(&Action::Play(layout.card(c)))
    })?;
    Some((Action::Play(layout.card(card)), done))
}

/// Each team's reward by the tricks team 0 ends the hand with: team 0's `utility`
/// (team 1's is its complement), scaled to run from 0 at the worst end for team 0 to 1
/// at its best, so that UCT's exploration constant means the same in every game and
/// score (a scaling that keeps the order of any two mean rewards).
fn reward_table<G: BotGame>(
    game: &G,
    position: &Position,
    utility: &dyn Fn(&G, [i32; 2]) -> f64,
) -> Vec<[f64; 2]> {
    let total = position.tricks[0] + position.tricks[1] + position.tricks_left() as u8;
    let team0: Vec<f64> = (0..=total)
        .map(|t0| {
            let points = game.hand_points([t0, total - t0]);
            utility(game, points)
        })
        .collect();
    let low = team0.iter().copied().fold(f64::INFINITY, f64::min);
    let high = team0.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    team0
        .iter()
        .map(|&u| {
            let r = if high > low {
                (u - low) / (high - low)
            } else {
                0.5
            };
            [r, 1.0 - r]
        })
        .collect()
}
