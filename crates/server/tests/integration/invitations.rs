//! Who is online and invitations by name over real sockets and HTTP, on SQLite
//! (`postgres.rs` runs the same on PostgreSQL).

use crate::common;

use common::{invitations, Backend};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_shows_who_is_online_and_a_host_invites_a_player_by_name() {
    invitations::the_lobby_shows_who_is_online_and_a_host_invites_a_player_by_name(Backend::Sqlite)
        .await;
}
