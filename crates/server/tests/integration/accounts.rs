//! Accounts over real sockets: signing up, in and out, `/api/me`, every refusal, the
//! session cookie's flags, a request from another site refused, the limits on sign-in
//! attempts, a deleted account, and no password or session token kept in plain text.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use calltrump_server::{Limits, PublicUrl, RunningServer, ServerConfig};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An HTTP answer: status, head lines (lowercase names) and body.
struct Answer {
    status: u16,
    head: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.head
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    /// The session cookie this answer sets: its value (empty when it removes it).
    fn session(&self) -> String {
        let cookie = self.header("set-cookie").expect("a Set-Cookie header");
        let (pair, _) = cookie.split_once(';').unwrap();
        pair.strip_prefix("calltrump_session=")
            .unwrap_or_else(|| panic!("not the session cookie: {cookie}"))
            .to_string()
    }

    fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

/// One request over a fresh connection, with `headers` beside Host, Content-Length and
/// (with a body) a JSON Content-Type.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut text = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        text.push_str(&format!("Host: {addr}\r\n"));
    }
    if body.is_some()
        && !headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
    {
        text.push_str("Content-Type: application/json\r\n");
    }
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.unwrap_or_default();
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    let mut lines = head.lines();
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let head = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        head,
        body: body.to_string(),
    }
}

fn credentials(name: &str, password: &str) -> String {
    json!({ "name": name, "password": password }).to_string()
}

async fn sign_up(addr: SocketAddr, name: &str, password: &str) -> Answer {
    let body = credentials(name, password);
    request(addr, "POST", "/api/accounts", &[], Some(&body)).await
}

async fn sign_in(addr: SocketAddr, name: &str, password: &str) -> Answer {
    let body = credentials(name, password);
    request(addr, "POST", "/api/session", &[], Some(&body)).await
}

/// `GET /api/me` with the session cookie `session`.
async fn me(addr: SocketAddr, session: &str) -> Answer {
    let cookie = format!("calltrump_session={session}");
    request(addr, "GET", "/api/me", &[("Cookie", &cookie)], None).await
}

/// A server on a new SQLite database in `dir` with the edge's `limits` and `public`.
async fn start(dir: &tempfile::TempDir, limits: Limits, public: Option<&str>) -> RunningServer {
    calltrump_server::start(ServerConfig {
        limits,
        public_url: public.map(|p| PublicUrl::parse(p).unwrap()),
        ..ServerConfig::new(
            "127.0.0.1:0".parse().unwrap(),
            common::database_url(dir),
            common::seeded_hub(1, Duration::from_secs(5)),
        )
    })
    .await
    .unwrap()
}

/// The limits of every test but the one of the limits: the defaults (5 sign-ins a
/// minute on a name, 20 from an address).
async fn default_server() -> (tempfile::TempDir, RunningServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, Limits::default(), None).await;
    (dir, server)
}

