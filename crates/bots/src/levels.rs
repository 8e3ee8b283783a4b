//! Playing strengths for people: `easy`, `medium`, `hard`, `expert`, each a bot and a
//! fixed budget, so a decision is reproducible from its seed.
//!
//! | level    | bot                                  | budget per decision                     |
//! |----------|--------------------------------------|-----------------------------------------|
//! | `easy`   | rules of thumb with noise            | 25% of decisions uniformly at random    |
//! | `medium` | PIMC play, rules-of-thumb calls      | 10 deals per card play                  |
//! | `hard`   | PIMC                                 | 100 deals per card play, 40 per call    |
//! | `expert` | PIMC                                 | 400 deals per card play, 160 per call   |
//!
//! The solver looks to the end of the hand in Kaibosh; in Bid Euchre three tricks ahead,
//! in Kout Bo 6 one and in Kout Bo 4 three, then plays the rest out by the rules of
//! thumb (see [`crate::BotGame::search_depth`]).
//!
//! Median CPU time per decision with a choice, calls / plays, one core (8 hands each;
//! the thread's CPU time is counted in steps of about 4 ms)
//! (`cargo run --release -p calltrump-bots --example decision_times -- LEVEL GAME [VARIANT] 8`):
//!
//! | level    | Kaibosh       | Bid Euchre alexa | Kout Bo 6     | Kout Bo 4      |
//! |----------|---------------|------------------|---------------|----------------|
//! | `hard`   | 20 ms / 4 ms  | 71 ms / 8 ms     | 17 ms / 4 ms  | 164 ms / 12 ms |
//! | `expert` | 71 ms / 4 ms  | 243 ms / 16 ms   | 68 ms / 8 ms  | 545 ms / 43 ms |

use calltrump_engine::{Action, GameRng};
use rand::Rng;

use crate::pimc::PimcBot;
use crate::rules::RulesBot;
use crate::{Bot, Decision};

/// A playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Rules of thumb with mistakes.
    Easy,
    /// Cheap sampled-deal search for the play, rules of thumb for calls.
    Medium,
    /// Sampled-deal search for every decision.
    Hard,
    /// Sampled-deal search with a larger budget.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// The level's name, as [`crate::bot_by_name`] takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The level by name.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// A bot playing at this level.
    pub fn bot(self) -> Box<dyn Bot> {
        match self {
            Level::Easy => Box::new(NoisyBot {
                noise: 0.25,
                name: self.name(),
            }),
            Level::Medium => Box::new(Named(PimcBot::new(10, 0), self.name())),
            Level::Hard => Box::new(Named(PimcBot::new(100, 40), self.name())),
            Level::Expert => Box::new(Named(PimcBot::new(400, 160), self.name())),
        }
    }
}

/// The rules-of-thumb bot that plays a random legal action some of the time.
#[derive(Clone, Copy, Debug)]
struct NoisyBot {
    noise: f64,
    name: &'static str,
}

impl Bot for NoisyBot {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn choose(&mut self, decision: &Decision<'_>, rng: &mut GameRng) -> Action {
        if rng.random_bool(self.noise) {
            decision.legal[rng.random_range(0..decision.legal.len())]
        } else {
            RulesBot.choose(decision, rng)
        }
    }
}

/// A bot under a level's name.
struct Named<B>(B, &'static str);

impl<B: Bot> Bot for Named<B> {
    fn name(&self) -> String {
        self.1.to_string()
    }

    fn choose(&mut self, decision: &Decision<'_>, rng: &mut GameRng) -> Action {
        self.0.choose(decision, rng)
    }
}
