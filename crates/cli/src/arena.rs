//! `calltrump arena`: compares two bots fairly. Every deal (or game) is played twice with
//! the same cards at the same seats and the teams swapped (duplicate), so the luck of the
//! cards cancels and the difference measures the bots.

mod csv;

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use calltrump_engine::{stream, Game, GameRng, GameRules, HandOutcome, Outcome, Seat, Team, Turn};
use csv::CsvWriter;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::game_args::GameArgs;
use crate::player::Player;
use crate::simulate::contract_kind;
use crate::stats::{self, Interval};
use crate::table::Table;

/// Arguments of `arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Bot A: a bot name (`random`, `rules`, `ismcts`, `pimc`, `easy` .. `expert`) or
    /// `ext:COMMAND` for an outside program speaking the bot protocol.
    #[arg(long)]
    a: String,
    /// Bot B, as for `--a`.
    #[arg(long)]
    b: String,
    /// Deals to play, each twice with the teams swapped.
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// Play this many whole games (each twice, teams swapped) instead of single deals,
    /// and report win rates.
    #[arg(long, conflicts_with = "deals")]
    games: Option<u64>,
    /// The seed every deal and decision derives from.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: every core). The results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Time an outside bot has for each decision, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    time_limit_ms: u64,
    /// Abandon a whole game after this many deals (counts as a draw).
    #[arg(long, default_value_t = 1000)]
    max_deals: usize,
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

/// Which bot, A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
enum Side {
    A,
    B,
}

/// One half of a duplicate pair: A at the seats of `a_team`.
#[derive(Clone, Debug, Default, Serialize)]
struct Half {
    /// Points (deals) or final scores (games) of A and B.
    a: i64,
    b: i64,
    /// Set in game mode: 1 for A's win, 0 for B's, 0.5 for a draw or an unfinished game.
    a_result: Option<f64>,
}

/// Both halves of one deal or game, and what the bots did in them.
#[derive(Clone, Debug, Default)]
struct Pair {
    halves: [Half; 2],
    /// (side, contract kind) -> (won, made)
    contracts: BTreeMap<(Side, String), (u64, u64)>,
    /// Decision times per side.
    times: [Vec<Duration>; 2],
}

impl Pair {
    /// A's advantage on this pair: points per deal (or game) of A minus B, averaged
    /// over the two halves.
    fn difference(&self) -> f64 {
        self.halves.iter().map(|h| (h.a - h.b) as f64).sum::<f64>() / 2.0
    }
}

/// The seats' bots for one half: A at the seats of `a_team`.
fn side_of(seat: Seat, a_team: Team) -> Side {
    if seat.team() == a_team {
        Side::A
    } else {
        Side::B
    }
}

/// What every half of a match shares.
struct Match<'a> {
    rules: &'a GameRules,
    seed: u64,
    whole_game: bool,
    max_deals: usize,
}

