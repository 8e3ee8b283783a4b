//! `calltrump arena`: compares two bots fairly. Every deal (or game) is played twice with
//! the same cards at the same seats and the teams swapped (duplicate), so the luck of the
//! cards cancels and the difference measures the bots.
//!
//! An outside bot (`ext:COMMAND`) runs as one process per seat and per half of a pair:
//! no process is ever shown two seats' cards of the same deal. Results are summed as
//! each pair finishes (exactly, so they do not depend on the threads), never held
//! for the whole match. The match itself is [`calltrump_play::duplicate`]; here are the
//! command, its workers, its report, its CSV and its progress bar.

mod csv;

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use anyhow::{anyhow, Context, Result};
use calltrump_engine::{AnyGame, Game, GameRules, Seat};
use csv::CsvWriter;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::game_args::ExternalArgs;
use crate::game_args::{GameArgs, MAX_DEALS, MAX_GAMES};
use calltrump_play::duplicate::{Lineup, Match, Pair, Side, Tally};
use calltrump_play::player::Player;
use calltrump_play::stats::{Interval, TimeStats};

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

/// The whole report.
#[derive(Debug, Serialize)]
struct Report {
    game: String,
    variant: String,
    a: String,
    b: String,
    mode: &'static str,
    pairs: u64,
    /// Pairs read back from the `--resume` CSV: they count in the means and the
    /// difference but carry no contracts or decision times.
    resumed_pairs: u64,
    seed: u64,
    /// Mean points per deal (or final score per game) of A and of B.
    mean_a: f64,
    mean_b: f64,
    /// A minus B per deal (or game), with its 95% confidence interval.
    difference: Interval,
    /// Game mode: A's share of wins (draws count half), with its 95% interval.
    win_rate_a: Option<Interval>,
    contracts: Vec<ContractRow>,
    /// Per bot, over its decisions with more than one legal action.
    decision_time_ms: [TimeRow; 2],
}

#[derive(Debug, Serialize)]
struct ContractRow {
    bot: Side,
    contract: String,
    won: u64,
    made: u64,
}

/// Decision times in milliseconds.
#[derive(Debug, Serialize)]
struct Times {
    decisions: u64,
    mean: f64,
    median: f64,
    p99: f64,
}

impl Times {
    fn of(stats: &TimeStats) -> Times {
        Times {
            decisions: stats.count(),
            mean: stats.mean_ms(),
            median: stats.quantile_ms(0.5),
            p99: stats.quantile_ms(0.99),
        }
    }
}

#[derive(Debug, Serialize)]
struct TimeRow {
    bot: Side,
    /// Over every decision with a choice.
    #[serde(flatten)]
    all: Times,
    /// Calls, trump, gives and discards.
    auction: Times,
    /// Cards played.
    play: Times,
}

/// `deals` or `games`.
fn mode(args: &Args) -> &'static str {
    if args.games.is_some() {
        "games"
    } else {
        "deals"
    }
}

/// The line that names the match in its CSV: everything the pairs' results depend on.
fn match_line(args: &Args, rules: &GameRules) -> String {
    // Only whole games can reach the deal limit.
    let max_deals = match args.games {
        Some(_) => format!(" max_deals={}", args.max_deals),
        None => String::new(),
    };
    format!(
        "# arena game={} variant={} options={} a={} b={} seed={} mode={}{max_deals}",
        rules.game(),
        rules.variant(),
        serde_json::Value::Object(rules.options()),
        args.a,
        args.b,
        args.seed,
        mode(args)
    )
}

