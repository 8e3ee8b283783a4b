//! `calltrump analyze RECORD`: every decision of a game judged by the expert bot from
//! what the deciding seat knew, each hand's open-cards table, and a summary per seat; as
//! text, `--json`, or an HTML review (`--html FILE`). The work is in
//! [`calltrump_play::analysis`].

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use calltrump_play::analysis::{analyze, decision_count, AnalysisError, Settings};
use indicatif::{ProgressBar, ProgressStyle};

use calltrump_play::records::{file_games, read_record, source_name};
use calltrump_play::review::Seating;

/// Arguments of `analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game record (JSON, docs/notation.md), a night's record or a file of games one a
    /// line (choose one with --set), or `-` for standard input.
    record: PathBuf,
    /// Print the analysis as JSON.
    #[arg(long)]
    json: bool,
    /// Of a night's record, the set to analyse (from 1); of a file of games one a line,
    /// the game (from 1).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    set: Option<u64>,
    /// Analyse only hand N, counted from 1 as `play` numbers hands.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    hand: Option<u64>,
    /// Deals the expert samples per card play (default 150, its own); calls get 60 per
    /// 150 (at least one). 1 to 100,000.
    #[arg(long, value_name = "S",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    samples: Option<u32>,
    /// The seed of the sampled deals.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "X",
        default_value_t = 0
    )]
    seed: u64,
    /// Also write a review to FILE: a self-contained HTML page walking the game hand by
    /// hand and trick by trick, with the marks, the open-cards tables and the score.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Suit letters (AS, TH) instead of suit symbols in the text.
    #[arg(long)]
    ascii: bool,
}

/// Analyses the record; a record that is not valid exits 1 with its one-line error.
pub fn run(args: &Args) -> Result<ExitCode> {
    let text = read_record(&args.record)?;
    let mut games = file_games(&args.record, &text);
    let source = source_name(&args.record);
    if let Some(n) = args.set {
        let count = games.len();
        if n as usize > count {
            bail!(
                "there is no set {n}: {source} holds {}",
                match count {
                    1 => "one game".to_string(),
                    count => format!("{count} games"),
                }
            );
        }
        games = vec![games.swap_remove(n as usize - 1)];
    }
    let mut record = match games.as_slice() {
        [(_, Ok(record))] => record.clone(),
        [(_, Err(error))] => {
            eprintln!("{error}");
            return Ok(ExitCode::FAILURE);
        }
        more => bail!(
            "{source} holds {} games; analyze takes one: choose it with --set N (a set \
             of a night, or a line of a file of games, from 1)",
            more.len()
        ),
    };
    // A record taken while a hand is played shows that hand with no deal: the hands
    // before it are analysed (hands are numbered from 1, as `play` shows them).
    if record
        .hands
        .last()
        .is_some_and(|hand| hand.deal.iter().all(Vec::is_empty))
    {
        record.hands.pop();
        let in_play = record.hands.len() + 1;
        match args.hand {
            Some(n) if n as usize == in_play => bail!(
                "hand {in_play} of {source} was in play when it was saved: its deal is not \
                 shown until it ends, so it cannot be analysed{}",
                match in_play {
                    1 => String::new(),
                    2 => "; hand 1 can".to_string(),
                    n => format!("; hands 1 to {} can", n - 1),
                }
            ),
            _ => eprintln!(
                "Hand {in_play} was in play when {source} was saved: its deal is not shown, \
                 so it is left out."
            ),
        }
    }
    let mut settings = Settings {
        seed: args.seed,
        hand: args.hand.map(|n| n as usize - 1),
        ..Settings::expert()
    };
    if let Some(samples) = args.samples {
        settings = settings.with_samples(samples);
    }
    let progress = if io::stderr().is_terminal() {
        ProgressBar::new(decision_count(&record, &settings) as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} decisions, {eta} left")
                .expect("a valid template"),
        )
    } else {
        ProgressBar::hidden()
    };
    let analysis = analyze(&record, &settings, &mut || progress.inc(1));
    progress.finish_and_clear();
    let analysis = match analysis {
        Ok(analysis) => analysis,
        Err(error @ AnalysisError::Record(_)) => {
            eprintln!("{source}: {error}");
            return Ok(ExitCode::FAILURE);
        }
        Err(error) => return Err(error.into()),
    };
    if let Some(path) = &args.html {
        calltrump_play::save::refuse_to_write_over_a_save(path, "--html")?;
        let seating = Seating::of_file(&args.record, &text, args.set);
        std::fs::write(path, calltrump_play::review::html(&analysis, &seating))
            .with_context(|| format!("writing the review to {}", path.display()))?;
    }
    let mut out = io::stdout().lock();
    if args.json {
        crate::replay::write_json(&mut out, &analysis)?;
    } else {
        write!(
            out,
            "{}",
            calltrump_play::analysis_text::text_report(
                &analysis,
                &crate::screen::stdout_style(args.ascii)
            )
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
