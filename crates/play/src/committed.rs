//! Committed deals at the terminal (docs/fair-deals.md): the table commits to a fresh
//! secret seed from the operating system before each hand, the seat the rules name cuts,
//! and the table reveals the seed in the record once the hand is over.

use anyhow::{anyhow, Result};
use calltrump_engine::fair_deal::{self, Seed};
use calltrump_engine::{Game, Seat};

use crate::game_loop::Table;

/// `N` bytes from the operating system's secure generator.
fn os_bytes<const N: usize>() -> Result<[u8; N]> {
    let mut bytes = [0; N];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow!("the operating system's random generator failed: {e}"))?;
    Ok(bytes)
}

/// A fresh table id for a terminal game's committed deals: `local-` and 8 random bytes.
pub fn local_table_id() -> Result<String> {
    let hex: String = os_bytes::<8>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(format!("local-{hex}"))
}

/// The seed of the bots' decisions at the committed table `table_id`: from the id alone,
/// so that a game resumed from its record asks the bots with the same dice as the game
/// played without a break. The id's random hex digits (`local-` ids), else its FNV-1a
/// hash.
pub fn bots_seed(table_id: &str) -> u64 {
    let hex = table_id.strip_prefix("local-").unwrap_or(table_id);
    u64::from_str_radix(hex, 16).unwrap_or_else(|_| {
        table_id.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    })
}

/// The hand about to be dealt: its commitment, announced before the cut.
pub struct Announced {
    /// The hand's index in the record.
    pub hand: usize,
    /// The seat that cuts.
    pub cutter: Seat,
    /// The commitment to the hand's secret seed.
    pub commitment: String,
    /// The highest cut: the deck's size less one.
    pub max_cut: u64,
}

/// Draws the next hand's secret seed and commits `table` to it.
pub fn announce(table: &mut Table) -> Result<Announced> {
    table.commit(Seed(os_bytes()?))?;
    let check = table
        .deal_check()
        .ok_or_else(|| anyhow!("the table committed to no deal"))?;
    Ok(Announced {
        hand: table.deals(),
        cutter: check.cutter,
        commitment: check.commitment.clone(),
        max_cut: fair_deal::deck(table.game().rules()).len() as u64 - 1,
    })
}
