//! Dealing: a partial Fisher-Yates shuffle that hands each drawn card straight to its
//! seat. Every game deals through it, so every deal is uniform and reproducible.

use rand::RngCore;

use crate::card::Card;
use crate::GameRng;

/// A uniform number below `n` from 32 random `bits`, drawing afresh from `rng` in the rare
/// case Lemire's multiply-shift method must reject them (so the result is exactly uniform).
fn below(bits: u32, n: u32, rng: &mut GameRng) -> u32 {
    let mut product = u64::from(bits) * u64::from(n);
    if (product as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (product >> 32) as u32
}

/// Shuffles the first `dealt` cards of `deck` into place and calls `give(i, card)` for the
/// `i`-th card drawn (the caller gives it to seat `i / hand_size`). Cards after `dealt`
/// stay undealt. Two draws come from every 64 random bits.
pub(crate) fn deal(
    deck: &mut [Card],
    dealt: usize,
    rng: &mut GameRng,
    mut give: impl FnMut(usize, Card),
) {
    let mut bits = 0u64;
    for i in 0..dealt {
        let left = deck.len() - i;
        if left > 1 {
            if i % 2 == 0 {
                bits = rng.next_u64();
            }
            let j = i + below(bits as u32, left as u32, rng) as usize;
            bits >>= 32;
            deck.swap(i, j);
        }
        give(i, deck[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded;

    #[test]
    fn below_is_uniform_over_small_ranges() {
        let mut rng = seeded(3);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[below(rng.next_u32(), 7, &mut rng) as usize] += 1;
        }
        // Each count is Binomial(70000, 1/7): mean 10000, sd about 93.
        for count in counts {
            assert!((9_600..=10_400).contains(&count), "{counts:?}");
        }
    }

    #[test]
    fn a_deal_is_a_permutation_and_leaves_the_undealt_cards() {
        let cards: Vec<Card> = (0..10u8).map(|i| Card::from_index(i).unwrap()).collect();
        let mut deck = cards.clone();
        let mut given = Vec::new();
        deal(&mut deck, 8, &mut seeded(5), |i, card| {
            given.push((i, card))
        });
        assert_eq!(given.len(), 8);
        assert!(given.iter().enumerate().all(|(k, (i, _))| k == *i));
        let mut all: Vec<Card> = deck.clone();
        all.sort();
        assert_eq!(all, cards);
        assert_eq!(given.iter().map(|g| g.1).collect::<Vec<_>>(), deck[..8]);
    }

    #[test]
    fn each_card_lands_in_each_place_equally_often() {
        let mut rng = seeded(9);
        let mut counts = [[0u32; 4]; 4];
        for _ in 0..40_000 {
            let mut deck: Vec<Card> = (0..4u8).map(|i| Card::from_index(i).unwrap()).collect();
            deal(&mut deck, 4, &mut rng, |i, card| {
                counts[card.index()][i] += 1
            });
        }
        for row in counts {
            for count in row {
                assert!((9_700..=10_300).contains(&count), "{counts:?}");
            }
        }
    }
}
