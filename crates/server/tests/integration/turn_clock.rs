//! The turn clock over real sockets: a person who does not decide in time has a bot
//! decide for them, and a restart gives what was left of the clock, not a fresh one.

use crate::common;

use std::time::{Duration, Instant};

use common::{
    create, hello, http_at, id_and_token, next, seeded_hub, server_in_temp, start_with_config,
    until, until_my_turn,
};
use serde_json::{json, Value};

/// A Kaibosh table, one person (seat 0) and `rules` bots, on a clock of `seconds`.
fn clocked(seconds: u32) -> Value {
    json!({
        "game": "kaibosh",
        "seats": ["open", "bot:rules", "bot:rules", "bot:rules"],
        "first_dealer": 3,
        "turn_clock": {"seconds": seconds, "level": "random"},
    })
}

/// Messages until a `clock` for a seat: that message.
async fn until_clock(socket: &mut common::Socket) -> Value {
    loop {
        let message = until(socket, "clock").await;
        if !message["seat"].is_null() {
            return message;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_person_has_a_bot_decide_when_the_clock_runs_out_and_everyone_is_told() {
    let (_dir, server) = server_in_temp(seeded_hub(7, Duration::from_secs(60))).await;
    let created = create(&server, clocked(1)).await;
    let (id, token) = id_and_token(&created);
    let mut ann = hello(&server, id, json!({"token": token, "name": "Ann"})).await;
    let mut zoe = hello(&server, id, json!({})).await;
    let (version, _) = until_my_turn(&mut ann, Duration::from_secs(10)).await;
    let clock = until_clock(&mut ann).await;
    assert_eq!(
        (clock["seat"].as_u64(), clock["cut"].as_bool()),
        (Some(0), Some(false))
    );
    assert_eq!(clock["of_ms"], 1000);
    assert!(clock["ms"].as_u64().unwrap() <= 1000, "{clock}");
    // Ann does nothing: after the second, a bot plays her turn, then she is told.
    let started = Instant::now();
    let mut played = None;
    let told = loop {
        let message = next(&mut ann, Duration::from_secs(5))
            .await
            .expect("the bot decides for Ann");
        if message["type"] == "update" && message["version"].as_u64() == Some(version + 1) {
            played = message["events"][0]["seat"].as_u64();
        }
        if message["type"] == "time-up" {
            break message;
        }
    };
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(
        played,
        Some(0),
        "the decision after Ann's turn was seat 0's"
    );
    assert_eq!(
        told,
        json!({"type": "time-up", "seat": 0, "level": "random"})
    );
    // A spectator is told too.
    assert_eq!(until(&mut zoe, "time-up").await["seat"], 0);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_gives_what_was_left_of_the_clock() {
    let config = seeded_hub(7, Duration::from_secs(60));
    let (dir, server) = server_in_temp(config.clone()).await;
    let created = create(&server, clocked(30)).await;
    let (id, token) = id_and_token(&created);
    let mut ann = hello(&server, id, json!({"token": token, "name": "Ann"})).await;
    until_my_turn(&mut ann, Duration::from_secs(10)).await;
    let first = until_clock(&mut ann).await;
    let told_at = Instant::now();
    assert_eq!(first["of_ms"], 30_000);
    drop(ann);
    server.stop().await.unwrap();
    // Time passes while the server is away.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let server = start_with_config(&dir, config).await;
    let asked_at = Instant::now();
    let mut ann = hello(&server, id, json!({"token": token})).await;
    let again = until_clock(&mut ann).await;
    assert_eq!(again["seat"], 0);
    let gone = asked_at.duration_since(told_at).as_millis() as u64;
    assert!(gone >= 1500);
    let left = again["ms"].as_u64().unwrap();
    assert!(
        left <= 30_000 - gone && left > 20_000,
        "{left} ms left after {gone} ms away"
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nights_sets_run_its_turn_clock_and_a_bad_one_is_refused() {
    let (_dir, server) = server_in_temp(seeded_hub(7, Duration::from_secs(60))).await;
    let players = json!([
        {"name": "Ann"},
        {"name": "Bob", "sitter": "bot:random"},
        {"name": "Cy", "sitter": "bot:random"},
        {"name": "Di", "sitter": "bot:random"},
    ]);
    // A clock the tables would refuse is refused for the night, naming the field.
    let bad = json!({"players": players, "sets": 1, "turn_clock": {"seconds": 0}});
    let (status, body) = http_at(server.addr, "POST", "/api/nights", Some(&bad.to_string())).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("turn_clock"), "{body}");
    let night =
        json!({"players": players, "sets": 1, "turn_clock": {"seconds": 1, "level": "random"}});
    let (status, body) =
        http_at(server.addr, "POST", "/api/nights", Some(&night.to_string())).await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let path = format!(
        "/api/nights/{}?player={}",
        created["id"].as_str().unwrap(),
        created["players"][0]["token"].as_str().unwrap()
    );
    let (status, body) = http_at(server.addr, "GET", &path, None).await;
    assert_eq!(status, 200, "{body}");
    let view: Value = serde_json::from_str(&body).unwrap();
    let seat = view["you"]["seat"]
        .as_u64()
        .expect("Ann plays the first set");
    let link = view["you"]["link"].as_str().unwrap();
    let (table, token) = link
        .strip_prefix("/table/")
        .and_then(|rest| rest.split_once("#token="))
        .unwrap_or_else(|| panic!("a seat's link: {link}"));
    // Ann sits at her set's table and does nothing: its clock runs out on her and a bot
    // of the night's level decides for her.
    let mut ann = hello(&server, table, json!({"token": token, "name": "Ann"})).await;
    until_my_turn(&mut ann, Duration::from_secs(10)).await;
    let clock = until_clock(&mut ann).await;
    assert_eq!(clock["seat"].as_u64(), Some(seat), "{clock}");
    assert_eq!(clock["of_ms"], 1000);
    let told = until(&mut ann, "time-up").await;
    assert_eq!(
        told,
        json!({"type": "time-up", "seat": seat, "level": "random"})
    );
    server.stop().await.unwrap();
}
