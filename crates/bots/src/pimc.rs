//! The `pimc` bot: perfect-information Monte Carlo. It samples deals consistent with what
//! it knows, weighted by what the auction says, and scores every legal action on each:
//! a card by solving the rest of the play (to the end in Kaibosh, a few tricks ahead in
//! Bid Euchre and Kout Bo), any other decision by simulating the
//! hand on (the other decisions by the rules of thumb, the play by the solver). The
//! action with the best average utility wins; utility keeps the game score in view.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use calltrump_engine::{Action, GameRng, Observation, Turn};

use crate::model::{BotGame, Deals, Lookahead};
use crate::position::Position;
use crate::rooted::{tree_choose, TreeSearch, Valuation};
use crate::rules::{rules_choose, rules_play};
use crate::solver::Solver;
use crate::thinking::{format_thinking_time, Clock, ThreadTime, TimeSource};
use crate::with_game;
use crate::{Bot, Decision};

/// The PIMC bot and its budget: deals sampled per decision.
pub struct PimcBot {
    play_samples: u32,
    call_samples: u32,
    /// Tricks the play search looks beyond the game's own horizon.
    extra_depth: u32,
    /// Whether deals are weighted by what the auction says (else voids only).
    reads_auction: bool,
    /// Whether deals are also weighted by the other seats' card plays (see
    /// [`crate::Deals::draw_reading_play`]).
    reads_play: bool,
    /// How far the search looks where the game is not searched to the end.
    lookahead: Lookahead,
    /// Whether the card play is searched by ISMCTS rooted in the sampled deals
    /// ([`crate::rooted`]), its budget of deals then a budget of iterations.
    plays_tree: bool,
    solver: Solver,
    /// The name it goes by, if not its settings (a level's).
    label: Option<&'static str>,
    /// With a thinking time, deals are sampled until it is spent (or the best action is
    /// clearly ahead), up to [`PimcBot::MAX_TIMED_DEALS`].
    thinking: Option<Duration>,
    /// What the thinking time is read from.
    clock: Arc<dyn TimeSource>,
    /// Thinking time left unused by earlier decisions that stopped early, which the next
    /// calls may spend (at most [`PimcBot::BANK_LIMIT`] times the thinking time).
    banked: Duration,
    /// Deals sampled for the last decision.
    last_deals: u32,
    /// How many times its budget a close call may take (see
    /// [`PimcBot::extending_close_calls`]); 1 for a bot that does not extend them.
    close_call_factor: u32,
}

impl std::fmt::Debug for PimcBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PimcBot")
            .field("play_samples", &self.play_samples)
            .field("call_samples", &self.call_samples)
            .field("extra_depth", &self.extra_depth)
            .field("reads_auction", &self.reads_auction)
            .field("reads_play", &self.reads_play)
            .field("lookahead", &self.lookahead)
            .field("plays_tree", &self.plays_tree)
            .field("label", &self.label)
            .field("thinking", &self.thinking)
            .field("close_call_factor", &self.close_call_factor)
            .finish()
    }
}

impl PimcBot {
    /// Default deals per card play (`pimc`); calls get half as many.
    pub const DEFAULT_SAMPLES: u32 = 40;

    /// The most deals a bot with a thinking time samples for one decision, however long
    /// it may think (bounding the memory of a decision: each deal's values are kept).
    pub const MAX_TIMED_DEALS: u32 = 200_000;

    /// Deals a bot with a thinking time samples before it may stop early.
    const MIN_DEALS_TO_STOP: u32 = 32;

    /// Standard errors by which the best action must lead every other for a bot with a
    /// thinking time to stop before its time is spent.
    const STOP_MARGIN: f64 = 3.0;

    /// Standard errors by which the best call must lead every other for a bot that
    /// extends close calls to stop at its budget.
    const CLOSE_CALL_MARGIN: f64 = 2.0;

    /// Deals between two checks of whether an extended call is still close.
    const CLOSE_CALL_STEP: u32 = 20;

    /// The most thinking time a bot with a thinking time carries to later decisions, in
    /// multiples of that time: a decision thinks at most this plus one times as long.
    pub const BANK_LIMIT: u32 = 9;

