//! The limits of the edge on two nodes of one PostgreSQL, with no proxy in front and no
//! `--client-address-header`: a socket relayed by one node is counted under its
//! client's address on the node that runs its table (the relaying node signs it with
//! the cluster's secret, for the socket's path and for now; a client naming an address
//! itself is not believed, nor a signature used twice or late), from the connection's
//! accept, and sign-in attempts are counted by every node together.

use std::net::SocketAddr;
use std::time::Duration;

use calltrump_server::{Limits, RunningServer};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use sqlx::{Connection, PgConnection};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::MaybeTlsStream;

use crate::common::edge::refused;
use crate::common::{self, http_at, Backend, TestDatabase};

/// Two nodes on `database` with `limits`: the first makes a table that the second
/// lists (so it relays the table's sockets to the first); the nodes and the table's id.
pub(super) async fn two_nodes(
    database: &TestDatabase,
    limits: Limits,
) -> (RunningServer, RunningServer, String) {
    let node = || async {
        calltrump_server::start(calltrump_server::ServerConfig {
            limits: limits.clone(),
            ..calltrump_server::ServerConfig::new(
                "127.0.0.1:0".parse().unwrap(),
                &database.url,
                common::seeded_hub(1, Duration::from_secs(60)),
            )
        })
        .await
        .unwrap()
    };
    let (owner, relaying) = (node().await, node().await);
    let created = common::create(&owner, serde_json::json!({ "game": "kaibosh" })).await;
    let id = created["id"].as_str().unwrap().to_string();
    tokio::time::timeout(Duration::from_secs(10), async {
        while !http_at(relaying.addr, "GET", "/api/tables", None)
            .await
            .1
            .contains(&id)
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the relaying node finds the owner's table");
    (owner, relaying, id)
}

/// A socket to table `id` at `to`, opened from the loopback address `from` (every
/// 127.x.y.z is this machine: a client of its own address) with the extra `headers`,
/// past its welcome; or the error of the upgrade.
async fn socket_from(
    from: &str,
    to: SocketAddr,
    id: &str,
    headers: &[(&'static str, &str)],
) -> Result<common::Socket, String> {
    let tcp = tokio::net::TcpSocket::new_v4().unwrap();
    tcp.bind(format!("{from}:0").parse().unwrap()).unwrap();
    let stream = tcp.connect(to).await.map_err(|e| e.to_string())?;
    let mut request = format!("ws://{to}/ws/{id}").into_client_request().unwrap();
    for (name, value) in headers {
        request.headers_mut().insert(*name, value.parse().unwrap());
    }
    let (mut socket, _) = tokio_tungstenite::client_async(request, MaybeTlsStream::Plain(stream))
        .await
        .map_err(|e| e.to_string())?;
    common::send(&mut socket, serde_json::json!({"type": "hello"})).await;
    common::until(&mut socket, "welcome").await;
    Ok(socket)
}

/// Says a chat line on `socket`: the `error` refusing it, if one came.
async fn chat(socket: &mut common::Socket, text: &str) -> Option<serde_json::Value> {
    common::send(socket, serde_json::json!({"type": "chat", "text": text})).await;
    let answer = common::messages_before_pong(socket).await;
    let refusal = answer.iter().find(|m| m["type"] == "error").cloned();
    if refusal.is_none() {
        assert!(
            answer
                .iter()
                .any(|m| m["type"] == "chat" && m["body"] == text),
            "{answer:?}"
        );
    }
    refusal
}

/// One stranger holding every connection its address may open on the relaying node
/// (four) does not fill the owner's count for that node's address: another client
/// through the same node still reaches the table. The stranger's fifth is refused by the
/// relaying node, which counts it under its own address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_through_one_node_does_not_take_the_owners_connections_for_that_node() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let limits = Limits {
        max_connections_per_address: 4,
        ..Limits::default()
    };
    let (owner, relaying, id) = two_nodes(&database, limits).await;
    let mut stranger = Vec::new();
    for i in 0..4 {
        let socket = socket_from("127.0.0.2", relaying.addr, &id, &[]).await;
        stranger.push(socket.unwrap_or_else(|e| panic!("the stranger's socket {i}: {e}")));
    }
    let fifth = socket_from("127.0.0.2", relaying.addr, &id, &[]).await;
    assert!(
        fifth.as_ref().is_err_and(|e| e.contains("503")),
        "the stranger's fifth socket: {:?}",
        fifth.err()
    );
    let mut other = socket_from("127.0.0.3", relaying.addr, &id, &[])
        .await
        .expect("another client through the same node reaches the table");
    assert_eq!(chat(&mut other, "here").await, None);
    let (_, metrics) = http_at(relaying.addr, "GET", "/metrics", None).await;
    assert!(
        metrics.contains("calltrump_relayed_sockets_total 5"),
        "{metrics}"
    );
    drop(stranger);
    relaying.stop().await.unwrap();
    owner.stop().await.unwrap();
}

/// A stranger flooding chat through one node spends its own address's lines on the
/// owner (ten at once), not those of every client that node relays; and a client that
/// names another address itself, with a signature it made up, is counted under its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_flood_through_one_node_does_not_silence_the_others_it_relays() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let limits = Limits {
        chat_lines_per_minute: 1,
        ..Limits::default()
    };
    let (owner, relaying, id) = two_nodes(&database, limits).await;
    // A socket says a line every half second at most: one line a socket.
    for i in 0..11 {
        let mut socket = socket_from("127.0.0.2", relaying.addr, &id, &[])
            .await
            .unwrap();
        let refusal = chat(&mut socket, &format!("flood {i}")).await;
        if i < 10 {
            assert_eq!(refusal, None, "line {i}");
        } else {
            let refusal = refusal.unwrap_or_else(|| panic!("line {i} passed"));
            let message = refusal["message"].as_str().unwrap();
            assert!(message.contains("from your address"), "{message}");
        }
    }
    let mut other = socket_from("127.0.0.3", relaying.addr, &id, &[])
        .await
        .unwrap();
    assert_eq!(
        chat(&mut other, "mine").await,
        None,
        "another client relayed by the same node keeps its lines"
    );
    // Straight to the owner, each socket naming another address as a node would: the
    // signatures are wrong, so all are the sender's own address.
    let forged = "ab".repeat(32);
    for i in 0..11 {
        let named = format!("10.7.0.{i}");
        let headers = [
            ("x-calltrump-relayed-for", named.as_str()),
            ("x-calltrump-relay-signature", forged.as_str()),
        ];
        let mut socket = socket_from("127.0.0.4", owner.addr, &id, &headers)
            .await
            .unwrap();
        let refusal = chat(&mut socket, &format!("forged {i}")).await;
        assert_eq!(refusal.is_some(), i == 10, "line {i}: {refusal:?}");
    }
    relaying.stop().await.unwrap();
    owner.stop().await.unwrap();
}

