//! The real server on a random loopback port with a temporary database, spoken to over
//! real WebSockets.

use crate::common;

use common::scenarios::{self, VARIANTS};
use common::{
    connect, create, error_saying, hello, http_at, id_and_token, kaibosh_with_bots, links,
    messages_before_pong, next, play_every_seat, record_of, seeded_hub, send, server_in_temp,
    server_with_table, short_game, start_with_config, until, until_my_turn, Backend,
};

use std::time::Duration;

use calltrump_engine::{Outcome, Record};
use calltrump_server::client::SeatLink;
use calltrump_server::{HubConfig, RunningServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// A hub of deals from the system's randomness, a seat's grace a minute.
fn unseeded() -> HubConfig {
    HubConfig::new(Duration::ZERO, Duration::from_secs(60))
}

/// The hub of most tests: seeded 7, a seat's grace `grace`.
fn seeded(grace: Duration) -> HubConfig {
    seeded_hub(7, grace)
}

/// A server seeded 7 whose seats have a grace of `grace`, and a Kaibosh table on it of
/// `people` open seats, then `bot` in the others: its folder, the server and the table.
async fn kaibosh_table(
    grace: Duration,
    people: usize,
    bot: &str,
) -> (tempfile::TempDir, RunningServer, Value) {
    server_with_table(seeded(grace), kaibosh_with_bots(people, bot)).await
}

/// The `calltrump_tables` gauge of `/metrics`: tables in memory.
async fn tables_in_memory(server: &RunningServer) -> u64 {
    let (_, metrics) = http(server, "GET", "/metrics", None).await;
    metrics
        .lines()
        .find_map(|line| line.strip_prefix("calltrump_tables "))
        .unwrap_or_else(|| panic!("no calltrump_tables in {metrics}"))
        .parse()
        .unwrap()
}

/// The `process_cpu_seconds_total` counter of `/metrics`.
async fn cpu_seconds(server: &RunningServer) -> f64 {
    let (_, metrics) = http(server, "GET", "/metrics", None).await;
    assert!(
        metrics.contains("# TYPE process_cpu_seconds_total counter"),
        "{metrics}"
    );
    metrics
        .lines()
        .find_map(|line| line.strip_prefix("process_cpu_seconds_total "))
        .unwrap_or_else(|| panic!("no process_cpu_seconds_total in {metrics}"))
        .parse()
        .unwrap()
}

/// `/metrics` counts the CPU time the server's process used, in seconds: positive, and
/// more after the server did some work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_the_processs_cpu_seconds() {
    let (_dir, server, _table) = kaibosh_table(Duration::from_secs(5), 4, "").await;
    let before = cpu_seconds(&server).await;
    assert!(before > 0.0 && before < 600.0, "{before} s");
    for _ in 0..50 {
        let (status, _) = http(&server, "GET", "/api/tables", None).await;
        assert_eq!(status, 200);
    }
    let after = cpu_seconds(&server).await;
    assert!(after > before, "{before} s, then {after} s");
    server.stop().await.unwrap();
}

