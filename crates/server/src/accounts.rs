//! Accounts: people who come back as themselves. Creating an account, signing in and
//! out, who is signed in (`GET /api/me`) and deleting one's account (`DELETE /api/me`);
//! the session cookie and the limits on sign-in attempts.
//!
//! - A password is hashed with Argon2id ([`ARGON2_MEMORY_KIB`] KiB, [`ARGON2_PASSES`]
//!   passes, one lane: OWASP's minimum) on a blocking thread, at most [`MAX_HASHES_AT_ONCE`]
//!   at a time whatever the number of addresses (their memory bounded; 503 after 10 s of
//!   waiting); only the hash is stored.
//! - A name is unique after NFKC and case folding ([`name_key`]); the bots' level names,
//!   "you" and "a former player" are reserved.
//! - A session's token is 32 random bytes, held by the browser in an HttpOnly,
//!   SameSite=Lax cookie (Secure when the public URL is https); the store keeps only its
//!   SHA-256, and deleting that row signs the session out everywhere at once.
//! - Sign-in attempts are limited per name and per client address (429, Retry-After);
//!   a request from a page of another site is refused by [`crate::http`]'s edge.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Extension, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::hub::{now_secs, random_hex, Hub};
use crate::request::{error, json_request};
use crate::store::StoredAccount;
use crate::Edge;

/// Argon2id's memory, in KiB (19 MiB).
pub const ARGON2_MEMORY_KIB: u32 = 19 * 1024;
/// Argon2id's passes over its memory.
pub const ARGON2_PASSES: u32 = 2;
/// The session cookie's name.
pub const SESSION_COOKIE: &str = "calltrump_session";
/// How long a session lasts, in days, from signing in.
pub const SESSION_DAYS: i64 = 30;
/// The shortest password, in characters.
pub const PASSWORD_MIN_CHARS: usize = 8;
/// The longest password, in bytes (hashing a longer one would be a way to load the
/// server).
pub const PASSWORD_MAX_BYTES: usize = 256;
pub use crate::model::FORMER_PLAYER;
pub use crate::names::{name_key, name_skeleton, NAME_MAX_CHARS};

/// The routes of accounts and sessions.
pub fn routes() -> Router<Hub> {
    Router::new()
        .route("/api/accounts", post(create_account))
        .route("/api/session", post(sign_in).delete(sign_out).get(session))
        .route("/api/me", axum::routing::get(me).delete(delete_me))
}

/// The hasher, with the parameters this module's documentation states.
fn argon2() -> Argon2<'static> {
    let params = Params::new(ARGON2_MEMORY_KIB, ARGON2_PASSES, 1, None)
        .expect("the Argon2 parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// `password`'s Argon2id hash with a fresh random salt, as a PHC string.
fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the OS's random source works");
    let salt = SaltString::encode_b64(&salt).expect("16 bytes are a valid salt");
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .expect("hashing a bounded password cannot fail")
        .to_string()
}

/// A hash no password matches in practice: checked against when a name has no
/// account, so that an unknown name takes as long to refuse as a wrong password.
static NO_ACCOUNT_HASH: LazyLock<String> = LazyLock::new(|| hash_password(&random_hex()));

/// Whether `password` is the one `hash` was made from (a hash that does not read is no
/// match).
fn password_matches(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        argon2()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// Most passwords hashed at once, whatever the number of addresses asking: each hash
/// holds [`ARGON2_MEMORY_KIB`] of memory while it runs, so this bounds their memory.
pub const MAX_HASHES_AT_ONCE: usize = 4;

/// How long a request waits for its turn to hash before it is told to try again.
const HASH_WAIT: Duration = Duration::from_secs(10);

/// The turns to hash (see [`MAX_HASHES_AT_ONCE`]).
static HASHING: LazyLock<tokio::sync::Semaphore> =
    LazyLock::new(|| tokio::sync::Semaphore::new(MAX_HASHES_AT_ONCE));

/// Runs Argon2 off the async threads (it takes tens of milliseconds of CPU), at most
/// [`MAX_HASHES_AT_ONCE`] at a time.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Response> {
    let busy = || {
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many passwords are being checked at once: try again in a moment",
        )
    };
    let _turn = tokio::time::timeout(HASH_WAIT, HASHING.acquire())
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
    tokio::task::spawn_blocking(work).await.map_err(|_| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the password could not be checked: try again",
        )
    })
}

