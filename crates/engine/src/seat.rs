//! Seats and teams.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, `0..n-1` in the order of play: the seat after `s` acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's number.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat that acts after this one at a table of `seats`.
    pub const fn next(self, seats: usize) -> Seat {
        Seat(((self.0 as usize + 1) % seats) as u8)
    }

    /// The seat `steps` places after this one at a table of `seats`.
    pub const fn after(self, steps: usize, seats: usize) -> Seat {
        Seat(((self.0 as usize + steps) % seats) as u8)
    }

    /// The seat's team: seat `s` plays for team `s % 2`.
    pub const fn team(self) -> Team {
        Team(self.0 & 1)
    }

    /// The partner opposite at a four-seat table.
    pub const fn partner4(self) -> Seat {
        Seat((self.0 + 2) % 4)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One of the two teams, 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Team(pub u8);

impl Team {
    /// Both teams.
    pub const BOTH: [Team; 2] = [Team(0), Team(1)];

    /// The team's number, 0 or 1.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other team.
    pub const fn other(self) -> Team {
        Team(1 - self.0)
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
