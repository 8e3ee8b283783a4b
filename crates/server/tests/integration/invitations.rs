//! Who is online and invitations by name over real sockets and HTTP, on SQLite
//! (`postgres.rs` runs the same on PostgreSQL).

use crate::common;

use common::{invitations, leaving, Backend};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_shows_who_is_online_and_a_host_invites_a_player_by_name() {
    invitations::the_lobby_shows_who_is_online_and_a_host_invites_a_player_by_name(Backend::Sqlite)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_is_declined_a_seat_left_and_a_table_closed_before_the_start() {
    leaving::an_invitation_is_declined_a_seat_left_and_a_table_closed_before_the_start(
        Backend::Sqlite,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_rates_no_account_that_declined_or_never_took_its_seat() {
    leaving::a_rated_game_rates_no_account_that_declined_or_never_took_its_seat(Backend::Sqlite)
        .await;
}
