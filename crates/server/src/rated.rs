//! Rated games beyond the store: the leaderboard of each game family
//! (`GET /api/leaderboard/{game}` and its page, `/leaderboard/{game}`), a player's
//! ratings as their page shows them, and, at start, the rating of games that ended
//! while the server stopped before rating them.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use calltrump_engine::catalog::GameKind;
use calltrump_table::Table;
use serde::{Deserialize, Serialize};

use crate::hub::{now_secs, Hub};
use crate::rating::anchors::{anchor, plays_like, Band, GAMES_TO_COMPARE, LEVELS};
use crate::rating::{RatedGame, Rating};
use crate::request::error;
use crate::store::{Store, StoreError, StoredRating};

/// Rated games a player needs to be on a leaderboard, unless it asks for fewer.
pub const MIN_GAMES: i64 = 5;

/// Most players a leaderboard lists.
pub const LEADERS: i64 = 100;

/// The routes of the leaderboards.
pub fn routes() -> Router<Hub> {
    Router::new()
        .route("/api/leaderboard/{game}", get(leaderboard))
        .route("/leaderboard/{game}", get(crate::pages::leaderboard_page))
}

/// A leaderboard's query: `min_games`, at least 1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderQuery {
    min_games: Option<i64>,
}

/// A rating as the pages show it: with the bot level it is nearest to.
#[derive(Debug, Serialize)]
pub struct ShownRating {
    /// The game family.
    pub family: String,
    /// The mean.
    pub mu: f64,
    /// The uncertainty.
    pub sigma: f64,
    /// Rated games played.
    pub games: i64,
    /// The bot level (or band of levels the matches do not tell apart) this rating plays
    /// like, once mean ± uncertainty is nearer it than any other: "plays like hard";
    /// `None` until the player has enough rated games.
    pub level: Option<Band>,
    /// About how many rated games a player needs before `level` is named.
    pub games_to_compare: i64,
    /// The bot levels' ratings of the family, weakest first.
    pub bots: Vec<BotRating>,
}

/// A bot level's rating (its anchor).
#[derive(Debug, Serialize)]
pub struct BotRating {
    /// The level.
    pub level: &'static str,
    /// The mean.
    pub mu: f64,
    /// The uncertainty.
    pub sigma: f64,
}

/// The bot levels' ratings of `family`, weakest first.
fn bots(family: &str) -> Vec<BotRating> {
    LEVELS
        .into_iter()
        .map(|level| {
            let rating = anchor(family, level);
            BotRating {
                level,
                mu: rating.mu,
                sigma: rating.sigma,
            }
        })
        .collect()
}

impl From<StoredRating> for ShownRating {
    fn from(r: StoredRating) -> ShownRating {
        ShownRating {
            level: plays_like(
                &r.family,
                Rating {
                    mu: r.mu,
                    sigma: r.sigma,
                },
            ),
            games_to_compare: GAMES_TO_COMPARE,
            bots: bots(&r.family),
            family: r.family,
            mu: r.mu,
            sigma: r.sigma,
            games: r.games,
        }
    }
}

/// `GET /api/leaderboard/{game}?min_games=N`: `{game, min_games, players, bots}`, the
/// best rated players of the family with at least N rated games (default
/// [`MIN_GAMES`]), by their conservative rating (mean less three uncertainties), each
/// with the bot level they play like (or null, see [`ShownRating`]); and the
/// bots' anchors. 404 for a game not rated.
async fn leaderboard(
    State(hub): State<Hub>,
    Path(game): Path<String>,
    query: Result<Query<LeaderQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Some(family) = GameKind::ALL
        .map(GameKind::name)
        .into_iter()
        .find(|f| *f == game)
    else {
        return error(
            StatusCode::NOT_FOUND,
            format!("there is no rated game {game:?}: kaibosh, bid-euchre or kout"),
        );
    };
    let min_games = match query {
        Ok(Query(LeaderQuery { min_games: None })) => MIN_GAMES,
        Ok(Query(LeaderQuery { min_games: Some(n) })) if n >= 1 => n,
        _ => {
            return error(
                StatusCode::BAD_REQUEST,
                "the query takes min_games=N alone, N a whole number of at least 1",
            )
        }
    };
    let leaders = match hub
        .shared()
        .store
        .ratings()
        .leaderboard(family, min_games, LEADERS)
        .await
    {
        Ok(leaders) => leaders,
        Err(e) => {
            tracing::error!("leaderboard: {e}");
            return error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
        }
    };
    let players: Vec<_> = leaders
        .into_iter()
        .map(|l| {
            serde_json::json!({
                "name": l.name,
                "mu": l.mu,
                "sigma": l.sigma,
                "games": l.games,
                "level": plays_like(family, Rating { mu: l.mu, sigma: l.sigma }),
            })
        })
        .collect();
    Json(serde_json::json!({
        "game": family,
        "min_games": min_games,
        "players": players,
        "bots": bots(family),
    }))
    .into_response()
}

/// Rates every rated game over and not rated (the server stopped between a game's end
/// and its rating): how many. A table whose log does not replay is skipped and logged.
pub async fn rate_missed(store: &dyn Store) -> Result<usize, StoreError> {
    let mut rated = 0;
    for table in store.ratings().unrated_games().await? {
        let log = store.log(&table.id).await?;
        let outcome = Table::restore(table.settings.clone(), table.deal_rng.clone(), &log)
            .ok()
            .and_then(|t| t.outcome());
        let Some(outcome) = outcome else {
            tracing::warn!(table = %table.id, "a rated game over does not replay to its end: not rated");
            continue;
        };
        let game = RatedGame::new(&table.id, &table.settings.rules, &table.seats, outcome);
        if store.ratings().rate_game(&game, now_secs()).await? {
            tracing::info!(table = %table.id, "a rated game the server had not rated is rated");
            rated += 1;
        }
    }
    Ok(rated)
}