    /// A bot that samples `play_samples` deals for a card play and `call_samples` for
    /// any other decision; with `call_samples` 0 it makes those by the rules of thumb.
    pub fn new(play_samples: u32, call_samples: u32) -> PimcBot {
        PimcBot {
            play_samples: play_samples.max(1),
            call_samples,
            extra_depth: 0,
            reads_auction: true,
            reads_play: false,
            lookahead: Lookahead::Near,
            plays_tree: false,
            solver: Solver::new(),
            label: None,
            thinking: None,
            clock: Arc::new(ThreadTime),
            banked: Duration::ZERO,
            last_deals: 0,
            close_call_factor: 1,
        }
    }

    /// The same bot sampling `play_samples` deals for a card play and `call_samples` for
    /// any other decision.
    pub fn with_budget(mut self, play_samples: u32, call_samples: u32) -> PimcBot {
        self.play_samples = play_samples.max(1);
        self.call_samples = call_samples;
        self
    }

    /// Deals sampled for a card play and for any other decision.
    pub fn budget(&self) -> (u32, u32) {
        (self.play_samples, self.call_samples)
    }

    /// The same bot searching the play `tricks` further ahead than its horizon
    /// ([`crate::BotGame::search_depth`]); no change where that is the end.
    pub fn deeper(mut self, tricks: u32) -> PimcBot {
        self.extra_depth = tricks;
        self
    }

    /// The same bot going on sampling a call past its budget, up to `factor` times it,
    /// while the best call does not lead every other by two
    /// standard errors: the deals go to the calls that are close (1: never past the
    /// budget). Reproducible from the seed like the fixed budget: what stops it is the
    /// deals' values, not a clock.
    pub fn extending_close_calls(mut self, factor: u32) -> PimcBot {
        self.close_call_factor = factor.max(1);
        self
    }

    /// How many times its budget a close call may take.
    pub fn close_call_factor(&self) -> u32 {
        self.close_call_factor
    }

    /// The same bot drawing deals from the revealed voids only, deaf to the auction.
    pub fn ignoring_auction(mut self) -> PimcBot {
        self.reads_auction = false;
        self
    }

    /// The same bot weighing its deals by the other seats' card plays too, where it
    /// weighs them by the auction: a seat that let the other team's card hold a trick
    /// it could have taken, or took one dearer than it had to, likely lacked the cards
    /// to do otherwise ([`crate::Deals::draw_reading_play`]).
    pub fn reading_play(mut self) -> PimcBot {
        self.reads_play = self.reads_auction;
        self
    }

    /// The same bot looking further ahead, every decision, where the game is not
    /// searched to the end of the hand ([`Lookahead::Far`]).
    pub fn looking_far(mut self) -> PimcBot {
        self.lookahead = Lookahead::Far;
        self
    }

    /// The same bot playing its cards by information-set MCTS rooted in its sampled
    /// deals (`rooted`), a deal an iteration, instead of by scoring every card
    /// on every deal; its other decisions as before.
    pub fn playing_tree(mut self) -> PimcBot {
        self.plays_tree = true;
        self
    }

    /// The same bot going by `label` (a level's name) instead of its settings.
    pub fn named(mut self, label: &'static str) -> PimcBot {
        self.label = Some(label);
        self
    }

    /// The same bot thinking for `time` per decision (its clock: [`crate::thinking`])
    /// instead of for a number of deals: it samples until the time is spent, or until
    /// the best action leads every other by three standard errors over at least 32
    /// deals, and at most [`PimcBot::MAX_TIMED_DEALS`]. Time a decision leaves unused is
    /// carried to the next calls ([`PimcBot::allowance`]), so that `time` bounds what a
    /// decision takes on average, not each call. Decisions that the bot makes by
    /// the rules of thumb (a budget of 0 deals) stay so. Such a decision depends on how
    /// fast the machine is, so it is not reproducible from its seed alone.
    pub fn thinking_for(mut self, time: Duration) -> PimcBot {
        let calls = if self.call_samples == 0 {
            0
        } else {
            PimcBot::MAX_TIMED_DEALS
        };
        self.thinking = Some(time);
        self.with_budget(PimcBot::MAX_TIMED_DEALS, calls)
    }

    /// The same bot reading its thinking time from `clock` instead of the thread's CPU
    /// time ([`crate::thinking::SteppingClock`] makes it the same on every machine).
    pub fn with_clock(mut self, clock: Arc<dyn TimeSource>) -> PimcBot {
        self.clock = clock;
        self
    }

