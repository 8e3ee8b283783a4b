//! The options that choose a game: `--game`, `--variant`, `--option KEY=VALUE`.

use anyhow::{anyhow, Result};
use calltrump_engine::fair_deal::CutSide;
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
        GameRules::from_header(&self.game, self.variant.as_deref(), &self.options()?)
            .map_err(|e| anyhow!("{e}"))
    }

    /// Who cuts a committed deal under `rules`: the `cut` option, else the rules' side.
    pub fn cut_side(&self, rules: &GameRules) -> Result<CutSide> {
        CutSide::from_options(rules, &self.options()?).map_err(|e| anyhow!("{e}"))
    }

    /// The `--option`s as a header's options.
    fn options(&self) -> Result<Map<String, Value>> {
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
        Ok(options)
    }
}
