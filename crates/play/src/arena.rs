//! A duplicate match on several threads and its report: the workers that play the
//! pairs of a [`Match`] and sum them as they finish (exactly, so the result does not
//! depend on the threads), the line that names the match in its CSV file, and the
//! report's figures. The `calltrump arena` command prints them.

pub mod csv;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use anyhow::{anyhow, Result};
use calltrump_engine::{AnyGame, Game, Seat};
use serde::Serialize;

use crate::duplicate::{Lineup, Match, Side, Tally};
use crate::external::Terms;
use crate::stats::{Interval, TimeStats};
use csv::CsvWriter;

/// The whole report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The game.
    pub game: String,
    /// Its variant.
    pub variant: String,
    /// Bot A's name.
    pub a: String,
    /// Bot B's name.
    pub b: String,
    /// `deals` or `games`.
    pub mode: &'static str,
    /// The pairs played or read back.
    pub pairs: u64,
    /// Pairs read back from the `--resume` CSV: they count in the means and the
    /// difference but carry no contracts or decision times.
    pub resumed_pairs: u64,
    /// The seed every deal and decision derives from.
    pub seed: u64,
    /// Mean points per deal (or final score per game) of A and of B.
    pub mean_a: f64,
    /// B's, as A's.
    pub mean_b: f64,
    /// A minus B per deal (or game), with its 95% confidence interval.
    pub difference: Interval,
    /// Game mode: A's share of wins (draws count half), with its 95% interval.
    pub win_rate_a: Option<Interval>,
    /// The contracts each bot won, by kind.
    pub contracts: Vec<ContractRow>,
    /// Per bot, over its decisions with more than one legal action.
    pub decision_time_ms: [TimeRow; 2],
}

/// A kind of contract a bot won, and how often it made it.
#[derive(Debug, Serialize)]
pub struct ContractRow {
    /// The bot.
    pub bot: Side,
    /// The kind of contract.
    pub contract: String,
    /// How often it won one.
    pub won: u64,
    /// How often it made it.
    pub made: u64,
}

/// Decision times in milliseconds.
#[derive(Debug, Serialize)]
pub struct Times {
    /// How many.
    pub decisions: u64,
    /// Their mean.
    pub mean: f64,
    /// Their median.
    pub median: f64,
    /// Their 99th percentile.
    pub p99: f64,
}

impl Times {
    /// The figures of `stats`.
    pub fn of(stats: &TimeStats) -> Times {
        Times {
            decisions: stats.count(),
            mean: stats.mean_ms(),
            median: stats.quantile_ms(0.5),
            p99: stats.quantile_ms(0.99),
        }
    }
}

/// A bot's decision times.
#[derive(Debug, Serialize)]
pub struct TimeRow {
    /// The bot.
    pub bot: Side,
    /// Over every decision with a choice.
    #[serde(flatten)]
    pub all: Times,
    /// Calls, trump, gives and discards.
    pub auction: Times,
    /// Cards played.
    pub play: Times,
}

/// `deals` or `games`.
fn mode(game_match: &Match) -> &'static str {
    if game_match.whole_game {
        "games"
    } else {
        "deals"
    }
}

/// The line that names the match in its CSV: everything the pairs' results depend on
/// (the bots as given, `ext:COMMAND` or a name).
pub fn match_line(game_match: &Match, bots: [&str; 2]) -> String {
    let rules = game_match.rules;
    // Only whole games can reach the deal limit.
    let max_deals = match game_match.whole_game {
        true => format!(" max_deals={}", game_match.max_deals),
        false => String::new(),
    };
    format!(
        "# arena game={} variant={} options={} a={} b={} seed={} mode={}{max_deals}",
        rules.game(),
        rules.variant(),
        serde_json::Value::Object(rules.options()),
        bots[0],
        bots[1],
        game_match.seed,
        mode(game_match)
    )
}