/// The SHA-256 of a session token, as hex: what the store knows a session by.
fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The session token of the request's cookie, if it has one of the right shape.
fn session_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, token)| token)
        .filter(|token| token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The account signed in by the request's cookie, and its session's token hash; none
/// for a missing, unknown, expired or revoked session.
pub(crate) async fn signed_in(
    hub: &Hub,
    headers: &HeaderMap,
) -> Result<Option<(StoredAccount, String)>, Response> {
    let Some(token) = session_token(headers) else {
        return Ok(None);
    };
    let hash = token_hash(token);
    let since = now_secs() - SESSION_DAYS * 24 * 60 * 60;
    match hub
        .shared()
        .store
        .accounts()
        .session_account(&hash, since)
        .await
    {
        Ok(account) => Ok(account.map(|account| (account, hash))),
        Err(e) => Err(store_failed(e)),
    }
}

fn store_failed(e: crate::store::StoreError) -> Response {
    tracing::error!("accounts: {e}");
    error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// A `Set-Cookie` value: the session `token` (none: the cookie removed), with the flags
/// of this module's documentation.
fn session_cookie(edge: &Edge, token: Option<&str>) -> HeaderValue {
    let secure = edge
        .site
        .public
        .as_ref()
        .is_some_and(|public| public.scheme() == "https");
    let (value, age) = match token {
        Some(token) => (token, SESSION_DAYS * 24 * 60 * 60),
        None => ("", 0),
    };
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{secure}"
    ))
    .expect("a cookie of hex digits and flags is a valid header")
}

/// The body of `POST /api/accounts` and `POST /api/session`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// The client's address: the trusted proxy's header if the server has one, else the
/// connection's peer.
pub(crate) fn client_address(
    edge: &Edge,
    headers: &HeaderMap,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
) -> Option<IpAddr> {
    crate::limits::client_address(
        &edge.limits,
        headers,
        peer.map(|Extension(ConnectInfo(p))| p),
    )
}

/// 429 with `Retry-After`, saying what was limited.
fn too_many(edge: &Edge, wait: Duration, what: &str) -> Response {
    edge.refusals
        .sign_ins
        .hit(None, &format!("too many sign-in attempts {what}"));
    let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut refused = error(
        StatusCode::TOO_MANY_REQUESTS,
        format!("too many sign-in attempts {what}: try again in {seconds} s"),
    );
    refused
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    refused
}

/// Takes an attempt from the client address's allowance (counted in the store, for
/// every node): the refusal if there is none left.
async fn limit_address(hub: &Hub, edge: &Edge, address: Option<IpAddr>) -> Option<Response> {
    let accounts = hub.shared().store.accounts();
    match edge.sign_ins.take_address(accounts, address).await {
        Ok(None) => None,
        Ok(Some(wait)) => Some(too_many(edge, wait, "from your address")),
        Err(e) => Some(store_failed(e)),
    }
}

/// A signed-in answer: `status`, the account's name, and the new session's cookie.
async fn open_session(
    hub: &Hub,
    edge: &Edge,
    account: &StoredAccount,
    status: StatusCode,
) -> Response {
    let token = format!("{}{}", random_hex(), random_hex());
    let stored = hub
        .shared()
        .store
        .accounts()
        .create_session(&token_hash(&token), &account.id, now_secs())
        .await;
    if let Err(e) = stored {
        return store_failed(e);
    }
    let mut response = (status, Json(json!({ "name": account.name }))).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, session_cookie(edge, Some(&token)));
    response
}

