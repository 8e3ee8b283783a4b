//! Games kept by `play` and `night` (docs/fair-deals.md, "Saved games"): the record file,
//! and while the game goes on a companion file beside it (`FILE.resume`) that holds the
//! player's seat and, while a hand is being played, that hand's cards sealed. The
//! record file holds only what the player saw: of a hand in play, no deal and no seed
//! (as the notation writes a record shown during a hand), so a save opened by accident
//! or shared shows nobody's cards. Sealing is not encryption: it keeps the cards from
//! being read at a glance, and the program unseals them to go on.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use calltrump_engine::{stream, Game, Record, Seat, Turn};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::table::Table;

/// The companion's version: the first.
const VERSION: u32 = 1;

/// The seed of the generator whose bytes seal a hand (xored, then written in hex).
const SEAL_SEED: u64 = 0x6361_6c6c_7472_756d;

/// The companion file of a saved game: what goes on with it but is no part of the record.
#[derive(Serialize, Deserialize, Debug, Default)]
pub struct Companion {
    /// Always [`VERSION`].
    pub calltrump_resume: u32,
    /// The seat the player plays (`play`); a night's sets seat its players themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The whole record of the game (a night's: of its last set) while a hand is played,
    /// sealed ([`seal`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed: Option<String>,
}

/// The companion file of the game saved at `path`: `path` with `.resume` added.
pub fn companion_path(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".resume");
    PathBuf::from(name)
}

/// Writes `text` to `path`, making its folder if need be.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("making the folder {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("saving to {}", path.display()))
}

/// The bytes of the sealing generator, xored into `bytes`.
fn xor_keystream(bytes: &mut [u8]) {
    let mut key = vec![0; bytes.len()];
    stream(SEAL_SEED, 0).fill_bytes(&mut key);
    for (byte, k) in bytes.iter_mut().zip(key) {
        *byte ^= k;
    }
}

/// `text` sealed: xored with a fixed stream of the project's generator, in hex.
pub fn seal(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    xor_keystream(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The text [`seal`] sealed; `None` if `sealed` is not such a text.
pub fn unseal(sealed: &str) -> Option<String> {
    if sealed.len() % 2 != 0 {
        return None;
    }
    let mut bytes = (0..sealed.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(sealed.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    xor_keystream(&mut bytes);
    String::from_utf8(bytes).ok()
}

/// Whether `table` is in the middle of a hand.
fn hand_open(table: &Table) -> bool {
    matches!(table.turn(), Turn::Seat(_))
}

/// The record of `table` as the player may keep it in the open: of a hand in play, no
/// deal and cards passed face down written `??`.
pub fn shown_record(table: &Table) -> Record {
    match hand_open(table) {
        true => table.public_record(),
        false => table.record().clone(),
    }
}

/// The companion of `table` played by the person at `seat`: the seat, and the whole
/// record sealed while a hand is in play (with that hand's seed, so that it checks out
/// once the hand is over).
pub fn companion(table: &Table, seat: Option<Seat>) -> Companion {
    Companion {
        calltrump_resume: VERSION,
        seat: seat.map(|s| s.0),
        sealed: hand_open(table).then(|| seal(&table.ended_record().to_json())),
    }
}

/// Writes `companion` beside the save at `path`, or removes it once the game is over
/// (`None`).
pub fn write_companion(path: &Path, companion: Option<&Companion>) -> Result<()> {
    let at = companion_path(path);
    match companion {
        Some(companion) => write_file(&at, &(serde_json::to_string(companion)? + "\n")),
        None => match std::fs::remove_file(&at) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("removing {}", at.display()))
            }
            _ => Ok(()),
        },
    }
}

/// Saves the game of `table`, played by the person at `me`, to `path`: the record as
/// they saw it, and its companion while the game goes on.
pub fn save_game(path: &Path, table: &Table, me: Seat) -> Result<()> {
    write_file(path, &(shown_record(table).to_json() + "\n"))?;
    let going_on = table.turn() != Turn::Over;
    write_companion(path, going_on.then(|| companion(table, Some(me))).as_ref())
}

/// Reads the companion of the save at `path`, if there is one.
pub fn read_companion(path: &Path) -> Result<Option<Companion>> {
    let at = companion_path(path);
    let text = match std::fs::read_to_string(&at) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", at.display())),
    };
    let companion: Companion = serde_json::from_str(&text).map_err(|_| {
        anyhow!(
            "{} is not the companion of a saved game (it should hold the seat and the \
             hand in play)",
            at.display()
        )
    })?;
    if companion.calltrump_resume != VERSION {
        bail!(
            "{} is from another version of calltrump (version {})",
            at.display(),
            companion.calltrump_resume
        );
    }
    Ok(Some(companion))
}