#[tokio::test]
async fn sign_up_sign_out_sign_in_and_me() {
    let (_dir, server) = default_server().await;
    let addr = server.addr;
    let created = sign_up(addr, "  Ann ", "correct horse").await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.json()["name"], "Ann");
    let first = created.session();
    assert_eq!(first.len(), 64);
    let mine = me(addr, &first).await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    assert_eq!(mine.json()["name"], "Ann");
    assert!(mine.json()["created_at"].as_i64().unwrap() > 1_700_000_000);
    let cookie = format!("calltrump_session={first}");
    let session = request(addr, "GET", "/api/session", &[("Cookie", &cookie)], None).await;
    assert_eq!(session.status, 200);
    assert_eq!(session.json()["account"]["name"], "Ann");
    let guest = request(addr, "GET", "/api/session", &[], None).await;
    assert_eq!(
        (guest.status, guest.json()),
        (200, json!({ "account": null }))
    );

    let out = request(addr, "DELETE", "/api/session", &[("Cookie", &cookie)], None).await;
    assert_eq!(out.status, 204);
    assert_eq!(out.session(), "", "the cookie is removed");
    assert!(out.header("set-cookie").unwrap().contains("Max-Age=0"));
    // The session is revoked on the server: the old cookie no longer signs anyone in.
    let gone = me(addr, &first).await;
    assert_eq!(gone.status, 401);
    assert!(gone.error().contains("not signed in"), "{}", gone.body);

    let again = sign_in(addr, "ANN", "correct horse").await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["name"], "Ann");
    assert_ne!(again.session(), first, "a new session, a new token");
    assert_eq!(me(addr, &again.session()).await.json()["name"], "Ann");
    assert_eq!(request(addr, "GET", "/api/me", &[], None).await.status, 401);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn the_session_cookie_is_httponly_lax_and_secure_only_behind_https() {
    let (_dir, server) = default_server().await;
    let created = sign_up(server.addr, "Ann", "correct horse").await;
    let cookie = created.header("set-cookie").unwrap().to_string();
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(cookie.contains(flag), "{flag} missing: {cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    server.stop().await.unwrap();

    let dir = tempfile::tempdir().unwrap();
    let https = server_at(&dir, "https://cards.example.org").await;
    let body = credentials("Ann", "correct horse");
    let host = [("Host", "cards.example.org")];
    let created = request(https.addr, "POST", "/api/accounts", &host, Some(&body)).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let cookie = created.header("set-cookie").unwrap();
    assert!(cookie.contains("; Secure"), "behind https: {cookie}");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    https.stop().await.unwrap();
}

async fn server_at(dir: &tempfile::TempDir, public: &str) -> RunningServer {
    start(dir, Limits::default(), Some(public)).await
}

/// A refused request: its path, its Content-Type (none: JSON), its body, the status
/// and what the error says.
type Refused<'a> = (&'a str, Option<&'a str>, Option<&'a str>, u16, &'a str);

#[tokio::test]
async fn every_refusal_says_what_is_wrong_and_changes_nothing() {
    let (_dir, server) = default_server().await;
    let addr = server.addr;
    assert_eq!(sign_up(addr, "Ann", "correct horse").await.status, 201);
    let cases: &[Refused] = &[
        ("/api/accounts", None, Some("{"), 400, "the account's JSON"),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"Bob"}"#),
            400,
            "password",
        ),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"Bob","password":"correct horse","admin":true}"#),
            400,
            "admin",
        ),
        (
            "/api/accounts",
            Some("text/plain"),
            Some(r#"{"name":"Bob","password":"correct horse"}"#),
            415,
            "Content-Type: application/json",
        ),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"Bob","password":"short"}"#),
            400,
            "at least 8",
        ),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"Expert","password":"correct horse"}"#),
            400,
            "reserved",
        ),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"you","password":"correct horse"}"#),
            400,
            "reserved",
        ),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"","password":"correct horse"}"#),
            400,
            "empty",
        ),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"aaaaaaaaaaaaaaaaaaaaaaaaa","password":"correct horse"}"#),
            400,
            "at most 24",
        ),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"<b>Bob</b>","password":"correct horse"}"#),
            400,
            "only letters",
        ),
        // The same name after case folding, and after NFKC (fullwidth letters).
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"aNN","password":"another one"}"#),
            409,
            "taken",
        ),
        (
            "/api/accounts",
            None,
            Some(r#"{"name":"Ａｎｎ","password":"another one"}"#),
            409,
            "taken",
        ),
        (
            "/api/session",
            None,
            Some(r#"{"name":"Ann","password":"wrong horse"}"#),
            401,
            "wrong name or password",
        ),
        (
            "/api/session",
            None,
            Some(r#"{"name":"Nobody","password":"correct horse"}"#),
            401,
            "wrong name or password",
        ),
        ("/api/session", None, Some("[]"), 400, "the sign-in's JSON"),
    ];
    for (path, content_type, body, status, says) in cases {
        let headers: Vec<(&str, &str)> = content_type
            .map(|t| vec![("Content-Type", t)])
            .unwrap_or_default();
        let answer = request(addr, "POST", path, &headers, *body).await;
        assert_eq!(answer.status, *status, "{path} {body:?}: {}", answer.body);
        assert!(
            answer.error().contains(says),
            "{path} {body:?}: {:?} does not say {says:?}",
            answer.error()
        );
        assert!(answer.header("set-cookie").is_none(), "{path} {body:?}");
    }
    // Nothing changed: Bob has no account, Ann's password is still hers.
    assert_eq!(sign_in(addr, "Bob", "correct horse").await.status, 401);
    assert_eq!(sign_in(addr, "Ann", "correct horse").await.status, 200);
    let delete = request(addr, "DELETE", "/api/me", &[], None).await;
    assert_eq!(delete.status, 401, "deleting needs a session");
    let forged = me(addr, &"0".repeat(64)).await;
    assert_eq!(forged.status, 401, "an unknown token signs nobody in");
    server.stop().await.unwrap();
}

#[tokio::test]
async fn a_request_from_another_site_is_refused() {
    let (_dir, server) = default_server().await;
    let addr = server.addr;
    let session = sign_up(addr, "Ann", "correct horse").await.session();
    let cookie = format!("calltrump_session={session}");
    let body = credentials("Ann", "correct horse");
    let evil = [("Origin", "http://evil.example")];
    let refused = request(addr, "POST", "/api/session", &evil, Some(&body)).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(refused.error().contains("evil.example"), "{}", refused.body);
    assert!(refused.header("set-cookie").is_none());
    for headers in [
        vec![
            ("Cookie", cookie.as_str()),
            ("Origin", "http://evil.example"),
        ],
        // A browser that sends no Origin still says the request is another site's.
        vec![
            ("Cookie", cookie.as_str()),
            ("Sec-Fetch-Site", "cross-site"),
        ],
    ] {
        let refused = request(addr, "DELETE", "/api/me", &headers, None).await;
        assert_eq!(refused.status, 403, "{headers:?}: {}", refused.body);
    }
    assert_eq!(me(addr, &session).await.status, 200, "the account stays");
    // The server's own page may.
    let own = format!("http://{addr}");
    let headers = [("Origin", own.as_str()), ("Sec-Fetch-Site", "same-origin")];
    let signed_in = request(addr, "POST", "/api/session", &headers, Some(&body)).await;
    assert_eq!(signed_in.status, 200, "{}", signed_in.body);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn sign_in_attempts_are_limited_per_name_and_per_address() {
    let (_dir, server) = default_server().await;
    let addr = server.addr;
    assert_eq!(sign_up(addr, "Ann", "correct horse").await.status, 201);
    assert_eq!(sign_up(addr, "Bob", "correct horse").await.status, 201);
    // 5 attempts a minute on one name: the 6th is refused, even with the right password.
    for _ in 0..5 {
        assert_eq!(sign_in(addr, "Ann", "wrong horse").await.status, 401);
    }
    let limited = sign_in(addr, "aNN", "correct horse").await;
    assert_eq!(limited.status, 429, "{}", limited.body);
    let wait: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=12).contains(&wait), "Retry-After: {wait}");
    assert!(limited.error().contains("on this name"), "{}", limited.body);
    // Another name is not held back by Ann's.
    assert_eq!(sign_in(addr, "Bob", "correct horse").await.status, 200);
    server.stop().await.unwrap();

    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        sign_ins_per_name: 0,
        sign_ins_per_address: 3,
        ..Limits::default()
    };
    let server = start(&dir, limits, None).await;
    let addr = server.addr;
    assert_eq!(sign_up(addr, "Ann", "correct horse").await.status, 201);
    for name in ["Bob", "Cy"] {
        assert_eq!(sign_in(addr, name, "correct horse").await.status, 401);
    }
    let limited = sign_in(addr, "Ann", "correct horse").await;
    assert_eq!(limited.status, 429, "{}", limited.body);
    assert!(
        limited.error().contains("from your address"),
        "{}",
        limited.body
    );
    assert!(limited.header("retry-after").is_some());
    let creating = sign_up(addr, "Dee", "correct horse").await;
    assert_eq!(
        creating.status, 429,
        "creating counts too: {}",
        creating.body
    );
    server.stop().await.unwrap();
}

