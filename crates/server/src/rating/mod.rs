//! Ratings: at the end of a rated table's game every seat's rating moves by Weng-Lin
//! (the `skillratings` crate, its default constants: a new player is 25 ± 25/3), one
//! rating per game family (`kaibosh`, `bid-euchre`, `kout`: the variants of a game share
//! it). Partnership-aware: a team's strength is the sum of its players', and each player
//! moves by their share of the team's surprise. Bots are rated players whose ratings are
//! anchors ([`anchors`]): they take part in every update but do not move, so that the
//! scale stays tied to the bots' measured strength.

pub mod anchors;

use calltrump_engine::{GameRules, Outcome, Seat};
use serde::Serialize;
use skillratings::weng_lin::{weng_lin_two_teams, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

use crate::model::SeatRecord;

/// A rating: its mean and its uncertainty (one standard deviation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The mean.
    pub mu: f64,
    /// The uncertainty.
    pub sigma: f64,
}

impl Rating {
    /// A new player's rating: 25 ± 8.33.
    pub fn new() -> Rating {
        WengLinRating::new().into()
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::new()
    }
}

impl From<WengLinRating> for Rating {
    fn from(r: WengLinRating) -> Rating {
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
        }
    }
}

impl From<Rating> for WengLinRating {
    fn from(r: Rating) -> WengLinRating {
        WengLinRating {
            rating: r.mu,
            uncertainty: r.sigma,
        }
    }
}

/// The rating family of a game's rules: the game's name.
pub fn family(rules: &GameRules) -> &'static str {
    rules.game()
}

/// Who plays a seat of a rated game.
#[derive(Clone, Debug, PartialEq)]
pub enum Rated {
    /// An account, whose rating moves.
    Account(String),
    /// A bot, or a seat no account holds (a former player): a fixed rating.
    Fixed(Rating),
}

/// A rated game over, as the store rates it: its table, family and both teams, the
/// winner first (or `draw`).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The table.
    pub table: String,
    /// The rating family.
    pub family: String,
    /// The winning team's seats (either team's, in a draw).
    pub first: Vec<Rated>,
    /// The other team's seats.
    pub second: Vec<Rated>,
    /// Whether the game was drawn.
    pub draw: bool,
}

impl RatedGame {
    /// The rated game of table `table` with `seats`, which ended in `outcome`. A bot's
    /// seat (or one a bot stands in for whose person left no account) takes its level's
    /// anchor.
    pub fn new(table: &str, rules: &GameRules, seats: &[SeatRecord], outcome: Outcome) -> Self {
        let family = family(rules);
        let rated = |record: &SeatRecord| match (&record.account, record.bot_level()) {
            (Some(account), _) => Rated::Account(account.clone()),
            (None, Some(level)) => Rated::Fixed(anchors::anchor(family, level)),
            (None, None) => Rated::Fixed(Rating::new()),
        };
        let (winner, draw) = match outcome {
            Outcome::Winner(team) => (team, false),
            Outcome::Draw => (Seat(0).team(), true),
        };
        let (mut first, mut second) = (Vec::new(), Vec::new());
        for (i, record) in seats.iter().enumerate() {
            if Seat(i as u8).team() == winner {
                first.push(rated(record));
            } else {
                second.push(rated(record));
            }
        }
        RatedGame {
            table: table.to_string(),
            family: family.to_string(),
            first,
            second,
            draw,
        }
    }

    /// The accounts of the game, each once.
    pub fn accounts(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self
            .first
            .iter()
            .chain(&self.second)
            .filter_map(|r| match r {
                Rated::Account(id) => Some(id.as_str()),
                Rated::Fixed(_) => None,
            })
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Every account's new rating, given each one's rating before (`before`, by id; a
    /// missing one is new).
    pub fn rate(&self, before: impl Fn(&str) -> Rating) -> Vec<(String, Rating)> {
        let team = |seats: &[Rated]| -> Vec<WengLinRating> {
            seats
                .iter()
                .map(|r| match r {
                    Rated::Account(id) => before(id).into(),
                    Rated::Fixed(rating) => (*rating).into(),
                })
                .collect()
        };
        let outcome = if self.draw {
            Outcomes::DRAW
        } else {
            Outcomes::WIN
        };
        let (first, second) = weng_lin_two_teams(
            &team(&self.first),
            &team(&self.second),
            &outcome,
            &WengLinConfig::new(),
        );
        let mut after: Vec<(String, Rating)> = Vec::new();
        let seats = self
            .first
            .iter()
            .zip(first)
            .chain(self.second.iter().zip(second));
        for (seat, rating) in seats {
            if let Rated::Account(id) = seat {
                // An account at two seats (it should not be) moves once.
                if !after.iter().any(|(a, _)| a == id) {
                    after.push((id.clone(), rating.into()));
                }
            }
        }
        after
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calltrump_engine::Team;

    fn seat(account: Option<&str>, bot: Option<&str>) -> SeatRecord {
        SeatRecord {
            token: "t".into(),
            name: None,
            sitter: match bot {
                Some(level) => crate::model::Sitter::Bot(level.into()),
                None => crate::model::Sitter::Person,
            },
            stand_in: false,
            account: account.map(str::to_string),
            deadline_ms: None,
            former: Vec::new(),
            invited_by: None,
        }
    }

    #[test]
    fn winners_go_up_losers_down_and_a_team_moves_as_weng_lin_says() {
        let rules = GameRules::from_header("kaibosh", None, &Default::default()).unwrap();
        let seats = [
            seat(Some("a1"), None),
            seat(Some("b1"), None),
            seat(None, Some("hard")),
            seat(None, Some("easy")),
        ];
        let game = RatedGame::new("t1", &rules, &seats, Outcome::Winner(Team(0)));
        assert_eq!(game.family, "kaibosh");
        assert_eq!(game.accounts(), ["a1", "b1"]);
        let after = game.rate(|_| Rating::new());
        let of = |id: &str| after.iter().find(|(a, _)| a == id).unwrap().1;
        assert!(of("a1").mu > 25.0, "{after:?}");
        assert!(of("b1").mu < 25.0, "{after:?}");
        assert!(of("a1").sigma < Rating::new().sigma);
        // The team sums are what the crate's two-team update gives.
        let hard: WengLinRating = anchors::anchor("kaibosh", "hard").into();
        let easy: WengLinRating = anchors::anchor("kaibosh", "easy").into();
        let (won, lost) = weng_lin_two_teams(
            &[WengLinRating::new(), hard],
            &[WengLinRating::new(), easy],
            &Outcomes::WIN,
            &WengLinConfig::new(),
        );
        assert!((of("a1").mu - won[0].rating).abs() < 1e-12);
        assert!((of("b1").mu - lost[0].rating).abs() < 1e-12);
        // The bots take part at their anchors, and have no rating to move.
        assert_eq!(game.first[1], Rated::Fixed(hard.into()));
        assert_eq!(game.second[1], Rated::Fixed(easy.into()));
        assert_eq!(after.len(), 2);
    }

    #[test]
    fn a_draw_between_equals_moves_no_mean() {
        let rules = GameRules::from_header("kaibosh", None, &Default::default()).unwrap();
        let seats: Vec<SeatRecord> = ["a", "b", "c", "d"]
            .iter()
            .map(|id| seat(Some(id), None))
            .collect();
        let game = RatedGame::new("t1", &rules, &seats, Outcome::Draw);
        for (_, rating) in game.rate(|_| Rating::new()) {
            assert!((rating.mu - 25.0).abs() < 1e-9);
            assert!(rating.sigma < Rating::new().sigma);
        }
    }
}
