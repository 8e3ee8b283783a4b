//! Bots for calltrump's games. A bot sees only its seat's [`Observation`], never the full
//! game, and draws every random choice from the [`GameRng`] it is given, so a decision is
//! reproducible from its seed and budget.
//!
//! - [`RandomBot`] (`random`): any legal action.
//! - [`RulesBot`] (`rules`): rules of thumb and the games' bidding conventions.
//! - [`IsmctsBot`] (`ismcts`, `ismcts:N`): information-set MCTS, N iterations, deals
//!   drawn from the revealed voids only.
//! - [`PimcBot`] (`pimc`, `pimc:N`): N deals drawn with the auction in view, each solved
//!   by the [`Solver`] (to the end in Kaibosh, a few tricks ahead in Bid Euchre and Kout
//!   Bo); calls by simulating the hand.
//! - [`Level`] (`easy`, `medium`, `hard`, `expert`): the bots above at fixed budgets.
//! - `tree:N`: `expert` playing its cards by ISMCTS rooted in its sampled deals, the
//!   solver at the leaves ([`PimcBot::playing_tree`]), N iterations a card play.
//! - Any search bot with a [`thinking`] time instead of a count (`expert@2s`,
//!   `hard@300ms`, `ismcts@1s`): it searches until the time is spent.
//! - [`hint`]: a hint for a person, from the search bots' evaluation of every action
//!   ([`PimcBot::evaluate`]) and their reading of the calls ([`read_call`]).
//!
//! Every bot plays every game: Kaibosh, Bid Euchre (`alexa`, `simplified`) and Kout Bo
//! (`kout6`, `kout4`), with all their options.
//!
//! The search bots work on the concrete game types through [`BotGame`]: adding a game
//! family is one impl of it (what an observation reveals, the play as a compact
//! [`Position`], the hand's scoring, the auction model and the rules-of-thumb calls)
//! plus one line in the dispatch macro `with_game!`. Around it, generic pieces: the
//! [`DealSampler`] draws deals consistent with an observation, [`rebuild`] replays them
//! into a full state, the [`Solver`] solves the play with every hand open.
//!
//! The bots assume a decision that a real game posed. One from outside (the bot
//! protocol) is checked first with [`check_decision`], which replays it on the engine.

use calltrump_engine::{Action, GameRng, GameRules, Observation};

mod bid_euchre;
mod calls;
mod check;
mod evaluate;
mod hint;
mod ismcts;
mod kaibosh;
mod kout;
mod levels;
mod model;
mod pimc;
mod position;
mod random;
mod rooted;
mod rules;
mod sampler;
mod solver;
pub mod thinking;

pub use check::{check_decision, BadDecision, SCORE_LIMIT};
pub use evaluate::{read_call, ActionValue, CallReading, Evaluation, Shows, Trait};
pub use hint::{
    evaluation_rng, hint, hint_bot, reading_rng, readings, BestActions, Hint, Reading, HINT_ACTIONS,
};
pub use ismcts::{IsmctsBot, Reward, RootChoice};
pub use kaibosh::{best_trump, trick_estimate};
pub use levels::Level;
pub use model::{rebuild, BotGame, Completion, Deals, Lookahead};
pub use pimc::{utility, PimcBot};
pub use position::{Bits, JokerRules, Layout, Position, MAX_SEATS, NO_LANE, NO_TRUMP};
pub use random::RandomBot;
pub use rules::RulesBot;
pub use sampler::{DealSampler, Inconsistent, Knowledge, MAX_BUCKETS};
pub use solver::{brute_force, ordered_moves, Solver};

/// Everything a bot may use to decide: the rules, its seat's observation, and the legal
/// actions (never empty).
#[derive(Clone, Copy, Debug)]
pub struct Decision<'a> {
    /// The game, variant and options.
    pub rules: &'a GameRules,
    /// What the deciding seat knows.
    pub observation: &'a Observation,
    /// The legal actions, each once.
    pub legal: &'a [Action],
}

