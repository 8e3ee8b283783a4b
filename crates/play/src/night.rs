//! An alexa Bid Euchre night as `calltrump night` plays and keeps it: the alexa rules
//! with the night's options, the plan of the night (new or read back from its record),
//! each set's table (replayed as far as a saved set went), and the night's record.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use calltrump_engine::catalog::options as spec;
use calltrump_engine::night::{Night, NightSheet, SetTable, SET_VARIANT};
use calltrump_engine::{GameRules, Record, Seat};
use serde::{Deserialize, Serialize};

use crate::game_loop::{self, Table};
use crate::options::option_map;
use crate::save;

/// One set of a night's record: who sat where, and the set's game.
#[derive(Serialize)]
pub struct SetRecord {
    /// Who sat where.
    pub table: SetTable,
    /// The set's game.
    pub record: Record,
}

/// A night's record: what `replay` and `analyze` read (each set's game), the sheet, and
/// what `--resume` goes on with.
#[derive(Serialize)]
pub struct NightRecord<'a> {
    /// The players' names.
    pub players: &'a [String],
    /// The night's seed.
    pub seed: u64,
    /// The sets played (the last perhaps going on).
    pub sets: &'a [SetRecord],
    /// The score sheet.
    pub sheet: NightSheet,
    /// How many sets the night has.
    pub planned_sets: usize,
    /// The bots.
    pub bots: &'a str,
    /// The player played by a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub me: Option<&'a str>,
    /// The alexa options (`KEY=VALUE`).
    pub options: &'a [String],
}

/// A night's record read back to go on with it.
#[derive(Deserialize)]
struct SavedNight {
    players: Vec<String>,
    seed: u64,
    sets: Vec<SavedSet>,
    planned_sets: usize,
    bots: String,
    #[serde(default)]
    me: Option<String>,
    #[serde(default)]
    options: Vec<String>,
}

/// A set of a night's record read back.
#[derive(Deserialize)]
struct SavedSet {
    record: Record,
}

/// The alexa rules with the night's options (`KEY=VALUE`); a set is always 8 deals.
pub fn alexa_rules(options: &[String]) -> Result<GameRules> {
    let map = option_map(options)?;
    for key in [spec::BID_EUCHRE_DEALS.key, spec::ROUNDS.key] {
        if map.contains_key(key) {
            bail!("--option {key}: a night's sets are always 8 deals");
        }
    }
    GameRules::from_header(SET_VARIANT.game().name(), Some(SET_VARIANT.name()), &map)
        .map_err(|e| anyhow!("{e}"))
}

/// The night to play: from the arguments, or from the saved record to go on with.
pub struct Plan {
    /// The players' names.
    pub players: Vec<String>,
    /// How many sets the night has.
    pub sets: usize,
    /// The seed of the deals and the bots.
    pub seed: u64,
    /// The bots.
    pub bots: String,
    /// The player played by a person.
    pub me: Option<String>,
    /// The alexa options (`KEY=VALUE`).
    pub options: Vec<String>,
    /// The sets played (the last perhaps unfinished, as a whole record).
    pub played: Vec<Record>,
}

/// The plan of the night saved at `path` (its record's `text`), to go on with it: the
/// set in play unsealed from the save's companion.
pub fn saved_plan(path: &Path, text: &str) -> Result<Plan> {
    let saved: SavedNight = serde_json::from_str(text).map_err(|_| {
        anyhow!(
            "{}: the record of a night from an older calltrump, or changed: it does not \
             say how many sets the night has, its bots and options",
            path.display()
        )
    })?;
    let companion = save::read_companion(path)?.unwrap_or_default();
    let mut played: Vec<Record> = saved.sets.into_iter().map(|s| s.record).collect();
    if let Some(last) = played.pop() {
        played.push(save::whole_record(path, last, companion.sealed.as_deref())?);
    }
    Ok(Plan {
        players: saved.players,
        sets: saved.planned_sets,
        seed: saved.seed,
        bots: saved.bots,
        me: saved.me,
        options: saved.options,
        played,
    })
}

/// The set `set` of the night's table: seeded from the night's seed, seat 0 dealing
/// first, and the actions of `saved` (the set as far as it was played) played again.
pub fn set_table(
    rules: &GameRules,
    seed: u64,
    set: usize,
    people: &[Seat],
    saved: Option<&Record>,
) -> Result<Table> {
    let mut table = game_loop::seeded_with_dealer(rules, Seat(0), seed, 2 * set as u64, people);
    let Some(saved) = saved else {
        return Ok(table);
    };
    game_loop::play_again(&mut table, &saved.hands)?;
    if table.record().hands != saved.hands {
        bail!(
            "set {}: the saved game does not follow from the night's seed {seed}",
            set + 1
        );
    }
    Ok(table)
}

/// Saves the night to `path`: the sets played, the one in play (`playing`) as far as
/// the player saw it, its cards sealed in the companion (none once the night is over).
pub fn save_night(
    path: &Path,
    night: &Night,
    plan: &Plan,
    sets: &[SetRecord],
    playing: Option<&Table>,
) -> Result<()> {
    let mut all: Vec<SetRecord> = Vec::new();
    let shown = playing.map(|table| SetRecord {
        table: night
            .table(sets.len())
            .expect("the set in play is one of the night's"),
        record: save::shown_record(table),
    });
    let sets = match shown {
        Some(set) => {
            all.extend(sets.iter().map(|s| SetRecord {
                table: s.table.clone(),
                record: s.record.clone(),
            }));
            all.push(set);
            &all[..]
        }
        None => sets,
    };
    let record = NightRecord {
        players: night.players(),
        seed: plan.seed,
        sets,
        sheet: night.sheet(),
        planned_sets: night.sets(),
        bots: &plan.bots,
        me: plan.me.as_deref(),
        options: &plan.options,
    };
    save::write_file(path, &(serde_json::to_string(&record)? + "\n"))
        .with_context(|| format!("saving the night to {}", path.display()))?;
    let companion = match (playing, night.sheet().complete) {
        (_, true) => None,
        (Some(table), false) => Some(save::companion(table, None)?),
        (None, false) => Some(save::Companion {
            calltrump_resume: 1,
            ..Default::default()
        }),
    };
    save::write_companion(path, companion.as_ref())
}
