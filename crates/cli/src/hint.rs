//! `hint` at the `calltrump play` prompt: the expert bot's three best actions with their
//! expected points, and what the bots read into the other seats' calls, both from the
//! player's own observation only (never a hidden card). The generator is seeded from
//! the decision's place in the game, as `calltrump analyze` seeds it (seed 0): the same
//! observation gets the same hint, and the analysis of the saved game agrees with it.

use calltrump_bots::{
    evaluation_rng, hint, ActionValue, BestActions, Decision, PimcBot, HINT_ACTIONS,
};
use calltrump_cli::analysis::judge;
use calltrump_engine::{Action, AnyGame, Game, Seat, SeenAction};

use crate::play::wrap;
use crate::screen::{self, Names, Style};

/// The best actions of a hint.
struct Best {
    actions: Vec<ActionValue>,
    deals: u32,
    unweighed: usize,
}

/// Most calls a hint weighs beyond those the expert considers (each costs a full
/// evaluation: enough for a Kaibosh or Kout Bo auction, not all of Bid Euchre's 56).
const MOST_PRUNED: usize = 12;

/// `best`, made up to [`HINT_ACTIONS`] actions when that many are legal: the calls the
/// expert prunes as hopeless are weighed too (all of them when few, else the cheapest),
/// with the same dice as the hint. Their points say how they fare, so they are not
/// marked: a pruned call that makes the three is simply the third best.
fn with_pruned(bot: &mut PimcBot, decision: &Decision<'_>, best: BestActions) -> Best {
    let wanted = HINT_ACTIONS.min(decision.legal.len());
    let kept = |best: BestActions| Best {
        actions: best.actions,
        deals: best.deals,
        unweighed: best.unweighed,
    };
    if best.actions.len() >= wanted || best.unweighed == 0 {
        return kept(best);
    }
    let considered: Vec<Action> = best.actions.iter().map(|v| v.action).collect();
    let pruned: Vec<Action> = decision
        .legal
        .iter()
        .copied()
        .filter(|a| !considered.contains(a))
        .collect();
    let also = match pruned.len() <= MOST_PRUNED {
        true => pruned,
        // The legal calls come cheapest first.
        false => pruned[..wanted - best.actions.len()].to_vec(),
    };
    let observation = decision.observation;
    let at = (
        observation.start.deals_played as usize,
        observation.actions.len(),
    );
    match bot.evaluate(decision, &also, &mut evaluation_rng(0, at)) {
        Ok(evaluation) => Best {
            unweighed: decision.legal.len() - evaluation.actions.len(),
            deals: evaluation.deals,
            actions: evaluation.actions.into_iter().take(HINT_ACTIONS).collect(),
        },
        Err(_) => kept(best),
    }
}

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
    let width = screen::width();
    let mut bot = judge();
    let hint = hint(&mut bot, &decision);
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
    match hint.best.map(|best| with_pruned(&mut bot, &decision, best)) {
        Ok(best) => {
            let head = format!(
                "Hint: the expert's best, from what you know ({} deals; points: your \
                 team's less theirs, this hand):",
                best.deals
            );
            lines.extend(crate::markdown::wrap(&head, width, "", ""));
            for (i, value) in best.actions.iter().enumerate() {
                lines.push(format!(
                    "  {}. {}  {:+.2}",
                    i + 1,
                    style.action(SeenAction::Open(value.action)),
                    value.points,
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
