//! `calltrump replay FILE`: validate a record and print its replay output.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use calltrump_engine::Record;

/// Arguments of `replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (JSON), or `-` for standard input.
    file: PathBuf,
}

/// Prints the replay JSON, or the one-line rule error on standard error with a
/// non-zero exit.
pub fn run(args: &Args) -> Result<ExitCode> {
    let text = if args.file.as_os_str() == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        text
    } else {
        std::fs::read_to_string(&args.file)
            .with_context(|| format!("reading {}", args.file.display()))?
    };
    let replay = Record::parse(&text).and_then(|record| record.replay());
    match replay {
        Ok((replay, _)) => {
            let mut out = io::stdout().lock();
            serde_json::to_writer_pretty(&mut out, &replay)?;
            writeln!(out)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("{error}");
            Ok(ExitCode::FAILURE)
        }
    }
}
