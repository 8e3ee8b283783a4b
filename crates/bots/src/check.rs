//! Checking a decision before any bot thinks about it: does the observation add up, and
//! are the legal actions the ones the rules give? A decision from outside (the bot
//! protocol) may be anything; the bots assume one that a real game produced.
//!
//! The check draws one deal consistent with what the seat knows, replays the hand's
//! actions on it from the hand's start, each checked by the engine, and compares what
//! the seat would then see and may do with the observation and `legal`. Whatever is
//! hidden from the seat cannot change the answer: a fault that a different drawing of
//! the unseen cards might avoid is tried again on other deals before it is reported.

use std::fmt;

use calltrump_engine::{
    seeded, Action, Broken, Card, CardBag, Declared, Observation, Seat, SeenAction, Turn,
};

use crate::model::{BotGame, Completion};
use crate::sampler::DealSampler;
use crate::with_game;
use crate::Decision;

/// The largest score, either way, a decision may claim: further than any game goes, and
/// far enough from the ends of `i32` that the bots' sums of scores and targets fit.
pub const SCORE_LIMIT: i32 = 1_000_000_000;

/// Deals drawn before a fault that hangs on the unseen cards is taken as real.
const TRIES: usize = 64;

/// What is wrong with a decision, in words: `action 5 "play KS": seat 3 must follow
/// hearts`, `legal: lists "bid 2", which is not legal here`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadDecision(pub String);

impl fmt::Display for BadDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadDecision {}

macro_rules! bad {
    ($($arg:tt)*) => {
        return Err(BadDecision(format!($($arg)*)))
    };
}

/// Checks that `decision` is one a real game can pose: every seat exists, the hand's
/// actions replay legally from its start in turn, the seat's hand follows from its dealt
/// cards and its actions, the actions show what the seat may see, it is the seat's turn,
/// and `legal` lists exactly the legal actions. Never panics. Answers what the actions
/// settle (contract, trump, the seat out), for the observation's
/// [`Observation::declared`], which the bot protocol does not carry.
pub fn check_decision(decision: &Decision<'_>) -> Result<Declared, BadDecision> {
    with_game!(decision.rules, |r, G| check::<G>(
        r,
        decision.observation,
        decision.legal
    ))
}

fn check<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    legal: &[Action],
) -> Result<Declared, BadDecision> {
    check_shape::<G>(rules, observation, legal)?;
    let observation = &with_declared::<G>(rules, observation);
    let sampler = DealSampler::new(G::knowledge(rules, observation)).map_err(|_| {
        BadDecision(
            "no deal fits the observation: the cards dealt and played leave the unseen cards \
             no place (a card played by a seat known not to hold it?)"
                .to_string(),
        )
    })?;
    // The drawing of the unseen cards is the check's own: it never depends on a seed.
    let mut rng = seeded(0);
    let mut fault = None;
    for _ in 0..TRIES {
        let buckets = sampler.sample(&mut rng);
        let Some(completion) =
            G::complete(rules, observation, sampler.knowledge(), buckets, &mut rng)
        else {
            continue;
        };
        match replay::<G>(rules, observation, &completion) {
            Ok(game) => return compare(&game, observation, legal),
            Err((error, Certainty::Certain)) => return Err(error),
            Err((error, Certainty::Chance)) => {
                fault.get_or_insert(error);
            }
        }
    }
    Err(fault.unwrap_or_else(|| {
        BadDecision("no deal of the unseen cards fits the hidden actions".to_string())
    }))
}

