//! `calltrump replay FILE`: validate a record and print its replay output, or walk
//! through the game trick by trick (`--show`).

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use calltrump_engine::{AnyGame, Game, Record, Seat, Turn, Viewer};

use crate::screen::{self, Names};
use calltrump_play::game_loop::Event;
use calltrump_play::records::{file_games, read_record, set_players};

/// Arguments of `replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (JSON): one game, a file of games one per line (`simulate --records`)
    /// or a night's record (`night --record`); `-` reads standard input.
    file: PathBuf,
    /// Walk through the game trick by trick instead of printing its replay JSON: every
    /// hand face up, or as one seat saw it with --seat. On a terminal, Enter shows the
    /// next trick.
    #[arg(long)]
    show: bool,
    /// With --show: the seat whose view to show (its cards only).
    #[arg(long, requires = "show")]
    seat: Option<u8>,
}

/// Prints the replay JSON of each game (a file of several: one line each), or walks
/// through them with `--show`; a game that does not replay is named on standard error
/// in one line and the exit is non-zero.
pub fn run(args: &Args) -> Result<ExitCode> {
    let text = read_record(&args.file)?;
    let games = file_games(&args.file, &text);
    let several = games.len() > 1;
    let players = set_players(&text);
    let mut out = io::stdout().lock();
    let mut failed = false;
    for (i, (label, record)) in games.into_iter().enumerate() {
        let place = label.map(|l| format!("{l}: ")).unwrap_or_default();
        let replayed = record.and_then(|r| {
            r.replay()
                .map(|(replay, _)| (r, replay))
                .map_err(|e| e.to_string())
        });
        let (record, replay) = match replayed {
            Ok(done) => done,
            Err(error) => {
                eprintln!("{place}{error}");
                failed = true;
                continue;
            }
        };
        if args.show {
            if several {
                writeln!(out, "=== {}", place.trim_end_matches(": "))?;
            }
            let names = players.get(i).cloned().unwrap_or_default();
            if !show(&record, args.seat, names, &mut out)? {
                break;
            }
        } else if several {
            serde_json::to_writer(&mut out, &replay)?;
            writeln!(out)?;
        } else {
            write_json(&mut out, &replay)?;
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Tells the game of `record` hand by hand and trick by trick: every hand face up, or
/// as `seat` saw it, seats called by their `players`' names when known. On a terminal,
/// waits for Enter after each trick; returns false if the reader stopped (`q` or end
/// of input).
fn show(
    record: &Record,
    seat: Option<u8>,
    players: Vec<String>,
    out: &mut impl Write,
) -> Result<bool> {
    let (rules, first_dealer) = record.rules().map_err(|e| anyhow::anyhow!("{e}"))?;
    let table = AnyGame::new(&rules, first_dealer);
    let seats = table.seats();
    let me = match seat {
        Some(s) if usize::from(s) >= seats => {
            bail!(
                "--seat {s} does not exist: this game has seats 0 to {}",
                seats - 1
            )
        }
        Some(s) => Some(Seat(s)),
        None => None,
    };
    let style = crate::screen::stdout_style(false);
    let names = match me {
        Some(me) => Names::new(&table, me),
        None => Names::onlooker(&table),
    }
    .with_players(players);
    let step = io::stdin().is_terminal() && io::stdout().is_terminal();
    let mut stopped = false;
    let mut lines = Vec::new();
    let result = record.replay_watched(|game, step_taken| {
        if stopped {
            return;
        }
        // Everyone's own cards are seen by their seat; the onlooker takes each actor's.
        let viewer = |actor: Option<Seat>| Viewer::Seat(me.or(actor).unwrap_or(Seat(0)));
        match step_taken {
            None => {
                lines.extend(screen::narrate(
                    &style,
                    &names,
                    game,
                    viewer(None),
                    &Event::Dealt,
                ));
                for s in 0..seats {
                    let s = Seat(s as u8);
                    if me.is_none_or(|me| me == s) {
                        let view = game.view(Viewer::Seat(s));
                        let order =
                            calltrump_play::style::card_order(game.rules().kind(), view.trump);
                        let hand = view.hand.unwrap_or_default();
                        lines.push(format!(
                            "  {}: {}",
                            names.short(s),
                            screen::show_hand(&style, order, hand)
                        ));
                    }
                }
            }
            Some((actor, action)) => {
                let event = Event::Acted(actor, action);
                let told = screen::narrate(&style, &names, game, viewer(Some(actor)), &event);
                let trick_over = told.len() > 1;
                lines.extend(told);
                if !matches!(game.turn(), Turn::Seat(_)) {
                    lines.extend(screen::narrate(
                        &style,
                        &names,
                        game,
                        viewer(Some(actor)),
                        &Event::HandOver,
                    ));
                }
                if trick_over && step {
                    let _ = flush_lines(&mut lines, &mut io::stdout());
                    print!("(Enter: next trick, q: stop) ");
                    let _ = io::stdout().flush();
                    let mut answer = String::new();
                    let read = io::stdin().lock().read_line(&mut answer).unwrap_or(0);
                    stopped = read == 0 || answer.trim().eq_ignore_ascii_case("q");
                }
            }
        }
    });
    flush_lines(&mut lines, out)?;
    let (_, game) = result.map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(outcome) = game.outcome() {
        writeln!(
            out,
            "\n{}",
            screen::game_closed(&names, outcome, game.scores())
        )?;
    } else if !stopped {
        writeln!(
            out,
            "\nThe record stops here. Score: {}.",
            names.us_them(game.scores())
        )?;
    }
    Ok(!stopped)
}

/// Writes `value` as indented JSON and a line end: the `--json` output of a command.
pub fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}

/// Writes out and forgets the lines told so far.
fn flush_lines(lines: &mut Vec<String>, out: &mut impl Write) -> io::Result<()> {
    for line in lines.drain(..) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
