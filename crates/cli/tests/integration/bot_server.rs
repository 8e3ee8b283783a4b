//! `calltrump bot` against real decide messages of every game and kind of decision,
//! whole and mutated at random (an action dropped, swapped, inserted, a seat, a card, a
//! legal list changed): it never panics, answers a faulty message with an `error` or an
//! action from its `legal`, answers every real message with an action, and after a
//! faulty message answers the next good one as if the faulty one had never come.

use crate::common;

use calltrump_engine::{
    seeded, stream, Action, AnyGame, Game, GameRng, GameRules, Seat, Turn, Viewer,
};
use calltrump_play::bot_protocol::{BotMessage, BotServer, HostMessage, Reply};
use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::{json, Value};

use common::VARIANTS;

/// Decide messages from random games of `rules` (every decision of `hands` hands), as
/// JSON values.
fn real_messages(rules: &GameRules, seed: u64, hands: usize) -> Vec<Value> {
    let mut rng = seeded(seed);
    let mut game = AnyGame::new(rules, Seat(rng.random_range(0..4)));
    let mut messages = Vec::new();
    for deal in 0..hands {
        if game.turn() != Turn::Chance {
            break;
        }
        game.deal_random(&mut rng);
        while let Turn::Seat(seat) = game.turn() {
            let legal = game.legal_action_list();
            let message = HostMessage::Decide {
                game: rules.game().to_string(),
                variant: rules.variant().to_string(),
                options: rules.options(),
                seat: seat.0,
                deal: deal as u64,
                observation: game.observation(seat),
                legal: legal.to_vec(),
                view: Some(Box::new(game.view(Viewer::Seat(seat)))),
                time_limit_ms: 1000,
                seed: Some(rng.random::<u64>() >> 11),
            };
            messages.push(serde_json::to_value(&message).unwrap());
            game.apply(*legal.choose(&mut rng).unwrap()).unwrap();
        }
    }
    messages
}

const CARDS: [&str; 12] = [
    "AS", "9H", "JD", "TC", "KS", "QH", "RJ", "BJ", "2C", "7D", "8S", "6H",
];
const ACTIONS: [&str; 14] = [
    "pass",
    "bid 3",
    "bid 7",
    "bid 2 H",
    "kaibosh",
    "misdeal",
    "trump S",
    "call1 NT",
    "give AS",
    "discard 9H 9H",
    "play AS",
    "play RJ",
    "play 9D",
    "give ?? ??",
];

/// One random change to a decide message.
fn mutate(message: &mut Value, rng: &mut GameRng) -> &'static str {
    let observation = &mut message["observation"];
    let actions = observation["actions"].as_array_mut().unwrap();
    let n = actions.len();
    let card = json!(CARDS[rng.random_range(0..CARDS.len())]);
    match rng.random_range(0..13) {
        0 if n > 0 => {
            actions.remove(rng.random_range(0..n));
            "drop an action"
        }
        1 if n > 1 => {
            actions.swap(rng.random_range(0..n), rng.random_range(0..n));
            "swap two actions"
        }
        2 => {
            let at = rng.random_range(0..=n);
            let action = match n {
                0 => json!([rng.random_range(0..6), ACTIONS[0]]),
                _ if rng.random_bool(0.5) => actions[rng.random_range(0..n)].clone(),
                _ => json!([
                    rng.random_range(0..7),
                    ACTIONS[rng.random_range(0..ACTIONS.len())]
                ]),
            };
            actions.insert(at, action);
            "insert an action"
        }
        3 if n > 0 => {
            actions[rng.random_range(0..n)][0] = json!(rng.random_range(0..9));
            "change an action's seat"
        }
        4 if n > 0 => {
            let i = rng.random_range(0..n);
            actions[i][1] = json!(format!("play {}", CARDS[rng.random_range(0..CARDS.len())]));
            "change an action's card"
        }
        5 => {
            let seat = json!(rng.random_range(0..9));
            if rng.random_bool(0.5) {
                message["seat"] = seat.clone();
            }
            message["observation"]["seat"] = seat;
            "change the seat"
        }
        6 => {
            let field = ["dealt", "hand"][rng.random_range(0..2)];
            let cards = message["observation"][field].as_array_mut().unwrap();
            if cards.is_empty() || rng.random_bool(0.3) {
                cards.push(card);
            } else {
                let i = rng.random_range(0..cards.len());
                cards[i] = card;
            }
            "change a card the seat holds"
        }
        7 => {
            let legal = message["legal"].as_array_mut().unwrap();
            if legal.len() > 1 && rng.random_bool(0.5) {
                legal.remove(rng.random_range(0..legal.len()));
            } else {
                legal.push(json!(ACTIONS[rng.random_range(0..ACTIONS.len() - 1)]));
            }
            "change legal"
        }
        8 => {
            message["legal"] = json!([ACTIONS[rng.random_range(0..ACTIONS.len() - 1)]]);
            "replace legal"
        }
        9 => {
            let start = &mut message["observation"]["start"];
            match rng.random_range(0..3) {
                0 => start["dealer"] = json!(rng.random_range(0..12)),
                1 => start["scores"] = json!([i32::MAX, rng.random_range(-60..60)]),
                _ => start["deals_played"] = json!(u32::MAX),
            }
            "change the start"
        }
        10 => {
            message["legal"] = json!([]);
            "empty legal"
        }
        11 => {
            message["variant"] =
                json!(["kout4", "kout6", "alexa", "standard"][rng.random_range(0..4)]);
            "change the variant"
        }
        _ => {
            let i = rng.random_range(0..=n);
            actions.truncate(i);
            "cut the actions short"
        }
    }
}

