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
