//! What a stranger's attack on the merged server found, each closed and tested over real
//! loopback sockets: a host taking another person's seat mid-hand, a chat flood from many
//! addresses, tables by the thousand, one address taking every unattended table, a body
//! trickled in. Every wait is bounded.

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use calltrump_server::{HubConfig, Limits};
use common::account_seats::{call, hello_as, sign_up};
use common::edge::*;
use common::*;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

/// The seat's hand in `message` (an `update` or `snapshot`), if it shows one.
fn hand_in(message: &Value) -> Option<Value> {
    Some(message["view"]["hand"].clone()).filter(|hand| !hand.is_null())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bound_seat_the_host_opens_mid_hand_opens_only_when_the_hand_ends() {
    let (_dir, server) = server_in_temp(seeded_hub(11, Duration::from_secs(60))).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let created = create(
        &server,
        json!({"game": "kaibosh", "options": {"deals": 3},
               "seats": ["open", "bot:random", "bot:random", "bot:random"]}),
    )
    .await;
    let (id, token) = id_and_token(&created);
    // Ann sits down signed in: the seat is bound to her account, and the game starts.
    let mut ann_socket = hello_as(&server, id, Some(&ann), json!({ "token": token })).await;
    assert_eq!(until(&mut ann_socket, "welcome").await["seat"], 0);
    let (mut version, mut legal, first_hand) = loop {
        let message = next(&mut ann_socket, Duration::from_secs(10))
            .await
            .expect("Ann's first turn");
        let turn = message["view"]["legal"].as_array().cloned();
        if let (Some(hand), Some(legal)) = (hand_in(&message), turn.filter(|l| !l.is_empty())) {
            break (message["version"].as_u64().unwrap(), legal, hand);
        }
    };

    // Mid-hand, at Ann's turn, the host opens her seat for someone else.
    let mut host = hello(&server, id, json!({ "token": created["host_token"] })).await;
    until(&mut host, "welcome").await;
    send(
        &mut host,
        json!({"type": "set-seat", "seat": 0, "sitter": "open"}),
    )
    .await;
    let told = messages_before_pong(&mut host).await;
    assert!(
        told.iter().all(|m| m["type"] != "invite"),
        "no new link while the hand is in play: {told:?}"
    );
    let seats = told
        .iter()
        .rfind(|m| m["type"] == "seats")
        .expect("the host is shown the seat waiting to open");
    assert_eq!(seats["seats"][0]["opens_after_hand"], true, "{seats}");
    assert_eq!(seats["seats"][0]["sitter"], "person", "{seats}");
    // Until then the seat is still Ann's: in her "My tables", and nobody else's way in.
    let (_, _, mine) = call(addr, "GET", "/api/me/tables", Some(&ann), None).await;
    assert_eq!(mine["tables"][0]["seat"], 0, "{mine}");
    let mut guest = hello(&server, id, json!({ "token": token })).await;
    error_saying(&mut guest, "seat_taken", "sign in as that player").await;

    // Ann plays the hand out; when it ends she is closed out and the seat opens.
    let closing = loop {
        send(
            &mut ann_socket,
            json!({"type": "act", "version": version, "action": legal[0]}),
        )
        .await;
        let closing = loop {
            let message = next(&mut ann_socket, Duration::from_secs(10))
                .await
                .expect("the hand goes on");
            if message["type"] == "closing" {
                break Some(message);
            }
            let turn = message["view"]["legal"].as_array().cloned();
            if let Some(turn) = turn.filter(|l| !l.is_empty()) {
                (version, legal) = (message["version"].as_u64().unwrap(), turn);
                break None;
            }
        };
        if let Some(closing) = closing {
            break closing;
        }
    };
    assert_eq!(closing["kind"], "seat_gone", "{closing}");
    let invite = until(&mut host, "invite").await;
    let (_, _, mine) = call(addr, "GET", "/api/me/tables", Some(&ann), None).await;
    assert_eq!(mine["tables"], json!([]), "the seat is no longer Ann's");

    // The new link takes the seat: what it is shown is the next hand, never Ann's.
    let mut taker = hello(&server, id, json!({ "token": invite["token"] })).await;
    assert_eq!(until(&mut taker, "welcome").await["seat"], 0);
    let snapshot = until(&mut taker, "snapshot").await;
    assert!(
        snapshot["view"]["deals_played"].as_u64().unwrap() >= 1,
        "{snapshot}"
    );
    assert_ne!(hand_in(&snapshot), Some(first_hand), "{snapshot}");
    server.stop().await.unwrap();
}

/// A table of four bots at full speed, and a spectator's socket (bots alone play only
/// while someone watches).
async fn watched_bots(server: &calltrump_server::RunningServer, deals: u32) -> (String, Socket) {
    let created = create(
        server,
        json!({"game": "kaibosh", "options": {"deals": deals},
               "seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut watcher = hello(server, &id, json!({})).await;
    until(&mut watcher, "welcome").await;
    (id, watcher)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_flood_from_thirty_addresses_never_pauses_another_table() {
    // No per-address or server-wide chat limit: the database takes the whole flood.
    let limits = Limits {
        chat_lines_per_minute: 0,
        chat_lines_per_minute_total: 0,
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    // The flood goes to a table waiting for a person.
    let flooded = create(&server, kaibosh_with_bots(1, "bot:random")).await;
    let flooded = flooded["id"].as_str().unwrap().to_string();
    let stop = Arc::new(AtomicBool::new(false));
    let mut flooders = Vec::new();
    for address in 0..30 {
        for _ in 0..2 {
            let source = format!("127.0.0.{}", 10 + address);
            let mut socket = spectator_from(&source, &server, &flooded).await;
            let stop = Arc::clone(&stop);
            flooders.push(tokio::spawn(async move {
                let line = "x".repeat(450);
                let mut sent = 0;
                while !stop.load(Ordering::Relaxed) {
                    send(&mut socket, json!({"type": "chat", "text": line})).await;
                    sent += 1;
                    // The connection's own pace: a line every half second.
                    tokio::time::sleep(Duration::from_millis(510)).await;
                }
                sent
            }));
        }
    }
    // Meanwhile another table plays a game of 4 deals to its end, never paused.
    let (_, mut watcher) = watched_bots(&server, 4).await;
    let started = Instant::now();
    let mut paused = Vec::new();
    loop {
        let message = next(&mut watcher, Duration::from_secs(30))
            .await
            .expect("the other table goes on");
        if message["type"] == "paused" {
            paused.push(message.clone());
        }
        if message["type"] == "status" && message["status"] == "over" {
            break;
        }
    }
    let played = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let mut lines = 0;
    for flooder in flooders {
        lines += flooder.await.unwrap();
    }
    assert!(paused.is_empty(), "the table paused: {paused:?}");
    assert!(lines >= 60, "the flood sent {lines} lines in {played:?}");
    let (status, _) = http_at(server.addr, "GET", "/readyz", None).await;
    assert_eq!(status, 200);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_past_the_servers_own_ceiling_is_refused_whoever_sends_it() {
    let limits = Limits {
        chat_lines_per_minute: 0,
        chat_lines_per_minute_total: 60,
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    let (table, _) = watched_bots(&server, 1).await;
    // 40 addresses of one socket each, 4 lines apiece: 160 lines past a burst of 100.
    let mut senders = Vec::new();
    for address in 0..40 {
        let source = format!("127.0.1.{}", 10 + address);
        let mut socket = spectator_from(&source, &server, &table).await;
        senders.push(tokio::spawn(async move {
            for _ in 0..4 {
                send(&mut socket, json!({"type": "chat", "text": "hello"})).await;
                tokio::time::sleep(Duration::from_millis(510)).await;
            }
            messages_before_pong(&mut socket).await
        }));
    }
    let mut refused = 0;
    for sender in senders {
        refused += sender
            .await
            .unwrap()
            .iter()
            .filter(|m| {
                m["type"] == "error"
                    && m["code"] == "chat"
                    && m["message"]
                        .as_str()
                        .unwrap()
                        .contains("the server is taking too many chat lines")
            })
            .count();
    }
    assert!((30..=60).contains(&refused), "{refused} lines refused");
    let (_, metrics) = http_at(server.addr, "GET", "/metrics", None).await;
    assert!(
        metrics.contains(&format!(
            "calltrump_refused_total{{reason=\"chat_total\"}} {refused}"
        )),
        "{metrics}"
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_cap_on_live_tables_new_tables_and_nights_get_503_and_the_lobby_pages() {
    let hub = HubConfig {
        max_live_tables: 3,
        ..seeded_hub(5, Duration::from_secs(60))
    };
    let (_dir, server) = server_in_temp(hub).await;
    let addr = server.addr;
    let table = kaibosh_with_bots(1, "bot:random");
    let mut made = Vec::new();
    for _ in 0..3 {
        made.push(create(&server, table.clone()).await);
    }
    let mut ids: Vec<String> = made
        .iter()
        .map(|t| t["id"].as_str().unwrap().into())
        .collect();
    ids.sort();
    let (status, body) = http_at(addr, "POST", "/api/tables", Some(&table.to_string())).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("--max-live-tables 3"), "{body}");
    let players: Vec<Value> = ["A", "B", "C", "D"]
        .iter()
        .map(|name| json!({"name": name, "sitter": "bot:random"}))
        .collect();
    let night = json!({"players": players, "sets": 1}).to_string();
    let (status, body) = http_at(addr, "POST", "/api/nights", Some(&night)).await;
    assert_eq!(status, 503, "a night too: {body}");

    // The lobby's list in pages, by id.
    let page = |query: &'static str| async move {
        let (status, body) = http_at(addr, "GET", &format!("/api/tables{query}"), None).await;
        (status, serde_json::from_str::<Value>(&body).unwrap())
    };
    let (status, first) = page("?limit=2").await;
    assert_eq!(status, 200, "{first}");
    let listed: Vec<&str> = first["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [ids[0].as_str(), ids[1].as_str()]);
    assert_eq!(
        (first["total"].as_u64(), first["next"].as_u64()),
        (Some(3), Some(2))
    );
    let (_, last) = page("?offset=2&limit=2").await;
    assert_eq!(last["tables"][0]["id"], ids[2].as_str());
    assert_eq!(last["tables"].as_array().unwrap().len(), 1);
    assert!(last["next"].is_null(), "{last}");
    for (query, says) in [
        ("?limit=0", "1 to 500"),
        ("?limit=many", "limit"),
        ("?page=2", "page"),
    ] {
        let (status, refused) = page(query).await;
        assert_eq!(status, 400, "{query}: {refused}");
        assert!(
            refused["error"].as_str().unwrap().contains(says),
            "{refused}"
        );
    }

    // A table ended by its host makes room for a new one.
    end_as_host(&server, &made[0]).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, body) = http_at(addr, "POST", "/api/tables", Some(&table.to_string())).await;
        if status == 201 {
            break;
        }
        assert_eq!(status, 503, "{body}");
        assert!(
            Instant::now() < deadline,
            "no room 5 s after a table ended: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_trickled_in_is_answered_408_at_the_body_timeout() {
    let limits = Limits {
        idle_timeout: Duration::from_secs(60),
        body_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let (_dir, server) = server_with_limits(limits, None).await;
    let mut stream = connect_from("127.0.0.1", &server).await;
    let head = format!(
        "POST /api/tables HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
        server.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let opened = Instant::now();
    let (mut reader, mut writer) = stream.into_split();
    // A byte every 200 ms: never idle, never done.
    let trickle = tokio::spawn(async move {
        for _ in 0..50 {
            if writer.write_all(b" ").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    let mut answer = Vec::new();
    let read = tokio::time::timeout(
        Duration::from_secs(8),
        tokio::io::AsyncReadExt::read_to_end(&mut reader, &mut answer),
    )
    .await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(read.is_ok(), "still open after 8 s: {answer}");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("--body-timeout-secs"), "{answer}");
    // Counted with the edge's other refusals.
    assert_eq!(refused(&server, "body_timeout").await, 1);
    assert!(
        opened.elapsed() < Duration::from_secs(4),
        "{:?}",
        opened.elapsed()
    );
    trickle.abort();
    server.stop().await.unwrap();
}

/// The host of `created` (as `POST /api/tables` answered) ends the table.
async fn end_as_host(server: &calltrump_server::RunningServer, created: &Value) {
    let id = created["id"].as_str().unwrap();
    let mut host = hello(server, id, json!({"token": created["host_token"]})).await;
    until(&mut host, "welcome").await;
    send(&mut host, json!({"type": "end"})).await;
    until(&mut host, "closing").await;
}

/// The JSON body of a raw answer.
fn body_json(answer: &str) -> Value {
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_has_its_share_of_the_unattended_tables_not_all_of_them() {
    // 8 unattended tables on the server, so a quarter, 2, for each address.
    let hub = HubConfig {
        max_unattended: 8,
        ..seeded_hub(13, Duration::from_secs(60))
    };
    let (_dir, server) = server_in_temp(hub).await;
    let bots = json!(["bot:random", "bot:random", "bot:random", "bot:random"]);
    // A game far longer than the test: the tables stay in play.
    let unattended = json!({"game": "kaibosh", "seats": bots, "unattended": true,
                            "options": {"target": 10000}})
    .to_string();
    let create = "POST /api/tables HTTP/1.1\r\nContent-Type: application/json";
    let mut mine = Vec::new();
    for _ in 0..2 {
        let answer = request_from("127.0.0.2", &server, create, &unattended).await;
        assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
        mine.push(body_json(&answer));
    }
    let over = request_from("127.0.0.2", &server, create, &unattended).await;
    assert!(over.starts_with("HTTP/1.1 429"), "{over}");
    assert!(header_of(&over, "retry-after").is_some(), "{over}");
    assert!(
        over.contains("--max-unattended-tables-per-address"),
        "{over}"
    );
    // A night of bots alone to play unattended counts too.
    let players: Vec<Value> = ["A", "B", "C", "D"]
        .iter()
        .map(|name| json!({"name": name, "sitter": "bot:random"}))
        .collect();
    let night = json!({"players": players, "sets": 1, "unattended": true}).to_string();
    let nights = "POST /api/nights HTTP/1.1\r\nContent-Type: application/json";
    let over = request_from("127.0.0.2", &server, nights, &night).await;
    assert!(over.starts_with("HTTP/1.1 429"), "a night too: {over}");
    // A table of bots that plays only while watched is not counted.
    let watched = json!({"game": "kaibosh", "seats": bots}).to_string();
    let answer = request_from("127.0.0.2", &server, create, &watched).await;
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    // Other addresses have their own shares.
    for source in ["127.0.0.3", "127.0.0.3", "127.0.0.4"] {
        let answer = request_from(source, &server, create, &unattended).await;
        assert!(answer.starts_with("HTTP/1.1 201"), "{source}: {answer}");
    }
    let answer = request_from("127.0.0.4", &server, nights, &night).await;
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");

    // One of the address's tables ended by its host gives its place back.
    end_as_host(&server, &mine[0]).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let answer = request_from("127.0.0.2", &server, create, &unattended).await;
        if answer.starts_with("HTTP/1.1 201") {
            break;
        }
        assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
        assert!(
            Instant::now() < deadline,
            "no place 5 s after a table ended: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.stop().await.unwrap();
}