/// `POST /api/accounts {name, password}`: a new account, signed in (201); 409 if the
/// name is taken.
async fn create_account(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let credentials: Credentials = match json_request(&headers, &body, "account") {
        Ok(credentials) => credentials,
        Err(refused) => return refused.into_response(),
    };
    let address = client_address(&edge, &headers, peer);
    if let Some(refused) = limit_address(&hub, &edge, address).await {
        return refused;
    }
    let (name, key) = match name_key(&credentials.name) {
        Ok(checked) => checked,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    let password = credentials.password;
    let length = password.chars().count();
    if length < PASSWORD_MIN_CHARS {
        return error(
            StatusCode::BAD_REQUEST,
            format!("the password has {length} characters: at least {PASSWORD_MIN_CHARS}"),
        );
    }
    if password.len() > PASSWORD_MAX_BYTES {
        return error(
            StatusCode::BAD_REQUEST,
            format!("the password is longer than {PASSWORD_MAX_BYTES} bytes"),
        );
    }
    let accounts = hub.shared().store.accounts();
    let taken = |name: &str| {
        error(
            StatusCode::CONFLICT,
            format!("the name {name:?} is taken: choose another, or sign in"),
        )
    };
    match accounts.account_named(&key).await {
        Ok(Some(_)) => return taken(&name),
        Ok(None) => {}
        Err(e) => return store_failed(e),
    }
    let password_hash = match blocking(move || hash_password(&password)).await {
        Ok(hash) => hash,
        Err(failed) => return failed,
    };
    let account = StoredAccount {
        id: random_hex(),
        name_skeleton: Some(name_skeleton(&name)),
        name,
        name_key: key,
        password_hash,
        created_at: now_secs(),
    };
    match accounts.create_account(&account).await {
        // Taken meanwhile by another request for the same name, or one that looks alike.
        Ok(false) => match accounts.account_named(&account.name_key).await {
            Ok(Some(_)) => taken(&account.name),
            Ok(None) => error(
                StatusCode::CONFLICT,
                format!(
                    "the name {:?} looks like an account's name already taken (letters of other scripts that look alike count as one): choose another, or sign in",
                    account.name
                ),
            ),
            Err(e) => store_failed(e),
        },
        Ok(true) => open_session(&hub, &edge, &account, StatusCode::CREATED).await,
        Err(e) => store_failed(e),
    }
}

/// `POST /api/session {name, password}`: signed in (200, a new session's cookie); 401
/// for a wrong name or password, alike; 429 past the limits.
async fn sign_in(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let credentials: Credentials = match json_request(&headers, &body, "sign-in") {
        Ok(credentials) => credentials,
        Err(refused) => return refused.into_response(),
    };
    let address = client_address(&edge, &headers, peer);
    if let Some(refused) = limit_address(&hub, &edge, address).await {
        return refused;
    }
    let wrong = || error(StatusCode::UNAUTHORIZED, "wrong name or password");
    // A name that cannot be an account's is simply wrong: no hint of which part was.
    let Ok((_, key)) = name_key(&credentials.name) else {
        return wrong();
    };
    let accounts = hub.shared().store.accounts();
    match edge.sign_ins.take_name(accounts, &key, address).await {
        Ok(None) => {}
        Ok(Some(wait)) => return too_many(&edge, wait, "on this name"),
        Err(e) => return store_failed(e),
    }
    let account = match hub.shared().store.accounts().account_named(&key).await {
        Ok(account) => account,
        Err(e) => return store_failed(e),
    };
    let hash = account
        .as_ref()
        .map_or_else(|| NO_ACCOUNT_HASH.clone(), |a| a.password_hash.clone());
    let password = credentials.password;
    let matches = if password.len() > PASSWORD_MAX_BYTES {
        false
    } else {
        match blocking(move || password_matches(&password, &hash)).await {
            Ok(matches) => matches,
            Err(failed) => return failed,
        }
    };
    match account {
        Some(account) if matches => open_session(&hub, &edge, &account, StatusCode::OK).await,
        _ => wrong(),
    }
}

/// `DELETE /api/session`: signs this session out (its row deleted) and removes the
/// cookie; 204 whether or not it was signed in.
async fn sign_out(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    headers: HeaderMap,
) -> Response {
    if let Some(token) = session_token(&headers) {
        let ended = hub
            .shared()
            .store
            .accounts()
            .delete_session(&token_hash(token))
            .await;
        if let Err(e) = ended {
            return store_failed(e);
        }
    }
    signed_out(&edge)
}

/// 204 with the session cookie removed.
fn signed_out(edge: &Edge) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, session_cookie(edge, None));
    response
}

fn not_signed_in() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        "not signed in: POST /api/session {name, password} first",
    )
}

/// `GET /api/me`: the signed-in account's name and when it was made; 401 if none.
async fn me(State(hub): State<Hub>, headers: HeaderMap) -> Response {
    match signed_in(&hub, &headers).await {
        Ok(Some((account, _))) => Json(json!({
            "name": account.name,
            "created_at": account.created_at,
        }))
        .into_response(),
        Ok(None) => not_signed_in(),
        Err(failed) => failed,
    }
}

