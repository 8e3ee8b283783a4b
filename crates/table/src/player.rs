//! Who answers for a seat that no person holds: a [`Player`], given a [`Budget`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use calltrump_bots::{Bot, Decision};
use calltrump_engine::{Action, GameRng, GameRules, Observation, View};

/// Everything a player may use to decide: the rules, its seat's observation and view,
/// and the legal actions (never empty).
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The game, variant and options.
    pub rules: &'a GameRules,
    /// What the deciding seat knows.
    pub observation: &'a Observation,
    /// What the deciding seat's screen shows.
    pub view: &'a View,
    /// The legal actions, each once.
    pub legal: &'a [Action],
    /// Which deal of a match this is, for players that report by deal.
    pub deal: u64,
}

impl Request<'_> {
    /// The request as a bot's decision.
    pub fn decision(&self) -> Decision<'_> {
        Decision {
            rules: self.rules,
            observation: self.observation,
            legal: self.legal,
        }
    }
}

/// How long a decision may take: a deadline, and a flag a host raises to cancel it. A
/// player past either answers with its best action so far.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// At most `time` from now.
    pub fn within(time: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(time),
            stop: Arc::default(),
        }
    }

    /// This budget, cancelled by `stop` instead of a flag of its own: one flag raised
    /// by a host (a table that ends) stops every decision made with it.
    pub fn stopped_by(self, stop: Arc<AtomicBool>) -> Budget {
        Budget { stop, ..self }
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// A handle that cancels the decision when raised.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether the decision must end now.
    pub fn is_spent(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A player's failure to answer (an outside program that crashed, timed out or broke
/// the protocol).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PlayerError(pub String);

/// Whoever answers for a seat: one of calltrump's bots, or an outside program.
pub trait Player: Send {
    /// A short name for reports.
    fn name(&self) -> String;

    /// One of `request.legal`, within `budget`.
    fn decide(&mut self, request: &Request<'_>, budget: &Budget) -> Result<Action, PlayerError>;
}

/// One of calltrump's bots with its own seeded generator.
pub struct BotPlayer {
    bot: Box<dyn Bot>,
    rng: GameRng,
}

impl BotPlayer {
    /// `bot`, drawing its random choices from `rng`.
    pub fn new(bot: Box<dyn Bot>, rng: GameRng) -> BotPlayer {
        BotPlayer { bot, rng }
    }
}

impl Player for BotPlayer {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn decide(&mut self, request: &Request<'_>, budget: &Budget) -> Result<Action, PlayerError> {
        let action = self
            .bot
            .choose_within(&request.decision(), &mut self.rng, &|| budget.is_spent());
        // A bot answers only a legal action; anything else is a bug, not a move.
        if request.legal.contains(&action) {
            Ok(action)
        } else {
            Err(PlayerError(format!(
                "bot {} answered {action}, which is not legal here",
                self.bot.name()
            )))
        }
    }
}