    /// How many deals the bot sampled for its last decision (0 before any, and for a
    /// decision made without sampling).
    pub fn deals_last_decision(&self) -> u32 {
        self.last_deals
    }

    /// The time the next decision may think for (`None` without a thinking time): a
    /// card play its thinking time, any other decision (a call, trump, a give or
    /// discard) also what earlier decisions left unused. Extra time bought nothing in
    /// the play (Kaibosh: `decision_diff`, see the README), so the time plays leave goes
    /// to the calls, which decide most points.
    pub fn allowance(&self, is_play: bool) -> Option<Duration> {
        self.thinking
            .map(|time| if is_play { time } else { time + self.banked })
    }

    /// Settles a decision that thought for `used`: the bank gains the thinking time and
    /// loses `used`, and holds at most [`PimcBot::BANK_LIMIT`] times the thinking time.
    /// A clear decision that stops early so leaves its time to a close call.
    fn settle(&mut self, used: Duration) {
        if let Some(time) = self.thinking {
            let limit = time * PimcBot::BANK_LIMIT;
            self.banked = (time + self.banked).saturating_sub(used).min(limit);
        }
    }

    /// How far the play search looks in game `G`.
    fn play_depth<G: BotGame>(&self, rules: &G::Rules) -> Option<u32> {
        G::search_depth(rules, self.lookahead).map(|d| d + self.extra_depth)
    }
}

impl Bot for PimcBot {
    fn name(&self) -> String {
        if let Some(time) = self.thinking {
            let name = self.label.unwrap_or("pimc");
            return format!("{name}@{}", format_thinking_time(time));
        }
        if let Some(label) = self.label {
            return label.to_string();
        }
        if self.plays_tree {
            return format!("tree:{}", self.play_samples);
        }
        let deeper = match self.extra_depth {
            0 => String::new(),
            n => format!(":+{n}"),
        };
        format!("pimc:{}:{}{deeper}", self.play_samples, self.call_samples)
    }

    fn choose(&mut self, decision: &Decision<'_>, rng: &mut GameRng) -> Action {
        self.choose_within(decision, rng, &|| false)
    }

    fn choose_within(
        &mut self,
        decision: &Decision<'_>,
        rng: &mut GameRng,
        spent: &dyn Fn() -> bool,
    ) -> Action {
        self.last_deals = 0;
        if decision.legal.len() == 1 {
            return decision.legal[0];
        }
        with_game!(decision.rules, |r, G| pimc_choose::<G>(
            self,
            r,
            decision.observation,
            decision.legal,
            rng,
            spent
        ))
    }
}

/// The chance of winning the game once the hand is scored: `needs` are the points each
/// team then still needs to win ([`BotGame::points_to_win`]). A team that needs none
/// wins (the one past its mark by more if both are); otherwise a logistic in the
/// difference of the needs, sharper as the end nears. With no target (`needs` `None`),
/// the hand's point difference.
pub fn utility(needs: Option<[i32; 2]>, points: [i32; 2], team: usize) -> f64 {
    let Some(needs) = needs else {
        return f64::from(points[team] - points[1 - team]);
    };
    let (need_me, need_them) = (needs[team], needs[1 - team]);
    if need_me <= 0 || need_them <= 0 {
        return match need_them.cmp(&need_me) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        };
    }
    let (need_me, need_them) = (f64::from(need_me), f64::from(need_them));
    let scale = 3.0 + (need_me + need_them).sqrt();
    1.0 / (1.0 + (-(need_them - need_me) / scale).exp())
}

