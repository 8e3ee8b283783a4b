//! Faults of the disk and the database: a table whose row in `tables` is damaged is
//! quarantined at start while the others resume, and a real full filesystem (a 2 MB
//! tmpfs, mounted when the test runs as root) loses no version a client was told; the
//! table pauses and resumes once space is freed. Every wait is bounded.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

/// Runs `sql` (binding `id`) on the SQLite database `url`: the rows it changed.
async fn change(url: &str, sql: &str, id: &str) -> u64 {
    use sqlx::{ConnectOptions, Connection};
    let options: sqlx::sqlite::SqliteConnectOptions = url.parse().unwrap();
    let mut db = options.connect().await.unwrap();
    let changed = sqlx::query(sql)
        .bind(id)
        .execute(&mut db)
        .await
        .unwrap()
        .rows_affected();
    db.close().await.unwrap();
    changed
}

/// Table `id`'s row in `tables`, every column as text.
async fn row_of(url: &str, id: &str) -> Vec<Option<String>> {
    use sqlx::{ConnectOptions, Connection, Row};
    let options: sqlx::sqlite::SqliteConnectOptions = url.parse().unwrap();
    let mut db = options.connect().await.unwrap();
    let row = sqlx::query(
        "SELECT CAST(settings AS TEXT), CAST(deal_rng AS TEXT), CAST(seats AS TEXT), \
         CAST(created_at AS TEXT) FROM tables WHERE id = ?",
    )
    .bind(id)
    .fetch_one(&mut db)
    .await
    .unwrap();
    let columns = (0..4).map(|i| row.get(i)).collect();
    db.close().await.unwrap();
    columns
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_row_of_the_tables_table_quarantines_that_table_only() {
    let dir = tempfile::tempdir().unwrap();
    let url = database_url(&dir);
    let hub = seeded_hub(1, Duration::from_secs(60));
    let server = start_on(&url, hub.clone()).await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        let created = create(&server, json!({"game": "kaibosh"})).await;
        ids.push(created["id"].as_str().unwrap().to_string());
    }
    server.stop().await.unwrap();
    // Three rows damaged three ways: settings that are no JSON, seats of the wrong
    // shape, a creation time that is no number.
    let damage = [
        "UPDATE tables SET settings = '{\"rules\":' WHERE id = ?",
        "UPDATE tables SET seats = '[{\"sitter\": 7}]' WHERE id = ?",
        "UPDATE tables SET created_at = 'yesterday' WHERE id = ?",
    ];
    for (sql, id) in damage.iter().zip(&ids) {
        assert_eq!(change(&url, sql, id).await, 1);
    }
    let mut rows = Vec::new();
    for id in &ids[..3] {
        rows.push(row_of(&url, id).await);
    }

    let server = start_on(&url, hub).await;
    let (status, listed) = http_at(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200, "{listed}");
    let listed: Value = serde_json::from_str(&listed).unwrap();
    let tables: Vec<&str> = listed["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(tables, [ids[3].as_str()], "{listed}");
    let damaged = listed["damaged"].as_array().unwrap();
    let mut quarantined: Vec<&str> = damaged.iter().map(|t| t["id"].as_str().unwrap()).collect();
    quarantined.sort();
    let mut expected: Vec<&str> = ids[..3].iter().map(String::as_str).collect();
    expected.sort();
    assert_eq!(quarantined, expected, "{listed}");
    for table in damaged {
        assert_eq!(table["status"], "damaged", "{table}");
        assert!(!table["error"].as_str().unwrap().is_empty(), "{table}");
    }
    // Refused as damaged, and left in the file as they were.
    for id in &ids[..3] {
        let url = format!("ws://{}/ws/{id}", server.addr);
        match tokio_tungstenite::connect_async(url).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
                assert_eq!(answer.status(), 410)
            }
            other => panic!("a damaged table's socket: {:?}", other.map(|_| ())),
        }
    }
    server.stop().await.unwrap();
    for (id, row) in ids[..3].iter().zip(&rows) {
        assert_eq!(&row_of(&url, id).await, row, "table {id}'s row is kept");
    }
    // The sound table still takes a player.
    let server = start_on(&url, seeded_hub(1, Duration::from_secs(60))).await;
    let mut ann = hello(&server, &ids[3], json!({"name": "Ann"})).await;
    until(&mut ann, "welcome").await;
    server.stop().await.unwrap();
}

