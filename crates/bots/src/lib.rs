//! Bots for calltrump's games. A bot sees only its seat's [`Observation`], never the full
//! game, and draws every random choice from the [`GameRng`] it is given, so a decision is
//! reproducible from its seed and budget.

use calltrump_engine::{Action, GameRng, GameRules, Observation};

mod random;

pub use random::RandomBot;

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

/// The bots by name, for the command line: `random`.
pub fn bot_by_name(name: &str) -> Result<Box<dyn Bot>, String> {
    match name {
        "random" => Ok(Box::new(RandomBot)),
        _ => Err(format!("unknown bot \"{name}\" (known: random)")),
    }
}
