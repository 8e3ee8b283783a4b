//! Committed deals at a table (docs/fair-deals.md): before each hand a fresh secret seed
//! from the operating system and its commitment, then the cut of the seat the rules
//! name, the deal, and the seed revealed in the record once the hand is over.

use anyhow::{anyhow, Result};
use calltrump_engine::fair_deal::{self, Commitment, CutSide, DealSource, FairDeal, Seed};
use calltrump_engine::{Game, GameRules, Seat};

use crate::table::Table;

/// 32 bytes from the operating system's secure generator.
fn os_bytes<const N: usize>() -> Result<[u8; N]> {
    let mut bytes = [0; N];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow!("the operating system's random generator failed: {e}"))?;
    Ok(bytes)
}

/// The hand about to be dealt: its commitment, announced before the cut.
pub struct Announced {
    /// The hand's index in the record.
    pub hand: usize,
    /// Its dealer.
    pub dealer: Seat,
    /// The seat that cuts.
    pub cutter: Seat,
    /// The commitment to the hand's secret seed.
    pub commitment: Commitment,
    /// The highest cut: the deck's size less one.
    pub max_cut: u64,
}

/// The committed deals of one table's game.
pub struct CommittedDeals {
    rules: GameRules,
    table_id: String,
    side: CutSide,
    first_dealer: Seat,
    /// The seed of the hand announced or in play, not yet revealed.
    secret: Option<Seed>,
}

impl CommittedDeals {
    /// Committed deals for `table`, whose record is marked so under a fresh table id; the
    /// cut goes to `side` (written into the record's options when not the rules' side).
    pub fn start(table: &mut Table, side: CutSide) -> Result<CommittedDeals> {
        let rules = table.game.rules().clone();
        let table_id = format!(
            "local-{}",
            os_bytes::<8>()?
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        );
        let record = &mut table.record;
        if side != CutSide::default_for(&rules) {
            record
                .options
                .insert(CutSide::OPTION.into(), side.name().into());
        }
        record.deal_source = Some(DealSource::Committed {
            table: table_id.clone(),
        });
        let (_, first_dealer) = record.rules().map_err(|e| anyhow!("{e}"))?;
        Ok(CommittedDeals {
            rules,
            table_id,
            side,
            first_dealer,
            secret: None,
        })
    }

    /// Committed deals continuing the game of `table`, a resumed record that names its
    /// table id: the next hands are committed under that id, cut by the same side.
    pub fn resume(table: &Table) -> Result<CommittedDeals> {
        let record = &table.record;
        let Some(DealSource::Committed { table: table_id }) = &record.deal_source else {
            return Err(anyhow!("the record's deals are not committed deals"));
        };
        let (rules, first_dealer) = record.rules().map_err(|e| anyhow!("{e}"))?;
        let side = CutSide::from_options(&rules, &record.options).map_err(|e| anyhow!("{e}"))?;
        Ok(CommittedDeals {
            rules,
            table_id: table_id.clone(),
            side,
            first_dealer,
            secret: None,
        })
    }

    /// Draws the next hand's secret seed and announces its commitment.
    pub fn announce(&mut self, table: &Table) -> Result<Announced> {
        let hand = table.record.hands.len();
        let dealer = self.first_dealer.after(hand, table.game.seats());
        let seed = Seed(os_bytes()?);
        self.secret = Some(seed);
        Ok(Announced {
            hand,
            dealer,
            cutter: fair_deal::cutting_seat(&self.rules, self.side, dealer),
            commitment: fair_deal::commit(&seed, &self.table_id, hand as u64),
            max_cut: fair_deal::deck(&self.rules).len() as u64 - 1,
        })
    }

    /// Deals the announced hand cut at `cut` and records it with its block.
    pub fn deal(&mut self, table: &mut Table, announced: &Announced, cut: u64) -> Result<()> {
        let seed = self
            .secret
            .ok_or_else(|| anyhow!("a committed deal must be announced first"))?;
        let hands = fair_deal::deal(&self.rules, announced.dealer, &seed, cut)?;
        table.game.deal(&hands)?;
        table
            .record
            .push_fair_deal(&hands, FairDeal::new(announced.commitment, cut));
        Ok(())
    }

    /// Reveals the seed of the hand dealt last in the record, once it is over; returns it,
    /// or `None` if nothing was left to reveal.
    pub fn reveal(&mut self, table: &mut Table) -> Option<Seed> {
        let seed = self.secret.take()?;
        let block = table.record.hands.last_mut()?.fair_deal.as_mut()?;
        block.reveal(&seed);
        Some(seed)
    }
}
