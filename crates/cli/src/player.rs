//! Whoever sits at a seat: one of calltrump's bots, or an outside program speaking the
//! bot protocol (`ext:COMMAND`).

use std::time::Duration;

use anyhow::Result;
use calltrump_bots::{bot_by_name, Bot, Decision};
use calltrump_engine::{Action, ActionList, AnyGame, Game, GameRng, Seat};

use crate::protocol::ExternalBot;

/// A seated player.
pub enum Player {
    /// A built-in bot.
    Builtin(Box<dyn Bot>),
    /// An outside program.
    External(Box<ExternalBot>),
}

impl Player {
    /// A bot name (`random`, `rules`, `hard`, ...) or `ext:COMMAND`.
    pub fn from_spec(spec: &str, time_limit: Duration) -> Result<Player> {
        match spec.strip_prefix("ext:") {
            Some(command) => Ok(Player::External(Box::new(ExternalBot::start(
                command, time_limit,
            )?))),
            None => Ok(Player::Builtin(
                bot_by_name(spec).map_err(anyhow::Error::msg)?,
            )),
        }
    }

    /// The player's name for reports.
    pub fn name(&self) -> String {
        match self {
            Player::Builtin(bot) => bot.name(),
            Player::External(bot) => bot.name().to_string(),
        }
    }

    /// The player's action at `seat`, from that seat's observation only. `deal` names
    /// the deal in messages about an outside bot.
    pub fn act(
        &mut self,
        game: &AnyGame,
        seat: Seat,
        legal: &ActionList,
        rng: &mut GameRng,
        deal: u64,
    ) -> Result<Action> {
        let observation = game.observation(seat);
        let decision = Decision {
            rules: game.rules(),
            observation: &observation,
            legal,
        };
        match self {
            Player::Builtin(bot) => Ok(bot.choose(&decision, rng)),
            Player::External(bot) => bot.decide(&decision, deal),
        }
    }
}