/// A player: given a decision, returns one of its legal actions.
pub trait Bot: Send {
    /// A short name for reports, such as `random` or `hard`.
    fn name(&self) -> String;

    /// Chooses one of `decision.legal`.
    fn choose(&mut self, decision: &Decision<'_>, rng: &mut GameRng) -> Action;

    /// Chooses one of `decision.legal`, answering with the best so far once `spent`
    /// says the time is up. Bots that decide at once ignore it.
    fn choose_within(
        &mut self,
        decision: &Decision<'_>,
        rng: &mut GameRng,
        spent: &dyn Fn() -> bool,
    ) -> Action {
        let _ = spent;
        self.choose(decision, rng)
    }
}

/// The kinds of bot [`bot_by_name`] knows, each a name it takes as it is (the others
/// add a budget or a thinking time to one of them).
pub const BOT_KINDS: [&str; 9] = [
    "random", "rules", "ismcts", "pimc", "tree", "easy", "medium", "hard", "expert",
];

/// The names [`bot_by_name`] knows, for help texts.
pub const BOT_NAMES: &str =
    "random, rules, ismcts, ismcts:N (N iterations), ismcts:N:own (rewarding a team's own \
     points, not the difference), ismcts:N:mean or :robust (the root's move by best mean or \
     robust-max, not visits), ismcts:N:cX (exploration constant X, default 0.35), pimc, pimc:N (N deals), \
     pimc:N:M (N deals per card, M per call), pimc:N:M:+D (the play searched D tricks further), \
     tree, tree:N (expert playing its cards by ISMCTS over its sampled deals, N iterations, default 1000), \
     easy, medium, hard, expert; a search bot with @TIME thinks for TIME per decision \
     instead of a count (expert@2s, hard@300ms, ismcts@1s, pimc@500ms)";

/// The search bots' names that take a thinking time (`NAME@TIME`).
const THINKING_BOTS: &str = "medium, hard, expert, pimc, tree, ismcts";

/// A bot's name that names no bot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotNameError {
    /// No bot has the name.
    #[error("unknown bot \"{0}\" (known: {BOT_NAMES})")]
    Unknown(String),
    /// A budget is not a whole number of at least 1.
    #[error("bad budget \"{budget}\" in \"{name}\": expected a whole number of at least 1")]
    BadBudget {
        /// The name given.
        name: String,
        /// The budget in it.
        budget: String,
    },
    /// A thinking time is not a duration such as `300ms` or `2s` in range.
    #[error(
        "bad thinking time \"{time}\" in \"{name}\": expected milliseconds or seconds \
         such as 300ms, 2s or 1.5s, from 1ms to 600s"
    )]
    BadTime {
        /// The name given.
        name: String,
        /// The time in it.
        time: String,
    },
    /// A thinking time given to a bot that does not search, or with a count.
    #[error(
        "\"{name}\" cannot think for a time: only {THINKING_BOTS} take @TIME, \
         and without a count (write expert@2s or pimc@2s, not pimc:40@2s)"
    )]
    NoThinking {
        /// The name given.
        name: String,
    },
    /// A depth is not `+N`.
    #[error("bad depth \"{depth}\" in \"{name}\": expected +N, tricks further ahead")]
    BadDepth {
        /// The name given.
        name: String,
        /// The depth in it.
        depth: String,
    },
}

/// The bots by name, for the command line (see [`BOT_NAMES`]): a name, or a search bot's
/// name and a thinking time (`expert@2s`, see [`thinking`]).
pub fn bot_by_name(name: &str) -> Result<Box<dyn Bot>, BotNameError> {
    let Some((bot, time)) = name.split_once('@') else {
        return counted_bot_by_name(name);
    };
    let time = thinking::parse_thinking_time(time).ok_or_else(|| BotNameError::BadTime {
        name: name.to_string(),
        time: time.to_string(),
    })?;
    let search = match (bot, Level::from_name(bot)) {
        ("pimc", _) => PimcBot::new(PimcBot::DEFAULT_SAMPLES, 1),
        ("tree", _) => tree_bot(1).named("tree"),
        ("ismcts", _) => return Ok(Box::new(IsmctsBot::thinking_for(time))),
        (_, Some(level)) => match level.search_bot() {
            Some(search) => search.named(level.name()),
            None => return Err(BotNameError::NoThinking { name: name.into() }),
        },
        // A name that is no bot at all says so; a bot that cannot think, that it cannot.
        _ => {
            counted_bot_by_name(bot).map_err(|e| match e {
                BotNameError::Unknown(_) => BotNameError::Unknown(name.to_string()),
                other => other,
            })?;
            return Err(BotNameError::NoThinking { name: name.into() });
        }
    };
    // Its spare time goes to deals that explain the play seen too (where it reads the
    // auction), not only to more deals.
    Ok(Box::new(search.thinking_for(time).reading_play()))
}

