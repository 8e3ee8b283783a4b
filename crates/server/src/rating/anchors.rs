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
use serde::Serialize;
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

/// About how many rated games a player needs before their rating is compared with the
/// bots: by then a player who wins half their games beside and against any one level is
/// named that level's band in every game family (tested below; most are sooner).
pub const GAMES_TO_COMPARE: i64 = 50;

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

/// Bot levels a rating is compared with: one level, or neighbouring levels whose
/// anchors' intervals (mean ± uncertainty) overlap, which their matches do not tell
/// apart ("between hard and expert"). Serialised as `{from, to}`, the same for one level.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Band {
    /// The weakest level of the band.
    pub from: &'static str,
    /// The strongest level of the band.
    pub to: &'static str,
    /// The mean of its levels' means.
    #[serde(skip)]
    pub mu: f64,
    /// Its levels' largest uncertainty: a player is compared with the band once measured
    /// at least as surely.
    #[serde(skip)]
    pub sigma: f64,
}

/// The bands of levels rated `of`, weakest first: a level joins the band before it
/// unless its interval lies wholly above every interval in that band (so levels out of
/// order, or too close for their matches to say, are one band).
pub fn bands(of: impl Fn(&str) -> Rating) -> Vec<Band> {
    let mut bands: Vec<(Vec<&'static str>, f64)> = Vec::new();
    for level in LEVELS {
        let r = of(level);
        match bands.last_mut() {
            Some((levels, top)) if r.mu - r.sigma <= *top => {
                levels.push(level);
                *top = top.max(r.mu + r.sigma);
            }
            _ => bands.push((vec![level], r.mu + r.sigma)),
        }
    }
    bands
        .into_iter()
        .map(|(levels, _)| Band {
            from: levels[0],
            to: levels[levels.len() - 1],
            mu: levels.iter().map(|l| of(l).mu).sum::<f64>() / levels.len() as f64,
            sigma: levels.iter().map(|l| of(l).sigma).fold(0.0, f64::max),
        })
        .collect()
}

/// The band a player rated `r` plays like, when their rating says so: the band whose
/// mean is nearest, named only once the player is measured as surely as its levels are
/// (an uncertainty no larger than theirs) and the whole interval mean ± uncertainty is
/// nearer to it than to any other band; otherwise `None` (too few rated games to compare, or a single
/// band: nothing to compare with).
pub fn level_of(bands: &[Band], r: Rating) -> Option<Band> {
    // One band alone (levels not told apart) says nothing about a player.
    if bands.len() < 2 {
        return None;
    }
    let nearest = (0..bands.len())
        .min_by(|&a, &b| {
            (bands[a].mu - r.mu)
                .abs()
                .total_cmp(&(bands[b].mu - r.mu).abs())
        })
        .expect("two bands or more");
    let mid = |a: usize, b: usize| (bands[a].mu + bands[b].mu) / 2.0;
    let low = if nearest > 0 {
        mid(nearest - 1, nearest)
    } else {
        f64::NEG_INFINITY
    };
    let high = if nearest + 1 < bands.len() {
        mid(nearest, nearest + 1)
    } else {
        f64::INFINITY
    };
    let band = bands[nearest];
    (r.sigma <= band.sigma && r.mu - r.sigma >= low && r.mu + r.sigma <= high).then_some(band)
}

/// The shipped bands of game family `family`, weakest first.
pub fn shipped_bands(family: &str) -> Vec<Band> {
    bands(|level| anchor(family, level))
}

/// The band of the shipped anchors a rating `r` at `family` plays like, if it says.
pub fn plays_like(family: &str, r: Rating) -> Option<Band> {
    level_of(&shipped_bands(family), r)
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
    }

    #[test]
    fn the_shipped_bands_are_ordered_and_apart_by_their_uncertainty() {
        for game in GameKind::ALL {
            let family = game.name();
            let bands = shipped_bands(family);
            for level in LEVELS {
                println!("{family} {level}: {:?}", anchor(family, level));
            }
            assert!(
                bands.len() >= 2,
                "{family}: the levels are told apart: {bands:?}"
            );
            for pair in bands.windows(2) {
                let top = |b: &Band| {
                    let levels = LEVELS.iter().skip_while(|l| **l != b.from);
                    let levels: Vec<_> =
                        levels.take_while(|l| **l != b.to).chain([&b.to]).collect();
                    levels
                        .iter()
                        .map(|l| anchor(family, l).mu + anchor(family, l).sigma)
                        .fold(f64::MIN, f64::max)
                };
                let low = anchor(family, pair[1].from);
                assert!(pair[0].mu < pair[1].mu, "{family}: {bands:?}");
                assert!(low.mu - low.sigma > top(&pair[0]), "{family}: {bands:?}");
            }
            println!("{family}: {bands:?}");
        }
    }

    /// A rating as given.
    fn r(mu: f64, sigma: f64) -> Rating {
        Rating { mu, sigma }
    }

    #[test]
    fn levels_out_of_order_or_too_close_are_one_band() {
        // The anchors shipped before: medium above hard and expert, all within reach.
        let of = |level: &str| match level {
            "easy" => r(14.0, 2.0),
            "medium" => r(31.8, 2.5),
            "hard" => r(26.2, 2.5),
            _ => r(26.2, 2.5),
        };
        let bands = bands(of);
        let names: Vec<_> = bands.iter().map(|b| (b.from, b.to)).collect();
        assert_eq!(names, [("easy", "easy"), ("medium", "expert")]);
        // Apart by more than their uncertainties: each its own.
        let apart = bands_of_four([10.0, 20.0, 30.0, 40.0], 2.0);
        assert_eq!(apart.len(), 4);
        // Two close ones in the middle merge; "between medium and hard".
        let close = bands_of_four([10.0, 20.0, 23.0, 40.0], 2.0);
        let names: Vec<_> = close.iter().map(|b| (b.from, b.to)).collect();
        assert_eq!(
            names,
            [("easy", "easy"), ("medium", "hard"), ("expert", "expert")]
        );
        assert_eq!(close[1].mu, 21.5);
    }

    fn bands_of_four(mus: [f64; 4], sigma: f64) -> Vec<Band> {
        bands(|level| r(mus[LEVELS.iter().position(|l| *l == level).unwrap()], sigma))
    }

    #[test]
    fn a_level_is_named_only_when_the_whole_interval_is_nearest_it() {
        let bands = bands_of_four([10.0, 20.0, 30.0, 40.0], 4.0);
        let named = |mu, sigma| level_of(&bands, r(mu, sigma)).map(|b| b.from);
        assert_eq!(named(21.0, 3.0), Some("medium"));
        // 21 ± 4.5 reaches past 25, half way to hard.
        assert_eq!(named(21.0, 4.5), None);
        assert_eq!(named(16.0, 2.0), None);
        // Beyond the ends only the one boundary counts...
        assert_eq!(named(55.0, 4.0), Some("expert"));
        assert_eq!(named(2.0, 3.0), Some("easy"));
        // ... but a player less surely measured than the levels is not compared.
        assert_eq!(named(55.0, 4.5), None);
        // The tryout's case: 23.7 after one lost game; and a new player.
        assert_eq!(named(23.7, 7.9), None);
        assert_eq!(named(25.0, 25.0 / 3.0), None);
        // One band alone says nothing.
        let one = bands_of_four([10.0, 11.0, 12.0, 13.0], 4.0);
        assert_eq!(level_of(&one, r(12.0, 0.5)), None);
    }

    /// A player's ratings at `family` after each of `games` games beside bots of `level`
    /// against bots of `level`, their side winning every other game (the first if
    /// `won_first`).
    fn beside(family: &str, level: &str, games: usize, won_first: bool) -> Vec<Rating> {
        let game = GameKind::ALL
            .into_iter()
            .find(|g| g.name() == family)
            .unwrap();
        let n = game.variants()[0].seats() / 2;
        let bot = super::super::Rated::Fixed(anchor(family, level));
        let me = super::super::Rated::Account("me".into());
        let mut rating = Rating::new();
        let mut after = Vec::new();
        for i in 0..games {
            let mut mine = vec![me.clone()];
            mine.extend(vec![bot.clone(); n - 1]);
            let theirs = vec![bot.clone(); n];
            let won = (i % 2 == 0) == won_first;
            let (first, second) = if won { (mine, theirs) } else { (theirs, mine) };
            let played = super::super::RatedGame {
                table: format!("t{i}"),
                family: family.to_string(),
                first,
                second,
                draw: false,
            };
            rating = played.rate(|_| rating)[0].1;
            after.push(rating);
        }
        after
    }

    #[test]
    fn a_fresh_player_with_one_game_gets_no_level() {
        for game in GameKind::ALL {
            for level in LEVELS {
                for won_first in [false, true] {
                    let one = beside(game.name(), level, 1, won_first)[0];
                    assert!(one.sigma > 7.0, "{one:?}");
                    let named = plays_like(game.name(), one);
                    assert_eq!(named, None, "{game:?} {level}: {one:?}");
                }
            }
        }
    }

    #[test]
    fn a_player_even_with_a_level_is_named_its_band_within_the_games_the_page_says() {
        let rank = |level: &str| LEVELS.iter().position(|l| *l == level).unwrap();
        for game in GameKind::ALL {
            let family = game.name();
            let bands = shipped_bands(family);
            for level in LEVELS {
                let band = *bands
                    .iter()
                    .find(|b| (rank(b.from)..=rank(b.to)).contains(&rank(level)))
                    .unwrap();
                let ratings = beside(family, level, GAMES_TO_COMPARE as usize, false);
                let first = ratings
                    .iter()
                    .position(|r| plays_like(family, *r) == Some(band));
                let last = ratings[ratings.len() - 1];
                println!("{family} beside {level}: named after {first:?} games, then {last:?}");
                assert_eq!(plays_like(family, last), Some(band), "{family}: {last:?}");
            }
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
