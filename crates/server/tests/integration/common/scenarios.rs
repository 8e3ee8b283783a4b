//! Socket-level checks run on every backend (`server.rs` on SQLite,
//! `postgres.rs` on PostgreSQL): games of every variant, the hidden-card property,
//! a restart.

use std::time::Duration;

use calltrump_engine::{Action, AnyGame, Card, CardBag, Game, Record, Seat, SeenAction, Turn};
use calltrump_server::client::play_seat;
use calltrump_server::HubConfig;
use serde_json::{json, Value};

use super::{
    cards_named, create, hello, http_at, known, links, next, play_every_seat, record_of,
    seeded_hub, send, server_on, short_game, start_on, until, Backend,
};

/// The hub of these checks: seeded 7, a seat's grace a minute.
fn seeded() -> HubConfig {
    seeded_hub(7, Duration::from_secs(60))
}

/// A game of each variant: (game, variant, seats).
pub const VARIANTS: [(&str, &str, usize); 5] = [
    ("kaibosh", "standard", 4),
    ("bid-euchre", "alexa", 4),
    ("bid-euchre", "simplified", 4),
    ("kout", "kout6", 6),
    ("kout", "kout4", 4),
];

/// Bots at every seat link finish a game of every variant; its record replays to the
/// scores each seat saw.
pub async fn join_bots_finish_a_game_of_every_variant_and_the_record_replays(backend: Backend) {
    let (_database, server) = server_on(backend, seeded()).await;
    for (game, variant, seats) in VARIANTS {
        let created = create(&server, json!({ "game": game, "variant": variant })).await;
        let seat_links = links(&created);
        assert_eq!(seat_links.len(), seats);
        let finals = play_every_seat(seat_links, "rules").await;
        let (status, body) = record_of(&server, created["id"].as_str().unwrap()).await;
        assert_eq!(status, 200);
        let record = Record::parse(&body).unwrap();
        let (replay, game_state) = record.replay().unwrap();
        assert!(replay.finished, "{game} {variant}");
        for finished in &finals {
            assert_eq!(finished.state.view.scores, game_state.scores());
            assert!(finished.actions > 0);
        }
    }
    server.stop().await.unwrap();
}

/// A record's deal as cards.
fn cards_of(deal: &[Vec<String>]) -> Vec<CardBag> {
    deal.iter()
        .map(|cards| cards.iter().map(|c| c.parse::<Card>().unwrap()).collect())
        .collect()
}

/// Every version of the finished game with the cards each recipient may know then,
/// counted as the table counts: a deal, an action, a hand's end, the game's end.
fn known_by_version(record: &Record, seats: usize) -> Vec<Vec<CardBag>> {
    let (rules, first_dealer) = record.rules().unwrap();
    let mut game = AnyGame::new(&rules, first_dealer);
    let snapshot = |game: &AnyGame| -> Vec<CardBag> {
        let mut all: Vec<CardBag> = (0..seats)
            .map(|s| known(game, Some(Seat(s as u8))))
            .collect();
        all.push(known(game, None));
        all
    };
    let mut versions = vec![snapshot(&game)];
    for hand in &record.hands {
        game.deal(&cards_of(&hand.deal)).unwrap();
        versions.push(snapshot(&game));
        for action in &hand.actions {
            game.apply(action.parse().unwrap()).unwrap();
            versions.push(snapshot(&game));
            if matches!(game.turn(), Turn::Chance | Turn::Over) {
                versions.push(snapshot(&game));
            }
            if game.outcome().is_some() {
                versions.push(snapshot(&game));
            }
        }
    }
    versions
}

/// The game of the finished `record` after its first `hands` hands, the next hand's deal
/// and its first `actions` actions.
fn game_at(record: &Record, hands: usize, actions: usize) -> AnyGame {
    let (rules, first_dealer) = record.rules().unwrap();
    let mut game = AnyGame::new(&rules, first_dealer);
    for (h, hand) in record.hands.iter().enumerate().take(hands + 1) {
        game.deal(&cards_of(&hand.deal)).unwrap();
        let upto = if h == hands {
            actions
        } else {
            hand.actions.len()
        };
        for action in &hand.actions[..upto] {
            game.apply(action.parse().unwrap()).unwrap();
        }
    }
    game
}

