//! The replay viewer's states: a record replayed on the engine, the game's [`View`] after
//! every step for one viewer (a seat, a spectator, or every hand face up). The browser
//! draws them; no rule is worked out anywhere but in the engine.

use calltrump_engine::{
    Action, AnyGame, Card, Game, Outcome, Phase, Record, RecordError, Seat, SeenAction, View,
    Viewer,
};
use serde::Serialize;

/// Whose eyes the replay is seen through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayViewer {
    /// Every hand face up, every card passed face down shown.
    Open,
    /// A spectator: no hand, cards passed face down hidden.
    Spectator,
    /// One seat: its own hand, what it saw of the rest.
    Seat(Seat),
}

impl ReplayViewer {
    /// Reads `all` (or nothing), `spectator` or a seat's number.
    pub fn parse(text: Option<&str>) -> Result<ReplayViewer, String> {
        match text.map(str::trim) {
            None | Some("") | Some("all") => Ok(ReplayViewer::Open),
            Some("spectator") => Ok(ReplayViewer::Spectator),
            Some(seat) => seat
                .parse::<u8>()
                .map(|s| ReplayViewer::Seat(Seat(s)))
                .map_err(|_| {
                    format!("seat must be all, spectator or a seat's number, not {seat:?}")
                }),
        }
    }

    fn name(self) -> String {
        match self {
            ReplayViewer::Open => "all".into(),
            ReplayViewer::Spectator => "spectator".into(),
            ReplayViewer::Seat(seat) => seat.0.to_string(),
        }
    }
}

/// The game after one step of the record: a deal or an action.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// The hand's index in the record, from 0.
    pub hand: usize,
    /// The action's index in its hand; none for the deal.
    pub index: Option<usize>,
    /// The seat that acted; none for the deal.
    pub seat: Option<Seat>,
    /// The action as this viewer saw it (`give ?? ??` for cards passed face down that it
    /// did not see); none for the deal.
    pub action: Option<String>,
    /// The game as the viewer sees it after the step.
    pub view: View,
    /// With every hand face up: each seat's cards in the order the game shows a hand, in
    /// seat order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<Vec<Card>>>,
}

/// Every state of a replayed record for one viewer.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayStates {
    /// `kaibosh`, `bid-euchre` or `kout`.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// Seats at the table.
    pub seats: usize,
    /// `all`, `spectator` or the seat's number.
    pub viewer: String,
    /// The game after each deal and each action, in order.
    pub steps: Vec<Step>,
    /// Running totals after the last complete hand.
    pub scores: [i32; 2],
    /// Whether the game is over.
    pub finished: bool,
    /// The winning team, `"draw"`, or null while the game goes on.
    pub winner: Option<Outcome>,
    /// The hand in progress of a record taken during the game, as far as it is public:
    /// its deal is not in the record, so it is not replayed (none otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_progress: Option<InProgress>,
    /// Why the steps stop before the game's end, in a sentence (none for a finished game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A table's players by seat, as its page names them (a person's name, `Bot N`,
    /// `Seat N`); none for a record posted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<String>>,
}

/// The hand a record taken during the game was in: the actions everyone saw, in order
/// (cards passed face down written `??`), without the deal.
#[derive(Clone, Debug, Serialize)]
pub struct InProgress {
    /// The hand's index in the record, from 0.
    pub hand: usize,
    /// Its actions so far, as the record writes them.
    pub actions: Vec<String>,
}

/// Why no states can be made.
#[derive(Debug)]
pub enum ReplayError {
    /// The record is not valid: the engine's one line.
    Record(RecordError),
    /// The viewer asked for is not a seat of this game.
    Seat(String),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Record(e) => write!(f, "{e}"),
            ReplayError::Seat(message) => f.write_str(message),
        }
    }
}

/// Whether a hand's deal is not in the record: a public record taken during the hand
/// writes it with no cards (or fewer than a seat was dealt).
fn deal_withheld(deal: &[Vec<String>]) -> bool {
    let first = deal.first().map_or(0, Vec::len);
    deal.is_empty()
        || deal
            .iter()
            .any(|cards| cards.is_empty() || cards.len() != first)
}

