//! The ratings part of the store ([`Ratings`]): each account's rating per game family,
//! its history, and which games were rated, on SQLite and PostgreSQL alike (migrations
//! `0005` and `0004`).

use std::collections::HashMap;

use serde::Serialize;

use super::sqlite::TableRow;
use super::{PostgresStore, SqliteStore, StoreFuture, StoredTable};
use crate::rating::{RatedGame, Rating};

/// An account's rating at a game family.
#[derive(Clone, Debug, PartialEq, Serialize, sqlx::FromRow)]
pub struct StoredRating {
    /// The family (`kaibosh`, `bid-euchre`, `kout`).
    pub family: String,
    /// The mean.
    pub mu: f64,
    /// The uncertainty.
    pub sigma: f64,
    /// Rated games played.
    pub games: i64,
}

/// An account's rating after one rated game.
#[derive(Clone, Debug, PartialEq, Serialize, sqlx::FromRow)]
pub struct RatingPoint {
    /// The family.
    pub family: String,
    /// The game's table.
    #[sqlx(rename = "table_id")]
    pub table: String,
    /// The mean after the game.
    pub mu: f64,
    /// The uncertainty after it.
    pub sigma: f64,
    /// The account's rated games of the family, this one included.
    pub games: i64,
    /// Seconds since 1970 when it was rated.
    pub at: i64,
}

/// A leaderboard's line.
#[derive(Clone, Debug, PartialEq, Serialize, sqlx::FromRow)]
pub struct Leader {
    /// The account's name.
    pub name: String,
    /// The mean.
    pub mu: f64,
    /// The uncertainty.
    pub sigma: f64,
    /// Rated games played.
    pub games: i64,
}

/// Where ratings are kept.
pub trait Ratings: Send + Sync {
    /// Rates `game` at `at` (seconds since 1970) in one transaction: every account's
    /// rating of the family moves, with a point of its history. A game rated already
    /// changes nothing (`false`), so that rating again after a crash is harmless; an
    /// account deleted meanwhile is skipped.
    fn rate_game<'a>(&'a self, game: &'a RatedGame, at: i64) -> StoreFuture<'a, bool>;
    /// Account `id`'s ratings, one per family it played rated.
    fn ratings<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredRating>>;
    /// Account `id`'s rating after each of its rated games, oldest first per family.
    fn rating_history<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<RatingPoint>>;
    /// The `limit` best of `family` with at least `min_games` rated games, by their
    /// conservative rating (mean less three uncertainties), best first.
    fn leaderboard<'a>(
        &'a self,
        family: &'a str,
        min_games: i64,
        limit: i64,
    ) -> StoreFuture<'a, Vec<Leader>>;
    /// Every rated table whose game is over and not rated (the server stopped between
    /// its end and its rating), oldest first.
    fn unrated_games(&self) -> StoreFuture<'_, Vec<StoredTable>>;
}

/// The rated tables over and not rated.
const UNRATED: &str = "SELECT * FROM tables WHERE status = 'over' \
                       AND settings LIKE '%\"rated\":true%' \
                       AND id NOT IN (SELECT table_id FROM rated_games) ORDER BY created_at, id";

/// The leaderboard's order: a player's conservative rating.
const LEADER_ORDER: &str = "ORDER BY (ratings.mu - 3 * ratings.sigma) DESC, accounts.name";

// The queries, one text for both stores: SQLite reads `$N` as PostgreSQL does (the Nth
// bound value).

/// A game marked rated, once: nothing if it was already.
const MARK_RATED: &str = "INSERT INTO rated_games (table_id, family, at) VALUES ($1, $2, $3) \
                          ON CONFLICT (table_id) DO NOTHING";
/// A new player's rating of a family, unless the account has one (or is deleted).
const NEW_RATING: &str = "INSERT INTO ratings (account_id, family, mu, sigma, games) \
                          SELECT id, $1, $2, $3, 0 FROM accounts WHERE id = $4 \
                          ON CONFLICT (account_id, family) DO NOTHING";
/// An account's rating of a family (PostgreSQL adds its row lock; SQLite's transaction
/// holds the write lock from its first write).
const RATING_OF: &str = "SELECT mu, sigma FROM ratings WHERE account_id = $1 AND family = $2";
/// The rating after the game, one more game played.
const MOVE_RATING: &str = "UPDATE ratings SET mu = $1, sigma = $2, games = games + 1 \
                           WHERE account_id = $3 AND family = $4";
