//! The compact position agrees with the game: the same playable cards, and playing a
//! card in the game gives the position that playing it in the position gives.

mod common;

use calltrump_bots::{BotGame, Position};
use calltrump_engine::{stream, Action, Game, Turn};
use rand::Rng;

#[test]
fn position_follows_the_game_through_random_play() {
    let mut steps = 0;
    for rules in common::kaibosh_rules() {
        for seed in 0..600 {
            let mut game = common::decision_where(&rules, seed, |g| g.trump().is_some());
            let mut rng = stream(seed, 5);
            while let Turn::Seat(_) = game.turn() {
                let (position, layout) = game.position().expect("a play position");
                let legal = game.legal_action_list();
                let playable: Vec<Action> = layout
                    .unpack(position.playable())
                    .iter()
                    .map(Action::Play)
                    .collect();
                let mut sorted = legal.to_vec();
                sorted.sort_by_key(|a| a.to_string());
                let mut mine = playable.clone();
                mine.sort_by_key(|a| a.to_string());
                assert_eq!(mine, sorted, "seed {seed}");
                let action = legal[rng.random_range(0..legal.len())];
                let Action::Play(card) = action else {
                    unreachable!()
                };
                let mut next: Position = position;
                let held = next.hands[next.to_act as usize] & layout.copies(card);
                next.play(held.trailing_zeros() as u8);
                game.apply(action).unwrap();
                match game.position() {
                    Some((after, _)) => {
                        assert_eq!(after.hands, next.hands, "seed {seed}");
                        assert_eq!(after.tricks, next.tricks, "seed {seed}");
                        assert_eq!(after.to_act, next.to_act, "seed {seed}");
                        assert_eq!(after.trick_len, next.trick_len, "seed {seed}");
                        if next.trick_len > 0 {
                            assert_eq!((after.winner, after.best), (next.winner, next.best));
                        }
                    }
                    None => {
                        assert!(next.is_over(), "seed {seed}");
                        assert_eq!(game.hand_summary().tricks, next.tricks, "seed {seed}");
                        assert_eq!(
                            game.hand_summary().points,
                            Some(game.hand_points(next.tricks)),
                            "seed {seed}"
                        );
                    }
                }
                steps += 1;
            }
        }
    }
    assert!(steps > 5000);
}
