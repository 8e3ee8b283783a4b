//! The rules' Markdown drawn for a terminal: headings underlined, lists with bullets,
//! tables as aligned columns (or, too wide for the screen, a block per row), links as
//! their text, every paragraph wrapped at word boundaries. With `styled` (a terminal),
//! headings and strong text in bold and emphasis in italics; without, plain text.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use calltrump_play::text::{visible_width, wrap_prose};

const BOLD: &str = "\x1b[1m";
const ITALIC: &str = "\x1b[3m";
const RESET: &str = "\x1b[0m";

/// A table being read: its rows of cells (the first is the header).
#[derive(Default)]
struct Table {
    rows: Vec<Vec<String>>,
}

/// The renderer's state while it walks the events.
struct Renderer {
    width: usize,
    styled: bool,
    out: Vec<String>,
    /// The inline text of the paragraph, heading, item or cell being read.
    inline: String,
    /// Open lists: the next number of a numbered one, `None` for bullets.
    lists: Vec<Option<u64>>,
    /// The marker of the list item whose first block is still to come.
    marker: Option<String>,
    table: Option<Table>,
    quote: usize,
    code: Option<String>,
    /// The address of the link being read.
    link: Option<String>,
}

/// `markdown` drawn for a terminal `width` columns wide.
pub fn render(markdown: &str, width: usize, styled: bool) -> String {
    let mut renderer = Renderer {
        width: width.max(20),
        styled,
        out: Vec::new(),
        inline: String::new(),
        lists: Vec::new(),
        marker: None,
        table: None,
        quote: 0,
        code: None,
        link: None,
    };
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        renderer.event(event);
    }
    renderer.flush_text();
    while renderer.out.last().is_some_and(|l| l.is_empty()) {
        renderer.out.pop();
    }
    renderer.out.join("\n") + "\n"
}

impl Renderer {
    /// The indent of blocks inside the open lists and quotes.
    fn indent(&self) -> String {
        "  ".repeat(self.lists.len()) + &"│ ".repeat(self.quote)
    }

    /// A blank line between blocks, never two.
    fn gap(&mut self) {
        if self.out.last().is_some_and(|l| !l.trim().is_empty()) {
            self.out.push(String::new());
        }
    }

    fn styled(&self, code: &'static str) -> &'static str {
        if self.styled {
            code
        } else {
            ""
        }
    }

    /// Ends the block of text read so far: wrapped, under a list item's marker if one
    /// waits.
    fn flush_text(&mut self) {
        let text = std::mem::take(&mut self.inline);
        if text.trim().is_empty() && self.marker.is_none() {
            return;
        }
        let rest = self.indent();
        let first = match self.marker.take() {
            Some(marker) => {
                let outer = "  ".repeat(self.lists.len().saturating_sub(1));
                format!("{outer}{marker} ")
            }
            None => rest.clone(),
        };
        let lines = wrap_prose(&text, self.width, &first, &rest);
        self.out.extend(lines);
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => match &mut self.code {
                Some(code) => code.push_str(&text),
                None => self.inline.push_str(&text),
            },
            Event::Code(code) => self.inline.push_str(&code),
            Event::SoftBreak => self.inline.push(' '),
            Event::HardBreak => self.inline.push('\n'),
            Event::Rule => {
                self.flush_text();
                self.gap();
                self.out.push("─".repeat(self.width.min(60)));
            }
            // Comments (the variant markers) and other HTML are not for the screen.
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            // A paragraph opening a list item stands under its marker.
            Tag::Paragraph if self.marker.is_none() && self.table.is_none() => self.gap(),
            Tag::Heading { .. } => {
                self.flush_text();
                self.gap();
            }
            Tag::List(first) => {
                self.flush_text();
                if self.lists.is_empty() {
                    self.gap();
                }
                self.lists.push(first);
            }
            Tag::Item => {
                self.flush_text();
                let bullet = if self.styled { "•" } else { "-" };
                self.marker = Some(match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}.", *n - 1)
                    }
                    _ => bullet.to_string(),
                });
            }
            Tag::BlockQuote(_) => {
                self.flush_text();
                self.gap();
                self.quote += 1;
            }
            Tag::CodeBlock(_) => {
                self.flush_text();
                self.gap();
                self.code = Some(String::new());
            }
            Tag::Table(_) => {
                self.flush_text();
                self.gap();
                self.table = Some(Table::default());
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(table) = &mut self.table {
                    table.rows.push(Vec::new());
                }
            }
            Tag::TableCell => self.inline.clear(),
            Tag::Emphasis => self.inline.push_str(self.styled(ITALIC)),
            Tag::Strong => self.inline.push_str(self.styled(BOLD)),
            Tag::Link { dest_url, .. } => self.link = Some(dest_url.to_string()),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.flush_text(),
            TagEnd::Heading(level) => {
                let title = std::mem::take(&mut self.inline);
                let rule = match level {
                    HeadingLevel::H1 => "═",
                    HeadingLevel::H2 => "─",
                    _ => "",
                };
                let (bold, reset) = (self.styled(BOLD), self.styled(RESET));
                let indent = self.indent();
                for line in wrap_prose(&title, self.width, &indent, &indent) {
                    self.out.push(format!("{bold}{line}{reset}"));
                }
                if !rule.is_empty() {
                    let width = visible_width(&title).min(self.width);
                    self.out.push(rule.repeat(width));
                }
            }
            TagEnd::List(_) => {
                self.flush_text();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.gap();
                }
            }
            TagEnd::Item => self.flush_text(),
            TagEnd::BlockQuote(_) => {
                self.flush_text();
                self.quote = self.quote.saturating_sub(1);
            }
            TagEnd::CodeBlock => {
                let indent = self.indent() + "    ";
                let code = self.code.take().unwrap_or_default();
                self.out
                    .extend(code.lines().map(|line| format!("{indent}{line}")));
                self.gap();
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    let lines = self.table_lines(&table);
                    self.out.extend(lines);
                    self.gap();
                }
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.inline);
                if let Some(row) = self.table.as_mut().and_then(|t| t.rows.last_mut()) {
                    row.push(cell.trim().to_string());
                }
            }
            TagEnd::Emphasis | TagEnd::Strong => {
                // Back to plain, then on in bold if a strong span is still open around.
                self.inline.push_str(self.styled(RESET));
            }
            TagEnd::Link => {
                if let Some(to) = self.link.take().and_then(|url| link_target(&url)) {
                    self.inline.push_str(&format!(" ({to})"));
                }
            }
            _ => {}
        }
    }

    /// A table as aligned columns when it fits the width, else a block per row, each
    /// cell under its column's heading.
    fn table_lines(&self, table: &Table) -> Vec<String> {
        let indent = self.indent();
        let columns = table.rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                table
                    .rows
                    .iter()
                    .filter_map(|row| row.get(c))
                    .map(|cell| visible_width(cell))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let total = indent.len() + widths.iter().sum::<usize>() + 3 * columns.saturating_sub(1);
        let mut lines = Vec::new();
        if total <= self.width {
            for (i, row) in table.rows.iter().enumerate() {
                let cells: Vec<String> = (0..columns)
                    .map(|c| {
                        let cell = row.get(c).map_or("", String::as_str);
                        let pad = widths[c] - visible_width(cell);
                        format!("{cell}{}", " ".repeat(pad))
                    })
                    .collect();
                lines.push(
                    format!("{indent}{}", cells.join(" │ "))
                        .trim_end()
                        .to_string(),
                );
                if i == 0 {
                    let rules: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
                    lines.push(format!("{indent}{}", rules.join("─┼─")));
                }
            }
            return lines;
        }
        let header = table.rows.first().cloned().unwrap_or_default();
        for row in table.rows.iter().skip(1) {
            for (c, cell) in row.iter().enumerate() {
                let name = header.get(c).map_or("", String::as_str);
                let text = match name.is_empty() {
                    true => cell.clone(),
                    false => format!("{name}: {cell}"),
                };
                let first = match c {
                    0 => format!("{indent}- "),
                    _ => format!("{indent}  "),
                };
                lines.extend(wrap_prose(
                    &text,
                    self.width,
                    &first,
                    &format!("{indent}    "),
                ));
            }
        }
        lines
    }
}