/// The report on the match summed in `tally`.
fn report(args: &Args, rules: &GameRules, names: [String; 2], tally: &Tally) -> Report {
    let halves = (2 * tally.pairs).max(1) as f64;
    let time_row = |side: Side| {
        let [auction, play] = &tally.times[side as usize];
        let mut all = auction.clone();
        all.merge(play);
        TimeRow {
            bot: side,
            all: Times::of(&all),
            auction: Times::of(auction),
            play: Times::of(play),
        }
    };
    Report {
        game: rules.game().to_string(),
        variant: rules.variant().to_string(),
        a: names[0].clone(),
        b: names[1].clone(),
        mode: mode(args),
        pairs: tally.pairs,
        resumed_pairs: tally.resumed,
        seed: args.seed,
        mean_a: tally.sum_a as f64 / halves,
        mean_b: tally.sum_b as f64 / halves,
        difference: tally.differences.interval(2.0),
        win_rate_a: (tally.results.n > 0).then(|| tally.results.interval(2.0)),
        contracts: tally
            .contracts
            .iter()
            .map(|((bot, contract), (won, made))| ContractRow {
                bot: *bot,
                contract: contract.clone(),
                won: *won,
                made: *made,
            })
            .collect(),
        decision_time_ms: [time_row(Side::A), time_row(Side::B)],
    }
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
fn open_csv(args: &Args, rules: &GameRules) -> Result<(Option<CsvWriter>, BTreeMap<u64, Pair>)> {
    let meta = match_line(args, rules);
    Ok(match &args.csv {
        Some(path) if args.resume => {
            let (done, writer) = CsvWriter::resume(path, &meta)?;
            (Some(writer), done)
        }
        Some(path) => (Some(CsvWriter::create(path, &meta)?), BTreeMap::new()),
        None => (None, BTreeMap::new()),
    })
}

/// What the workers share.
struct Work<'a> {
    args: &'a Args,
    game_match: &'a Match<'a>,
    /// The pairs still to play, handed out one at a time.
    todo: Mutex<Box<dyn Iterator<Item = u64> + Send + 'a>>,
    csv: Option<&'a CsvWriter>,
    tally: &'a Mutex<Tally>,
    /// The players' names as the first worker's players gave them.
    names: &'a Mutex<Option<[String; 2]>>,
}

/// Plays the pairs of `work` on `threads` workers, each with its own players, adding
/// each pair to the tally and writing its row to the CSV as it is finished. The first
/// error stops every worker.
fn play_pairs(work: &Work<'_>, threads: usize, count: u64) -> Result<()> {
    let progress = if io::stderr().is_terminal() {
        ProgressBar::new(count).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} pairs, {eta} left")
                .expect("a valid template"),
        )
    } else {
        ProgressBar::hidden()
    };
    let failed = AtomicBool::new(false);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let lock_error = || anyhow!("a worker failed");
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (failed, failure, progress) = (&failed, &failure, &progress);
            scope.spawn(move || {
                let result = (|| -> Result<()> {
                    let empty = AnyGame::new(work.game_match.rules, Seat(0));
                    let mut lineup = Lineup::new(
                        [&work.args.a, &work.args.b],
                        &empty,
                        work.args.external.terms(),
                    )?;
                    work.names
                        .lock()
                        .map_err(|_| lock_error())?
                        .get_or_insert_with(|| lineup.names());
                    // Pair i always goes to the same seeds whatever thread plays it.
                    loop {
                        if failed.load(Ordering::Relaxed) {
                            break;
                        }
                        let next = work.todo.lock().map_err(|_| lock_error())?.next();
                        let Some(index) = next else { break };
                        let pair = work.game_match.play_pair(index, &mut lineup)?;
                        if let Some(csv) = work.csv {
                            csv.write(index, &pair)?;
                        }
                        work.tally
                            .lock()
                            .map_err(|_| lock_error())?
                            .add(index, &pair, true);
                        progress.inc(1);
                    }
                    Ok(())
                })();
                if let Err(error) = result {
                    failed.store(true, Ordering::Relaxed);
                    if let Ok(mut failure) = failure.lock() {
                        failure.get_or_insert(error);
                    }
                }
            });
        }
    });
    progress.finish_and_clear();
    match failure.into_inner() {
        Ok(Some(error)) => Err(error),
        Ok(None) => Ok(()),
        Err(_) => Err(lock_error()),
    }
}