/// Whether every seat's deal of `hand` is empty: a hand shown while it is played.
fn deal_hidden(hand: &calltrump_engine::RecordHand) -> bool {
    hand.deal.iter().all(Vec::is_empty)
}

/// The whole record behind `shown` (the record file of the save at `path`): `shown`
/// itself between hands, else the record sealed in the companion, which must be the
/// same game.
pub fn whole_record(path: &Path, shown: Record, sealed: Option<&str>) -> Result<Record> {
    let at = companion_path(path);
    let Some(sealed) = sealed else {
        if shown.hands.last().is_some_and(deal_hidden) {
            bail!(
                "{}: its last hand is being played, and its cards are kept in {}, which is \
                 missing (copy both files to move a game)",
                path.display(),
                at.display()
            );
        }
        return Ok(shown);
    };
    let text =
        unseal(sealed).ok_or_else(|| anyhow!("{}: the sealed hand is damaged", at.display()))?;
    let whole = Record::parse(&text)
        .map_err(|e| anyhow!("{}: the sealed hand does not read: {e}", at.display()))?;
    let same_header = whole.game == shown.game
        && whole.variant == shown.variant
        && whole.options == shown.options
        && whole.first_dealer == shown.first_dealer
        && whole.deal_source == shown.deal_source;
    let count = shown.hands.len();
    let same_hands = whole.hands.len() == count
        && whole.hands[..count.saturating_sub(1)] == shown.hands[..count.saturating_sub(1)]
        && whole.hands.last().map(|h| h.actions.len())
            == shown.hands.last().map(|h| h.actions.len());
    if !(same_header && same_hands) {
        bail!(
            "{} belongs to another game than {} (or one of them was changed)",
            at.display(),
            path.display()
        );
    }
    Ok(whole)
}

/// What a file holds, before a new game is saved over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// No file, or an empty one.
    Nothing,
    /// A finished game or night.
    Finished,
    /// A game or night that can go on.
    Unfinished,
    /// Something else.
    Other,
}

/// What the file at `path` holds.
pub fn kept_at(path: &Path) -> Kept {
    let Ok(text) = std::fs::read_to_string(path) else {
        return match path.exists() {
            true => Kept::Other,
            false => Kept::Nothing,
        };
    };
    if text.trim().is_empty() {
        return Kept::Nothing;
    }
    if companion_path(path).exists() {
        return Kept::Unfinished;
    }
    if let Ok(Value::Object(night)) = serde_json::from_str::<Value>(&text) {
        if night.contains_key("sets") && night.contains_key("players") {
            return match night["sheet"]["complete"].as_bool() {
                Some(true) => Kept::Finished,
                _ => Kept::Unfinished,
            };
        }
    }
    let Ok(record) = Record::parse(&text) else {
        return Kept::Other;
    };
    match record.replay() {
        Ok((_, game)) if game.turn() == Turn::Over || record.result.is_some() => Kept::Finished,
        _ => Kept::Unfinished,
    }
}

/// Where a new game is saved by default: `folder/NAME.json`, or `NAME-2.json`, ... when
/// that holds a game that is not finished or something else; and the file passed over.
pub fn fresh_path(folder: &Path, name: &str) -> (PathBuf, Option<PathBuf>) {
    let first = folder.join(format!("{name}.json"));
    let mut passed = None;
    let mut candidate = first.clone();
    for n in 2.. {
        match kept_at(&candidate) {
            Kept::Nothing | Kept::Finished => break,
            Kept::Unfinished | Kept::Other => {
                passed.get_or_insert_with(|| candidate.clone());
                candidate = folder.join(format!("{name}-{n}.json"));
            }
        }
    }
    (candidate, passed)
}

/// Refuses to start a new game over the save at `path` (given with --record) when it
/// holds something that is not a finished game: `resume` is the command going on with it.
pub fn refuse_overwrite(path: &Path, resume: &str) -> Result<()> {
    match kept_at(path) {
        Kept::Nothing | Kept::Finished => Ok(()),
        Kept::Unfinished => bail!(
            "{} holds an unfinished game: go on with it (`{resume} {}`), or give another --record",
            path.display(),
            path.display()
        ),
        Kept::Other => bail!(
            "{} is not a finished game of calltrump: not written over; give another --record",
            path.display()
        ),
    }
}

/// The command that runs this program: `calltrump` when that is what the PATH finds,
/// else the path it was started by (`target/release/calltrump` under `cargo run`).
pub fn program() -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_text_unseals_and_is_not_plain() {
        let text = r#"{"deal":[["AS","KS"]],"seed":"e14319b3"}"#;
        let sealed = seal(text);
        assert!(!sealed.contains("AS") && !sealed.contains("e14319b3"));
        assert_eq!(unseal(&sealed).as_deref(), Some(text));
        assert_eq!(unseal("abc"), None);
        assert_eq!(unseal("zz"), None);
    }
}
