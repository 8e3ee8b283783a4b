//! `calltrump verify FILE`: recomputes every hand's deal from its revealed seed and cut
//! (or from the seeded generator the record names), checks the commitments, and prints
//! one line per hand (docs/fair-deals.md).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use calltrump_engine::fair_deal::{self, DealFault, HandCheck, HandSource};

use calltrump_play::records::{file_games, read_record};

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (JSON), or `-` for standard input.
    file: PathBuf,
}

/// `1 hand`, `3 hands`.
fn count(hands: usize) -> String {
    match hands {
        1 => "1 hand".to_string(),
        n => format!("{n} hands"),
    }
}

/// What a hand that checks out was dealt by.
fn source(check: &HandCheck) -> String {
    match check.source {
        HandSource::Committed {
            cut: Some(cut),
            cutter,
        } => format!(
            "committed; dealer {}, cut {cut} by seat {cutter}",
            check.dealer
        ),
        HandSource::Committed { cut: None, .. } | HandSource::Unknown => {
            format!("dealer {}", check.dealer)
        }
        HandSource::Seeded => format!("seeded; dealer {}", check.dealer),
    }
}

/// Prints `hand N: ok (...)` or one `hand N: ...` line per fault, then a summary; exits
/// 1 if any deal does not check out or the record cannot be read.
pub fn run(args: &Args) -> Result<ExitCode> {
    let text = read_record(&args.file)?;
    let mut out = io::stdout().lock();
    let mut all_ok = true;
    for (label, record) in file_games(&args.file, &text) {
        let place = label.map(|l| format!("{l}: ")).unwrap_or_default();
        // A record taken from a table while a hand is played shows that hand with no deal
        // and no seed yet: the hands before it are checked, it is only named.
        let mut in_play = None;
        let record = record.map(|mut record| {
            if record.hands.last().is_some_and(|hand| {
                hand.deal.iter().all(Vec::is_empty)
                    && hand.fair_deal.as_ref().is_none_or(|b| b.seed.is_none())
            }) {
                record.hands.pop();
                in_play = Some(record.hands.len());
            }
            record
        });
        let verification =
            match record.and_then(|r| fair_deal::verify(&r).map_err(|e| e.to_string())) {
                Ok(verification) => verification,
                Err(error) => {
                    eprintln!("{place}{error}");
                    all_ok = false;
                    continue;
                }
            };
        if let Some((recorded, drawn)) = verification.first_dealer {
            writeln!(
                out,
                "{place}first dealer: the record has seat {recorded}, the seed draws seat {drawn}"
            )?;
        }
        // Hands are numbered from 1, as `play` shows them.
        for check in &verification.hands {
            let hand = check.hand + 1;
            if check.is_ok() {
                writeln!(out, "{place}hand {hand}: ok ({})", source(check))?;
            }
            for fault in &check.faults {
                let fault = match fault {
                    DealFault::SeedReused { hand } => {
                        format!("the seed was already revealed for hand {}", hand + 1)
                    }
                    other => other.to_string(),
                };
                writeln!(out, "{place}hand {hand}: {fault}")?;
            }
        }
        if let Some(hand) = in_play {
            writeln!(
                out,
                "{place}hand {}: in play, not checked (its deal and seed are shown when it ends)",
                hand + 1
            )?;
        }
        let hands = verification.hands.len();
        let failed = verification.hands.iter().filter(|c| !c.is_ok()).count();
        if hands == 0 && in_play.is_some() {
            writeln!(out, "{place}no hand is over yet: nothing to check")?;
        } else if verification.is_ok() {
            writeln!(out, "{place}{}: every deal checks out", count(hands))?;
        } else {
            let verb = if failed == 1 { "does" } else { "do" };
            writeln!(
                out,
                "{place}{}: {failed} {verb} not check out",
                count(hands)
            )?;
            all_ok = false;
        }
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
