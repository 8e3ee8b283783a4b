//! Game records (NOTATION.md): reading, writing and replaying them.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::action::Action;
use crate::any_game::AnyGame;
use crate::card::Card;
use crate::card_set::CardBag;
use crate::deal_source::{DealSource, FairDeal};
use crate::game::{Game, HandSummary, Outcome, Turn};
use crate::rules::GameRules;
use crate::seat::Seat;

/// A game record as the notation writes it. Cards and actions stay text until replayed, so
/// that a fault can be reported at the hand and action where it stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `kaibosh`, `bid-euchre` or `kout`.
    pub game: String,
    /// The variant; without it the game's first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Overrides of the default options.
    #[serde(default)]
    pub options: Map<String, Value>,
    /// The first dealer (default 0).
    #[serde(default)]
    pub first_dealer: Option<Value>,
    /// Where the deals come from (docs/fair-deals.md); older records do not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_source: Option<DealSource>,
    /// Every deal in order.
    #[serde(default)]
    pub hands: Vec<RecordHand>,
    /// How a game stopped before its end was settled (at the deal limit of `play` and
    /// `serve`: a draw); replaying does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Outcome>,
}

/// One deal of a record and the actions that followed it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordHand {
    /// Each seat's cards, in seat order.
    pub deal: Vec<Vec<String>>,
    /// The actions in order; each is made by the seat whose turn it is.
    #[serde(default)]
    pub actions: Vec<String>,
    /// The commitment, cut and seed of a committed deal (docs/fair-deals.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair_deal: Option<FairDeal>,
}

/// A record that cannot be read or breaks a rule. Its display is the one line that
/// `replay` prints: `hand 0, action 7 "play KS": seat 3 must follow hearts`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not a JSON record.
    Json(String),
    /// A fault in the header (game, variant, options, first dealer).
    Header(String),
    /// A fault in a hand's deal, or a hand where none may stand.
    Hand {
        /// The hand's index.
        hand: usize,
        /// What is wrong.
        message: String,
    },
    /// A fault at one action of a hand.
    Action {
        /// The hand's index.
        hand: usize,
        /// The action's index within the hand.
        index: usize,
        /// The action's text, or `None` for a missing action.
        text: Option<String>,
        /// What is wrong, with the seat where one was to act.
        message: String,
    },
}

