//! The alexa Bid Euchre night at the server, over real sockets: sets at tables of their
//! own with the engine's rotation of partners and sit-outs, each player led to their
//! seat, the score sheets kept, and the night carried on after a restart.

use crate::common;

use std::time::{Duration, Instant};

use calltrump_engine::night::set_table;
use calltrump_engine::{Night, Record};
use calltrump_server::client::{play_seat, SeatLink};
use calltrump_server::{HubConfig, RunningServer};
use common::{http_at, start_with_config};
use serde_json::{json, Value};

fn config() -> HubConfig {
    HubConfig {
        seed: Some(11),
        ..HubConfig::new(Duration::ZERO, Duration::from_secs(60))
    }
}

async fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    let (status, body) = http_at(server.addr, "GET", path, None).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

async fn start_night(server: &RunningServer, night: Value) -> (u16, Value) {
    let (status, body) =
        http_at(server.addr, "POST", "/api/nights", Some(&night.to_string())).await;
    (status, serde_json::from_str(&body).unwrap())
}

/// The night's view, polled until `done` says so (at most a minute).
async fn until_night(
    server: &RunningServer,
    path: &str,
    mut done: impl FnMut(&Value) -> bool,
) -> Value {
    let started = Instant::now();
    loop {
        let (status, view) = get(server, path).await;
        assert_eq!(status, 200, "{view}");
        if done(&view) {
            return view;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the night stalls: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The engine's night fed with each set table's record: what the server's sheet must be.
async fn sheet_from_records(server: &RunningServer, view: &Value) -> Value {
    let names: Vec<String> = view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    let mut night = Night::new(names, view["sets"].as_u64().unwrap() as usize).unwrap();
    for (set, table) in view["tables"].as_array().unwrap().iter().enumerate() {
        let path = format!("/api/tables/{}/record", table.as_str().unwrap());
        let (status, body) = http_at(server.addr, "GET", &path, None).await;
        assert_eq!(status, 200, "{body}");
        let record = Record::parse(&body).unwrap();
        assert_eq!(
            record.first_dealer,
            Some(json!(0)),
            "seat 0 deals first in every set"
        );
        let (replay, _) = record.replay().unwrap();
        night.record_replay(set, &replay).unwrap();
    }
    serde_json::to_value(night.sheet()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_night_of_bots_rotates_partners_and_sit_outs_and_keeps_the_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_with_config(&dir, config()).await;
    let names = ["Ann", "Bob", "Cy", "Di", "Ed"];
    let players: Vec<Value> = names
        .iter()
        .map(|name| json!({"name": name, "sitter": "bot:random"}))
        .collect();
    // Bots alone play unattended only when asked to.
    let night = json!({"players": players, "sets": 3, "unattended": true});
    let (status, created) = start_night(&server, night).await;
    assert_eq!(status, 201, "{created}");
    let path = format!("/api/nights/{}", created["id"].as_str().unwrap());
    // Each set's seating, as the night shows it while the set is played.
    let mut seen_sets = Vec::new();
    let view = until_night(&server, &path, |view| {
        if let Some(seating) = view["seating"].as_object() {
            let set = seating["set"].as_u64().unwrap() as usize;
            if !seen_sets.contains(&set) {
                let expected = set_table(names.len(), set);
                let seats: Vec<&str> = expected.seats.iter().map(|&p| names[p]).collect();
                let out: Vec<&str> = expected.sitting_out.iter().map(|&p| names[p]).collect();
                assert_eq!(seating["seats"], json!(seats), "set {set}");
                assert_eq!(seating["sitting_out"], json!(out), "set {set}");
                seen_sets.push(set);
            }
        }
        view["status"] == "over"
    })
    .await;
    assert!(!seen_sets.is_empty());
    assert_eq!(view["tables"].as_array().unwrap().len(), 3);
    assert_eq!(view["sheet"]["sets_recorded"], 3);
    assert_eq!(view["sheet"]["complete"], true);
    assert_eq!(view["sheet"], sheet_from_records(&server, &view).await);
    // Whoever sat a set out has 30 for it.
    for player in view["sheet"]["players"].as_array().unwrap() {
        for row in player["rows"].as_array().unwrap() {
            if row["seat"].is_null() {
                assert_eq!(row["points"], 30, "{player}");
            }
        }
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_is_led_to_their_seat_of_each_set_and_the_night_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_with_config(&dir, config()).await;
    let night = json!({"sets": 2, "players": [
        {"name": "Ann"},
        {"name": "Bob", "sitter": "bot:random"},
        {"name": "Cy", "sitter": "bot:random"},
        {"name": "Di", "sitter": "bot:random"},
    ]});
    let (status, created) = start_night(&server, night).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let ann = created["players"][0]["token"].as_str().unwrap().to_string();
    assert!(created["players"][0]["url"]
        .as_str()
        .unwrap()
        .ends_with(&format!("/night/{id}#player={ann}")));
    // The lobby's list: the night being played, at its first set (Ann has not played
    // yet), its players by name, and nobody's token.
    let (status, listed) = get(&server, "/api/nights").await;
    assert_eq!(status, 200, "{listed}");
    let listed_night = listed["nights"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == id.as_str())
        .unwrap_or_else(|| panic!("the night is listed: {listed}"));
    assert_eq!(listed_night["sets"], 2);
    assert_eq!(listed_night["set"], 0);
    let names: Vec<&str> = listed_night["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ann", "Bob", "Cy", "Di"]);
    assert_eq!(listed_night["players"][0]["bot"], false);
    assert_eq!(listed_night["players"][1]["bot"], true);
    assert!(listed_night["table"].is_string());
    assert!(!listed.to_string().contains(&ann), "no player's token");
    let mine = format!("/api/nights/{id}?player={ann}");
    let mut server = server;
    for set in 0..2 {
        let view = until_night(&server, &mine, |v| v["set"] == set).await;
        let you = &view["you"];
        assert_eq!(you["name"], "Ann");
        let seat = set_table(4, set).seat_of(0).unwrap();
        assert_eq!(you["seat"], seat, "set {set}: {view}");
        let link = format!("http://{}{}", server.addr, you["link"].as_str().unwrap());
        let link = SeatLink::parse(&link).unwrap();
        assert_eq!(link.table, view["tables"][set].as_str().unwrap());
        let finished = play_seat(&link, "random", 3, Duration::from_secs(10))
            .await
            .unwrap();
        assert!(finished.actions > 0);
        // Between the sets the server stops and starts again on its data.
        if set == 0 {
            until_night(&server, &mine, |v| v["sheet"]["sets_recorded"] == 1).await;
            server.stop().await.unwrap();
            server = start_with_config(&dir, config()).await;
        }
    }
    let view = until_night(&server, &mine, |v| v["status"] == "over").await;
    assert_eq!(view["sheet"], sheet_from_records(&server, &view).await);
    assert!(
        view["you"]["link"].is_null(),
        "nowhere to go after the night"
    );
    let (_, listed) = get(&server, "/api/nights").await;
    assert!(
        listed["nights"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["id"] != id.as_str()),
        "a night over is no longer listed: {listed}"
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_night_that_cannot_be_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_with_config(&dir, config()).await;
    let four = json!([{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}]);
    let cases = [
        (
            json!({"players": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "sets": 1}),
            "4",
        ),
        (
            json!({"players": [{"name": "A"}, {"name": "A"}, {"name": "C"}, {"name": "D"}], "sets": 1}),
            "A",
        ),
        (json!({"players": four, "sets": 0}), "set"),
        (
            json!({"players": four, "sets": 1, "options": {"deals": 4}}),
            "8 deals",
        ),
        (
            json!({"players": [{"name": "A", "sitter": "bot:nobody"}, {"name": "B"}, {"name": "C"}, {"name": "D"}], "sets": 1}),
            "nobody",
        ),
        (
            json!({"players": [{"name": " "}, {"name": "B"}, {"name": "C"}, {"name": "D"}], "sets": 1}),
            "no name",
        ),
    ];
    // An unknown bot level is refused wherever its player sits: one of five sits out
    // the first set, whose level no table checks before the second.
    let five_with_a_bad_bot = (0..5).map(|bad| {
        let players: Vec<_> = ["A", "B", "C", "D", "E"]
            .iter()
            .enumerate()
            .map(|(i, name)| match i == bad {
                true => json!({"name": name, "sitter": "bot:nobody"}),
                false => json!({"name": name}),
            })
            .collect();
        (json!({"players": players, "sets": 2}), "nobody")
    });
    for (night, reason) in cases.into_iter().chain(five_with_a_bad_bot) {
        let (status, body) = start_night(&server, night.clone()).await;
        assert_eq!(status, 400, "{night}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(reason), "{night}: {error}");
    }
    let (status, body) = get(&server, "/api/nights/0123456789abcdef").await;
    assert_eq!(status, 404, "{body}");
    let (_, created) = start_night(&server, json!({"players": four, "sets": 1})).await;
    let path = format!(
        "/api/nights/{}?player=not-a-token",
        created["id"].as_str().unwrap()
    );
    let (status, body) = get(&server, &path).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("token"));
    server.stop().await.unwrap();
}