/// The bots by a name without a thinking time.
fn counted_bot_by_name(name: &str) -> Result<Box<dyn Bot>, BotNameError> {
    let unknown = || BotNameError::Unknown(name.to_string());
    match name {
        "random" => Ok(Box::new(RandomBot)),
        "rules" => Ok(Box::new(RulesBot)),
        "tree" => Ok(Box::new(tree_bot(TREE_DEFAULT_ITERATIONS))),
        "ismcts" => Ok(Box::new(IsmctsBot::new(IsmctsBot::DEFAULT_ITERATIONS))),
        "pimc" => Ok(Box::new(PimcBot::new(
            PimcBot::DEFAULT_SAMPLES,
            PimcBot::DEFAULT_SAMPLES / 2,
        ))),
        _ => {
            if let Some(level) = Level::from_name(name) {
                return Ok(level.bot());
            }
            let mut parts = name.split(':');
            let kind = parts.next().unwrap_or_default();
            let budgets: Vec<&str> = parts.collect();
            let count = |text: &str| match text.parse::<u32>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(BotNameError::BadBudget {
                    name: name.to_string(),
                    budget: text.to_string(),
                }),
            };
            match (kind, budgets.as_slice()) {
                ("ismcts", [n, options @ ..]) => {
                    let mut bot = IsmctsBot::new(count(n)?);
                    for &option in options {
                        bot = match option {
                            "own" => bot.rewarding(Reward::Own),
                            "mean" => bot.choosing(RootChoice::Mean),
                            "robust" => bot.choosing(RootChoice::Robust),
                            c => match c.strip_prefix('c').and_then(|c| c.parse::<f64>().ok()) {
                                Some(c) if c.is_finite() && c >= 0.0 => bot.exploring(c),
                                _ => return Err(unknown()),
                            },
                        };
                    }
                    Ok(Box::new(bot))
                }
                ("tree", [n]) => Ok(Box::new(tree_bot(count(n)?))),
                ("pimc", [n]) => {
                    let n = count(n)?;
                    Ok(Box::new(PimcBot::new(n, n.div_ceil(2))))
                }
                ("pimc", [n, m]) => Ok(Box::new(PimcBot::new(count(n)?, count(m)?))),
                ("pimc", [n, m, deeper]) => {
                    let tricks = deeper
                        .strip_prefix('+')
                        .and_then(|d| d.parse::<u32>().ok())
                        .ok_or_else(|| BotNameError::BadDepth {
                            name: name.to_string(),
                            depth: deeper.to_string(),
                        })?;
                    Ok(Box::new(PimcBot::new(count(n)?, count(m)?).deeper(tricks)))
                }
                _ => Err(unknown()),
            }
        }
    }
}

/// `expert` playing its cards by ISMCTS rooted in its sampled deals, `iterations` a
/// card play (`tree:N`); its calls are `expert`'s.
/// The iterations per card play of `tree` without a count: about `expert`'s time per
/// card (`tree:3000` took three times as long).
const TREE_DEFAULT_ITERATIONS: u32 = 1000;

fn tree_bot(iterations: u32) -> PimcBot {
    let expert = Level::Expert
        .search_bot()
        .expect("expert searches")
        .playing_tree();
    let (_, calls) = expert.budget();
    expert.with_budget(iterations, calls)
}