/// Where a link leads, said in words for the terminal: another page of the rules as
/// the command that prints it, a file of the repository by its path, a web address as
/// it is; a link within the page needs nothing (its heading is on the page).
fn link_target(url: &str) -> Option<String> {
    if url.starts_with('#') {
        return None;
    }
    if url.starts_with("http://") || url.starts_with("https://") {
        return Some(url.to_string());
    }
    let file = url.split('#').next().unwrap_or(url);
    let page = file.trim_start_matches("./");
    if let Some(name) = calltrump_play::rules::page_of_file(page) {
        return Some(format!("calltrump rules {name}"));
    }
    Some(match page {
        "README.md" => "calltrump rules".to_string(),
        // From docs/rules/ up to the repository's docs/ folder.
        other => format!("docs/{}", other.trim_start_matches("../")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "# Kout Bo\n\nA *Malzom* is **the dealer's** forced 5; see the \
        [glossary](glossary.md) and [Kout Bo 4](#kout-bo-4).\n\n## Options\n\n\
        - one item that is long enough to wrap round at a narrow width\n- `two`\n\n\
        1. first\n2. second\n\n| key | values | default |\n|---|---|---|\n\
        | `deck` | `no-black-sixes`, `two-undealt` | `no-black-sixes` |\n";

    #[test]
    fn plain_text_has_no_markdown_syntax_and_no_word_split() {
        let text = render(PAGE, 40, false);
        for raw in ["**", "`", "](", "# ", "|---"] {
            assert!(!text.contains(raw), "{raw} in\n{text}");
        }
        assert!(text.starts_with("Kout Bo\n═══════\n"), "{text}");
        assert!(
            text.contains("glossary (calltrump rules glossary)"),
            "{text}"
        );
        assert!(text.contains("Kout Bo 4."), "{text}");
        assert!(text.contains("\n- one item"), "{text}");
        assert!(text.contains("\n1. first\n2. second"), "{text}");
        let words: Vec<&str> = PAGE
            .split_whitespace()
            .chain(["calltrump", "rules"])
            .collect();
        for line in text.lines() {
            assert!(line.chars().count() <= 40, "{line:?}");
            // Every word of a line is a word of the page (less its syntax): none split.
            for word in line.split_whitespace() {
                let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
                assert!(
                    bare.is_empty() || words.iter().any(|w| w.contains(bare)),
                    "{word} in {line:?}"
                );
            }
        }
    }

    #[test]
    fn a_table_too_wide_becomes_a_block_per_row_and_a_narrow_one_columns() {
        let narrow = render(PAGE, 40, false);
        assert!(
            narrow.contains("- key: deck\n  values: no-black-sixes,"),
            "{narrow}"
        );
        let wide = render(PAGE, 100, false);
        assert!(
            wide.contains("key  │ values                      │ default"),
            "{wide}"
        );
    }

    #[test]
    fn styled_text_is_bold_where_strong() {
        let text = render(PAGE, 80, true);
        assert!(
            text.contains(&format!("{BOLD}the dealer's{RESET}")),
            "{text}"
        );
        assert!(text.contains("• one item"), "{text}");
    }
}
