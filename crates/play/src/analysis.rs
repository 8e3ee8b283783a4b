//! The analysis behind `calltrump analyze`: every decision of a game record judged by the
//! expert bot's own evaluation from what the deciding seat knew then, and each hand's
//! open-cards (double-dummy) table. Output is plain data (JSON through serde); the
//! command prints it, as text, JSON or an HTML review.
//!
//! A decision is judged from the seat's observation only, with a generator seeded from
//! `--seed`, the hand and the decision's index: its values do not depend on the cards
//! the seat could not see, nor on any other decision.

use calltrump_bots::{read_call, with_game, BotGame, Decision, Level, PimcBot, Solver};
use calltrump_engine::{
    Action, AnyGame, Card, CardBag, Game, GameKind, GameRules, HandStart, HandSummary, KoutVariant,
    Phase, Record, RecordError, Seat, Strain, Turn, VariantKind,
};
use serde::Serialize;

/// How an analysis is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Deals sampled per card play.
    pub play_samples: u32,
    /// Deals sampled per other decision (a call, trump, a give or discard).
    pub call_samples: u32,
    /// The seed of every sample.
    pub seed: u64,
    /// Only this hand (its index in the record, from 0).
    pub hand: Option<usize>,
}

/// The bot whose evaluation judges: the expert.
const JUDGE: Level = Level::Expert;

/// The judge's search bot, at its own budget: the bot of every hint, so that a game's
/// analysis agrees with the hints given during it, except that it never takes more
/// deals for a close call: an analysis samples the counts it states.
pub fn judge() -> PimcBot {
    calltrump_bots::hint_bot().extending_close_calls(1)
}

impl Settings {
    /// The expert's own budget, seed 0, every hand.
    pub fn expert() -> Settings {
        let (play_samples, call_samples) = judge().budget();
        Settings {
            play_samples,
            call_samples,
            seed: 0,
            hand: None,
        }
    }

    /// The expert's budget scaled to `play_samples` deals per card play; calls keep the
    /// expert's ratio (60 to 150), at least one deal.
    pub fn with_samples(self, play_samples: u32) -> Settings {
        let (play, call) = judge().budget();
        let scaled = u64::from(play_samples) * u64::from(call) / u64::from(play.max(1));
        Settings {
            play_samples,
            call_samples: (scaled as u32).max(1),
            ..self
        }
    }
}

/// Points lost from which a decision is marked, per game: about a quarter of a trick,
/// three quarters and two tricks in Kaibosh and Bid Euchre, where a trick is about a
/// point; twice that in Kout Bo, where points come by contracts (a set costs the makers
/// twice their bid) and a trick is worth about two.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    /// An inaccuracy from this many points lost.
    pub inaccuracy: f64,
    /// A mistake from this many.
    pub mistake: f64,
    /// A blunder from this many.
    pub blunder: f64,
}

impl Thresholds {
    /// The thresholds of the game of `rules`.
    pub fn of(rules: &GameRules) -> Thresholds {
        let scale = match rules {
            GameRules::Kout(_) => 2.0,
            GameRules::Kaibosh(_) | GameRules::BidEuchre(_) => 1.0,
        };
        Thresholds {
            inaccuracy: 0.25 * scale,
            mistake: 0.75 * scale,
            blunder: 2.0 * scale,
        }
    }

    /// The mark of a decision that lost `loss` points.
    pub fn mark(&self, loss: f64) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// How bad a decision was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// Lost a little.
    Inaccuracy,
    /// Lost clearly.
    Mistake,
    /// Lost a lot.
    Blunder,
}

impl Mark {
    /// The mark's name.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// One action of a decision as judged.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Judged {
    /// The action.
    pub action: Action,
    /// Expected net points on the hand (the seat's team's less the other team's); none
    /// for a forced action, which is not evaluated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
    /// Points it loses against the best action.
    pub loss: f64,
}

