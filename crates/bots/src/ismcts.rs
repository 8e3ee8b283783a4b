//! The `ismcts` bot: single-observer information-set MCTS with UCT. Every iteration draws
//! a deal consistent with the revealed voids (the auction is ignored: a baseline),
//! descends the one tree over the moves legal in that deal, adds a node, plays at random
//! to the end of the hand, and scores the hand's points for each team.
//!
//! Card play runs on the compact [`Position`]; the other decisions on the game itself.

use std::sync::Arc;
use std::time::Duration;

use arrayvec::ArrayVec;
use calltrump_engine::{Action, ActionList, GameRng, Observation, Turn};
use rand::Rng;

use crate::model::{BotGame, Deals};
use crate::position::{Layout, Position, MAX_SEATS};
use crate::sampler::DealSampler;
use crate::thinking::{format_thinking_time, Clock, ThreadTime, TimeSource};
use crate::with_game;
use crate::{Bot, Decision};

/// Exploration constant of UCT, for rewards in 0..=1: 0.35 beat 0.7 (the constant
/// before), 0.2 and 1.4 at equal iterations (the README's "The ISMCTS baseline").
const EXPLORATION: f64 = 0.35;

/// How the move is chosen at the root once the iterations are spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootChoice {
    /// The most visited move (the public reference design's choice).
    Visits,
    /// The move with the best mean reward.
    Mean,
    /// Robust-max: the most visited move if it also has the best mean reward, else the
    /// move whose mean less a standard bound (`1 / sqrt(visits)`) is highest.
    Robust,
}

/// The information-set MCTS bot with a budget of iterations, or a thinking time, per
/// decision.
#[derive(Clone, Debug)]
pub struct IsmctsBot {
    iterations: u32,
    reward: Reward,
    choice: RootChoice,
    /// UCT's exploration constant.
    exploration: f64,
    /// With a thinking time, iterations run until it is spent, up to
    /// [`IsmctsBot::MAX_TIMED_ITERATIONS`].
    thinking: Option<Duration>,
    /// What the thinking time is read from.
    clock: Arc<dyn TimeSource>,
}

impl IsmctsBot {
    /// Default iterations per decision.
    pub const DEFAULT_ITERATIONS: u32 = 10_000;

    /// The most iterations a bot with a thinking time runs for one decision, however
    /// long it may think (bounding the tree's memory: a node an iteration).
    pub const MAX_TIMED_ITERATIONS: u32 = 1 << 22;

    /// Iterations between two looks at the clock.
    const CLOCK_EVERY: u32 = 64;

    /// A bot that runs `iterations` iterations per decision (at least one).
    pub fn new(iterations: u32) -> IsmctsBot {
        IsmctsBot {
            iterations: iterations.max(1),
            reward: Reward::Difference,
            choice: RootChoice::Visits,
            exploration: EXPLORATION,
            thinking: None,
            clock: Arc::new(ThreadTime),
        }
    }

    /// The same bot scoring a play-out by `reward`.
    pub fn rewarding(mut self, reward: Reward) -> IsmctsBot {
        self.reward = reward;
        self
    }

    /// The same bot choosing its move at the root by `choice`.
    pub fn choosing(mut self, choice: RootChoice) -> IsmctsBot {
        self.choice = choice;
        self
    }

    /// The same bot exploring with UCT constant `c` (rewards are in 0..=1).
    pub fn exploring(mut self, c: f64) -> IsmctsBot {
        self.exploration = c;
        self
    }

    /// A bot that runs iterations for `time` per decision (the clock of
    /// [`crate::thinking`]), at most [`IsmctsBot::MAX_TIMED_ITERATIONS`]. Such a decision
    /// depends on how fast the machine is, so it is not reproducible from its seed alone.
    pub fn thinking_for(time: Duration) -> IsmctsBot {
        IsmctsBot {
            iterations: IsmctsBot::MAX_TIMED_ITERATIONS,
            reward: Reward::Difference,
            choice: RootChoice::Visits,
            exploration: EXPLORATION,
            thinking: Some(time),
            clock: Arc::new(ThreadTime),
        }
    }

    /// The same bot reading its thinking time from `clock` instead of the thread's CPU
    /// time ([`crate::thinking::SteppingClock`] makes it the same on every machine).
    pub fn with_clock(mut self, clock: Arc<dyn TimeSource>) -> IsmctsBot {
        self.clock = clock;
        self
    }
}

