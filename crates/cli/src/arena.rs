//! `calltrump arena`: compares two bots fairly. Every deal (or game) is played twice with
//! the same cards at the same seats and the teams swapped (duplicate), so the luck of the
//! cards cancels and the difference measures the bots.
//!
//! An outside bot (`ext:COMMAND`) runs as one process per seat and per half of a pair:
//! no process is ever shown two seats' cards of the same deal. Results are summed as
//! each pair finishes (exactly, so they do not depend on the threads), never held
//! for the whole match. The match is [`calltrump_play::duplicate`], its workers, figures
//! and CSV [`calltrump_play::arena`]; here are the command, its printed report and its
//! progress bar.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::{anyhow, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use crate::game_args::ExternalArgs;
use crate::game_args::{GameArgs, MAX_DEALS, MAX_GAMES};
use calltrump_play::arena::csv::CsvWriter;
use calltrump_play::arena::{match_line, play_pairs, report, Report, Times, Work};
use calltrump_play::duplicate::{Match, Pair, Tally};
use calltrump_play::player::Player;

/// The most worker threads.
const MAX_THREADS: u64 = 256;

/// Arguments of `arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Bot A: a bot name (`random`, `rules`, `ismcts`, `pimc`, `easy` .. `expert`) or
    /// `ext:COMMAND` for an outside program speaking the bot protocol (one process per
    /// seat and per half of each pair).
    #[arg(long)]
    a: String,
    /// Bot B, as for `--a`.
    #[arg(long)]
    b: String,
    /// Deals to play, each twice with the teams swapped (1 to 1,000,000,000).
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    deals: u64,
    /// Play this many whole games (each twice, teams swapped) instead of single deals,
    /// and report win rates (1 to 1,000,000,000).
    #[arg(long, conflicts_with = "deals",
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: Option<u64>,
    /// The seed every deal and decision derives from.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: every core; 1 to 256). The results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
    threads: Option<u64>,
    #[command(flatten)]
    external: ExternalArgs,
    /// End a whole game after this many deals as a draw (1 to 1,000,000).
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_DEALS))]
    max_deals: u64,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Write a row per deal (or game) to FILE as soon as it is played, in the order
    /// pairs finish (sort by `index`); the first line, `# arena ...`, names the match.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Continue the match in the `--csv` FILE (a stopped run, or one with fewer pairs):
    /// play only the pairs missing from it, append them, and report over all of them.
    /// A file from a different match (game, options, bots, seed, mode) is refused.
    #[arg(long, requires = "csv")]
    resume: bool,
    /// Draw the running difference with its 95% confidence band to FILE (SVG).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

fn print_report(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let unit = if report.mode == "games" {
        "game"
    } else {
        "deal"
    };
    writeln!(
        out,
        "{} ({}): A = {}, B = {}; {} {unit}s, each played twice with the teams swapped; seed {}",
        report.game, report.variant, report.a, report.b, report.pairs, report.seed
    )?;
    if report.resumed_pairs > 0 {
        writeln!(
            out,
            "{} {unit}s read back from the CSV; the contract and time figures cover the {} played in this run",
            report.resumed_pairs,
            report.pairs - report.resumed_pairs
        )?;
    }
    writeln!(
        out,
        "points per {unit}: A {:.3}, B {:.3}",
        report.mean_a, report.mean_b
    )?;
    let d = &report.difference;
    writeln!(
        out,
        "A - B per {unit}: {:+.3}, 95% CI [{:+.3}, {:+.3}]{}",
        d.mean,
        d.low,
        d.high,
        if d.low > 0.0 {
            " (A is stronger)"
        } else if d.high < 0.0 {
            " (B is stronger)"
        } else {
            " (no clear difference)"
        }
    )?;
    if let Some(w) = &report.win_rate_a {
        writeln!(
            out,
            "A wins {:.1}% of games (draws half), 95% CI [{:.1}%, {:.1}%]",
            100.0 * w.mean,
            100.0 * w.low,
            100.0 * w.high
        )?;
    }
    writeln!(
        out,
        "{:<4} {:<10} {:>8} {:>8} {:>7}",
        "bot", "contract", "won", "made", "made%"
    )?;
    for row in &report.contracts {
        writeln!(
            out,
            "{:<4} {:<10} {:>8} {:>8} {:>6.1}%",
            format!("{:?}", row.bot),
            row.contract,
            row.won,
            row.made,
            100.0 * row.made as f64 / row.won.max(1) as f64
        )?;
    }
    writeln!(
        out,
        "decision time (ms, decisions with a choice): mean, median, p99 over all / auction / play"
    )?;
    for row in &report.decision_time_ms {
        let t = |t: &Times| {
            format!(
                "{:.3} {:.3} {:.3} ({})",
                t.mean, t.median, t.p99, t.decisions
            )
        };
        writeln!(
            out,
            "  {:?}: {} / {} / {}",
            row.bot,
            t(&row.all),
            t(&row.auction),
            t(&row.play)
        )?;
    }
    Ok(())
}