/// One decision of the record, judged from the deciding seat's observation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecisionReview {
    /// The action's index in its hand.
    pub index: usize,
    /// The deciding seat.
    pub seat: Seat,
    /// The stage of the hand: auction, trump-naming, exchange or play.
    pub phase: Phase,
    /// In the play, the trick (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trick: Option<u8>,
    /// The action taken.
    pub taken: Action,
    /// Whether it was the only legal action (then nothing is evaluated).
    pub forced: bool,
    /// Deals the evaluation sampled.
    pub deals: u32,
    /// The judged actions, best first: every card of a play; of a call the ones the
    /// expert considers, and the one taken.
    pub actions: Vec<Judged>,
    /// Points the action taken lost against the best.
    pub loss: f64,
    /// Its mark, if it lost enough for one.
    pub mark: Option<Mark>,
    /// For a call, what the bots take it to show, read from a partner's seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
}

impl DecisionReview {
    /// The best action judged.
    pub fn best(&self) -> &Judged {
        &self.actions[0]
    }
}

/// One declarer and trump of the open-cards table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenCell {
    /// The trump suit, or no-trump.
    pub trump: Strain,
    /// Tricks the declarer's team takes with every hand open and best play.
    pub tricks: u8,
    /// Tricks in the hand.
    pub of: u8,
    /// Where the search is depth-limited (Kout Bo), for each bid from the lowest up:
    /// the bid and whether the declarer's team makes it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub makes: Vec<(u8, bool)>,
}

/// One declarer's row of the open-cards table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenRow {
    /// The declarer: the seat that wins the auction (with the lowest bid, the others
    /// passing) and names trump.
    pub declarer: Seat,
    /// One cell per trump.
    pub cells: Vec<OpenCell>,
}

/// A hand's open-cards (double-dummy) table: what each declarer's team takes with every
/// trump when every hand is open and everyone plays best.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenTable {
    /// Tricks searched before the rest is played out by the rules of thumb (`None`:
    /// to the end, exact).
    pub depth: Option<u32>,
    /// One row per seat.
    pub rows: Vec<OpenRow>,
}

/// One hand of the record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HandReview {
    /// The hand's index in the record, from 0.
    pub hand: usize,
    /// The scores before the hand.
    pub scores_before: [i32; 2],
    /// What the hand amounted to (as `replay` says).
    pub summary: HandSummary,
    /// Each seat's dealt cards.
    pub deal: Vec<Vec<Card>>,
    /// The open-cards table.
    pub open_cards: OpenTable,
    /// Every decision of the hand, in order.
    pub decisions: Vec<DecisionReview>,
}

/// One seat's record over the analysed hands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatSummary {
    /// The seat.
    pub seat: Seat,
    /// Decisions with a choice.
    pub decisions: usize,
    /// Forced decisions (one legal action).
    pub forced: usize,
    /// Points lost over the decisions with a choice.
    pub lost: f64,
    /// Points lost per decision with a choice.
    pub average_loss: f64,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
}

/// The judge and its budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judge {
    /// The bot whose evaluation judges.
    pub bot: &'static str,
    /// Deals sampled per card play.
    pub play_samples: u32,
    /// Deals sampled per other decision.
    pub call_samples: u32,
    /// The seed.
    pub seed: u64,
}

/// A whole analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The game.
    pub game: GameKind,
    /// The variant.
    pub variant: VariantKind,
    /// Who judged, with what budget.
    pub judge: Judge,
    /// The marks' thresholds, in points lost.
    pub thresholds: Thresholds,
    /// The analysed hands.
    pub hands: Vec<HandReview>,
    /// Per seat, over the analysed hands.
    pub seats: Vec<SeatSummary>,
    /// The scores after the record's last complete hand.
    pub scores: [i32; 2],
    /// The record analysed, whole: the analysis stands alone (the browser's replay
    /// viewer reads both from one file).
    pub record: Record,
}