/// Checks a record fetched from `GET /api/tables/{id}/record` while the game ran against
/// the game's whole record `full`: the hands played out as they were, and of the hand in
/// play no deal, no seed, and its actions as a spectator saw them (cards passed face
/// down written `??`), naming no card a spectator did not know then. Returns whether
/// the hand in play had cards passed face down.
fn check_record_in_play(body: &str, full: &Record, context: &str) -> bool {
    let record = Record::parse(body).unwrap_or_else(|e| panic!("{context}: {e}: {body}"));
    let Some((last, played)) = record.hands.split_last() else {
        return false;
    };
    let k = played.len();
    assert!(k < full.hands.len(), "{context}: {body}");
    assert_eq!(played, &full.hands[..k], "{context}: the hands played out");
    if last.deal.iter().any(|cards| !cards.is_empty()) {
        // Shown whole only once played out.
        assert_eq!(
            last, &full.hands[k],
            "{context}: a hand shown whole: {body}"
        );
        return false;
    }
    let n = last.actions.len();
    assert!(
        last.fair_deal.as_ref().is_none_or(|f| f.seed.is_none()),
        "{context}: the seed of a hand in play: {body}"
    );
    let seen: Vec<String> = full.hands[k].actions[..n]
        .iter()
        .map(|text| match text.parse::<Action>().unwrap() {
            Action::Give(pair) => SeenAction::HiddenGive(pair.len() as u8).to_string(),
            Action::Discard(pair) => SeenAction::HiddenDiscard(pair.len() as u8).to_string(),
            _ => text.clone(),
        })
        .collect();
    assert_eq!(
        last.actions, seen,
        "{context}: the actions of the hand in play"
    );
    let mut named = Vec::new();
    cards_named(&serde_json::to_value(last).unwrap(), &mut named);
    let known = known(&game_at(full, k, n), None);
    for card in named {
        assert!(
            known.contains(card),
            "{context}: the record names {card} in the hand in play: {body}"
        );
    }
    seen.iter().any(|a| a.contains("??"))
}

