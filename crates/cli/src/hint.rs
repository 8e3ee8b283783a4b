//! `hint` at the `calltrump play` prompt: the expert bot's three best actions with their
//! expected points, and what the bots read into the other seats' calls, both from the
//! player's own observation only (never a hidden card). The generator is seeded from
//! the decision's place in the game, as `calltrump analyze` seeds it (seed 0): the same
//! observation gets the same hint, and the analysis of the saved game agrees with it.

use calltrump_bots::{hint, hint_bot, Decision};
use calltrump_engine::{AnyGame, Game, Seat, SeenAction};

use crate::screen::Names;
use crate::text;
use calltrump_play::style::Style;
use calltrump_play::text::wrap;

/// Most lines of call readings a hint shows (the latest calls'), so that the hint and
/// the choices shown again after it fit a 24-line terminal.
const MOST_READING_LINES: usize = 10;

/// The hint for `me`, whose turn it is in `game`: what the bots take the calls to show,
/// then the best actions last, where the eye lands; lines within the screen's width.
pub fn text(game: &AnyGame, me: Seat, style: &Style, names: &Names) -> String {
    let observation = game.observation(me);
    let legal = game.legal_action_list();
    let decision = Decision {
        rules: game.rules(),
        observation: &observation,
        legal: &legal,
    };
    let width = text::width();
    let hint = hint(&mut hint_bot(), &decision);
    let mut lines = Vec::new();
    let mut readings: Vec<String> = hint
        .readings
        .iter()
        .flat_map(|r| {
            let sentence = format!(
                "{} {}: {}.",
                names.short(r.seat),
                style.action(SeenAction::Open(r.call)),
                r.reading
            );
            let words: Vec<String> = sentence.split(' ').map(str::to_string).collect();
            let wrapped = wrap(&words, width.saturating_sub(4));
            wrapped
                .into_iter()
                .enumerate()
                .map(|(i, line)| match i {
                    0 => format!("  {line}"),
                    _ => format!("    {line}"),
                })
                .collect::<Vec<_>>()
        })
        .collect();
    if readings.len() > MOST_READING_LINES {
        // Whole readings from the end, so that none is cut in the middle.
        let mut start = readings.len() - MOST_READING_LINES;
        while readings.get(start).is_some_and(|l| l.starts_with("    ")) {
            start += 1;
        }
        readings.drain(..start);
        lines.push("What the bots take the latest calls to show:".to_string());
    } else if !readings.is_empty() {
        lines.push("What the bots take the calls to show:".to_string());
    }
    lines.extend(readings);
    match hint.best {
        Ok(best) => {
            let head = format!(
                "Hint: the expert's best, from what you know ({} deals; points: your \
                 team's less theirs, this hand):",
                best.deals
            );
            lines.extend(calltrump_play::text::wrap_prose(&head, width, "", ""));
            for (i, value) in best.actions.iter().enumerate() {
                lines.push(format!(
                    "  {}. {}  {:+.2}",
                    i + 1,
                    style.action(SeenAction::Open(value.action)),
                    value.shown_points(),
                ));
            }
            if best.unweighed > 0 {
                lines.push(format!(
                    "  (the other {} not weighed: calls the expert thinks hopeless)",
                    best.unweighed
                ));
            }
        }
        Err(error) => lines.push(format!("No hint: {error}.")),
    }
    lines.join("\n")
}