/// Why a record cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// The record is not a valid record.
    Record(RecordError),
    /// `--hand` names a hand the record does not have.
    NoSuchHand {
        /// The hand asked for, by index from 0.
        hand: usize,
        /// Hands in the record.
        hands: usize,
    },
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalysisError::Record(error) => write!(f, "{error}"),
            // Hands are numbered from 1, as `play` shows them.
            AnalysisError::NoSuchHand { hand, hands: 0 } => {
                write!(f, "there is no hand {}: the record has no hands", hand + 1)
            }
            AnalysisError::NoSuchHand { hand, hands: 1 } => write!(
                f,
                "there is no hand {}: the record has only hand 1",
                hand + 1
            ),
            AnalysisError::NoSuchHand { hand, hands } => write!(
                f,
                "there is no hand {}: the record has hands 1 to {hands}",
                hand + 1
            ),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// The decisions [`analyze`] goes through for `settings`, for a progress bar.
pub fn decision_count(record: &Record, settings: &Settings) -> usize {
    record
        .hands
        .iter()
        .enumerate()
        .filter(|(h, _)| settings.hand.is_none_or(|n| n == *h))
        .map(|(_, hand)| hand.actions.len())
        .sum()
}

/// Analyses `record`: every hand (or the one of `settings.hand`), calling `progress`
/// after each decision.
pub fn analyze(
    record: &Record,
    settings: &Settings,
    progress: &mut dyn FnMut(),
) -> Result<Analysis, AnalysisError> {
    let (_, end) = record.replay().map_err(AnalysisError::Record)?;
    if let Some(hand) = settings.hand.filter(|&h| h >= record.hands.len()) {
        return Err(AnalysisError::NoSuchHand {
            hand,
            hands: record.hands.len(),
        });
    }
    let (rules, first_dealer) = record.rules().map_err(AnalysisError::Record)?;
    let thresholds = Thresholds::of(&rules);
    let mut bot = judge().with_budget(settings.play_samples, settings.call_samples);
    let mut solver = Solver::new();
    let mut game = AnyGame::new(&rules, first_dealer);
    let seats = game.seats();
    let mut hands = Vec::new();
    for (h, hand) in record.hands.iter().enumerate() {
        let deal: Vec<CardBag> = hand
            .deal
            .iter()
            .map(|cards| cards.iter().filter_map(|c| c.parse().ok()).collect())
            .collect();
        let scores_before = game.scores();
        game.deal(&deal).map_err(|e| replayed(h, &e))?;
        let wanted = settings.hand.is_none_or(|n| n == h);
        let start = game.hand_start();
        let mut decisions = Vec::new();
        for (i, text) in hand.actions.iter().enumerate() {
            let taken: Action = text.parse().map_err(|e| replayed(h, &e))?;
            let Turn::Seat(seat) = game.turn() else {
                return Err(replayed(h, &"the hand is already complete"));
            };
            if wanted {
                let at = (h, i);
                let review =
                    judge_decision(&game, seat, &mut bot, taken, at, settings, &thresholds);
                decisions.push(review);
                progress();
            }
            game.apply(taken).map_err(|e| replayed(h, &e))?;
            if let Some(review) = decisions.last_mut().filter(|r| r.taken.is_call()) {
                review.reading = reading(&game, review.seat, (h, i), settings.seed);
            }
        }
        if wanted {
            hands.push(HandReview {
                hand: h,
                scores_before,
                summary: game.hand_summary(),
                deal: deal.iter().map(|bag| bag.iter().collect()).collect(),
                open_cards: open_table(&rules, start, &deal, &mut solver),
                decisions,
            });
        }
    }
    Ok(Analysis {
        game: rules.kind().game(),
        variant: rules.kind(),
        judge: Judge {
            bot: JUDGE.name(),
            play_samples: settings.play_samples,
            call_samples: settings.call_samples,
            seed: settings.seed,
        },
        thresholds,
        seats: summaries(&hands, seats),
        hands,
        scores: end.scores(),
        record: record.clone(),
    })
}

/// A fault met replaying a record that [`Record::replay`] accepted: unreachable, but
/// reported rather than panicking.
fn replayed(hand: usize, error: &dyn std::fmt::Display) -> AnalysisError {
    AnalysisError::Record(RecordError::Hand {
        hand,
        message: error.to_string(),
    })
}

// The generators of an evaluation and of a call's reading, by the decision's place in
// the game: shared with the hints (crates/bots/src/hint.rs), so `hint` in `play`, seed 0,
// agrees with the analysis of the saved record.
pub use calltrump_bots::{evaluation_rng, reading_rng};

