//! The catalogue is the one list of games: no source of the workspace outside the engine
//! (tests aside) writes a game's, a variant's or an option's name, a game's title or a
//! rules page's file as a string of its own; each reads it from the catalogue. The
//! browser's fair-deal check (`fairdeal.js`) is left out: it re-derives the deal on
//! purpose, to verify the server.

use std::path::{Path, PathBuf};

use calltrump_engine::{Action, GameKind, VariantKind};

/// Option keys and values that are also plain words of other parts (the stores'
/// `deals` column, the table protocol's `cut` message, the bot protocol's `deck`, the
/// screens' `left` and `right`): a grep cannot tell them from the option.
const COMMON_WORDS: [&str; 5] = ["deals", "cut", "deck", "left", "right"];

/// Every name the catalogue gives, but for words that are also calls of the notation
/// (`kaibosh`) or [`COMMON_WORDS`].
fn catalogue_names() -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for game in GameKind::ALL {
        names.extend([game.name(), game.title(), game.rules_document().file].map(String::from));
        names.extend(game.aliases().iter().map(|a| a.to_string()));
        for option in game.options() {
            names.push(option.key.to_string());
            names.extend(option.choices().map(String::from));
        }
    }
    names.extend(VariantKind::ALL.map(|v| v.name().to_string()));
    names.retain(|name| name.parse::<Action>().is_err() && !COMMON_WORDS.contains(&&**name));
    names.sort();
    names.dedup();
    names
}

/// The Rust sources under `dir` and the scripts of the pages, with their text outside
/// unit tests (a file's `#[cfg(test)]` module is its last item).
fn sources(dir: &Path, found: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "tests" {
                sources(&path, found);
            }
        } else if name.ends_with(".rs") || (name.ends_with(".js") && name != "fairdeal.js") {
            let text = std::fs::read_to_string(&path).unwrap();
            let code = match text.find("#[cfg(test)]") {
                Some(at) => text[..at].to_string(),
                None => text,
            };
            found.push((path, code));
        }
    }
}

/// The string literals of a line of code, comments left out: `"..."` in Rust, `"..."`
/// and `'...'` in JavaScript.
fn literals(line: &str, javascript: bool) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") || code.starts_with("* ") || code.starts_with("/*") {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '"' || (javascript && c == '\'') {
            let mut text = String::new();
            while let Some(d) = chars.next() {
                match d {
                    '\\' => text.extend(chars.next()),
                    d if d == c => break,
                    d => text.push(d),
                }
            }
            found.push(text);
        } else if c == '/' && line[line.len() - chars.as_str().len()..].starts_with('/') {
            break;
        }
    }
    found
}

#[test]
fn no_source_outside_the_engine_names_a_game_variant_or_option_itself() {
    let names = catalogue_names();
    // The names the check looks for include at least each game and variant.
    for name in [
        "bid-euchre",
        "kout",
        "alexa",
        "kout6",
        "joker_lead",
        "Kout Bo",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let krate = entry.unwrap().path();
        if krate.file_name().is_some_and(|n| n != "engine") {
            for dir in ["src", "assets"] {
                if krate.join(dir).is_dir() {
                    sources(&krate.join(dir), &mut files);
                }
            }
        }
    }
    assert!(files.len() > 50, "the workspace's sources: {}", files.len());
    let mut found = Vec::new();
    for (path, code) in &files {
        let javascript = path.extension().is_some_and(|e| e == "js");
        for (n, line) in code.lines().enumerate() {
            for literal in literals(line, javascript) {
                if names.contains(&literal) {
                    found.push(format!("{}:{}: \"{literal}\"", path.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "names of the catalogue written outside it (read them from \
         calltrump_engine::catalog or GET /api/games):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_literal_reader_finds_strings_and_skips_comments() {
    assert_eq!(literals(r#"let g = "kout"; // "alexa""#, false), ["kout"]);
    assert_eq!(literals(r#"f("a\"b", 'c')"#, true), [r#"a"b"#, "c"]);
    assert_eq!(literals(r#"f('c')"#, false), Vec::<String>::new());
    assert!(literals(r#"    /// "kout" is Kout Bo"#, false).is_empty());
}
