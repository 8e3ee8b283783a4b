//! What the server's tests share: which cards a recipient may know, and the cards a
//! message names.

use calltrump_engine::{Action, AnyGame, Card, CardBag, Game, Seat, SeenAction};
use serde_json::Value;

/// The cards `seat` (or a spectator: `None`) may know in `game`: its own dealt cards,
/// every card played, and the cards passed face down that it passed or received.
pub fn known(game: &AnyGame, seat: Option<Seat>) -> CardBag {
    let observation = game.observation(seat.unwrap_or(Seat(0)));
    let mut known = CardBag::EMPTY;
    if seat.is_some() {
        observation.dealt.iter().for_each(|c| {
            known.insert(c);
        });
    }
    for (_, seen) in &observation.actions {
        let cards: Vec<Card> = match seen {
            SeenAction::Open(Action::Play(card)) => vec![*card],
            SeenAction::Open(Action::Give(p) | Action::Discard(p)) if seat.is_some() => {
                p.cards().to_vec()
            }
            _ => vec![],
        };
        cards.into_iter().for_each(|c| {
            known.insert(c);
        });
    }
    known
}

/// Every card named anywhere in `value`: a string such as `"AS"` or `"give JH JD"`.
pub fn cards_named(value: &Value, out: &mut Vec<Card>) {
    match value {
        Value::String(text) => out.extend(text.split(' ').filter_map(|w| w.parse::<Card>().ok())),
        Value::Array(items) => items.iter().for_each(|v| cards_named(v, out)),
        Value::Object(map) => map.values().for_each(|v| cards_named(v, out)),
        _ => {}
    }
}