/// Two games of each variant, raw clients at every seat and a spectator recording all
/// they are sent, the record read over and over meanwhile: no message and no record
/// names a card its recipient may not know then.
pub async fn no_message_to_any_seat_or_spectator_carries_a_card_it_may_not_know(backend: Backend) {
    let (_database, server) = server_on(backend, seeded()).await;
    let mut records_checked = 0;
    let mut face_down_checked = 0;
    for (round, (game, variant, seats)) in VARIANTS.iter().chain(VARIANTS.iter()).enumerate() {
        // Short games: a few deals where the game has a deal count.
        let options = short_game(game, 3, 4);
        let created = create(
            &server,
            json!({ "game": game, "variant": variant, "options": options }),
        )
        .await;
        let id = created["id"].as_str().unwrap().to_string();
        // The record, fetched over and over while the game runs.
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reading = {
            let (done, path) = (done.clone(), format!("/api/tables/{id}/record"));
            let addr = server.addr;
            tokio::spawn(async move {
                let mut bodies = Vec::new();
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    let (status, body) = http_at(addr, "GET", &path, None).await;
                    assert_eq!(status, 200, "{body}");
                    bodies.push(body);
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
                bodies
            })
        };
        // A spectator records everything it receives.
        let mut watcher = hello(&server, &id, json!({})).await;
        let watching = tokio::spawn(async move {
            let mut seen = Vec::new();
            while let Some(message) = next(&mut watcher, Duration::from_secs(20)).await {
                let over = message["type"] == "status" && message["status"] == "over";
                seen.push(message);
                if over {
                    break;
                }
            }
            seen
        });
        // Each seat is a raw client that records everything and plays its first legal action.
        let mut players = Vec::new();
        for (s, link) in links(&created).into_iter().enumerate() {
            let mut socket = hello(&server, &id, json!({"token": link.token})).await;
            players.push(tokio::spawn(async move {
                let mut seen = Vec::new();
                let mut answered = 0;
                let mut last: Option<Value> = None;
                while let Some(message) = next(&mut socket, Duration::from_secs(20)).await {
                    let over = message["type"] == "status" && message["status"] == "over";
                    // Refused (too fast for the rate limit, at machine speed): again, later.
                    if message["type"] == "error" {
                        if let Some(act) = &last {
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            send(&mut socket, act.clone()).await;
                        }
                    }
                    if let Some(view) = message.get("view") {
                        let version = message["version"].as_u64().unwrap();
                        let legal = view["legal"].as_array().unwrap();
                        if !legal.is_empty() && version > answered {
                            answered = version;
                            let pick = &legal[(round + s + version as usize) % legal.len()];
                            let act = json!({"type": "act", "version": version, "action": pick});
                            send(&mut socket, act.clone()).await;
                            last = Some(act);
                        }
                    }
                    seen.push(message);
                    if over {
                        break;
                    }
                }
                seen
            }));
        }
        let mut received: Vec<Vec<Value>> = Vec::new();
        for player in players {
            received.push(player.await.unwrap());
        }
        received.push(watching.await.unwrap());
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        let bodies = reading.await.unwrap();
        let (_, body) = record_of(&server, &id).await;
        let record = Record::parse(&body).unwrap();
        assert!(
            record.replay().unwrap().0.finished,
            "{game} {variant}: {body}"
        );
        // Every record read while the game ran: only what every player may see.
        for (i, body) in bodies.iter().enumerate() {
            let context = format!("{game} {variant}, record {i}");
            if check_record_in_play(body, &record, &context) {
                face_down_checked += 1;
            }
        }
        records_checked += bodies.len();
        let known = known_by_version(&record, *seats);
        let mut checked = 0;
        for (recipient, messages) in received.iter().enumerate() {
            for message in messages {
                let Some(version) = message.get("version").and_then(Value::as_u64) else {
                    continue;
                };
                let mut named = Vec::new();
                cards_named(message, &mut named);
                for card in named {
                    assert!(
                        known[version as usize][recipient].contains(card),
                        "{game} {variant}: recipient {recipient} was sent {card} at version {version}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} messages checked");
    }
    assert!(
        records_checked > 100,
        "only {records_checked} records read while the games ran"
    );
    assert!(
        face_down_checked > 0,
        "no record was read during a loner's hand with cards passed face down"
    );
    server.stop().await.unwrap();
}

/// A server stopped with a table under way, started again on the same database: the
/// table is listed, and bots at its links finish it.
pub async fn a_restarted_server_resumes_its_tables(backend: Backend) {
    let (database, server) = server_on(backend, seeded()).await;
    let created = create(&server, json!({"game": "kout", "variant": "kout4"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let seat_links = links(&created);
    // Two seats play; the others join later.
    let mut socket = hello(&server, &id, json!({"token": seat_links[0].token})).await;
    until(&mut socket, "welcome").await;
    let (_, list) = http_at(server.addr, "GET", "/api/tables", None).await;
    assert!(list.contains(&id), "{list}");
    server.stop().await.unwrap();
    // Back on the same database: the table is there, and bots at links finish it.
    let server = start_on(&database.url, seeded()).await;
    let (_, list) = http_at(server.addr, "GET", "/api/tables", None).await;
    assert!(list.contains(&id), "{list}");
    let port = server.addr.port();
    let players: Vec<_> = seat_links
        .into_iter()
        .map(|mut link| {
            link.base = format!("127.0.0.1:{port}");
            tokio::spawn(async move { play_seat(&link, "rules", 1, Duration::from_secs(10)).await })
        })
        .collect();
    for player in players {
        player.await.unwrap().unwrap();
    }
    server.stop().await.unwrap();
}