/// Opens the `--csv` file, if any: new, or with `--resume` holding the pairs returned.
fn open_csv(args: &Args, game_match: &Match) -> Result<(Option<CsvWriter>, BTreeMap<u64, Pair>)> {
    let meta = match_line(game_match, [&args.a, &args.b]);
    Ok(match &args.csv {
        Some(path) if args.resume => {
            let (done, writer) = CsvWriter::resume(path, &meta)?;
            (Some(writer), done)
        }
        Some(path) => (Some(CsvWriter::create(path, &meta)?), BTreeMap::new()),
        None => (None, BTreeMap::new()),
    })
}

/// Plays the match on every core and reports it.
pub fn run(args: &Args) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let count = args.games.unwrap_or(args.deals);
    let game_match = Match {
        rules: &rules,
        seed: args.seed,
        whole_game: args.games.is_some(),
        max_deals: args.max_deals as usize,
    };
    let (csv, done) = open_csv(args, &game_match)?;
    let mut tally = Tally {
        plotted: args.plot.as_ref().map(|_| Vec::new()),
        ..Tally::default()
    };
    // Pairs beyond this run's count are left out.
    let done: BTreeMap<u64, Pair> = done.into_iter().filter(|(i, _)| *i < count).collect();
    for (&index, pair) in &done {
        tally.add(index, pair, false);
    }
    let missing = count - done.len() as u64;
    let threads = args
        .threads
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        )
        .min(missing.try_into().unwrap_or(usize::MAX));
    let tally = Mutex::new(tally);
    let names = Mutex::new(None);
    let done_indexes: Vec<u64> = done.into_keys().collect();
    let work = Work {
        bots: [&args.a, &args.b],
        terms: args.external.terms(),
        game_match: &game_match,
        todo: Mutex::new(Box::new(
            (0..count).filter(move |i| done_indexes.binary_search(i).is_err()),
        )),
        csv: csv.as_ref(),
        tally: &tally,
        names: &names,
    };
    let progress = if io::stderr().is_terminal() {
        ProgressBar::new(missing).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} pairs, {eta} left")
                .expect("a valid template"),
        )
    } else {
        ProgressBar::hidden()
    };
    let played = play_pairs(&work, threads, &|| progress.inc(1));
    progress.finish_and_clear();
    drop(work);
    if let Err(error) = played {
        return Err(error.context(match &args.csv {
            Some(path) => format!(
                "the match was stopped (the finished pairs are in {}; \
                 add --resume to play the rest)",
                path.display()
            ),
            None => "the match was stopped".to_string(),
        }));
    }
    let tally = tally.into_inner().map_err(|_| anyhow!("a worker failed"))?;
    // Without a worker (every pair read back), nothing was started to give a name.
    let names = match names.into_inner().ok().flatten() {
        Some(names) => names,
        None => [Player::spec_name(&args.a)?, Player::spec_name(&args.b)?],
    };
    if let (Some(path), Some(mut plotted)) = (&args.plot, tally.plotted.clone()) {
        plotted.sort_by_key(|(index, _)| *index);
        let differences: Vec<f64> = plotted.into_iter().map(|(_, d)| d).collect();
        let title = format!("{} vs {}: A - B per pair", names[0], names[1]);
        calltrump_play::save::refuse_to_write_over_a_save(path, "--plot")?;
        std::fs::write(
            path,
            calltrump_play::plot::running_mean_svg(&differences, &title),
        )
        .with_context(|| format!("writing {}", path.display()))?;
    }
    let report = report(&game_match, names, &tally);
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        print_report(&report, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}