/// `observation` with what its auction settles (the protocol does not carry it): what
/// the play reveals hangs on trump. No card decides a call or the naming of trump, so the
/// calls are replayed on any deal that fits what the seat knows. Left unsettled where
/// they do not replay: the check then finds the fault.
fn with_declared<G: BotGame>(rules: &G::Rules, observation: &Observation) -> Observation {
    let mut settled = observation.clone();
    let Ok(sampler) = DealSampler::new(G::knowledge(rules, observation)) else {
        return settled;
    };
    let mut rng = seeded(0);
    let buckets = sampler.sample(&mut rng);
    let Some(completion) = G::complete(rules, observation, sampler.knowledge(), buckets, &mut rng)
    else {
        return settled;
    };
    let mut game = G::resume(rules, observation.start);
    if game.turn() != Turn::Chance || game.deal(&completion.dealt).is_err() {
        return settled;
    }
    for (_, seen) in &observation.actions {
        match seen {
            SeenAction::Open(action) if action.is_call() || matches!(action, Action::Trump(_)) => {
                if game.apply(*action).is_err() {
                    break;
                }
            }
            _ => break,
        }
    }
    settled.declared = game.declared();
    settled
}

/// What needs no deal: the seats exist, the scores are within [`SCORE_LIMIT`], `legal` is
/// a list of distinct actions, and no card is seen more often than the deck holds it.
fn check_shape<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    legal: &[Action],
) -> Result<(), BadDecision> {
    let seats = G::new(rules, Seat(0)).seats();
    let no_seat = |seat: Seat| seat.index() >= seats;
    let last = seats - 1;
    if no_seat(observation.seat) {
        bad!(
            "seat {} does not exist: the game has seats 0 to {last}",
            observation.seat
        );
    }
    let start = &observation.start;
    if no_seat(start.dealer) {
        bad!(
            "start: the dealer {} is no seat: the game has seats 0 to {last}",
            start.dealer
        );
    }
    if start
        .scores
        .iter()
        .any(|s| s.unsigned_abs() > SCORE_LIMIT as u32)
    {
        bad!(
            "start: the scores {:?} go beyond ±{SCORE_LIMIT}",
            start.scores
        );
    }
    for (i, (actor, seen)) in observation.actions.iter().enumerate() {
        if no_seat(*actor) {
            bad!("action {i} \"{seen}\": seat {actor} does not exist: the game has seats 0 to {last}");
        }
    }
    if legal.is_empty() {
        bad!("legal: no action is listed");
    }
    for (i, action) in legal.iter().enumerate() {
        if legal[..i].contains(action) {
            bad!("legal: \"{action}\" is listed twice");
        }
    }
    let deck: CardBag = G::deck(rules).into_iter().collect();
    let in_deck = |what: &str, cards: CardBag| -> Result<(), BadDecision> {
        for card in cards.faces().iter() {
            if !deck.contains(card) {
                bad!("{what}: {card} is not in this game's deck");
            }
            if cards.count(card) > deck.count(card) {
                bad!("{what}: {card} is there more times than the deck holds it");
            }
        }
        Ok(())
    };
    in_deck("dealt", observation.dealt)?;
    in_deck("hand", observation.hand)?;
    // The seat's dealt cards and the cards seen played: each at most as often as the
    // deck holds it.
    let mut seen = observation.dealt;
    for (i, (actor, action)) in observation.actions.iter().enumerate() {
        let SeenAction::Open(Action::Play(card)) = action else {
            continue;
        };
        if *actor == observation.seat {
            continue;
        }
        if !deck.contains(*card) {
            bad!("action {i} \"{action}\": {card} is not in this game's deck");
        }
        if seen.count(*card) >= deck.count(*card) {
            bad!(
                "action {i} \"{action}\": {card} is seen more often than the deck holds it \
                 (the seat's dealt cards and the cards played)"
            );
        }
        seen.insert(*card);
    }
    Ok(())
}

/// Whether a fault would be there on any deal consistent with the observation.
enum Certainty {
    /// The same on every deal: the actions' order, the seat's own cards, public rules.
    Certain,
    /// It may hang on how the unseen cards were drawn.
    Chance,
}

