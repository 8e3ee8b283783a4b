//! `calltrump night`: an alexa Bid Euchre night. Any number of named players from four
//! up play sets of 8 deals; partners change after each set, the extra players sit out in
//! turn for 30 points, and everyone keeps an individual score sheet.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use calltrump_engine::night::{Night, NightSheet, SetTable};
use calltrump_engine::{stream, Game, GameRules, Record, Seat};
use serde::Serialize;

use crate::external::ExternalArgs;
use crate::game_args::option_map;
use crate::play::play_interactive;
use crate::player::{Player, Seating};
use crate::table::{self, Event, Stop};

/// The most sets a night may have.
const MAX_SETS: u64 = 10_000;

/// Arguments of `night`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The players' names, separated by commas (at least four).
    #[arg(long, value_delimiter = ',', required = true)]
    players: Vec<String>,
    /// How many sets of 8 deals to play (1 to 10,000).
    #[arg(long, default_value_t = 4,
          value_parser = clap::value_parser!(u64).range(1..=MAX_SETS))]
    sets: u64,
    /// The seed of the deals and the bots (default: the clock; the night's first line
    /// and its record name it, so it can be played again).
    #[arg(long)]
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
    /// `--me` is saved to the data folder without it.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    #[command(flatten)]
    external: ExternalArgs,
}

/// One set of a night's record: who sat where, and the set's game.
#[derive(Serialize)]
struct SetRecord {
    table: SetTable,
    record: Record,
}

/// A night's record.
#[derive(Serialize)]
struct NightRecord<'a> {
    players: &'a [String],
    seed: u64,
    sets: Vec<SetRecord>,
    sheet: NightSheet,
}

fn alexa_rules(options: &[String]) -> Result<GameRules> {
    let map = option_map(options)?;
    for key in ["deals", "rounds"] {
        if map.contains_key(key) {
            bail!("--option {key}: a night's sets are always 8 deals");
        }
    }
    GameRules::from_header("bid-euchre", Some("alexa"), &map).map_err(|e| anyhow!("{e}"))
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
    writeln!(out, "* sat out")?;
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

/// Plays the night and prints the score sheet.
pub fn run(args: &Args) -> Result<ExitCode> {
    let rules = alexa_rules(&args.options)?;
    let set_count = args.sets as usize;
    let mut night = Night::new(args.players.clone(), set_count).map_err(|e| anyhow!("{e}"))?;
    let me = match &args.me {
        Some(name) => Some(
            night
                .players()
                .iter()
                .position(|p| p == name)
                .ok_or_else(|| anyhow!("--me {name} is not one of the players"))?,
        ),
        None => None,
    };
    let seed = args.seed.unwrap_or_else(crate::play::clock_seed);
    if args.seed.is_none() {
        println!("Night seed {seed} (--seed {seed} plays this night again).");
    }
    // A night with a person in it is kept, as `play` keeps a game: in the data folder
    // unless --record names a file.
    let record_path = match (&args.record, me) {
        (Some(path), _) => Some(path.clone()),
        (None, Some(_)) => {
            let folder = crate::serve::default_data_dir()
                .context("finding the folder for the night's record: give --record")?;
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("creating {}", folder.display()))?;
            Some(folder.join(format!("calltrump-night-{seed}.json")))
        }
        (None, None) => None,
    };
    let mut input = io::stdin().lock();
    let mut sets = Vec::new();
    for set in 0..set_count {
        let table_plan = night.table(set).map_err(|e| anyhow!("{e}"))?;
        let mut bot_rng = stream(seed, 2 * set as u64 + 1);
        let my_seat = me.and_then(|p| table_plan.seat_of(p));
        if let (Some(player), None) = (me, my_seat) {
            println!(
                "{} sits out set {} ({} points): the bots play it.",
                night.players()[player],
                set + 1,
                calltrump_engine::night::SIT_OUT_POINTS
            );
        }
        let people: Vec<Seat> = my_seat.map(|s| Seat(s as u8)).into_iter().collect();
        // Seat 0 of the set's table deals first.
        let mut table = table::seeded_with_dealer(&rules, Seat(0), seed, 2 * set as u64, &people);
        let mut players: Vec<Player> = (0..table.seats())
            .map(|s| {
                Player::from_spec(
                    &args.bots,
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
            println!("{}", crate::screen::fill(&header, crate::screen::columns()));
        }
        let stop = match my_seat {
            Some(seat) => play_interactive(
                &mut table,
                Seat(seat as u8),
                names.iter().map(|n| n.to_string()).collect(),
                &mut seating,
                &mut bot_rng,
                &mut input,
                None,
            )?,
            None => {
                let cell = std::cell::RefCell::new(&mut seating);
                table::play(
                    &mut table,
                    usize::MAX,
                    |game, seat, legal| {
                        cell.borrow_mut()
                            .at_seat(seat)
                            .act(game, seat, legal, &mut bot_rng, set as u64)
                            .map(Some)
                    },
                    |game, event| match event {
                        Event::HandOver => cell.borrow_mut().tell_hand(game, set as u64),
                        _ => Ok(()),
                    },
                )?
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
                None => println!(
                    "You sat this set out ({} points). Set {}: {result}.",
                    calltrump_engine::night::SIT_OUT_POINTS,
                    set + 1,
                ),
                Some(_) if stop == Stop::GameOver => println!("Set {} over: {result}.", set + 1),
                Some(_) => println!("Set {} stopped at {result}.", set + 1),
            }
        }
        if stop != Stop::GameOver {
            println!("Night stopped during set {}.", set + 1);
            sets.push(SetRecord {
                table: table_plan,
                record: table.record().clone(),
            });
            break;
        }
        night
            .record_set(set, table.game().scores())
            .map_err(|e| anyhow!("{e}"))?;
        sets.push(SetRecord {
            table: table_plan,
            record: table.record().clone(),
        });
    }
    let sheet = night.sheet();
    if let Some(path) = &record_path {
        let record = NightRecord {
            players: night.players(),
            seed,
            sets,
            sheet: sheet.clone(),
        };
        std::fs::write(path, serde_json::to_string(&record)? + "\n")
            .with_context(|| format!("saving the night to {}", path.display()))?;
        if args.record.is_none() {
            println!("Night record saved to {}", path.display());
        }
    }
    let mut out = io::stdout().lock();
    if args.json {
        crate::replay::write_json(&mut out, &sheet)?;
    } else {
        print_sheet(&night, &sheet, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}
