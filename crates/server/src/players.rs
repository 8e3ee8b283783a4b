//! Players who come back as themselves: "My tables" (`GET /api/me/tables`: every seat
//! bound to the signed-in account, with a link that takes it from any device), a
//! player's games (`GET /api/players/{name}` and its page, `/players/{name}`), and what
//! deleting an account does to the tables it sits at in play.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use calltrump_engine::{Outcome, Seat};
use calltrump_table::Table;
use serde::Serialize;

use crate::accounts::{name_key, signed_in};
use crate::hub::Hub;
use crate::model::TableStatus;
use crate::request::error;
use crate::store::{StoreError, StoredTable};

/// Most of a player's tables read for their page (the newest): each finished one is
/// replayed from its log to learn who won.
pub const PLAYER_TABLES: usize = 500;

/// The routes of "My tables" and of the players' pages.
pub fn routes() -> Router<Hub> {
    Router::new()
        .route("/api/me/tables", get(my_tables))
        .route("/api/players/{name}", get(player))
        .route("/players/{name}", get(crate::pages::player_page))
}

/// A seat an account holds, as "My tables" and a player's page list it.
#[derive(Debug, Serialize)]
struct HeldSeat {
    table: String,
    game: String,
    variant: String,
    status: TableStatus,
    seat: Seat,
    /// Seconds since 1970 at the table's creation.
    created_at: i64,
    /// The table's page, taking the seat as its account (no token needed).
    link: String,
}

/// The seats of `table` bound to account `id`.
fn held_seats(table: &StoredTable, id: &str) -> Vec<HeldSeat> {
    let rules = &table.settings.rules;
    table
        .seats
        .iter()
        .enumerate()
        .filter(|(_, record)| record.account.as_deref() == Some(id))
        .map(|(i, _)| HeldSeat {
            table: table.id.clone(),
            game: rules.game().to_string(),
            variant: rules.variant().to_string(),
            status: table.status,
            seat: Seat(i as u8),
            created_at: table.created_at,
            link: format!("/table/{}#seat={i}", table.id),
        })
        .collect()
}

fn store_failed(e: StoreError) -> Response {
    tracing::error!("players: {e}");
    error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// `GET /api/me/tables`: `{"tables": [...]}`, every seat bound to the signed-in account
/// at a table open or playing, newest first; 401 if not signed in.
async fn my_tables(State(hub): State<Hub>, headers: HeaderMap) -> Response {
    let account = match signed_in(&hub, &headers).await {
        Ok(Some((account, _))) => account,
        Ok(None) => {
            return error(
                StatusCode::UNAUTHORIZED,
                "not signed in: POST /api/session {name, password} first",
            )
        }
        Err(failed) => return failed,
    };
    let tables = match hub
        .shared()
        .store
        .accounts()
        .account_tables(&account.id)
        .await
    {
        Ok(tables) => tables,
        Err(e) => return store_failed(e),
    };
    let held: Vec<HeldSeat> = tables
        .iter()
        .filter(|t| t.status.is_live())
        .flat_map(|t| held_seats(t, &account.id))
        .collect();
    Json(serde_json::json!({ "tables": held })).into_response()
}

/// How a finished game went for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Result_ {
    Won,
    Lost,
    Drawn,
}

/// A game over, as a player's page lists it.
#[derive(Debug, Serialize)]
struct PlayedGame {
    #[serde(flatten)]
    seat: HeldSeat,
    result: Result_,
    /// The replay's page.
    replay: String,
    /// The analysis of the game (`GET /api/tables/{id}/analysis`).
    analysis: String,
}

/// A player's count of games of one game and variant.
#[derive(Debug, Default, Serialize)]
struct Tally {
    game: String,
    variant: String,
    played: u32,
    won: u32,
    lost: u32,
    drawn: u32,
}

/// How the game of finished table `table` went for `seat`: none if its log does not
/// replay to an outcome.
async fn result_of(
    hub: &Hub,
    table: &StoredTable,
    seat: Seat,
) -> Result<Option<Result_>, StoreError> {
    let log = hub.shared().store.log(&table.id).await?;
    let restored = Table::restore(table.settings.clone(), table.deal_rng.clone(), &log);
    Ok(match restored.ok().and_then(|t| t.outcome()) {
        Some(Outcome::Winner(team)) if team == seat.team() => Some(Result_::Won),
        Some(Outcome::Winner(_)) => Some(Result_::Lost),
        Some(Outcome::Draw) => Some(Result_::Drawn),
        None => None,
    })
}

/// `GET /api/players/{name}`: `{name, tallies, games}`, the player's games over (newest
/// first, each won, lost or drawn, with its replay and analysis) and their count per
/// game and variant; for the player signed in, `unfinished` adds the tables they sit at
/// in play. 404 for a name no account has.
async fn player(State(hub): State<Hub>, Path(name): Path<String>, headers: HeaderMap) -> Response {
    let nobody = || {
        error(
            StatusCode::NOT_FOUND,
            format!("there is no player {name:?}"),
        )
    };
    let Ok((_, key)) = name_key(&name) else {
        return nobody();
    };
    let accounts = hub.shared().store.accounts();
    let account = match accounts.account_named(&key).await {
        Ok(Some(account)) => account,
        Ok(None) => return nobody(),
        Err(e) => return store_failed(e),
    };
    let own = match signed_in(&hub, &headers).await {
        Ok(me) => me.is_some_and(|(me, _)| me.id == account.id),
        Err(failed) => return failed,
    };
    let tables = match accounts.account_tables(&account.id).await {
        Ok(tables) => tables,
        Err(e) => return store_failed(e),
    };
    let mut games = Vec::new();
    let mut unfinished = Vec::new();
    let mut tallies: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for table in tables.iter().take(PLAYER_TABLES) {
        for held in held_seats(table, &account.id) {
            match table.status {
                TableStatus::Over => {}
                TableStatus::Open | TableStatus::Playing => {
                    unfinished.push(held);
                    continue;
                }
                // Ended by its host before its end: no result to count.
                TableStatus::Ended => continue,
            }
            let result = match result_of(&hub, table, held.seat).await {
                Ok(Some(result)) => result,
                Ok(None) => continue,
                Err(e) => return store_failed(e),
            };
            let tally = tallies
                .entry((held.game.clone(), held.variant.clone()))
                .or_insert_with(|| Tally {
                    game: held.game.clone(),
                    variant: held.variant.clone(),
                    ..Tally::default()
                });
            tally.played += 1;
            match result {
                Result_::Won => tally.won += 1,
                Result_::Lost => tally.lost += 1,
                Result_::Drawn => tally.drawn += 1,
            }
            games.push(PlayedGame {
                replay: format!("/replay/{}", held.table),
                analysis: format!("/api/tables/{}/analysis", held.table),
                seat: held,
                result,
            });
        }
    }
    let mut answer = serde_json::json!({
        "name": account.name,
        "since": account.created_at,
        "tallies": tallies.into_values().collect::<Vec<_>>(),
        "games": games,
    });
    if own {
        answer["unfinished"] = serde_json::json!(unfinished);
    }
    Json(answer).into_response()
}
