//! Players who come back as themselves: "My tables" (`GET /api/me/tables`: every seat
//! bound to the signed-in account, with a link that takes it from any device), a
//! player's games (`GET /api/players/{name}` and its page, `/players/{name}`), and what
//! deleting an account does to the tables it sits at in play.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use calltrump_engine::{Outcome, Seat};
use calltrump_table::Table;
use serde::Serialize;

use crate::accounts::{name_key, signed_in};
use crate::hub::Hub;
use crate::model::{Sitter, TableStatus};
use crate::rated::ShownRating;
use crate::request::error;
use crate::store::{StoreError, StoredTable};

/// Most of a player's tables read for their page (the newest): each finished one is
/// replayed from its log to learn who won.
pub const PLAYER_TABLES: usize = 500;

/// Most outcomes of finished games kept in memory (each a few bytes and an id); past
/// it, they are all forgotten, to be worked out again.
const MOST_OUTCOMES: usize = 100_000;

/// The outcome of each finished table's game worked out so far (none: its log does not
/// replay to one): a game over never changes, so a player's page replays it once.
#[derive(Default)]
struct Outcomes(Mutex<HashMap<String, Option<Outcome>>>);

/// The routes of "My tables" and of the players' pages.
pub fn routes() -> Router<Hub> {
    Router::new()
        .route("/api/me/tables", get(my_tables))
        .route("/api/players/{name}", get(player))
        .route("/players/{name}", get(crate::pages::player_page))
        .layer(Extension(Arc::new(Outcomes::default())))
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
    /// The host who invited the account to the seat by name, until it sits down.
    #[serde(skip_serializing_if = "Option::is_none")]
    invited_by: Option<String>,
    /// Who sits at each seat now, so that two tables of one game tell apart.
    players: Vec<PlayerAt>,
    /// Whether the game is rated.
    rated: bool,
    /// The night whose set the table is (its page is `/night/{id}`); null if none.
    night: Option<String>,
}

/// Who sits at a seat, as "My tables" shows it: a person's name or a bot (a named one,
/// a night's player, with its name); none for a seat waiting for a person.
#[derive(Debug, Serialize)]
struct PlayerAt {
    name: Option<String>,
    bot: bool,
}

