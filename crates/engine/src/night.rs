//! The alexa Bid Euchre "night" (RULINGS.md, Bid Euchre 9): any number of players from
//! four up play sets of 8 deals; partners change after every set, extra players take
//! turns sitting out for 30 points, and each player keeps an individual score.
//!
//! Each set is one [`BidEuchre`](crate::BidEuchre) game of the default 8 deals, seat 0 of
//! the set's table dealing first. [`Night`] says who sits where in each set, takes each
//! set's final team scores and keeps the score sheets.

use std::fmt;

use serde::Serialize;

use crate::bid_euchre::{BidEuchreRules, Variant};
use crate::catalog::VariantKind;
use crate::record::Replay;

/// Seats at a Bid Euchre table.
const TABLE: usize = 4;
/// Deals in a set: each of the four at the table deals twice.
pub const SET_DEALS: u32 = 8;
/// Points a player takes for each set they sit out.
pub const SIT_OUT_POINTS: i32 = 30;

/// The variant every set of a night plays.
pub const SET_VARIANT: VariantKind = VariantKind::Alexa;

/// The rules of each set's game: alexa, one set of 8 deals.
pub const fn set_rules() -> BidEuchreRules {
    let mut rules = BidEuchreRules::new(Variant::Alexa);
    rules.deals = SET_DEALS;
    rules
}

/// Who plays one set: players (by index in the night's list) in seats 0..3, partners
/// opposite (seats 0 and 2, 1 and 3), and who sits out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SetTable {
    /// The set, from 0.
    pub set: usize,
    /// The player in each seat; seat 0 deals first.
    pub seats: [usize; TABLE],
    /// The players sitting this set out, in rotation order.
    pub sitting_out: Vec<usize>,
}

impl SetTable {
    /// The seat of `player`, or `None` if they sit out.
    pub fn seat_of(&self, player: usize) -> Option<usize> {
        self.seats.iter().position(|&p| p == player)
    }
}

/// The three ways to split four players into two partnerships, as seatings of the four
/// in ascending order `[a, b, c, d]`: a-c, a-b and a-d partners.
const PAIRINGS: [[usize; TABLE]; 3] = [[0, 1, 2, 3], [0, 2, 1, 3], [0, 1, 3, 2]];

/// The table of set `set` for a night of `players` players (at least four).
///
/// Sit-outs follow the players' order around in a ring, `players - 4` per set, so no one
/// sits out twice before everyone has sat out once. Of the three partnerships of the
/// four who play, the set takes one that repeats no partnership of the set before,
/// preferring the pairs that have partnered least; with four players that rotates the
/// three partnerships.
///
/// # Panics
/// If `players < 4`.
pub fn set_table(players: usize, set: usize) -> SetTable {
    assert!(players >= TABLE, "a night needs at least four players");
    let mut partnered = vec![vec![0u32; players]; players];
    let mut last: Vec<(usize, usize)> = Vec::new();
    let mut s = 0;
    loop {
        let sit = players - TABLE;
        let sitting_out: Vec<usize> = (0..sit).map(|j| (s * sit + j) % players).collect();
        let playing: Vec<usize> = (0..players).filter(|p| !sitting_out.contains(p)).collect();
        let pairs = |pairing: &[usize; TABLE]| {
            let seat = |i: usize| playing[pairing[i]];
            [(seat(0), seat(2)), (seat(1), seat(3))]
        };
        let pairing = PAIRINGS
            .iter()
            .min_by_key(|pairing| {
                let pairs = pairs(pairing);
                let repeats = pairs.iter().filter(|p| last.contains(p)).count();
                let history: u32 = pairs.iter().map(|&(a, b)| partnered[a][b]).sum();
                (repeats, history)
            })
            .expect("three pairings");
        if s == set {
            return SetTable {
                set,
                seats: pairing.map(|i| playing[i]),
                sitting_out,
            };
        }
        last = pairs(pairing).to_vec();
        for &(a, b) in &last {
            partnered[a][b] += 1;
        }
        s += 1;
    }
}

/// Something a night cannot do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NightError {
    /// Fewer than four players.
    TooFewPlayers(usize),
    /// Two players with one name.
    DuplicateName(String),
    /// A night of no sets.
    NoSets,
    /// A set the night does not have.
    NoSuchSet {
        /// The set asked for.
        set: usize,
        /// Sets in the night.
        sets: usize,
    },
    /// A set whose result is already recorded.
    AlreadyRecorded(usize),
    /// A set's game that has not ended.
    Unfinished(usize),
}

impl fmt::Display for NightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NightError::TooFewPlayers(n) => {
                write!(f, "a night needs at least 4 players, not {n}")
            }
            NightError::DuplicateName(name) => write!(f, "two players are named \"{name}\""),
            NightError::NoSets => f.write_str("a night needs at least one set"),
            NightError::NoSuchSet { set, sets } => {
                write!(f, "set {set} is not in a night of {sets} sets")
            }
            NightError::AlreadyRecorded(set) => write!(f, "set {set} is already recorded"),
            NightError::Unfinished(set) => write!(f, "the game of set {set} has not ended"),
        }
    }
}