/// `POST /api/session` at `node` for `name` with a wrong password: the status and body.
async fn wrong_password(node: &RunningServer, name: &str) -> (u16, String) {
    let body = serde_json::json!({ "name": name, "password": "not the password" }).to_string();
    http_at(node.addr, "POST", "/api/session", Some(&body)).await
}

/// Sign-in attempts are counted by both nodes together: going round the nodes buys a
/// guesser no more tries on a name, nor from an address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_attempts_are_counted_by_every_node_together() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let limits = Limits {
        sign_ins_per_name: 3,
        sign_ins_per_address: 5,
        ..Limits::default()
    };
    let (first, second, _) = two_nodes(&database, limits).await;
    let account = serde_json::json!({ "name": "ann", "password": "a long enough password" });
    let (status, text) = http_at(
        first.addr,
        "POST",
        "/api/accounts",
        Some(&account.to_string()),
    )
    .await;
    assert_eq!(status, 201, "{text}");
    // The address's attempts: the account made, then three on the name, round the nodes.
    for node in [&first, &second, &first] {
        assert_eq!(wrong_password(node, "ann").await.0, 401);
    }
    let (status, text) = wrong_password(&second, "ann").await;
    assert_eq!(status, 429, "{text}");
    assert!(text.contains("on this name"), "{text}");
    // That was the address's fifth: its sixth, on any name on either node, is refused.
    let (status, text) = wrong_password(&second, "bob").await;
    assert_eq!(status, 429, "{text}");
    assert!(text.contains("from your address"), "{text}");
    second.stop().await.unwrap();
    first.stop().await.unwrap();
}