impl Bot for IsmctsBot {
    fn name(&self) -> String {
        let reward = match self.reward {
            Reward::Difference => "",
            Reward::Own => ":own",
        };
        let choice = match self.choice {
            RootChoice::Visits => "",
            RootChoice::Mean => ":mean",
            RootChoice::Robust => ":robust",
        };
        let exploration = if self.exploration == EXPLORATION {
            String::new()
        } else {
            format!(":c{}", self.exploration)
        };
        match self.thinking {
            Some(time) => format!("ismcts@{}", format_thinking_time(time)),
            None => format!("ismcts:{}{reward}{choice}{exploration}", self.iterations),
        }
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
        if decision.legal.len() == 1 {
            return decision.legal[0];
        }
        let clock = self
            .thinking
            .map(|time| (Clock::start(self.clock.as_ref()), time));
        let stop = || spent() || clock.as_ref().is_some_and(|(c, time)| c.elapsed() >= *time);
        let search = Search {
            iterations: self.iterations,
            reward: self.reward,
            choice: self.choice,
            exploration: self.exploration,
        };
        with_game!(decision.rules, |r, G| ismcts_choose::<G>(
            r,
            decision.observation,
            decision.legal,
            search,
            &stop,
            rng
        ))
    }
}

/// The moves legal in one deal, in a fixed order.
pub(crate) trait MoveSet<M>: Clone {
    /// Whether `m` is in the set.
    fn contains(&self, m: M) -> bool;
    /// Takes `m` out, keeping the others in order.
    fn remove(&mut self, m: M);
    /// How many moves the set holds.
    fn count(&self) -> usize;
    /// The `n`th move in order.
    fn nth(&self, n: usize) -> M;
}

/// Card moves as a bitset of compact indices, lowest first: set operations, no scans.
impl MoveSet<u8> for u64 {
    #[inline]
    fn contains(&self, m: u8) -> bool {
        *self & 1 << m != 0
    }

    #[inline]
    fn remove(&mut self, m: u8) {
        *self &= !(1 << m);
    }

    #[inline]
    fn count(&self) -> usize {
        self.count_ones() as usize
    }

    #[inline]
    fn nth(&self, n: usize) -> u8 {
        let mut bits = *self;
        for _ in 0..n {
            bits &= bits - 1;
        }
        bits.trailing_zeros() as u8
    }
}

impl MoveSet<Action> for ActionList {
    fn contains(&self, m: Action) -> bool {
        self.as_slice().contains(&m)
    }

    fn remove(&mut self, m: Action) {
        self.retain(|a| *a != m);
    }

    fn count(&self) -> usize {
        self.len()
    }

    fn nth(&self, n: usize) -> Action {
        self[n]
    }
}

/// A deal drawn for one iteration: what the tree search plays on.
pub(crate) trait Determinized: Clone {
    type Move: Copy + Eq;
    type Moves: MoveSet<Self::Move>;

    /// The seat to move, or `None` once the hand is over.
    fn to_move(&self) -> Option<u8>;
    fn moves(&self) -> Self::Moves;
    fn random_move(&self, rng: &mut GameRng) -> Self::Move;
    fn apply(&mut self, m: Self::Move);
    /// Each team's reward in 0..=1 at the end of the hand.
    fn rewards(&self) -> [f64; 2];
}

/// The card play on a compact position.
#[derive(Clone, Copy)]
pub(crate) struct PlayState<'a> {
    pub position: Position,
    /// Team rewards by the number of tricks team 0 ends with.
    pub rewards: &'a [[f64; 2]],
}

impl Determinized for PlayState<'_> {
    type Move = u8;
    type Moves = u64;

    #[inline]
    fn to_move(&self) -> Option<u8> {
        (!self.position.is_over()).then_some(self.position.to_act)
    }

    #[inline]
    fn moves(&self) -> u64 {
        self.position.playable()
    }

    #[inline]
    fn random_move(&self, rng: &mut GameRng) -> u8 {
        let mut cards = self.position.playable();
        for _ in 0..rng.random_range(0..cards.count_ones()) {
            cards &= cards - 1;
        }
        cards.trailing_zeros() as u8
    }

    #[inline]
    fn apply(&mut self, m: u8) {
        self.position.play(m);
    }

    fn rewards(&self) -> [f64; 2] {
        self.rewards[self.position.tricks[0] as usize]
    }
}

