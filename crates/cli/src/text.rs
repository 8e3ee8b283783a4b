//! Text on a terminal: the width to lay it out in, and wrapping at word boundaries
//! (colour codes take no columns). A leaf: every screen of the binary uses it.

/// The width to wrap text at: the terminal's when standard output is one, else
/// `$COLUMNS` when set; none (no wrapping) for a pipe without it.
pub fn columns() -> Option<usize> {
    use std::io::IsTerminal;
    let terminal = std::io::stdout()
        .is_terminal()
        .then(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0)))
        .flatten();
    terminal
        .or_else(|| std::env::var("COLUMNS").ok()?.trim().parse().ok())
        .filter(|w| *w > 0)
}

/// The widest a screen's text gets on a wide terminal: longer lines are hard to read.
pub const MOST_COLUMNS: usize = 100;

/// The width a screen's text is laid out in when no terminal width is known (a pipe).
pub const PIPE_COLUMNS: usize = 60;

/// The width to lay out menus, lists and prose in: the terminal's ([`columns`]), at
/// most [`MOST_COLUMNS`]; [`PIPE_COLUMNS`] when it is not known.
pub fn width() -> usize {
    columns().unwrap_or(PIPE_COLUMNS).clamp(20, MOST_COLUMNS)
}

/// The columns `text` takes on a terminal: its characters, less ANSI colour codes.
pub fn visible_width(text: &str) -> usize {
    let mut n = 0;
    let mut escape = false;
    for c in text.chars() {
        match (escape, c) {
            (false, '\x1b') => escape = true,
            (true, 'm') => escape = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

/// `text` wrapped for the screen: at the terminal's width (or `$COLUMNS`), at most
/// [`MOST_COLUMNS`]; through a pipe without `$COLUMNS`, as it is.
pub fn fill_screen(text: &str) -> String {
    fill(text, columns().map(|w| w.min(MOST_COLUMNS)))
}

/// `text` with each line wrapped at word boundaries to `width` columns (none: as it
/// is); a wrapped line goes on with the indent it began with. A word longer than the
/// width (a commitment's hash, a path) stands alone on its line rather than be split.
pub fn fill(text: &str, width: Option<usize>) -> String {
    let Some(width) = width else {
        return text.to_string();
    };
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        if visible_width(line) <= width {
            out.push(line.to_string());
            continue;
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        let mut current = indent.to_string();
        for word in line.split_whitespace() {
            let fits = visible_width(&current) + 1 + visible_width(word) <= width;
            if current.trim().is_empty() {
                current.push_str(word);
            } else if fits {
                current.push(' ');
                current.push_str(word);
            } else {
                out.push(std::mem::replace(&mut current, format!("{indent}{word}")));
            }
        }
        out.push(current);
    }
    out.join("\n")
}

/// Items joined by two spaces (words of a sentence by one), in lines of at most `width`
/// columns.
pub fn wrap(items: &[String], width: usize) -> Vec<String> {
    let gap = if items.iter().any(|i| i.starts_with('[')) {
        "  "
    } else {
        " "
    };
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && visible_width(&line) + gap.len() + visible_width(item) > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str(gap);
        }
        line.push_str(item);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
