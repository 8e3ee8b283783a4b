//! `calltrump rules`: the rules of each game ([`calltrump_play::rules`]) drawn for the
//! terminal, through the pager on one. Also the list of the options of
//! every game that `--option` takes, for the help of `play`, `simulate` and `arena`.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{bail, Result};
use calltrump_engine::catalog::OptionValues;
use calltrump_engine::GameKind;
use calltrump_play::rules::{list, rules_text};

/// Arguments of `rules`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: kaibosh, bid-euchre or kout (or glossary); without one, the list of
    /// games.
    game: Option<String>,
    /// Keep only what applies to this variant (bid-euchre: alexa or simplified; kout:
    /// kout6 or kout4).
    #[arg(long)]
    variant: Option<String>,
}

/// Runs `calltrump rules`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let text = match &args.game {
        Some(game) => show(game, args.variant.as_deref())?,
        None if args.variant.is_some() => bail!("--variant needs a game"),
        None => list(),
    };
    io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The rules of `game` (see [`rules_text`]) drawn for the terminal, wrapped at its
/// width. On a terminal they go through the pager (`$PAGER`, else `less -R`) and what
/// is left to print is nothing; through a pipe, or when no pager runs, the plain text
/// (wrapped at `$COLUMNS`, else 80 columns, at most 100) is returned to be printed.
pub fn show(game: &str, variant: Option<&str>) -> Result<String> {
    let markdown = rules_text(game, variant)?;
    let terminal = io::stdout().is_terminal();
    let width = crate::text::columns()
        .unwrap_or(80)
        .min(crate::text::MOST_COLUMNS);
    let text = crate::markdown::render(&markdown, width, terminal);
    if terminal && through_pager(&text).is_ok() {
        return Ok(String::new());
    }
    Ok(text)
}

/// Shows `text` through the pager, waiting until the reader quits it.
fn through_pager(text: &str) -> io::Result<()> {
    let pager = std::env::var("PAGER")
        .ok()
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "less -R".to_string());
    let mut words = pager.split_whitespace();
    let program = words.next().unwrap_or("less");
    let mut child = std::process::Command::new(program)
        .args(words)
        .stdin(std::process::Stdio::piped())
        .spawn()?;
    if let Some(mut input) = child.stdin.take() {
        // A pager quit before the end closes its input: that is no error.
        let _ = input.write_all(text.as_bytes());
    }
    child.wait()?;
    Ok(())
}

/// The help of `--option`: every game's options with their values and defaults, from
/// the engine's catalogue.
pub fn options_help() -> String {
    let mut out = String::from(
        "An option of the game, as KEY=VALUE (repeatable), e.g. `--option target=100`.\n\
         Unknown keys and values are errors. The options, default in brackets\n\
         (`calltrump rules GAME` explains them):\n",
    );
    for game in GameKind::ALL {
        // A heading per game keeps every line within clap's 100 columns.
        let _ = writeln!(out, "  {game}:");
        for option in game.options() {
            let mut values = match option.values {
                OptionValues::Choice(_) => option.choices().collect::<Vec<_>>().join("|"),
                OptionValues::Count => format!("N (N >= 1), {}", option.meaning),
            };
            if !option.variants.is_empty() {
                let only: Vec<&str> = option.variants.iter().map(|v| v.name()).collect();
                values = format!("{values}, {} only", only.join(", "));
            }
            let default = option.default.unwrap_or("none");
            let _ = writeln!(out, "    {}={values} [{default}]", option.key);
        }
    }
    out.truncate(out.trim_end().len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use calltrump_engine::catalog::OptionSpec;

    /// Every option of every game, with its game.
    fn all_options() -> impl Iterator<Item = (GameKind, &'static OptionSpec)> {
        GameKind::ALL
            .into_iter()
            .flat_map(|game| game.options().iter().map(move |option| (game, option)))
    }

    #[test]
    fn the_options_are_those_of_the_notation_and_each_game_page_explains_them() {
        let notation = include_str!("../../../docs/notation.md");
        let section = notation
            .split("## Options")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("the notation has an Options section");
        let rows: Vec<&str> = section
            .lines()
            .filter(|l| l.starts_with("| "))
            .skip(1)
            .collect();
        let mut keys = 0;
        for row in rows {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let game = cells[1].split_whitespace().next().unwrap();
            for key in cells[2].split('`').skip(1).step_by(2) {
                keys += 1;
                assert!(
                    all_options().any(|(g, o)| g.name() == game && o.key == key),
                    "{game} {key} is in the notation but not in the help"
                );
            }
        }
        assert_eq!(
            keys,
            all_options().count(),
            "the help lists options the notation lacks"
        );
        for (game, option) in all_options() {
            let text = game.rules_document().text;
            assert!(
                text.contains(&format!("`{}`", option.key)),
                "{}",
                option.key
            );
            for choice in option.choices() {
                assert!(text.contains(&format!("`{choice}`")), "{game} {choice}");
            }
        }
        let help = options_help();
        for (_, option) in all_options() {
            assert!(help.contains(option.key));
        }
    }
}