/// Plays the match on every core and reports it.
pub fn run(args: &Args) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let count = args.games.unwrap_or(args.deals);
    let (csv, done) = open_csv(args, &rules)?;
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
    let game_match = Match {
        rules: &rules,
        seed: args.seed,
        whole_game: args.games.is_some(),
        max_deals: args.max_deals as usize,
    };
    let tally = Mutex::new(tally);
    let names = Mutex::new(None);
    let done_indexes: Vec<u64> = done.into_keys().collect();
    let work = Work {
        args,
        game_match: &game_match,
        todo: Mutex::new(Box::new(
            (0..count).filter(move |i| done_indexes.binary_search(i).is_err()),
        )),
        csv: csv.as_ref(),
        tally: &tally,
        names: &names,
    };
    let played = play_pairs(&work, threads, missing);
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
        crate::save::refuse_to_write_over_a_save(path, "--plot")?;
        std::fs::write(
            path,
            calltrump_play::plot::running_mean_svg(&differences, &title),
        )
        .with_context(|| format!("writing {}", path.display()))?;
    }
    let report = report(args, &rules, names, &tally);
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        print_report(&report, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use calltrump_play::external::Terms;

    /// The arena's arguments from a command line after `arena`.
    fn parse_args(line: &[&str]) -> Args {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        <Cli as clap::Parser>::parse_from(std::iter::once("arena").chain(line.iter().copied())).args
    }

    #[test]
    fn a_report_from_pairs_read_back_from_the_csv_matches_the_one_go_report() {
        let dir = std::env::temp_dir().join(format!("calltrump-arena-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for mode in ["--deals", "--games"] {
            let path = dir.join(format!("merged{mode}.csv"));
            let args = parse_args(&[
                "--a",
                "rules",
                "--b",
                "random",
                "--option",
                "deals=2",
                "--seed",
                "5",
                mode,
                "6",
                "--csv",
                path.to_str().unwrap(),
                "--resume",
            ]);
            let rules = args.game.rules().unwrap();
            let game_match = Match {
                rules: &rules,
                seed: args.seed,
                whole_game: args.games.is_some(),
                max_deals: args.max_deals as usize,
            };
            let empty = AnyGame::new(&rules, Seat(0));
            let terms = Terms::from_ms(1, 0);
            let mut lineup = Lineup::new([&args.a, &args.b], &empty, terms).unwrap();
            let played: Vec<Pair> = (0..6)
                .map(|index| game_match.play_pair(index, &mut lineup).unwrap())
                .collect();
            let names = || ["A".to_string(), "B".to_string()];
            let mut one_go = Tally::default();
            // In the order pairs might finish on several threads.
            for index in [3, 0, 5, 1, 2, 4] {
                one_go.add(index, &played[index as usize], true);
            }
            let one_go = report(&args, &rules, names(), &one_go);

            // A stopped run that had finished pairs 4 and 1, resumed.
            let writer = CsvWriter::create(&path, &match_line(&args, &rules)).unwrap();
            for index in [4, 1] {
                writer.write(index, &played[index as usize]).unwrap();
            }
            drop(writer);
            let (_, done) = open_csv(&args, &rules).unwrap();
            assert_eq!(done.keys().copied().collect::<Vec<_>>(), [1, 4]);
            let mut merged = Tally::default();
            for (&index, pair) in &done {
                merged.add(index, pair, false);
            }
            let todo = [0, 2, 3, 5];
            for index in todo {
                merged.add(index, &played[index as usize], true);
            }
            let merged = report(&args, &rules, names(), &merged);

            assert_eq!(merged.difference, one_go.difference, "{mode}");
            assert_eq!(
                (merged.mean_a, merged.mean_b),
                (one_go.mean_a, one_go.mean_b)
            );
            assert_eq!(merged.win_rate_a, one_go.win_rate_a);
            assert_eq!(merged.win_rate_a.is_some(), mode == "--games");
            assert_eq!((merged.pairs, merged.resumed_pairs), (6, 2));
            // Decision times cover the pairs played in this run only.
            let decisions = |pairs: &[u64]| -> u64 {
                pairs
                    .iter()
                    .map(|&i| {
                        let times = &played[i as usize].times;
                        times.iter().filter(|t| t.side == Side::A).count() as u64
                    })
                    .sum()
            };
            assert_eq!(merged.decision_time_ms[0].all.decisions, decisions(&todo));
            assert_eq!(
                one_go.decision_time_ms[0].all.decisions,
                decisions(&[0, 1, 2, 3, 4, 5])
            );
            let row = &one_go.decision_time_ms[0];
            assert_eq!(
                row.all.decisions,
                row.auction.decisions + row.play.decisions
            );
            assert!(row.auction.decisions > 0 && row.play.decisions > 0);
        }
    }
}
