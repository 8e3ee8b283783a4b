//! The rules of each game, as written in `docs/rules/` and built into the binaries, so
//! an installed `calltrump` carries them: the pages by name (and alias), the list of
//! pages, and a page cut down to one variant (`<!-- variant NAME -->` parts).

use std::borrow::Cow;
use std::fmt::Write as _;

use anyhow::{anyhow, bail, Result};
use calltrump_engine::catalog::RulesDocument;
use calltrump_engine::GameKind;

/// One page of the rules.
struct Page {
    /// The name `calltrump rules` takes: a game's name as `--game` takes it.
    name: &'static str,
    /// Other names accepted for it.
    aliases: &'static [&'static str],
    /// What the page is, for the list of pages.
    about: Cow<'static, str>,
    /// The page.
    document: RulesDocument,
}

/// The page of words used in the rules, after the games' pages.
const GLOSSARY: Page = Page {
    name: "glossary",
    aliases: &[],
    about: Cow::Borrowed("the words used in the rules"),
    document: RulesDocument {
        file: "glossary.md",
        text: include_str!("../../../docs/rules/glossary.md"),
    },
};

/// The pages: each game's in the catalogue's order, then the glossary.
fn pages() -> impl Iterator<Item = Page> {
    GameKind::ALL
        .into_iter()
        .map(game_page)
        .chain(std::iter::once(GLOSSARY))
}

/// A game's page, with the other names people give the game.
fn game_page(game: GameKind) -> Page {
    let about = match game {
        GameKind::Kaibosh => "4 players, 24 cards, bid 1 to 6 or kaibosh",
        GameKind::BidEuchre => "4 players, 32 cards, levels 1 to 8, call2, call1, moon",
        GameKind::Kout => "6 or 4 players, two jokers, bids from Bab (5) to Bawan (9)",
    };
    Page {
        name: game.name(),
        aliases: game.aliases(),
        about: Cow::Owned(format!("{}: {about}", game.title())),
        document: game.rules_document(),
    }
}

/// Opens a part of a page that applies to one variant only: `<!-- variant NAME -->`.
const VARIANT_START: &str = "<!-- variant ";
/// Closes it.
const VARIANT_END: &str = "<!-- end variant -->";

/// The variants of the game named `name` (none for a page that is not a game).
fn variants(name: &str) -> Vec<&'static str> {
    name.parse::<GameKind>().map_or_else(
        |_| Vec::new(),
        |game| game.variants().iter().map(|v| v.name()).collect(),
    )
}

fn page(game: &str) -> Result<Page> {
    let wanted = game.to_ascii_lowercase();
    pages()
        .find(|page| page.name == wanted || page.aliases.contains(&wanted.as_str()))
        .ok_or_else(|| {
            let known: Vec<&str> = pages().map(|page| page.name).collect();
            anyhow!("unknown game \"{game}\" (known: {})", known.join(", "))
        })
}

/// The rules of `game` (`kaibosh`, `bid-euchre`, `kout`, or `glossary`), as Markdown.
///
/// Without `variant` the whole page, every variant's parts included. With it, only what
/// applies to that variant, under a line that says so. Unknown games and variants are
/// errors that name the known ones.
pub fn rules_text(game: &str, variant: Option<&str>) -> Result<Cow<'static, str>> {
    let page = page(game)?;
    let Some(variant) = variant else {
        return Ok(Cow::Owned(filter(page.document.text, None)));
    };
    let known = variants(page.name);
    let variant = variant.to_ascii_lowercase();
    if !known.contains(&variant.as_str()) {
        if known.is_empty() {
            bail!("{} has no variants", page.name);
        }
        bail!(
            "unknown variant \"{variant}\" for {} (known: {})",
            page.name,
            known.join(", ")
        );
    }
    let text = whole_page_links(
        &filter(page.document.text, Some(&variant)),
        page.document.file,
    );
    if known.len() < 2 {
        return Ok(Cow::Owned(text));
    }
    // The variant's line goes under the page's title.
    let (title, rest) = text.split_once('\n').unwrap_or((&text, ""));
    Ok(Cow::Owned(format!(
        "{title}\n\n*Variant `{variant}` only: the parts for other variants are left out \
         (`calltrump rules {}` prints them all).*\n{rest}",
        page.name
    )))
}