/// Any decision on the game itself, to the end of the hand.
#[derive(Clone)]
struct GameState<G: BotGame> {
    game: G,
    reward: Reward,
}

/// How a play-out's end is scored for each team, in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// The difference of the teams' points on the hand, from 0 (the other team a whole
    /// swing ahead) to 1 (the team a swing ahead): one team's loss is the other's gain.
    Difference,
    /// The team's own points on the hand over the swing, a score of 0 or less counting
    /// 0 (the public reference design's reward): a set costs no more than a pass.
    Own,
}

fn team_rewards(points: [i32; 2], swing: f64, reward: Reward) -> [f64; 2] {
    match reward {
        Reward::Difference => {
            let diff = f64::from(points[0] - points[1]) / swing;
            let r0 = (0.5 + diff / 2.0).clamp(0.0, 1.0);
            [r0, 1.0 - r0]
        }
        Reward::Own => points.map(|p| (f64::from(p) / swing).clamp(0.0, 1.0)),
    }
}

impl<G: BotGame> Determinized for GameState<G> {
    type Move = Action;
    type Moves = ActionList;

    fn to_move(&self) -> Option<u8> {
        match self.game.turn() {
            Turn::Seat(seat) => Some(seat.0),
            _ => None,
        }
    }

    fn moves(&self) -> ActionList {
        self.game.legal_action_list()
    }

    fn random_move(&self, rng: &mut GameRng) -> Action {
        let list = self.game.legal_action_list();
        list[rng.random_range(0..list.len())]
    }

    fn apply(&mut self, m: Action) {
        self.game.apply_unchecked(m);
    }

    fn rewards(&self) -> [f64; 2] {
        let points = self.game.hand_summary().points.unwrap_or([0, 0]);
        team_rewards(points, G::SWING, self.reward)
    }
}

struct Node<M> {
    action: M,
    /// The seat that made the move into this node.
    player: u8,
    visits: u32,
    available: u32,
    reward: f64,
    first_child: u32,
    next_sibling: u32,
}

const NONE: u32 = u32::MAX;

/// The search tree in an arena.
pub(crate) struct Tree<M> {
    nodes: Vec<Node<M>>,
    /// `ln n` at index `n`, grown as `available` counts grow: a lookup costs less than
    /// the logarithm and gives the same value.
    ln: Vec<f64>,
}

