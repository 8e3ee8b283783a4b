//! The replay endpoints over real sockets: `POST /api/replay` and
//! `GET /api/tables/{id}/replay` answer the engine's views of every step, a seat's view
//! holds no card the seat may not know, bad records get the engine's one line, and a
//! table in play gives only its public record away.

use crate::common;

use common::{
    cards_named, create, hello, http_at, kaibosh_with_bots, known, links, play_every_seat,
    record_of, seeded_server, send, short_game, sit_at_first_seat, until, until_my_turn,
};

use std::time::Duration;

use calltrump_engine::{Action, AnyGame, CardBag, Game, Record, Seat, SeenAction, View, Viewer};
use calltrump_server::RunningServer;
use serde_json::{json, Value};

/// A Bid Euchre game with a loner hand (hand 6: seat 2 gives two cards face down to seat
/// 0, who discards two).
const LONER: &str = include_str!("../../../../e2e/fixtures/bid-euchre-loner.json");

async fn http(server: &RunningServer, method: &str, path: &str, body: &str) -> (u16, String) {
    http_at(server.addr, method, path, Some(body)).await
}

async fn json_of(server: &RunningServer, method: &str, path: &str, body: &str) -> Value {
    let (status, text) = http(server, method, path, body).await;
    assert_eq!(status, 200, "{method} {path}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// The games played at a table whose replay is checked.
const TABLE_GAMES: [(&str, &str); 3] = [
    ("kaibosh", "standard"),
    ("kout", "kout6"),
    ("bid-euchre", "simplified"),
];

/// Each step of `record`: the game after it.
fn games(record: &Record) -> Vec<(AnyGame, Option<(Seat, Action)>)> {
    let mut out = Vec::new();
    record
        .replay_watched(|game, acted| out.push((game.clone(), acted)))
        .unwrap();
    out
}

/// Checks the states answered for every viewer of `record` against replaying it here;
/// answers how many steps passed cards face down that a seat's view had to hide.
fn check_states(record: &Record, viewer: &str, answer: &Value) -> usize {
    let games = games(record);
    let steps = answer["steps"].as_array().unwrap();
    assert_eq!(steps.len(), games.len(), "one state per deal and action");
    assert_eq!(answer["viewer"], viewer);
    let seat = viewer.parse::<u8>().ok().map(Seat);
    let mut hidden = 0;
    for (i, ((game, acted), step)) in games.iter().zip(steps).enumerate() {
        let view: View = serde_json::from_value(step["view"].clone()).unwrap();
        assert_eq!(
            step["seat"],
            acted.map_or(Value::Null, |(s, _)| json!(s)),
            "step {i}"
        );
        match viewer {
            "all" => {
                let spectator = game.view(Viewer::Spectator);
                assert_eq!(view.trick, spectator.trick, "step {i}");
                assert_eq!(view.scores, spectator.scores, "step {i}");
                assert_eq!(view.contract, spectator.contract, "step {i}");
                let hands: Vec<CardBag> = serde_json::from_value(step["hands"].clone()).unwrap();
                for (s, hand) in hands.iter().enumerate() {
                    assert_eq!(*hand, game.observation(Seat(s as u8)).hand, "step {i}");
                }
                // Every card passed is open, as the seat that passed it saw it.
                for (seat, seen) in &view.exchanges {
                    assert!(
                        matches!(seen, SeenAction::Open(_)),
                        "step {i}: {seat} {seen}"
                    );
                }
            }
            "spectator" => assert_eq!(view, game.view(Viewer::Spectator), "step {i}"),
            _ => {
                let seat = seat.unwrap();
                assert_eq!(view, game.view(Viewer::Seat(seat)), "step {i}");
                assert!(step.get("hands").is_none());
            }
        }
        if viewer != "all" {
            // Nothing in the step names a card this viewer may not know now.
            let mut named = Vec::new();
            cards_named(step, &mut named);
            let known = known(game, seat);
            for card in named {
                assert!(
                    known.contains(card),
                    "step {i}: viewer {viewer} is shown {card}, which it may not know"
                );
            }
            if let Some((by, Action::Give(_) | Action::Discard(_))) = acted {
                let action = step["action"].as_str().unwrap();
                let passed_or_got = seat == Some(*by)
                    || (matches!(acted, Some((_, Action::Give(_))))
                        && view.contract.map(|c| c.declarer) == seat);
                assert_eq!(action.contains("??"), !passed_or_got, "step {i}: {action}");
                if action.contains("??") {
                    hidden += 1;
                }
            }
        }
    }
    hidden
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posted_records_replay_into_every_viewers_views_with_nothing_hidden_shown() {
    let (_dir, server) = seeded_server(11).await;
    let record = Record::parse(LONER).unwrap();
    let mut hidden = 0;
    for viewer in ["all", "spectator", "0", "1", "2", "3"] {
        let answer = json_of(
            &server,
            "POST",
            &format!("/api/replay?seat={viewer}"),
            LONER,
        )
        .await;
        assert_eq!(answer["game"], "bid-euchre");
        assert_eq!(answer["finished"], true);
        hidden += check_states(&record, viewer, &answer);
    }
    // The loner hand's give and discard are hidden from the spectator and seats 1 and 3
    // (both), and the discard from seat 2.
    assert_eq!(hidden, 2 + 2 + 2 + 1);
    // No seat given: every hand face up.
    let answer = json_of(&server, "POST", "/api/replay", LONER).await;
    assert_eq!(answer["viewer"], "all");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_taken_mid_game_replay_their_complete_hands_and_say_so() {
    let (_dir, server) = seeded_server(11).await;
    let whole = Record::parse(LONER).unwrap();
    // Ended by the host during hand 7 (the whole record: its deal, ten actions).
    let mut ended = whole.clone();
    ended.hands.truncate(7);
    ended.hands[6].actions.truncate(10);
    let answer = json_of(&server, "POST", "/api/replay", &ended.to_json()).await;
    check_states(&ended, "all", &answer);
    assert_eq!(answer["finished"], false);
    assert!(answer.get("in_progress").is_none(), "{answer}");
    assert!(
        answer["note"].as_str().unwrap().contains("during hand 7"),
        "{answer}"
    );
    // Downloaded during hand 7: its deal withheld, its public actions (the loner's
    // cards passed face down as ??).
    let mut public = ended.clone();
    public.hands[6].deal = vec![Vec::new(); 4];
    for action in public.hands[6].actions.iter_mut() {
        if action.starts_with("give") || action.starts_with("discard") {
            let word = action.split(' ').next().unwrap().to_string();
            let count = action.split(' ').count() - 1;
            *action = format!("{word}{}", " ??".repeat(count));
        }
    }
    let mut complete = whole.clone();
    complete.hands.truncate(6);
    for viewer in ["all", "spectator", "2"] {
        let answer = json_of(
            &server,
            "POST",
            &format!("/api/replay?seat={viewer}"),
            &public.to_json(),
        )
        .await;
        check_states(&complete, viewer, &answer);
        assert_eq!(answer["in_progress"]["hand"], 6);
        assert_eq!(
            answer["in_progress"]["actions"],
            json!(public.hands[6].actions)
        );
        assert!(
            answer["note"]
                .as_str()
                .unwrap()
                .contains("hand 7 in progress"),
            "{answer}"
        );
    }
    // A broken record is still refused, withheld deal or not.
    let mut broken = public.clone();
    broken.hands[2].actions[0] = "play 9S".into();
    let (status, _) = http(&server, "POST", "/api/replay", &broken.to_json()).await;
    assert_eq!(status, 400);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_tables_replay_is_its_records_and_an_unfinished_table_is_refused() {
    let (_dir, server) = seeded_server(11).await;
    for (game, variant) in TABLE_GAMES {
        let options = short_game(game, 2, 2);
        let table = json!({"game": game, "variant": variant, "options": options});
        let created = create(&server, table).await;
        let id = created["id"].as_str().unwrap().to_string();
        // Before the game: refused.
        let (status, body) = http(&server, "GET", &format!("/api/tables/{id}/replay"), "").await;
        assert_eq!(status, 409, "{body}");
        play_every_seat(links(&created), "rules").await;
        let (status, text) = record_of(&server, &id).await;
        assert_eq!(status, 200);
        let record = Record::parse(&text).unwrap();
        let seats = games(&record)[0].0.seats();
        let mut viewers = vec!["all".to_string(), "spectator".to_string()];
        viewers.extend((0..seats).map(|s| s.to_string()));
        for viewer in viewers {
            let path = format!("/api/tables/{id}/replay?seat={viewer}");
            let mut answer = json_of(&server, "GET", &path, "").await;
            check_states(&record, &viewer, &answer);
            // The table's players by seat, as its page names them: bots `Bot N`.
            let players = answer
                .as_object_mut()
                .unwrap()
                .remove("players")
                .expect("a table's replay names its players");
            let names: Vec<String> = serde_json::from_value(players).unwrap();
            assert_eq!(names.len(), seats);
            assert!(
                names
                    .iter()
                    .enumerate()
                    .all(|(s, n)| *n == format!("Bot {s}")
                        || *n == format!("Seat {s}")
                        || !n.is_empty()),
                "{names:?}"
            );
            // The same as posting the table's record.
            let posted = json_of(
                &server,
                "POST",
                &format!("/api/replay?seat={viewer}"),
                &text,
            )
            .await;
            assert_eq!(answer, posted);
        }
    }
    let (status, _) = http(&server, "GET", "/api/tables/0123456789abcdef/replay", "").await;
    assert_eq!(status, 404);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_in_play_replays_its_public_record_and_no_hidden_card() {
    let (_dir, server) = seeded_server(11).await;
    let table = kaibosh_with_bots(1, "bot:rules");
    // Seat 0 sits down and never acts: the game starts and waits for it.
    let (created, _socket) = sit_at_first_seat(&server, table, json!({"name": "Ann"})).await;
    let id = created["id"].as_str().unwrap();
    let mut refused = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let (_, record) = record_of(&server, id).await;
        if !record.contains("\"deal\"") {
            continue;
        }
        for viewer in ["", "?seat=all", "?seat=0", "?seat=spectator"] {
            let (status, body) = http(
                &server,
                "GET",
                &format!("/api/tables/{id}/replay{viewer}"),
                "",
            )
            .await;
            // The hand in progress, as far as it is public: no deal, no card.
            assert_eq!(status, 200, "{body}");
            let answer: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(answer["in_progress"]["hand"], 0, "{body}");
            assert!(answer["steps"].as_array().unwrap().is_empty(), "{body}");
            // The note is for people and counts hands from 1; `in_progress.hand` counts
            // from 0, as the record does (docs/table-protocol.md).
            assert!(
                answer["note"]
                    .as_str()
                    .unwrap()
                    .contains("hand 1 in progress"),
                "{body}"
            );
            // The viewer is written as the query's `seat`: a string, a seat's number too.
            let expected = match viewer {
                "?seat=0" => "0",
                "?seat=spectator" => "spectator",
                _ => "all",
            };
            assert_eq!(answer["viewer"], expected, "{body}");
            let mut named = Vec::new();
            cards_named(&answer, &mut named);
            assert!(named.is_empty(), "{body}");
        }
        refused = true;
        break;
    }
    assert!(refused, "the game never started");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_records_get_a_400_with_the_engines_one_line() {
    let (_dir, server) = seeded_server(11).await;
    let mut record = Record::parse(LONER).unwrap();
    // An illegal card: the first play of hand 0 made by another card of the deck.
    let first_play = record.hands[0]
        .actions
        .iter()
        .position(|a| a.starts_with("play "))
        .unwrap();
    record.hands[0].actions[first_play] = "play 2S".into();
    let mut truncated = Record::parse(LONER).unwrap();
    truncated.hands[2].actions.truncate(5);
    let cases = [
        "not json".to_string(),
        "[1, 2]".to_string(),
        r#"{"game": "whist", "hands": []}"#.to_string(),
        r#"{"game": "kaibosh", "hands": [{"deal": [["AS"]]}]}"#.to_string(),
        record.to_json(),
        truncated.to_json(),
    ];
    for text in cases {
        let expected = match Record::parse(&text) {
            Err(e) => e.to_string(),
            Ok(record) => record.replay().unwrap_err().to_string(),
        };
        assert!(!expected.contains('\n'));
        let (status, body) = http(&server, "POST", "/api/replay", &text).await;
        assert_eq!(status, 400, "{text}: {body}");
        let answer: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(answer, json!({ "error": expected }), "{text}");
    }
    for (query, says) in [
        ("?seat=4", "seat 4 does not exist"),
        (
            "?seat=north",
            "seat must be all, spectator or a seat's number",
        ),
    ] {
        let (status, body) = http(&server, "POST", &format!("/api/replay{query}"), LONER).await;
        assert_eq!(status, 400, "{body}");
        assert!(body.contains(says), "{body}");
    }
    // A record of more hands than any game has: refused before any is replayed.
    let mut long = Record::parse(LONER).unwrap();
    let hands = long.hands.clone();
    while long.hands.len() <= calltrump_server::http::REPLAY_HANDS {
        long.hands.extend(hands.iter().cloned());
    }
    let (status, body) = http(&server, "POST", "/api/replay", &long.to_json()).await;
    assert_eq!(status, 413, "{body}");
    let says = format!(
        "the record has {} hands: the server replays at most {}",
        long.hands.len(),
        calltrump_server::http::REPLAY_HANDS
    );
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({ "error": says })
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_tables_analysis_is_that_of_its_record_and_a_game_in_play_has_none() {
    use calltrump_play::analysis::{analyze, Settings};

    let (_dir, server) = seeded_server(12).await;
    let table = json!({"game": "kaibosh", "options": short_game("kaibosh", 2, 2)});
    let created = create(&server, table).await;
    let id = created["id"].as_str().unwrap().to_string();
    let path = format!("/api/tables/{id}/analysis");
    let (status, body) = http(&server, "GET", &path, "").await;
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("once it is over"), "{body}");
    let (status, body) = http(&server, "GET", "/api/tables/nosuchtable/analysis", "").await;
    assert_eq!(status, 404, "{body}");

    play_every_seat(links(&created), "rules").await;
    let (_, text) = record_of(&server, &id).await;
    let record = Record::parse(&text).unwrap();
    // Through JSON text, as `analyze --json` prints it (serde_json reads a float back to
    // within a unit in the last place, so text is compared with text read alike).
    let analysis = analyze(&record, &Settings::expert(), &mut || {}).unwrap();
    let expected: Value = serde_json::from_str(&serde_json::to_string(&analysis).unwrap()).unwrap();
    let (status, body) = http(&server, "GET", &path, "").await;
    assert_eq!(status, 200, "{body}");
    let served: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        served, expected,
        "the server's analysis is `analyze --json`'s"
    );
    assert_eq!(served["hands"].as_array().unwrap().len(), 2);
    // Kept: asked again, the same answer.
    assert_eq!(http(&server, "GET", &path, "").await, (200, body));
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_handed_to_a_bot_during_the_game_names_both_players_in_the_replay() {
    let (_dir, server) = seeded_server(11).await;
    let table = kaibosh_with_bots(1, "bot:rules");
    let (created, mut bo) = sit_at_first_seat(&server, table, json!({"name": "Bo"})).await;
    let id = created["id"].as_str().unwrap();
    // Bo's cards are dealt: he played in this game.
    until_my_turn(&mut bo, Duration::from_secs(10)).await;
    let host_token = created["host_token"].as_str().unwrap();
    let mut host = hello(&server, id, json!({"token": host_token})).await;
    until(&mut host, "welcome").await;
    send(
        &mut host,
        json!({"type": "set-seat", "seat": 0, "sitter": "bot:easy"}),
    )
    .await;
    until(&mut bo, "closing").await;
    let answer = json_of(&server, "GET", &format!("/api/tables/{id}/replay"), "").await;
    assert_eq!(answer["players"][0], "Bo, then Bot 0", "{answer}");
    assert_eq!(answer["players"][1], "Bot 1", "{answer}");
    server.stop().await.unwrap();
}