/// What the server answers to `message`.
fn ask(server: &mut BotServer, message: &Value) -> Reply {
    server.answer(&message.to_string())
}

/// The action of a reply, if it is one from `message`'s legal list.
fn legal_action(reply: &Reply, message: &Value) -> Option<Action> {
    let Reply::Send(BotMessage::Action { action }) = reply else {
        return None;
    };
    let action: Action = action.parse().ok()?;
    let legal: Vec<Action> = serde_json::from_value(message["legal"].clone()).ok()?;
    legal.contains(&action).then_some(action)
}

#[test]
fn every_decide_message_whole_or_mutated_is_answered_without_panicking() {
    let mut rng = stream(2026, 1);
    let mut faults = 0;
    let mut mutated = 0;
    for (v, (game, variant)) in VARIANTS.into_iter().enumerate() {
        let rules = GameRules::from_header(game, Some(variant), &Default::default()).unwrap();
        for seed in 0..6 {
            let messages = real_messages(&rules, 100 * v as u64 + seed, 2);
            assert!(!messages.is_empty());
            for level in ["rules", "random"] {
                // One server for the whole session; a fresh one to compare with.
                let mut server = BotServer::new(level, 5).unwrap();
                for message in &messages {
                    let mut bad = message.clone();
                    let what = mutate(&mut bad, &mut rng);
                    mutated += 1;
                    let reply = ask(&mut server, &bad);
                    match &reply {
                        Reply::Send(BotMessage::Error { message }) => {
                            assert!(!message.is_empty());
                            faults += 1;
                        }
                        _ => assert!(
                            legal_action(&reply, &bad).is_some(),
                            "{game} {variant}, {what}: {reply:?} to {bad}"
                        ),
                    }
                    // The real message next: answered, and as a fresh server answers it.
                    let reply = ask(&mut server, message);
                    let expected = ask(&mut BotServer::new(level, 5).unwrap(), message);
                    assert!(
                        legal_action(&reply, message).is_some(),
                        "{game} {variant} after {what}: {reply:?} to {message}"
                    );
                    assert_eq!(reply, expected, "{game} {variant} after {what}");
                }
            }
        }
    }
    // Most changes make a message that does not add up.
    assert!(
        faults * 2 > mutated,
        "{faults} of {mutated} mutated messages refused"
    );
}

