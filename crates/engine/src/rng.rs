//! The portable, seeded random number generator behind every deal and bot decision.

use rand::SeedableRng;

/// The generator: xoshiro256++, which gives the same numbers on every platform.
pub type GameRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generator seeded from a `u64`, so every deal and decision can be reproduced.
pub fn seeded(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// A generator for the `index`-th independent stream under `seed` (one per game of a
/// simulation, one per decision of a bot), so work split across threads stays
/// reproducible.
pub fn stream(seed: u64, index: u64) -> GameRng {
    // SplitMix64 inside seed_from_u64 scatters nearby inputs; the odd multiplier keeps
    // (seed, index) pairs apart.
    GameRng::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}