fn pimc_choose<G: BotGame>(
    bot: &mut PimcBot,
    rules: &G::Rules,
    observation: &Observation,
    legal: &[Action],
    rng: &mut GameRng,
    spent: &dyn Fn() -> bool,
) -> Action {
    let is_play = matches!(legal[0], Action::Play(_));
    if !is_play && bot.call_samples == 0 {
        return rules_choose::<G>(rules, observation, legal, rng);
    }
    if is_play && bot.plays_tree {
        let source = Arc::clone(&bot.clock);
        let clock = bot
            .allowance(true)
            .map(|time| (Clock::start(source.as_ref()), time));
        let used = Cell::new(Duration::ZERO);
        let stop = || cut_short(spent, &used) || timed_out(clock.as_ref(), &used);
        let search = TreeSearch {
            iterations: bot.play_samples,
            reads_auction: bot.reads_auction,
            reads_play: bot.reads_play,
        };
        let depth = bot.play_depth::<G>(rules);
        let scores = observation.start.scores;
        let solver = &mut bot.solver;
        let value = Valuation {
            solve: &mut |game: &G, position: &Position| solve(game, position, depth, solver),
            utility: &|game: &G, points| utility(game.points_to_win(scores, points), points, 0),
        };
        let chosen = tree_choose::<G>(rules, observation, legal, search, value, &stop, rng);
        bot.settle(used.get());
        if let Some((action, iterations)) = chosen {
            bot.last_deals = iterations;
            return action;
        }
    }
    let mut candidates: Vec<Action> = if is_play {
        legal.to_vec()
    } else {
        G::call_candidates(rules, observation, legal)
    };
    // The call the simulation must beat by a margin, if any.
    let baseline = if is_play {
        None
    } else {
        G::call_baseline(rules, observation, legal)
    };
    let baseline = baseline.map(|(call, margin)| {
        let at = candidates
            .iter()
            .position(|&a| a == call)
            .unwrap_or_else(|| {
                candidates.push(call);
                candidates.len() - 1
            });
        (at, margin)
    });
    let Some(scores) = bot.score::<G>(
        rules,
        observation,
        &candidates,
        baseline.is_some(),
        rng,
        spent,
    ) else {
        return rules_choose::<G>(rules, observation, legal, rng);
    };
    let (totals, legal) = (&scores.utility, &candidates[..]);
    let mut best = 0;
    for i in 1..legal.len() {
        let better = totals[i] > totals[best] + 1e-9;
        let tie_to_preferred =
            (totals[i] - totals[best]).abs() <= 1e-9 && Some(legal[i]) == scores.preferred;
        if better || tie_to_preferred {
            best = i;
        }
    }
    match baseline {
        Some((pick, margin))
            if !clearly_better(&scores.per_deal[best], &scores.per_deal[pick], margin) =>
        {
            legal[pick]
        }
        _ => legal[best],
    }
}

/// What the sampled deals of one decision say of each of its candidate actions.
pub(crate) struct Scores {
    /// Each candidate's utility, summed over the deals.
    pub utility: Vec<f64>,
    /// Each candidate's net points on the hand (the deciding seat's team's less the
    /// other team's), summed over the deals.
    pub points: Vec<f64>,
    /// Each candidate's utility on each deal, when asked for (else empty).
    pub per_deal: Vec<Vec<f64>>,
    /// In the play, the rules-of-thumb card, which breaks ties.
    pub preferred: Option<Action>,
    /// The deals scored.
    pub deals: u32,
}

