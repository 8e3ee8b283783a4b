//! Hints for a person at the table: a search bot's best actions with their expected
//! points, and what the bots read into the other seats' calls, both from the deciding
//! seat's observation only (a [`Decision`] holds nothing else). The terminal's `hint`
//! and the server's `hint` message are both this.
//!
//! The generators are seeded from the decision's place in the game (the hand and the
//! action's index in it), as `calltrump analyze` seeds its evaluations: the same
//! observation gets the same hint whatever the hidden hands, and the analysis of the
//! saved game (seed 0, the expert's budget) agrees with the terminal's hint.

use calltrump_engine::{stream, Action, GameRng, GameRules, Observation, Seat, SeenAction};

use crate::evaluate::{read_call, ActionValue, CallReading, Evaluation};
use crate::levels::Level;
use crate::pimc::PimcBot;
use crate::sampler::Inconsistent;
use crate::Decision;

/// How many actions a hint shows.
pub const HINT_ACTIONS: usize = 3;

/// The generator of the evaluation of decision `index` of hand `hand`, under `seed`.
pub fn evaluation_rng(seed: u64, (hand, index): (usize, usize)) -> GameRng {
    stream(seed, (hand as u64) << 16 | index as u64)
}

/// The generator of the reading of the call at `index` of hand `hand`, apart from the
/// evaluations'.
pub fn reading_rng(seed: u64, (hand, index): (usize, usize)) -> GameRng {
    stream(seed, 1 << 48 | (hand as u64) << 16 | index as u64)
}

/// The bot every hint evaluates with, in the terminal and at a shared table alike: the
/// expert at its own budget, which is also the judge of `calltrump analyze`, so the same
/// observation gets the same hint everywhere and the analysis of the game agrees with it.
pub fn hint_bot() -> PimcBot {
    Level::Expert.search_bot().expect("the expert searches")
}

/// Most calls a hint weighs beyond those the expert considers (each costs a full
/// evaluation: enough for a Kaibosh or Kout Bo auction, not all of Bid Euchre's 56).
const MOST_PRUNED: usize = 12;

/// The best actions of a decision.
#[derive(Clone, Debug, PartialEq)]
pub struct BestActions {
    /// At most [`HINT_ACTIONS`], best first, with expected net points on the hand (the
    /// deciding seat's team's less the other team's).
    pub actions: Vec<ActionValue>,
    /// Deals sampled.
    pub deals: u32,
    /// Legal actions the bot does not consider (calls it thinks hopeless).
    pub unweighed: usize,
}

/// What the bots take one call of the hand to show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// The call's index among the hand's actions.
    pub index: usize,
    /// The seat that called.
    pub seat: Seat,
    /// The call.
    pub call: Action,
    /// What it shows.
    pub reading: CallReading,
}

/// A hint: the best actions (unless the observation cannot be sampled) and the readings
/// of the other seats' calls in this hand, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The best actions.
    pub best: Result<BestActions, Inconsistent>,
    /// The other seats' calls the bots read something into, oldest first.
    pub readings: Vec<Reading>,
}

/// The hint for the seat of `decision.observation`, evaluated by `bot` (normally
/// [`hint_bot`]), seeded by the decision's place in the game. When the bot prunes calls
/// it thinks hopeless and so considers fewer than [`HINT_ACTIONS`], the pruned calls are
/// weighed too (all of them when few, else the cheapest), with the same dice: their
/// points say how they fare, so a pruned call that makes the three is simply the third.
pub fn hint(bot: &mut PimcBot, decision: &Decision<'_>) -> Hint {
    let observation = decision.observation;
    let at = (
        observation.start.deals_played as usize,
        observation.actions.len(),
    );
    let best = bot
        .evaluate(decision, &[], &mut evaluation_rng(0, at))
        .map(|evaluation| best_of(decision, evaluation))
        .map(|best| with_pruned(bot, decision, best));
    Hint {
        best,
        readings: readings(decision.rules, observation),
    }
}

/// The best [`HINT_ACTIONS`] of an evaluation.
fn best_of(decision: &Decision<'_>, evaluation: Evaluation) -> BestActions {
    BestActions {
        unweighed: decision.legal.len() - evaluation.actions.len(),
        deals: evaluation.deals,
        actions: evaluation.actions.into_iter().take(HINT_ACTIONS).collect(),
    }
}

/// `best`, made up to [`HINT_ACTIONS`] actions when that many are legal, by weighing
/// the calls the bot pruned (see [`hint`]).
fn with_pruned(bot: &mut PimcBot, decision: &Decision<'_>, best: BestActions) -> BestActions {
    let wanted = HINT_ACTIONS.min(decision.legal.len());
    if best.actions.len() >= wanted || best.unweighed == 0 {
        return best;
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
        Ok(evaluation) => best_of(decision, evaluation),
        Err(_) => best,
    }
}

/// What the bots read into every call of the hand so far that `observation`'s seat saw
/// another seat make.
pub fn readings(rules: &GameRules, observation: &Observation) -> Vec<Reading> {
    let hand = observation.start.deals_played as usize;
    (0..observation.actions.len())
        .filter_map(|index| {
            let reading = read_call(
                rules,
                observation,
                index,
                &mut reading_rng(0, (hand, index)),
            )?;
            let (seat, SeenAction::Open(call)) = observation.actions[index] else {
                return None;
            };
            Some(Reading {
                index,
                seat,
                call,
                reading,
            })
        })
        .collect()
}
