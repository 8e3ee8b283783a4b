//! The options that choose a game: `--game`, `--variant`, `--option KEY=VALUE`.

use anyhow::{anyhow, Result};
use calltrump_engine::fair_deal::CutSide;
use calltrump_engine::{GameKind, GameRules};
use calltrump_play::external::{Terms, MAX_BYE_GRACE_MS, MAX_TIME_LIMIT_MS};
use calltrump_play::options::option_map;
use clap::Args;

/// The most deals or games one command plays (`--deals`, `--games`): results are
/// summed as they come, so this is a bound on time, not on memory.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The most deals a game may last before it ends as a draw (`--max-deals`).
pub const MAX_DEALS: u64 = 1_000_000;

/// Which game, variant and options to play.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The game: kaibosh, bid-euchre or kout (default: kaibosh).
    #[arg(long)]
    pub game: Option<String>,
    /// The variant (default: the game's first: standard, alexa, kout6).
    #[arg(long)]
    pub variant: Option<String>,
    /// An option of the notation, e.g. `--option target=100` or
    /// `--option all_pass=dealer-must-bid`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE", long_help = crate::rules::options_help())]
    pub options: Vec<String>,
}

impl GameArgs {
    /// The game named, or the default, Kaibosh.
    pub fn game(&self) -> &str {
        self.game.as_deref().unwrap_or(GameKind::Kaibosh.name())
    }

    /// Whether a game, variant or option was given at all (`play --resume` takes them
    /// from the record, and refuses others).
    pub fn given(&self) -> bool {
        self.game.is_some() || self.variant.is_some() || !self.options.is_empty()
    }

    /// The rules these arguments name; unknown names and values are errors.
    pub fn rules(&self) -> Result<GameRules> {
        let options = option_map(&self.options)?;
        GameRules::from_header(self.game(), self.variant.as_deref(), &options)
            .map_err(|e| anyhow!("{e}"))
    }

    /// Who cuts a committed deal under `rules`: the `cut` option, else the rules' side.
    pub fn cut_side(&self, rules: &GameRules) -> Result<CutSide> {
        CutSide::from_options(rules, &option_map(&self.options)?).map_err(|e| anyhow!("{e}"))
    }
}

/// The options of a command that may seat outside bots.
#[derive(clap::Args, Debug, Clone)]
pub struct ExternalArgs {
    /// Time an outside bot has for each decision, in milliseconds (1 to 3,600,000).
    #[arg(long, default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TIME_LIMIT_MS))]
    pub time_limit_ms: u64,
    /// Time an outside bot has to exit by itself after `bye` before it is killed, in
    /// milliseconds (0 to 60,000).
    #[arg(long, default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(0..=MAX_BYE_GRACE_MS))]
    pub bye_grace_ms: u64,
}

impl ExternalArgs {
    /// The terms these options set.
    pub fn terms(&self) -> Terms {
        Terms::from_ms(self.time_limit_ms, self.bye_grace_ms)
    }
}
