//! Playing strengths for people: `easy`, `medium`, `hard`, `expert`, each a bot and a
//! fixed budget, so a decision is reproducible from its seed.
//!
//! | level    | bot                                  | budget per decision                       |
//! |----------|--------------------------------------|-------------------------------------------|
//! | `easy`   | rules of thumb with noise            | 25% of decisions uniformly at random      |
//! | `medium` | PIMC play, rules-of-thumb calls      | 10 deals per card play (auction-weighted) |
//! | `hard`   | PIMC, deals from the play alone      | 30 deals per card play, 12 per call; far  |
//! | `expert` | PIMC, deals weighted by the auction  | 150 deals per card play, 60 per call; far |
//!
//! `hard` and `expert` go on sampling a close call up to four times its deals (48 and
//! 240), until the best call leads every other by two standard errors
//! ([`PimcBot::extending_close_calls`]): in Bid Euchre this cut `expert`'s auction
//! decisions that the analysis marks a mistake by about two thirds (see the README).
//!
//! Each level adds to the one below: `medium` searches the play; `hard` also simulates
//! its calls, with three times the deals but drawn from the play alone (voids), deaf
//! to the bids, and looks further ahead ("far") where a game is not searched to the
//! end; `expert` has five times `hard`'s deals, weighted by what each bid says (a seat
//! that bid hearts is dealt hearts). Past 30 deals, more deals alone gain little
//! (measured: 400 against 100 deals per card, +0.12 points per Kaibosh deal).
//!
//! The solver looks to the end of the hand in Kaibosh; in Bid Euchre three tricks ahead,
//! in Kout Bo 6 one, and in Kout Bo 4 two (`medium`) or three ("far": `hard`, `expert`),
//! then plays the rest out by the rules of thumb (see [`crate::BotGame::search_depth`]).
//! In Kout Bo a simulated call must beat the rules-of-thumb call by a standard error
//! over its deals ([`crate::BotGame::CALL_MARGIN`]).
//!
//! A level's name with a thinking time (`expert@2s`, see [`crate::thinking`]) is the
//! same search sampling for that time instead of its count of deals, its deals also
//! weighed by the play seen where it weighs them by the auction
//! ([`crate::PimcBot::reading_play`]); the time a clear decision leaves unused goes to
//! the next calls ([`crate::PimcBot::allowance`]).
//!
//! CPU time per decision with a choice, calls / plays, median (p99), one core, 40 hands
//! with the bot in every seat
//! (`cargo run --release -p calltrump-bots --example decision_times -- LEVEL GAME [VARIANT] 40`),
//! measured before close calls were extended (a call now takes two to three times as
//! long on average):
//!
//! | level    | Kaibosh                  | Bid Euchre alexa         | Kout Bo 6               | Kout Bo 4                |
//! |----------|--------------------------|--------------------------|-------------------------|--------------------------|
//! | `hard`   | 4.1 (12) / 0.3 (14) ms   | 9.6 (26) / 1.1 (41) ms   | 0.6 (2.4) / 0.4 (6.0) ms | 3.4 (23) / 1.0 (37) ms   |
//! | `expert` | 24 (78) / 2.1 (83) ms    | 54 (156) / 7.5 (237) ms  | 2.7 (12) / 2.2 (25) ms  | 20 (111) / 6.5 (190) ms  |

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
    /// Sampled-deal search for every decision, deals drawn from the play alone.
    Hard,
    /// Sampled-deal search with five times the deals, weighted by the auction.
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
        match self.search_bot() {
            Some(bot) => Box::new(bot.named(self.name())),
            None => Box::new(NoisyBot {
                noise: 0.25,
                name: self.name(),
            }),
        }
    }

    /// The search bot of this level (`None` for `easy`, which does not search): what
    /// reviews and hints evaluate with.
    pub fn search_bot(self) -> Option<PimcBot> {
        match self {
            Level::Easy => None,
            Level::Medium => Some(PimcBot::new(10, 0)),
            Level::Hard => Some(
                PimcBot::new(30, 12)
                    .ignoring_auction()
                    .looking_far()
                    .extending_close_calls(4),
            ),
            Level::Expert => Some(PimcBot::new(150, 60).looking_far().extending_close_calls(4)),
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
