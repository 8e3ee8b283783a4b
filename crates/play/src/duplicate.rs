//! Duplicate matches between two bots: every deal (or game) is played twice with the
//! same cards at the same seats and the teams swapped, so the luck of the cards cancels
//! and the difference measures the bots. A pair is played by [`Match::play_pair`] with a
//! [`Lineup`] of players, and summed into a [`Tally`] as pairs finish, in any order.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::Result;
use calltrump_engine::{
    stream, Action, AnyGame, Game, GameRng, GameRules, HandOutcome, Outcome, Seat, Team,
};
use serde::Serialize;

use crate::external::Terms;
use crate::game_loop::{self, Event, Table};
use crate::player::{Player, Seating};
use crate::stats::{Sums, TimeStats};

/// A contract without its strain: `bid 4`, `call2`, `kaibosh`.
pub fn contract_kind(contract: Action) -> String {
    match contract {
        Action::BidStrain(level, _) => format!("bid {level}"),
        Action::Loner(loner, _) => loner.keyword().to_string(),
        other => other.to_string(),
    }
}

/// Which bot, A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Side {
    /// The first bot named.
    A,
    /// The second bot named.
    B,
}

/// What a decision is about: the auction (every call, trump, gives and discards) or
/// the play of a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Calls, trump, gives and discards.
    Auction,
    /// Cards played.
    Play,
}

/// One half of a duplicate pair: A at the seats of `a_team`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Half {
    /// Points (deals) or final scores (games) of A and B.
    pub a: i64,
    /// The same of B.
    pub b: i64,
    /// Set in game mode: 1 for A's win, 0 for B's, 0.5 for a draw or an unfinished game.
    pub a_result: Option<f64>,
}

/// One timed decision with a choice (more than one legal action).
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Whose decision.
    pub side: Side,
    /// What it was about.
    pub phase: Phase,
    /// How long it took (wall clock).
    pub time: Duration,
}

/// Both halves of one deal or game, and what the bots did in them.
#[derive(Clone, Debug, Default)]
pub struct Pair {
    /// Half 0 (A at team 0's seats) and half 1 (A at team 1's).
    pub halves: [Half; 2],
    /// (side, contract kind) -> (won, made)
    pub contracts: BTreeMap<(Side, String), (u64, u64)>,
    /// The decisions with a choice.
    pub times: Vec<Timing>,
}

impl Pair {
    /// A's advantage on this pair: points per deal (or game) of A minus B, averaged
    /// over the two halves.
    pub fn difference(&self) -> f64 {
        self.twice_difference() as f64 / 2.0
    }

    /// Twice [`Pair::difference`], a whole number.
    pub fn twice_difference(&self) -> i64 {
        self.halves.iter().map(|h| h.a - h.b).sum()
    }
}

/// The seats' bots for one half: A at the seats of `a_team`.
fn side_of(seat: Seat, a_team: Team) -> Side {
    if seat.team() == a_team {
        Side::A
    } else {
        Side::B
    }
}

/// The team A plays in half 0 or 1 of a pair.
fn a_team(half: usize) -> Team {
    Team(half as u8)
}

/// A worker's players: a built-in bot once per side, an outside bot once per seat and
/// per half. `at[half][seat]` indexes `players`.
pub struct Lineup {
    players: Vec<Player>,
    at: [Vec<usize>; 2],
}

impl Lineup {
    /// Starts the players `specs` (A's, B's) for both halves at a table of `game`.
    pub fn new(specs: [&str; 2], game: &AnyGame, terms: Terms) -> Result<Lineup> {
        let mut players = Vec::new();
        let mut builtin: [Option<usize>; 2] = [None, None];
        let mut at: [Vec<usize>; 2] = Default::default();
        for (half, seats) in at.iter_mut().enumerate() {
            for s in 0..game.seats() {
                let seat = Seat(s as u8);
                let side = side_of(seat, a_team(half)) as usize;
                let spec = specs[side];
                let index = match builtin[side] {
                    Some(index) if !Player::is_external(spec) => index,
                    _ => {
                        players.push(Player::from_spec(spec, seat, game, terms)?);
                        if !Player::is_external(spec) {
                            builtin[side] = Some(players.len() - 1);
                        }
                        players.len() - 1
                    }
                };
                seats.push(index);
            }
        }
        Ok(Lineup { players, at })
    }