impl<M: Copy + Eq> Tree<M> {
    /// A tree with room for `iterations` iterations: each adds at most one node, so the
    /// arena does not move while it grows (up to a million, not to reserve too much).
    pub(crate) fn new(root_move: M, iterations: u32) -> Tree<M> {
        let mut nodes = Vec::with_capacity(iterations.min(1 << 20) as usize + 1);
        nodes.push(Node {
            action: root_move,
            player: 0,
            visits: 0,
            available: 0,
            reward: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        });
        Tree {
            nodes,
            ln: Vec::new(),
        }
    }

    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut next = self.nodes[node as usize].first_child;
        std::iter::from_fn(move || {
            (next != NONE).then(|| {
                let c = next;
                next = self.nodes[c as usize].next_sibling;
                c
            })
        })
    }

    fn add_child(&mut self, parent: u32, action: M, player: u8) -> u32 {
        let id = self.nodes.len() as u32;
        let sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action,
            player,
            visits: 0,
            available: 1,
            reward: 0.0,
            first_child: NONE,
            next_sibling: sibling,
        });
        self.nodes[parent as usize].first_child = id;
        id
    }

    #[inline]
    fn ln(&mut self, n: u32) -> f64 {
        while self.ln.len() <= n as usize {
            self.ln.push(f64::from(self.ln.len() as u32).ln());
        }
        self.ln[n as usize]
    }

    /// One iteration from the determinized `state`, exploring by `exploration`; the
    /// new node's value is `finish`'s rewards for the state it reaches (a random
    /// play-out: [`play_out`]).
    pub(crate) fn iterate<S: Determinized<Move = M>>(
        &mut self,
        mut state: S,
        rng: &mut GameRng,
        path: &mut Vec<u32>,
        exploration: f64,
        finish: &mut impl FnMut(S, &mut GameRng) -> [f64; 2],
    ) {
        path.clear();
        let mut node = 0u32;
        // The children whose move this deal allows, newest first. Children met in other
        // deals pile up (a discard from cards this deal lacks), so a node may have more
        // children than any one deal has moves, but no two share a move.
        let mut candidates = ArrayVec::<u32, 64>::new();
        while let Some(player) = state.to_move() {
            let moves = state.moves();
            let mut untried = moves.clone();
            candidates.clear();
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let n = &mut self.nodes[c as usize];
                if moves.contains(n.action) {
                    n.available += 1;
                    untried.remove(n.action);
                    candidates.push(c);
                }
                c = n.next_sibling;
            }
            if untried.count() > 0 {
                let m = untried.nth(rng.random_range(0..untried.count()));
                node = self.add_child(node, m, player);
                path.push(node);
                state.apply(m);
                break;
            }
            let mut best = NONE;
            let mut best_score = f64::MIN;
            for &child in &candidates {
                let (reward, visits, available) = {
                    let n = &self.nodes[child as usize];
                    (n.reward, f64::from(n.visits.max(1)), n.available)
                };
                let score = reward / visits + exploration * (self.ln(available) / visits).sqrt();
                if score > best_score {
                    best_score = score;
                    best = child;
                }
            }
            node = best;
            path.push(node);
            state.apply(self.nodes[node as usize].action);
        }
        let rewards = finish(state, rng);
        self.nodes[0].visits += 1;
        for &id in path.iter() {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += rewards[Position::team(n.player)];
        }
    }

    /// The move at the root chosen by `choice` (of the moves `allowed`).
    pub(crate) fn best_root_move(
        &self,
        choice: RootChoice,
        allowed: impl Fn(M) -> bool,
    ) -> Option<M> {
        let children: Vec<&Node<M>> = self
            .children(0)
            .map(|c| &self.nodes[c as usize])
            .filter(|n| n.visits > 0 && allowed(n.action))
            .collect();
        let mean = |n: &Node<M>| n.reward / f64::from(n.visits);
        let most_visited = children.iter().max_by_key(|n| n.visits);
        let best_mean = children.iter().max_by(|a, b| mean(a).total_cmp(&mean(b)));
        let chosen = match choice {
            RootChoice::Visits => most_visited,
            RootChoice::Mean => best_mean,
            RootChoice::Robust => match (most_visited, best_mean) {
                (Some(v), Some(m)) if mean(v) >= mean(m) => Some(v),
                _ => children.iter().max_by(|a, b| {
                    let bound = |n: &Node<M>| mean(n) - 1.0 / f64::from(n.visits).sqrt();
                    bound(a).total_cmp(&bound(b))
                }),
            },
        };
        chosen.map(|n| n.action)
    }
}

/// A random play-out of `state` to the end of the hand, and its rewards.
pub(crate) fn play_out<S: Determinized>(mut state: S, rng: &mut GameRng) -> [f64; 2] {
    while state.to_move().is_some() {
        let m = state.random_move(rng);
        state.apply(m);
    }
    state.rewards()
}

/// Reward table of the card play: each team's reward by team 0's final tricks.
fn play_rewards<G: BotGame>(game: &G, position: &Position, reward: Reward) -> Vec<[f64; 2]> {
    let total = position.tricks[0] + position.tricks[1] + position.tricks_left() as u8;
    (0..=total)
        .map(|t0| team_rewards(game.hand_points([t0, total - t0]), G::SWING, reward))
        .collect()
}

/// One search's settings.
#[derive(Clone, Copy)]
struct Search {
    /// The most iterations.
    iterations: u32,
    /// How a play-out is scored.
    reward: Reward,
    /// How the root's move is chosen.
    choice: RootChoice,
    /// UCT's exploration constant.
    exploration: f64,
}

