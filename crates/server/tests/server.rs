//! The real server on a random loopback port with a temporary database, spoken to over
//! real WebSockets.

use std::time::Duration;

use calltrump_engine::{Action, AnyGame, Card, CardBag, Game, Record, Seat, SeenAction, Turn};
use calltrump_server::client::{play_seat, SeatLink};
use calltrump_server::{HubConfig, RunningServer, ServerConfig};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

async fn start_server(dir: &tempfile::TempDir, grace: Duration) -> RunningServer {
    start_with_seed(dir, grace, Some(7)).await
}

async fn start_with_seed(
    dir: &tempfile::TempDir,
    grace: Duration,
    seed: Option<u64>,
) -> RunningServer {
    calltrump_server::start(ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        database_url: format!("sqlite://{}", dir.path().join("db.sqlite").display()),
        hub: HubConfig {
            bot_delay: Duration::ZERO,
            grace,
            seed,
        },
    })
    .await
    .unwrap()
}

async fn http(
    server: &RunningServer,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.addr,
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response[9..12].parse().unwrap();
    let (_, rest) = response.split_once("\r\n\r\n").unwrap();
    // Bodies come chunked or whole: take the JSON or text after the headers.
    let body = if response
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = String::new();
        let mut rest = rest;
        while let Some((size, tail)) = rest.split_once("\r\n") {
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            out.push_str(&tail[..size]);
            rest = &tail[size + 2..];
        }
        out
    } else {
        rest.to_string()
    };
    (status, body)
}

async fn create(server: &RunningServer, table: Value) -> Value {
    let (status, body) = http(server, "POST", "/api/tables", Some(table)).await;
    assert_eq!(status, 201, "{body}");
    serde_json::from_str(&body).unwrap()
}

