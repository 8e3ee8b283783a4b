//! A game at the player's own computer, as `calltrump play` starts one: new (seeded, or
//! with committed deals) or going on with a saved one, the bots at each seat, and
//! whether a Kout Bo hand's result is settled before its last trick.

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use calltrump_engine::fair_deal::{self, CutSide, DealSource};
use calltrump_engine::{
    stream, Action, ActionList, AnyGame, Game, GameKind, GameRules, Phase, Record, Seat, Turn,
    Viewer,
};
use calltrump_table::Settings;
use rand::Rng;

use crate::committed;
use crate::game_loop::{self, Table};
use crate::player::Seating;

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
    if game.rules().kind().game() != GameKind::Kout || !matches!(game.turn(), Turn::Seat(_)) {
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

/// Where the bots' random choices come from: a generator for each decision, from this
/// seed, the hand and the number of actions in it, so that an undone move or a resumed
/// game asks the bots again with the same dice.
pub struct Dice(pub u64);

impl Dice {
    /// A bot's choice at `seat` of `game`, with the dice of this decision.
    pub fn act(
        &mut self,
        seating: &mut Seating<'_>,
        game: &AnyGame,
        seat: Seat,
        legal: &ActionList,
    ) -> Result<Action> {
        let hand = u64::from(game.hand_start().deals_played);
        let index = game.observation(seat).actions.len() as u64;
        let mut rng = stream(self.0, 1 + (hand << 16) + index);
        seating.at_seat(seat).act(game, seat, legal, &mut rng, 0)
    }

    /// A random number from 1 to `max` (a bot's cut, a cut left to chance) for the
    /// hand of index `hand`.
    pub fn cut(&mut self, max: u64, hand: usize) -> u64 {
        stream(self.0, u64::MAX - hand as u64).random_range(1..=max)
    }
}

/// Takes back the player's last choice of the hand and the bots' actions after it: a
/// move that was the only one possible would be made again at once, so the one before
/// it is taken back too. The actions taken back, the player's first.
pub fn take_back(table: &mut Table, me: Seat) -> Result<Vec<Action>> {
    let mut taken: Vec<Action> = Vec::new();
    loop {
        let actions = table.hand_actions();
        let Some(from) = actions.iter().rposition(|(seat, _)| *seat == me) else {
            break;
        };
        taken.splice(0..0, actions[from..].iter().map(|&(_, action)| action));
        table.undo(me).map_err(|e| anyhow!("taking back: {e}"))?;
        if !only_one_move(table, me) {
            break;
        }
    }
    Ok(taken)
}

/// Whether it is `me` to move with only one move possible.
pub fn only_one_move(table: &Table, me: Seat) -> bool {
    let mut legal = ActionList::new();
    table.game().legal_actions(&mut legal);
    table.turn() == Turn::Seat(me) && legal.len() == 1
}

#[cfg(test)]
mod tests {
    use calltrump_engine::{Action, ActionList, Game, GameRules, Seat, Turn};

    use super::{only_one_move, take_back};
    use crate::game_loop;

    /// In hands of Kout Bo played by first choices, the player's move that was the only
    /// one possible, followed by a choice of theirs in the same hand: `undo` there takes
    /// back the choice before the forced move, not the forced move alone.
    #[test]
    fn undo_goes_back_past_a_move_that_was_forced() {
        let rules = GameRules::from_header("kout", Some("kout6"), &Default::default()).unwrap();
        let me = Seat(0);
        let mut checked = 0;
        for seed in 0..40 {
            let mut table = game_loop::seeded(&rules, seed, 0, &[me]);
            table.deal().unwrap();
            // Where in the hand the player's last choice (not a forced move) was made.
            let mut last_choice = None;
            let mut forced_since = false;
            let mut legal = ActionList::new();
            while let Turn::Seat(seat) = table.turn() {
                legal.clear();
                table.game().legal_actions(&mut legal);
                if seat == me && legal.len() > 1 && forced_since {
                    take_back(&mut table, me).unwrap();
                    assert_eq!(table.hand_actions().len(), last_choice.unwrap());
                    assert!(!only_one_move(&table, me));
                    checked += 1;
                    break;
                }
                if seat == me {
                    match legal.len() {
                        1 => forced_since = last_choice.is_some(),
                        _ => last_choice = Some(table.hand_actions().len()),
                    }
                }
                let action: Action = legal[0];
                table.apply(seat, action).unwrap();
            }
        }
        assert!(checked > 0, "no hand had a forced move between two choices");
    }
}
