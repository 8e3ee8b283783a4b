//! What a recipient (a seat or a spectator) receives: redacted events, updates and
//! snapshots, and the fold of updates a client keeps.

use calltrump_engine::{
    Action, AnyGame, CardBag, Declared, Game, HandStart, HandSummary, Observation, Outcome, Seat,
    SeenAction, View, Viewer,
};
use serde::{Deserialize, Serialize};

use crate::log::{Entry, Event};

/// An event as one recipient may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum SeenEvent {
    /// A hand was dealt: the recipient's own cards (none for a spectator).
    Dealt {
        /// The hand's dealer.
        dealer: Seat,
        /// The recipient's cards.
        hand: Option<CardBag>,
    },
    /// A seat acted; cards passed face down that the recipient did not see are `??`.
    Acted {
        /// The seat.
        seat: Seat,
        /// The action as the recipient saw it.
        action: SeenAction,
    },
    /// The hand ended.
    HandEnded {
        /// What it amounted to.
        summary: HandSummary,
        /// The running totals after it.
        scores: [i32; 2],
    },
    /// The game ended.
    GameEnded {
        /// Who won.
        outcome: Outcome,
        /// The final scores.
        scores: [i32; 2],
    },
    /// The next hand's seed is committed to: the cutting seat may cut.
    Committed {
        /// The commitment, 64 hex digits.
        commitment: String,
        /// The seat that cuts.
        cutter: Seat,
    },
    /// The deck was cut; the deal follows.
    Cut {
        /// The seat that cut.
        seat: Seat,
        /// Cards lifted from the top.
        cut: u64,
    },
    /// The hand's seed, revealed after the hand for everyone to check.
    Revealed {
        /// The seed, 64 hex digits.
        seed: String,
    },
    /// A seat took back its last action and the bot actions after it.
    Undone {
        /// The seat that asked.
        seat: Seat,
        /// How many actions were taken back.
        actions: usize,
    },
}

impl SeenEvent {
    /// `entry` as `recipient` may see it, where `game` is the game just after it.
    pub(crate) fn of(entry: &Entry, game: &AnyGame, recipient: Viewer) -> SeenEvent {
        match &entry.event {
            Event::Dealt { dealer, hands, .. } => SeenEvent::Dealt {
                dealer: *dealer,
                hand: recipient.seat().and_then(|s| hands.get(s.index()).copied()),
            },
            Event::Acted { seat, action } => SeenEvent::Acted {
                seat: *seat,
                action: seen_action(game, recipient, *seat, *action),
            },
            Event::HandEnded { summary, scores } => SeenEvent::HandEnded {
                summary: *summary,
                scores: *scores,
            },
            Event::GameEnded { outcome, scores } => SeenEvent::GameEnded {
                outcome: *outcome,
                scores: *scores,
            },
            Event::Undone { seat, actions } => SeenEvent::Undone {
                seat: *seat,
                actions: *actions,
            },
            // The seed itself stays in the log until the hand is over.
            Event::Committed {
                commitment, cutter, ..
            } => SeenEvent::Committed {
                commitment: commitment.clone(),
                cutter: *cutter,
            },
            Event::Cut { seat, cut } => SeenEvent::Cut {
                seat: *seat,
                cut: *cut,
            },
            Event::Revealed { seed } => SeenEvent::Revealed { seed: seed.clone() },
        }
    }
}

/// How `recipient` saw `seat`'s latest `action` of `game`: the engine's observation says
/// who sees cards passed face down; a spectator sees none of them.
fn seen_action(game: &AnyGame, recipient: Viewer, seat: Seat, action: Action) -> SeenAction {
    if !matches!(action, Action::Give(_) | Action::Discard(_)) {
        return SeenAction::Open(action);
    }
    let as_seen = recipient
        .seat()
        .and_then(|s| game.observation(s).actions.last().copied())
        .filter(|(actor, _)| *actor == seat)
        .map(|(_, seen)| seen);
    match as_seen {
        Some(seen @ SeenAction::Open(open)) if open == action => seen,
        _ => face_down(action),
    }
}

/// `action` with its cards face down: what a spectator sees of it.
pub(crate) fn face_down(action: Action) -> SeenAction {
    match action {
        Action::Give(pair) => SeenAction::HiddenGive(pair.len() as u8),
        Action::Discard(pair) => SeenAction::HiddenDiscard(pair.len() as u8),
        other => SeenAction::Open(other),
    }
}

/// What everyone knows of a committed hand's deal: its commitment, who cuts, the cut,
/// and the seed once the hand is over (docs/fair-deals.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealCheck {
    /// The commitment, 64 hex digits.
    pub commitment: String,
    /// The seat that cuts.
    pub cutter: Seat,
    /// The cut, once made.
    pub cut: Option<u64>,
    /// The seed, once revealed.
    pub seed: Option<String>,
}

/// What one recipient receives for one step of the table: the events, redacted, and its
/// view after them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Update {
    /// The table's version after the step.
    pub version: u64,
    /// The step's events as the recipient may see them.
    pub events: Vec<SeenEvent>,
    /// The recipient's view after the step.
    pub view: View,
}

/// What a recipient draws on joining or reconnecting: the version, its view, and the
/// current hand's actions as it saw them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The table's version.
    pub version: u64,
    /// The recipient's view.
    pub view: View,
    /// The current hand's actions, in order, as the recipient saw them.
    pub actions: Vec<(Seat, SeenAction)>,
    /// The recipient's cards as dealt this hand (none for a spectator or before a deal).
    pub dealt: Option<CardBag>,
    /// Committed deals: what everyone knows of the latest hand's deal.
    pub deal_check: Option<DealCheck>,
}

impl Snapshot {
    /// The seat's observation while a hand is in play, rebuilt from the snapshot: what a
    /// bot sitting at a seat over the network decides from.
    pub fn observation(&self) -> Option<Observation> {
        let seat = self.view.viewer.seat()?;
        Some(Observation {
            seat,
            start: HandStart {
                deals_played: self.view.deals_played,
                dealer: self.view.dealer,
                scores: self.view.scores,
            },
            dealt: self.dealt?,
            hand: self.view.hand?,
            actions: self.actions.clone(),
            declared: Declared {
                contract: self.view.contract,
                trump: self.view.trump,
                sitting_out: self.view.sitting_out,
            },
        })
    }
}

/// The state a client keeps: a snapshot, then every update folded in.
pub type ClientState = Snapshot;

impl Snapshot {
    /// Folds in the next update.
    pub fn apply(&mut self, update: &Update) {
        for event in &update.events {
            match event {
                SeenEvent::Dealt { hand, .. } => {
                    self.actions.clear();
                    self.dealt = *hand;
                }
                SeenEvent::Acted { seat, action } => self.actions.push((*seat, *action)),
                SeenEvent::Undone { actions, .. } => {
                    let keep = self.actions.len().saturating_sub(*actions);
                    self.actions.truncate(keep);
                }
                SeenEvent::Committed { commitment, cutter } => {
                    self.deal_check = Some(DealCheck {
                        commitment: commitment.clone(),
                        cutter: *cutter,
                        cut: None,
                        seed: None,
                    });
                }
                SeenEvent::Cut { cut, .. } => {
                    if let Some(check) = &mut self.deal_check {
                        check.cut = Some(*cut);
                    }
                }
                SeenEvent::Revealed { seed } => {
                    if let Some(check) = &mut self.deal_check {
                        check.seed = Some(seed.clone());
                    }
                }
                SeenEvent::HandEnded { .. } | SeenEvent::GameEnded { .. } => {}
            }
        }
        self.version = update.version;
        self.view = update.view.clone();
    }
}
