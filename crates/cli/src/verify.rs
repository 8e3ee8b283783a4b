//! `calltrump verify FILE`: recomputes every hand's deal from its revealed seed and cut
//! (or from the seeded generator the record names), checks the commitments, and prints
//! one line per hand (docs/fair-deals.md).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use calltrump_engine::fair_deal::{self, HandCheck, HandSource};
use calltrump_engine::Record;

use crate::replay::read_record;

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (JSON), or `-` for standard input.
    file: PathBuf,
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
    let verification = match Record::parse(&text).and_then(|record| fair_deal::verify(&record)) {
        Ok(verification) => verification,
        Err(error) => {
            eprintln!("{error}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let mut out = io::stdout().lock();
    if let Some((recorded, drawn)) = verification.first_dealer {
        writeln!(
            out,
            "first dealer: the record has seat {recorded}, the seed draws seat {drawn}"
        )?;
    }
    for check in &verification.hands {
        if check.is_ok() {
            writeln!(out, "hand {}: ok ({})", check.hand, source(check))?;
        }
        for fault in &check.faults {
            writeln!(out, "hand {}: {fault}", check.hand)?;
        }
    }
    let hands = verification.hands.len();
    let failed = verification.hands.iter().filter(|c| !c.is_ok()).count();
    if verification.is_ok() {
        writeln!(out, "{hands} hands: every deal checks out")?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "{hands} hands: {failed} do not check out")?;
        Ok(ExitCode::FAILURE)
    }
}
