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
use crate::screen::{Names, Style};

/// The best actions of a hint, each marked if the expert leaves it out of its own
/// choice.
struct Best {
    actions: Vec<(ActionValue, bool)>,
    deals: u32,
    unweighed: usize,
}

/// Most calls a hint weighs beyond those the expert considers (each costs a full
/// evaluation: enough for a Kaibosh or Kout Bo auction, not all of Bid Euchre's 56).
const MOST_PRUNED: usize = 12;

/// `best`, made up to [`HINT_ACTIONS`] actions when that many are legal: the calls the
/// expert prunes as hopeless are weighed too (all of them when few, else the cheapest),
/// with the same dice as the hint, and marked.
fn with_pruned(bot: &mut PimcBot, decision: &Decision<'_>, best: BestActions) -> Best {
    let marked = |actions: Vec<ActionValue>, considered: &[Action]| {
        actions
            .into_iter()
            .map(|value| (value, !considered.contains(&value.action)))
            .collect::<Vec<_>>()
    };
    let wanted = HINT_ACTIONS.min(decision.legal.len());
    let considered: Vec<Action> = best.actions.iter().map(|v| v.action).collect();
    if best.actions.len() >= wanted || best.unweighed == 0 {
        return Best {
            actions: marked(best.actions, &considered),
            deals: best.deals,
            unweighed: best.unweighed,
        };
    }
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
            actions: marked(
                evaluation.actions.into_iter().take(HINT_ACTIONS).collect(),
                &considered,
            ),
        },
        Err(_) => Best {
            actions: marked(best.actions, &considered),
            deals: best.deals,
            unweighed: best.unweighed,
        },
    }
}

/// The hint for `me`, whose turn it is in `game`: lines within 60 columns.
pub fn text(game: &AnyGame, me: Seat, style: &Style, names: &Names) -> String {
    let observation = game.observation(me);
    let legal = game.legal_action_list();
    let decision = Decision {
        rules: game.rules(),
        observation: &observation,
        legal: &legal,
    };
    let mut bot = judge();
    let hint = hint(&mut bot, &decision);
    let mut lines = Vec::new();
    match hint.best.map(|best| with_pruned(&mut bot, &decision, best)) {
        Ok(best) => {
            lines.push(format!(
                "Hint: the expert's best, from what you know ({} deals;\n\
                 points: your team's less theirs, this hand):",
                best.deals
            ));
            for (i, (value, pruned)) in best.actions.iter().enumerate() {
                lines.push(format!(
                    "  {}. {}  {:+.2}{}",
                    i + 1,
                    style.action(SeenAction::Open(value.action)),
                    value.points,
                    match pruned {
                        true => "  (the expert would not consider it)",
                        false => "",
                    }
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
