//! `calltrump replay FILE`: validate a record and print its replay output.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use calltrump_engine::Record;

/// Arguments of `replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (JSON), or `-` for standard input.
    file: PathBuf,
}

/// The text of the record at `file`, or of standard input for `-`.
pub fn read_record(file: &Path) -> Result<String> {
    if file.as_os_str() == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        Ok(text)
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))
    }
}

/// Prints the replay JSON, or the one-line rule error on standard error with a
/// non-zero exit.
pub fn run(args: &Args) -> Result<ExitCode> {
    let text = read_record(&args.file)?;
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
