//! What a viewer may know of a game, and the cards a serialised message names: the
//! redaction checks of the engine's views and of the table's updates and snapshots.

use calltrump_engine::{Action, AnyGame, Card, CardBag, Game, Seat, SeenAction, Viewer};
use serde_json::Value;

/// Every card named anywhere in `value`: a string such as `"AS"` or `"give JH JD"`.
pub fn cards_named(value: &Value) -> Vec<Card> {
    match value {
        Value::String(text) => text.split(' ').filter_map(|w| w.parse().ok()).collect(),
        Value::Array(items) => items.iter().flat_map(cards_named).collect(),
        Value::Object(map) => map.values().flat_map(cards_named).collect(),
        _ => Vec::new(),
    }
}

/// The cards `viewer` may know now: its own cards as dealt and every card it saw played,
/// given or discarded (a spectator: the cards played).
pub fn known_cards(game: &AnyGame, viewer: Viewer) -> CardBag {
    let observation = game.observation(viewer.seat().unwrap_or(Seat(0)));
    let mut known = CardBag::EMPTY;
    let mut add = |card: Card| {
        known.insert(card);
    };
    if viewer.seat().is_some() {
        observation.dealt.iter().for_each(&mut add);
    }
    for (_, seen) in &observation.actions {
        match seen {
            SeenAction::Open(Action::Play(card)) => add(*card),
            SeenAction::Open(Action::Give(pair) | Action::Discard(pair))
                if viewer.seat().is_some() =>
            {
                pair.cards().iter().copied().for_each(&mut add)
            }
            _ => {}
        }
    }
    known
}

/// Fails if `what`, serialised, names a card `viewer` may not know in `game`.
pub fn assert_only_known(
    what: &impl serde::Serialize,
    game: &AnyGame,
    viewer: Viewer,
    context: &str,
) {
    let known = known_cards(game, viewer);
    for card in cards_named(&serde_json::to_value(what).unwrap()) {
        assert!(
            known.contains(card),
            "{context}: {viewer:?} was shown {card}"
        );
    }
}