/// Runs ISMCTS for the decision of `observation`, at most `search.iterations` iterations
/// and until `stop` says the time is up (asked every [`IsmctsBot::CLOCK_EVERY`]), and
/// returns the chosen action.
fn ismcts_choose<G: BotGame>(
    rules: &G::Rules,
    observation: &Observation,
    legal: &[Action],
    search: Search,
    stop: &dyn Fn() -> bool,
    rng: &mut GameRng,
) -> Action {
    let Search {
        iterations,
        reward,
        choice,
        exploration,
    } = search;
    let time_up = |i: u32| i > 0 && i % IsmctsBot::CLOCK_EVERY == 0 && stop();
    let Ok(deals) = Deals::<G>::new(rules, observation) else {
        return legal[0];
    };
    let Some((template, _)) = deals.draw(false, 32, rng) else {
        return legal[0];
    };
    let mut path = Vec::new();
    if let Some((position, layout)) = template.position() {
        let rewards = play_rewards(&template, &position, reward);
        let mut tree = Tree::new(0u8, iterations);
        let observer = observation.seat.index();
        for i in 0..iterations {
            if time_up(i) {
                break;
            }
            let state =
                determinize_play(deals.sampler(), &position, &layout, observer, &rewards, rng);
            tree.iterate(state, rng, &mut path, exploration, &mut play_out);
        }
        return tree
            .best_root_move(choice, |c| legal.contains(&Action::Play(layout.card(c))))
            .map(|c| Action::Play(layout.card(c)))
            .unwrap_or(legal[0]);
    }
    let mut tree = Tree::new(legal[0], iterations);
    for i in 0..iterations {
        if time_up(i) {
            break;
        }
        let Some((game, _)) = deals.draw(false, 8, rng) else {
            continue;
        };
        tree.iterate(
            GameState { game, reward },
            rng,
            &mut path,
            exploration,
            &mut play_out,
        );
    }
    tree.best_root_move(choice, |a| legal.contains(&a))
        .unwrap_or(legal[0])
}

/// The position with the other seats' unknown cards drawn anew.
fn determinize_play<'a>(
    sampler: &DealSampler,
    position: &Position,
    layout: &Layout,
    observer: usize,
    rewards: &'a [[f64; 2]],
    rng: &mut GameRng,
) -> PlayState<'a> {
    let mut p = *position;
    for s in 0..MAX_SEATS {
        if s != observer {
            p.hands[s] = 0;
        }
    }
    // Copies already placed (double decks): the observer's and those on the table.
    let mut taken = p.live_cards();
    sampler.sample_hidden(rng, |seat, card| {
        if seat < MAX_SEATS && p.in_play & (1 << seat) != 0 {
            let i = layout.place(taken, card);
            taken |= 1 << i;
            p.hands[seat] |= 1u64 << i;
        }
    });
    PlayState {
        position: p,
        rewards,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root with children of (visits, mean reward), moves 0, 1, ...
    fn root_with(children: &[(u32, f64)]) -> Tree<u8> {
        let mut tree = Tree::new(0u8, 8);
        for (m, &(visits, mean)) in children.iter().enumerate() {
            let id = tree.add_child(0, m as u8, 0);
            let node = &mut tree.nodes[id as usize];
            node.visits = visits;
            node.reward = mean * f64::from(visits);
        }
        tree
    }

    #[test]
    fn the_root_move_by_visits_mean_or_robust_max() {
        let any = |_: u8| true;
        // The most visited is not the best on average, and the best is not a fluke.
        let tree = root_with(&[(10, 0.5), (5, 0.8)]);
        assert_eq!(tree.best_root_move(RootChoice::Visits, any), Some(0));
        assert_eq!(tree.best_root_move(RootChoice::Mean, any), Some(1));
        assert_eq!(tree.best_root_move(RootChoice::Robust, any), Some(1));
        // A best mean on one visit does not outweigh a well-tried move.
        let tree = root_with(&[(10, 0.5), (1, 1.0)]);
        assert_eq!(tree.best_root_move(RootChoice::Mean, any), Some(1));
        assert_eq!(tree.best_root_move(RootChoice::Robust, any), Some(0));
        // Most visited and best on average: every choice agrees.
        let tree = root_with(&[(3, 0.2), (10, 0.6)]);
        for choice in [RootChoice::Visits, RootChoice::Mean, RootChoice::Robust] {
            assert_eq!(tree.best_root_move(choice, any), Some(1));
        }
        // A move not allowed is never chosen.
        assert_eq!(tree.best_root_move(RootChoice::Mean, |m| m != 1), Some(0));
    }
}
