//! `calltrump`: play, simulate and replay Kaibosh, Bid Euchre and Kout Bo.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod game_args;
mod play;
mod replay;
mod simulate;
mod table;

/// Card games in which the auction names trump: play, simulate, replay.
#[derive(Parser, Debug)]
#[command(name = "calltrump", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate a game record and print what it amounts to, as JSON.
    Replay(replay::Args),
    /// Play whole games between bots and summarise them.
    Simulate(simulate::Args),
    /// Play a game in the terminal against bots.
    Play(play::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay(args) => replay::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Play(args) => play::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            // A closed pipe (`calltrump ... | head`) is a clean exit, not an error.
            if error
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(io::stderr(), "error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
