//! The bookkeeping between hands that every game keeps alike: the deal count, the
//! dealer's rotation, the scores, and how the last hand ended.

use serde::{Deserialize, Serialize};

use crate::game::Phase;
use crate::game::{HandOutcome, HandStart, Outcome};
use crate::seat::{Seat, Team};

/// A game's table between and around its hands. Each game embeds one and leaves its
/// deal count, dealer and scores to it, keeping only its own rules.
///
/// Games flatten it into their serialized form, so its field names are theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Table {
    /// The dealer of the game's first hand: the deal passes left from it every hand.
    first_dealer: Seat,
    /// Deals completed (thrown-in and misdealt included).
    deals_played: u32,
    /// The dealer of the current hand (or of the one just finished).
    dealer: Seat,
    /// Running totals after the last complete hand.
    scores: [i32; 2],
    /// Scores before the current hand.
    start_scores: [i32; 2],
    /// How the current hand ended, or that it has not.
    outcome: HandOutcome,
    /// Points each team scored on the current hand, once it is complete.
    points: Option<[i32; 2]>,
}

impl Table {
    /// The table of a game of `seats` seats continued at `start`, before its deal.
    pub(crate) const fn resume(start: HandStart, seats: usize) -> Table {
        Table {
            first_dealer: start.first_dealer(seats),
            deals_played: start.deals_played,
            dealer: start.dealer,
            scores: start.scores,
            start_scores: start.scores,
            outcome: HandOutcome::InProgress,
            points: None,
        }
    }

    /// Opens the next hand: its dealer is the seat after the last one's.
    #[inline]
    pub(crate) fn start_hand(&mut self, seats: usize) {
        self.dealer = self.first_dealer.after(self.deals_played as usize, seats);
        self.start_scores = self.scores;
        self.outcome = HandOutcome::InProgress;
        self.points = None;
    }

    /// Closes the current hand, adding `points` to the scores. A game resumed at a
    /// start no real game reaches (scores or a deal count at the ends of their types)
    /// stays there instead of overflowing.
    #[inline]
    pub(crate) fn finish_hand(&mut self, outcome: HandOutcome, points: [i32; 2]) {
        self.outcome = outcome;
        self.points = Some(points);
        self.scores[0] = self.scores[0].saturating_add(points[0]);
        self.scores[1] = self.scores[1].saturating_add(points[1]);
        self.deals_played = self.deals_played.saturating_add(1);
    }

    /// Where the current hand (or the one just finished) started.
    pub(crate) fn hand_start(&self) -> HandStart {
        HandStart {
            // A finished hand is already counted.
            deals_played: self
                .deals_played
                .saturating_sub(u32::from(self.outcome != HandOutcome::InProgress)),
            dealer: self.dealer,
            scores: self.start_scores,
        }
    }

    /// Deals completed (thrown-in and misdealt included).
    #[inline]
    pub(crate) const fn deals_played(&self) -> u32 {
        self.deals_played
    }

    /// The dealer of the current hand (or of the one just finished).
    #[inline]
    pub(crate) const fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Running totals after the last complete hand.
    #[inline]
    pub(crate) const fn scores(&self) -> [i32; 2] {
        self.scores
    }

    /// How the current hand ended, or that it has not.
    #[inline]
    pub(crate) const fn outcome(&self) -> HandOutcome {
        self.outcome
    }

    /// Points each team scored on the current hand, once it is complete.
    #[inline]
    pub(crate) const fn points(&self) -> Option<[i32; 2]> {
        self.points
    }

    /// The stage while no hand is in play: the first deal due, or a hand over.
    pub(crate) fn between_hands(&self) -> Phase {
        if self.outcome == HandOutcome::InProgress {
            Phase::Dealing
        } else {
            Phase::HandOver
        }
    }

    /// Whether the hand was played out: its last trick stays on the table.
    pub(crate) fn played_out(&self) -> bool {
        self.outcome == HandOutcome::Played
    }

    /// The result of a game decided on the scores alone: the higher wins, level draws.
    pub(crate) fn score_outcome(&self) -> Outcome {
        match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => Outcome::Winner(Team(0)),
            std::cmp::Ordering::Less => Outcome::Winner(Team(1)),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}