    /// The name of side A's and B's players.
    pub fn names(&self) -> [String; 2] {
        let name = |side: Side| {
            let seat = (0..self.at[0].len())
                .find(|&s| side_of(Seat(s as u8), a_team(0)) == side)
                .unwrap_or(0);
            self.players[self.at[0][seat]].name()
        };
        [name(Side::A), name(Side::B)]
    }

    /// The seating of `half`.
    fn seating(&mut self, half: usize) -> Seating<'_> {
        Seating {
            players: &mut self.players,
            at: &self.at[half],
        }
    }
}

/// What every half of a match shares.
pub struct Match<'a> {
    /// The game's rules.
    pub rules: &'a GameRules,
    /// The seed of every pair's deals and bots.
    pub seed: u64,
    /// Whole games (else single deals).
    pub whole_game: bool,
    /// The most deals of a whole game before it ends as a draw.
    pub max_deals: usize,
}

impl Match<'_> {
    /// The table of pair `index` and its generators for the deals and the bots. Both
    /// halves of a pair start from here, so they get the same cards at the same seats.
    pub fn pair_table(&self, index: u64) -> (Table, GameRng) {
        let table = game_loop::seeded(self.rules, self.seed, 2 * index, &[]);
        let bot_rng = stream(self.seed, 2 * index + 1);
        (table, bot_rng)
    }

    /// Plays both halves of pair `index`.
    pub fn play_pair(&self, index: u64, lineup: &mut Lineup) -> Result<Pair> {
        let mut pair = Pair::default();
        for half in 0..2 {
            pair.halves[half] =
                self.play_half(index, a_team(half), &mut lineup.seating(half), &mut pair)?;
        }
        Ok(pair)
    }

    /// Plays one half of pair `index`: a single deal, or a whole game, with A at the
    /// seats of `a_team`.
    fn play_half(
        &self,
        index: u64,
        a_team: Team,
        seating: &mut Seating<'_>,
        pair: &mut Pair,
    ) -> Result<Half> {
        let (mut table, mut bot_rng) = self.pair_table(index);
        let limit = if self.whole_game { self.max_deals } else { 1 };
        let (times, contracts) = (&mut pair.times, &mut pair.contracts);
        let seating_cell = std::cell::RefCell::new(seating);
        let stop = game_loop::play(
            &mut table,
            limit,
            |game, seat, legal| {
                let side = side_of(seat, a_team);
                let started = Instant::now();
                let action = seating_cell.borrow_mut().at_seat(seat).act(
                    game,
                    seat,
                    legal,
                    &mut bot_rng,
                    index,
                )?;
                if legal.len() > 1 {
                    let phase = match legal[0] {
                        Action::Play(_) => Phase::Play,
                        _ => Phase::Auction,
                    };
                    times.push(Timing {
                        side,
                        phase,
                        time: started.elapsed(),
                    });
                }
                Ok(Some(action))
            },
            |game, event| {
                if !matches!(event, Event::HandOver) {
                    return Ok(());
                }
                let hand = game.hand_summary();
                if let (HandOutcome::Played, Some(contract), Some(declarer), Some(points)) =
                    (hand.outcome, hand.contract, hand.declarer, hand.points)
                {
                    let tally = contracts
                        .entry((side_of(declarer, a_team), contract_kind(contract)))
                        .or_default();
                    tally.0 += 1;
                    if points[declarer.team().index()] > 0 {
                        tally.1 += 1;
                    }
                }
                seating_cell.borrow_mut().tell_hand(game, index)
            },
        )?;
        seating_cell
            .borrow_mut()
            .tell_game(table.game(), table.deals(), stop, index)?;
        let scores = table.game().scores();
        Ok(Half {
            a: i64::from(scores[a_team.index()]),
            b: i64::from(scores[a_team.other().index()]),
            a_result: self
                .whole_game
                .then(|| match (stop, table.game().outcome()) {
                    (_, Some(Outcome::Winner(team))) if team == a_team => 1.0,
                    (_, Some(Outcome::Winner(_))) => 0.0,
                    // A draw, or a game ended at the deal limit: a draw too.
                    _ => 0.5,
                }),
        })
    }
}

