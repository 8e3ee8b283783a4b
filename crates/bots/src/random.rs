//! The random bot: any legal action, uniformly.

use calltrump_engine::{Action, GameRng};
use rand::Rng;

use crate::{Bot, Decision};

/// Plays a uniformly random legal action: the floor every other bot must beat.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, decision: &Decision<'_>, rng: &mut GameRng) -> Action {
        decision.legal[rng.random_range(0..decision.legal.len())]
    }
}
