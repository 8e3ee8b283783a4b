//! `calltrump simulate`: whole games between bots, summarised.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use calltrump_engine::{stream, AnyGame, Game, HandOutcome, HandSummary, Outcome, Seat};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::game_args::ExternalArgs;
use crate::game_args::{GameArgs, MAX_DEALS, MAX_GAMES};
use calltrump_play::duplicate::contract_kind;
use calltrump_play::game_loop::{self, Event, Stop};
use calltrump_play::player::{Player, Seating};

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

/// How often one kind of contract was won in the auction and made.
#[derive(Debug, Default, Serialize)]
struct ContractTally {
    bid: u64,
    made: u64,
}

/// What a simulation amounted to.
#[derive(Debug, Default, Serialize)]
struct Summary {
    game: String,
    variant: String,
    bots: Vec<String>,
    games: u64,
    seed: u64,
    wins: [u64; 2],
    /// Draws, those at the deal limit included.
    draws: u64,
    /// Games that reached `--max-deals` and ended there as draws.
    deal_limit_draws: u64,
    max_deals: u64,
    hands: u64,
    thrown_in: u64,
    misdeals: u64,
    points: [i64; 2],
    points_per_hand: [f64; 2],
    contracts: BTreeMap<String, ContractTally>,
}

impl Summary {
    fn add_hand(&mut self, hand: &HandSummary) {
        self.hands += 1;
        match hand.outcome {
            HandOutcome::ThrownIn => self.thrown_in += 1,
            HandOutcome::Misdeal => self.misdeals += 1,
            HandOutcome::Played | HandOutcome::InProgress => {}
        }
        if let (Some(contract), Some(declarer), Some(points)) =
            (hand.contract, hand.declarer, hand.points)
        {
            let tally = self.contracts.entry(contract_kind(contract)).or_default();
            tally.bid += 1;
            // A made contract always scores for the declarers; a failed one never does.
            if points[declarer.team().index()] > 0 {
                tally.made += 1;
            }
            self.points[0] += i64::from(points[0]);
            self.points[1] += i64::from(points[1]);
        }
    }

    fn print(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "{} games of {} ({}), seed {}, bots {}",
            self.games,
            self.game,
            self.variant,
            self.seed,
            self.bots.join(",")
        )?;
        for team in 0..2 {
            writeln!(
                out,
                "team {team}: {} wins ({:.1}%), {:.2} points per hand",
                self.wins[team],
                100.0 * self.wins[team] as f64 / self.games.max(1) as f64,
                self.points_per_hand[team]
            )?;
        }
        writeln!(out, "draws: {}", self.draws)?;
        if self.deal_limit_draws > 0 {
            writeln!(
                out,
                "  of which {} reached the deal limit ({} deals) and ended there as draws",
                self.deal_limit_draws, self.max_deals
            )?;
        }
        // Only what happened: Kout Bo has no throw-ins and no misdeals.
        let mut short = Vec::new();
        if self.thrown_in > 0 {
            short.push(format!("{} thrown in", self.thrown_in));
        }
        if self.misdeals > 0 {
            short.push(format!("{} misdealt", self.misdeals));
        }
        match short.is_empty() {
            true => writeln!(out, "hands: {}", self.hands)?,
            false => writeln!(out, "hands: {} ({})", self.hands, short.join(", "))?,
        }
        writeln!(
            out,
            "{:<10} {:>8} {:>8} {:>7}",
            "contract", "won", "made", "made%"
        )?;
        for (kind, tally) in &self.contracts {
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
    let at: Vec<usize> = (0..seats).collect();
    // Both the players' turns and the results go to the same seating.
    let seating = std::cell::RefCell::new(Seating {
        players: &mut players,
        at: &at,
    });
    if let Some(path) = &args.records {
        crate::save::refuse_to_write_over_a_game_going_on(path, "--records")?;
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
    let mut summary = Summary {
        game: rules.game().to_string(),
        variant: rules.variant().to_string(),
        bots: names.clone(),
        games: args.games,
        seed: args.seed,
        max_deals: args.max_deals,
        ..Summary::default()
    };
    for index in 0..args.games {
        // Separate streams for the cards and the bots, so a change of bot never
        // changes the deals.
        let mut table = game_loop::seeded(&rules, args.seed, 2 * index, &[]);
        let mut bot_rng = stream(args.seed, 2 * index + 1);
        let stop = game_loop::play(
            &mut table,
            args.max_deals as usize,
            |game, seat, legal| {
                seating
                    .borrow_mut()
                    .at_seat(seat)
                    .act(game, seat, legal, &mut bot_rng, index)
                    .map(Some)
            },
            |game, event| {
                if matches!(event, Event::HandOver) {
                    summary.add_hand(&game.hand_summary());
                    seating.borrow_mut().tell_hand(game, index)?;
                }
                Ok(())
            },
        )?;
        seating
            .borrow_mut()
            .tell_game(table.game(), table.deals(), stop, index)?;
        match (stop, table.game().outcome()) {
            (_, Some(Outcome::Winner(team))) => summary.wins[team.index()] += 1,
            (_, Some(Outcome::Draw)) => summary.draws += 1,
            (Stop::DealLimit, None) => {
                summary.draws += 1;
                summary.deal_limit_draws += 1;
            }
            (_, None) => bail!("game {index} stopped before its end"),
        }
        if let Some((out, path)) = records.as_mut() {
            writeln!(out, "{}", table.record().to_json())
                .with_context(|| format!("writing {}", path.display()))?;
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    if let Some((mut out, path)) = records {
        out.flush()
            .with_context(|| format!("writing {}", path.display()))?;
    }
    for team in 0..2 {
        summary.points_per_hand[team] = summary.points[team] as f64 / summary.hands.max(1) as f64;
    }
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &summary)?;
        writeln!(out)?;
    } else {
        summary.print(&mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}
