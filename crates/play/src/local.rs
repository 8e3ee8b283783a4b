//! A game at the player's own computer, as `calltrump play` starts one: new (seeded, or
//! with committed deals) or going on with a saved one, the bots at each seat, and
//! whether a Kout Bo hand's result is settled before its last trick.

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use calltrump_engine::fair_deal::{self, CutSide, DealSource};
use calltrump_engine::{
    stream, Action, AnyGame, Game, GameRules, Phase, Record, Seat, Turn, Viewer,
};
use calltrump_table::Settings;

use crate::committed;
use crate::game_loop::{self, Table};

/// A game to play: its table and the seed of the bots' dice.
pub struct Start {
    /// The table.
    pub table: Table,
    /// The seed of the deals, when they are seeded.
    pub seed: Option<u64>,
    /// The seed of the bots' decisions.
    pub bots_seed: u64,
}

/// A new game under `rules` with the person at `me`: dealt from `seed`, or without one
/// committed (secret, cut by `cut_side`, and checkable afterwards).
pub fn new_game(rules: GameRules, cut_side: CutSide, seed: Option<u64>, me: Seat) -> Result<Start> {
    let people = [me];
    let table_id = committed::local_table_id()?;
    let bots_seed = seed.unwrap_or_else(|| committed::bots_seed(&table_id));
    let table = match seed {
        Some(seed) => game_loop::seeded(&rules, seed, 0, &people),
        // Without --seed the deals are committed: secret, cut, and checkable afterwards.
        None => {
            let mut rng = stream(bots_seed, 0);
            let first_dealer = fair_deal::draw_first_dealer(&rules, &mut rng);
            let settings = Settings {
                committed: Some(table_id),
                cut_side: Some(cut_side),
                ..Settings::new(rules, first_dealer, &people)
            };
            Table::new(settings, rng)
        }
    };
    Ok(Start {
        table,
        seed,
        bots_seed,
    })
}

/// The game saved at `path`, ready to go on with the person at `me`: seeded deals are
/// dealt again from the seed (so the next ones follow), committed ones go on under the
/// record's table id. `saved` is the whole record (the hand in play unsealed).
pub fn resume(path: &Path, saved: Record, me: Seat) -> Result<Start> {
    let (_, game) = saved
        .replay()
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if game.turn() == Turn::Over {
        bail!("the game in {} is over: nothing to resume", path.display());
    }
    let (rules, first_dealer) = saved.rules().map_err(|e| anyhow!("{e}"))?;
    match &saved.deal_source {
        Some(DealSource::Seeded {
            seed,
            stream: index,
            first_dealer_drawn: true,
        }) => {
            let seed = *seed;
            let mut table = game_loop::seeded(&rules, seed, *index, &[me]);
            game_loop::play_again(&mut table, &saved.hands)?;
            let same = table.deals() == saved.hands.len()
                && table
                    .record()
                    .hands
                    .iter()
                    .zip(&saved.hands)
                    .all(|(a, b)| a.deal == b.deal && a.actions == b.actions);
            if !same {
                bail!(
                    "{}: the deals do not follow from the record's seed {seed}",
                    path.display()
                );
            }
            Ok(Start {
                table,
                seed: Some(seed),
                bots_seed: seed,
            })
        }
        Some(DealSource::Committed { table: table_id }) => {
            let cut_side =
                CutSide::from_options(&rules, &saved.options).map_err(|e| anyhow!("{e}"))?;
            let bots_seed = committed::bots_seed(table_id);
            let settings = Settings {
                committed: Some(table_id.clone()),
                cut_side: Some(cut_side),
                ..Settings::new(rules, first_dealer, &[me])
            };
            // Committed deals draw nothing from the generator.
            let table = Table::resume(settings, saved, stream(0, 0))
                .map_err(|e| anyhow!("{}: {e}", path.display()))?;
            Ok(Start {
                table,
                seed: None,
                bots_seed,
            })
        }
        _ => bail!(
            "{}: only games dealt by calltrump play (seeded or committed) can be resumed",
            path.display()
        ),
    }
}

/// The bot at each seat from `--bots`: one name for all, one per seat, or one per seat
/// other than `me`. The player's own seat gets a bot too, asked only for the cards of
/// a decided Kout Bo hand (which count for nothing).
pub fn bot_names(spec: &str, seats: usize, me: Seat) -> Result<Vec<String>> {
    let names: Vec<&str> = spec.split(',').map(str::trim).collect();
    Ok(match names.len() {
        1 => vec![names[0].to_string(); seats],
        n if n == seats => names.iter().map(|s| s.to_string()).collect(),
        n if n + 1 == seats => {
            let mut all: Vec<String> = names.iter().map(|s| s.to_string()).collect();
            all.insert(me.index(), "random".to_string());
            all
        }
        n => bail!(
            "--bots names {n} bots; this game has {seats} seats (give 1, {} or {seats})",
            seats - 1
        ),
    })
}

/// In a Kout Bo hand being played whose result is settled before its last trick (the
/// bid made, or failed: tricks beyond count for nothing), what was settled.
pub fn kout_decided(game: &AnyGame, me: Seat) -> Option<&'static str> {
    if game.rules().game() != "kout" || !matches!(game.turn(), Turn::Seat(_)) {
        return None;
    }
    let view = game.view(Viewer::Seat(me));
    let (Some(contract), Phase::Play) = (view.contract, view.phase) else {
        return None;
    };
    let Action::Bid(bid) = contract.bid else {
        return None;
    };
    let makers = contract.declarer.team().0 as usize;
    let tricks = view.tricks.iter().map(|&t| u32::from(t)).sum::<u32>()
        + u32::from(view.hand_sizes.iter().copied().max().unwrap_or(0));
    if view.tricks[makers] >= bid {
        Some("the bid is made")
    } else if u32::from(view.tricks[1 - makers]) > tricks.saturating_sub(u32::from(bid)) {
        Some("the bid has failed")
    } else {
        None
    }
}
