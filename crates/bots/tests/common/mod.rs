//! Random Kaibosh positions for the bots' tests.

#![allow(dead_code)]

use calltrump_engine::{
    stream, Action, ActionList, AllPass, Game, GameRng, GameRules, Kaibosh, KaiboshRules, Seat,
    Turn,
};
use rand::Rng;

/// Every Kaibosh option under test: the default and dealer-must-bid.
pub fn kaibosh_rules() -> Vec<KaiboshRules> {
    vec![
        KaiboshRules::default(),
        KaiboshRules {
            all_pass: AllPass::DealerMustBid,
            target: None,
            deals: Some(8),
        },
    ]
}

/// A random legal action that bids often enough for hands to be played, and sometimes
/// kaiboshes (so three-handed play is covered).
pub fn random_action(legal: &ActionList, rng: &mut GameRng) -> Action {
    if legal.contains(&Action::Pass) && rng.random_bool(0.5) {
        return Action::Pass;
    }
    if legal.contains(&Action::Kaibosh) && rng.random_bool(0.1) {
        return Action::Kaibosh;
    }
    let calls: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Bid(_)))
        .collect();
    if !calls.is_empty() && rng.random_bool(0.8) {
        return calls[0];
    }
    legal[rng.random_range(0..legal.len())]
}

/// A random Kaibosh game advanced by `steps` random actions from a random deal (or fewer,
/// if the hand ends first); the game is always at a seat's decision.
pub fn random_decision(rules: &KaiboshRules, seed: u64) -> Kaibosh {
    let mut rng = stream(seed, 7);
    loop {
        let dealer = Seat(rng.random_range(0..4));
        let mut game = Kaibosh::new(rules, dealer);
        game.deal_random(&mut rng);
        let steps = rng.random_range(0..30);
        let mut legal = ActionList::new();
        let mut last = game.clone();
        for _ in 0..steps {
            if !matches!(game.turn(), Turn::Seat(_)) {
                break;
            }
            last = game.clone();
            legal.clear();
            game.legal_actions(&mut legal);
            let a = random_action(&legal, &mut rng);
            game.apply(a).unwrap();
        }
        if matches!(game.turn(), Turn::Seat(_)) {
            return game;
        }
        if matches!(last.turn(), Turn::Seat(_)) {
            return last;
        }
    }
}

/// A random Kaibosh game in its card play with at most `tricks_left` tricks to go.
pub fn random_endgame(rules: &KaiboshRules, seed: u64, tricks_left: u32) -> Kaibosh {
    let mut rng = stream(seed, 11);
    loop {
        let mut game = Kaibosh::new(rules, Seat(rng.random_range(0..4)));
        game.deal_random(&mut rng);
        let mut legal = ActionList::new();
        let mut found = None;
        while let Turn::Seat(seat) = game.turn() {
            if game.trump().is_some() {
                let left = 6 - game.hand_summary().tricks.iter().sum::<u8>() as u32;
                let remaining = game.hand(seat).len() as u32;
                if left <= tricks_left && remaining <= tricks_left && rng.random_bool(0.5) {
                    found = Some(game.clone());
                    break;
                }
            }
            legal.clear();
            game.legal_actions(&mut legal);
            let a = random_action(&legal, &mut rng);
            game.apply(a).unwrap();
        }
        if let Some(g) = found {
            return g;
        }
    }
}

/// The rules wrapped for a decision.
pub fn any_rules(rules: &KaiboshRules) -> GameRules {
    GameRules::Kaibosh(*rules)
}

/// A random Kaibosh game advanced at random to the first decision that `wanted` accepts
/// (trying fresh deals until one gets there).
pub fn decision_where(
    rules: &KaiboshRules,
    seed: u64,
    wanted: impl Fn(&Kaibosh) -> bool,
) -> Kaibosh {
    let mut rng = stream(seed, 13);
    let mut legal = ActionList::new();
    loop {
        let mut game = Kaibosh::new(rules, Seat(rng.random_range(0..4)));
        game.deal_random(&mut rng);
        while let Turn::Seat(_) = game.turn() {
            if wanted(&game) {
                return game;
            }
            legal.clear();
            game.legal_actions(&mut legal);
            let a = random_action(&legal, &mut rng);
            game.apply(a).unwrap();
        }
    }
}
