//! `hint` at the `calltrump play` prompt: the expert bot's three best actions with their
//! expected points, and what the bots read into the other seats' calls, both from the
//! player's own observation only (never a hidden card). The generator is seeded from
//! the decision's place in the game, as `calltrump analyze` seeds it (seed 0): the same
//! observation gets the same hint, and the analysis of the saved game agrees with it.

use calltrump_bots::{hint, Decision};
use calltrump_cli::analysis::judge;
use calltrump_engine::{AnyGame, Game, Seat, SeenAction};

use crate::play::wrap;
use crate::screen::{Names, Style};

/// The hint for `me`, whose turn it is in `game`: lines within 60 columns.
pub fn text(game: &AnyGame, me: Seat, style: &Style, names: &Names) -> String {
    let observation = game.observation(me);
    let legal = game.legal_action_list();
    let decision = Decision {
        rules: game.rules(),
        observation: &observation,
        legal: &legal,
    };
    let hint = hint(&mut judge(), &decision);
    let mut lines = Vec::new();
    match hint.best {
        Ok(best) => {
            lines.push(format!(
                "Hint: the expert's best, from what you know ({} deals;\n\
                 points: your team's less theirs, this hand):",
                best.deals
            ));
            for (i, value) in best.actions.iter().enumerate() {
                lines.push(format!(
                    "  {}. {}  {:+.2}",
                    i + 1,
                    style.action(SeenAction::Open(value.action)),
                    value.points
                ));
            }
            if best.unweighed > 0 {
                lines.push(format!(
                    "  (the other {} the expert does not consider)",
                    best.unweighed
                ));
            }
        }
        Err(error) => lines.push(format!("No hint: {error}.")),
    }
    let readings: Vec<String> = hint
        .readings
        .iter()
        .map(|r| {
            let sentence = format!(
                "{} {}: {}.",
                names.short(r.seat),
                style.action(SeenAction::Open(r.call)),
                r.reading
            );
            let words: Vec<String> = sentence.split(' ').map(str::to_string).collect();
            format!("  {}", wrap(&words, 56).join("\n    "))
        })
        .collect();
    if !readings.is_empty() {
        lines.push("What the bots take the calls to show:".to_string());
        lines.extend(readings);
    }
    lines.join("\n")
}
