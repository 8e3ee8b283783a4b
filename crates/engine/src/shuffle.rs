//! Dealing: each card in turn goes to a random seat (or pile) with room for it. Every game
//! deals through it, so every deal is uniform and reproducible.

use rand::RngCore;

use crate::card::Card;
use crate::GameRng;

/// A random word `w` for which `w * product / 2^64` (rounded down) is exactly uniform
/// below `product`: Lemire's multiply-shift method, rejecting the few words that would
/// bias it.
fn accepted_word(product: u64, rng: &mut GameRng) -> u64 {
    loop {
        let word = rng.next_u64();
        let low = word.wrapping_mul(product);
        if low >= product || low >= product.wrapping_neg() % product {
            return word;
        }
    }
}

/// The most cards one deal may hold.
const MAX_CARDS: usize = 64;

/// Draws per random word: with bounds of at most `MAX_CARDS` (2^6), nine draws multiply
/// to at most 2^54, so Lemire's test needs its slow step for at most one word in 1024.
const BATCH: usize = 9;

/// `BATCH_PRODUCTS[n]`: the product of the bounds of a batch whose first bound is `n`
/// (n, n - 1, ... down to n - 8 or 1).
const BATCH_PRODUCTS: [u64; MAX_CARDS + 1] = {
    let mut products = [1; MAX_CARDS + 1];
    let mut n = 1;
    while n <= MAX_CARDS {
        let mut k = 0;
        while k < BATCH && k < n {
            products[n] *= (n - k) as u64;
            k += 1;
        }
        n += 1;
    }
    products
};

/// A one in every byte.
const BYTES: u64 = 0x0101_0101_0101_0101;

/// The top bit of every byte.
const TOPS: u64 = BYTES << 7;

/// Deals `cards` at random into at most eight piles of the given `sizes` (which add up
/// to the number of cards): calls `give(pile, card)` for each card, in the order of
/// `cards`.
///
/// Each card goes to a pile with probability proportional to the places left in it, so
/// every deal with those pile sizes is equally likely. The draw for the `i`-th card is
/// uniform below `cards.len() - i`; draws are batched (Brackett-Rozinsky and Lemire,
/// 2024): multiplying one accepted word by the bounds in turn, each high half is the next
/// draw and the low half carries on. The draws are the mixed-radix digits of
/// `word * (product of the bounds) / 2^64`, which is uniform below the product, so each
/// draw is uniform below its bound and independent of the others.
#[inline]
pub(crate) fn deal(
    cards: &[Card],
    sizes: &[usize],
    rng: &mut GameRng,
    mut give: impl FnMut(usize, Card),
) {
    debug_assert!(cards.len() <= MAX_CARDS && sizes.len() <= 8);
    debug_assert_eq!(sizes.iter().sum::<usize>(), cards.len());
    // Byte p holds the places left in piles 0..=p (bytes past the last pile: all places
    // left). A draw falls to the first pile whose byte is above it; that byte and every
    // later one then lose a place. One subtraction compares the draw with every byte:
    // all are below 128, so subtracting the draw plus one from each byte with its top bit
    // set leaves that bit set exactly where the byte was above the draw.
    let mut ends = 0;
    let mut total = 0;
    for p in 0..8 {
        total += sizes.get(p).copied().unwrap_or(0) as u64;
        ends |= total << (8 * p);
    }
    for (batch, chunk) in cards.chunks(BATCH).enumerate() {
        let mut bound = (cards.len() - batch * BATCH) as u64;
        let mut bits = accepted_word(BATCH_PRODUCTS[bound as usize], rng);
        for &card in chunk {
            let wide = u128::from(bits) * u128::from(bound);
            bits = wide as u64;
            let draw = (wide >> 64) as u64;
            let above = ((ends | TOPS) - (draw + 1) * BYTES) & TOPS;
            ends -= above >> 7;
            bound -= 1;
            give((above.trailing_zeros() / 8) as usize, card);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded;

    #[test]
    fn lemires_test_rejects_exactly_the_biased_words() {
        // With product 3 * 2^62, unrejected words would give multiples of 3 half the time.
        let product = 3 << 62;
        let mut rng = seeded(3);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            let word = accepted_word(product, &mut rng);
            let draw = ((u128::from(word) * u128::from(product)) >> 64) as u64;
            counts[(draw % 3) as usize] += 1;
        }
        // Each count is Binomial(30000, 1/3): mean 10000, sd about 82.
        for count in counts {
            assert!((9_600..=10_400).contains(&count), "{counts:?}");
        }
    }

    fn cards(n: usize) -> Vec<Card> {
        (0..64).filter_map(Card::from_index).take(n).collect()
    }

    #[test]
    fn every_deal_of_a_small_deck_is_equally_likely() {
        let mut rng = seeded(4);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..120_000 {
            let mut piles = [Vec::new(), Vec::new(), Vec::new()];
            deal(&cards(4), &[1, 2, 1], &mut rng, |pile, card| {
                piles[pile].push(card)
            });
            *counts.entry(piles).or_insert(0u32) += 1;
        }
        // Each of the 12 counts is Binomial(120000, 1/12): mean 10000, sd about 96.
        assert_eq!(counts.len(), 12);
        for count in counts.values() {
            assert!((9_500..=10_500).contains(count), "{counts:?}");
        }
    }

    #[test]
    fn each_pile_gets_its_size_and_empty_piles_nothing() {
        let deck = cards(13);
        let mut rng = seeded(5);
        for _ in 0..100 {
            let mut piles = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
            deal(&deck, &[5, 0, 6, 2], &mut rng, |pile, card| {
                piles[pile].push(card)
            });
            assert_eq!(piles.each_ref().map(Vec::len), [5, 0, 6, 2]);
            let mut all = piles.concat();
            all.sort();
            assert_eq!(all, deck);
        }
    }

    #[test]
    fn every_card_of_a_long_deal_lands_in_each_pile_equally_often() {
        let mut rng = seeded(9);
        let deck = cards(24);
        let mut counts = [[0u32; 4]; 24];
        for _ in 0..20_000 {
            deal(&deck, &[6; 4], &mut rng, |pile, card| {
                counts[deck.iter().position(|&c| c == card).unwrap()][pile] += 1
            });
        }
        // Each count is Binomial(20000, 1/4): mean 5000, sd about 61.
        for row in counts {
            for count in row {
                assert!((4_700..=5_300).contains(&count), "{counts:?}");
            }
        }
    }
}