/// `GET /api/session`: `{"account": {"name", "created_at"}}` when signed in, else
/// `{"account": null}`, always 200: the pages' bar asks it on every page, where a 401 of
/// `GET /api/me` would be logged by the browser as an error.
async fn session(State(hub): State<Hub>, headers: HeaderMap) -> Response {
    match signed_in(&hub, &headers).await {
        Ok(account) => Json(json!({
            "account": account.map(|(account, _)| json!({
                "name": account.name,
                "created_at": account.created_at,
            })),
        }))
        .into_response(),
        Err(failed) => failed,
    }
}

/// `DELETE /api/me`: deletes the signed-in account and all its sessions (204); the
/// games it played stay. 401 if not signed in.
async fn delete_me(
    State(hub): State<Hub>,
    Extension(edge): Extension<Arc<Edge>>,
    headers: HeaderMap,
) -> Response {
    let account = match signed_in(&hub, &headers).await {
        Ok(Some((account, _))) => account,
        Ok(None) => return not_signed_in(),
        Err(failed) => return failed,
    };
    let accounts = hub.shared().store.accounts();
    // Read before: the deletion unbinds them.
    let held = match accounts.account_tables(&account.id).await {
        Ok(held) => held,
        Err(e) => return store_failed(e),
    };
    match accounts.delete_account(&account.id).await {
        Ok(_) => {
            hub.forget_account(&account.id, &held);
            signed_out(&edge)
        }
        Err(e) => store_failed(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_the_bound_of_passwords_are_hashed_at_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let asks: Vec<_> = (0..5 * MAX_HASHES_AT_ONCE)
            .map(|_| {
                let (running, most) = (running.clone(), most.clone());
                tokio::spawn(blocking(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                }))
            })
            .collect();
        for ask in asks {
            assert!(ask.await.unwrap().is_ok(), "each one is hashed in its turn");
        }
        let most = most.load(Ordering::SeqCst);
        assert!(most >= 2, "they do run side by side ({most})");
        assert!(most <= MAX_HASHES_AT_ONCE, "{most} at once");
    }

    #[test]
    fn names_are_one_after_normalisation_and_case_folding() {
        let key = |name: &str| name_key(name).unwrap().1;
        assert_eq!(key("Ann"), key("aNN"));
        assert_eq!(key("  Ann  "), key("ann"));
        // Fullwidth letters are NFKC's compatibility forms of the plain ones.
        assert_eq!(key("Ａｎｎ"), key("ann"));
        // A precomposed é and e with a combining accent are one letter.
        assert_eq!(key("Ren\u{e9}e"), key("Rene\u{301}e"));
        assert_eq!(key("Ann Lee"), key("ann   lee"));
        assert_ne!(key("Ann"), key("Anna"));
        assert_eq!(name_key("  Ann ").unwrap().0, "Ann");
        assert_eq!(name_key("سارة").unwrap().0, "سارة");
    }

    #[test]
    fn reserved_empty_long_and_odd_names_are_refused() {
        for name in [
            "you",
            "YOU",
            "Expert",
            "medium",
            "Tree",
            "A Former Player",
            "",
            "   ",
        ] {
            assert!(name_key(name).is_err(), "{name:?}");
        }
        assert!(name_key(&"a".repeat(NAME_MAX_CHARS)).is_ok());
        let long = name_key(&"a".repeat(NAME_MAX_CHARS + 1)).unwrap_err();
        assert!(long.contains("at most 24"), "{long}");
        let odd = name_key("ann<script>").unwrap_err();
        assert!(odd.contains("'<'"), "{odd}");
    }

    #[test]
    fn a_password_matches_its_own_hash_only() {
        let hash = hash_password("correct horse");
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(!hash.contains("correct horse"));
        assert!(password_matches("correct horse", &hash));
        assert!(!password_matches("correct horsE", &hash));
        assert!(!password_matches("correct horse", "not a hash"));
        assert_ne!(
            hash,
            hash_password("correct horse"),
            "each hash has its own salt"
        );
    }

    #[test]
    fn only_a_well_formed_session_cookie_is_read() {
        let token = "ab".repeat(32);
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("other=1; {SESSION_COOKIE}={token}")).unwrap(),
        );
        assert_eq!(session_token(&headers), Some(token.as_str()));
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("{SESSION_COOKIE}=short")).unwrap(),
        );
        assert_eq!(session_token(&headers), None);
    }
}