impl PimcBot {
    /// Scores `candidates` (actions of the decision `observation` poses) on the deals the
    /// bot samples for it: a card by solving the play, any other action by simulating
    /// the hand on. With `per_deal`, every deal's utilities are kept. `None` if no deal
    /// is consistent with the observation.
    pub(crate) fn score<G: BotGame>(
        &mut self,
        rules: &G::Rules,
        observation: &Observation,
        candidates: &[Action],
        per_deal: bool,
        rng: &mut GameRng,
        spent: &dyn Fn() -> bool,
    ) -> Option<Scores> {
        let deals = Deals::<G>::new(rules, observation).ok()?;
        let is_play = matches!(candidates.first(), Some(Action::Play(_)));
        let samples = if is_play {
            self.play_samples
        } else {
            self.call_samples
        };
        let team = observation.seat.team().index();
        let scores = observation.start.scores;
        let depth = self.play_depth::<G>(rules);
        // With a thinking time, every deal's values are kept to see when to stop.
        let source = Arc::clone(&self.clock);
        let clock = self
            .allowance(is_play)
            .map(|time| (Clock::start(source.as_ref()), time));
        let used = Cell::new(Duration::ZERO);
        // A close call goes on past the budget (never with a thinking time, which
        // decides when to stop by itself).
        let extended = if is_play || clock.is_some() {
            samples
        } else {
            samples.saturating_mul(self.close_call_factor)
        };
        let per_deal = per_deal || clock.is_some() || extended > samples;
        let mut next_check = PimcBot::MIN_DEALS_TO_STOP;
        let mut out = Scores {
            utility: vec![0.0; candidates.len()],
            points: vec![0.0; candidates.len()],
            per_deal: vec![Vec::new(); if per_deal { candidates.len() } else { 0 }],
            preferred: None,
            deals: 0,
        };
        for sample in 0..extended {
            // Past the budget, the deals sampled so far decide (at least one).
            if sample > 0 && (cut_short(spent, &used) || timed_out(clock.as_ref(), &used)) {
                break;
            }
            if sample >= samples
                && (sample - samples) % PimcBot::CLOSE_CALL_STEP == 0
                && clearly_decided(&out, PimcBot::CLOSE_CALL_MARGIN)
            {
                break;
            }
            if clock.is_some() && out.deals >= next_check {
                if clearly_decided(&out, PimcBot::STOP_MARGIN) {
                    break;
                }
                // Checks grow apart as deals pile up: their cost stays a fraction.
                next_check = out.deals + (out.deals / 8).max(16);
            }
            let drawn = if self.reads_play {
                deals.draw_reading_play(self.reads_auction, 8, rng)
            } else {
                deals.draw(self.reads_auction, 8, rng)
            };
            let Some((game, _)) = drawn else {
                continue;
            };
            out.deals += 1;
            for (i, &action) in candidates.iter().enumerate() {
                let (points, needs) = if is_play {
                    play_points(&game, action, depth, scores, &mut self.solver)
                } else {
                    simulate(&game, action, scores, self, rng)
                };
                let value = utility(needs, points, team);
                out.utility[i] += value;
                out.points[i] += f64::from(points[team] - points[1 - team]);
                if let Some(values) = out.per_deal.get_mut(i) {
                    values.push(value);
                }
            }
            if is_play && out.preferred.is_none() {
                // The rules of thumb break ties: the same card in every sample.
                out.preferred = game.position().map(|(p, layout)| {
                    let makers = game.hand_summary().declarer.map(|s| s.team().index());
                    Action::Play(layout.card(rules_play(&p, makers)))
                });
            }
        }
        self.last_deals = out.deals;
        self.settle(used.get());
        Some(out)
    }
}

/// Whether the caller's time is up (`spent`): the decision then used all it had, and
/// leaves nothing to carry on.
fn cut_short(spent: &dyn Fn() -> bool, used: &Cell<Duration>) -> bool {
    let cut = spent();
    if cut {
        used.set(Duration::MAX);
    }
    cut
}

