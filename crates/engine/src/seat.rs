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

    /// The seat in play that acts after this one at a table of `seats`, passing over
    /// `out` (a loner's partner).
    pub const fn next_in_play(self, seats: usize, out: Option<Seat>) -> Seat {
        let next = self.next(seats);
        match out {
            Some(out) if out.0 == next.0 => next.next(seats),
            _ => next,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turn_passes_over_the_seat_out_of_play() {
        assert_eq!(Seat(0).next_in_play(4, None), Seat(1));
        assert_eq!(Seat(0).next_in_play(4, Some(Seat(1))), Seat(2));
        assert_eq!(Seat(3).next_in_play(4, Some(Seat(0))), Seat(1));
        assert_eq!(Seat(3).next_in_play(4, Some(Seat(2))), Seat(0));
    }
}
