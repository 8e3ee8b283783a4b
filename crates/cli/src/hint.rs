//! `hint` at the `calltrump play` prompt: the expert bot's three best actions with their
//! expected points, and what the bots read into the other seats' calls, both from the
//! player's own observation only (never a hidden card). The generator is seeded from
//! the decision's place in the game, as `calltrump analyze` seeds it (seed 0): the same
//! observation gets the same hint, and the analysis of the saved game agrees with it.

use calltrump_bots::{read_call, Decision};
use calltrump_cli::analysis::{evaluation_rng, judge, reading_rng};
use calltrump_engine::{AnyGame, Game, Seat, SeenAction};

use crate::play::wrap;
use crate::screen::{Names, Style};

/// How many actions a hint shows.
const SHOWN: usize = 3;

/// The hint for `me`, whose turn it is in `game`: lines within 60 columns.
pub fn text(game: &AnyGame, me: Seat, style: &Style, names: &Names) -> String {
    let observation = game.observation(me);
    let legal = game.legal_action_list();
    let decision = Decision {
        rules: game.rules(),
        observation: &observation,
        legal: &legal,
    };
    let hand = observation.start.deals_played as usize;
    let mut rng = evaluation_rng(0, (hand, observation.actions.len()));
    let mut bot = judge();
    let mut lines = Vec::new();
    match bot.evaluate(&decision, &[], &mut rng) {
        Ok(evaluation) => {
            lines.push(format!(
                "Hint: the expert's best, from what you know ({} deals;\n\
                 points: your team's less theirs, this hand):",
                evaluation.deals
            ));
            for (i, value) in evaluation.actions.iter().take(SHOWN).enumerate() {
                lines.push(format!(
                    "  {}. {}  {:+.2}",
                    i + 1,
                    style.action(SeenAction::Open(value.action)),
                    value.points
                ));
            }
            let unweighed = legal.len() - evaluation.actions.len();
            if unweighed > 0 {
                lines.push(format!(
                    "  (the other {unweighed} the expert does not consider)"
                ));
            }
        }
        Err(error) => lines.push(format!("No hint: {error}.")),
    }
    let readings: Vec<String> = (0..observation.actions.len())
        .filter_map(|i| {
            let reading = read_call(
                game.rules(),
                &observation,
                i,
                &mut reading_rng(0, (hand, i)),
            )?;
            let (seat, seen) = observation.actions[i];
            let sentence = format!("{} {}: {reading}.", names.short(seat), style.action(seen));
            let words: Vec<String> = sentence.split(' ').map(str::to_string).collect();
            Some(format!("  {}", wrap(&words, 56).join("\n    ")))
        })
        .collect();
    if !readings.is_empty() {
        lines.push("What the bots take the calls to show:".to_string());
        lines.extend(readings);
    }
    lines.join("\n")
}