/// Whether a decision's clock, started with its allowance, has passed it; `used` keeps
/// the time read, which the decision is settled with ([`PimcBot::settle`]). Without a
/// clock, never.
fn timed_out(clock: Option<&(Clock<'_>, Duration)>, used: &Cell<Duration>) -> bool {
    clock.is_some_and(|(clock, allowance)| {
        used.set(clock.elapsed());
        used.get() >= *allowance
    })
}

/// Whether the candidate best on the deals so far leads every other by `margin`
/// standard errors of their paired differences (an action equal to it on every deal
/// leads by nothing and stands no chance of passing it either, so it counts as
/// decided).
fn clearly_decided(scores: &Scores, margin: f64) -> bool {
    let totals = &scores.utility;
    let best = (0..totals.len())
        .max_by(|&a, &b| totals[a].total_cmp(&totals[b]))
        .unwrap_or(0);
    (0..totals.len()).all(|other| {
        other == best || clearly_better(&scores.per_deal[best], &scores.per_deal[other], margin)
    })
}

/// Whether `values` beat `baseline`, deal by deal, by at least `margin` standard errors
/// of their paired differences; with fewer than two deals there is no error to weigh,
/// and `values` stand.
fn clearly_better(values: &[f64], baseline: &[f64], margin: f64) -> bool {
    let n = values.len().min(baseline.len());
    if n < 2 {
        return true;
    }
    let differences: Vec<f64> = values.iter().zip(baseline).map(|(a, b)| a - b).collect();
    let n = n as f64;
    let mean = differences.iter().sum::<f64>() / n;
    let variance = differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    mean >= margin * (variance / n).sqrt()
}

/// What a hand's end means: each team's points on it, and what each then needs to win
/// the game (see [`BotGame::points_to_win`]).
type HandEnd = ([i32; 2], Option<[i32; 2]>);

/// The hand's end in `game` (from `scores` at its start) with `points`.
fn hand_end<G: BotGame>(game: &G, scores: [i32; 2], points: [i32; 2]) -> HandEnd {
    (points, game.points_to_win(scores, points))
}

/// The hand's end when the seat to act in `game` plays `action` and everyone then plays
/// perfectly with every hand open.
fn play_points<G: BotGame>(
    game: &G,
    action: Action,
    depth: Option<u32>,
    scores: [i32; 2],
    solver: &mut Solver,
) -> HandEnd {
    let (Some((mut position, layout)), Action::Play(card)) = (game.position(), action) else {
        return hand_end(game, scores, [0, 0]);
    };
    let held = position.hands[position.to_act as usize] & layout.copies(card);
    position.play(held.trailing_zeros() as u8);
    hand_end(
        game,
        scores,
        game.hand_points(solve(game, &position, depth, solver)),
    )
}

/// The tricks each team takes from `position`, the play of `game`, searched `depth`
/// tricks ahead. Where the points hang only on a contract, on whether it is made: the
/// makers then take their bid, or one trick less.
fn solve<G: BotGame>(
    game: &G,
    position: &Position,
    depth: Option<u32>,
    solver: &mut Solver,
) -> [u8; 2] {
    let total = position.tricks[0] + position.tricks[1] + position.tricks_left() as u8;
    let t0 = match game.contract_tricks() {
        Some((makers, bid)) => {
            let made = solver.makes_to(position, makers, bid, depth);
            let makers_tricks = if made { bid } else { bid - 1 };
            if makers == 0 {
                makers_tricks
            } else {
                total - makers_tricks
            }
        }
        None => solver.solve_to(position, depth),
    };
    [t0, total - t0]
}

/// The hand's end after `action`, the rest of the hand's decisions by the rules of thumb
/// and the play searched as far as `bot` looks.
fn simulate<G: BotGame>(
    game: &G,
    action: Action,
    scores: [i32; 2],
    bot: &mut PimcBot,
    rng: &mut GameRng,
) -> HandEnd {
    let mut game = game.clone();
    game.apply_unchecked(action);
    loop {
        let Turn::Seat(seat) = game.turn() else {
            let points = game.hand_summary().points.unwrap_or([0, 0]);
            return hand_end(&game, scores, points);
        };
        if let Some((position, _)) = game.position() {
            let depth = G::search_depth(game.rules(), bot.lookahead);
            let tricks = solve(&game, &position, depth, &mut bot.solver);
            return hand_end(&game, scores, game.hand_points(tricks));
        }
        let legal = game.legal_action_list();
        let observation = game.observation(seat);
        let next = rules_choose::<G>(game.rules(), &observation, &legal, rng);
        game.apply_unchecked(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calltrump_engine::{stream, Game, Kout, KoutRules, KoutVariant, Seat};
    use rand::Rng;

    #[test]
    fn utility_rises_with_own_points_and_ends_at_the_target() {
        // Target 50 from 30 all: the needs after the hand's points.
        let needs = |points: [i32; 2]| Some([20 - points[0], 20 - points[1]]);
        let worse = utility(needs([2, 0]), [2, 0], 0);
        let better = utility(needs([4, 0]), [4, 0], 0);
        assert!(better > worse && worse > 0.5);
        assert_eq!(utility(Some([0, 2]), [4, 0], 0), 1.0);
        assert_eq!(utility(Some([7, -1]), [-3, 3], 0), 0.0);
        // Both past the mark: the one further past wins; level is even.
        assert_eq!(utility(Some([-2, -1]), [5, 4], 0), 1.0);
        assert_eq!(utility(Some([-1, -1]), [4, 4], 1), 0.5);
        // Without a target: the point difference.
        assert_eq!(utility(None, [-4, 3], 0), -7.0);
    }

    /// A Kout Bo hand of `rules` some cards into the play, the auction by the rules of
    /// thumb and the cards at random: `None` if the hand was thrown in.
    fn kout_play(rules: &KoutRules, seed: u64) -> Option<Kout> {
        let mut rng = stream(seed, 3);
        let mut game = Kout::new(rules, Seat((seed % 4) as u8));
        game.deal_random(&mut rng);
        let cards = rng.random_range(0..24);
        let mut played = 0;
        loop {
            let Turn::Seat(seat) = game.turn() else {
                return None;
            };
            let legal = game.legal_action_list();
            if matches!(legal[0], Action::Play(_)) {
                if played == cards {
                    return Some(game);
                }
                game.apply(legal[rng.random_range(0..legal.len())]).ok()?;
                played += 1;
            } else {
                let observation = game.observation(seat);
                let call = rules_choose::<Kout>(rules, &observation, &legal, &mut rng);
                game.apply(call).ok()?;
            }
        }
    }

    #[test]
    fn asking_whether_the_contract_is_made_scores_as_counting_the_tricks() {
        let mut solver = Solver::new();
        let mut checked = [0; 2];
        for variant in [KoutVariant::Six, KoutVariant::Four] {
            let rules = KoutRules {
                variant,
                ..KoutRules::default()
            };
            for seed in 0..60 {
                let Some(game) = kout_play(&rules, seed) else {
                    continue;
                };
                let (position, _) = game.position().expect("a card to play");
                let (makers, _) = game.contract_tricks().expect("a contract");
                for depth in [Some(1), Some(2)] {
                    let total =
                        position.tricks[0] + position.tricks[1] + position.tricks_left() as u8;
                    let t0 = solver.solve_to(&position, depth);
                    assert_eq!(
                        game.hand_points(solve(&game, &position, depth, &mut solver)),
                        game.hand_points([t0, total - t0]),
                        "{variant:?} seed {seed} depth {depth:?}"
                    );
                }
                checked[makers] += 1;
            }
        }
        // Makers on either team.
        assert!(checked.iter().all(|&n| n >= 10), "{checked:?}");
    }

    #[test]
    fn a_call_overrules_the_rules_call_only_by_a_clear_margin() {
        let baseline = [0.5; 6];
        // Better on every deal by about the same: clear.
        let steady = [0.6, 0.61, 0.59, 0.6, 0.62, 0.58];
        assert!(clearly_better(&steady, &baseline, 1.0));
        // Better on average, but by one lucky deal among losses: not clear.
        let lucky = [0.9, 0.45, 0.48, 0.47, 0.49, 0.46];
        assert!(lucky.iter().sum::<f64>() > baseline.iter().sum::<f64>());
        assert!(!clearly_better(&lucky, &baseline, 1.0));
        assert!(clearly_better(&lucky, &baseline, 0.0));
        // Worse is never clearly better; one deal has no error to weigh.
        assert!(!clearly_better(&[0.4; 6], &baseline, 0.0));
        assert!(clearly_better(&[0.4], &[0.5], 1.0));
    }

    #[test]
    fn time_left_unused_is_carried_to_the_calls_up_to_the_bank_limit() {
        let ms = Duration::from_millis;
        let mut bot = PimcBot::new(10, 5).thinking_for(ms(10));
        assert_eq!(bot.allowance(false), Some(ms(10)));
        // A clear decision that took 4 of its 10 ms leaves 6 to the next call; a card
        // play still has its own 10.
        bot.settle(ms(4));
        assert_eq!(bot.allowance(false), Some(ms(16)));
        assert_eq!(bot.allowance(true), Some(ms(10)));
        // A call that takes all it had empties the bank.
        bot.settle(ms(16));
        assert_eq!(bot.allowance(false), Some(ms(10)));
        // Many quick decisions bank at most BANK_LIMIT times the time.
        for _ in 0..20 {
            bot.settle(ms(1));
        }
        assert_eq!(
            bot.allowance(false),
            Some(ms(10) * (PimcBot::BANK_LIMIT + 1))
        );
        assert_eq!(bot.allowance(true), Some(ms(10)));
        // A decision cut short by its caller used all it had.
        bot.settle(Duration::MAX);
        assert_eq!(bot.allowance(false), Some(ms(10)));
        // A bot without a thinking time has no allowance and banks nothing.
        let mut counted = PimcBot::new(10, 5);
        counted.settle(ms(1));
        assert_eq!(
            (counted.allowance(false), counted.banked),
            (None, Duration::ZERO)
        );
    }

    #[test]
    fn a_point_weighs_more_near_the_end() {
        let gain = |need: i32| {
            utility(Some([need - 2, need]), [2, 0], 0) - utility(Some([need - 1, need]), [1, 0], 0)
        };
        assert!(gain(10) > gain(50));
    }
}
