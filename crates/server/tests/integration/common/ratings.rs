//! A rated game over real sockets and HTTP, on either backend: only a signed-in host
//! makes a rated table and only signed-in people sit at it; at the game's end both
//! people's ratings move as Weng-Lin says (the bots at their anchors), before anyone is
//! told the game is over; the players' pages and the leaderboard show them; a game a
//! stop left unrated is rated at the next start.

use std::time::Duration;

use calltrump_engine::{Outcome, Record, Seat};
use calltrump_server::rating::anchors::anchor;
use serde_json::{json, Value};
use skillratings::weng_lin::{weng_lin_two_teams, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

use super::account_seats::{call, hello_as, sign_up};
use super::{
    error_saying, record_of, seeded_hub, send as send_to, server_on, start_on, until, Backend,
};

fn weng_lin(family: &str, level: &str) -> WengLinRating {
    let rating = anchor(family, level);
    WengLinRating {
        rating: rating.mu,
        uncertainty: rating.sigma,
    }
}

pub async fn a_rated_game_moves_both_players_ratings_before_its_end_is_told(backend: Backend) {
    // No grace: once the people leave, bots stand in and the game runs to its end.
    let (database, server) = server_on(backend, seeded_hub(13, Duration::ZERO)).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let bob = sign_up(addr, "Bob").await;
    let table = json!({ "game": "kaibosh", "options": { "deals": 1 }, "rated": true,
                        "seats": ["open", "open", "bot:easy", "bot:medium"] });

    // Only a signed-in host makes a rated table, and it gives no hints.
    let (status, _, refused) = call(addr, "POST", "/api/tables", None, Some(table.clone())).await;
    assert_eq!(status, 401, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("signed-in host"),
        "{refused}"
    );
    let mut hinted = table.clone();
    hinted["hints"] = json!(true);
    let (status, _, refused) = call(addr, "POST", "/api/tables", Some(&ann), Some(hinted)).await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("no hints"),
        "{refused}"
    );
    // A bot without a measured rating would hand out points: not at a rated table.
    let mut random = table.clone();
    random["seats"][3] = json!("bot:random");
    let (status, _, refused) = call(addr, "POST", "/api/tables", Some(&ann), Some(random)).await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("seat 3 is bot:random"),
        "{refused}"
    );
    let (status, _, created) = call(addr, "POST", "/api/tables", Some(&ann), Some(table)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = |seat: usize| {
        created["invites"][seat]["token"]
            .as_str()
            .unwrap()
            .to_string()
    };

    // A guest with a seat's link is refused; a spectator may watch.
    let mut guest = hello_as(&server, id, None, json!({ "token": token(1) })).await;
    error_saying(&mut guest, "seat_taken", "rated table: sign in").await;
    let mut watcher = hello_as(&server, id, None, json!({})).await;
    until(&mut watcher, "welcome").await;

    let mut first = hello_as(&server, id, Some(&ann), json!({ "token": token(0) })).await;
    assert_eq!(until(&mut first, "welcome").await["seat"], 0);
    let mut second = hello_as(&server, id, Some(&bob), json!({ "token": token(1) })).await;
    assert_eq!(until(&mut second, "welcome").await["seat"], 1);
    drop((first, second));
    loop {
        let status = until(&mut watcher, "status").await;
        if status["status"] == "over" {
            break;
        }
    }

    // Told the game is over: the ratings are kept already.
    let (_, body) = record_of(&server, id).await;
    let (replay, _) = Record::parse(&body).unwrap().replay().unwrap();
    let outcome = replay.winner.expect("the game is over");
    let (ann_team, bob_team) = (
        [WengLinRating::new(), weng_lin("kaibosh", "easy")],
        [WengLinRating::new(), weng_lin("kaibosh", "medium")],
    );
    let ((ann_after, bob_after), ann_won) = match outcome {
        Outcome::Winner(team) if team == Seat(0).team() => {
            let (a, b) =
                weng_lin_two_teams(&ann_team, &bob_team, &Outcomes::WIN, &WengLinConfig::new());
            ((a[0], b[0]), Some(true))
        }
        Outcome::Winner(_) => {
            let (b, a) =
                weng_lin_two_teams(&bob_team, &ann_team, &Outcomes::WIN, &WengLinConfig::new());
            ((a[0], b[0]), Some(false))
        }
        Outcome::Draw => {
            let (a, b) =
                weng_lin_two_teams(&ann_team, &bob_team, &Outcomes::DRAW, &WengLinConfig::new());
            ((a[0], b[0]), None)
        }
    };
    for (name, after) in [("ann", ann_after), ("bob", bob_after)] {
        let (status, _, page) =
            call(addr, "GET", &format!("/api/players/{name}"), None, None).await;
        assert_eq!(status, 200, "{page}");
        let rating = &page["ratings"][0];
        assert_eq!(rating["family"], "kaibosh", "{page}");
        assert_eq!(rating["games"], 1);
        assert!(
            (rating["mu"].as_f64().unwrap() - after.rating).abs() < 1e-9,
            "{page} {after:?}"
        );
        assert!((rating["sigma"].as_f64().unwrap() - after.uncertainty).abs() < 1e-9);
        // One game says too little to compare with the bots.
        assert_eq!(rating["level"], serde_json::Value::Null, "{page}");
        assert!(rating["games_to_compare"].as_i64().unwrap() > 1, "{page}");
        assert_eq!(rating["bots"].as_array().unwrap().len(), 4, "{page}");
        let history = page["rating_history"].as_array().unwrap();
        assert_eq!(history.len(), 1, "{page}");
        assert_eq!(history[0]["table"], id);
        assert_eq!(history[0]["mu"], rating["mu"]);
    }
    if let Some(ann_won) = ann_won {
        assert_eq!(ann_after.rating > 25.0, ann_won);
        assert_eq!(bob_after.rating > 25.0, !ann_won);
    }

    // The leaderboard: nobody with the default minimum of games, both with one.
    let (status, _, board) = call(addr, "GET", "/api/leaderboard/kaibosh", None, None).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["players"], json!([]));
    assert_eq!(board["bots"].as_array().unwrap().len(), 4);
    let (_, _, board) = call(
        addr,
        "GET",
        "/api/leaderboard/kaibosh?min_games=1",
        None,
        None,
    )
    .await;
    let names: Vec<&Value> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["name"])
        .collect();
    assert_eq!(names.len(), 2, "{board}");
    let (status, _, unknown) = call(addr, "GET", "/api/leaderboard/chess", None, None).await;
    assert_eq!(status, 404, "{unknown}");
    let (status, _, bad) = call(addr, "GET", "/api/leaderboard/kout?min_games=0", None, None).await;
    assert_eq!(status, 400, "{bad}");

    // A stop between the game's end and its rating (the rating's rows taken out, as if
    // never written): the next start rates the game, the same.
    let (_, _, page) = call(addr, "GET", "/api/players/ann", None, None).await;
    server.stop().await.unwrap();
    forget_ratings(backend, &database.url).await;
    let server = start_on(&database.url, seeded_hub(13, Duration::ZERO)).await;
    let (_, _, again) = call(server.addr, "GET", "/api/players/ann", None, None).await;
    assert_eq!(again["ratings"], page["ratings"], "{again}");
    assert_eq!(
        again["rating_history"].as_array().unwrap().len(),
        1,
        "{again}"
    );
    server.stop().await.unwrap();
}

