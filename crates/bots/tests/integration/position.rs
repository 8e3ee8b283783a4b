//! The compact position agrees with the game in every game: the same playable cards,
//! and playing a card in the game gives the position that playing it in the position
//! gives; the bots' scoring matches the engine's.

use crate::common;

use calltrump_bots::{BotGame, Position};
use calltrump_engine::{stream, Action, Turn};
use common::each_game;
use rand::Rng;

fn check<G: BotGame>(name: &str, rules: &G::Rules, seed: u64) -> usize {
    let mut steps = 0;
    let mut game: G = common::decision_where(rules, seed, |g: &G| g.position().is_some());
    let mut rng = stream(seed, 5);
    while let Turn::Seat(_) = game.turn() {
        let (position, layout) = game.position().expect("a play position");
        let legal = game.legal_action_list();
        let mut mine: Vec<String> = layout
            .unpack(position.playable())
            .iter()
            .map(|c| Action::Play(c).to_string())
            .collect();
        let mut theirs: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        mine.sort();
        theirs.sort();
        assert_eq!(mine, theirs, "{name} seed {seed}: {position:?}");
        let action = legal[rng.random_range(0..legal.len())];
        let Action::Play(card) = action else {
            unreachable!("the play phase offers cards")
        };
        let mut next: Position = position;
        let held = next.hands[next.to_act as usize] & layout.copies(card);
        next.play(held.trailing_zeros() as u8);
        game.apply(action).unwrap();
        match game.position() {
            Some((after, _)) => {
                // Compare hands as cards: copies of a face may sit at either index.
                for s in 0..after.seats as usize {
                    assert_eq!(
                        layout.unpack(after.hands[s]),
                        layout.unpack(next.hands[s]),
                        "{name} seed {seed}"
                    );
                }
                assert_eq!(after.tricks, next.tricks, "{name} seed {seed}");
                assert_eq!(after.to_act, next.to_act, "{name} seed {seed}");
                assert_eq!(after.trick_len, next.trick_len, "{name} seed {seed}");
                if next.trick_len > 0 {
                    assert_eq!(after.led, next.led, "{name} seed {seed}");
                    assert_eq!(after.winner, next.winner, "{name} seed {seed}");
                }
            }
            None => {
                assert!(next.is_over(), "{name} seed {seed}");
                assert_eq!(
                    game.hand_summary().tricks,
                    next.tricks,
                    "{name} seed {seed}"
                );
                assert_eq!(
                    game.hand_summary().points,
                    Some(game.hand_points(next.tricks)),
                    "{name} seed {seed}"
                );
            }
        }
        steps += 1;
    }
    steps
}

#[test]
fn position_follows_the_game_through_random_play() {
    common::count_in_every_game("steps", 2000, 400, |name, rules, seed| {
        each_game!(rules, |r, G| check::<G>(name, r, seed))
    });
}
