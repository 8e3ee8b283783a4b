//! Where a record's deals come from and what a committed hand keeps: the header's
//! `deal_source`, a hand's fair-deal block, and the seed and commitment it holds as hex
//! (docs/fair-deals.md). A leaf of the engine: the record reads these, and
//! [`fair_deal`](crate::fair_deal) computes and checks them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Writes 32 bytes as 64 lower-case hex digits.
fn to_hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads exactly 64 hex digits (either case): a seed or a commitment.
fn from_hex(text: &str) -> Result<[u8; 32], ParseHexError> {
    let bad = || ParseHexError(text.to_string());
    let digits = text.as_bytes();
    if digits.len() != 64 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err(bad());
    }
    let mut bytes = [0; 32];
    for (byte, pair) in bytes.iter_mut().zip(digits.chunks(2)) {
        let pair = std::str::from_utf8(pair).map_err(|_| bad())?;
        *byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
    }
    Ok(bytes)
}

/// The text is not 64 hex digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseHexError(pub String);

impl fmt::Display for ParseHexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\" is not 64 hex digits", self.0.escape_default())
    }
}

impl std::error::Error for ParseHexError {}

/// A hand's secret: 32 random bytes from the operating system's secure generator. Its
/// `Debug` hides it; [`Seed::to_hex`] reveals it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// The seed as 64 lower-case hex digits, as the record reveals it.
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(hidden)")
    }
}

impl FromStr for Seed {
    type Err = ParseHexError;

    fn from_str(s: &str) -> Result<Seed, ParseHexError> {
        from_hex(s).map(Seed)
    }
}

/// SHA-256 of a seed with its table and hand: announced before the deal, it binds the
/// server to the seed without telling it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Commitment(pub [u8; 32]);

impl fmt::Display for Commitment {
    /// 64 lower-case hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_hex(&self.0))
    }
}

impl FromStr for Commitment {
    type Err = ParseHexError;

    fn from_str(s: &str) -> Result<Commitment, ParseHexError> {
        from_hex(s).map(Commitment)
    }
}

/// Where a record's deals come from: the header's `deal_source`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "kebab-case")]
pub enum DealSource {
    /// Committed deals: every hand carries a [`FairDeal`] block whose commitment names
    /// this table.
    Committed {
        /// The table (game) id of every hand's commitment.
        table: String,
    },
    /// Reproducible deals from calltrump's seeded generator
    /// ([`stream`](crate::stream)`(seed, stream)`), one [`Game::deal_random`](crate::Game::deal_random) per hand:
    /// for tests, simulations and duplicate deals. Not secret and not cut.
    Seeded {
        /// The seed.
        seed: u64,
        /// The stream under the seed.
        stream: u64,
        /// Whether the first dealer was drawn from the generator
        /// ([`draw_first_dealer`](crate::fair_deal::draw_first_dealer)) before the first deal.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        first_dealer_drawn: bool,
    },
    /// A method this version does not know.
    #[serde(other)]
    Other,
}

/// A hand's fair-deal block: the commitment announced before the deal, the cut, and the
/// seed once revealed. Kept as text, so that a fault is reported at its hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairDeal {
    /// The commitment, 64 hex digits.
    pub commitment: String,
    /// The cut, once made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<u64>,
    /// The seed, 64 hex digits, once revealed after the hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

impl FairDeal {
    /// The block of a hand just cut: the commitment and the cut, the seed still secret.
    pub fn new(commitment: Commitment, cut: u64) -> FairDeal {
        FairDeal {
            commitment: commitment.to_string(),
            cut: Some(cut),
            seed: None,
        }
    }

    /// Reveals the seed, after the hand.
    pub fn reveal(&mut self, seed: &Seed) {
        self.seed = Some(seed.to_hex());
    }
}
