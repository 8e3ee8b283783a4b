//! The server on PostgreSQL: the `Store` contract and its leases, games of every
//! variant, the hidden-card property, a restart, two servers on one database, and the
//! start-up checks. Each test makes a database
//! of its own on the PostgreSQL named by `CALLTRUMP_TEST_POSTGRES` (`scripts/test.sh`
//! starts a throwaway one); without it, each test fails saying so.

use crate::common;

mod edge;

use std::time::Duration;

use common::{
    account_seats, http_at, invitations, leaving, ratings, readyz_until, scenarios, Backend,
    TestDatabase,
};
use sqlx::{Connection, PgConnection};

crate::store_contract_tests!(common::postgres_store());

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_bots_finish_a_game_of_every_variant_and_the_record_replays() {
    scenarios::join_bots_finish_a_game_of_every_variant_and_the_record_replays(Backend::Postgres)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_to_any_seat_or_spectator_carries_a_card_it_may_not_know() {
    scenarios::no_message_to_any_seat_or_spectator_carries_a_card_it_may_not_know(
        Backend::Postgres,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_resumes_its_tables() {
    scenarios::a_restarted_server_resumes_its_tables(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_taken_signed_in_is_the_accounts_alone_from_any_device() {
    account_seats::a_seat_taken_signed_in_is_the_accounts_alone_from_any_device(Backend::Postgres)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_counts_their_games_and_shows_them_their_unfinished_ones() {
    account_seats::a_players_page_counts_their_games_and_shows_them_their_unfinished_ones(
        Backend::Postgres,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_account_gets_its_skeleton_at_start_and_a_look_alike_is_refused() {
    account_seats::an_older_account_gets_its_skeleton_at_start_and_a_look_alike_is_refused(
        Backend::Postgres,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_night_rates_each_person_from_each_set() {
    ratings::a_rated_night_rates_each_person_from_each_set(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_shows_who_is_online_and_a_host_invites_a_player_by_name() {
    invitations::the_lobby_shows_who_is_online_and_a_host_invites_a_player_by_name(
        Backend::Postgres,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_is_declined_a_seat_left_and_a_table_closed_before_the_start() {
    leaving::an_invitation_is_declined_a_seat_left_and_a_table_closed_before_the_start(
        Backend::Postgres,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_rates_no_account_that_declined_or_never_took_its_seat() {
    leaving::a_rated_game_rates_no_account_that_declined_or_never_took_its_seat(Backend::Postgres)
        .await;
}

/// Starts a server on the PostgreSQL database `url`: the server, or the error as text.
async fn start(url: &str) -> Result<calltrump_server::RunningServer, String> {
    calltrump_server::start(calltrump_server::ServerConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        url,
        common::seeded_hub(1, Duration::from_secs(60)),
    ))
    .await
    .map_err(|e| e.to_string())
}

/// Two servers on one database are two nodes of a cluster: a table made on the first is
/// listed by the second's lobby, and bots at its seat links, all through the second,
/// finish its game there (their sockets relayed to the first, which runs it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_database_share_its_tables() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let first = common::start_on(
        &database.url,
        common::seeded_hub(1, Duration::from_secs(60)),
    )
    .await;
    let second = common::start_on(
        &database.url,
        common::seeded_hub(1, Duration::from_secs(60)),
    )
    .await;
    let created = common::create(
        &first,
        serde_json::json!({ "game": "kaibosh", "options": { "deals": 1 } }),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    // The first node publishes its lobby with its leases' renewal (a fifth of a lease).
    let listed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let (_, body) = http_at(second.addr, "GET", "/api/tables", None).await;
            if body.contains(&id) {
                return body;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the second node lists the first's table");
    assert!(listed.contains("kaibosh"), "{listed}");
    let through_second: Vec<_> = common::links(&created)
        .into_iter()
        .map(|mut link| {
            link.base = second.addr.to_string();
            link
        })
        .collect();
    let finals = common::play_every_seat(through_second, "rules").await;
    assert!(finals.iter().all(|f| f.actions > 0));
    let metrics = |server: &calltrump_server::RunningServer| {
        let addr = server.addr;
        async move { http_at(addr, "GET", "/metrics", None).await.1 }
    };
    assert!(
        metrics(&second)
            .await
            .contains("calltrump_relayed_sockets_total 4"),
        "the second node relayed the four seats"
    );
    // The game ran on the first: its record there is the finished game.
    let (status, body) = common::record_of(&first, &id).await;
    assert_eq!(status, 200);
    let record = calltrump_engine::Record::parse(&body).unwrap();
    assert!(record.replay().unwrap().0.finished);
    second.stop().await.unwrap();
    first.stop().await.unwrap();
}

/// Who is online on either of two nodes is listed by both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_is_online_on_one_node_is_listed_by_every_node() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let hub = || common::seeded_hub(1, Duration::from_secs(60));
    let first = common::start_on(&database.url, hub()).await;
    let second = common::start_on(&database.url, hub()).await;
    invitations::who_is_online_on_one_node_is_listed_by_every_node(first.addr, second.addr).await;
    second.stop().await.unwrap();
    first.stop().await.unwrap();
}

/// A socket through node `via` to table `id`, from the client address `client` as a
/// proxy in front names it (`X-Real-IP`), past its welcome.
async fn spectator_as(
    via: &calltrump_server::RunningServer,
    id: &str,
    client: &str,
) -> common::Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/ws/{id}", via.addr)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("x-real-ip", client.parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    common::send(&mut socket, serde_json::json!({"type": "hello"})).await;
    common::until(&mut socket, "welcome").await;
    socket
}

/// A relayed socket carries its client's address to the node that runs its table: the
/// owner's per-address chat limit counts each client behind the relaying node on its
/// own, not all of them as that node's one address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayed_socket_is_counted_under_its_clients_address() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let limits = calltrump_server::Limits {
        max_connections_per_address: 0,
        creates_per_minute: 0,
        client_address_header: Some("X-Real-IP".into()),
        ..calltrump_server::Limits::default()
    };
    let (owner, relaying, id) = edge::two_nodes(&database, limits).await;
    // One client spends its address's burst of chat lines (10) over eleven sockets (a
    // socket says a line every half second at most): the eleventh line is refused.
    for i in 0..11 {
        let mut socket = spectator_as(&relaying, &id, "10.9.0.1").await;
        let line = serde_json::json!({"type": "chat", "text": format!("line {i}")});
        common::send(&mut socket, line).await;
        let answer = common::messages_before_pong(&mut socket).await;
        let refusal = answer.iter().find(|m| m["type"] == "error");
        if i < 10 {
            assert!(refusal.is_none(), "line {i}: {answer:?}");
        } else {
            let refusal = refusal.unwrap_or_else(|| panic!("line {i} passed: {answer:?}"));
            let message = refusal["message"].as_str().unwrap();
            assert!(message.contains("from your address"), "{message}");
        }
    }
    // Another client through the same node still has its own.
    let mut other = spectator_as(&relaying, &id, "10.9.0.2").await;
    common::send(
        &mut other,
        serde_json::json!({"type": "chat", "text": "mine"}),
    )
    .await;
    let answer = common::messages_before_pong(&mut other).await;
    assert!(
        answer.iter().all(|m| m["type"] != "error"),
        "the second client was refused: {answer:?}"
    );
    assert!(
        answer
            .iter()
            .any(|m| m["type"] == "chat" && m["body"] == "mine"),
        "{answer:?}"
    );
    let (_, metrics) = http_at(relaying.addr, "GET", "/metrics", None).await;
    assert!(
        metrics.contains("calltrump_relayed_sockets_total 12"),
        "{metrics}"
    );
    relaying.stop().await.unwrap();
    owner.stop().await.unwrap();
}

/// A night runs on one node of two (the second, started after it, does not run it too),
/// and when that node stops, the other takes the night over and finishes it: one table
/// per set, every set's result on the sheet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_night_runs_on_one_node_and_goes_on_on_another_when_it_stops() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let hub = || common::seeded_hub(3, Duration::from_secs(60));
    let first = common::start_on(&database.url, hub()).await;
    let players: Vec<_> = ["A", "B", "C", "D", "E"]
        .iter()
        .map(|name| serde_json::json!({"name": name, "sitter": "bot:random"}))
        .collect();
    let night = serde_json::json!({"players": players, "sets": 4, "unattended": true});
    let (status, body) = http_at(first.addr, "POST", "/api/nights", Some(&night.to_string())).await;
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let second = common::start_on(&database.url, hub()).await;
    let path = format!("/api/nights/{id}");
    let view = |addr| {
        let path = path.clone();
        async move {
            let (status, body) = http_at(addr, "GET", &path, None).await;
            assert_eq!(status, 200, "{body}");
            serde_json::from_str::<serde_json::Value>(&body).unwrap()
        }
    };
    let until = |addr, done: fn(&serde_json::Value) -> bool| async move {
        tokio::time::timeout(Duration::from_secs(90), async {
            loop {
                let seen = view(addr).await;
                if done(&seen) {
                    return seen;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
        .await
        .expect("the night goes on")
    };
    let started = until(second.addr, |v| {
        v["sheet"]["sets_recorded"].as_u64() >= Some(1)
    })
    .await;
    assert_eq!(started["status"], "playing", "{started}");
    first.stop().await.unwrap();
    let over = until(second.addr, |v| v["status"] == "over").await;
    assert_eq!(over["sheet"]["sets_recorded"], 4, "{over}");
    let tables = over["tables"].as_array().unwrap().clone();
    assert_eq!(tables.len(), 4, "{over}");
    // No node started a set twice: the database holds the night's four tables alone.
    let mut connection = PgConnection::connect(&database.url).await.unwrap();
    let stored: Vec<String> = sqlx::query_scalar("SELECT id FROM tables ORDER BY created_at")
        .fetch_all(&mut connection)
        .await
        .unwrap();
    assert_eq!(stored.len(), 4, "{stored:?} for the night's {tables:?}");
    assert!(tables
        .iter()
        .all(|t| stored.contains(&t.as_str().unwrap().to_string())));
    let (_, metrics) = http_at(second.addr, "GET", "/metrics", None).await;
    assert!(
        !metrics.contains("calltrump_lease_takeovers_total 0"),
        "the second node took the night over: {metrics}"
    );
    connection.close().await.unwrap();
    second.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_programs_database_is_refused_and_left_as_it_was() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let mut other = PgConnection::connect(&database.url).await.unwrap();
    sqlx::query("CREATE TABLE customers (name TEXT)")
        .execute(&mut other)
        .await
        .unwrap();
    let refused = start(&database.url)
        .await
        .err()
        .expect("another program's database refused");
    assert!(
        refused.contains("another program") && refused.contains("customers"),
        "{refused}"
    );
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'",
    )
    .fetch_all(&mut other)
    .await
    .unwrap();
    assert_eq!(tables, ["customers"], "the database was changed");
    other.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_database_is_refused_within_the_connect_timeout() {
    // A port nobody listens on: refused at once, saying where.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let url = format!("postgres://calltrump:secret@127.0.0.1:{port}/calltrump");
    let refused = start(&url).await.err().expect("no database there");
    assert!(
        refused.contains("cannot connect to the database")
            && refused.contains(&format!("127.0.0.1:{port}"))
            && !refused.contains("secret"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_is_not_ready_while_the_log_cannot_be_written_and_healthz_stays_ok() {
    let (database, server) = common::server_on(
        Backend::Postgres,
        common::seeded_hub(1, Duration::from_secs(60)),
    )
    .await;
    assert_eq!(readyz_until(&server, 200).await, "ready");
    // Another program holds the log's table locked.
    let mut holder = PgConnection::connect(&database.url).await.unwrap();
    sqlx::query("BEGIN").execute(&mut holder).await.unwrap();
    sqlx::query("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
        .execute(&mut holder)
        .await
        .unwrap();
    let body = readyz_until(&server, 503).await;
    assert!(
        body.contains("not ready") && body.contains("database"),
        "{body}"
    );
    let (status, body) = http_at(server.addr, "GET", "/healthz", None).await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    // Once it lets go, the server is ready again.
    sqlx::query("ROLLBACK").execute(&mut holder).await.unwrap();
    holder.close().await.unwrap();
    assert_eq!(readyz_until(&server, 200).await, "ready");
    server.stop().await.unwrap();
}

/// A damaged table's row (its settings do not read back) does not keep another node
/// from taking over the other orphans: it is listed as what is wrong with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_orphan_does_not_stop_the_others_takeover() {
    use calltrump_server::store::{Cluster, Store, StoreError};
    let (database, a, b) = common::fencing::two_nodes().await;
    for (id, at) in [("t", 1), ("u", 2)] {
        let table =
            common::contract::new_table(id, 5, calltrump_server::model::TableStatus::Playing, at);
        a.create_table(&table).await.unwrap();
        a.release(id).await.unwrap();
    }
    let mut connection = PgConnection::connect(&database.url).await.unwrap();
    sqlx::query("UPDATE tables SET settings = 'not json' WHERE id = 't'")
        .execute(&mut connection)
        .await
        .unwrap();
    let orphans = b.orphans().await.unwrap();
    assert_eq!(orphans.len(), 2, "{orphans:?}");
    match &orphans[0] {
        Err(StoreError::Corrupt { table, .. }) => assert_eq!(table, "t"),
        other => panic!("expected table t's row damaged, got {other:?}"),
    }
    assert_eq!(orphans[1].as_ref().unwrap().id, "u");
    assert!(b.claim("u").await.unwrap());
    connection.close().await.unwrap();
}

/// One test per check of the leases (`common::fencing`), each on two nodes of a fresh
/// database.
macro_rules! fencing_tests {
    ($($check:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $check() {
                let (_database, a, b) = common::fencing::two_nodes().await;
                common::fencing::$check(&a, &b).await;
            }
        )*
    };
}

fencing_tests!(
    a_table_runs_on_the_node_that_made_it,
    a_lapsed_lease_is_taken_over_and_fences_its_old_owner,
    a_lease_lapsed_unrenewed_is_lost_even_before_a_takeover,
    a_released_lease_is_taken_at_once,
    the_lobby_lists_the_other_nodes_tables,
    a_night_runs_on_one_node_and_is_taken_over_when_it_lapses,
    released_nights_are_taken_at_once,
    a_set_table_is_kept_only_with_its_night_under_the_nights_lease,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_moves_both_players_ratings_before_its_end_is_told() {
    ratings::a_rated_game_moves_both_players_ratings_before_its_end_is_told(Backend::Postgres)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_or_a_chat_line_that_is_not_well_formed_is_refused() {
    common::malformed::an_id_or_a_chat_line_that_is_not_well_formed_is_refused(Backend::Postgres)
        .await;
}
