//! A rated game over real sockets and HTTP on SQLite (`postgres.rs` runs the same
//! on PostgreSQL).

use crate::common;

use common::{ratings, Backend};

#[tokio::test]
async fn a_rated_game_moves_both_players_ratings_before_its_end_is_told() {
    ratings::a_rated_game_moves_both_players_ratings_before_its_end_is_told(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_rated_seat_stays_its_persons_and_an_account_holds_one_seat() {
    ratings::a_rated_seat_stays_its_persons_and_an_account_holds_one_seat(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_night_rates_each_person_from_each_set() {
    ratings::a_rated_night_rates_each_person_from_each_set(Backend::Sqlite).await;
}

/// A rated table's partners and opponents are what is rated: before the start its host
/// may hand a seat only to the bots a rated table takes at creation; once started, no
/// seat changes hands (not even a bot's, to a weaker or unmeasured one), and the game
/// stays as it was. An unrated table's host still gives a bot's seat to any bot.
#[tokio::test]
async fn a_rated_tables_bots_stay_the_measured_ones_it_started_with() {
    use crate::common::account_seats::{call, hello_as, sign_up};
    use crate::common::{error_saying, seeded_hub, send, server_in_temp, until};
    use serde_json::json;

    let (_dir, server) = server_in_temp(seeded_hub(5, std::time::Duration::from_secs(5))).await;
    let ann = sign_up(server.addr, "Ann").await;
    let seat_to =
        |seat: usize, sitter: &str| json!({"type": "set-seat", "seat": seat, "sitter": sitter});
    for rated in [true, false] {
        let table = json!({"game": "kaibosh", "rated": rated, "host_seat": 0,
                           "seats": ["open", "open", "bot:medium", "bot:medium"]});
        let (status, _, created) =
            call(server.addr, "POST", "/api/tables", Some(&ann), Some(table)).await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap();
        let host = created["host_token"].as_str().unwrap();
        let mut hosting = hello_as(&server, id, Some(&ann), json!({"host": host, "seat": 0})).await;
        assert_eq!(until(&mut hosting, "welcome").await["seat"], 0);
        if rated {
            // Before the start: an unmeasured bot is refused, as at creation.
            for sitter in ["bot:random", "bot:ismcts:1"] {
                send(&mut hosting, seat_to(2, sitter)).await;
                error_saying(&mut hosting, "bad_seat", "a rated table's bots are easy").await;
            }
        }
        // A measured level is fine before the start.
        send(&mut hosting, seat_to(1, "bot:easy")).await;
        while until(&mut hosting, "seats").await["seats"][1]["sitter"] != "bot:easy" {}
        if rated {
            // But not the last person's seat: a rated table rates people.
            send(&mut hosting, seat_to(0, "bot:hard")).await;
            error_saying(&mut hosting, "bad_seat", "needs a person's seat").await;
        }
        send(&mut hosting, json!({"type": "start"})).await;
        while until(&mut hosting, "status").await["status"] != "playing" {}
        let after_start = ["bot:random", "bot:ismcts:1", "bot:expert"];
        for sitter in after_start {
            send(&mut hosting, seat_to(1, sitter)).await;
            if rated {
                let says = "the table is rated and its game has started";
                error_saying(&mut hosting, "status", says).await;
            } else {
                while until(&mut hosting, "seats").await["seats"][1]["sitter"] != sitter {}
            }
        }
        if rated {
            // Nor is the bot's seat opened for a person, nor the host's own handed on.
            for (seat, sitter) in [(1, "open"), (0, "bot:expert"), (0, "open")] {
                send(&mut hosting, seat_to(seat, sitter)).await;
                let says = "the table is rated and its game has started";
                error_saying(&mut hosting, "status", says).await;
            }
        }
        // Whoever comes to look sees the seats as they are.
        let mut watcher = hello_as(&server, id, None, json!({})).await;
        let seats = until(&mut watcher, "seats").await;
        let kept = if rated { "bot:easy" } else { "bot:expert" };
        assert_eq!(seats["seats"][1]["sitter"], kept, "{seats}");
    }
    server.stop().await.unwrap();
}
