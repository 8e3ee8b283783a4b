//! A rated night: its host signed in, and each person at it an account, found by the
//! name the host gives them; every set's table is then rated, each seat kept for its
//! person's account from the start.

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use super::NewNight;
use crate::accounts::{name_key, signed_in};
use crate::hub::Hub;
use crate::model::Sitter;
use crate::rating::anchors::LEVELS;
use crate::request::error;

/// Each player's account by the night's order (a bot's none) and the signed-in host's
/// name (who named them), or the answer refusing the night: a host not signed in (401),
/// no person at it, a person's name no account has, one account named twice (400). An
/// unrated night has none.
pub(super) async fn night_accounts(
    hub: &Hub,
    headers: &HeaderMap,
    night: &NewNight,
) -> Result<(Vec<Option<String>>, Option<String>), Response> {
    if !night.rated {
        return Ok((Vec::new(), None));
    }
    let Some((host, _)) = signed_in(hub, headers).await? else {
        return Err(error(
            StatusCode::UNAUTHORIZED,
            "rated: only a signed-in host makes a rated night: POST /api/session {name, password} first",
        ));
    };
    let accounts = hub.shared().store.accounts();
    let mut found: Vec<Option<String>> = Vec::new();
    for (i, player) in night.players.iter().enumerate() {
        let refused =
            |why: String| error(StatusCode::BAD_REQUEST, format!("player {}: {why}", i + 1));
        // A bot is rated at its level's measured anchor: only those levels have one.
        if let Some(level) = player.sitter.bot_level() {
            if !LEVELS.contains(&level) {
                return Err(refused(format!(
                    "{} is {}: a rated night's bots are {} (their ratings are measured)",
                    player.name,
                    player.sitter,
                    LEVELS.join(", ")
                )));
            }
        }
        if player.sitter != Sitter::Person {
            found.push(None);
            continue;
        }
        let account = match name_key(&player.name) {
            Ok((_, key)) => accounts.account_named(&key).await,
            Err(_) => Ok(None),
        };
        let account = match account {
            Ok(Some(account)) => account,
            Ok(None) => {
                return Err(refused(format!(
                    "no account is called {}: at a rated night each person plays as their account",
                    crate::names::quoted(&player.name)
                )))
            }
            Err(e) => return Err(error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
        };
        if found.iter().flatten().any(|id| *id == account.id) {
            return Err(refused(format!(
                "{} is at the night already: one account, one player",
                account.name
            )));
        }
        found.push(Some(account.id));
    }
    if found.iter().all(Option::is_none) {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "rated: a rated night needs a person (it rates people)",
        ));
    }
    Ok((found, Some(host.name)))
}