/// The page without its variant markers, and with `variant` given, without the parts
/// of the other variants; no more than one blank line in a row.
fn filter(text: &str, variant: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut keep = true;
    let mut blank = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(name) = trimmed
            .strip_prefix(VARIANT_START)
            .and_then(|rest| rest.strip_suffix("-->"))
        {
            keep = variant.is_none_or(|v| v == name.trim());
            continue;
        }
        if trimmed == VARIANT_END {
            keep = true;
            continue;
        }
        if !keep || (trimmed.is_empty() && blank) {
            continue;
        }
        blank = trimmed.is_empty();
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The anchors of the headings of a Markdown page, as GitHub makes them (lower case,
/// spaces to hyphens, punctuation but `-` and `_` dropped).
fn anchors(markdown: &str) -> Vec<String> {
    markdown
        .lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| {
            line.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// A page cut down to one variant, its links to sections it no longer has (another
/// variant's) pointed at the whole page, `file`, where they are.
fn whole_page_links(text: &str, file: &str) -> String {
    let kept = anchors(text);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("](#") {
        let anchor_at = at + 3;
        let end = rest[anchor_at..]
            .find(')')
            .map_or(rest.len(), |e| anchor_at + e);
        out.push_str(&rest[..at + 2]);
        if !kept.iter().any(|a| *a == rest[anchor_at..end]) {
            out.push_str(file);
        }
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    out
}

/// The name `calltrump rules` takes for the page in `file` of `docs/rules/` (`kout-bo.md`
/// is `kout`), if it is one of its pages.
pub fn page_of_file(file: &str) -> Option<&'static str> {
    pages()
        .find(|page| page.document.file == file)
        .map(|page| page.name)
}

/// The list of pages that `calltrump rules` prints without a game.
pub fn list() -> String {
    let mut out =
        String::from("The rules of each game: calltrump rules GAME [--variant VARIANT]\n\n");
    for page in pages() {
        let variants = variants(page.name);
        let _ = write!(out, "  {:<12}{}", page.name, page.about);
        if !variants.is_empty() {
            let _ = write!(out, " (variants: {})", variants.join(", "));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_markers_are_balanced_and_name_the_pages_variants() {
        for page in pages() {
            let mut open: Option<&str> = None;
            for line in page.document.text.lines().map(str::trim) {
                if let Some(name) = line
                    .strip_prefix(VARIANT_START)
                    .and_then(|r| r.strip_suffix("-->"))
                {
                    assert!(open.is_none(), "{}: nested variant {name}", page.name);
                    assert!(
                        variants(page.name).contains(&name.trim()),
                        "{}: {name}",
                        page.name
                    );
                    open = Some(name);
                } else if line == VARIANT_END {
                    assert!(
                        open.take().is_some(),
                        "{}: an end without a start",
                        page.name
                    );
                } else {
                    assert!(
                        !line.contains("<!--"),
                        "{}: a stray marker {line}",
                        page.name
                    );
                }
            }
            assert!(open.is_none(), "{}: a variant left open", page.name);
        }
    }

    #[test]
    fn a_variant_keeps_its_own_parts_and_drops_the_others() {
        let alexa = rules_text("bid-euchre", Some("alexa")).unwrap();
        let simplified = rules_text("bid-euchre", Some("simplified")).unwrap();
        let both = rules_text("bid-euchre", None).unwrap();
        assert!(alexa.contains("**alexa only:**") && !alexa.contains("**simplified only:**"));
        assert!(
            simplified.contains("**simplified only:**") && !simplified.contains("**alexa only:**")
        );
        assert!(both.contains("**alexa only:**") && both.contains("**simplified only:**"));
        for text in [&alexa, &simplified, &both] {
            assert!(!text.contains("<!--") && !text.contains("\n\n\n"));
        }
        assert!(rules_text("kout", Some("kout4"))
            .unwrap()
            .contains("## Kout Bo 4"));
        assert!(!rules_text("kout", Some("kout6"))
            .unwrap()
            .contains("## Kout Bo 4"));
        assert_eq!(
            rules_text("kaibosh", Some("standard")).unwrap(),
            rules_text("kaibosh", None).unwrap()
        );
    }

    #[test]
    fn a_variant_page_points_links_to_dropped_sections_at_the_whole_page() {
        let kout6 = rules_text("kout", Some("kout6")).unwrap();
        assert!(!kout6.contains("](#kout-bo-4)"), "{kout6}");
        assert!(kout6.contains("](kout-bo.md#kout-bo-4)"), "{kout6}");
        // Links to sections still on the page stay as they were.
        assert!(kout6.contains("](#joker_lead)"), "{kout6}");
        for game in GameKind::ALL {
            for variant in game.variants() {
                let text = rules_text(game.name(), Some(variant.name())).unwrap();
                let kept = anchors(&text);
                for link in text.split("](#").skip(1) {
                    let anchor = &link[..link.find(')').unwrap()];
                    assert!(
                        kept.iter().any(|a| a == anchor),
                        "{game} {variant}: #{anchor}"
                    );
                }
            }
        }
    }

    #[test]
    fn names_are_case_blind_and_aliases_work_but_unknown_ones_are_errors() {
        assert_eq!(
            rules_text("Kout-Bo", None).unwrap(),
            rules_text("kout", None).unwrap()
        );
        let err = rules_text("bridge", None).unwrap_err().to_string();
        assert!(
            err.contains("unknown game \"bridge\"") && err.contains("bid-euchre"),
            "{err}"
        );
        let err = rules_text("kout", Some("kout5")).unwrap_err().to_string();
        assert!(err.contains("kout6, kout4"), "{err}");
        assert!(rules_text("glossary", Some("alexa")).is_err());
    }

    #[test]
    fn the_list_names_every_game_of_the_engine() {
        let list = list();
        for game in GameKind::ALL {
            assert!(list.contains(game.name()), "{game}");
            for variant in game.variants() {
                assert!(list.contains(variant.name()), "{variant}");
            }
        }
    }
}