/// The relay headers a node would send naming `client` for `path`, signed at `time`
/// (seconds on the cluster's clock) with `database`'s secret: `X-Calltrump-Relay-*`, as
/// in docs/operations.md.
async fn relay_headers(
    database: &TestDatabase,
    client: &str,
    path: &str,
    time: i64,
) -> Vec<(&'static str, String)> {
    let mut db = PgConnection::connect(&database.url).await.unwrap();
    let secret: Vec<u8> = sqlx::query_scalar("SELECT secret FROM cluster_secret WHERE id = 1")
        .fetch_one(&mut db)
        .await
        .unwrap();
    let mut nonce = [0u8; 16];
    getrandom::fill(&mut nonce).unwrap();
    let nonce: String = nonce.iter().map(|b| format!("{b:02x}")).collect();
    let mut mac = Hmac::<Sha256>::new_from_slice(&secret).unwrap();
    for part in ["calltrump relay 3", client, path, &time.to_string(), &nonce] {
        mac.update(part.as_bytes());
        mac.update(b"\n");
    }
    let signature = mac.finalize().into_bytes();
    vec![
        ("x-calltrump-relayed-for", client.to_string()),
        ("x-calltrump-relay-time", time.to_string()),
        ("x-calltrump-relay-nonce", nonce),
        (
            "x-calltrump-relay-signature",
            signature.iter().map(|b| format!("{b:02x}")).collect(),
        ),
    ]
}

/// Now on the cluster's clock (PostgreSQL's), in seconds since the Unix epoch.
async fn cluster_now(database: &TestDatabase) -> i64 {
    let mut db = PgConnection::connect(&database.url).await.unwrap();
    sqlx::query_scalar("SELECT floor(extract(epoch FROM clock_timestamp()))::BIGINT")
        .fetch_one(&mut db)
        .await
        .unwrap()
}

/// A socket to table `id` at the owner from the nodes' own address with `headers`.
async fn as_a_node(
    owner: &RunningServer,
    id: &str,
    headers: &[(&'static str, String)],
) -> Result<common::Socket, String> {
    let headers: Vec<(&'static str, &str)> =
        headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    socket_from("127.0.0.1", owner.addr, id, &headers).await
}

/// The owner believes a relayed client's address only if signed with the cluster's
/// secret for that socket's path within a minute of now, on PostgreSQL's clock, and
/// only once: a fresh signature counts the socket under the client it names; one used
/// already, one a minute and more old (replayed), or altered (another address, another
/// table's path), is refused, logged and counted, and the socket counted under the
/// sender's own address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_signature_is_believed_only_fresh_and_for_its_own_path() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let limits = Limits {
        max_connections_per_address: 2,
        ..Limits::default()
    };
    let (owner, relaying, id) = two_nodes(&database, limits).await;
    let path = format!("/ws/{id}");
    let now = cluster_now(&database).await;
    let mut held = Vec::new();
    for i in 0..2 {
        let fresh = relay_headers(&database, "10.7.0.1", &path, now).await;
        held.push(
            as_a_node(&owner, &id, &fresh)
                .await
                .unwrap_or_else(|e| panic!("fresh {i}: {e}")),
        );
    }
    // The named client has its two: its third is refused, though the sender has room.
    let fresh = relay_headers(&database, "10.7.0.1", &path, now).await;
    let third = as_a_node(&owner, &id, &fresh).await;
    assert!(
        third.as_ref().is_err_and(|e| e.contains("503")),
        "{:?}",
        third.err()
    );
    assert_eq!(refused(&owner, "relay_signature").await, 0);
    // (The window's very edge is the unit tests'; here, well past it.)
    let old = relay_headers(&database, "10.7.0.2", &path, now - 75).await;
    let mut moved = relay_headers(&database, "10.7.0.3", &path, now).await;
    moved[0].1 = "10.7.0.4".to_string();
    let elsewhere = relay_headers(&database, "10.7.0.5", "/ws/another", now).await;
    // Not believed, each is the sender's own (127.0.0.1): its third is over its two.
    held.push(
        as_a_node(&owner, &id, &old)
            .await
            .expect("an old signature's socket"),
    );
    held.push(
        as_a_node(&owner, &id, &moved)
            .await
            .expect("an altered one's socket"),
    );
    let over = as_a_node(&owner, &id, &elsewhere).await;
    assert!(
        over.as_ref().is_err_and(|e| e.contains("503")),
        "{:?}",
        over.err()
    );
    drop(held);
    assert_eq!(refused(&owner, "relay_signature").await, 3);
    assert_eq!(refused(&owner, "address_full").await, 2);
    relaying.stop().await.unwrap();
    owner.stop().await.unwrap();
}

/// A relay signature is good for one socket: the same headers sent again within their
/// minute (as by someone who read them off the link between the nodes) are refused,
/// logged and counted, and that socket is counted under its sender, not the client named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_signature_used_again_counts_under_its_sender() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let limits = Limits {
        max_connections_per_address: 2,
        ..Limits::default()
    };
    let (owner, relaying, id) = two_nodes(&database, limits).await;
    let path = format!("/ws/{id}");
    let now = cluster_now(&database).await;
    let captured = relay_headers(&database, "10.7.1.1", &path, now).await;
    let mut held = vec![as_a_node(&owner, &id, &captured)
        .await
        .expect("the signature's first socket")];
    assert_eq!(refused(&owner, "relay_signature").await, 0);
    held.push(
        as_a_node(&owner, &id, &captured)
            .await
            .expect("the same headers again: a socket of the sender's"),
    );
    assert_eq!(refused(&owner, "relay_signature").await, 1);
    // Not under the client: it has room for its second socket, freshly signed.
    let fresh = relay_headers(&database, "10.7.1.1", &path, now).await;
    held.push(
        as_a_node(&owner, &id, &fresh)
            .await
            .expect("the client's second socket"),
    );
    // Under the sender (127.0.0.1): one more of its own fills its two, so the next is refused.
    held.push(
        as_a_node(&owner, &id, &[])
            .await
            .expect("the sender's second socket"),
    );
    let over = as_a_node(&owner, &id, &[]).await;
    assert!(
        over.as_ref().is_err_and(|e| e.contains("503")),
        "{:?}",
        over.err()
    );
    drop(held);
    assert_eq!(refused(&owner, "relay_signature").await, 1);
    assert_eq!(refused(&owner, "address_full").await, 1);
    relaying.stop().await.unwrap();
    owner.stop().await.unwrap();
}