impl Match<'_> {
    /// The table of pair `index` and its generators for the deals and the bots. Both
    /// halves of a pair start from here, so they get the same cards at the same seats.
    fn pair_table(&self, index: u64) -> (Table, GameRng, GameRng) {
        let (table, deal_rng) = Table::seeded(self.rules, self.seed, 2 * index);
        let bot_rng = stream(self.seed, 2 * index + 1);
        (table, deal_rng, bot_rng)
    }

    /// Plays both halves of pair `index`.
    fn play_pair(&self, index: u64, players: &mut [Player; 2]) -> Result<Pair> {
        let mut pair = Pair::default();
        for (half, a_team) in [Team(0), Team(1)].into_iter().enumerate() {
            pair.halves[half] = self.play_half(index, a_team, players, &mut pair)?;
        }
        Ok(pair)
    }

    /// Plays one half of pair `index`: a single deal, or a whole game, with A at the
    /// seats of `a_team`.
    fn play_half(
        &self,
        index: u64,
        a_team: Team,
        players: &mut [Player; 2],
        pair: &mut Pair,
    ) -> Result<Half> {
        let (mut table, mut deal_rng, mut bot_rng) = self.pair_table(index);
        let limit = if self.whole_game { self.max_deals } else { 1 };
        let (times, contracts) = (&mut pair.times, &mut pair.contracts);
        table.play(
            &mut deal_rng,
            limit,
            |game, seat, legal| {
                let side = side_of(seat, a_team);
                let started = Instant::now();
                let action = players[side as usize].act(game, seat, legal, &mut bot_rng, index)?;
                times[side as usize].push(started.elapsed());
                Ok(Some(action))
            },
            |game, _| {
                // The action that ends a hand hands the turn to chance or ends the game.
                if matches!(game.turn(), Turn::Seat(_)) {
                    return;
                }
                let hand = game.hand_summary();
                if let (HandOutcome::Played, Some(contract), Some(declarer), Some(points)) =
                    (hand.outcome, hand.contract, hand.declarer, hand.points)
                {
                    let tally = contracts
                        .entry((side_of(declarer, a_team), contract_kind(contract)))
                        .or_default();
                    tally.0 += 1;
                    if points[declarer.team().index()] > 0 {
                        tally.1 += 1;
                    }
                }
            },
        )?;
        let scores = table.game.scores();
        Ok(Half {
            a: i64::from(scores[a_team.index()]),
            b: i64::from(scores[a_team.other().index()]),
            a_result: self.whole_game.then(|| match table.game.outcome() {
                Some(Outcome::Winner(team)) if team == a_team => 1.0,
                Some(Outcome::Winner(_)) => 0.0,
                Some(Outcome::Draw) | None => 0.5,
            }),
        })
    }
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
    decision_time_ms: [TimeRow; 2],
}

#[derive(Debug, Serialize)]
struct ContractRow {
    bot: Side,
    contract: String,
    won: u64,
    made: u64,
}