/// The seats of `table` bound to account `id`.
fn held_seats(table: &StoredTable, id: &str) -> Vec<HeldSeat> {
    let rules = &table.settings.rules;
    table
        .seats
        .iter()
        .enumerate()
        .filter(|(_, record)| record.account.as_deref() == Some(id))
        .map(|(i, record)| HeldSeat {
            table: table.id.clone(),
            game: rules.game().to_string(),
            variant: rules.variant().to_string(),
            status: table.status,
            seat: Seat(i as u8),
            created_at: table.created_at,
            link: format!("/table/{}#seat={i}", table.id),
            invited_by: record.invited_by.clone(),
            players: table
                .seats
                .iter()
                .map(|at| PlayerAt {
                    name: at.name.clone().filter(|n| !n.is_empty()),
                    bot: matches!(at.sitter, Sitter::Bot(_)),
                })
                .collect(),
            rated: table.rated,
            night: table.night.clone(),
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
    /// Ended by its host before the game's end: no result, and not counted.
    Ended,
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

/// The outcome of each of the finished `tables`' games, by id: those not kept yet are
/// replayed from their logs, off the async threads, and kept.
async fn outcomes(
    hub: &Hub,
    kept: &Outcomes,
    tables: &[&StoredTable],
) -> Result<HashMap<String, Option<Outcome>>, Response> {
    let mut known = HashMap::new();
    let mut missing = Vec::new();
    {
        let outcomes = kept.0.lock().expect("the outcomes are never poisoned");
        for table in tables {
            match outcomes.get(&table.id) {
                Some(outcome) => {
                    known.insert(table.id.clone(), *outcome);
                }
                None => missing.push(*table),
            }
        }
    }
    let mut logs = Vec::with_capacity(missing.len());
    for table in missing {
        let log = hub
            .shared()
            .store
            .log(&table.id)
            .await
            .map_err(store_failed)?;
        logs.push((table.clone(), log));
    }
    let worked_out = tokio::task::spawn_blocking(move || {
        logs.into_iter()
            .map(|(table, log)| {
                let restored = Table::restore(table.settings, table.deal_rng, &log);
                (table.id, restored.ok().and_then(|t| t.outcome()))
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|_| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the games could not be replayed",
        )
    })?;
    let mut outcomes = kept.0.lock().expect("the outcomes are never poisoned");
    if outcomes.len() + worked_out.len() > MOST_OUTCOMES {
        outcomes.clear();
    }
    for (id, outcome) in worked_out {
        outcomes.insert(id.clone(), outcome);
        known.insert(id, outcome);
    }
    Ok(known)
}

/// How a game that ended in `outcome` went for `seat`.
fn result_for(outcome: Outcome, seat: Seat) -> Result_ {
    match outcome {
        Outcome::Winner(team) if team == seat.team() => Result_::Won,
        Outcome::Winner(_) => Result_::Lost,
        Outcome::Draw => Result_::Drawn,
    }
}

/// `GET /api/players/{name}`: `{name, tallies, games, ratings, rating_history}`, the
/// player's games over (newest first, each won, lost or drawn, or ended by its host and not counted, with its replay and
/// analysis), their count per game and variant, their rating per game family (with the
/// bot level nearest) and its history; for the player signed in, `unfinished` adds the tables they sit at
/// in play. 404 for a name no account has.
async fn player(
    State(hub): State<Hub>,
    Extension(kept): Extension<Arc<Outcomes>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
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
    let tables: Vec<&StoredTable> = tables.iter().take(PLAYER_TABLES).collect();
    let over: Vec<&StoredTable> = tables
        .iter()
        .copied()
        .filter(|t| t.status == TableStatus::Over)
        .collect();
    let outcomes = match outcomes(&hub, &kept, &over).await {
        Ok(outcomes) => outcomes,
        Err(failed) => return failed,
    };
    let mut games = Vec::new();
    let mut unfinished = Vec::new();
    let mut tallies: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for table in tables {
        for held in held_seats(table, &account.id) {
            match table.status {
                TableStatus::Over => {}
                TableStatus::Open | TableStatus::Playing => {
                    unfinished.push(held);
                    continue;
                }
                // Ended by its host before its end: listed, with no result to count.
                TableStatus::Ended => {
                    games.push(PlayedGame {
                        replay: format!("/replay/{}", held.table),
                        analysis: format!("/api/tables/{}/analysis", held.table),
                        seat: held,
                        result: Result_::Ended,
                    });
                    continue;
                }
            }
            let Some(Some(outcome)) = outcomes.get(&table.id) else {
                continue;
            };
            let result = result_for(*outcome, held.seat);
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
                Result_::Ended => {}
            }
            games.push(PlayedGame {
                replay: format!("/replay/{}", held.table),
                analysis: format!("/api/tables/{}/analysis", held.table),
                seat: held,
                result,
            });
        }
    }
    let ratings = hub.shared().store.ratings();
    let (rated, history) = match (
        ratings.ratings(&account.id).await,
        ratings.rating_history(&account.id).await,
    ) {
        (Ok(rated), Ok(history)) => (rated, history),
        (Err(e), _) | (_, Err(e)) => return store_failed(e),
    };
    let mut answer = serde_json::json!({
        "name": account.name,
        "since": account.created_at,
        "tallies": tallies.into_values().collect::<Vec<_>>(),
        "games": games,
        "ratings": rated.into_iter().map(ShownRating::from).collect::<Vec<_>>(),
        "rating_history": history,
    });
    if own {
        answer["unfinished"] = serde_json::json!(unfinished);
    }
    Json(answer).into_response()
}
