//! `calltrump simulate`: whole games between bots, summarised.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use calltrump_engine::{AnyGame, Game, Seat};
use indicatif::{ProgressBar, ProgressStyle};

use crate::game_args::ExternalArgs;
use crate::game_args::{GameArgs, MAX_DEALS, MAX_GAMES};
use calltrump_play::player::Player;
use calltrump_play::simulate::{simulate, Summary};

/// Arguments of `simulate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// How many games to play (1 to 1,000,000,000).
    #[arg(long, default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// The seed every deal and bot decision derives from.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0)]
    seed: u64,
    /// The bots or levels (`--level` is the same flag): one for every seat, or one per
    /// seat separated by commas (e.g. `hard,easy,hard,easy`); `ext:COMMAND` seats an
    /// outside program that speaks the bot protocol.
    #[arg(long, alias = "level", default_value = "rules")]
    bots: String,
    #[command(flatten)]
    external: ExternalArgs,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// End a game that has not ended after this many deals as a draw (random bots can
    /// drive both teams' scores down for ever); 1 to 1,000,000.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_DEALS))]
    max_deals: u64,
    /// Save every game's record to FILE, one JSON line each.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
}

/// The summary in words.
fn print(summary: &Summary, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "{} games of {} ({}), seed {}, bots {}",
        summary.games,
        summary.game,
        summary.variant,
        summary.seed,
        summary.bots.join(",")
    )?;
    for team in 0..2 {
        writeln!(
            out,
            "team {team}: {} wins ({:.1}%), {:.2} points per hand",
            summary.wins[team],
            100.0 * summary.wins[team] as f64 / summary.games.max(1) as f64,
            summary.points_per_hand[team]
        )?;
    }
    writeln!(out, "draws: {}", summary.draws)?;
    if summary.deal_limit_draws > 0 {
        writeln!(
            out,
            "  of which {} reached the deal limit ({} deals) and ended there as draws",
            summary.deal_limit_draws, summary.max_deals
        )?;
    }
    // Only what happened: Kout Bo has no throw-ins and no misdeals.
    let mut short = Vec::new();
    if summary.thrown_in > 0 {
        short.push(format!("{} thrown in", summary.thrown_in));
    }
    if summary.misdeals > 0 {
        short.push(format!("{} misdealt", summary.misdeals));
    }
    match short.is_empty() {
        true => writeln!(out, "hands: {}", summary.hands)?,
        false => writeln!(out, "hands: {} ({})", summary.hands, short.join(", "))?,
    }
    writeln!(
        out,
        "{:<10} {:>8} {:>8} {:>7}",
        "contract", "won", "made", "made%"
    )?;
    for (kind, tally) in &summary.contracts {
        writeln!(
            out,
            "{kind:<10} {:>8} {:>8} {:>6.1}%",
            tally.bid,
            tally.made,
            100.0 * tally.made as f64 / tally.bid.max(1) as f64
        )?;
    }
    Ok(())
}

/// Plays the games and prints the summary.
pub fn run(args: &Args) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let names: Vec<&str> = args.bots.split(',').collect();
    let empty = AnyGame::new(&rules, Seat(0));
    let seats = empty.seats();
    let names: Vec<String> = match names.len() {
        1 => vec![names[0].to_string(); seats],
        n if n == seats => names.iter().map(|s| s.to_string()).collect(),
        n => bail!("--bots names {n} bots; this game has {seats} seats (give 1 or {seats})"),
    };
    // One player per seat: an outside program sees one seat's cards only.
    let mut players: Vec<Player> = names
        .iter()
        .enumerate()
        .map(|(s, name)| Player::from_spec(name, Seat(s as u8), &empty, args.external.terms()))
        .collect::<Result<_>>()?;
    if let Some(path) = &args.records {
        calltrump_play::save::refuse_to_write_over_a_game_going_on(path, "--records")?;
    }
    let mut records = match &args.records {
        Some(path) => Some((
            BufWriter::new(
                File::create(path).with_context(|| format!("creating {}", path.display()))?,
            ),
            path,
        )),
        None => None,
    };
    let progress = if io::stderr().is_terminal() && args.games >= 20 {
        ProgressBar::new(args.games).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left")
                .expect("a valid template"),
        )
    } else {
        ProgressBar::hidden()
    };
    let summary = simulate(
        &rules,
        args.seed,
        args.games,
        args.max_deals,
        &mut players,
        names,
        |table| {
            if let Some((out, path)) = records.as_mut() {
                writeln!(out, "{}", table.record().to_json())
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            progress.inc(1);
            Ok(())
        },
    )?;
    progress.finish_and_clear();
    if let Some((mut out, path)) = records {
        out.flush()
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &summary)?;
        writeln!(out)?;
    } else {
        print(&summary, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}