impl fmt::Display for RecordError {
    /// One line: control characters from the record (a newline inside an action's text,
    /// say) are written escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.unescaped().chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl RecordError {
    fn unescaped(&self) -> String {
        match self {
            RecordError::Json(message) => format!("invalid record: {message}"),
            RecordError::Header(message) => message.clone(),
            RecordError::Hand { hand, message } => format!("hand {hand}: {message}"),
            RecordError::Action {
                hand,
                index,
                text: Some(text),
                message,
            } => format!("hand {hand}, action {index} \"{text}\": {message}"),
            RecordError::Action {
                hand,
                index,
                text: None,
                message,
            } => format!("hand {hand}, action {index}: {message}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// What a record amounts to: the replay output of NOTATION.md.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// One row per hand.
    pub hands: Vec<HandSummary>,
    /// Running totals after the last complete hand.
    pub scores: [i32; 2],
    /// Whether the game is over.
    pub finished: bool,
    /// The winning team, `"draw"`, or null while the game goes on.
    pub winner: Option<Outcome>,
}

impl Record {
    /// Reads a record from JSON text. A value of the wrong kind is named by its place
    /// in the record: `hands[0].deal[1][2]: invalid type: ...`.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut json = serde_json::Deserializer::from_str(text);
        let record: Record = serde_path_to_error::deserialize(&mut json).map_err(|e| {
            let path = e.path().to_string();
            match path.as_str() {
                // Not inside any field: the text itself is not a JSON object.
                "." => RecordError::Json(e.into_inner().to_string()),
                _ => RecordError::Json(format!("{path}: {}", e.into_inner())),
            }
        })?;
        json.end().map_err(|e| RecordError::Json(e.to_string()))?;
        Ok(record)
    }

    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serializes")
    }

    /// A record of a game about to start under `rules`.
    pub fn new(rules: &GameRules, first_dealer: Seat) -> Record {
        Record {
            game: rules.game().to_string(),
            variant: Some(rules.variant().to_string()),
            options: rules.options(),
            first_dealer: Some(first_dealer.0.into()),
            deal_source: None,
            hands: Vec::new(),
            result: None,
        }
    }

    /// Adds a deal.
    pub fn push_deal(&mut self, hands: &[CardBag]) {
        self.hands.push(RecordHand {
            deal: hands
                .iter()
                .map(|hand| hand.iter().map(|c| c.name().to_owned()).collect())
                .collect(),
            actions: Vec::new(),
            fair_deal: None,
        });
    }

    /// Adds a committed deal with its fair-deal block (docs/fair-deals.md).
    pub fn push_fair_deal(&mut self, hands: &[CardBag], block: FairDeal) {
        self.push_deal(hands);
        if let Some(hand) = self.hands.last_mut() {
            hand.fair_deal = Some(block);
        }
    }

    /// Adds an action to the last deal.
    pub fn push_action(&mut self, action: Action) {
        if let Some(hand) = self.hands.last_mut() {
            hand.actions.push(action.to_string());
        }
    }

    /// The rules and first dealer of the header.
    pub fn rules(&self) -> Result<(GameRules, Seat), RecordError> {
        let rules = GameRules::from_header(&self.game, self.variant.as_deref(), &self.options)
            .map_err(|e| RecordError::Header(e.to_string()))?;
        let seats = AnyGame::new(&rules, Seat(0)).seats();
        let first_dealer = match &self.first_dealer {
            None => Seat(0),
            Some(value) => match value.as_u64() {
                Some(d) if (d as usize) < seats => Seat(d as u8),
                _ => {
                    return Err(RecordError::Header(format!(
                        "first_dealer must be a seat from 0 to {}, not {value}",
                        seats - 1
                    )))
                }
            },
        };
        Ok((rules, first_dealer))
    }

    /// Replays the record, checking every deal and action, and returns what it amounts to
    /// with the game as it stands at the end.
    pub fn replay(&self) -> Result<(Replay, AnyGame), RecordError> {
        self.replay_watched(|_, _| {})
    }

    /// [`Record::replay`], showing `watch` the game after each deal (with no action) and
    /// after each action (with the seat that made it).
    pub fn replay_watched(
        &self,
        mut watch: impl FnMut(&AnyGame, Option<(Seat, Action)>),
    ) -> Result<(Replay, AnyGame), RecordError> {
        let (rules, first_dealer) = self.rules()?;
        let mut game = AnyGame::new(&rules, first_dealer);
        let mut hands = Vec::with_capacity(self.hands.len());
        for (h, hand) in self.hands.iter().enumerate() {
            let hand_error = |message: String| RecordError::Hand { hand: h, message };
            match game.turn() {
                Turn::Over => return Err(hand_error("the game is already over".to_string())),
                Turn::Seat(seat) => {
                    let index = self.hands[h - 1].actions.len();
                    return Err(RecordError::Action {
                        hand: h - 1,
                        index,
                        text: None,
                        message: format!(
                            "seat {seat} has yet to act, but the record moves on to the next hand"
                        ),
                    });
                }
                Turn::Chance => {}
            }
            if hand.deal.iter().all(Vec::is_empty) {
                // The table server's record of a hand still in play shows no deal.
                return Err(hand_error(
                    "no deal shown: the record was taken while this hand was played, and \
                     holds only what every player may see; it replays once the hand is over"
                        .to_string(),
                ));
            }
            let deal = parse_deal(&hand.deal).map_err(hand_error)?;
            game.deal(&deal).map_err(|e| hand_error(e.to_string()))?;
            watch(&game, None);
            for (i, text) in hand.actions.iter().enumerate() {
                let action_error = |message: String| RecordError::Action {
                    hand: h,
                    index: i,
                    text: Some(text.clone()),
                    message,
                };
                let seat = match game.turn() {
                    Turn::Seat(seat) => seat,
                    Turn::Chance | Turn::Over => {
                        return Err(action_error("the hand is already complete".to_string()))
                    }
                };
                let action: Action = text.parse().map_err(|e| {
                    action_error(format!("seat {seat} wrote what is not an action: {e}"))
                })?;
                game.apply(action)
                    .map_err(|e| action_error(e.to_string()))?;
                watch(&game, Some((seat, action)));
            }
            hands.push(game.hand_summary());
        }
        let outcome = game.outcome();
        Ok((
            Replay {
                hands,
                scores: game.scores(),
                finished: outcome.is_some(),
                winner: outcome,
            },
            game,
        ))
    }
}

/// Reads each seat's cards; card counts and the deck are checked by the game.
pub(crate) fn parse_deal(deal: &[Vec<String>]) -> Result<Vec<CardBag>, String> {
    deal.iter()
        .enumerate()
        .map(|(seat, cards)| {
            let mut bag = CardBag::EMPTY;
            for text in cards {
                let card: Card = text
                    .parse()
                    .map_err(|e| format!("seat {seat}'s cards: {e}"))?;
                if !bag.insert(card) {
                    return Err(format!("{card} is dealt more times than the deck holds it"));
                }
            }
            Ok(bag)
        })
        .collect()
}