#[tokio::test]
async fn wrong_passwords_from_a_stranger_keep_the_owner_out_from_no_other_address() {
    let dir = tempfile::tempdir().unwrap();
    // Behind a trusted proxy, which names each client's address.
    let limits = Limits {
        sign_ins_per_name: 5,
        sign_ins_per_address: 0,
        client_address_header: Some("X-Real-IP".into()),
        ..Limits::default()
    };
    let server = start(&dir, limits, None).await;
    let addr = server.addr;
    let from = |ip: &'static str| [("X-Real-IP", ip)];
    let attempt = |ip: &'static str, password: &'static str| {
        let body = credentials("Ann", password);
        async move { request(addr, "POST", "/api/session", &from(ip), Some(&body)).await }
    };
    assert_eq!(sign_up(addr, "Ann", "correct horse").await.status, 201);
    assert_eq!(attempt("192.0.2.1", "correct horse").await.status, 200);
    // A stranger spends the name's attempts from their address.
    for _ in 0..5 {
        assert_eq!(attempt("198.51.100.7", "wrong horse").await.status, 401);
    }
    let stranger = attempt("198.51.100.7", "correct horse").await;
    assert_eq!(stranger.status, 429, "{}", stranger.body);
    assert!(
        stranger.error().contains("on this name"),
        "{}",
        stranger.body
    );
    // While the stranger goes on, Ann signs in from where she did before and from
    // addresses never seen, each of 9 tries.
    for (i, owner) in ["192.0.2.1", "203.0.113.5", "203.0.113.6"]
        .iter()
        .cycle()
        .take(9)
        .enumerate()
    {
        // (429, or 401 when a slow machine has let a minute's fifth of a try come back.)
        let status = attempt("198.51.100.7", "wrong horse").await.status;
        assert!(matches!(status, 401 | 429), "{status}");
        let signed_in = attempt(owner, "correct horse").await;
        assert_eq!(
            signed_in.status, 200,
            "try {i} from {owner}: {}",
            signed_in.body
        );
    }
    // The stranger's neighbours in a /64 are the stranger (IPv6).
    for _ in 0..5 {
        assert_eq!(attempt("2001:db8::7", "wrong horse").await.status, 401);
    }
    assert_eq!(attempt("2001:db8::8", "correct horse").await.status, 429);
    assert_eq!(attempt("2001:db9::8", "correct horse").await.status, 200);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn a_name_that_only_looks_like_a_taken_one_is_refused() {
    let (_dir, server) = default_server().await;
    let addr = server.addr;
    assert_eq!(sign_up(addr, "alice", "correct horse").await.status, 201);
    // A Cyrillic а for the Latin a, a digit 1 or a capital I for the l, rn for the m,
    // 0 for the o.
    assert_eq!(sign_up(addr, "tom", "correct horse").await.status, 201);
    for lookalike in ["\u{430}lice", "a1ice", "aIice", "torn", "t0m"] {
        let refused = sign_up(addr, lookalike, "correct horse").await;
        assert_eq!(refused.status, 409, "{lookalike}: {}", refused.body);
        assert!(refused.error().contains("looks like"), "{}", refused.body);
        assert_eq!(sign_in(addr, lookalike, "correct horse").await.status, 401);
    }
    // A name of its own in another script is free to take.
    let own = sign_up(
        addr,
        "\u{410}\u{43b}\u{435}\u{43a}\u{441}\u{435}\u{439}",
        "correct horse",
    )
    .await;
    assert_eq!(own.status, 201, "{}", own.body);
    assert_eq!(sign_in(addr, "alice", "correct horse").await.status, 200);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn a_deleted_account_signs_nobody_in_and_its_name_is_free() {
    let (_dir, server) = default_server().await;
    let addr = server.addr;
    let phone = sign_up(addr, "Ann", "correct horse").await.session();
    let laptop = sign_in(addr, "Ann", "correct horse").await.session();
    let cookie = format!("calltrump_session={laptop}");
    let deleted = request(addr, "DELETE", "/api/me", &[("Cookie", &cookie)], None).await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(deleted.session(), "", "the cookie is removed");
    for session in [&phone, &laptop] {
        assert_eq!(me(addr, session).await.status, 401, "every session ends");
    }
    assert_eq!(sign_in(addr, "Ann", "correct horse").await.status, 401);
    let again = sign_up(addr, "ann", "another horse").await;
    assert_eq!(again.status, 201, "the name is free: {}", again.body);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn no_password_is_kept_in_plain_text() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, Limits::default(), None).await;
    let password = "a very particular passphrase";
    let token = sign_up(server.addr, "Ann", password).await.session();
    assert_eq!(sign_in(server.addr, "Ann", password).await.status, 200);
    server.stop().await.unwrap();
    let mut hashes = 0;
    for file in std::fs::read_dir(dir.path()).unwrap() {
        let bytes = std::fs::read(file.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(password), "the password is in the database");
        assert!(
            !text.contains(&token),
            "a session's token is in the database"
        );
        hashes += text.matches("$argon2id$v=19$m=19456,t=2,p=1$").count();
    }
    assert!(hashes >= 1, "the Argon2id hash is kept");
}