/// The report on the match summed in `tally`.
pub fn report(game_match: &Match, names: [String; 2], tally: &Tally) -> Report {
    let rules = game_match.rules;
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
        mode: mode(game_match),
        pairs: tally.pairs,
        resumed_pairs: tally.resumed,
        seed: game_match.seed,
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

/// What the workers share.
pub struct Work<'a> {
    /// The two bots as given: a name or `ext:COMMAND`.
    pub bots: [&'a str; 2],
    /// How outside bots are held.
    pub terms: Terms,
    /// The match.
    pub game_match: &'a Match<'a>,
    /// The pairs still to play, handed out one at a time.
    pub todo: Mutex<Box<dyn Iterator<Item = u64> + Send + 'a>>,
    /// The CSV file each pair is written to as it finishes, if any.
    pub csv: Option<&'a CsvWriter>,
    /// The sum of the pairs played.
    pub tally: &'a Mutex<Tally>,
    /// The players' names as the first worker's players gave them.
    pub names: &'a Mutex<Option<[String; 2]>>,
}

/// Plays the pairs of `work` on `threads` workers, each with its own players, adding
/// each pair to the tally and writing its row to the CSV as it is finished. The first
/// error stops every worker. `finished` is told of each pair played (a progress bar).
pub fn play_pairs(work: &Work<'_>, threads: usize, finished: &(dyn Fn() + Sync)) -> Result<()> {
    let failed = AtomicBool::new(false);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let lock_error = || anyhow!("a worker failed");
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (failed, failure) = (&failed, &failure);
            scope.spawn(move || {
                let result = (|| -> Result<()> {
                    let empty = AnyGame::new(work.game_match.rules, Seat(0));
                    let mut lineup = Lineup::new(work.bots, &empty, work.terms)?;
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
                        finished();
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
    match failure.into_inner() {
        Ok(Some(error)) => Err(error),
        Ok(None) => Ok(()),
        Err(_) => Err(lock_error()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duplicate::Pair;
    use calltrump_engine::GameRules;

    #[test]
    fn a_report_from_pairs_read_back_from_the_csv_matches_the_one_go_report() {
        let dir = std::env::temp_dir().join(format!("calltrump-arena-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for mode in ["--deals", "--games"] {
            let path = dir.join(format!("merged{mode}.csv"));
            let mut options = serde_json::Map::new();
            options.insert("deals".into(), 2.into());
            let rules = GameRules::from_header("kaibosh", None, &options).unwrap();
            let game_match = Match {
                rules: &rules,
                seed: 5,
                whole_game: mode == "--games",
                max_deals: 1000,
            };
            let bots = ["rules", "random"];
            let empty = AnyGame::new(&rules, Seat(0));
            let terms = Terms::from_ms(1, 0);
            let mut lineup = Lineup::new(bots, &empty, terms).unwrap();
            let played: Vec<Pair> = (0..6)
                .map(|index| game_match.play_pair(index, &mut lineup).unwrap())
                .collect();
            let names = || ["A".to_string(), "B".to_string()];
            let mut one_go = Tally::default();
            // In the order pairs might finish on several threads.
            for index in [3, 0, 5, 1, 2, 4] {
                one_go.add(index, &played[index as usize], true);
            }
            let one_go = report(&game_match, names(), &one_go);

            // A stopped run that had finished pairs 4 and 1, resumed.
            let meta = match_line(&game_match, bots);
            let writer = CsvWriter::create(&path, &meta).unwrap();
            for index in [4, 1] {
                writer.write(index, &played[index as usize]).unwrap();
            }
            drop(writer);
            let (done, _writer) = CsvWriter::resume(&path, &meta).unwrap();
            assert_eq!(done.keys().copied().collect::<Vec<_>>(), [1, 4]);
            let mut merged = Tally::default();
            for (&index, pair) in &done {
                merged.add(index, pair, false);
            }
            let todo = [0, 2, 3, 5];
            for index in todo {
                merged.add(index, &played[index as usize], true);
            }
            let merged = report(&game_match, names(), &merged);

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
