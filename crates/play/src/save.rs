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

use crate::game_loop::Table;

/// The companion's version: the first.
const VERSION: u32 = 1;

/// The file in the data folder holding this install's sealing key: 16 hex digits drawn
/// from the operating system the first time a hand is sealed.
const KEY_FILE: &str = "seal-key";

/// The companion file of a saved game: what goes on with it but is no part of the record.
#[derive(Serialize, Deserialize, Debug, Default)]
pub struct Companion {
    /// Always `VERSION`.
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

/// The per-user data folder: `$XDG_DATA_HOME/calltrump`, or `~/.local/share/calltrump`.
pub fn default_data_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir).join("calltrump"));
    }
    let home =
        std::env::var_os("HOME").context("neither XDG_DATA_HOME nor HOME is set: give --data")?;
    Ok(PathBuf::from(home).join(".local/share/calltrump"))
}

/// This install's sealing key: read from the data folder, or drawn at random and kept
/// there the first time.
fn seal_key() -> Result<u64> {
    let dir = default_data_dir()
        .context("finding the data folder, where the key that seals a saved hand is kept")?;
    key_in(&dir)
}

/// The sealing key kept in `dir`, made if there is none yet.
fn key_in(dir: &Path) -> Result<u64> {
    let path = dir.join(KEY_FILE);
    let read = |text: &str| u64::from_str_radix(text.trim(), 16).ok();
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            return read(&text).ok_or_else(|| {
                anyhow!(
                    "{} is damaged: it should hold 16 hex digits, the key that seals the \
                     hands of saved games",
                    path.display()
                )
            })
        }
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(e).with_context(|| format!("reading {}", path.display()))
        }
        Err(_) => {}
    }
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| anyhow!("drawing a sealing key: {e}"))?;
    let key = u64::from_le_bytes(bytes);
    std::fs::create_dir_all(dir).with_context(|| format!("making the folder {}", dir.display()))?;
    // Made only if still missing: a game saved at the same moment keeps the key it made.
    let made = create_new(&path, &format!("{key:016x}\n"));
    match made {
        Ok(()) => Ok(key),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => key_in(dir),
        Err(e) => Err(e).with_context(|| format!("writing {}", path.display())),
    }
}

/// Writes `text` to a new file at `path`; an error (`AlreadyExists`) if there is one.
fn create_new(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    std::io::Write::write_all(&mut file, text.as_bytes())
}

/// `bytes` xored with the stream of the project's generator seeded with `key`, at
/// `nonce`.
fn xor_keystream(bytes: &mut [u8], key: u64, nonce: u64) {
    let mut stream_bytes = vec![0; bytes.len()];
    stream(key, nonce).fill_bytes(&mut stream_bytes);
    for (byte, k) in bytes.iter_mut().zip(stream_bytes) {
        *byte ^= k;
    }
}

/// `text` sealed with `key`: a random nonce (16 hex digits), then the text xored with
/// the key's stream at that nonce, in hex. Each save draws its own nonce, so one
/// sealed hand read next to its record once the hand is over unseals no other.
pub fn seal(text: &str, key: u64) -> String {
    let mut nonce = [0u8; 8];
    // Without the system's randomness, a nonce from the text's length and the clock
    // still differs from save to save.
    if getrandom::fill(&mut nonce).is_err() {
        nonce = crate::game_loop::clock_seed().to_le_bytes();
    }
    let nonce = u64::from_le_bytes(nonce);
    let mut bytes = text.as_bytes().to_vec();
    xor_keystream(&mut bytes, key, nonce);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{nonce:016x}{hex}")
}

