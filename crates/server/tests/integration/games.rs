//! `GET /api/games`: the engine's catalogue as the pages read it. Every variant and every
//! value of every option it lists makes a table whose record's header reads back to the
//! same rules; and the pages keep no list of games, variants or options of their own.

use crate::common;

use std::time::Duration;

use calltrump_engine::catalog::OptionValues;
use calltrump_engine::fair_deal::CutSide;
use calltrump_engine::{GameKind, GameRules, Record, VariantKind};
use calltrump_server::HubConfig;
use common::{http_at, record_of, server_in_temp};
use serde_json::{json, Map, Value};

/// The catalogue as `GET /api/games` answers it.
async fn games(server: &calltrump_server::RunningServer) -> Vec<Value> {
    let (status, body) = http_at(server.addr, "GET", "/api/games", None).await;
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    answer["games"].as_array().unwrap().clone()
}

#[tokio::test]
async fn every_variant_and_option_value_of_the_catalogue_makes_a_table_with_that_header() {
    let (_dir, server) = server_in_temp(HubConfig::new(Duration::ZERO, Duration::ZERO)).await;
    let games = games(&server).await;
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, GameKind::ALL.map(|g| g.name()));
    let mut tables = 0;
    for game in &games {
        let kind: GameKind = game["id"].as_str().unwrap().parse().unwrap();
        assert_eq!(game["title"], kind.title());
        let variants = game["variants"].as_array().unwrap();
        let names: Vec<&str> = variants.iter().map(|v| v["id"].as_str().unwrap()).collect();
        let expected: Vec<&str> = kind.variants().iter().map(|v| v.name()).collect();
        assert_eq!(names, expected);
        for variant in variants {
            let kind: VariantKind = variant["id"].as_str().unwrap().parse().unwrap();
            assert_eq!(variant["seats"], kind.seats());
            assert_eq!(variant["hand_size"], kind.hand_size());
            assert_eq!(variant["deck"]["cards"], kind.deck().len());
            let keys: Vec<&str> = variant["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["key"].as_str().unwrap())
                .collect();
            assert_eq!(keys, kind.options().map(|o| o.key).collect::<Vec<_>>());
            // The defaults alone, then each value of each option alone.
            let mut tries = vec![Map::new()];
            for (option, spec) in variant["options"]
                .as_array()
                .unwrap()
                .iter()
                .zip(kind.options())
            {
                let values: Vec<Value> = match spec.values {
                    OptionValues::Count => vec![json!(1), json!(12)],
                    OptionValues::Choice(_) => option["choices"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c["value"].clone())
                        .collect(),
                };
                assert_eq!(
                    option["default"]
                        .as_str()
                        .map(str::to_string)
                        .or(option["default"].as_u64().map(|n| n.to_string()))
                        .as_deref(),
                    spec.default,
                    "{kind} {}",
                    spec.key
                );
                for value in values {
                    tries.push(Map::from_iter([(spec.key.to_string(), value)]));
                }
            }
            for options in tries {
                let body = json!({
                    "game": game["id"], "variant": variant["id"], "options": options,
                    "seats": vec!["open"; kind.seats()],
                });
                let (status, text) =
                    http_at(server.addr, "POST", "/api/tables", Some(&body.to_string())).await;
                assert_eq!(status, 201, "{body}: {text}");
                let created: Value = serde_json::from_str(&text).unwrap();
                let (status, text) = record_of(&server, created["id"].as_str().unwrap()).await;
                assert_eq!(status, 200, "{text}");
                let record = Record::parse(&text).unwrap();
                let (rules, _) = record.rules().unwrap();
                let asked = GameRules::from_options(kind, &options).unwrap();
                assert_eq!(rules, asked, "{body}");
                assert_eq!(
                    CutSide::from_options(&rules, &record.options).unwrap(),
                    CutSide::from_options(&asked, &options).unwrap(),
                    "{body}"
                );
                tables += 1;
            }
        }
    }
    assert!(tables > 30, "{tables}");
}

/// The words of the catalogue that the pages also use in another sense: the `kaibosh`
/// call, "deals" the verb, the `cut` message and action.
const OTHER_SENSES: [&str; 3] = ["kaibosh", "deals", "cut"];

#[tokio::test]
async fn the_pages_hold_no_game_variant_or_option_of_their_own() {
    let (_dir, server) = server_in_temp(HubConfig::new(Duration::ZERO, Duration::ZERO)).await;
    let mut words: Vec<String> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    for game in games(&server).await {
        keys.push(game["id"].as_str().unwrap().to_string());
        for variant in game["variants"].as_array().unwrap() {
            keys.push(variant["id"].as_str().unwrap().to_string());
            for option in variant["options"].as_array().unwrap() {
                words.push(option["key"].as_str().unwrap().to_string());
                for choice in option["choices"].as_array().unwrap() {
                    words.push(choice["value"].as_str().unwrap().to_string());
                }
            }
        }
    }
    words.extend(keys.iter().cloned());
    words.retain(|w| !OTHER_SENSES.contains(&w.as_str()));
    words.sort();
    words.dedup();
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut checked = 0;
    for entry in std::fs::read_dir(assets).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // The browser's fair-deal check recomputes deals on its own, on purpose: it
        // checks the server, so it holds its own decks (tested against shared vectors).
        if name == "fairdeal.js" || !(name.ends_with(".js") || name.ends_with(".html")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for word in &words {
            for quote in ['"', '\'', '`'] {
                let quoted = format!("{quote}{word}{quote}");
                assert!(
                    !text.contains(&quoted),
                    "{name} names {quoted}: read it from /api/games"
                );
            }
        }
        // A game or variant as an object's key, as a list of games writes it (`kout: {`),
        // or read from one (`GAMES.kout`).
        let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
        for word in &keys {
            let as_key = text
                .match_indices(&format!("{word}: "))
                .any(|(at, _)| !text[..at].ends_with(ident));
            assert!(!as_key, "{name} has a key {word}: read it from /api/games");
            let as_field = text
                .match_indices(&format!(".{word}"))
                .any(|(at, found)| !text[at + found.len()..].starts_with(ident));
            assert!(!as_field, "{name} reads .{word}: read it from /api/games");
        }
        checked += 1;
    }
    assert!(checked >= 10, "{checked} pages and scripts");
    assert!(words.iter().any(|w| w == "kout6") && words.iter().any(|w| w == "joker_lead"));
}
