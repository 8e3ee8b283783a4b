//! The committed shuffle against the uniform expectation, over many deals: where each
//! card lands in the deck, and how often each pair of cards shares a hand. Each test
//! sums Pearson's chi-square over every cell and fails above the critical value of
//! p = 0.001 (Wilson-Hilferty's approximation). The seeds are fixed (seed `i` is `i` in
//! its first eight bytes), so each test gives the same verdict every run; power checks
//! show each test rejecting a known bias: the classic wrong shuffle, and a deck left
//! unshuffled one deal in a hundred.

use calltrump_engine::fair_deal::{self, deal, deal_hands, deck, shuffled_deck, Seed};
use calltrump_engine::{stream, Card, CardBag, GameRules, Seat};
use rand::Rng;
use serde_json::Map;

/// z for a one-sided p of 0.001.
const Z_0_001: f64 = 3.090_232;

/// The chi-square value with `df` degrees of freedom exceeded with probability 0.001.
fn critical(df: f64) -> f64 {
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + Z_0_001 * a.sqrt()).powi(3)
}

fn seed(i: u64) -> Seed {
    let mut bytes = [0; 32];
    bytes[..8].copy_from_slice(&i.to_le_bytes());
    Seed(bytes)
}

fn rules(game: &str, variant: &str) -> GameRules {
    GameRules::from_header(game, Some(variant), &Map::new()).unwrap()
}

/// Pearson's statistic of where each card lands, scaled to chi-square with (n - 1)^2
/// degrees of freedom. A card's place in one shuffle is a permutation matrix, whose cells
/// have covariance (Q x Q) / (n - 1) for the centring projection Q, so the plain sum
/// over the n^2 cells is n / (n - 1) times chi-square with (n - 1)^2 degrees of freedom
/// (mean n(n - 1)).
fn position_statistic(n: usize, shuffles: u64, mut shuffle: impl FnMut(u64) -> Vec<usize>) -> f64 {
    let mut counts = vec![vec![0u32; n]; n];
    for i in 0..shuffles {
        for (place, card) in shuffle(i).into_iter().enumerate() {
            counts[card][place] += 1;
        }
    }
    let expected = shuffles as f64 / n as f64;
    let pearson: f64 = counts
        .iter()
        .flatten()
        .map(|&o| (f64::from(o) - expected).powi(2) / expected)
        .sum();
    pearson * (n - 1) as f64 / n as f64
}

/// Where the committed shuffle by seed `i` puts each card of `cards` (all different):
/// the card's place in `cards`, place by place of the shuffled deck.
fn committed_places(cards: &[Card], i: u64) -> Vec<usize> {
    shuffled_deck(&seed(i), cards)
        .iter()
        .map(|card| cards.iter().position(|c| c == card).unwrap())
        .collect()
}

#[test]
fn every_card_lands_in_every_place_equally_often() {
    const SHUFFLES: u64 = 20_000;
    for (game, variant) in [("kaibosh", "standard"), ("kout", "kout6")] {
        let cards = deck(&rules(game, variant));
        let n = cards.len();
        let statistic = position_statistic(n, SHUFFLES, |i| committed_places(&cards, i));
        let df = ((n - 1) * (n - 1)) as f64;
        eprintln!(
            "{variant}: positions chi-square {statistic:.1}, df {df}, critical {:.1}",
            critical(df)
        );
        assert!(
            statistic < critical(df),
            "{variant}: chi-square {statistic:.1} above {:.1} (df {df})",
            critical(df)
        );
    }
}

#[test]
fn the_position_test_rejects_a_biased_shuffle() {
    // The classic mistake: swap every place with any place, not only those up to it.
    const SHUFFLES: u64 = 20_000;
    let n = 24;
    let mut rng = stream(1, 0);
    let statistic = position_statistic(n, SHUFFLES, |_| {
        let mut places: Vec<usize> = (0..n).collect();
        for i in 0..n {
            places.swap(i, rng.random_range(0..n));
        }
        places
    });
    let df = ((n - 1) * (n - 1)) as f64;
    eprintln!(
        "naive shuffle: chi-square {statistic:.1}, critical {:.1}",
        critical(df)
    );
    assert!(statistic > critical(df), "{statistic:.1}");
}