#[derive(Debug, Serialize)]
struct TimeRow {
    bot: Side,
    decisions: usize,
    median: f64,
    p99: f64,
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

/// The report on `pairs`, of which `resumed` were read back from the CSV.
fn report(
    args: &Args,
    rules: &GameRules,
    names: [String; 2],
    pairs: &[Pair],
    resumed: u64,
) -> Report {
    let differences: Vec<f64> = pairs.iter().map(Pair::difference).collect();
    let halves = pairs.iter().flat_map(|p| p.halves.iter());
    let count = (2 * pairs.len()).max(1) as f64;
    let (sum_a, sum_b) = halves.fold((0, 0), |(a, b), h| (a + h.a, b + h.b));
    let mut contracts: BTreeMap<(Side, String), (u64, u64)> = BTreeMap::new();
    for pair in pairs {
        for (key, (won, made)) in &pair.contracts {
            let tally = contracts.entry(key.clone()).or_default();
            tally.0 += won;
            tally.1 += made;
        }
    }
    let time_row = |side: Side| {
        let mut times: Vec<f64> = pairs
            .iter()
            .flat_map(|p| p.times[side as usize].iter())
            .map(|d| d.as_secs_f64() * 1000.0)
            .collect();
        times.sort_by(f64::total_cmp);
        TimeRow {
            bot: side,
            decisions: times.len(),
            median: stats::quantile(&times, 0.5),
            p99: stats::quantile(&times, 0.99),
        }
    };
    let results: Vec<f64> = pairs
        .iter()
        .flat_map(|p| p.halves.iter().filter_map(|h| h.a_result))
        .collect();
    Report {
        game: rules.game().to_string(),
        variant: rules.variant().to_string(),
        a: names[0].clone(),
        b: names[1].clone(),
        mode: mode(args),
        pairs: pairs.len() as u64,
        resumed_pairs: resumed,
        seed: args.seed,
        mean_a: sum_a as f64 / count,
        mean_b: sum_b as f64 / count,
        difference: stats::mean_interval(&differences),
        win_rate_a: (!results.is_empty()).then(|| stats::mean_interval(&results)),
        contracts: contracts
            .into_iter()
            .map(|((bot, contract), (won, made))| ContractRow {
                bot,
                contract,
                won,
                made,
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
    for row in &report.decision_time_ms {
        writeln!(
            out,
            "decision time {:?}: median {:.3} ms, p99 {:.3} ms over {} decisions",
            row.bot, row.median, row.p99, row.decisions
        )?;
    }
    Ok(())
}

/// The pairs of a match over `0..count` as they are played: those read back from the
/// CSV, then each one as a worker finishes it.
struct Slots(Vec<Mutex<Option<Pair>>>);

impl Slots {
    /// `count` slots, filled from `done` (pairs at `count` or beyond are left out).
    fn new(count: u64, mut done: BTreeMap<u64, Pair>) -> Slots {
        Slots((0..count).map(|i| Mutex::new(done.remove(&i))).collect())
    }

    /// The indexes still to play.
    fn missing(&self) -> Vec<u64> {
        (0..self.0.len() as u64)
            .filter(|&i| {
                self.0[i as usize]
                    .lock()
                    .expect("no poisoned slot")
                    .is_none()
            })
            .collect()
    }

    /// Stores pair `index`.
    fn fill(&self, index: u64, pair: Pair) {
        *self.0[index as usize].lock().expect("no poisoned slot") = Some(pair);
    }

    /// Every pair in index order, if all were played.
    fn into_pairs(self) -> Result<Vec<Pair>> {
        self.0
            .into_iter()
            .map(|slot| slot.into_inner().expect("no poisoned slot"))
            .collect::<Option<_>>()
            .ok_or_else(|| anyhow!("a pair was not played"))
    }
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

/// Plays the pairs `todo` on `threads` workers, each with its own bots, filling `slots`
/// and writing each pair's row to `csv` as it is finished. The first error stops every
/// worker.
fn play_pairs(
    args: &Args,
    game_match: &Match,
    todo: &[u64],
    threads: usize,
    slots: &Slots,
    csv: Option<&CsvWriter>,
) -> Result<()> {
    let time_limit = Duration::from_millis(args.time_limit_ms);
    let progress = if io::stderr().is_terminal() {
        ProgressBar::new(todo.len() as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} pairs, {eta} left")
                .expect("a valid template"),
        )
    } else {
        ProgressBar::hidden()
    };
    let failed = AtomicBool::new(false);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let (failed, failure, progress) = (&failed, &failure, &progress);
            scope.spawn(move || {
                let result = (|| -> Result<()> {
                    let mut players = [
                        Player::from_spec(&args.a, time_limit)?,
                        Player::from_spec(&args.b, time_limit)?,
                    ];
                    // Pair i always goes to the same seeds whatever thread plays it.
                    for &index in todo.iter().skip(worker).step_by(threads) {
                        if failed.load(Ordering::Relaxed) {
                            break;
                        }
                        let pair = game_match.play_pair(index, &mut players)?;
                        if let Some(csv) = csv {
                            csv.write(index, &pair)?;
                        }
                        slots.fill(index, pair);
                        progress.inc(1);
                    }
                    Ok(())
                })();
                if let Err(error) = result {
                    failed.store(true, Ordering::Relaxed);
                    failure
                        .lock()
                        .expect("no poisoned lock")
                        .get_or_insert(error);
                }
            });
        }
    });
    progress.finish_and_clear();
    match failure.into_inner().expect("no poisoned lock") {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// Plays the match on every core and reports it.
pub fn run(args: &Args) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let count = args.games.unwrap_or(args.deals);
    let time_limit = Duration::from_millis(args.time_limit_ms);
    let names = [
        Player::from_spec(&args.a, time_limit)?.name(),
        Player::from_spec(&args.b, time_limit)?.name(),
    ];
    let (csv, done) = open_csv(args, &rules)?;
    let slots = Slots::new(count, done);
    let todo = slots.missing();
    let resumed = count - todo.len() as u64;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, todo.len().max(1));
    let game_match = Match {
        rules: &rules,
        seed: args.seed,
        whole_game: args.games.is_some(),
        max_deals: args.max_deals,
    };
    if let Err(error) = play_pairs(args, &game_match, &todo, threads, &slots, csv.as_ref()) {
        return Err(error.context(match &args.csv {
            Some(path) => format!(
                "the match was stopped (the finished pairs are in {}; \
                 add --resume to play the rest)",
                path.display()
            ),
            None => "the match was stopped".to_string(),
        }));
    }
    let pairs = slots.into_pairs()?;
    if let Some(path) = &args.plot {
        let differences: Vec<f64> = pairs.iter().map(Pair::difference).collect();
        let title = format!("{} vs {}: A - B per pair", names[0], names[1]);
        std::fs::write(path, crate::plot::running_mean_svg(&differences, &title))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let report = report(args, &rules, names, &pairs, resumed);
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
    use calltrump_engine::GameRules;

    #[test]
    fn both_halves_of_a_pair_get_the_same_cards_with_the_teams_swapped() {
        for (game, variant) in [
            ("kaibosh", "standard"),
            ("kout", "kout6"),
            ("bid-euchre", "alexa"),
        ] {
            let rules = GameRules::from_header(game, Some(variant), &Default::default()).unwrap();
            let game_match = Match {
                rules: &rules,
                seed: 7,
                whole_game: false,
                max_deals: 1,
            };
            for index in 0..5 {
                let deal = || {
                    let (mut table, mut deal_rng, _) = game_match.pair_table(index);
                    table.game.deal_random(&mut deal_rng);
                    let seats = table.game.seats();
                    let hands: Vec<_> = (0..seats)
                        .map(|s| table.game.observation(Seat(s as u8)).dealt)
                        .collect();
                    (table.game.hand_summary().dealer, hands)
                };
                assert_eq!(deal(), deal(), "{game} pair {index}");
                // A different pair gets a different deal.
                assert_ne!(deal().1, {
                    let (mut table, mut rng, _) = game_match.pair_table(index + 100);
                    table.game.deal_random(&mut rng);
                    (0..table.game.seats())
                        .map(|s| table.game.observation(Seat(s as u8)).dealt)
                        .collect::<Vec<_>>()
                });
            }
            // In the second half every seat is played by the other bot.
            for seat in 0..6 {
                let seat = Seat(seat);
                assert_ne!(side_of(seat, Team(0)), side_of(seat, Team(1)));
                assert_eq!(side_of(seat, Team(0)) == Side::A, seat.team() == Team(0));
            }
        }
    }

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
                max_deals: args.max_deals,
            };
            let mut players =
                [&args.a, &args.b].map(|spec| Player::from_spec(spec, Duration::ZERO).unwrap());
            let played: Vec<Pair> = (0..6)
                .map(|index| game_match.play_pair(index, &mut players).unwrap())
                .collect();
            let names = || ["A".to_string(), "B".to_string()];
            let one_go = report(&args, &rules, names(), &played, 0);

            // A stopped run that had finished pairs 4 and 1, resumed.
            let writer = CsvWriter::create(&path, &match_line(&args, &rules)).unwrap();
            for index in [4, 1] {
                writer.write(index, &played[index as usize]).unwrap();
            }
            drop(writer);
            let (_, done) = open_csv(&args, &rules).unwrap();
            let slots = Slots::new(6, done);
            let todo = slots.missing();
            assert_eq!(todo, [0, 2, 3, 5]);
            for &index in &todo {
                slots.fill(index, played[index as usize].clone());
            }
            let merged = report(&args, &rules, names(), &slots.into_pairs().unwrap(), 2);

            assert_eq!(merged.difference, one_go.difference, "{mode}");
            assert_eq!(
                (merged.mean_a, merged.mean_b),
                (one_go.mean_a, one_go.mean_b)
            );
            assert_eq!(merged.win_rate_a, one_go.win_rate_a);
            assert_eq!(merged.win_rate_a.is_some(), mode == "--games");
            assert_eq!((merged.pairs, merged.resumed_pairs), (6, 2));
            // Decision times cover the pairs played in this run only.
            let decisions = |pairs: &[u64]| -> usize {
                pairs
                    .iter()
                    .map(|&i| played[i as usize].times[0].len())
                    .sum()
            };
            assert_eq!(merged.decision_time_ms[0].decisions, decisions(&todo));
            assert_eq!(
                one_go.decision_time_ms[0].decisions,
                decisions(&[0, 1, 2, 3, 4, 5])
            );
        }
    }

    #[test]
    fn the_pair_difference_averages_both_halves() {
        let pair = Pair {
            halves: [
                Half {
                    a: 4,
                    b: -2,
                    a_result: None,
                },
                Half {
                    a: 0,
                    b: 3,
                    a_result: None,
                },
            ],
            ..Pair::default()
        };
        // (4 - -2 + 0 - 3) / 2
        assert_eq!(pair.difference(), 1.5);
    }
}
