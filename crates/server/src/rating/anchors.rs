//! The bot levels' ratings: anchors worked out from whole-game matches between
//! neighbouring levels (`easy`-`medium`, `medium`-`hard`, `hard`-`expert`) of each game,
//! shipped as the arena's CSV files in `crates/server/data/anchors/`, which
//! `bash scripts/bot-anchors.sh` writes again the same (seeded matches). Every level
//! starts as a new player; the matches' games, taken in turn from each match, move the
//! levels by Weng-Lin as any rated game does (a team of one level at every seat of its
//! side). A level of a game with no match (a bot outside the levels) is a new player.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use calltrump_engine::catalog::GameKind;
use skillratings::weng_lin::{weng_lin_two_teams, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

use super::Rating;

/// The shipped matches: (game, level A, level B, the arena's CSV).
const MATCHES: [(GameKind, &str, &str, &str); 9] = [
    (
        GameKind::Kaibosh,
        "easy",
        "medium",
        include_str!("../../data/anchors/kaibosh-easy-medium.csv"),
    ),
    (
        GameKind::Kaibosh,
        "medium",
        "hard",
        include_str!("../../data/anchors/kaibosh-medium-hard.csv"),
    ),
    (
        GameKind::Kaibosh,
        "hard",
        "expert",
        include_str!("../../data/anchors/kaibosh-hard-expert.csv"),
    ),
    (
        GameKind::BidEuchre,
        "easy",
        "medium",
        include_str!("../../data/anchors/bid-euchre-easy-medium.csv"),
    ),
    (
        GameKind::BidEuchre,
        "medium",
        "hard",
        include_str!("../../data/anchors/bid-euchre-medium-hard.csv"),
    ),
    (
        GameKind::BidEuchre,
        "hard",
        "expert",
        include_str!("../../data/anchors/bid-euchre-hard-expert.csv"),
    ),
    (
        GameKind::Kout,
        "easy",
        "medium",
        include_str!("../../data/anchors/kout-easy-medium.csv"),
    ),
    (
        GameKind::Kout,
        "medium",
        "hard",
        include_str!("../../data/anchors/kout-medium-hard.csv"),
    ),
    (
        GameKind::Kout,
        "hard",
        "expert",
        include_str!("../../data/anchors/kout-hard-expert.csv"),
    ),
];

/// The levels, weakest first, as the profile names the nearest.
pub const LEVELS: [&str; 4] = ["easy", "medium", "hard", "expert"];

/// A's result in each game of an arena CSV (1 won, 0 lost, 0.5 drawn), in order: the
/// first and second half of each pair. A line that does not read is an error naming it.
pub fn results(csv: &str) -> Result<Vec<f64>, String> {
    let mut results = Vec::new();
    for (n, line) in csv.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("index") || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != 8 {
            return Err(format!("line {}: {} fields, not 8", n + 1, fields.len()));
        }
        for field in &fields[6..] {
            let result: f64 = field
                .parse()
                .map_err(|_| format!("line {}: {field:?} is no game result", n + 1))?;
            results.push(result);
        }
    }
    Ok(results)
}

/// The levels' ratings of each game from `matches` (game, A, B, CSV), each played in
/// the game's first variant (the arena's default, as `scripts/bot-anchors.sh` plays
/// them): a team has half its seats, of one level.
pub fn work_out(
    matches: &[(GameKind, &str, &str, &str)],
) -> Result<BTreeMap<(String, String), Rating>, String> {
    let mut ratings: BTreeMap<(String, String), WengLinRating> = BTreeMap::new();
    let mut games = Vec::new();
    for (game, a, b, csv) in matches {
        let results = results(csv).map_err(|e| format!("{} {a}-{b}: {e}", game.name()))?;
        games.push((*game, *a, *b, results));
    }
    let longest = games.iter().map(|g| g.3.len()).max().unwrap_or(0);
    let config = WengLinConfig::new();
    for i in 0..longest {
        for (game, a, b, results) in &games {
            let Some(&result) = results.get(i) else {
                continue;
            };
            let key = |level: &str| (game.name().to_string(), level.to_string());
            let ra = *ratings.entry(key(a)).or_default();
            let rb = *ratings.entry(key(b)).or_default();
            let outcome = match result {
                r if r > 0.75 => Outcomes::WIN,
                r if r < 0.25 => Outcomes::LOSS,
                _ => Outcomes::DRAW,
            };
            let n = game.variants()[0].seats() / 2;
            let (new_a, new_b) = weng_lin_two_teams(&vec![ra; n], &vec![rb; n], &outcome, &config);
            ratings.insert(key(a), new_a[0]);
            ratings.insert(key(b), new_b[0]);
        }
    }
    Ok(ratings.into_iter().map(|(k, r)| (k, r.into())).collect())
}

/// The shipped anchors, worked out once.
fn shipped() -> &'static BTreeMap<(String, String), Rating> {
    static ANCHORS: OnceLock<BTreeMap<(String, String), Rating>> = OnceLock::new();
    ANCHORS.get_or_init(|| work_out(&MATCHES).expect("the shipped anchors read (tested)"))
}

/// Bot level `level`'s rating at game family `family`.
pub fn anchor(family: &str, level: &str) -> Rating {
    shipped()
        .get(&(family.to_string(), level.to_string()))
        .copied()
        .unwrap_or_default()
}

/// The level whose anchor at `family` is nearest to the mean `mu`.
pub fn nearest_level(family: &str, mu: f64) -> &'static str {
    LEVELS
        .into_iter()
        .min_by(|a, b| {
            let d = |level: &str| (anchor(family, level).mu - mu).abs();
            d(a).total_cmp(&d(b))
        })
        .expect("there are levels")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_matches_read_and_rate_every_level() {
        let anchors = work_out(&MATCHES).unwrap();
        for (game, _, _, csv) in MATCHES {
            assert!(results(csv).unwrap().len() >= 8, "{game:?}: too few games");
            for level in LEVELS {
                let rating = anchors[&(game.name().to_string(), level.to_string())];
                assert!(
                    rating.sigma < Rating::new().sigma,
                    "{game:?} {level}: {rating:?}"
                );
            }
        }
        // The nearest level of a level's own anchor is that level.
        for level in LEVELS {
            let mu = anchor("kaibosh", level).mu;
            let nearest = nearest_level("kaibosh", mu);
            assert_eq!(anchor("kaibosh", nearest).mu, mu);
        }
    }

    #[test]
    fn a_level_that_wins_every_game_ends_above_the_one_it_beat() {
        let csv = "# arena\nindex,a_first,b_first,a_second,b_second,difference,a_result_first,a_result_second\n\
                   0,1,0,1,0,1,1,1\n1,1,0,1,0,1,1,1\n";
        let anchors = work_out(&[(GameKind::Kaibosh, "hard", "easy", csv)]).unwrap();
        let of = |level: &str| anchors[&("kaibosh".to_string(), level.to_string())];
        assert!(of("hard").mu > 25.0 && of("easy").mu < 25.0, "{anchors:?}");
    }

    #[test]
    fn a_line_that_does_not_read_is_named() {
        let csv = "index,a\n0,1,0,1,0,1,1,won\n";
        assert_eq!(
            results(csv),
            Err("line 2: \"won\" is no game result".to_string())
        );
        assert_eq!(results("0,1\n"), Err("line 1: 2 fields, not 8".to_string()));
    }
}