/// Deletes every rating, rating history and record of a rated game from the database.
async fn forget_ratings(backend: Backend, url: &str) {
    const FORGET: [&str; 3] = [
        "DELETE FROM rating_history",
        "DELETE FROM ratings",
        "DELETE FROM rated_games",
    ];
    match backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(url).await.unwrap();
            for sql in FORGET {
                sqlx::query(sql).execute(&pool).await.unwrap();
            }
            pool.close().await;
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(url).await.unwrap();
            for sql in FORGET {
                sqlx::query(sql).execute(&pool).await.unwrap();
            }
            pool.close().await;
        }
    }
}

/// The two ways a host dodged a rated game are refused: giving their own seat to a bot
/// once the game has started (before it, handing seats on is fine), and one account
/// sitting at a second seat. The host's account is rated at the end all the same.
pub async fn a_rated_seat_stays_its_persons_and_an_account_holds_one_seat(backend: Backend) {
    // No grace: once the people leave, bots stand in and the game runs to its end.
    let (_database, server) = server_on(backend, seeded_hub(17, Duration::ZERO)).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let bob = sign_up(addr, "Bob").await;
    let table = json!({ "game": "kaibosh", "options": { "deals": 1 }, "rated": true,
                        "seats": ["open", "open", "open", "bot:medium"] });
    let (status, _, created) = call(addr, "POST", "/api/tables", Some(&ann), Some(table)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let host = created["host_token"].as_str().unwrap();
    let token = |seat: usize| {
        created["invites"][seat]["token"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut hosting = hello_as(
        &server,
        id,
        Some(&ann),
        json!({ "token": token(0), "host": host }),
    )
    .await;
    assert_eq!(until(&mut hosting, "welcome").await["seat"], 0);

    // Ann's account at a second seat (of the other team, or her partner's): refused.
    for seat in [1, 2] {
        let mut again = hello_as(&server, id, Some(&ann), json!({ "token": token(seat) })).await;
        error_saying(
            &mut again,
            "seat_taken",
            "holds seat 0 already: one account, one seat",
        )
        .await;
    }

    // Before the start the host may still hand a seat on.
    send_to(
        &mut hosting,
        json!({"type": "set-seat", "seat": 2, "sitter": "bot:easy"}),
    )
    .await;
    loop {
        let seats = until(&mut hosting, "seats").await;
        if seats["seats"][2]["sitter"] == "bot:easy" {
            break;
        }
    }
    let mut second = hello_as(&server, id, Some(&bob), json!({ "token": token(1) })).await;
    assert_eq!(until(&mut second, "welcome").await["seat"], 1);
    loop {
        let status = until(&mut hosting, "status").await;
        if status["status"] == "playing" {
            break;
        }
    }

    // Started: neither her own seat nor Bob's goes to a bot or to a new link.
    for (seat, sitter) in [(0, "bot:hard"), (0, "open"), (1, "bot:easy"), (1, "open")] {
        send_to(
            &mut hosting,
            json!({"type": "set-seat", "seat": seat, "sitter": sitter}),
        )
        .await;
        error_saying(
            &mut hosting,
            "status",
            "the table is rated and its game has started",
        )
        .await;
    }
    // Her link still seats her: her seat was not handed on.
    let mut back = hello_as(&server, id, Some(&ann), json!({ "token": token(0) })).await;
    assert_eq!(until(&mut back, "welcome").await["seat"], 0);

    // Everyone leaves: the stand-in bots finish the game, rated as the two accounts.
    let mut watcher = hello_as(&server, id, None, json!({})).await;
    until(&mut watcher, "welcome").await;
    drop((hosting, second, back));
    loop {
        let status = until(&mut watcher, "status").await;
        if status["status"] == "over" {
            break;
        }
    }
    for name in ["ann", "bob"] {
        let (status, _, page) =
            call(addr, "GET", &format!("/api/players/{name}"), None, None).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["ratings"][0]["games"], 1, "{page}");
        let history = page["rating_history"].as_array().unwrap();
        assert_eq!(history.len(), 1, "{page}");
        assert_eq!(history[0]["table"], id, "{page}");
    }
    server.stop().await.unwrap();
}

/// A night's view for the player of token `player`, polled until `done` says so.
async fn night_until(
    addr: std::net::SocketAddr,
    path: &str,
    mut done: impl FnMut(&Value) -> bool,
) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (status, _, view) = call(addr, "GET", path, None, None).await;
        assert_eq!(status, 200, "{view}");
        if done(&view) {
            return view;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the night stalls: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub async fn a_rated_night_rates_each_person_from_each_set(backend: Backend) {
    // No grace: once the people leave a set, bots stand in and play it to its end.
    let (_database, server) = server_on(backend, seeded_hub(17, Duration::ZERO)).await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann").await;
    let bob = sign_up(addr, "Bob").await;
    let night = |people: [&str; 2]| {
        json!({ "sets": 2, "rated": true, "players": [
            { "name": people[0] }, { "name": people[1] },
            { "name": "Cy", "sitter": "bot:easy" }, { "name": "Di", "sitter": "bot:easy" },
        ] })
    };

    // Refused, saying why: no signed-in host, a person with no account, one account twice.
    for (host, people, status_wanted, says) in [
        (None, ["Ann", "Bob"], 401, "signed-in host"),
        (
            Some(ann.as_str()),
            ["Ann", "Zed"],
            400,
            "player 2: no account is called \"Zed\"",
        ),
        (
            Some(ann.as_str()),
            ["Ann", "ann"],
            400,
            "one account, one player",
        ),
    ] {
        let (status, _, refused) =
            call(addr, "POST", "/api/nights", host, Some(night(people))).await;
        assert_eq!(status, status_wanted, "{refused}");
        assert!(
            refused["error"].as_str().unwrap().contains(says),
            "{refused}"
        );
    }
    let mut random = night(["Ann", "Bob"]);
    random["players"][3]["sitter"] = json!("bot:random");
    let (status, _, refused) = call(addr, "POST", "/api/nights", Some(&ann), Some(random)).await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("player 4: Di is bot:random"),
        "{refused}"
    );
    let (_, _, nights) = call(addr, "GET", "/api/nights", None, None).await;
    assert_eq!(nights["nights"], json!([]), "nothing started: {nights}");

    let (status, _, created) = call(
        addr,
        "POST",
        "/api/nights",
        Some(&ann),
        Some(night(["Ann", "bob"])),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let token = |i: usize| created["players"][i]["token"].as_str().unwrap().to_string();
    let night_id = created["id"].as_str().unwrap().to_string();
    let sessions = [ann.clone(), bob.clone()];
    for set in 0..2 {
        let mut sockets = Vec::new();
        for (player, session) in sessions.iter().enumerate() {
            let path = format!("/api/nights/{night_id}?player={}", token(player));
            let view = night_until(addr, &path, |v| {
                v["set"] == set && v["you"]["link"].is_string()
            })
            .await;
            let link = view["you"]["link"].as_str().unwrap();
            let (table, seat_token) = link
                .trim_start_matches("/table/")
                .split_once("#token=")
                .unwrap_or_else(|| panic!("a seat's link: {link}"));
            // A guest with the seat's link is refused: the set is rated.
            if set == 0 && player == 0 {
                let mut guest =
                    hello_as(&server, table, None, json!({ "token": seat_token })).await;
                error_saying(&mut guest, "seat_taken", "rated table: sign in").await;
            }
            let mut socket = hello_as(
                &server,
                table,
                Some(session),
                json!({ "token": seat_token }),
            )
            .await;
            assert_eq!(until(&mut socket, "welcome").await["rated"], true);
            sockets.push(socket);
        }
        drop(sockets);
        let path = format!("/api/nights/{night_id}?player={}", token(0));
        night_until(addr, &path, |v| v["sheet"]["sets_recorded"] == set + 1).await;
    }
    let path = format!("/api/nights/{night_id}?player={}", token(0));
    let view = night_until(addr, &path, |v| v["status"] == "over").await;
    let tables: Vec<String> = view["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    assert_eq!(tables.len(), 2);
    // A set's table names its night, also opened after the night moved on.
    let mut late = hello_as(&server, &tables[0], None, json!({})).await;
    assert_eq!(until(&mut late, "welcome").await["night"], night_id);

    // Each person's Bid Euchre rating moved once a set, up after a set won and down
    // after one lost.
    for (i, name) in ["Ann", "Bob"].into_iter().enumerate() {
        let (status, _, page) =
            call(addr, "GET", &format!("/api/players/{name}"), None, None).await;
        assert_eq!(status, 200, "{page}");
        let rating = &page["ratings"][0];
        assert_eq!(rating["family"], "bid-euchre", "{page}");
        assert_eq!(rating["games"], 2, "{page}");
        let history = page["rating_history"].as_array().unwrap();
        let rated: Vec<&str> = history
            .iter()
            .map(|p| p["table"].as_str().unwrap())
            .collect();
        assert_eq!(rated, tables, "one point a set, in order: {page}");
        // Each game says it was rated and which night it was a set of.
        for game in page["games"].as_array().unwrap() {
            assert_eq!(game["rated"], true, "{game}");
            assert_eq!(game["night"], night_id, "{game}");
        }
        let mut before = WengLinRating::new().rating;
        for (set, point) in history.iter().enumerate() {
            let (_, body) = record_of(&server, &tables[set]).await;
            let (replay, _) = Record::parse(&body).unwrap().replay().unwrap();
            let seat = calltrump_engine::night::set_table(4, set)
                .seat_of(i)
                .map(|s| Seat(s as u8))
                .expect("four players: nobody sits out");
            let after = point["mu"].as_f64().unwrap();
            match replay.winner.expect("each set is over") {
                Outcome::Winner(team) if team == seat.team() => {
                    assert!(after > before, "{name} won set {set}: {before} -> {after}")
                }
                Outcome::Winner(_) => {
                    assert!(after < before, "{name} lost set {set}: {before} -> {after}")
                }
                Outcome::Draw => {}
            }
            before = after;
        }
    }
}
