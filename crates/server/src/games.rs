//! `GET /api/games`: the engine's game catalogue as the pages read it, so that no page
//! keeps a list of games, variants or options of its own.

use axum::Json;
use calltrump_engine::catalog::{OptionSpec, OptionValues};
use calltrump_engine::{GameKind, VariantKind};
use serde_json::{json, Value};

/// Answers `GET /api/games`.
pub async fn games() -> Json<Value> {
    Json(catalogue())
}

/// Every game with its variants, each with its facts and its options
/// (docs/table-protocol.md, "The game catalogue").
pub fn catalogue() -> Value {
    let games: Vec<Value> = GameKind::ALL
        .into_iter()
        .map(|game| {
            json!({
                "id": game.name(),
                "title": game.title(),
                "rules": format!("/rules/{game}"),
                "variants": game.variants().iter().map(|v| variant(*v)).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "games": games })
}

fn variant(variant: VariantKind) -> Value {
    json!({
        "id": variant.name(),
        "title": variant.title(),
        "short": variant.short_title(),
        "seats": variant.seats(),
        "partners": variant.partners(),
        "hand_size": variant.hand_size(),
        "deck": { "cards": variant.deck().len(), "text": variant.deck_text() },
        "length": variant.length(),
        "direction": variant.direction(),
        "hand_order": variant.hand_order(),
        "options": variant.options().map(option).collect::<Vec<_>>(),
    })
}

fn option(option: &OptionSpec) -> Value {
    let (kind, choices) = match option.values {
        OptionValues::Count => ("count", Vec::new()),
        OptionValues::Choice(choices) => (
            "choice",
            choices
                .iter()
                .map(|(value, label)| json!({ "value": value, "label": label }))
                .collect(),
        ),
    };
    // A count's default is a number, as a header writes it.
    let default = match (option.values, option.default) {
        (_, None) => Value::Null,
        (OptionValues::Count, Some(text)) => text.parse::<u64>().map_or(Value::Null, Value::from),
        (OptionValues::Choice(_), Some(text)) => Value::from(text),
    };
    json!({
        "key": option.key,
        "label": option.label,
        "meaning": option.meaning,
        "kind": kind,
        "choices": choices,
        "default": default,
        "variants": option.variants.iter().map(|v| v.name()).collect::<Vec<_>>(),
    })
}