fn links(created: &Value) -> Vec<SeatLink> {
    created["invites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| SeatLink::parse(i["url"].as_str().unwrap()).unwrap())
        .collect()
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(server: &RunningServer, table: &str) -> Socket {
    let url = format!("ws://{}/ws/{table}", server.addr);
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

async fn send(socket: &mut Socket, message: Value) {
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .unwrap();
}

/// The next JSON message, or none within `wait`.
async fn next(socket: &mut Socket, wait: Duration) -> Option<Value> {
    loop {
        match tokio::time::timeout(wait, socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                return Some(serde_json::from_str(text.as_str()).unwrap())
            }
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) | Err(_) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// Messages until one of `kind` arrives.
async fn until(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let message = next(socket, Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("no {kind} message"));
        if message["type"] == kind {
            return message;
        }
    }
}

const VARIANTS: [(&str, &str, usize); 5] = [
    ("kaibosh", "standard", 4),
    ("bid-euchre", "alexa", 4),
    ("bid-euchre", "simplified", 4),
    ("kout", "kout6", 6),
    ("kout", "kout4", 4),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_bots_finish_a_game_of_every_variant_and_the_record_replays() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, Duration::from_secs(60)).await;
    for (game, variant, seats) in VARIANTS {
        let created = create(&server, json!({ "game": game, "variant": variant })).await;
        let seat_links = links(&created);
        assert_eq!(seat_links.len(), seats);
        let players: Vec<_> = seat_links
            .into_iter()
            .enumerate()
            .map(|(i, link)| {
                tokio::spawn(async move {
                    play_seat(&link, "rules", i as u64, Duration::from_secs(10)).await
                })
            })
            .collect();
        let mut finals = Vec::new();
        for player in players {
            finals.push(player.await.unwrap().unwrap());
        }
        let id = created["id"].as_str().unwrap();
        let (status, body) = http(&server, "GET", &format!("/api/tables/{id}/record"), None).await;
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

/// The cards `seat` (or a spectator: `None`) may know in `game`.
fn known(game: &AnyGame, seat: Option<Seat>) -> CardBag {
    let observation = game.observation(seat.unwrap_or(Seat(0)));
    let mut known = CardBag::EMPTY;
    if seat.is_some() {
        observation.dealt.iter().for_each(|c| {
            known.insert(c);
        });
    }
    for (_, seen) in &observation.actions {
        let cards: Vec<Card> = match seen {
            SeenAction::Open(Action::Play(card)) => vec![*card],
            SeenAction::Open(Action::Give(p) | Action::Discard(p)) if seat.is_some() => {
                p.cards().to_vec()
            }
            _ => vec![],
        };
        cards.into_iter().for_each(|c| {
            known.insert(c);
        });
    }
    known
}

fn cards_named(value: &Value, out: &mut Vec<Card>) {
    match value {
        Value::String(text) => out.extend(text.split(' ').filter_map(|w| w.parse::<Card>().ok())),
        Value::Array(items) => items.iter().for_each(|v| cards_named(v, out)),
        Value::Object(map) => map.values().for_each(|v| cards_named(v, out)),
        _ => {}
    }
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
        let deal: Vec<CardBag> = hand
            .deal
            .iter()
            .map(|cards| cards.iter().map(|c| c.parse::<Card>().unwrap()).collect())
            .collect();
        game.deal(&deal).unwrap();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_to_any_seat_or_spectator_carries_a_card_it_may_not_know() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, Duration::from_secs(60)).await;
    for (round, (game, variant, seats)) in VARIANTS.iter().chain(VARIANTS.iter()).enumerate() {
        // Short games: a few deals where the game has a deal count.
        let options = match *game {
            "kaibosh" => json!({"deals": 3}),
            "bid-euchre" => json!({"deals": 4}),
            _ => json!({}),
        };
        let created = create(
            &server,
            json!({ "game": game, "variant": variant, "options": options }),
        )
        .await;
        let id = created["id"].as_str().unwrap().to_string();
        // A spectator records everything it receives.
        let mut watcher = connect(&server, &id).await;
        send(&mut watcher, json!({"type": "hello"})).await;
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
            let mut socket = connect(&server, &id).await;
            send(&mut socket, json!({"type": "hello", "token": link.token})).await;
            players.push(tokio::spawn(async move {
                let mut seen = Vec::new();
                let mut answered = 0;
                while let Some(message) = next(&mut socket, Duration::from_secs(20)).await {
                    let over = message["type"] == "status" && message["status"] == "over";
                    if let Some(view) = message.get("view") {
                        let version = message["version"].as_u64().unwrap();
                        let legal = view["legal"].as_array().unwrap();
                        if !legal.is_empty() && version > answered {
                            answered = version;
                            let pick = &legal[(round + s + version as usize) % legal.len()];
                            send(
                                &mut socket,
                                json!({"type": "act", "version": version, "action": pick}),
                            )
                            .await;
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
        let (_, body) = http(&server, "GET", &format!("/api/tables/{id}/record"), None).await;
        let record = Record::parse(&body).unwrap();
        assert!(
            record.replay().unwrap().0.finished,
            "{game} {variant}: {body}"
        );
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
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_is_replaced_by_a_bot_after_the_grace_and_gets_the_seat_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, Duration::from_millis(300)).await;
    let created = create(
        &server,
        json!({"game": "kaibosh", "seats": ["open", "bot:rules", "bot:rules", "bot:rules"]}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let token = created["invites"][0]["token"].as_str().unwrap().to_string();
    let mut socket = connect(&server, id).await;
    send(
        &mut socket,
        json!({"type": "hello", "token": token, "name": "Ann"}),
    )
    .await;
    let welcome = until(&mut socket, "welcome").await;
    assert_eq!(welcome["seat"], 0);
    // Every person's seat is taken: the game starts.
    until(&mut socket, "status").await;
    drop(socket);
    // Watch the table: a countdown, then a bot stands in and the game moves on.
    let mut watcher = connect(&server, id).await;
    send(&mut watcher, json!({"type": "hello"})).await;
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
    let mut socket = connect(&server, id).await;
    send(&mut socket, json!({"type": "hello", "token": token})).await;
    let seats = until(&mut socket, "seats").await;
    assert_eq!(seats["seats"][0]["bot_standing_in"], false);
    assert_eq!(seats["seats"][0]["connected"], true);
    assert_eq!(seats["seats"][0]["name"], "Ann");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_a_clear_error_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, Duration::from_secs(60)).await;
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

    let created = create(
        &server,
        json!({"game": "kaibosh", "seats": ["open", "bot:random", "bot:random", "bot:random"]}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let token = created["invites"][0]["token"].as_str().unwrap();
    let mut socket = connect(&server, id).await;
    // Before hello: only hello.
    send(
        &mut socket,
        json!({"type": "act", "version": 1, "action": "pass"}),
    )
    .await;
    assert!(until(&mut socket, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("hello"));
    socket
        .send(Message::Text("{not json".into()))
        .await
        .unwrap();
    assert!(until(&mut socket, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("not a message"));
    send(&mut socket, json!({"type": "hello", "token": token})).await;
    let mut version = 0;
    let mut legal = Vec::new();
    // Wait until it is seat 0's turn.
    while legal.is_empty() {
        let message = next(&mut socket, Duration::from_secs(10))
            .await
            .expect("seat 0's turn");
        if let Some(view) = message.get("view") {
            version = message["version"].as_u64().unwrap();
            legal = view["legal"].as_array().unwrap().clone();
        }
    }
    // A stale version, a card not held, a malformed action, a host's command.
    send(
        &mut socket,
        json!({"type": "act", "version": version - 1, "action": legal[0]}),
    )
    .await;
    assert!(until(&mut socket, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("stale version"));
    send(
        &mut socket,
        json!({"type": "act", "version": version, "action": "play 7X"}),
    )
    .await;
    assert!(until(&mut socket, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("not an action"));
    send(
        &mut socket,
        json!({"type": "act", "version": version, "action": "kaibosh kaibosh"}),
    )
    .await;
    until(&mut socket, "error").await;
    send(&mut socket, json!({"type": "end"})).await;
    assert!(until(&mut socket, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("host"));
    // Chat is text: markup comes back as the same text; too long is refused.
    send(&mut socket, json!({"type": "chat", "text": "<b>hi</b>"})).await;
    assert_eq!(until(&mut socket, "chat").await["body"], "<b>hi</b>");
    tokio::time::sleep(Duration::from_millis(600)).await;
    send(
        &mut socket,
        json!({"type": "chat", "text": "x".repeat(501)}),
    )
    .await;
    assert!(until(&mut socket, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("at most"));
    // Nothing changed: the legal action still answers the same version.
    send(
        &mut socket,
        json!({"type": "act", "version": version, "action": legal[0]}),
    )
    .await;
    let update = until(&mut socket, "update").await;
    assert_eq!(update["version"].as_u64().unwrap(), version + 1);
    // A spectator may not act; a foreign token is refused.
    let mut watcher = connect(&server, id).await;
    send(&mut watcher, json!({"type": "hello"})).await;
    until(&mut watcher, "welcome").await;
    send(
        &mut watcher,
        json!({"type": "act", "version": version + 1, "action": "pass"}),
    )
    .await;
    assert!(until(&mut watcher, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("seated"));
    let mut stranger = connect(&server, id).await;
    send(
        &mut stranger,
        json!({"type": "hello", "token": "00000000000000000000000000000000"}),
    )
    .await;
    assert!(until(&mut stranger, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("token"));
    // An oversized message closes the connection.
    let mut big = connect(&server, id).await;
    big.send(Message::Text("x".repeat(100_000).into()))
        .await
        .unwrap();
    assert!(next(&mut big, Duration::from_secs(5)).await.is_none());
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_resumes_its_tables() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, Duration::from_secs(60)).await;
    let created = create(&server, json!({"game": "kout", "variant": "kout4"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let seat_links = links(&created);
    // Two seats play; the others join later.
    let mut socket = connect(&server, &id).await;
    send(
        &mut socket,
        json!({"type": "hello", "token": seat_links[0].token}),
    )
    .await;
    until(&mut socket, "welcome").await;
    let (_, list) = http(&server, "GET", "/api/tables", None).await;
    assert!(list.contains(&id), "{list}");
    server.stop().await.unwrap();
    // Back on the same database: the table is there, and bots at links finish it.
    let server = start_server(&dir, Duration::from_secs(60)).await;
    let (_, list) = http(&server, "GET", "/api/tables", None).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_tables_deal_committed_hands_that_verify() {
    use calltrump_engine::fair_deal::{verify, DealSource};
    let dir = tempfile::tempdir().unwrap();
    let server = start_with_seed(&dir, Duration::from_secs(60), None).await;
    for (game, variant, _) in VARIANTS {
        let options = match game {
            "kaibosh" => json!({"deals": 3}),
            "bid-euchre" => json!({"deals": 3}),
            _ => json!({}),
        };
        let created = create(
            &server,
            json!({"game": game, "variant": variant, "options": options}),
        )
        .await;
        let players: Vec<_> = links(&created)
            .into_iter()
            .enumerate()
            .map(|(i, link)| {
                tokio::spawn(async move {
                    play_seat(&link, "random", i as u64, Duration::from_secs(10)).await
                })
            })
            .collect();
        for player in players {
            let finished = player.await.unwrap().unwrap();
            let check = finished
                .state
                .deal_check
                .expect("the last hand's deal check");
            assert!(check.seed.is_some(), "the last seed is revealed");
        }
        let id = created["id"].as_str().unwrap();
        let (_, body) = http(&server, "GET", &format!("/api/tables/{id}/record"), None).await;
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
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, Duration::from_secs(60)).await;
    let created = create(
        &server,
        json!({"game": "kaibosh", "seats": ["open", "open", "bot:random", "bot:random"]}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let seat_token = created["invites"][0]["token"].as_str().unwrap();
    let host_token = created["host_token"].as_str().unwrap();
    // A wrong host token leaves the seat a plain seat.
    let mut guest = connect(&server, id).await;
    send(
        &mut guest,
        json!({"type": "hello", "token": seat_token, "host": "not-the-host"}),
    )
    .await;
    let welcome = until(&mut guest, "welcome").await;
    assert_eq!(
        (welcome["seat"].clone(), welcome["host"].clone()),
        (json!(0), json!(false))
    );
    send(&mut guest, json!({"type": "start"})).await;
    assert!(until(&mut guest, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("only the host"));
    drop(guest);

    let mut host = connect(&server, id).await;
    send(
        &mut host,
        json!({"type": "hello", "token": seat_token, "host": host_token}),
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
