//! Whole games between bots, summarised (`calltrump simulate`): wins, draws, points
//! per hand, and how often each kind of contract was won and made.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use calltrump_engine::{stream, Game, GameRules, HandOutcome, HandSummary, Outcome};
use serde::Serialize;

use crate::duplicate::contract_kind;
use crate::game_loop::{self, Event, Stop, Table};
use crate::player::{Player, Seating};

/// How often one kind of contract was won in the auction and made.
#[derive(Debug, Default, Serialize)]
pub struct ContractTally {
    /// Won in the auction.
    pub bid: u64,
    /// Made.
    pub made: u64,
}

/// What a simulation amounted to.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    /// The game.
    pub game: String,
    /// Its variant.
    pub variant: String,
    /// The bot at each seat.
    pub bots: Vec<String>,
    /// The games played.
    pub games: u64,
    /// The seed of the deals and the bots.
    pub seed: u64,
    /// Each team's wins.
    pub wins: [u64; 2],
    /// Draws, those at the deal limit included.
    pub draws: u64,
    /// Games that reached `--max-deals` and ended there as draws.
    pub deal_limit_draws: u64,
    /// The deal limit of a game.
    pub max_deals: u64,
    /// The hands played.
    pub hands: u64,
    /// Of them, thrown in.
    pub thrown_in: u64,
    /// Of them, misdealt.
    pub misdeals: u64,
    /// Each team's points over the hands.
    pub points: [i64; 2],
    /// Each team's points per hand.
    pub points_per_hand: [f64; 2],
    /// Each kind of contract: how often won and made.
    pub contracts: BTreeMap<String, ContractTally>,
}

impl Summary {
    /// Counts a finished hand.
    pub fn add_hand(&mut self, hand: &HandSummary) {
        self.hands += 1;
        match hand.outcome {
            HandOutcome::ThrownIn => self.thrown_in += 1,
            HandOutcome::Misdeal => self.misdeals += 1,
            HandOutcome::Played | HandOutcome::InProgress => {}
        }
        if let (Some(contract), Some(declarer), Some(points)) =
            (hand.contract, hand.declarer, hand.points)
        {
            let tally = self.contracts.entry(contract_kind(contract)).or_default();
            tally.bid += 1;
            // A made contract always scores for the declarers; a failed one never does.
            if points[declarer.team().index()] > 0 {
                tally.made += 1;
            }
            self.points[0] += i64::from(points[0]);
            self.points[1] += i64::from(points[1]);
        }
    }
}

/// Plays `games` games under `rules` from `seed` with one player per seat (an outside
/// program sees one seat's cards only), each game ending as a draw after `max_deals`
/// deals; `each_game` is given each finished table. The summary names `bots`.
pub fn simulate(
    rules: &GameRules,
    seed: u64,
    games: u64,
    max_deals: u64,
    players: &mut [Player],
    bots: Vec<String>,
    mut each_game: impl FnMut(&Table) -> Result<()>,
) -> Result<Summary> {
    let at: Vec<usize> = (0..players.len()).collect();
    // Both the players' turns and the results go to the same seating.
    let seating = std::cell::RefCell::new(Seating { players, at: &at });
    let mut summary = Summary {
        game: rules.game().to_string(),
        variant: rules.variant().to_string(),
        bots,
        games,
        seed,
        max_deals,
        ..Summary::default()
    };
    for index in 0..games {
        // Separate streams for the cards and the bots, so a change of bot never
        // changes the deals.
        let mut table = game_loop::seeded(rules, seed, 2 * index, &[]);
        let mut bot_rng = stream(seed, 2 * index + 1);
        let stop = game_loop::play(
            &mut table,
            max_deals as usize,
            |game, seat, legal| {
                seating
                    .borrow_mut()
                    .at_seat(seat)
                    .act(game, seat, legal, &mut bot_rng, index)
                    .map(Some)
            },
            |game, event| {
                if matches!(event, Event::HandOver) {
                    summary.add_hand(&game.hand_summary());
                    seating.borrow_mut().tell_hand(game, index)?;
                }
                Ok(())
            },
        )?;
        seating
            .borrow_mut()
            .tell_game(table.game(), table.deals(), stop, index)?;
        match (stop, table.game().outcome()) {
            (_, Some(Outcome::Winner(team))) => summary.wins[team.index()] += 1,
            (_, Some(Outcome::Draw)) => summary.draws += 1,
            (Stop::DealLimit, None) => {
                summary.draws += 1;
                summary.deal_limit_draws += 1;
            }
            (_, None) => bail!("game {index} stopped before its end"),
        }
        each_game(&table)?;
    }
    for team in 0..2 {
        summary.points_per_hand[team] = summary.points[team] as f64 / summary.hands.max(1) as f64;
    }
    Ok(summary)
}
