//! `calltrump night`: an alexa Bid Euchre night. Any number of named players from four
//! up play sets of 8 deals; partners change after each set, the extra players sit out in
//! turn for 30 points, and everyone keeps an individual score sheet.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use calltrump_engine::night::{Night, NightSheet};
use calltrump_engine::{stream, Game, Seat, Turn};
use rand::Rng;

use crate::game_args::ExternalArgs;
use crate::input::{self, Lines};
use crate::play::{play_interactive, Person, Speed, Stopped};
use calltrump_play::game_loop::{self, Event, Stop, Table};
use calltrump_play::local::Dice;
use calltrump_play::night::{self, alexa_rules, set_table, Plan, SetRecord};
use calltrump_play::player::{Player, Seating};
use calltrump_play::save;

/// The most sets a night may have.
const MAX_SETS: u64 = 10_000;

/// Arguments of `night`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The players' names, separated by commas (at least four).
    #[arg(long, value_delimiter = ',', required_unless_present = "resume")]
    players: Vec<String>,
    /// How many sets of 8 deals to play (1 to 10,000).
    #[arg(long, default_value_t = 4,
          value_parser = clap::value_parser!(u64).range(1..=MAX_SETS))]
    sets: u64,
    /// The seed of the deals and the bots (default: the clock; the night's first line
    /// and its record name it, so it can be played again).
    #[arg(long, allow_hyphen_values = true)]
    seed: Option<u64>,
    /// The bot that plays for everyone but you.
    #[arg(long, alias = "level", default_value = "medium")]
    bots: String,
    /// Play yourself as this player (one of --players); the others are bots.
    #[arg(long, value_name = "NAME")]
    me: Option<String>,
    /// An option of the alexa rules, e.g. `--option all_pass=dealer-must-bid`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Print the score sheet as JSON.
    #[arg(long)]
    json: bool,
    /// Save the night's record (each set's table and game record) to FILE; a night with
    /// `--me` is saved to the data folder without it (calltrump-night-SEED.json, or -2,
    /// -3, ... added when that holds an unfinished night), after every hand.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Go on with the night saved in FILE (stopped by `quit`, Ctrl-C or the end of the
    /// input): its players, sets, seed, bots, options and you come from the record.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["players", "sets", "seed", "me", "options", "record"])]
    resume: Option<PathBuf>,
    /// With --me: how long the bots pause before each move on a terminal.
    #[arg(long, value_enum, default_value = "normal")]
    speed: Speed,
    /// With --me: suit letters (AS, TH) instead of suit symbols.
    #[arg(long)]
    ascii: bool,
    #[command(flatten)]
    external: ExternalArgs,
}

/// The score sheet as a table: a row per player, a column per set, and the total.
fn print_sheet(night: &Night, sheet: &NightSheet, out: &mut impl Write) -> io::Result<()> {
    let width = night
        .players()
        .iter()
        .map(|p| p.len())
        .max()
        .unwrap_or(4)
        .max(6);
    write!(out, "{:<width$}", "player")?;
    for set in 0..night.sets() {
        write!(out, " {:>8}", format!("set {}", set + 1))?;
    }
    writeln!(out, " {:>7}", "total")?;
    for player in &sheet.players {
        write!(out, "{:<width$}", player.name)?;
        for row in &player.rows {
            let cell = match (row.points, row.seat) {
                (Some(points), Some(_)) => points.to_string(),
                (Some(points), None) => format!("{points}*"),
                (None, _) => "-".to_string(),
            };
            write!(out, " {cell:>8}")?;
        }
        writeln!(out, " {:>7}", player.total)?;
    }
    let sat_out = sheet
        .players
        .iter()
        .flat_map(|p| &p.rows)
        .any(|row| row.points.is_some() && row.seat.is_none());
    if sat_out {
        writeln!(out, "* sat out")?;
    }
    if sheet.complete {
        let verb = if sheet.shared {
            "share the win"
        } else {
            "wins"
        };
        writeln!(out, "{} {verb}.", sheet.winners.join(" and "))?;
    }
    Ok(())
}

/// The plan of a new night from the arguments.
fn new_plan(args: &Args) -> Result<Plan> {
    for (i, name) in args.players.iter().enumerate() {
        if name.trim().is_empty() {
            bail!(
                "--players: player {} of {} has no name (names are separated by commas)",
                i + 1,
                args.players.len()
            );
        }
    }
    let seed = args.seed.unwrap_or_else(game_loop::clock_seed);
    Ok(Plan {
        players: args.players.iter().map(|p| p.trim().to_string()).collect(),
        sets: args.sets as usize,
        seed,
        bots: args.bots.clone(),
        me: args.me.clone(),
        options: args.options.clone(),
        played: Vec::new(),
    })
}

