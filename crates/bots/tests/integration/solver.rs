//! The solver agrees with plain minimax, in every game.

use crate::common;

use calltrump_bots::{brute_force, BotGame, Solver};
use common::each_game;

fn check<G: BotGame>(name: &str, rules: &G::Rules, seeds: u64, tricks: u32) -> usize {
    let mut solver = Solver::new();
    for seed in 0..seeds {
        let game: G = common::random_endgame(rules, seed, tricks - (seed % 2) as u32);
        let (position, _) = game.position().expect("a play position");
        let exact = brute_force(&position);
        assert_eq!(
            solver.solve(&position),
            exact,
            "{name} seed {seed}: {position:?}"
        );
        // A fresh solver too, so the table cannot hide a search bug.
        assert_eq!(Solver::new().solve(&position), exact, "{name} seed {seed}");
        for t in 1..=9 {
            assert_eq!(
                solver.reaches(&position, t),
                exact >= t,
                "{name} seed {seed} t {t}"
            );
        }
    }
    seeds as usize
}

#[test]
fn solver_agrees_with_brute_force_on_random_endgames() {
    let mut checked = 0;
    for (name, rules) in common::all_rules() {
        let (seeds, tricks) = match &rules {
            calltrump_engine::GameRules::Kout(_) => (150, 3),
            _ => (500, 4),
        };
        checked += each_game!(&rules, |r, G| check::<G>(name, r, seeds, tricks));
    }
    assert!(checked >= 1000);
}

/// Mean error, in tricks, of a search one trick deep (the rest estimated) against the
/// exact value.
fn horizon_error<G: BotGame>(rules: &G::Rules, seeds: u64, tricks: u32) -> f64 {
    let mut solver = Solver::new();
    let mut error = 0;
    for seed in 0..seeds {
        let game: G = common::random_endgame(rules, seed, tricks);
        let (position, _) = game.position().expect("a play position");
        error += solver
            .solve(&position)
            .abs_diff(solver.solve_to(&position, Some(1)));
    }
    f64::from(error) / seeds as f64
}

#[test]
fn the_estimate_past_the_horizon_is_close_to_exact() {
    for (name, rules) in common::all_rules() {
        let tricks = match &rules {
            calltrump_engine::GameRules::Kout(_) => 4,
            _ => 5,
        };
        let error = each_game!(&rules, |r, G| horizon_error::<G>(r, 300, tricks));
        // A static count of high cards and trumps erred by 0.45 to 0.75 tricks here.
        assert!(error < 0.45, "{name}: {error:.3} tricks off on average");
    }
}

/// Checks that one null-window probe to a depth answers what the full count to that
/// depth does, for every threshold, on `seeds` endgames of `tricks` tricks.
fn probe_agrees_with_count<G: BotGame>(name: &str, rules: &G::Rules, seeds: u64, tricks: u32) {
    let mut solver = Solver::new();
    for seed in 0..seeds {
        let game: G = common::random_endgame(rules, seed, tricks);
        let (position, _) = game.position().expect("a play position");
        for depth in [Some(1), Some(2), None] {
            let count = solver.solve_to(&position, depth);
            for t in 0..=13 {
                assert_eq!(
                    solver.reaches_to(&position, t, depth),
                    count >= t,
                    "{name} seed {seed} depth {depth:?} t {t}"
                );
            }
        }
    }
}

#[test]
fn a_probe_to_a_depth_agrees_with_the_count_to_that_depth() {
    for (name, rules) in common::all_rules() {
        each_game!(&rules, |r, G| probe_agrees_with_count::<G>(name, r, 60, 5));
    }
}
