//! Pieces of the rules-of-thumb calls and auction models that every game shares.

use calltrump_engine::{Action, Seat, SeenAction};

/// The item with the highest score (the first of equals), and that score.
pub(crate) fn best_by<T: Copy>(
    items: impl IntoIterator<Item = T>,
    score: impl Fn(T) -> f64,
) -> Option<(T, f64)> {
    items
        .into_iter()
        .map(|item| (item, score(item)))
        .fold(None, |best, (item, s)| match best {
            Some((_, b)) if s <= b => best,
            _ => Some((item, s)),
        })
}

/// How well a hand fits a call that asks for more than it seems to hold: 1 when it
/// falls short by `shortfall` 0 or less, then falling off exponentially at `slope`.
pub(crate) fn fit(slope: f64, shortfall: f64) -> f64 {
    (-slope * shortfall.max(0.0)).exp()
}

/// The lowest numeric bid (`Action::Bid`) still open after the calls `before`, with
/// `floor` the lowest bid of the game.
pub(crate) fn lowest_bid(before: &[(Seat, SeenAction)], floor: u8) -> u8 {
    before
        .iter()
        .filter_map(|(_, seen)| match seen {
            SeenAction::Open(Action::Bid(n)) => Some(n + 1),
            _ => None,
        })
        .max()
        .unwrap_or(floor)
}

/// `pick` if legal, else the lowest numeric bid listed (a dealer forced to bid), else
/// the first legal action.
pub(crate) fn legal_or_forced_bid(pick: Action, legal: &[Action]) -> Action {
    if legal.contains(&pick) {
        return pick;
    }
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Bid(_)))
        .unwrap_or(legal[0])
}

/// `pick` if it is one of `legal`, else the first legal action: whatever the rules of
/// thumb come to, a bot answers from `legal`.
pub(crate) fn in_legal(pick: Action, legal: &[Action]) -> Action {
    if legal.contains(&pick) {
        pick
    } else {
        legal[0]
    }
}