/// A 2 MB tmpfs mounted at a new folder, or why none can be (not root, or mounting
/// refused).
fn mount_small_tmpfs() -> Result<tempfile::TempDir, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=2m", "tmpfs"])
        .arg(dir.path())
        .output()
        .map_err(|e| format!("mount could not run: {e}"))?;
    if !mounted.status.success() {
        return Err(format!(
            "mount -t tmpfs refused: {}",
            String::from_utf8_lossy(&mounted.stderr).trim()
        ));
    }
    Ok(dir)
}

fn unmount(dir: &Path) {
    let _ = std::process::Command::new("umount").arg(dir).status();
}

/// The versions of table `id`'s log in the SQLite database `url`, in order.
async fn stored_versions(url: &str, id: &str) -> Vec<i64> {
    use sqlx::{ConnectOptions, Connection};
    let options: sqlx::sqlite::SqliteConnectOptions = url.parse().unwrap();
    let mut db = options.read_only(true).connect().await.unwrap();
    let versions =
        sqlx::query_scalar("SELECT version FROM events WHERE table_id = ? ORDER BY version")
            .bind(id)
            .fetch_all(&mut db)
            .await
            .unwrap();
    db.close().await.unwrap();
    versions
}

/// Messages until one of the `kinds` arrives (within `wait`), noting each `update`'s
/// version in `told`.
async fn watch_until(
    socket: &mut Socket,
    kinds: &[&str],
    wait: Duration,
    told: &mut Vec<u64>,
) -> Value {
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = next(socket, left)
            .await
            .unwrap_or_else(|| panic!("none of {kinds:?} within {wait:?}"));
        if let (Some("update"), Some(version)) =
            (message["type"].as_str(), message["version"].as_u64())
        {
            told.push(version);
        }
        if kinds.contains(&message["type"].as_str().unwrap_or("")) {
            return message;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_filesystem_loses_no_told_version_and_the_table_resumes() {
    let mount = match mount_small_tmpfs() {
        Ok(mount) => mount,
        Err(why) => {
            eprintln!("skipped: no real full filesystem here ({why}); the injected failing store of supervision.rs still runs");
            return;
        }
    };
    // Room to free later: the database fills the rest.
    let ballast = mount.path().join("ballast");
    std::fs::write(&ballast, vec![0u8; 512 * 1024]).unwrap();
    let url = format!("sqlite://{}", mount.path().join("calltrump.db").display());
    let hub = calltrump_server::HubConfig {
        bot_delay: Duration::from_millis(5),
        ..seeded_hub(9, Duration::from_secs(60))
    };
    let server = start_on(&url, hub).await;
    let bots = json!(["bot:random", "bot:random", "bot:random", "bot:random"]);
    let created = create(&server, json!({"game": "kaibosh", "seats": bots})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut told = Vec::new();
    let mut zoe = hello(&server, &id, json!({})).await;
    // The bots play until the disk is full: the table pauses, and is not ready.
    let paused = loop {
        let kinds = ["paused", "status"];
        let seen = watch_until(&mut zoe, &kinds, Duration::from_secs(60), &mut told).await;
        if seen["type"] == "paused" || seen["status"] == "over" {
            break seen;
        }
    };
    assert_eq!(
        paused["type"], "paused",
        "the game ended before the disk was full: {paused}"
    );
    let reason = paused["reason"].as_str().unwrap();
    assert!(reason.contains("cannot save"), "{reason}");
    let (status, ready) = http_at(server.addr, "GET", "/readyz", None).await;
    assert_eq!(status, 503, "{ready}");
    let (status, _) = http_at(server.addr, "GET", "/healthz", None).await;
    assert_eq!(status, 200);
    // Space freed: the table resumes by itself and plays on.
    std::fs::remove_file(&ballast).unwrap();
    watch_until(&mut zoe, &["resumed"], Duration::from_secs(20), &mut told).await;
    let before = told.len();
    while told.len() < before + 3 {
        watch_until(&mut zoe, &["update"], Duration::from_secs(10), &mut told).await;
    }
    drop(zoe);
    server.stop().await.unwrap();
    // Every version anyone was told is in the log, which has no gap.
    let stored = stored_versions(&url, &id).await;
    let expected: Vec<i64> = (1..=stored.len() as i64).collect();
    assert_eq!(stored, expected, "the log has a gap");
    let last_told = *told.iter().max().unwrap() as i64;
    assert!(
        last_told <= *stored.last().unwrap(),
        "told {last_told}, stored up to {:?}",
        stored.last()
    );
    unmount(mount.path());
}