/// Judges `taken`, the action `seat` made in `game`.
fn judge_decision(
    game: &AnyGame,
    seat: Seat,
    bot: &mut PimcBot,
    taken: Action,
    at: (usize, usize),
    settings: &Settings,
    thresholds: &Thresholds,
) -> DecisionReview {
    let phase = game.phase();
    let tricks = game.hand_summary().tricks;
    let legal = game.legal_action_list();
    let mut review = DecisionReview {
        index: at.1,
        seat,
        phase,
        trick: (phase == Phase::Play).then_some(tricks[0] + tricks[1] + 1),
        taken,
        forced: legal.len() == 1,
        deals: 0,
        actions: vec![Judged {
            action: taken,
            points: None,
            loss: 0.0,
        }],
        loss: 0.0,
        mark: None,
        reading: None,
    };
    if review.forced {
        return review;
    }
    let observation = game.observation(seat);
    let decision = Decision {
        rules: game.rules(),
        observation: &observation,
        legal: &legal,
    };
    let mut rng = evaluation_rng(settings.seed, at);
    // No deal fits the seat's observation: a record the engine accepted cannot pose
    // one, but the decision is then left unjudged rather than misjudged.
    let Ok(evaluation) = bot.evaluate(&decision, &[taken], &mut rng) else {
        return review;
    };
    let best = evaluation.actions[0].points;
    review.deals = evaluation.deals;
    review.actions = evaluation
        .actions
        .iter()
        .map(|value| Judged {
            action: value.action,
            points: Some(value.points),
            loss: without_float_error(best - value.points),
        })
        .collect();
    review.loss = review
        .actions
        .iter()
        .find(|j| j.action == taken)
        .map_or(0.0, |j| j.loss);
    review.mark = thresholds.mark(review.loss);
    review
}

/// `points` to a billionth: a difference of two means over the deals is a whole number
/// of hundredths or sixths of a point, which floating point misses by a last digit
/// (3.1666… − 1.1666… = 1.9999999999999998), and a loss of 2 is then no blunder.
fn without_float_error(points: f64) -> f64 {
    (points * 1e9).round() / 1e9
}

/// What the bots take the call just made by `caller` in `game` to show, read by the
/// caller's partner (the seat two on), for whom conventions are made.
fn reading(game: &AnyGame, caller: Seat, at: (usize, usize), seed: u64) -> Option<String> {
    let partner = caller.after(2, game.seats());
    let observation = game.observation(partner);
    let index = observation.actions.len().checked_sub(1)?;
    let mut rng = reading_rng(seed, at);
    read_call(game.rules(), &observation, index, &mut rng).map(|r| r.to_string())
}

/// Per seat: decisions, forced ones, points lost and marks.
fn summaries(hands: &[HandReview], seats: usize) -> Vec<SeatSummary> {
    let mut out: Vec<SeatSummary> = (0..seats)
        .map(|s| SeatSummary {
            seat: Seat(s as u8),
            decisions: 0,
            forced: 0,
            lost: 0.0,
            average_loss: 0.0,
            inaccuracies: 0,
            mistakes: 0,
            blunders: 0,
        })
        .collect();
    for review in hands.iter().flat_map(|h| &h.decisions) {
        let summary = &mut out[review.seat.index()];
        if review.forced {
            summary.forced += 1;
            continue;
        }
        summary.decisions += 1;
        summary.lost += review.loss;
        match review.mark {
            Some(Mark::Inaccuracy) => summary.inaccuracies += 1,
            Some(Mark::Mistake) => summary.mistakes += 1,
            Some(Mark::Blunder) => summary.blunders += 1,
            None => {}
        }
    }
    for summary in &mut out {
        summary.average_loss = summary.lost / summary.decisions.max(1) as f64;
    }
    out
}

