//! The solver agrees with plain minimax.

mod common;

use calltrump_bots::{brute_force, BotGame, Solver};

#[test]
fn solver_agrees_with_brute_force_on_random_endgames() {
    let mut solver = Solver::new();
    let mut checked = 0;
    for rules in common::kaibosh_rules() {
        for seed in 0..800 {
            let game = common::random_endgame(&rules, seed, 3 + (seed % 2) as u32);
            let (position, _) = game.position().expect("a play position");
            let exact = brute_force(&position);
            assert_eq!(solver.solve(&position), exact, "seed {seed}: {position:?}");
            // A fresh solver too, so the table cannot hide a search bug.
            assert_eq!(Solver::new().solve(&position), exact, "seed {seed}");
            for t in 0..=6 {
                assert_eq!(
                    solver.reaches(&position, t.max(1)),
                    exact >= t.max(1),
                    "seed {seed} t {t}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 1000);
}
