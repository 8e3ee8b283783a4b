//! `calltrump`: play, simulate and replay Kaibosh, Bid Euchre and Kout Bo.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analyze;
mod arena;
mod game_args;
mod hint;
mod input;
mod loadtest;
mod markdown;
mod migrate;
mod night;
mod play;
mod replay;
mod rules;
mod screen;
mod serve;
mod simulate;
mod text;
mod verify;

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
    /// Judge every decision of a game record with the expert bot, from what each seat
    /// knew; each hand's open-cards table; text, JSON or an HTML review.
    Analyze(analyze::Args),
    /// Play whole games between bots and summarise them.
    Simulate(simulate::Args),
    /// Play a game in the terminal against bots.
    Play(play::Args),
    /// Play an alexa Bid Euchre night: sets of 8 deals, partners changed after each
    /// set, sit-outs rotated, individual score sheets.
    Night(night::Args),
    /// Compare two bots: every deal played twice with the teams swapped.
    Arena(arena::Args),
    /// Check every deal of a record against its revealed seed, cut and commitment.
    Verify(verify::Args),
    /// Serve one of calltrump's bots over the bot protocol on standard input and output.
    Bot(BotArgs),
    /// Print the rules of a game, or without one the list of games.
    Rules(rules::Args),
    /// Run the table server: shared tables over WebSocket for friends and bots.
    Serve(serve::ServeArgs),
    /// Seat one of calltrump's bots at a seat link of a running server.
    Join(serve::JoinArgs),
    /// Load a server on loopback: many tables of join-style bots; actions/s, round
    /// trips and the server's memory per table.
    Loadtest(loadtest::Args),
    /// Copy a SQLite server's database (every table, log, chat line, night, account,
    /// session and rating) into an empty PostgreSQL database, and check the copy.
    Migrate(migrate::Args),
}

/// Arguments of `bot`.
#[derive(clap::Args, Debug)]
struct BotArgs {
    /// The bot or level to serve (`random`, `rules`, `easy` .. `expert`, ...).
    #[arg(long, default_value = "hard")]
    level: String,
    /// The seed of the bot's decisions.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0)]
    seed: u64,
}

/// A value clap refuses for `--seed`, `--hand` or `--set`, said in plain words: what
/// the flag takes.
fn plain_value_error(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let text = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.clone()),
        _ => None,
    };
    let flag = text(ContextKind::InvalidArg)?;
    let value = text(ContextKind::InvalidValue)?;
    let flag = flag.split(' ').next()?;
    match flag {
        "--seed" => Some(format!(
            "--seed must be a whole number from 0 to {}, not '{value}'",
            u64::MAX
        )),
        "--hand" | "--set" if value.trim() == "0" => Some(format!(
            "{flag} 0: {}s are numbered from 1, as play shows them",
            &flag[2..]
        )),
        "--hand" | "--set" => Some(format!(
            "{flag} takes the number of a {} (from 1), not '{value}'",
            &flag[2..]
        )),
        _ => None,
    }
}

/// The command that runs this program: `calltrump` when that is what the PATH finds,
/// else the path it was started by (`target/release/calltrump` under `cargo run`).
pub(crate) fn program() -> String {
    let Ok(me) = std::env::current_exe().and_then(std::fs::canonicalize) else {
        return "calltrump".to_string();
    };
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths)
            .any(|dir| std::fs::canonicalize(dir.join("calltrump")).is_ok_and(|found| found == me))
    });
    match on_path {
        true => "calltrump".to_string(),
        false => me.display().to_string(),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            if let Some(plain) = plain_value_error(&error) {
                let _ = writeln!(
                    io::stderr(),
                    "error: {plain}\n\nFor more information, try '--help'."
                );
                return ExitCode::from(2);
            }
            // Rust's words for a number that does not parse, in a person's.
            let text = error.render().to_string();
            let plain = text
                .replace(
                    "number too large to fit in target type",
                    "too large a number",
                )
                .replace("invalid digit found in string", "not a whole number")
                .replace(
                    "cannot parse integer from empty string",
                    "a number is missing",
                );
            if plain == text {
                error.exit();
            }
            let _ = write!(io::stderr(), "{plain}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Replay(args) => replay::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Night(args) => night::run(&args),
        Command::Rules(args) => rules::run(&args),
        Command::Serve(args) => serve::serve(&args),
        Command::Join(args) => serve::join(&args),
        Command::Loadtest(args) => loadtest::run(&args),
        Command::Migrate(args) => migrate::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Bot(args) => calltrump_play::bot_protocol::BotServer::new(&args.level, args.seed)
            .map_err(anyhow::Error::msg)
            .and_then(|mut server| {
                // A person who typed `calltrump bot` should know what it waits for.
                if io::stdin().is_terminal() {
                    let _ = writeln!(
                        io::stderr(),
                        "calltrump bot: waiting for bot protocol lines (JSON, one a line) on \
                         standard input; see docs/bot-protocol.md. Ctrl-D ends."
                    );
                }
                server.serve(io::stdin().lock(), io::stdout().lock())?;
                Ok(ExitCode::SUCCESS)
            }),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            // A closed pipe (`calltrump ... | head`) is a clean exit, not an error,
            // however deep in the error's causes it lies.
            let broken_pipe = error.chain().any(|cause| {
                let kind = cause
                    .downcast_ref::<io::Error>()
                    .map(io::Error::kind)
                    .or_else(|| cause.downcast_ref::<serde_json::Error>()?.io_error_kind());
                kind == Some(io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            // "(os error 2)" after the system's own words says nothing more to a person.
            let message = format!("{error:#}");
            let message = match message.rfind(" (os error ") {
                Some(at) if message.ends_with(')') => &message[..at],
                _ => &message,
            };
            let _ = writeln!(io::stderr(), "error: {message}");
            ExitCode::FAILURE
        }
    }
}
