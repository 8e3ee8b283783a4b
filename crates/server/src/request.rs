//! How the HTTP routes read a JSON request and answer: shared by [`crate::http`] and
//! [`crate::night`].

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::hub::HubError;

/// A request's JSON body, or what is wrong with it as `what`'s JSON.
fn json_body<T: serde::de::DeserializeOwned>(body: &[u8], what: &str) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| format!("the {what}'s JSON: {}", plain_json_error(&e)))
}

/// A JSON library's error in the words of a reader of the protocol: Rust's integer
/// types are whole numbers to them.
pub(crate) fn plain_json_error(error: &serde_json::Error) -> String {
    ["u64", "u32", "u16", "u8", "usize", "i64", "i32"]
        .iter()
        .fold(error.to_string(), |text, rust| {
            text.replace(&format!("expected {rust}"), "expected a whole number")
        })
}

/// A request refused before it is handled: its status and what is wrong, answered as
/// [`error`] answers.
pub(crate) struct Refusal(pub(crate) StatusCode, pub(crate) String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

/// Whether the request says its body is JSON: `Content-Type: application/json` (with
/// or without parameters such as `charset`).
fn says_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .and_then(|t| t.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// A request body that must be JSON (`what`, e.g. `table`): refused with 415 unless it
/// is sent as `Content-Type: application/json`: a form or plain text is not read as
/// JSON by chance.
pub(crate) fn json_content(headers: &HeaderMap, what: &str) -> Result<(), Refusal> {
    if says_json(headers) {
        return Ok(());
    }
    let sent = headers
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .map_or("no Content-Type".to_string(), |t| {
            format!("Content-Type: {t}")
        });
    Err(Refusal(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        format!("the {what} must be JSON sent with Content-Type: application/json, not {sent}"),
    ))
}

/// A JSON request body read as `T`: 415 if it is not sent as JSON, 400 naming what is
/// wrong (a syntax error, a missing field, a field `T` does not know).
pub(crate) fn json_request<T: serde::de::DeserializeOwned>(
    headers: &HeaderMap,
    body: &[u8],
    what: &str,
) -> Result<T, Refusal> {
    json_content(headers, what)?;
    json_body(body, what).map_err(|message| Refusal(StatusCode::BAD_REQUEST, message))
}

/// An error as JSON: `{"error": "..."}` with a status.
pub(crate) fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

impl IntoResponse for HubError {
    fn into_response(self) -> Response {
        let status = match self {
            HubError::BadRequest(_) => StatusCode::BAD_REQUEST,
            HubError::NoTable(_) | HubError::NoNight(_) => StatusCode::NOT_FOUND,
            HubError::Damaged(_) => StatusCode::GONE,
            HubError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            HubError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            HubError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let mut response = error(status, self.to_string());
        if status == StatusCode::TOO_MANY_REQUESTS {
            // A share frees when one of the address's tables ends: a minute is a guess.
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        }
        response
    }
}

/// The address clients reached, from the `Host` header (behind a proxy, the proxy
/// passes it on).
pub(crate) fn base_url(headers: &HeaderMap) -> String {
    // A socket relayed from another node of a cluster: the address its client reached.
    let host = headers
        .get("x-forwarded-host")
        .or_else(|| headers.get(header::HOST))
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let scheme = headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
        .filter(|p| *p == "https")
        .unwrap_or("http");
    format!("{scheme}://{host}")
}

/// The most characters of a table's or a night's id: ids are made 16 hex digits long.
const ID_MAX_CHARS: usize = 64;

/// Whether `id` could name a table or a night: 1 to [`ID_MAX_CHARS`] ASCII letters,
/// digits, `-` and `_`. Anything else names none, and is not asked of the store
/// (PostgreSQL refuses a NUL byte in text with an error, where the answer is simply "no
/// such table").
pub(crate) fn well_formed_id(id: &str) -> bool {
    (1..=ID_MAX_CHARS).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
}

/// A table's id from the address (`/…/{id}`), well formed ([`well_formed_id`]): any
/// other is 404, no such table, before any query.
pub(crate) struct TableId(pub(crate) String);

/// A night's id from the address (`/api/nights/{id}`), well formed as a table's: any
/// other is 404, no such night, before any query.
pub(crate) struct NightId(pub(crate) String);

/// The address's one `{id}`, if it is well formed; else the hub's error for it.
async fn address_id<S: Send + Sync>(
    parts: &mut Parts,
    state: &S,
    none: fn(String) -> HubError,
) -> Result<String, Response> {
    let Path(id) = Path::<String>::from_request_parts(parts, state)
        .await
        .map_err(IntoResponse::into_response)?;
    if well_formed_id(&id) {
        Ok(id)
    } else {
        Err(none(format!("{id:?}")).into_response())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for TableId {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        address_id(parts, state, HubError::NoTable)
            .await
            .map(TableId)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for NightId {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        address_id(parts, state, HubError::NoNight)
            .await
            .map(NightId)
    }
}