#[test]
fn the_search_levels_answer_real_and_faulty_messages_alike() {
    let mut rng = stream(2026, 2);
    for (v, (game, variant)) in VARIANTS.into_iter().enumerate() {
        let rules = GameRules::from_header(game, Some(variant), &Default::default()).unwrap();
        let messages = real_messages(&rules, 7 + v as u64, 1);
        for level in ["easy", "medium", "pimc:2:2", "ismcts:20"] {
            let mut server = BotServer::new(level, 1).unwrap();
            for message in messages.iter().step_by(3) {
                let mut bad = message.clone();
                let what = mutate(&mut bad, &mut rng);
                let reply = ask(&mut server, &bad);
                assert!(
                    matches!(reply, Reply::Send(BotMessage::Error { .. }))
                        || legal_action(&reply, &bad).is_some(),
                    "{level} {game} {variant}, {what}: {reply:?}"
                );
                let reply = ask(&mut server, message);
                assert!(
                    legal_action(&reply, message).is_some(),
                    "{level} {game} {variant}: {reply:?} to {message}"
                );
            }
        }
    }
}

#[test]
fn a_faulty_message_is_answered_with_what_is_wrong() {
    let rules = GameRules::from_header("kaibosh", None, &Default::default()).unwrap();
    let messages = real_messages(&rules, 3, 1);
    // A decision in the play, with a few cards played.
    let message = messages
        .iter()
        .find(|m| {
            m["legal"][0].as_str().unwrap().starts_with("play")
                && m["observation"]["actions"].as_array().unwrap().len() > 8
        })
        .unwrap();
    let mut server = BotServer::new("rules", 0).unwrap();
    let mut error = |change: &dyn Fn(&mut Value)| {
        let mut bad = message.clone();
        change(&mut bad);
        match server.answer(&bad.to_string()) {
            Reply::Send(BotMessage::Error { message }) => message,
            other => panic!("no error: {other:?} to {bad}"),
        }
    };
    let seat = message["seat"].as_u64().unwrap();
    let text = error(&|m| {
        m["seat"] = json!(seat + 10);
        m["observation"]["seat"] = json!(seat + 10);
    });
    assert!(text.contains("does not exist"), "{text}");
    let text = error(&|m| m["observation"]["actions"][2][0] = json!(9));
    assert!(
        text.contains("action 2") && text.contains("seat 9 does not exist"),
        "{text}"
    );
    let text = error(&|m| {
        m["observation"]["actions"]
            .as_array_mut()
            .unwrap()
            .remove(0);
    });
    assert!(text.contains("action 0"), "{text}");
    let text = error(&|m| m["legal"].as_array_mut().unwrap().push(json!("pass")));
    assert!(
        text.contains("legal") && text.contains("\"pass\""),
        "{text}"
    );
    let text = error(&|m| {
        m["observation"]["hand"].as_array_mut().unwrap().pop();
    });
    assert!(text.starts_with("hand:"), "{text}");
    let text = error(&|m| m["game"] = json!("chess"));
    assert!(text.contains("unknown game"), "{text}");
    // Not a message at all.
    for line in ["{", "[]", r#"{"type":"dance"}"#, r#"{"type":"decide"}"#] {
        assert!(matches!(
            server.answer(line),
            Reply::Send(BotMessage::Error { .. })
        ));
    }
    // And the real message is still answered.
    assert!(legal_action(&server.answer(&message.to_string()), message).is_some());
}

#[test]
fn the_handshake_agrees_on_the_hosts_version_or_older() {
    let mut server = BotServer::new("random", 0).unwrap();
    for (host, agreed) in [(2, 2), (1, 1), (7, 2)] {
        let reply = server.answer(&json!({"type": "hello", "protocol": host}).to_string());
        let Reply::Send(BotMessage::Hello { protocol, .. }) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(protocol, agreed);
    }
    let reply = server.answer(r#"{"type":"hello","protocol":0}"#);
    assert!(matches!(reply, Reply::Send(BotMessage::Error { .. })));
    let result = r#"{"type":"result","deal":0,"game":{"scores":[50,3]}}"#;
    assert_eq!(server.answer(result), Reply::Nothing);
    assert_eq!(server.answer(r#"{"type":"bye"}"#), Reply::End);
}