/// Replays `record` on the engine and returns the game as `viewer` sees it after every
/// deal and every action. A record taken during a hand (the public record of a table in
/// play, whose last hand has no deal) gives the states of its complete hands and the hand
/// in progress as its public actions ([`InProgress`]).
pub fn states(record: &Record, viewer: ReplayViewer) -> Result<ReplayStates, ReplayError> {
    let mut states = match record.replay() {
        Ok(_) => replayed(record, viewer)?,
        Err(error) => {
            let last = record.hands.len().saturating_sub(1);
            let withheld = record
                .hands
                .last()
                .is_some_and(|hand| deal_withheld(&hand.deal));
            let at_last = matches!(&error, RecordError::Hand { hand, .. } if *hand == last);
            if !(withheld && at_last) {
                return Err(ReplayError::Record(error));
            }
            let mut before = record.clone();
            let hand = before.hands.pop().expect("the record has a last hand");
            let mut states = replayed(&before, viewer)?;
            states.in_progress = Some(InProgress {
                hand: last,
                actions: hand.actions,
            });
            states
        }
    };
    if !states.finished {
        let complete = states.steps.last().map_or(0, |s| s.hand + 1);
        let hands = |n: usize| {
            if n == 1 {
                "1 hand".to_string()
            } else {
                format!("{n} hands")
            }
        };
        states.note = Some(match &states.in_progress {
            Some(progress) => format!(
                "The game was still being played: {} complete, then hand {} in progress, of which only what everyone saw is shown ({} {}).",
                hands(progress.hand),
                progress.hand + 1,
                progress.actions.len(),
                if progress.actions.len() == 1 { "action" } else { "actions" },
            ),
            None => {
                let last_open = states
                    .steps
                    .last()
                    .is_some_and(|s| !matches!(s.view.phase, Phase::HandOver | Phase::GameOver));
                if last_open {
                    format!(
                        "The game stops before its end, during hand {complete}: the table was ended (or the record was taken) then."
                    )
                } else {
                    format!(
                        "The game stops before its end, after {}: the table was ended, the deal limit reached, or the record taken then.",
                        hands(complete)
                    )
                }
            }
        });
    }
    Ok(states)
}

fn replayed(record: &Record, viewer: ReplayViewer) -> Result<ReplayStates, ReplayError> {
    let (rules, first_dealer) = record.rules().map_err(ReplayError::Record)?;
    let seats = AnyGame::new(&rules, first_dealer).seats();
    if let ReplayViewer::Seat(seat) = viewer {
        if seat.index() >= seats {
            return Err(ReplayError::Seat(format!(
                "seat {} does not exist: this game has seats 0 to {}",
                seat.0,
                seats - 1
            )));
        }
    }
    let mut steps = Vec::new();
    let mut hand = 0usize;
    let mut index = 0usize;
    let (replay, _) = record
        .replay_watched(|game, acted| {
            match acted {
                None if !steps.is_empty() => {
                    hand += 1;
                    index = 0;
                }
                None => {}
                Some(_) => index += 1,
            }
            steps.push(step(game, viewer, hand, index, acted));
        })
        .map_err(ReplayError::Record)?;
    Ok(ReplayStates {
        game: rules.game().to_string(),
        variant: rules.variant().to_string(),
        seats,
        viewer: viewer.name(),
        steps,
        scores: replay.scores,
        finished: replay.finished,
        winner: replay.winner,
        in_progress: None,
        note: None,
        players: None,
    })
}

fn step(
    game: &AnyGame,
    viewer: ReplayViewer,
    hand: usize,
    count: usize,
    acted: Option<(Seat, Action)>,
) -> Step {
    let seats = game.seats();
    let (view, hands) = match viewer {
        ReplayViewer::Seat(seat) => (game.view(Viewer::Seat(seat)), None),
        ReplayViewer::Spectator => (game.view(Viewer::Spectator), None),
        ReplayViewer::Open => {
            let mut view = game.view(Viewer::Spectator);
            // Each card passed face down as the seat that passed it saw it: open.
            for (i, exchange) in view.exchanges.iter_mut().enumerate() {
                let own = game.view(Viewer::Seat(exchange.0));
                if let Some(seen) = own.exchanges.get(i) {
                    *exchange = *seen;
                }
            }
            let order = game.rules().kind().hand_order();
            let hands = (0..seats)
                .map(|s| order.sort(game.observation(Seat(s as u8)).hand, view.trump))
                .collect();
            (view, Some(hands))
        }
    };
    // The action as this viewer saw it: the last one of the hand in its view.
    let action = acted.map(|(seat, action)| {
        let hidden = match (viewer, action) {
            (ReplayViewer::Open, _) => None,
            (_, Action::Give(_) | Action::Discard(_)) => view
                .exchanges
                .last()
                .filter(|(s, _)| *s == seat)
                .map(|(_, seen)| *seen),
            _ => None,
        };
        hidden.unwrap_or(SeenAction::Open(action)).to_string()
    });
    Step {
        hand,
        index: acted.map(|_| count - 1),
        seat: acted.map(|(seat, _)| seat),
        action,
        view,
        hands,
    }
}