/// The rating's point of history after the game.
const HISTORY_POINT: &str = "INSERT INTO rating_history \
                             (account_id, family, table_id, mu, sigma, games, at) \
                             SELECT account_id, family, $1, mu, sigma, games, $2 FROM ratings \
                             WHERE account_id = $3 AND family = $4";
/// An account's ratings.
const RATINGS: &str =
    "SELECT family, mu, sigma, games FROM ratings WHERE account_id = $1 ORDER BY family";
/// An account's history, oldest first per family.
const HISTORY: &str = "SELECT family, table_id, mu, sigma, games, at FROM rating_history \
                       WHERE account_id = $1 ORDER BY family, games";

/// A family's leaderboard.
fn leaderboard_sql() -> String {
    format!(
        "SELECT accounts.name, ratings.mu, ratings.sigma, ratings.games FROM ratings \
         JOIN accounts ON accounts.id = ratings.account_id \
         WHERE ratings.family = $1 AND ratings.games >= $2 {LEADER_ORDER} LIMIT $3"
    )
}

/// The methods of [`Ratings`] but `unrated_games`, alike on both stores: the same
/// queries over each store's pool; `$lock` ends the read of a rating to be moved.
macro_rules! shared_ratings {
    ($lock:expr) => {
        fn rate_game<'a>(&'a self, game: &'a RatedGame, at: i64) -> StoreFuture<'a, bool> {
            Box::pin(async move {
                let mut tx = self.pool.begin().await?;
                // First a write: on SQLite the transaction holds the write lock from here.
                let fresh = sqlx::query(MARK_RATED)
                    .bind(&game.table)
                    .bind(&game.family)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                if fresh.rows_affected() == 0 {
                    return Ok(false);
                }
                let new = Rating::new();
                let read = format!("{RATING_OF}{}", $lock);
                let mut before = HashMap::new();
                // In the accounts' order, so that two games ending at once lock alike.
                for id in game.accounts() {
                    sqlx::query(NEW_RATING)
                        .bind(&game.family)
                        .bind(new.mu)
                        .bind(new.sigma)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    let found: Option<(f64, f64)> = sqlx::query_as(&read)
                        .bind(id)
                        .bind(&game.family)
                        .fetch_optional(&mut *tx)
                        .await?;
                    if let Some((mu, sigma)) = found {
                        before.insert(id.to_string(), Rating { mu, sigma });
                    }
                }
                for (id, after) in game.rate(|id| before.get(id).copied().unwrap_or_default()) {
                    if !before.contains_key(&id) {
                        continue;
                    }
                    sqlx::query(MOVE_RATING)
                        .bind(after.mu)
                        .bind(after.sigma)
                        .bind(&id)
                        .bind(&game.family)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(HISTORY_POINT)
                        .bind(&game.table)
                        .bind(at)
                        .bind(&id)
                        .bind(&game.family)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok(true)
            })
        }

        fn ratings<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredRating>> {
            Box::pin(async move {
                Ok(sqlx::query_as(RATINGS)
                    .bind(id)
                    .fetch_all(&self.pool)
                    .await?)
            })
        }

        fn rating_history<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<RatingPoint>> {
            Box::pin(async move {
                Ok(sqlx::query_as(HISTORY)
                    .bind(id)
                    .fetch_all(&self.pool)
                    .await?)
            })
        }

        fn leaderboard<'a>(
            &'a self,
            family: &'a str,
            min_games: i64,
            limit: i64,
        ) -> StoreFuture<'a, Vec<Leader>> {
            Box::pin(async move {
                Ok(sqlx::query_as(&leaderboard_sql())
                    .bind(family)
                    .bind(min_games)
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await?)
            })
        }
    };
}

impl Ratings for SqliteStore {
    shared_ratings!("");

    fn unrated_games(&self) -> StoreFuture<'_, Vec<StoredTable>> {
        Box::pin(async move {
            let rows: Vec<TableRow> = sqlx::query_as(UNRATED).fetch_all(&self.pool).await?;
            rows.into_iter().map(TableRow::typed).collect()
        })
    }
}

impl Ratings for PostgresStore {
    shared_ratings!(" FOR UPDATE");

    fn unrated_games(&self) -> StoreFuture<'_, Vec<StoredTable>> {
        Box::pin(async move {
            let rows = sqlx::query(UNRATED).fetch_all(&self.pool).await?;
            rows.iter().map(super::postgres::table_of).collect()
        })
    }
}
