//! Hints at a table that allows them (`"hints": true`), over real WebSockets on a real
//! server: a hint lists only legal actions, best first; it is worked out from the
//! asking seat's observation only (two tables whose hidden hands differ, the seat's
//! view the same, get the same hint); and it is refused at a table without hints, to a
//! spectator and out of turn.

use crate::common;

use common::{
    create, database_url, hello, kaibosh_with_bots, seeded_hub, seeded_server, send,
    sit_at_first_seat, start_with_config, until, until_my_turn, Socket,
};

use std::time::Duration;

use calltrump_engine::{seeded, Action, Game, GameRules, Phase, Seat, Turn};
use calltrump_server::hub::SeatRecord;
use calltrump_server::store::{SqliteStore, Store, StoredTable};
use calltrump_server::RunningServer;
use calltrump_table::{Entry, Event, Settings, Table};
use serde_json::{json, Value};

/// A connection to table `id` that said hello with `token` (none: a spectator).
async fn join(server: &RunningServer, id: &str, token: Option<&str>) -> Socket {
    hello(server, id, json!({ "token": token })).await
}

/// The next message; the connection must not end.
async fn next(socket: &mut Socket) -> Value {
    common::next(socket, Duration::from_secs(20))
        .await
        .expect("the connection ended")
}

/// The variants whose hints are checked through a game.
const HINTED: [(&str, &str); 3] = [
    ("kaibosh", "standard"),
    ("bid-euchre", "alexa"),
    ("kout", "kout4"),
];

/// Asks for a hint; the answer, `hint` or `error`.
async fn ask(socket: &mut Socket) -> Value {
    send(socket, json!({"type": "hint"})).await;
    loop {
        let message = next(socket).await;
        if message["type"] == "hint" || message["type"] == "error" {
            return message;
        }
    }
}

