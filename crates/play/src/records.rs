//! Files of records as the commands read them: one game, a file of games one a line
//! (`simulate --records`) or a night's record (each set's game), each game placed by a
//! label and a record that is not one said in words a person reads.

use std::io::{self, Read};
use std::path::Path;

use anyhow::{bail, Context, Result};
use calltrump_engine::Record;
use serde_json::Value;

/// The text of the record at `file`, or of standard input for `-`; an empty one is
/// refused as such.
pub fn read_record(file: &Path) -> Result<String> {
    let text = if file.as_os_str() == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        text
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?
    };
    if text.trim().is_empty() {
        bail!("{} is empty: there is no record in it", source_name(file));
    }
    Ok(text)
}

/// `file` as messages name it: its path, or `standard input` for `-`.
pub fn source_name(file: &Path) -> String {
    match file.as_os_str() == "-" {
        true => "standard input".to_string(),
        false => file.display().to_string(),
    }
}

/// The games of the file at `file` ([`games`]), a game that is not a record said to
/// be in that file (`my.json: invalid record: not JSON (line 1, column 2)`); a file
/// read from standard input is not named, as it has no name.
pub fn file_games(file: &Path, text: &str) -> Vec<(Option<String>, Result<Record, String>)> {
    let named = file.as_os_str() != "-";
    games(text)
        .into_iter()
        .map(|(label, record)| {
            let record = record.map_err(|e| match named {
                true => format!("{}: {e}", file.display()),
                false => e,
            });
            (label, record)
        })
        .collect()
}

/// The games of a file, each with the label that places it (none for a lone record):
/// `line 3` in a file of records, `set 2` in a night's record.
pub fn games(text: &str) -> Vec<(Option<String>, Result<Record, String>)> {
    let parse = parse_record;
    if let Ok(Value::Object(night)) = serde_json::from_str::<Value>(text) {
        if let Some(Value::Array(sets)) = night.get("sets") {
            return sets
                .iter()
                .enumerate()
                .map(|(i, set)| {
                    let record = set
                        .get("record")
                        .ok_or_else(|| "the set has no record".to_string())
                        .and_then(|r| parse(&r.to_string()));
                    (Some(format!("set {}", i + 1)), record)
                })
                .collect();
        }
        return vec![(None, parse(text))];
    }
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    match lines.len() {
        // One record, perhaps spread over lines, or not JSON at all: its own error.
        0 | 1 => vec![(None, parse(text))],
        _ if serde_json::from_str::<Value>(lines[0].1).is_err() => vec![(None, parse(text))],
        _ => lines
            .into_iter()
            .map(|(i, line)| (Some(format!("line {}", i + 1)), parse(line)))
            .collect(),
    }
}

/// Whether `text` is a night's record (players, sets and a score sheet) rather than a
/// game's.
pub fn is_night_record(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .is_ok_and(|v| v.get("sets").is_some() && v.get("players").is_some())
}

/// The record in `text`, or why it is none, in words a person reads: where the text
/// stops being JSON, or what kind of JSON it is instead of a record.
pub fn parse_record(text: &str) -> Result<Record, String> {
    use serde_json::error::Category;
    match serde_json::from_str::<Value>(text) {
        Err(error) => {
            let what = match error.classify() {
                Category::Eof => "the text ends before the record does",
                _ => "not JSON",
            };
            return Err(format!(
                "invalid record: {what} (line {}, column {})",
                error.line(),
                error.column()
            ));
        }
        Ok(Value::Object(_)) => {}
        Ok(other) => {
            let kind = match other {
                Value::Array(_) => "a list",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                Value::Bool(_) => "true or false",
                _ => "null",
            };
            return Err(format!(
                "invalid record: a record is a JSON object ({{\"game\": ..., \"hands\": \
                 [...]}}), not {kind}"
            ));
        }
    }
    Record::parse(text).map_err(|e| e.to_string())
}

/// The players at each seat of each set of a night's record, by name (a set whose table
/// names no one gets none); nothing for other records.
pub fn set_players(text: &str) -> Vec<Vec<String>> {
    let Ok(night) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let (Some(Value::Array(players)), Some(Value::Array(sets))) =
        (night.get("players"), night.get("sets"))
    else {
        return Vec::new();
    };
    sets.iter()
        .map(|set| {
            let seats = set["table"]["seats"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let names: Option<Vec<String>> = seats
                .iter()
                .map(|p| Some(players.get(p.as_u64()? as usize)?.as_str()?.to_string()))
                .collect();
            names.unwrap_or_default()
        })
        .collect()
}
