//! Account names: a name's key (unique after normalisation and case folding), what it
//! looks like (its skeleton, unique too), and, at start, the skeletons of accounts made
//! before they were kept, so that no look-alike of an older name is taken.

use unicode_normalization::UnicodeNormalization;

use crate::model::FORMER_PLAYER;
use crate::store::{Store, StoreError};

/// The longest name, in characters (after normalisation).
pub const NAME_MAX_CHARS: usize = 24;
/// Names nobody may take beside the bots' kinds ([`calltrump_bots::BOT_KINDS`]: a
/// seat's name must not pass for a bot): "you", "bot", and what a deleted account is
/// called.
const RESERVED_NAMES: &[&str] = &["you", "bot", FORMER_PLAYER];

/// A name as its owner typed it, checked: the name to show (trimmed, NFKC) and its key
/// (NFKC of its lowercase, NFKC again: two names with one key are one name). Refused,
/// saying why: an empty or too long name, a character other than a letter, a digit, a
/// space, `-`, `_`, `.` or `'`, a name with no letter or digit, and a reserved name.
pub fn name_key(name: &str) -> Result<(String, String), String> {
    let shown: String = name.trim().nfkc().collect();
    if shown.is_empty() {
        return Err(
            "the name is empty: choose one of 1 to 24 letters, digits, spaces and - _ . '".into(),
        );
    }
    let length = shown.chars().count();
    if length > NAME_MAX_CHARS {
        return Err(format!(
            "the name has {length} characters: at most {NAME_MAX_CHARS}"
        ));
    }
    if let Some(bad) = shown
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | '\'')))
    {
        return Err(format!(
            "the name may not hold {bad:?}: only letters, digits, spaces and - _ . '"
        ));
    }
    // A name of marks alone (`..`, `'`) names no one, and `..` in a page's address
    // (`/players/..`) is a step up, not a player.
    if !shown.chars().any(char::is_alphanumeric) {
        return Err(format!(
            "the name {shown:?} has no letter or digit: a name needs at least one"
        ));
    }
    let key: String = shown
        .to_lowercase()
        .nfkc()
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if RESERVED_NAMES.contains(&key.as_str()) || calltrump_bots::BOT_KINDS.contains(&key.as_str()) {
        return Err(format!(
            "the name {shown:?} is reserved (the bots' levels, \"you\" and \"{FORMER_PLAYER}\" are): choose another"
        ));
    }
    Ok((shown, key))
}

/// What a name (as shown, before case folding: a capital `I` passes for an `l`) looks
/// like: its UTS #39 skeleton (Cyrillic `а` and Latin `a` alike, `rn` and `m`),
/// lowercased and taken again since the skeleton of some characters is a capital (`0`
/// is `O`), so that no one takes a name that passes for another's.
pub fn name_skeleton(shown: &str) -> String {
    use unicode_security::confusable_detection::skeleton;
    let spaced = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    let once = skeleton(&spaced).collect::<String>().to_lowercase();
    skeleton(&once).collect()
}

/// A name someone typed, quoted for an error: at most [`NAME_MAX_CHARS`] characters
/// (an ellipsis after), so that a long one is not echoed whole.
pub fn quoted(name: &str) -> String {
    let mut chars = name.chars();
    let head: String = chars.by_ref().take(NAME_MAX_CHARS).collect();
    let more = if chars.next().is_some() {
        "\u{2026}"
    } else {
        ""
    };
    format!("{head:?}{more}")
}

/// Gives every account made before names' skeletons were kept (migration 0006) its
/// name's skeleton, oldest first: how many were given one. An account whose name looks
/// like an older one's keeps none (and is logged): both were taken before look-alikes
/// were refused, and a new look-alike of either is still refused by the other's.
pub async fn fill_name_skeletons(store: &dyn Store) -> Result<usize, StoreError> {
    let mut filled = 0;
    for (id, name) in store.accounts().accounts_without_skeleton().await? {
        if store
            .accounts()
            .set_name_skeleton(&id, &name_skeleton(&name))
            .await?
        {
            filled += 1;
        } else {
            tracing::warn!(name = %name, "an older account's name looks like another's: it keeps no skeleton");
        }
    }
    if filled > 0 {
        tracing::info!(filled, "older accounts given their names' skeletons");
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_in_an_error_is_quoted_and_cut_to_the_longest_name() {
        assert_eq!(quoted("Zed"), "\"Zed\"");
        let long = "x".repeat(5000);
        assert_eq!(
            quoted(&long),
            format!("\"{}\"\u{2026}", "x".repeat(NAME_MAX_CHARS))
        );
        assert_eq!(quoted("a\nb"), "\"a\\nb\"");
    }

    #[test]
    fn a_name_needs_a_letter_or_a_digit() {
        for marks in ["..", ".", "'", "-_-", ". ."] {
            let refused = name_key(marks).unwrap_err();
            assert!(
                refused.contains("no letter or digit"),
                "{marks:?}: {refused}"
            );
        }
        assert_eq!(name_key("J.R.").unwrap().0, "J.R.");
        assert_eq!(name_key("..7").unwrap().0, "..7");
    }
}
