//! Every bot returns a legal action in every kind of decision, and the same seed and
//! budget give the same action.

mod common;

use calltrump_bots::{bot_by_name, Bot, Decision};
use calltrump_engine::{
    stream, Action, Card, CardBag, Game, GameRules, Kaibosh, KaiboshRules, Seat, Turn,
};

/// The kind of a decision, for coverage counts.
fn kind(legal: &[Action]) -> usize {
    if legal.contains(&Action::Misdeal) {
        return 0;
    }
    match legal[0] {
        Action::Pass | Action::Bid(_) | Action::Kaibosh => 1,
        Action::Trump(_) => 2,
        Action::Play(_) => 3,
        _ => 4,
    }
}

fn ask(
    bot: &mut dyn Bot,
    rules: &KaiboshRules,
    game: &Kaibosh,
    seed: u64,
) -> (Action, Vec<Action>) {
    let Turn::Seat(seat) = game.turn() else {
        panic!("not a decision")
    };
    let legal = game.legal_action_list();
    let obs = game.observation(seat);
    let any = GameRules::Kaibosh(*rules);
    let decision = Decision {
        rules: &any,
        observation: &obs,
        legal: &legal,
    };
    let action = bot.choose(&decision, &mut stream(seed, 3));
    (action, legal.to_vec())
}

/// Every bot at `positions` random decisions of every Kaibosh option, plus decisions
/// where a misdeal may be declared and three-handed play after a kaibosh.
fn check_bot(name: &str, positions: u64) {
    let mut bot = bot_by_name(name).unwrap();
    let mut kinds = [0usize; 5];
    let mut three_handed = 0;
    for rules in common::kaibosh_rules() {
        for seed in 0..positions {
            let game = common::random_decision(&rules, seed);
            let (action, legal) = ask(bot.as_mut(), &rules, &game, seed);
            assert!(
                legal.contains(&action),
                "{name} seed {seed}: {action} not in {legal:?}"
            );
            kinds[kind(&legal)] += 1;
            if game.out().is_some() && game.trump().is_some() {
                three_handed += 1;
            }
        }
        for seed in 0..(positions / 20).max(4) {
            let trump = common::decision_where(&rules, seed, |g| {
                matches!(g.legal_action_list()[0], Action::Trump(_))
            });
            let lone =
                common::decision_where(&rules, seed, |g| g.out().is_some() && g.trump().is_some());
            for game in [trump, lone] {
                let (action, legal) = ask(bot.as_mut(), &rules, &game, seed);
                assert!(legal.contains(&action), "{name} seed {seed}: {action}");
                kinds[kind(&legal)] += 1;
                three_handed += usize::from(game.out().is_some() && game.trump().is_some());
            }
            let game = misdeal_decision(&rules, seed);
            let (action, legal) = ask(bot.as_mut(), &rules, &game, seed);
            assert!(legal.contains(&Action::Misdeal));
            assert!(legal.contains(&action), "{name} seed {seed}: {action}");
            kinds[0] += 1;
        }
    }
    assert!(kinds[..4].iter().all(|&k| k > 0), "{name}: kinds {kinds:?}");
    assert!(three_handed > 0, "{name}: no three-handed play");
}

/// A fresh deal in which the first seat to call holds four 9s, or three 9s and two 10s.
fn misdeal_decision(rules: &KaiboshRules, seed: u64) -> Kaibosh {
    let card = |t: &str| t.parse::<Card>().unwrap();
    let holder = if seed % 2 == 0 {
        ["9S", "9H", "9D", "9C", "AS", "KH"]
    } else {
        ["9S", "9H", "9D", "TS", "TC", "AD"]
    };
    let mut rest: Vec<Card> = calltrump_engine::kaibosh::DECK
        .iter()
        .filter(|c| !holder.iter().any(|h| card(h) == *c))
        .collect();
    // A seeded rotation of the rest, enough to vary the other hands.
    let shift = (seed as usize * 5) % rest.len();
    rest.rotate_left(shift);
    let dealer = Seat((seed % 4) as u8);
    let first = dealer.next(4);
    let mut hands = vec![CardBag::EMPTY; 4];
    hands[first.index()] = holder.iter().map(|h| card(h)).collect();
    let mut others = rest.chunks(6);
    for (s, hand) in hands.iter_mut().enumerate() {
        if s != first.index() {
            *hand = others.next().unwrap().iter().copied().collect();
        }
    }
    let mut game = Kaibosh::new(rules, dealer);
    game.deal(&hands).unwrap();
    game
}

#[test]
fn random_and_rules_bots_play_legally_everywhere() {
    check_bot("random", 3000);
    check_bot("rules", 3000);
    check_bot("easy", 3000);
}

#[test]
fn ismcts_plays_legally_everywhere() {
    check_bot("ismcts:60", 1500);
}

#[test]
fn pimc_plays_legally_everywhere() {
    check_bot("pimc:3", 1000);
    check_bot("medium", 600);
}

#[test]
fn strong_levels_play_legally() {
    check_bot("hard", 80);
    check_bot("expert", 40);
}

#[test]
fn same_seed_and_budget_give_the_same_action() {
    let rules = common::kaibosh_rules()[0];
    for name in ["rules", "easy", "ismcts:300", "pimc:6", "medium", "hard"] {
        for seed in 0..40 {
            let game = common::random_decision(&rules, seed);
            let (a, _) = ask(bot_by_name(name).unwrap().as_mut(), &rules, &game, seed);
            let (b, _) = ask(bot_by_name(name).unwrap().as_mut(), &rules, &game, seed);
            assert_eq!(a, b, "{name} seed {seed}");
        }
    }
}

#[test]
fn bad_names_are_refused_with_the_list() {
    for bad in ["", "ismcts:0", "ismcts:x", "pimc:", "nobody", "hard:3"] {
        let err = bot_by_name(bad)
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert!(!err.is_empty());
    }
    for good in [
        "random", "rules", "ismcts", "ismcts:5", "pimc", "pimc:5", "easy", "medium", "hard",
        "expert",
    ] {
        assert!(bot_by_name(good).is_ok(), "{good}");
    }
}