/// Waits until no table is in memory (at most 5 seconds); `stays` says what stayed.
async fn until_no_table_in_memory(server: &RunningServer, stays: &str) {
    let mut waited = 0;
    while tables_in_memory(server).await > 0 {
        waited += 1;
        assert!(waited < 100, "{stays}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A WebSocket to table `id` is refused.
async fn assert_refused(server: &RunningServer, id: &str) {
    let url = format!("ws://{}/ws/{id}", server.addr);
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
}

async fn http(
    server: &RunningServer,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, String) {
    let body = body.map(|b| b.to_string());
    http_at(server.addr, method, path, body.as_deref()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_bots_finish_a_game_of_every_variant_and_the_record_replays() {
    scenarios::join_bots_finish_a_game_of_every_variant_and_the_record_replays(Backend::Sqlite)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_to_any_seat_or_spectator_carries_a_card_it_may_not_know() {
    scenarios::no_message_to_any_seat_or_spectator_carries_a_card_it_may_not_know(Backend::Sqlite)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_is_replaced_by_a_bot_after_the_grace_and_gets_the_seat_back() {
    let (_dir, server, created) = kaibosh_table(Duration::from_millis(300), 1, "bot:rules").await;
    let (id, token) = id_and_token(&created);
    let mut socket = hello(&server, id, json!({"token": token, "name": "Ann"})).await;
    let welcome = until(&mut socket, "welcome").await;
    assert_eq!(welcome["seat"], 0);
    // Every person's seat is taken: the game starts.
    until(&mut socket, "status").await;
    drop(socket);
    // Watch the table: a countdown, then a bot stands in and the game moves on.
    let mut watcher = hello(&server, id, json!({})).await;
    let snapshot = until(&mut watcher, "snapshot").await;
    let start_version = snapshot["version"].as_u64().unwrap();
    let mut stood_in = false;
    let mut moved_on = false;
    while let Some(message) = next(&mut watcher, Duration::from_secs(5)).await {
        if message["type"] == "seats" && message["seats"][0]["bot_standing_in"] == true {
            stood_in = true;
        }
        if message["type"] == "update" && message["version"].as_u64().unwrap() > start_version + 8 {
            moved_on = true;
            break;
        }
    }
    assert!(
        stood_in && moved_on,
        "stood in {stood_in}, moved on {moved_on}"
    );
    // Ann comes back: the seat is hers again.
    let mut socket = hello(&server, id, json!({"token": token})).await;
    let seats = until(&mut socket, "seats").await;
    assert_eq!(seats["seats"][0]["bot_standing_in"], false);
    assert_eq!(seats["seats"][0]["connected"], true);
    assert_eq!(seats["seats"][0]["name"], "Ann");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_a_clear_error_and_changes_nothing() {
    let (_dir, server) = server_in_temp(seeded(Duration::from_secs(60))).await;
    // HTTP: bad tables, unknown tables.
    for (body, expect) in [
        (json!({"game": "bridge"}), "unknown game"),
        (
            json!({"game": "kout", "options": {"joker_lead": "never"}}),
            "joker_lead",
        ),
        (json!({"game": "kaibosh", "seats": ["open"]}), "4 seats"),
        (
            json!({"game": "kaibosh", "seats": ["open", "open", "open", "bot:nobody"]}),
            "seat 3",
        ),
    ] {
        let (status, text) = http(&server, "POST", "/api/tables", Some(body)).await;
        assert_eq!(status, 400, "{text}");
        assert!(text.contains(expect), "{text}");
    }
    let (status, text) = http(&server, "GET", "/api/tables/nope/record", None).await;
    assert_eq!(status, 404, "{text}");

    let created = create(&server, kaibosh_with_bots(1, "bot:random")).await;
    let (id, token) = id_and_token(&created);
    let mut socket = connect(&server, id).await;
    // Before hello: only hello.
    send(
        &mut socket,
        json!({"type": "act", "version": 1, "action": "pass"}),
    )
    .await;
    error_saying(&mut socket, "hello", "hello").await;
    socket
        .send(Message::Text("{not json".into()))
        .await
        .unwrap();
    error_saying(&mut socket, "malformed", "not a message").await;
    send(&mut socket, json!({"type": "hello", "token": token})).await;
    // Wait until it is seat 0's turn.
    let (version, legal) = until_my_turn(&mut socket, Duration::from_secs(10)).await;
    // A stale version, a card not held, a malformed action, a host's command.
    send(
        &mut socket,
        json!({"type": "act", "version": version - 1, "action": legal[0]}),
    )
    .await;
    error_saying(&mut socket, "version", "stale version").await;
    send(
        &mut socket,
        json!({"type": "act", "version": version, "action": "play 7X"}),
    )
    .await;
    error_saying(&mut socket, "malformed", "not an action").await;
    send(
        &mut socket,
        json!({"type": "act", "version": version, "action": "kaibosh kaibosh"}),
    )
    .await;
    until(&mut socket, "error").await;
    send(&mut socket, json!({"type": "end"})).await;
    error_saying(&mut socket, "not_host", "host").await;
    // Chat is text: markup comes back as the same text; too long is refused.
    send(&mut socket, json!({"type": "chat", "text": "<b>hi</b>"})).await;
    assert_eq!(until(&mut socket, "chat").await["body"], "<b>hi</b>");
    tokio::time::sleep(Duration::from_millis(600)).await;
    send(
        &mut socket,
        json!({"type": "chat", "text": "x".repeat(501)}),
    )
    .await;
    error_saying(&mut socket, "chat", "at most").await;
    // Nothing changed: the legal action still answers the same version.
    send(
        &mut socket,
        json!({"type": "act", "version": version, "action": legal[0]}),
    )
    .await;
    let update = loop {
        let message = next(&mut socket, Duration::from_secs(10)).await.unwrap();
        assert_ne!(message["type"], "error", "{message}");
        if message["type"] == "update" {
            break message;
        }
    };
    assert_eq!(update["version"].as_u64().unwrap(), version + 1);
    // A spectator may not act; a foreign token is refused.
    let mut watcher = hello(&server, id, json!({})).await;
    until(&mut watcher, "welcome").await;
    send(
        &mut watcher,
        json!({"type": "act", "version": version + 1, "action": "pass"}),
    )
    .await;
    error_saying(&mut watcher, "not_seated", "seated").await;
    // A spectator's chat lines carry the name it gave, marked as watching.
    let mut named = hello(&server, id, json!({"name": "Eve"})).await;
    assert!(until(&mut named, "welcome").await["cut_wait_ms"].as_u64() > Some(0));
    send(&mut named, json!({"type": "chat", "text": "nice play"})).await;
    // (The table's earlier chat comes first, as history.)
    let mut line = until(&mut named, "chat").await;
    while line["body"] != "nice play" {
        line = until(&mut named, "chat").await;
    }
    assert_eq!(line["sender"], "Eve (watching)");
    let stranger_token = "00000000000000000000000000000000";
    let mut stranger = hello(&server, id, json!({ "token": stranger_token })).await;
    error_saying(&mut stranger, "bad_token", "token").await;
    // An oversized message closes the connection, with the reason: a `closing`, then a
    // close frame 1009 (message too big).
    let mut big = connect(&server, id).await;
    big.send(Message::Text("x".repeat(100_000).into()))
        .await
        .unwrap();
    let closing = next(&mut big, Duration::from_secs(5)).await;
    assert_eq!(
        closing,
        Some(json!({"type": "closing", "kind": "too_big", "reason": "a message over 16 KiB"}))
    );
    let frame = loop {
        match tokio::time::timeout(Duration::from_secs(5), big.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame.expect("a close frame's reason"),
            Ok(Some(Ok(_))) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    };
    assert_eq!(u16::from(frame.code), 1009);
    assert_eq!(frame.reason.as_str(), "a message over 16 KiB");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_resumes_its_tables() {
    scenarios::a_restarted_server_resumes_its_tables(Backend::Sqlite).await;
}

/// The next chat line said `body` (earlier ones, history, are passed over).
async fn chat_line(socket: &mut common::Socket, body: &str) -> Value {
    loop {
        let line = until(socket, "chat").await;
        if line["body"] == body {
            return line;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_lines_keep_their_place_in_the_game_across_a_restart() {
    let (dir, server, created) = kaibosh_table(Duration::from_secs(60), 1, "bot:rules").await;
    let (id, token) = id_and_token(&created);
    let id = id.to_string();
    // Ann fills the table: the game starts. She speaks on her turn, acts, speaks again.
    let mut ann = hello(&server, &id, json!({"token": token, "name": "Ann"})).await;
    let (version, legal) = until_my_turn(&mut ann, Duration::from_secs(10)).await;
    send(&mut ann, json!({"type": "chat", "text": "my turn"})).await;
    let first = chat_line(&mut ann, "my turn").await;
    send(
        &mut ann,
        json!({"type": "act", "version": version, "action": legal[0]}),
    )
    .await;
    until(&mut ann, "update").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    send(&mut ann, json!({"type": "chat", "text": "played"})).await;
    let second = chat_line(&mut ann, "played").await;
    assert_eq!(first["deals"], 1, "{first}");
    assert!(first["actions"].as_u64().is_some(), "{first}");
    assert!(
        second["actions"].as_u64() > first["actions"].as_u64(),
        "{first} {second}"
    );
    server.stop().await.unwrap();
    // Back on the same database, a newcomer's history puts each line where it was said.
    let server = start_with_config(&dir, seeded(Duration::from_secs(60))).await;
    let mut zoe = hello(&server, &id, json!({"name": "Zoe"})).await;
    for said in [first, second] {
        let line = chat_line(&mut zoe, said["body"].as_str().unwrap()).await;
        assert_eq!(line, said);
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_keeps_each_chat_lines_place_in_the_game() {
    use calltrump_server::store::{ChatLine, ChatPlace, SqliteStore, Store, StoredTable};
    let dir = tempfile::tempdir().unwrap();
    let url = common::database_url(&dir);
    let rules = calltrump_engine::GameRules::new(calltrump_engine::VariantKind::Standard);
    let table = StoredTable {
        id: "t".into(),
        settings: calltrump_table::Settings::new(rules, calltrump_engine::Seat(0), &[]),
        hints: false,
        unattended: false,
        turn_clock: None,
        rated: false,
        night: None,
        deal_rng: calltrump_engine::seeded(1),
        seats: Vec::new(),
        host_token: "h".into(),
        status: calltrump_server::model::TableStatus::Playing,
        created_at: 0,
    };
    let line = |seq: i64, body: &str| ChatLine {
        seq,
        sender: "Ann".into(),
        body: body.into(),
        at: 1_700_000_000 + seq,
    };
    let place = |deals, actions| ChatPlace { deals, actions };
    {
        let store = SqliteStore::open(&url).await.unwrap();
        store.create_table(&table).await.unwrap();
        // A line stored before the place was kept (written as that server wrote it),
        // then two with their places.
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        sqlx::query(
            "INSERT INTO chat (table_id, seq, sender, body, at) VALUES (?, 1, 'Ann', 'hi', ?)",
        )
        .bind(&table.id)
        .bind(line(1, "hi").at)
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;
        store
            .chat(&table.id, &line(2, "deal 1"), place(1, 0))
            .await
            .unwrap();
        store
            .chat(&table.id, &line(3, "deal 3"), place(3, 17))
            .await
            .unwrap();
    }
    let store = SqliteStore::open(&url).await.unwrap();
    let history = store.chat_history(&table.id).await.unwrap();
    let places: Vec<_> = history
        .iter()
        .map(|m| (m.line.body.as_str(), m.place))
        .collect();
    assert_eq!(
        places,
        [
            ("hi", None),
            ("deal 1", Some(place(1, 0))),
            ("deal 3", Some(place(3, 17)))
        ]
    );
    assert_eq!(history[2].line, line(3, "deal 3"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_tables_deal_committed_hands_that_verify() {
    use calltrump_engine::fair_deal::{verify, DealSource};
    let (_dir, server) = server_in_temp(unseeded()).await;
    for (game, variant, _) in VARIANTS {
        let options = short_game(game, 3, 3);
        let table = json!({"game": game, "variant": variant, "options": options});
        let created = create(&server, table).await;
        for finished in play_every_seat(links(&created), "random").await {
            let check = finished
                .state
                .deal_check
                .expect("the last hand's deal check");
            assert!(check.seed.is_some(), "the last seed is revealed");
        }
        let id = created["id"].as_str().unwrap();
        let (_, body) = record_of(&server, id).await;
        let record = Record::parse(&body).unwrap();
        assert_eq!(
            record.deal_source,
            Some(DealSource::Committed {
                table: id.to_string()
            })
        );
        let verification = verify(&record).unwrap();
        assert!(verification.is_ok(), "{game} {variant}: {verification:?}");
        // Two hands swapped: the check names the hand.
        let mut forged = record.clone();
        forged.hands[0].deal.swap(0, 1);
        assert!(!verify(&forged).unwrap().is_ok());
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_who_plays_a_seat_uses_one_connection_for_both() {
    let (_dir, server, created) = kaibosh_table(Duration::from_secs(60), 2, "bot:random").await;
    let (id, seat_token) = id_and_token(&created);
    let host_token = created["host_token"].as_str().unwrap();
    // A wrong host token leaves the seat a plain seat.
    let wrong_host = json!({"token": seat_token, "host": "not-the-host"});
    let mut guest = hello(&server, id, wrong_host).await;
    let welcome = until(&mut guest, "welcome").await;
    assert_eq!(
        (welcome["seat"].clone(), welcome["host"].clone()),
        (json!(0), json!(false))
    );
    send(&mut guest, json!({"type": "start"})).await;
    error_saying(&mut guest, "not_host", "only the host").await;
    drop(guest);

    let mut host = hello(
        &server,
        id,
        json!({"token": seat_token, "host": host_token}),
    )
    .await;
    let welcome = until(&mut host, "welcome").await;
    assert_eq!(
        (welcome["seat"].clone(), welcome["host"].clone()),
        (json!(0), json!(true))
    );
    // Seat 1 is still open: the host starts, a bot takes it.
    send(&mut host, json!({"type": "start"})).await;
    assert_eq!(until(&mut host, "status").await["status"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_left_before_the_start_is_on_grace_and_a_bot_stands_in() {
    let (_dir, server, created) = kaibosh_table(Duration::from_millis(300), 2, "bot:rules").await;
    let (id, token) = id_and_token(&created);
    // Ann takes seat 0 while the table is open, and leaves.
    let mut ann = hello(&server, id, json!({"token": token, "name": "Ann"})).await;
    assert_eq!(until(&mut ann, "welcome").await["seat"], 0);
    drop(ann);
    let mut host = hello(&server, id, json!({"token": created["host_token"]})).await;
    loop {
        let seats = until(&mut host, "seats").await;
        assert_eq!(seats["seats"][0]["sitter"], "person");
        if seats["seats"][0]["connected"] == false {
            break;
        }
    }
    // The host starts: Ann's grace runs, then a bot plays her seat.
    send(&mut host, json!({"type": "start"})).await;
    let mut grace_shown = false;
    let mut stood_in = false;
    let mut seat_0_acted = false;
    while let Some(message) = next(&mut host, Duration::from_secs(5)).await {
        if message["type"] == "seats" {
            grace_shown |= message["seats"][0]["grace_ms"].as_u64().is_some();
            stood_in |= message["seats"][0]["bot_standing_in"] == true;
        }
        let events = message["events"].as_array().cloned().unwrap_or_default();
        if events
            .iter()
            .any(|e| e["type"] == "acted" && e["seat"] == 0)
        {
            seat_0_acted = true;
            break;
        }
    }
    assert!(
        grace_shown && stood_in && seat_0_acted,
        "grace shown {grace_shown}, a bot stood in {stood_in}, seat 0 acted {seat_0_acted}"
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_gets_the_link_of_a_bots_seat_it_opens_and_a_person_takes_it() {
    let (_dir, server, created) = kaibosh_table(Duration::from_secs(60), 1, "bot:random").await;
    let id = created["id"].as_str().unwrap();
    // Only the open seat had a link.
    assert_eq!(created["invites"].as_array().unwrap().len(), 1);
    let mut host = hello(&server, id, json!({"token": created["host_token"]})).await;
    until(&mut host, "welcome").await;
    let mut watcher = hello(&server, id, json!({})).await;
    until(&mut watcher, "welcome").await;
    send(
        &mut host,
        json!({"type": "set-seat", "seat": 1, "sitter": "open"}),
    )
    .await;
    let invite = until(&mut host, "invite").await;
    assert_eq!(invite["seat"], 1);
    let token = invite["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 32);
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()), "{token}");
    assert_eq!(
        invite["url"],
        format!("http://{}/table/{id}#token={token}", server.addr)
    );
    let seats = until(&mut host, "seats").await;
    assert_eq!(seats["seats"][1]["sitter"], "open");
    // Nobody else hears of the token.
    let seen_by_watcher = until(&mut watcher, "seats").await;
    assert!(!seen_by_watcher.to_string().contains(&token));
    // Bob takes the seat with the link.
    let link = SeatLink::parse(invite["url"].as_str().unwrap()).unwrap();
    let mut bob = hello(&server, id, json!({"token": link.token, "name": "Bob"})).await;
    assert_eq!(until(&mut bob, "welcome").await["seat"], 1);
    let seats = until(&mut bob, "seats").await;
    assert_eq!(seats["seats"][1]["sitter"], "person");
    assert_eq!(seats["seats"][1]["name"], "Bob");
    for message in messages_before_pong(&mut watcher).await {
        assert_ne!(message["type"], "invite", "{message}");
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ended_tables_record_is_served_and_a_finished_table_is_not_resumed() {
    let mut config = seeded(Duration::from_secs(60));
    config.keep_over = Duration::from_millis(300);
    let (dir, server) = server_in_temp(config.clone()).await;
    // A table whose game is played out by bots.
    let finished = create(
        &server,
        json!({"game": "kaibosh", "options": {"deals": 1}, "seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}),
    )
    .await;
    let finished_id = finished["id"].as_str().unwrap().to_string();
    let mut host = hello(
        &server,
        &finished_id,
        json!({"token": finished["host_token"]}),
    )
    .await;
    send(&mut host, json!({"type": "start"})).await;
    loop {
        let status = until(&mut host, "status").await;
        if status["status"] == "over" {
            break;
        }
    }
    drop(host);
    // A table the host ends mid-hand, Ann to act.
    let ended = create(&server, kaibosh_with_bots(1, "bot:random")).await;
    let ended_id = ended["id"].as_str().unwrap().to_string();
    let ann_token = &ended["invites"][0]["token"];
    let mut ann = hello(&server, &ended_id, json!({ "token": ann_token })).await;
    // Until it is Ann's turn: the table waits on her.
    until_my_turn(&mut ann, Duration::from_secs(10)).await;
    let mut host = hello(&server, &ended_id, json!({"token": ended["host_token"]})).await;
    send(&mut host, json!({"type": "end"})).await;
    let closing = until(&mut host, "closing").await;
    assert_eq!(closing["kind"], "table_gone", "{closing}");
    let (status, body) = record_of(&server, &ended_id).await;
    assert_eq!(status, 200, "{body}");
    let record = Record::parse(&body).unwrap();
    assert!(
        record
            .hands
            .iter()
            .all(|hand| hand.deal.iter().all(|cards| !cards.is_empty())),
        "an ended table's record is whole: {body}"
    );
    // The finished table leaves memory once nobody is there; its record stays served.
    until_no_table_in_memory(&server, "the finished table stays in memory").await;
    let (status, body) = record_of(&server, &finished_id).await;
    assert_eq!(status, 200, "{body}");
    assert!(Record::parse(&body).unwrap().replay().unwrap().0.finished);
    server.stop().await.unwrap();
    // After a restart neither table is resumed; the finished one comes back when asked.
    let server = start_with_config(&dir, config).await;
    assert_eq!(tables_in_memory(&server).await, 0);
    for id in [&finished_id, &ended_id] {
        let (status, body) = record_of(&server, id).await;
        assert_eq!(status, 200, "{body}");
    }
    let mut watcher = hello(&server, &finished_id, json!({})).await;
    assert_eq!(until(&mut watcher, "welcome").await["status"], "over");
    let snapshot = until(&mut watcher, "snapshot").await;
    assert_eq!(snapshot["view"]["phase"], "game-over");
    assert_eq!(tables_in_memory(&server).await, 1);
    // An ended table is gone for good.
    assert_refused(&server, &ended_id).await;
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_at_the_deal_limit_ends_its_game_as_a_draw() {
    let mut config = seeded(Duration::from_secs(60));
    config.max_deals = 2;
    let (dir, server) = server_in_temp(config.clone()).await;
    // Four random bots at Kaibosh to 50: two deals cannot finish it.
    let created = create(&server, kaibosh_with_bots(0, "bot:random")).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut host = hello(&server, &id, json!({"token": created["host_token"]})).await;
    send(&mut host, json!({"type": "start"})).await;
    let mut last_update = Value::Null;
    loop {
        let message = next(&mut host, Duration::from_secs(10))
            .await
            .expect("the game ends");
        if message["type"] == "update" {
            last_update = message;
        } else if message["type"] == "status" && message["status"] == "over" {
            break;
        }
    }
    let events = last_update["events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "{last_update}");
    assert_eq!(events[0]["type"], "game-ended");
    assert_eq!(events[0]["outcome"], "draw");
    let view = &last_update["view"];
    assert_eq!(
        (&view["phase"], &view["turn"], &view["outcome"]),
        (&json!("game-over"), &json!("over"), &json!("draw"))
    );
    let (_, body) = record_of(&server, &id).await;
    let record = Record::parse(&body).unwrap();
    assert_eq!(record.hands.len(), 2);
    assert!(!record.replay().unwrap().0.finished, "no winner: {body}");
    assert_eq!(
        record.result,
        Some(Outcome::Draw),
        "settled as a draw: {body}"
    );
    server.stop().await.unwrap();
    // Restored from the store, the table is still over.
    let server = start_with_config(&dir, config).await;
    let mut watcher = hello(&server, &id, json!({})).await;
    assert_eq!(until(&mut watcher, "welcome").await["status"], "over");
    let snapshot = until(&mut watcher, "snapshot").await;
    assert_eq!(snapshot["view"]["outcome"], "draw");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_nobody_comes_to_is_closed_and_not_resumed() {
    let mut config = unseeded();
    config.abandon_open = Duration::from_millis(400);
    let (dir, server) = server_in_temp(config.clone()).await;
    let created = create(&server, json!({"game": "kaibosh"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    // Someone looks in and leaves: the wait starts again from then (that a table
    // watched is not closed is the session's test
    // `a_table_watched_is_not_closed_and_its_wait_starts_when_it_is_left`).
    let mut visitor = hello(&server, &id, json!({})).await;
    until(&mut visitor, "welcome").await;
    drop(visitor);
    until_no_table_in_memory(&server, "a table nobody came to stays open").await;
    let (_, list) = http(&server, "GET", "/api/tables", None).await;
    assert!(!list.contains(&id), "{list}");
    server.stop().await.unwrap();
    // Closed for good: a restart does not bring it back, and its link is refused.
    let server = start_with_config(&dir, config).await;
    assert_eq!(tables_in_memory(&server).await, 0);
    assert_refused(&server, &id).await;
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_may_name_its_seats_and_choose_its_first_dealer() {
    let (_dir, server) = server_in_temp(unseeded()).await;
    let created = create(
        &server,
        json!({"game": "kaibosh", "names": ["Ann", "", "  ", ""], "first_dealer": 2}),
    )
    .await;
    let (_, list) = http(&server, "GET", "/api/tables", None).await;
    let list: Value = serde_json::from_str(&list).unwrap();
    let seats = &list["tables"][0]["seats"];
    assert_eq!(seats[0]["name"], "Ann", "{list}");
    assert_eq!(seats[0]["sitter"], "open", "reserved, not yet taken");
    for seat in 1..4 {
        assert!(seats[seat]["name"].is_null(), "{list}");
    }
    // The game starts with seat 2 dealing.
    let id = created["id"].as_str().unwrap();
    let mut host = hello(&server, id, json!({"token": created["host_token"]})).await;
    send(&mut host, json!({"type": "start"})).await;
    loop {
        let message = next(&mut host, Duration::from_secs(10)).await.unwrap();
        if let Some(dealer) = message["view"].get("dealer").filter(|d| !d.is_null()) {
            assert_eq!(dealer, 2, "{message}");
            break;
        }
    }
    for (table, error) in [
        (json!({"game": "kaibosh", "first_dealer": 4}), "no seat 4"),
        (
            json!({"game": "kaibosh", "names": ["a", "b", "c", "d", "e"]}),
            "5 names",
        ),
        // One name per seat: fewer is a mistake too, not seats left unnamed.
        (
            json!({"game": "kaibosh", "names": ["a", "b"]}),
            "2 names for 4 seats",
        ),
    ] {
        let (status, body) = http(&server, "POST", "/api/tables", Some(table)).await;
        assert_eq!(status, 400, "{body}");
        assert!(body.contains(error), "{body}");
    }
    server.stop().await.unwrap();
}
