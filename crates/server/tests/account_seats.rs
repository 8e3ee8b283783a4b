//! Seats bound to accounts and the players' pages over real sockets and HTTP, on SQLite
//! (`tests/postgres.rs` runs the same on PostgreSQL).

mod common;

use common::{account_seats, Backend};

#[tokio::test]
async fn a_seat_taken_signed_in_is_the_accounts_alone_from_any_device() {
    account_seats::a_seat_taken_signed_in_is_the_accounts_alone_from_any_device(Backend::Sqlite)
        .await;
}

#[tokio::test]
async fn a_players_page_counts_their_games_and_shows_them_their_unfinished_ones() {
    account_seats::a_players_page_counts_their_games_and_shows_them_their_unfinished_ones(
        Backend::Sqlite,
    )
    .await;
}