impl std::error::Error for NightError {}

/// A night of alexa Bid Euchre: its players, its sets and the results so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Night {
    players: Vec<String>,
    /// Final team scores of each set, once played.
    results: Vec<Option<[i32; 2]>>,
}

impl Night {
    /// A night of `sets` sets for the named players (at least four, names distinct).
    pub fn new(players: Vec<String>, sets: usize) -> Result<Night, NightError> {
        if players.len() < TABLE {
            return Err(NightError::TooFewPlayers(players.len()));
        }
        if let Some((_, name)) = players
            .iter()
            .enumerate()
            .find(|(i, name)| players[..*i].contains(name))
        {
            return Err(NightError::DuplicateName(name.clone()));
        }
        if sets == 0 {
            return Err(NightError::NoSets);
        }
        Ok(Night {
            players,
            results: vec![None; sets],
        })
    }

    /// The players' names, in the order given.
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// Number of sets in the night.
    pub fn sets(&self) -> usize {
        self.results.len()
    }

    fn check_set(&self, set: usize) -> Result<(), NightError> {
        if set < self.sets() {
            Ok(())
        } else {
            Err(NightError::NoSuchSet {
                set,
                sets: self.sets(),
            })
        }
    }

    /// Who plays set `set`, in which seat, and who sits out.
    pub fn table(&self, set: usize) -> Result<SetTable, NightError> {
        self.check_set(set)?;
        Ok(set_table(self.players.len(), set))
    }

    /// Records the final team scores of set `set` (team `s % 2` of the set's seats).
    pub fn record_set(&mut self, set: usize, scores: [i32; 2]) -> Result<(), NightError> {
        self.check_set(set)?;
        if self.results[set].is_some() {
            return Err(NightError::AlreadyRecorded(set));
        }
        self.results[set] = Some(scores);
        Ok(())
    }

    /// Records set `set` from the replay of its finished game.
    pub fn record_replay(&mut self, set: usize, replay: &Replay) -> Result<(), NightError> {
        self.check_set(set)?;
        if !replay.finished {
            return Err(NightError::Unfinished(set));
        }
        self.record_set(set, replay.scores)
    }

    /// The score sheets as they stand.
    pub fn sheet(&self) -> NightSheet {
        let tables: Vec<SetTable> = (0..self.sets())
            .map(|set| set_table(self.players.len(), set))
            .collect();
        let players: Vec<PlayerSheet> = self
            .players
            .iter()
            .enumerate()
            .map(|(player, name)| {
                let rows: Vec<SetRow> = tables
                    .iter()
                    .map(|table| {
                        let seat = table.seat_of(player);
                        let points = self.results[table.set].map(|scores| match seat {
                            Some(seat) => scores[seat % 2],
                            None => SIT_OUT_POINTS,
                        });
                        SetRow {
                            set: table.set,
                            seat,
                            partner: seat.map(|s| self.players[table.seats[(s + 2) % 4]].clone()),
                            points,
                        }
                    })
                    .collect();
                PlayerSheet {
                    name: name.clone(),
                    total: rows.iter().filter_map(|r| r.points).sum(),
                    rows,
                }
            })
            .collect();
        let complete = self.results.iter().all(Option::is_some);
        let best = players.iter().map(|p| p.total).max();
        let winners: Vec<String> = if complete {
            players
                .iter()
                .filter(|p| Some(p.total) == best)
                .map(|p| p.name.clone())
                .collect()
        } else {
            Vec::new()
        };
        NightSheet {
            sets_recorded: self.results.iter().filter(|r| r.is_some()).count(),
            complete,
            shared: winners.len() > 1,
            winners,
            players,
        }
    }
}

/// One player's line for one set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SetRow {
    /// The set, from 0.
    pub set: usize,
    /// The player's seat, or `None` if they sat out.
    pub seat: Option<usize>,
    /// The partner's name, if the player played.
    pub partner: Option<String>,
    /// The team's final score of the set, or the sit-out points; `None` until recorded.
    pub points: Option<i32>,
}

/// One player's score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerSheet {
    /// The player's name.
    pub name: String,
    /// One row per set of the night.
    pub rows: Vec<SetRow>,
    /// The sum of the recorded rows.
    pub total: i32,
}

/// Every player's score sheet and the night's winner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NightSheet {
    /// The sheets, in the order the players were given.
    pub players: Vec<PlayerSheet>,
    /// How many sets have results.
    pub sets_recorded: usize,
    /// Whether every set has a result.
    pub complete: bool,
    /// The players with the highest total once the night is complete (empty before).
    pub winners: Vec<String>,
    /// Whether the win is shared by more than one player.
    pub shared: bool,
}