/// The plan of the night saved at `path`, to go on with it.
fn saved_plan(path: &Path) -> Result<Plan> {
    let text = calltrump_play::records::read_record(path)?;
    if !calltrump_play::records::is_night_record(&text) {
        bail!(
            "{} is not the record of a night (a game goes on with {} play --resume {})",
            path.display(),
            crate::program(),
            path.display()
        );
    }
    night::saved_plan(path, &text)
}

/// Plays the night (or goes on with a saved one) and prints the score sheet.
pub fn run(args: &Args) -> Result<ExitCode> {
    let plan = match &args.resume {
        Some(path) => saved_plan(path)?,
        None => new_plan(args)?,
    };
    let rules = alexa_rules(&plan.options)?;
    let set_count = plan.sets;
    let mut night = Night::new(plan.players.clone(), set_count).map_err(|e| anyhow!("{e}"))?;
    let me = match &plan.me {
        Some(name) => Some(
            night
                .players()
                .iter()
                .position(|p| p == name)
                .ok_or_else(|| anyhow!("--me {name} is not one of the players"))?,
        ),
        None => None,
    };
    let seed = plan.seed;
    // Told once the night's arguments are known to be good.
    if args.resume.is_none() && args.seed.is_none() {
        println!("Night seed {seed} (--seed {seed} plays this night again).");
    }
    // A night with a person in it is kept, as `play` keeps a game: in the data folder
    // unless --record names a file.
    let resume_command = format!("{} night --resume", crate::program());
    let new_path = |wanted: &Path, given: bool| -> Result<PathBuf> {
        let (path, note) = save::new_save_path(wanted, given, "night", &resume_command)?;
        if let Some(note) = note {
            println!("{note}");
        }
        Ok(path)
    };
    let record_path = match (&args.resume, &args.record, me) {
        (Some(path), _, _) => Some(path.clone()),
        (None, Some(path), _) => Some(new_path(path, true)?),
        (None, None, Some(_)) => {
            let folder = save::default_data_dir()
                .context("finding the folder for the night's record: give --record")?;
            Some(new_path(
                &folder.join(format!("calltrump-night-{seed}.json")),
                false,
            )?)
        }
        (None, None, None) => None,
    };
    // One calltrump at a time goes on with a night's save.
    let _lock = record_path.as_deref().map(save::lock).transpose()?;
    // Saves the night: the sets played, the one in play as far as the player saw it
    // (its cards sealed in the companion).
    let keep = |night: &Night, sets: &[SetRecord], playing: Option<&Table>| -> Result<()> {
        match &record_path {
            Some(path) => night::save_night(path, night, &plan, sets, playing),
            None => Ok(()),
        }
    };
    // Ctrl-C stops a night with a person in it, which is then saved.
    let mut stdin = me.map(|_| input::Stdin::start());
    let mut sets: Vec<SetRecord> = Vec::new();
    let mut stopped = Stopped::No;
    if let (Some(_), Some(path)) = (&args.resume, &record_path) {
        println!(
            "Going on with the night in {} after {} of {set_count} sets.",
            path.display(),
            plan.played
                .iter()
                .filter(|r| r.replay().is_ok_and(|(_, g)| g.turn() == Turn::Over))
                .count()
        );
    }
    for set in 0..set_count {
        let table_plan = night.table(set).map_err(|e| anyhow!("{e}"))?;
        let my_seat = me.and_then(|p| table_plan.seat_of(p));
        let people: Vec<Seat> = my_seat.map(|s| Seat(s as u8)).into_iter().collect();
        let mut table = set_table(&rules, seed, set, &people, plan.played.get(set))?;
        if table.turn() == Turn::Over {
            // A set the saved night finished.
            night
                .record_set(set, table.game().scores())
                .map_err(|e| anyhow!("{e}"))?;
            sets.push(SetRecord {
                table: table_plan,
                record: table.record().clone(),
            });
            continue;
        }
        let mut bot_rng = stream(seed, 2 * set as u64 + 1);
        if let (Some(player), None) = (me, my_seat) {
            println!(
                "{} sits out set {} ({} points): the bots play it.",
                night.players()[player],
                set + 1,
                calltrump_engine::night::SIT_OUT_POINTS
            );
        }
        let mut players: Vec<Player> = (0..table.seats())
            .map(|s| {
                Player::from_spec(
                    &plan.bots,
                    Seat(s as u8),
                    table.game(),
                    args.external.terms(),
                )
            })
            .collect::<Result<_>>()?;
        let at: Vec<usize> = (0..players.len()).collect();
        let mut seating = Seating {
            players: &mut players,
            at: &at,
        };
        let names: Vec<&str> = table_plan
            .seats
            .iter()
            .map(|&p| night.players()[p].as_str())
            .collect();
        if me.is_some() {
            let header = format!(
                "\n##### Set {}: seats 0-3 {}; {} and {} are partners against {} and {}{}",
                set + 1,
                names.join(", "),
                names[0],
                names[2],
                names[1],
                names[3],
                match table_plan.sitting_out.len() {
                    0 => String::new(),
                    _ => format!(
                        "; sitting out: {}",
                        table_plan
                            .sitting_out
                            .iter()
                            .map(|&p| night.players()[p].as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            );
            println!("{}", crate::text::fill_screen(&header));
        }
        let stop = match (my_seat, stdin.as_mut()) {
            (Some(seat), Some(input)) => {
                let person = Person {
                    me: Seat(seat as u8),
                    players: names.iter().map(|n| n.to_string()).collect(),
                    input,
                    ascii: args.ascii,
                    speed: args.speed,
                };
                // The bots' dice of each decision from the night's seed, the set, the
                // hand and the action: a set resumed goes on as it would have.
                let dice = Dice(stream(seed, 2 * set as u64 + 1).random());
                let (stop, why) =
                    play_interactive(&mut table, person, &mut seating, dice, None, &mut |table| {
                        keep(&night, &sets, Some(table))
                    })?;
                stopped = why;
                stop
            }
            (_, input) => {
                let cell = std::cell::RefCell::new(&mut seating);
                let stop = game_loop::play(
                    &mut table,
                    usize::MAX,
                    |game, seat, legal| {
                        if input.as_ref().is_some_and(|i| i.interrupted()) {
                            return Ok(None);
                        }
                        cell.borrow_mut()
                            .at_seat(seat)
                            .act(game, seat, legal, &mut bot_rng, set as u64)
                            .map(Some)
                    },
                    |game, event| match event {
                        Event::HandOver => cell.borrow_mut().tell_hand(game, set as u64),
                        _ => Ok(()),
                    },
                )?;
                if stop == Stop::Quit {
                    stopped = Stopped::Interrupted;
                    // A set of bots alone starts again from its seed.
                    table = set_table(&rules, seed, set, &people, None)?;
                }
                stop
            }
        };
        seating.tell_game(table.game(), table.deals(), stop, set as u64)?;
        if me.is_some() {
            let scores = table.game().scores();
            let result = format!(
                "{} and {} {}, {} and {} {}",
                names[0], names[2], scores[0], names[1], names[3], scores[1]
            );
            match my_seat {
                None if stop == Stop::GameOver => println!(
                    "You sat this set out ({} points). Set {}: {result}.",
                    calltrump_engine::night::SIT_OUT_POINTS,
                    set + 1,
                ),
                Some(_) if stop == Stop::GameOver => println!("Set {} over: {result}.", set + 1),
                _ => println!("Set {} stopped at {result}.", set + 1),
            }
        }
        if stop != Stop::GameOver {
            println!("Night stopped during set {}.", set + 1);
            keep(&night, &sets, table.deals().gt(&0).then_some(&table))?;
            break;
        }
        night
            .record_set(set, table.game().scores())
            .map_err(|e| anyhow!("{e}"))?;
        sets.push(SetRecord {
            table: table_plan,
            record: table.record().clone(),
        });
        keep(&night, &sets, None)?;
    }
    let sheet = night.sheet();
    if let Some(path) = &record_path {
        if !sheet.complete {
            println!("Go on with:");
            println!("  {resume_command} {}", path.display());
        }
        if args.record.is_none() || args.resume.is_some() {
            println!("Night record saved to {}", path.display());
        }
    }
    let mut out = io::stdout().lock();
    if args.json {
        crate::replay::write_json(&mut out, &sheet)?;
    } else {
        print_sheet(&night, &sheet, &mut out)?;
    }
    Ok(match stopped {
        Stopped::Interrupted => ExitCode::from(130),
        Stopped::InputEnded => ExitCode::FAILURE,
        Stopped::No | Stopped::Quit => ExitCode::SUCCESS,
    })
}