/// A socket relayed to the owner is counted under its client from the connection's
/// accept, never under the relaying node's address: connections held open from that
/// address (no request sent on them) and a burst of clients through the node all at once
/// do not fill a share, and a client with its share open on the owner is refused
/// through the other node too (the owner's 503 passed on).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayed_socket_is_counted_under_its_client_from_its_accept() {
    let database = TestDatabase::new(Backend::Postgres).await;
    let limits = Limits {
        max_connections_per_address: 2,
        ..Limits::default()
    };
    let (owner, relaying, id) = two_nodes(&database, limits).await;
    // Two connections from the nodes' address that say nothing yet: were they counted
    // under it at accept, the node's share on the owner would be full.
    let mut silent = Vec::new();
    for _ in 0..2 {
        let tcp = tokio::net::TcpSocket::new_v4().unwrap();
        tcp.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        silent.push(tcp.connect(owner.addr).await.unwrap());
    }
    let burst = (10..16).map(|i| {
        let (relaying, id) = (relaying.addr, id.clone());
        async move { socket_from(&format!("127.0.0.{i}"), relaying, &id, &[]).await }
    });
    let sockets = futures_util::future::join_all(burst).await;
    for (i, socket) in sockets.iter().enumerate() {
        assert!(
            socket.is_ok(),
            "client {i} of the burst: {:?}",
            socket.as_ref().err()
        );
    }
    // A client with its two sockets straight on the owner: its third, through the other
    // node, is refused by the owner, which counts it under the client.
    let mut mine = Vec::new();
    for _ in 0..2 {
        mine.push(
            socket_from("127.0.0.5", owner.addr, &id, &[])
                .await
                .unwrap(),
        );
    }
    let third = socket_from("127.0.0.5", relaying.addr, &id, &[]).await;
    assert!(
        third.as_ref().is_err_and(|e| e.contains("503")),
        "{:?}",
        third.err()
    );
    assert_eq!(refused(&owner, "address_full").await, 1);
    assert_eq!(refused(&relaying, "address_full").await, 0);
    socket_from("127.0.0.6", relaying.addr, &id, &[])
        .await
        .expect("another client through the node");
    drop((silent, sockets, mine));
    relaying.stop().await.unwrap();
    owner.stop().await.unwrap();
}
