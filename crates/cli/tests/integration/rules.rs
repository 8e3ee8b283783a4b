//! `calltrump rules` as a user runs it, and the documentation it is built from: every
//! relative link of the README and of `docs/` leads to a file of the repository.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use calltrump_engine::GameKind;

fn calltrump(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_calltrump"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The title and a section every game's page has.
const PAGES: [(&str, &str); 3] = [
    ("kaibosh", "Kaibosh"),
    ("bid-euchre", "Bid Euchre"),
    ("kout", "Kout Bo"),
];

/// `calltrump rules ARGS` through a pipe with the width given: plain text, wrapped.
fn rules_page(args: &[&str], columns: usize) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_calltrump"))
        .arg("rules")
        .args(args)
        .env("COLUMNS", columns.to_string())
        .env_remove("PAGER")
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The words of a text: its runs of letters and digits.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[test]
fn rules_without_a_game_lists_every_game_and_its_variants() {
    let out = calltrump(&["rules"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list = text(&out.stdout);
    for game in GameKind::ALL {
        assert!(list.contains(game.name()), "{list}");
        for variant in game.variants() {
            assert!(list.contains(variant.name()), "{list}");
        }
    }
}

#[test]
fn rules_are_drawn_for_the_terminal_without_markdown_and_wrapped_between_words() {
    for (game, title) in PAGES {
        for columns in [60, 100] {
            let page = rules_page(&[game], columns);
            let rule = "═".repeat(title.chars().count());
            assert!(
                page.starts_with(&format!("{title}\n{rule}\n")),
                "{game}: {page}"
            );
            for section in ["Scoring\n───────", "Options\n───────", "Worked example"]
            {
                assert!(page.contains(section), "{game} lacks {section}");
            }
            for line in page.lines() {
                assert!(line.chars().count() <= columns, "{game}: {line:?}");
                for raw in ["**", "](", "`", "<!--"] {
                    assert!(!line.contains(raw), "{game}: {raw} in {line:?}");
                }
                assert!(!line.starts_with('#') && !line.starts_with('|'), "{line:?}");
            }
            // The installed binary carries the page: every word of docs/rules is there
            // (less the links' addresses), so none was split or lost.
            let file = match game {
                "kout" => "kout-bo",
                other => other,
            };
            let doc = fs::read_to_string(root().join(format!("docs/rules/{file}.md"))).unwrap();
            let shown = words(&page);
            let mut prose = doc.clone();
            while let Some(at) = prose.find("](") {
                let end = prose[at..].find(')').map_or(prose.len(), |e| at + e + 1);
                prose.replace_range(at..end, " ");
            }
            for line in prose.lines().filter(|l| !l.starts_with("<!--")) {
                for word in words(line) {
                    assert!(shown.contains(&word), "{game}: {word:?} of {line:?}");
                }
            }
        }
    }
}

#[test]
fn rules_with_a_variant_marks_and_keeps_only_that_variant() {
    for game in GameKind::ALL {
        let variants: Vec<&str> = game.variants().iter().map(|v| v.name()).collect();
        for variant in &variants {
            let page = rules_page(&[game.name(), "--variant", variant], 80);
            if variants.len() > 1 {
                assert!(page.contains(&format!("Variant {variant} only")), "{page}");
            }
            for other in variants.iter().filter(|v| *v != variant) {
                assert!(
                    !page.contains(&format!("\n{other} only:")),
                    "{game} {variant}"
                );
            }
        }
    }
    // The kout6 page names where the Kout Bo 4 section it leaves out is.
    let kout6 = rules_page(&["kout", "--variant", "kout6"], 200);
    assert!(
        kout6.contains("the Kout Bo 4 deck (above (calltrump rules kout))"),
        "{kout6}"
    );
    assert!(rules_page(&["glossary"], 80).contains("Malzom (KB)"));
}

#[test]
fn an_unknown_game_or_variant_is_a_clear_error() {
    let out = calltrump(&["rules", "bridge"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.trim(),
        "error: unknown game \"bridge\" (known: kaibosh, bid-euchre, kout, glossary)"
    );
    let out = calltrump(&["rules", "kout", "--variant", "kout5"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim(),
        "error: unknown variant \"kout5\" for kout (known: kout6, kout4)"
    );
}

#[test]
fn help_play_lists_every_option_with_its_values_and_default() {
    let out = calltrump(&["help", "play"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for needle in [
        "  kaibosh:",
        "all_pass=redeal|dealer-must-bid [redeal]",
        "target=N (N >= 1), the score that ends the game [50]",
        "rounds=N (N >= 1)",
        "joker_lead=standard|contract-only|all-trumps-played|trump-ace-played [standard]",
        "deck=no-black-sixes|two-undealt, kout4 only [no-black-sixes]",
        "cut=right|left [right]",
        "cut=right|left [left]",
    ] {
        assert!(help.contains(needle), "{needle:?} not in\n{help}");
    }
}

/// The Markdown files of the README and of `docs/`.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut files = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut files);
    files
}

/// The text outside fenced code blocks and code spans, where links are links.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            // Every other piece between backticks is code.
            for (i, piece) in line.split('`').enumerate() {
                if i % 2 == 0 {
                    out.push_str(piece);
                }
            }
            out.push('\n');
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a Markdown text.
fn links(markdown: &str) -> Vec<String> {
    let prose = prose(markdown);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').expect("a link's target ends");
        out.push(rest[..end].trim().to_string());
        rest = &rest[end..];
    }
    out
}

/// The anchors GitHub gives a Markdown file's headings.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#').trim();
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

#[test]
fn every_relative_link_in_the_readme_and_docs_leads_into_the_repository() {
    let root = root();
    let mut checked = 0;
    for file in markdown_files() {
        let markdown = fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(&root).unwrap().display().to_string();
        for link in links(&markdown) {
            if link.starts_with("http://")
                || link.starts_with("https://")
                || link.starts_with("mailto:")
            {
                continue;
            }
            let (path, anchor) = match link.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let target = target
                .canonicalize()
                .unwrap_or_else(|_| panic!("{name}: the link {link} leads nowhere"));
            assert!(
                target.starts_with(&root),
                "{name}: the link {link} leads out of the repository"
            );
            if let Some(anchor) = anchor {
                let text = fs::read_to_string(&target).unwrap();
                assert!(
                    anchors(&text).contains(anchor),
                    "{name}: the link {link} names no heading of its file"
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser right?"
    );
}

#[test]
fn nothing_in_the_repository_points_at_the_shared_folder_outside_it() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy();
            // Build output and installed packages are not the project's writing.
            let not_ours = ["target", "strength", "node_modules"];
            if name.starts_with('.') || not_ours.contains(&name.as_ref()) {
                continue;
            }
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| e == "md" || e == "rs" || e == "sh" || e == "toml")
            {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root(), &mut files);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        // Spelled in two pieces so that this file does not match itself.
        let needle = format!("{}/", "shared");
        assert!(
            !text.contains(&needle),
            "{} points at {needle}",
            file.display()
        );
    }
}
