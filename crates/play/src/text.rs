//! Text laid out in columns: the width a line takes on a terminal (colour codes take
//! none), and wrapping at word boundaries. A leaf: the terminal's screens and the
//! reports use it.

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

/// `text` in lines of at most `width` columns, broken only between words: the first
/// line after `first`, the others after `rest`. A word wider than a line has its own.
/// Hard breaks (`\n`) are kept.
pub fn wrap_prose(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for (i, part) in text.split('\n').enumerate() {
        if i > 0 {
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            empty = true;
        }
        for word in part.split_whitespace() {
            if !empty && visible_width(&line) + 1 + visible_width(word) > width {
                lines.push(std::mem::replace(&mut line, rest.to_string()));
                empty = true;
            }
            if !empty {
                line.push(' ');
            }
            line.push_str(word);
            empty = false;
        }
    }
    lines.push(line.trim_end().to_string());
    lines
}