/// The match so far, summed pair by pair as pairs finish, in any order: the same sums
/// whatever the order.
#[derive(Debug, Default)]
pub struct Tally {
    /// Pairs summed.
    pub pairs: u64,
    /// Pairs read back from an earlier run (no contracts or times).
    pub resumed: u64,
    /// A's points (deals) or final scores (games), summed over every half.
    pub sum_a: i128,
    /// The same of B.
    pub sum_b: i128,
    /// Each pair's difference, doubled to a whole number.
    pub differences: Sums,
    /// Each half's result for A, doubled (0, 1 or 2), in game mode.
    pub results: Sums,
    /// (side, contract kind) -> (won, made), over the pairs played in this run.
    pub contracts: BTreeMap<(Side, String), (u64, u64)>,
    /// Decision times per side, in the auction and in the play.
    pub times: [[TimeStats; 2]; 2],
    /// Each pair's difference by index, when kept (for a plot).
    pub plotted: Option<Vec<(u64, f64)>>,
}

impl Tally {
    /// Adds pair `index`; `played` in this run, or read back from the CSV.
    pub fn add(&mut self, index: u64, pair: &Pair, played: bool) {
        self.pairs += 1;
        for half in &pair.halves {
            self.sum_a += i128::from(half.a);
            self.sum_b += i128::from(half.b);
            if let Some(result) = half.a_result {
                self.results.add((2.0 * result) as i64);
            }
        }
        self.differences.add(pair.twice_difference());
        if let Some(plotted) = &mut self.plotted {
            plotted.push((index, pair.difference()));
        }
        if !played {
            self.resumed += 1;
            return;
        }
        for (key, (won, made)) in &pair.contracts {
            let tally = self.contracts.entry(key.clone()).or_default();
            tally.0 += won;
            tally.1 += made;
        }
        for timing in &pair.times {
            self.times[timing.side as usize][timing.phase as usize].add(timing.time);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_halves_of_a_pair_get_the_same_cards_with_the_teams_swapped() {
        for (game, variant) in [
            ("kaibosh", "standard"),
            ("kout", "kout6"),
            ("bid-euchre", "alexa"),
        ] {
            let rules = GameRules::from_header(game, Some(variant), &Default::default()).unwrap();
            let game_match = Match {
                rules: &rules,
                seed: 7,
                whole_game: false,
                max_deals: 1,
            };
            for index in 0..5 {
                let deal = || {
                    let (mut table, _) = game_match.pair_table(index);
                    table.deal().unwrap();
                    let seats = table.seats();
                    let hands: Vec<_> = (0..seats)
                        .map(|s| table.game().observation(Seat(s as u8)).dealt)
                        .collect();
                    (table.game().hand_summary().dealer, hands)
                };
                assert_eq!(deal(), deal(), "{game} pair {index}");
                // A different pair gets a different deal.
                assert_ne!(deal().1, {
                    let (mut table, _) = game_match.pair_table(index + 100);
                    table.deal().unwrap();
                    (0..table.seats())
                        .map(|s| table.game().observation(Seat(s as u8)).dealt)
                        .collect::<Vec<_>>()
                });
            }
            // In the second half every seat is played by the other bot.
            for seat in 0..6 {
                let seat = Seat(seat);
                assert_ne!(side_of(seat, Team(0)), side_of(seat, Team(1)));
                assert_eq!(side_of(seat, Team(0)) == Side::A, seat.team() == Team(0));
            }
        }
    }

    #[test]
    fn the_pair_difference_averages_both_halves() {
        let pair = Pair {
            halves: [
                Half {
                    a: 4,
                    b: -2,
                    a_result: None,
                },
                Half {
                    a: 0,
                    b: 3,
                    a_result: None,
                },
            ],
            ..Pair::default()
        };
        // (4 - -2 + 0 - 3) / 2
        assert_eq!(pair.difference(), 1.5);
    }
}