/// Pearson's statistic of how often each pair of `cards` (all different) shares a hand
/// in `deals` deals, against the uniform chance that a card's hand holds a given other
/// card, (hand size - 1) / (deck size - 1); cards left undealt count as no hand. The
/// pair counts are slightly correlated (pairs sharing a card), which widens the
/// statistic's spread by about 5% over chi-square with one degree of freedom per pair:
/// the threshold's false-alarm rate is near 0.0015 rather than 0.001.
fn pair_statistic(
    cards: &[Card],
    deals: u64,
    mut deal: impl FnMut(u64) -> Vec<CardBag>,
) -> (f64, f64) {
    let n = cards.len();
    // Indexed by the cards' bit indices, below 64.
    let mut together = vec![vec![0u32; 64]; 64];
    let mut hand_size = 0;
    for i in 0..deals {
        let hands = deal(i);
        hand_size = hands[0].len();
        for hand in hands {
            let held: Vec<usize> = hand.iter().map(|c| c.index()).collect();
            for (x, &a) in held.iter().enumerate() {
                for &b in &held[x + 1..] {
                    together[a.min(b)][a.max(b)] += 1;
                }
            }
        }
    }
    let p = (hand_size - 1) as f64 / (n - 1) as f64;
    let expected = deals as f64 * p;
    let variance = expected * (1.0 - p);
    let indices: Vec<usize> = cards.iter().map(|c| c.index()).collect();
    let mut statistic = 0.0;
    let mut pairs = 0;
    for (x, &a) in indices.iter().enumerate() {
        for &b in &indices[x + 1..] {
            let observed = f64::from(together[a.min(b)][a.max(b)]);
            statistic += (observed - expected).powi(2) / variance;
            pairs += 1;
        }
    }
    (statistic, f64::from(pairs))
}

#[test]
fn every_pair_of_cards_shares_a_hand_as_often_as_chance_says() {
    for (game, variant, deals) in [
        ("kaibosh", "standard", 20_000),
        ("kout", "kout6", 10_000),
        ("kout", "kout4", 10_000),
    ] {
        let rules = rules(game, variant);
        let cards = deck(&rules);
        let seats = if variant == "kout6" { 6 } else { 4 };
        // Every dealer and every cut in turn.
        let (statistic, pairs) = pair_statistic(&cards, deals, |i| {
            let cut = 1 + i % (cards.len() as u64 - 1);
            deal(&rules, Seat((i % seats) as u8), &seed(i), cut).unwrap()
        });
        eprintln!(
            "{variant}: pairs chi-square {statistic:.1}, df {pairs}, critical {:.1}",
            critical(pairs)
        );
        assert!(
            statistic < critical(pairs),
            "{variant}: chi-square {statistic:.1} above {:.1} (df {pairs})",
            critical(pairs)
        );
    }
}

#[test]
fn the_pair_test_rejects_a_deck_left_unshuffled_one_deal_in_a_hundred() {
    let rules = rules("kaibosh", "standard");
    let cards = deck(&rules);
    let (statistic, pairs) = pair_statistic(&cards, 20_000, |i| {
        let cut = 1 + i % (cards.len() as u64 - 1);
        if i % 100 == 0 {
            // Only cut: the cards four apart in the deck's order go to one hand.
            deal_hands(&rules, Seat(0), &fair_deal::cut(&cards, cut).unwrap())
        } else {
            deal(&rules, Seat(0), &seed(i), cut).unwrap()
        }
    });
    eprintln!(
        "one deal in a hundred unshuffled: pairs chi-square {statistic:.1}, critical {:.1}",
        critical(pairs)
    );
    assert!(statistic > critical(pairs), "{statistic:.1}");
}
