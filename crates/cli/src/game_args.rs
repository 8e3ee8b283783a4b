//! The options that choose a game: `--game`, `--variant`, `--option KEY=VALUE`.

use anyhow::{anyhow, Result};
use calltrump_engine::GameRules;
use clap::Args;
use serde_json::{Map, Value};

/// Which game, variant and options to play.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The game: kaibosh, bid-euchre or kout.
    #[arg(long, default_value = "kaibosh")]
    pub game: String,
    /// The variant (default: the game's first: standard, alexa, kout6).
    #[arg(long)]
    pub variant: Option<String>,
    /// An option of the notation, e.g. `--option target=100` or
    /// `--option all_pass=dealer-must-bid`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE", long_help = crate::rules::options_help())]
    pub options: Vec<String>,
}

impl GameArgs {
    /// The rules these arguments name; unknown names and values are errors.
    pub fn rules(&self) -> Result<GameRules> {
        let mut options = Map::new();
        for option in &self.options {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| anyhow!("--option {option}: expected KEY=VALUE"))?;
            let value = match value.parse::<u64>() {
                Ok(n) => Value::from(n),
                Err(_) => Value::from(value),
            };
            options.insert(key.to_string(), value);
        }
        GameRules::from_header(&self.game, self.variant.as_deref(), &options)
            .map_err(|e| anyhow!("{e}"))
    }
}
