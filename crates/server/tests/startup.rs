//! Faults at start: a second server on the same database, a database file that is empty,
//! not SQLite, or another program's. Each is refused with what to do; nothing is changed.

mod common;

use std::time::Duration;

use calltrump_server::ServerConfig;
use common::*;

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

/// `/readyz` until it answers `status`, within 10 s: its body.
async fn readyz_until(server: &calltrump_server::RunningServer, status: u16) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (now, body) = http_at(server.addr, "GET", "/readyz", None).await;
        if now == status {
            return body;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "/readyz still {now} after 10 s: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
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
