//! Text on a terminal: the width to lay it out in (the wrapping itself is
//! [`calltrump_play::text`]'s). A leaf: every screen of the binary uses it.

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

/// `text` wrapped for the screen: at the terminal's width (or `$COLUMNS`), at most
/// [`MOST_COLUMNS`]; through a pipe without `$COLUMNS`, as it is.
pub fn fill_screen(text: &str) -> String {
    calltrump_play::text::fill(text, columns().map(|w| w.min(MOST_COLUMNS)))
}
