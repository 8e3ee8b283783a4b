//! The ratings part of the `Store` contract (run with the rest by
//! [`store_contract_tests!`](crate::store_contract_tests)).

use calltrump_server::model::TableStatus;
use calltrump_server::rating::{Rated, RatedGame, Rating};
use calltrump_server::store::Store;
use skillratings::weng_lin::{weng_lin_two_teams, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

use super::contract::{account, new_table};

/// A game of table `table` at kaibosh: `winners` (accounts) and a hard bot against
/// `losers` and an easy bot.
fn game(table: &str, winners: &str, losers: &str) -> RatedGame {
    RatedGame {
        table: table.into(),
        family: "kaibosh".into(),
        first: vec![
            Rated::Account(winners.into()),
            Rated::Fixed(Rating {
                mu: 30.0,
                sigma: 2.0,
            }),
        ],
        second: vec![
            Rated::Account(losers.into()),
            Rated::Fixed(Rating {
                mu: 20.0,
                sigma: 2.0,
            }),
        ],
        draw: false,
    }
}

fn weng_lin(r: (f64, f64)) -> WengLinRating {
    WengLinRating {
        rating: r.0,
        uncertainty: r.1,
    }
}

pub async fn a_rated_game_moves_each_accounts_rating_once_as_weng_lin_says(store: &dyn Store) {
    for (id, name) in [("a1", "Ann"), ("b1", "Bob")] {
        assert!(store
            .accounts()
            .create_account(&account(id, name))
            .await
            .unwrap());
    }
    let ratings = store.ratings();
    assert!(ratings.ratings("a1").await.unwrap().is_empty());
    assert!(ratings
        .rate_game(&game("t1", "a1", "b1"), 100)
        .await
        .unwrap());
    // Rated again (a restart after a crash): nothing moves.
    assert!(!ratings
        .rate_game(&game("t1", "a1", "b1"), 101)
        .await
        .unwrap());
    let (won, lost) = weng_lin_two_teams(
        &[WengLinRating::new(), weng_lin((30.0, 2.0))],
        &[WengLinRating::new(), weng_lin((20.0, 2.0))],
        &Outcomes::WIN,
        &WengLinConfig::new(),
    );
    let ann = ratings.ratings("a1").await.unwrap();
    let bob = ratings.ratings("b1").await.unwrap();
    assert_eq!(ann.len(), 1, "{ann:?}");
    assert_eq!((ann[0].family.as_str(), ann[0].games), ("kaibosh", 1));
    assert!((ann[0].mu - won[0].rating).abs() < 1e-9, "{ann:?} {won:?}");
    assert!((ann[0].sigma - won[0].uncertainty).abs() < 1e-9);
    assert!(
        (bob[0].mu - lost[0].rating).abs() < 1e-9,
        "{bob:?} {lost:?}"
    );
    assert!(ann[0].mu > 25.0 && bob[0].mu < 25.0);

    // A second game, the other way round: Ann's history has both, in order.
    assert!(ratings
        .rate_game(&game("t2", "b1", "a1"), 200)
        .await
        .unwrap());
    let history = ratings.rating_history("a1").await.unwrap();
    let tables: Vec<_> = history
        .iter()
        .map(|p| (p.table.as_str(), p.games, p.at))
        .collect();
    assert_eq!(tables, [("t1", 1, 100), ("t2", 2, 200)]);
    assert!(history[1].mu < history[0].mu, "{history:?}");
    let now = ratings.ratings("a1").await.unwrap();
    assert_eq!((now[0].mu, now[0].games), (history[1].mu, 2));
}

pub async fn the_leaderboard_lists_those_with_enough_games_best_first(store: &dyn Store) {
    for (id, name) in [("a1", "Ann"), ("b1", "Bob"), ("c1", "Cy")] {
        assert!(store
            .accounts()
            .create_account(&account(id, name))
            .await
            .unwrap());
    }
    let ratings = store.ratings();
    ratings.rate_game(&game("t1", "a1", "b1"), 1).await.unwrap();
    ratings.rate_game(&game("t2", "a1", "b1"), 2).await.unwrap();
    ratings.rate_game(&game("t3", "c1", "b1"), 3).await.unwrap();
    let board = ratings.leaderboard("kaibosh", 2, 10).await.unwrap();
    let names: Vec<_> = board.iter().map(|l| (l.name.as_str(), l.games)).collect();
    assert_eq!(names, [("Ann", 2), ("Bob", 3)]);
    let all = ratings.leaderboard("kaibosh", 1, 10).await.unwrap();
    let names: Vec<_> = all.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Cy", "Bob"]);
    assert_eq!(ratings.leaderboard("kaibosh", 1, 1).await.unwrap().len(), 1);
    assert!(ratings.leaderboard("kout", 1, 10).await.unwrap().is_empty());
    // A deleted account's ratings go with it.
    assert!(store.accounts().delete_account("a1").await.unwrap());
    let names: Vec<_> = ratings
        .leaderboard("kaibosh", 1, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|l| l.name)
        .collect();
    assert_eq!(names, ["Cy", "Bob"]);
    assert!(ratings.rating_history("a1").await.unwrap().is_empty());
}

pub async fn a_rated_game_over_and_not_rated_is_found_until_it_is(store: &dyn Store) {
    let rated = |id: &str, status| {
        let mut table = new_table(id, 1, status, 10);
        table.rated = true;
        table
    };
    store
        .create_table(&rated("over", TableStatus::Over))
        .await
        .unwrap();
    store
        .create_table(&rated("playing", TableStatus::Playing))
        .await
        .unwrap();
    store
        .create_table(&new_table("unrated", 1, TableStatus::Over, 10))
        .await
        .unwrap();
    let found: Vec<String> = store
        .ratings()
        .unrated_games()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(found, ["over"]);
    assert!(store
        .ratings()
        .rate_game(&game("over", "a1", "b1"), 5)
        .await
        .unwrap());
    assert!(store.ratings().unrated_games().await.unwrap().is_empty());
}