/// Checks a hint against the seat's legal actions at `version`: one to three actions,
/// all legal and different, best first.
fn check_hint(hint: &Value, version: u64, legal: &[Value], context: &str) {
    assert_eq!(hint["type"], "hint", "{context}: {hint}");
    assert_eq!(hint["version"], version, "{context}: {hint}");
    let actions = hint["actions"].as_array().unwrap();
    assert!(
        (1..=3).contains(&actions.len()),
        "{context}: {} actions in {hint}",
        actions.len()
    );
    if legal.len() >= 3 && hint["unweighed"] == 0 {
        assert_eq!(actions.len(), 3, "{context}: {hint}");
    }
    let mut seen = Vec::new();
    for pair in actions.windows(2) {
        assert!(
            pair[0]["points"].as_f64().unwrap() >= pair[1]["points"].as_f64().unwrap(),
            "{context}: not best first: {hint}"
        );
    }
    for action in actions {
        assert!(
            legal.contains(&action["action"]),
            "{context}: {} is not legal ({legal:?})",
            action["action"]
        );
        assert!(
            !seen.contains(&action["action"]),
            "{context}: twice: {hint}"
        );
        seen.push(action["action"].clone());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_list_legal_actions_best_first_through_a_game_against_bots() {
    let (_dir, server) = seeded_server(7).await;
    for (game, variant) in HINTED {
        let context = format!("{game} {variant}");
        let mut table = kaibosh_with_bots(1, "bot:rules");
        table["game"] = json!(game);
        table["variant"] = json!(variant);
        table["hints"] = json!(true);
        let (_, mut socket) = sit_at_first_seat(&server, table, json!({})).await;
        let welcome = until(&mut socket, "welcome").await;
        assert_eq!(welcome["hints"], true, "{welcome}");
        let (mut calls, mut plays) = (0, 0);
        while plays < 3 {
            let message = next(&mut socket).await;
            let Some(view) = message.get("view") else {
                continue;
            };
            let version = message["version"].as_u64().unwrap();
            let legal = view["legal"].as_array().unwrap().clone();
            if legal.is_empty() {
                continue;
            }
            let hint = ask(&mut socket).await;
            check_hint(&hint, version, &legal, &context);
            if view["phase"] == "play" {
                plays += 1;
            } else {
                calls += 1;
            }
            // The same question again: the same answer.
            assert_eq!(ask(&mut socket).await, hint, "{context}");
            let best = hint["actions"][0]["action"].clone();
            send(
                &mut socket,
                json!({"type": "act", "version": version, "action": best}),
            )
            .await;
        }
        assert!(
            calls + plays >= 3,
            "{context}: {calls} calls, {plays} plays"
        );
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_refused_without_the_option_to_a_spectator_and_out_of_turn() {
    let (_dir, server) = seeded_server(7).await;
    // A table without hints: refused, though it is the seat's turn.
    let table = kaibosh_with_bots(1, "bot:rules");
    let (_, mut socket) = sit_at_first_seat(&server, table, json!({})).await;
    assert_eq!(until(&mut socket, "welcome").await["hints"], false);
    until_my_turn(&mut socket, Duration::from_secs(20)).await;
    let refused = ask(&mut socket).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["message"], "this table does not allow hints");

    // A table with hints, every seat a person: the seat to act gets one, the others
    // and a spectator are refused.
    let created = create(&server, json!({"game": "kaibosh", "hints": true})).await;
    let id = created["id"].as_str().unwrap();
    let mut seats = Vec::new();
    for invite in created["invites"].as_array().unwrap() {
        seats.push(join(&server, id, invite["token"].as_str()).await);
    }
    let mut watcher = join(&server, id, None).await;
    assert_eq!(until(&mut watcher, "welcome").await["hints"], true);
    // Wait for the deal: every seat's view with the hand's first turn.
    let mut to_act = None;
    for (s, socket) in seats.iter_mut().enumerate() {
        loop {
            let message = next(socket).await;
            let Some(view) = message.get("view") else {
                continue;
            };
            if view["phase"] == "auction" {
                if !view["legal"].as_array().unwrap().is_empty() {
                    to_act = Some((s, message["version"].as_u64().unwrap()));
                }
                break;
            }
        }
    }
    let (actor, version) = to_act.expect("a seat is to act");
    for (s, socket) in seats.iter_mut().enumerate() {
        let answer = ask(socket).await;
        if s == actor {
            assert_eq!(answer["type"], "hint", "{answer}");
            assert_eq!(answer["version"], version);
        } else {
            assert_eq!(answer["type"], "error", "seat {s}: {answer}");
            assert_eq!(
                answer["message"],
                "a hint is for your own turn: it is not your turn"
            );
        }
    }
    let refused = ask(&mut watcher).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(
        refused["message"],
        "only a seated player may ask for a hint"
    );
    server.stop().await.unwrap();
}

/// A table's log from its first deal on: the deal, then calls until `stop` (the first
/// call, or the first lead), each the lowest bid for the first seat able to bid and a
/// pass for the others. Returns the log and the seat to act at its end.
fn log_until(rules: &GameRules, first_lead: bool) -> (Settings, Vec<Entry>, Seat) {
    let seats = calltrump_engine::AnyGame::new(rules, Seat(0)).seats();
    let people: Vec<Seat> = (0..seats).map(|s| Seat(s as u8)).collect();
    let settings = Settings::new(rules.clone(), Seat(0), &people);
    let mut table = Table::new(settings.clone(), seeded(11));
    let mut log = table.deal().unwrap();
    let mut bid = false;
    while first_lead && table.game().phase() != Phase::Play {
        let Turn::Seat(seat) = table.turn() else {
            panic!("the hand ended in the auction")
        };
        let legal = table.game().legal_action_list().to_vec();
        let is_bid = |a: &&Action| matches!(a, Action::Bid(_) | Action::BidStrain(..));
        let pick = match legal.iter().find(is_bid) {
            Some(&a) if !bid => {
                bid = true;
                a
            }
            _ if legal.contains(&Action::Pass) => Action::Pass,
            _ => *legal.iter().find(is_bid).unwrap_or(&legal[0]),
        };
        log.extend(table.apply(seat, pick).unwrap());
    }
    let Turn::Seat(seat) = table.turn() else {
        panic!("no seat to act")
    };
    (settings, log, seat)
}

/// The same log with the hands of two seats other than `me` swapped.
fn hidden_swapped(log: &[Entry], me: Seat) -> Vec<Entry> {
    let mut out = log.to_vec();
    let Event::Dealt { hands, .. } = &mut out[0].event else {
        panic!("the log starts with a deal")
    };
    let others: Vec<usize> = (0..hands.len()).filter(|&s| s != me.index()).collect();
    assert_ne!(hands[others[0]], hands[others[1]]);
    hands.swap(others[0], others[1]);
    out
}

/// Stores a table of `settings` with hints, every seat a person's, at the end of `log`;
/// the seats' tokens.
async fn store_table(
    store: &SqliteStore,
    id: &str,
    settings: &Settings,
    log: &[Entry],
) -> Vec<String> {
    let seats: Vec<SeatRecord> = settings
        .humans
        .iter()
        .enumerate()
        .map(|(s, _)| SeatRecord {
            token: format!("{id}-seat-{s}"),
            name: Some(format!("P{s}")),
            sitter: calltrump_server::model::Sitter::Person,
            stand_in: false,
            account: None,
            deadline_ms: None,
            former: Vec::new(),
            invited_by: None,
        })
        .collect();
    store
        .create_table(&StoredTable {
            id: id.to_string(),
            settings: settings.clone(),
            hints: true,
            unattended: false,
            turn_clock: None,
            rated: false,
            night: None,
            deal_rng: seeded(11),
            seats: seats.clone(),
            host_token: format!("{id}-host"),
            status: calltrump_server::model::TableStatus::Playing,
            created_at: 0,
        })
        .await
        .unwrap();
    store.append(id, log, None).await.unwrap();
    seats.into_iter().map(|s| s.token).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_reads_only_the_seats_observation_not_the_hidden_hands() {
    let dir = tempfile::tempdir().unwrap();
    let variants = [
        ("kaibosh", "standard"),
        ("bid-euchre", "alexa"),
        ("kout", "kout6"),
        ("kout", "kout4"),
    ];
    // Pairs of tables, as the store keeps them: the same deal and calls but for two
    // other seats' hands, swapped; at the first call and at the first lead.
    let mut pairs = Vec::new();
    {
        let store = SqliteStore::open(&database_url(&dir)).await.unwrap();
        for (game, variant) in variants {
            let rules = GameRules::from_header(game, Some(variant), &Default::default()).unwrap();
            for first_lead in [false, true] {
                let (settings, log, me) = log_until(&rules, first_lead);
                let name = format!("{game}-{variant}-{first_lead}");
                let a = store_table(&store, &format!("{name}-a"), &settings, &log).await;
                let swapped = hidden_swapped(&log, me);
                let b = store_table(&store, &format!("{name}-b"), &settings, &swapped).await;
                pairs.push((name, me, a, b));
            }
        }
    }
    let server = start_with_config(&dir, seeded_hub(7, Duration::from_secs(60))).await;
    let mut read = 0;
    for (name, me, a, b) in pairs {
        let mut answers = Vec::new();
        for (suffix, tokens) in [("a", &a), ("b", &b)] {
            let id = format!("{name}-{suffix}");
            let mut socket = join(&server, &id, Some(&tokens[me.index()])).await;
            let snapshot = until(&mut socket, "snapshot").await;
            let legal = snapshot["view"]["legal"].as_array().unwrap().clone();
            let version = snapshot["version"].as_u64().unwrap();
            let hint = ask(&mut socket).await;
            check_hint(&hint, version, &legal, &id);
            answers.push((hint, snapshot["dealt"].clone()));
        }
        // The seat's own cards are the same, the hidden hands not: the same hint.
        assert_eq!(answers[0].1, answers[1].1, "{name}");
        assert_eq!(answers[0].0, answers[1].0, "{name}");
        if answers[0].0.get("readings").is_some() {
            read += 1;
        }
    }
    // At the first lead the seat has seen calls: readings were compared too.
    assert!(read > 0, "no hint read a call");
    server.stop().await.unwrap();
}