/// The open-cards table of the hand starting at `start` with `deal`. Kaibosh and Bid
/// Euchre are solved to the end. A Kout Bo deal is too big for that: the search looks
/// as far as under a second a hand affords on one core (a Kout Bo 6 game of 25 hands:
/// about 15 s of tables at 3 tricks, ten times that at 4; Kout Bo 4, 33 hands: about
/// 6 s at 5), then plays the rest out by the rules of thumb.
pub fn open_table(
    rules: &GameRules,
    start: HandStart,
    deal: &[CardBag],
    solver: &mut Solver,
) -> OpenTable {
    let depth = match rules {
        GameRules::Kout(kout) => Some(match kout.variant {
            KoutVariant::Six => 3,
            KoutVariant::Four => 5,
        }),
        GameRules::Kaibosh(_) | GameRules::BidEuchre(_) => None,
    };
    with_game!(rules, |r, G| open_table_in::<G>(
        r, depth, start, deal, solver
    ))
}

fn open_table_in<G: BotGame>(
    rules: &G::Rules,
    depth: Option<u32>,
    start: HandStart,
    deal: &[CardBag],
    solver: &mut Solver,
) -> OpenTable {
    // The position at the first lead for a declarer, a trump and a bid.
    let first_lead = |declarer, trump, bid| {
        declared::<G>(rules, start, deal, declarer, trump, bid).and_then(|g| g.position())
    };
    let seats = G::resume(rules, start).seats();
    let rows = (0..seats)
        .map(|d| {
            let declarer = Seat(d as u8);
            let team = declarer.team().index();
            let cells = Strain::ALL
                .into_iter()
                .filter_map(|trump| {
                    let (position, _) = first_lead(declarer, trump, None)?;
                    let of = position.tricks_left() as u8;
                    let t0 = solver.solve_to(&position, depth);
                    // Short searches estimate the count; whether a bid is made they
                    // answer for that bid's own position (its joker leads).
                    let makes = match depth {
                        None => Vec::new(),
                        Some(_) => (1..=of)
                            .filter_map(|bid| {
                                let (position, _) = first_lead(declarer, trump, Some(bid))?;
                                Some((bid, solver.makes_to(&position, team, bid, depth)))
                            })
                            .collect(),
                    };
                    Some(OpenCell {
                        trump,
                        tricks: if team == 0 { t0 } else { of - t0 },
                        of,
                        makes,
                    })
                })
                .collect();
            OpenRow { declarer, cells }
        })
        .collect();
    OpenTable { depth, rows }
}

/// The hand of `deal` at its first lead after `declarer` won the auction in `strain`
/// (with `level`, or its lowest bid), every other seat passing; `None` if the game has
/// no such auction (no-trump outside Bid Euchre, a bid out of range).
fn declared<G: BotGame>(
    rules: &G::Rules,
    start: HandStart,
    deal: &[CardBag],
    declarer: Seat,
    strain: Strain,
    level: Option<u8>,
) -> Option<G> {
    let mut game = G::resume(rules, start);
    game.deal(deal).ok()?;
    let fits = |n: u8| level.is_none_or(|l| l == n);
    loop {
        let Turn::Seat(seat) = game.turn() else {
            return None;
        };
        if game.position().is_some() {
            return Some(game);
        }
        let legal = game.legal_action_list();
        let pick = if seat != declarer {
            Action::Pass
        } else {
            legal
                .iter()
                .copied()
                .filter(|a| match *a {
                    Action::Bid(n) => fits(n),
                    Action::BidStrain(n, s) => s == strain && fits(n),
                    Action::Trump(suit) => Strain::Suit(suit) == strain,
                    _ => false,
                })
                .min_by_key(|a| match a {
                    Action::Bid(n) | Action::BidStrain(n, _) => *n,
                    _ => 0,
                })?
        };
        game.apply(pick).ok()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_of_exactly_a_threshold_gets_its_mark() {
        let thresholds = Thresholds {
            inaccuracy: 0.25,
            mistake: 0.75,
            blunder: 2.0,
        };
        let loss = 3.1666666666666665 - 1.1666666666666667;
        assert!(loss < 2.0, "the float error this guards against");
        let loss = without_float_error(loss);
        assert_eq!(loss, 2.0);
        assert_eq!(thresholds.mark(loss), Some(Mark::Blunder));
        assert_eq!(without_float_error(0.1 + 0.2), 0.3);
    }
}
