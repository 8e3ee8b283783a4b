//! Bots for calltrump's games. A bot sees only its seat's [`Observation`], never the full
//! game, and draws every random choice from the [`GameRng`] it is given, so a decision is
//! reproducible from its seed and budget.
//!
//! - [`RandomBot`]: any legal action.
//! - [`RulesBot`]: rules of thumb and the games' bidding conventions.
//!
//! Search bots work on the concrete game types through [`BotGame`], one small impl per
//! game family: sampling of hidden hands ([`DealSampler`]), an exact solver of the card
//! play ([`Solver`]), information-set MCTS and sampled-deal search.

use calltrump_engine::{Action, GameRng, GameRules, Observation};

mod ismcts;
mod kaibosh;
mod levels;
mod model;
mod pimc;
mod position;
mod random;
mod rules;
mod sampler;
mod solver;

pub use ismcts::IsmctsBot;
pub use kaibosh::{best_trump, trick_estimate};
pub use levels::Level;
pub use model::{rebuild, BotGame, Knowledge};
pub use pimc::{utility, PimcBot};
pub use position::{Bits, Layout, Position, MAX_SEATS, NO_TRUMP};
pub use random::RandomBot;
pub use rules::RulesBot;
pub use sampler::{auction_likelihood, DealSampler, Inconsistent};
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
}

/// The names [`bot_by_name`] knows, for help texts.
pub const BOT_NAMES: &str =
    "random, rules, ismcts, ismcts:N (N iterations), pimc, pimc:N (N deals), easy, medium, hard, expert";

/// The bots by name, for the command line (see [`BOT_NAMES`]).
pub fn bot_by_name(name: &str) -> Result<Box<dyn Bot>, String> {
    let unknown = || format!("unknown bot \"{name}\" (known: {BOT_NAMES})");
    match name {
        "random" => Ok(Box::new(RandomBot)),
        "rules" => Ok(Box::new(RulesBot)),
        "ismcts" => Ok(Box::new(IsmctsBot::new(IsmctsBot::DEFAULT_ITERATIONS))),
        "pimc" => Ok(Box::new(PimcBot::new(
            PimcBot::DEFAULT_SAMPLES,
            PimcBot::DEFAULT_SAMPLES / 2,
        ))),
        _ => {
            if let Some(level) = Level::from_name(name) {
                return Ok(level.bot());
            }
            let (kind, count) = name.split_once(':').ok_or_else(unknown)?;
            let count = match count.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(format!(
                        "bad budget in \"{name}\": expected a whole number of at least 1"
                    ))
                }
            };
            match kind {
                "ismcts" => Ok(Box::new(IsmctsBot::new(count))),
                "pimc" => Ok(Box::new(PimcBot::new(count, count.div_ceil(2)))),
                _ => Err(unknown()),
            }
        }
    }
}