/// Replays the observation's actions on `completion` from the hand's start, checking
/// each: whose turn it is, and the rule it might break.
fn replay<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    completion: &Completion,
) -> Result<G, (BadDecision, Certainty)> {
    let certain = |message: String| (BadDecision(message), Certainty::Certain);
    let mut game = G::resume(rules, observation.start);
    if game.turn() != Turn::Chance {
        return Err(certain(
            "start: the game is already over at this hand's start".to_string(),
        ));
    }
    game.deal(&completion.dealt).map_err(|e| {
        certain(format!(
            "dealt: {e} (the seat's dealt cards do not make a hand of this game)"
        ))
    })?;
    let mut hidden = completion.hidden.iter();
    for (i, &(actor, seen)) in observation.actions.iter().enumerate() {
        let at = |message: String| format!("action {i} \"{seen}\": {message}");
        let seat = match game.turn() {
            Turn::Seat(seat) => seat,
            Turn::Chance | Turn::Over => {
                return Err(certain(at("the hand is already over".to_string())))
            }
        };
        if seat != actor {
            return Err(certain(at(format!(
                "made by seat {actor}, but it is seat {seat}'s turn"
            ))));
        }
        let action = match seen {
            SeenAction::Open(action) => action,
            _ => match hidden.next() {
                Some(&action) => action,
                None => {
                    return Err(certain(at(
                        "cards are hidden where none could be".to_string()
                    )))
                }
            },
        };
        if let Err(broken) = game.check(action) {
            let certainty = if actor == observation.seat || is_public(&broken) {
                Certainty::Certain
            } else {
                Certainty::Chance
            };
            return Err((BadDecision(at(format!("seat {actor} {broken}"))), certainty));
        }
        game.apply_unchecked(action);
    }
    Ok(game)
}

/// Whether a broken rule is one that the public actions alone break: the same whatever
/// the other seats hold.
fn is_public(broken: &Broken) -> bool {
    !matches!(
        broken,
        Broken::NotHeld(_)
            | Broken::MustFollow(_)
            | Broken::NoMisdeal
            | Broken::JokerLead(_)
            | Broken::MustGiveHighestTrumps
    )
}

/// Compares the replayed `game` with the decision: whose turn, what the seat sees, and
/// the legal actions.
fn compare<G: BotGame>(
    game: &G,
    observation: &Observation,
    legal: &[Action],
) -> Result<Declared, BadDecision> {
    let seat = observation.seat;
    match game.turn() {
        Turn::Seat(s) if s == seat => {}
        Turn::Seat(s) => bad!("after these actions it is seat {s}'s turn, not seat {seat}'s"),
        Turn::Chance | Turn::Over => bad!("after these actions the hand is over"),
    }
    let seen = game.observation(seat);
    if seen.start != observation.start {
        bad!(
            "start: the hand's start is {:?}, not {:?}",
            seen.start,
            observation.start
        );
    }
    if seen.dealt != observation.dealt {
        bad!(
            "dealt: the seat was dealt {}, not {}",
            cards(seen.dealt),
            cards(observation.dealt)
        );
    }
    for (i, (theirs, ours)) in observation.actions.iter().zip(&seen.actions).enumerate() {
        if theirs != ours {
            bad!(
                "action {i}: the seat sees \"{}\", not \"{}\"",
                ours.1,
                theirs.1
            );
        }
    }
    if seen.hand != observation.hand {
        bad!(
            "hand: after its dealt cards and its actions the seat holds {}, not {}",
            cards(seen.hand),
            cards(observation.hand)
        );
    }
    let rules_legal = game.legal_action_list();
    if let Some(extra) = legal.iter().find(|a| !rules_legal.contains(a)) {
        let why = match game.check(*extra) {
            Err(broken) => format!(": seat {seat} {broken}"),
            Ok(()) => String::new(),
        };
        bad!("legal: lists \"{extra}\", which is not legal here{why}");
    }
    if let Some(missing) = rules_legal.iter().find(|a| !legal.contains(a)) {
        bad!("legal: leaves out \"{missing}\", which is legal here");
    }
    Ok(seen.declared)
}

/// Cards as the notation writes a hand: `[9S JS QH]`.
fn cards(bag: CardBag) -> String {
    let list: Vec<String> = bag.iter().map(|c: Card| c.to_string()).collect();
    format!("[{}]", list.join(" "))
}