/// The text [`seal`] sealed with `key`; `None` if `sealed` is not such a text.
pub fn unseal(sealed: &str, key: u64) -> Option<String> {
    if sealed.len() % 2 != 0 || sealed.len() < 16 {
        return None;
    }
    let nonce = u64::from_str_radix(sealed.get(..16)?, 16).ok()?;
    let body = &sealed[16..];
    let mut bytes = (0..body.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(body.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    xor_keystream(&mut bytes, key, nonce);
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
pub fn companion(table: &Table, seat: Option<Seat>) -> Result<Companion> {
    let sealed = match hand_open(table) {
        true => Some(seal(&table.ended_record().to_json(), seal_key()?)),
        false => None,
    };
    Ok(Companion {
        calltrump_resume: VERSION,
        seat: seat.map(|s| s.0),
        sealed,
    })
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
    let kept = match going_on {
        true => Some(companion(table, Some(me))?),
        false => None,
    };
    write_companion(path, kept.as_ref())
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
    let text = unseal(sealed, seal_key()?).ok_or_else(|| {
        anyhow!(
            "{}: the sealed hand does not unseal: it is damaged, or was sealed by calltrump \
             on another machine or with another data folder (copy that folder's {KEY_FILE} \
             to move a game in the middle of a hand)",
            at.display()
        )
    })?;
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
    // A device or a folder (`/dev/full`, `/dev/stdout`) holds no save: never read it.
    if path.metadata().is_ok_and(|m| !m.is_file()) {
        return Kept::Other;
    }
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

/// `wanted` with `-N` added to its name, before its extension: `game-2.json`.
fn numbered(wanted: &Path, n: usize) -> PathBuf {
    let stem = wanted.file_stem().unwrap_or_default().to_string_lossy();
    let name = match wanted.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    wanted.with_file_name(name)
}

/// Where a new game (or night: `what`) is saved: `wanted`, unless that file holds
/// something, in which case `NAME-2.EXT`, `NAME-3.EXT`, ...: no file is ever written
/// over. With the note to show when another name was taken. A file `given` with
/// --record that holds an unfinished game or something else is refused instead, as
/// the person named it for a reason: `resume` is the command going on with it.
pub fn new_save_path(
    wanted: &Path,
    given: bool,
    what: &str,
    resume: &str,
) -> Result<(PathBuf, Option<String>)> {
    let first = kept_at(wanted);
    if given {
        refuse_overwrite(wanted, resume)?;
    }
    if first == Kept::Nothing {
        return Ok((wanted.to_path_buf(), None));
    }
    let path = (2..)
        .map(|n| numbered(wanted, n))
        .find(|candidate| kept_at(candidate) == Kept::Nothing)
        .expect("a free name");
    let shown = wanted.display();
    let kept = match first {
        Kept::Finished => format!("{shown} holds a finished {what}: kept"),
        Kept::Unfinished => format!(
            "{shown} holds another {what}, not finished: kept ({resume} {shown} goes on \
             with it)"
        ),
        _ => format!("{shown} holds something else: kept"),
    };
    let note = format!("{kept}. This {what} is saved to {}.", path.display());
    Ok((path, Some(note)))
}

/// Refuses to start a new game over the save at `path` (given with --record) when it
/// holds something that is not a game that is over: `resume` is the command going on
/// with it.
fn refuse_overwrite(path: &Path, resume: &str) -> Result<()> {
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

/// Refuses to write an output (a review, a plot: `flag` names the option) over a saved
/// game or night: outputs are written over, saves never are.
pub fn refuse_to_write_over_a_save(path: &Path, flag: &str) -> Result<()> {
    match kept_at(path) {
        Kept::Finished | Kept::Unfinished => bail!(
            "{} holds a saved game: calltrump never writes over one; give {flag} another file name",
            path.display()
        ),
        Kept::Nothing | Kept::Other => Ok(()),
    }
}

/// Refuses to write records (`simulate --records`) over a game that is still being
/// played: a file of records may replace another, never a game that goes on.
pub fn refuse_to_write_over_a_game_going_on(path: &Path, flag: &str) -> Result<()> {
    if companion_path(path).exists() || lock_path(path).exists() {
        bail!(
            "{} holds a game that goes on: calltrump never writes over one; give {flag} \
             another file name",
            path.display()
        );
    }
    Ok(())
}

/// A save held open by this process: `FILE.lock` beside it holds this process's id, so
/// that a second calltrump going on with the same save is refused rather than both
/// writing it in turn. Removed when the game stops (quit, Ctrl-C, the end of the input).
pub struct Lock {
    path: PathBuf,
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The lock file of the save at `path`: `path` with `.lock` added.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".lock");
    PathBuf::from(name)
}

/// Whether the process `pid` runs (on other systems than Unix: assumed so).
fn running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Some(pid) = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        else {
            return false;
        };
        // EPERM: it runs, as another user.
        !matches!(
            rustix::process::test_kill_process(pid),
            Err(rustix::io::Errno::SRCH)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Takes the save at `path` for this process; refused while another calltrump that is
/// still running has it. A lock left by a process that is gone (killed) is taken over.
pub fn lock(path: &Path) -> Result<Lock> {
    let at = lock_path(path);
    if let Some(dir) = at.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("making the folder {}", dir.display()))?;
    }
    let me = std::process::id();
    for _ in 0..2 {
        let made = create_new(&at, &format!("{me}\n"));
        match made {
            Ok(()) => return Ok(Lock { path: at }),
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                return Err(e).with_context(|| format!("writing {}", at.display()))
            }
            Err(_) => {}
        }
        let holder = std::fs::read_to_string(&at)
            .ok()
            .and_then(|text| text.trim().parse::<u32>().ok());
        match holder {
            Some(pid) if pid != me && running(pid) => bail!(
                "{} is open in another calltrump (process {pid}): go on with it there, or \
                 quit that one first (if none runs, remove {})",
                path.display(),
                at.display()
            ),
            // Left by a calltrump that is gone: taken over.
            _ => {
                std::fs::remove_file(&at)
                    .with_context(|| format!("removing the stale lock {}", at.display()))?;
            }
        }
    }
    bail!(
        "{}: could not take the lock {}",
        path.display(),
        at.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_text_unseals_with_its_key_only_and_is_not_plain() {
        let text = r#"{"deal":[["AS","KS"]],"seed":"e14319b3"}"#;
        let sealed = seal(text, 7);
        assert!(!sealed.contains("AS") && !sealed.contains("e14319b3"));
        assert_eq!(unseal(&sealed, 7).as_deref(), Some(text));
        assert_ne!(unseal(&sealed, 8).as_deref(), Some(text));
        // Each seal draws its own nonce: the same text sealed twice differs.
        assert_ne!(seal(text, 7), sealed);
        assert_eq!(unseal("abc", 7), None);
        assert_eq!(unseal("zz", 7), None);
    }

    #[test]
    fn the_key_is_drawn_once_and_kept() {
        let dir = std::env::temp_dir().join(format!("calltrump-seal-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let key = key_in(&dir).unwrap();
        assert_eq!(key_in(&dir).unwrap(), key);
        let other = dir.join("other");
        assert_ne!(key_in(&other).unwrap(), key);
        std::fs::write(dir.join(KEY_FILE), "not hex").unwrap();
        assert!(key_in(&dir).unwrap_err().to_string().contains("is damaged"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
