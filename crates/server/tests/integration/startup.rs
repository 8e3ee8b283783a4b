//! Faults at start: a second server on the same database, a database file that is empty,
//! not SQLite, or another program's. Each is refused with what to do; nothing is changed.
//! A table whose log does not replay is quarantined, and the others play.

use crate::common;

use std::time::Duration;

use calltrump_server::ServerConfig;
use common::*;
use serde_json::{json, Value};

/// Starts a server on `dir`'s database: the server, or the error as text.
async fn start_on(dir: &tempfile::TempDir) -> Result<calltrump_server::RunningServer, String> {
    calltrump_server::start(ServerConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        database_url(dir),
        seeded_hub(1, Duration::from_secs(60)),
    ))
    .await
    .map_err(|e| e.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_database_refuses_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let first = start_on(&dir).await.unwrap();
    let refused = start_on(&dir)
        .await
        .err()
        .expect("the second server refused");
    assert!(
        refused.contains("another calltrump server is running on the database")
            && refused.contains("db.sqlite.lock")
            && refused.contains("--data"),
        "{refused}"
    );
    // The first goes on; once it stops, the database is free.
    let (status, _) = http_at(first.addr, "GET", "/healthz", None).await;
    assert_eq!(status, 200);
    first.stop().await.unwrap();
    let again = start_on(&dir).await.unwrap();
    again.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_or_foreign_database_file_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("db.sqlite");
    std::fs::write(&file, b"").unwrap();
    let refused = start_on(&dir).await.err().expect("an empty file refused");
    assert!(
        refused.contains("an empty file") && refused.contains("backup"),
        "{refused}"
    );
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 0);

    std::fs::write(&file, b"a shopping list, not a database").unwrap();
    let refused = start_on(&dir).await.err().expect("a text file refused");
    assert!(refused.contains("is not an SQLite database"), "{refused}");

    std::fs::remove_file(&file).unwrap();
    {
        use sqlx::{ConnectOptions, Connection};
        let options: sqlx::sqlite::SqliteConnectOptions = database_url(&dir).parse().unwrap();
        let mut other = options.create_if_missing(true).connect().await.unwrap();
        sqlx::query("CREATE TABLE notes (body TEXT)")
            .execute(&mut other)
            .await
            .unwrap();
        other.close().await.unwrap();
    }
    let before = std::fs::read(&file).unwrap();
    let refused = start_on(&dir)
        .await
        .err()
        .expect("another program's database refused");
    assert!(
        refused.contains("another program") && refused.contains("notes"),
        "{refused}"
    );
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the database was changed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_is_not_ready_while_the_database_cannot_be_written_and_healthz_stays_ok() {
    use sqlx::{ConnectOptions, Connection};
    let dir = tempfile::tempdir().unwrap();
    let server = start_on(&dir).await.unwrap();
    assert_eq!(readyz_until(&server, 200).await, "ready");
    // Another program holds the database's write lock.
    let options: sqlx::sqlite::SqliteConnectOptions = database_url(&dir).parse().unwrap();
    let mut holder = options.connect().await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
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

/// Ann at seat 0 of a new table with three bots, after her first action: the table's id,
/// Ann's token and the version after her action.
async fn table_ann_played_at(server: &calltrump_server::RunningServer) -> (String, Value, u64) {
    let created = create(server, kaibosh_with_bots(1, "bot:random")).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["invites"][0]["token"].clone();
    let mut ann = hello(server, &id, json!({ "token": token })).await;
    let (version, legal) = until_my_turn(&mut ann, Duration::from_secs(10)).await;
    let act = json!({"type": "act", "version": version, "action": legal[0]});
    send(&mut ann, act).await;
    let update = until(&mut ann, "update").await;
    (id, token, update["version"].as_u64().unwrap())
}

/// The rows of table `id`'s log in `dir`'s database, as stored.
async fn log_rows(dir: &tempfile::TempDir, id: &str) -> Vec<String> {
    use sqlx::{ConnectOptions, Connection};
    let options: sqlx::sqlite::SqliteConnectOptions = database_url(dir).parse().unwrap();
    let mut db = options.connect().await.unwrap();
    let rows = sqlx::query_scalar("SELECT entry FROM events WHERE table_id = ? ORDER BY version")
        .bind(id)
        .fetch_all(&mut db)
        .await
        .unwrap();
    db.close().await.unwrap();
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_whose_log_does_not_replay_is_quarantined_and_the_others_play_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_on(&dir).await.unwrap();
    let (damaged, _, _) = table_ann_played_at(&server).await;
    let (sound, token, version) = table_ann_played_at(&server).await;
    server.stop().await.unwrap();

    // One table's log is damaged in the file: its second entry is no step of its game.
    {
        use sqlx::{ConnectOptions, Connection};
        let options: sqlx::sqlite::SqliteConnectOptions = database_url(&dir).parse().unwrap();
        let mut db = options.connect().await.unwrap();
        let changed = sqlx::query(
            "UPDATE events SET entry = '{\"not\":\"an entry\"}' WHERE table_id = ? AND version = 2",
        )
        .bind(&damaged)
        .execute(&mut db)
        .await
        .unwrap();
        assert_eq!(changed.rows_affected(), 1);
        db.close().await.unwrap();
    }
    let rows = log_rows(&dir, &damaged).await;

    // The server starts; the damaged table is listed as damaged, refused with 410 (its
    // socket and its replay), and left in the file as it was.
    let server = start_on(&dir).await.expect("the server starts");
    let (_, listed) = http_at(server.addr, "GET", "/api/tables", None).await;
    let listed: Value = serde_json::from_str(&listed).unwrap();
    let tables = listed["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1, "{listed}");
    assert_eq!(tables[0]["id"], sound.as_str(), "{listed}");
    let quarantined = listed["damaged"].as_array().unwrap();
    assert_eq!(quarantined.len(), 1, "{listed}");
    assert_eq!(quarantined[0]["id"], damaged.as_str(), "{listed}");
    assert_eq!(quarantined[0]["status"], "damaged", "{listed}");
    assert!(
        !quarantined[0]["error"].as_str().unwrap().is_empty(),
        "{listed}"
    );
    let path = format!("/api/tables/{damaged}/replay?seat=spectator");
    let (status, body) = http_at(server.addr, "GET", &path, None).await;
    assert_eq!(status, 410, "{body}");
    assert!(body.contains("damaged"), "{body}");
    let url = format!("ws://{}/ws/{damaged}", server.addr);
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
            assert_eq!(answer.status(), 410)
        }
        other => panic!("the damaged table's socket: {:?}", other.map(|_| ())),
    }
    assert_eq!(
        log_rows(&dir, &damaged).await,
        rows,
        "the damaged rows are kept"
    );

    // The other table plays on from where it was.
    let mut ann = hello(
        &server,
        &sound,
        json!({ "token": token, "version": version }),
    )
    .await;
    let welcome = until(&mut ann, "welcome").await;
    assert_eq!(welcome["status"], "playing", "{welcome}");
    let (now, legal) = until_my_turn(&mut ann, Duration::from_secs(10)).await;
    assert!(now > version);
    send(
        &mut ann,
        json!({"type": "act", "version": now, "action": legal[0]}),
    )
    .await;
    let update = until(&mut ann, "update").await;
    assert!(update["version"].as_u64().unwrap() > now, "{update}");
    server.stop().await.unwrap();
}
