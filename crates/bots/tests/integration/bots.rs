//! Every bot returns a legal action in every kind of decision, and the same seed and
//! budget give the same action.

use crate::common;

use calltrump_bots::{bot_by_name, Bot, BotGame, BOT_KINDS};
use calltrump_engine::{
    stream, Action, Card, CardBag, Game, GameRules, Kaibosh, KaiboshRules, Seat,
};
use common::each_game;

/// The kind of a decision, for coverage counts: misdeal, call, trump, play, give,
/// discard.
fn kind(legal: &[Action]) -> usize {
    if legal.contains(&Action::Misdeal) {
        return 0;
    }
    match legal[0] {
        Action::Trump(_) => 2,
        Action::Play(_) => 3,
        Action::Give(_) => 4,
        Action::Discard(_) => 5,
        _ => 1,
    }
}

fn ask<G: Game>(
    bot: &mut dyn Bot,
    rules: &GameRules,
    game: &G,
    seed: u64,
) -> (Action, Vec<Action>) {
    let action = common::decide(bot, rules, game, &mut stream(seed, 3));
    (action, game.legal_action_list().to_vec())
}

/// The bot at random decisions of one game, and at decisions of the kinds random play
/// reaches rarely: naming trump, playing alone, giving and discarding.
fn check_game<G: BotGame>(
    bot: &mut dyn Bot,
    name: &str,
    any: &GameRules,
    rules: &G::Rules,
    positions: u64,
    kinds: &mut [usize; 6],
) {
    let mut check = |game: &G, seed: u64, kinds: &mut [usize; 6]| {
        let (action, legal) = ask(bot, any, game, seed);
        assert!(
            legal.contains(&action),
            "{name} seed {seed}: {action} not in {legal:?}"
        );
        kinds[kind(&legal)] += 1;
    };
    for seed in 0..positions {
        check(&common::random_decision::<G>(rules, seed), seed, kinds);
    }
    for seed in 0..(positions / 10).max(3) {
        let rare = |g: &G| {
            let legal = g.legal_action_list();
            !matches!(
                legal[0],
                Action::Play(_) | Action::Pass | Action::Bid(_) | Action::BidStrain(..)
            )
        };
        check(&common::decision_where(rules, seed, rare), seed, kinds);
        let alone = |g: &G| {
            g.position()
                .is_some_and(|(p, _)| p.players() < u32::from(p.seats))
        };
        if matches!(any, GameRules::BidEuchre(_)) {
            let discard = |g: &G| matches!(g.legal_action_list()[0], Action::Discard(_));
            check(&common::decision_where(rules, seed, discard), seed, kinds);
        }
        if matches!(any, GameRules::Kout(_)) {
            continue;
        }
        check(&common::decision_where(rules, seed, alone), seed, kinds);
    }
}

/// Every bot at `positions` random decisions of every game and option, plus decisions
/// where a misdeal may be declared.
fn check_bot(name: &str, positions: u64) {
    let mut bot = bot_by_name(name).unwrap();
    let mut kinds = [0usize; 6];
    for (game, rules) in common::all_rules() {
        let label = format!("{name} in {game}");
        each_game!(&rules, |r, G| check_game::<G>(
            bot.as_mut(),
            &label,
            &rules,
            r,
            positions,
            &mut kinds
        ));
    }
    for rules in common::kaibosh_rules() {
        for seed in 0..(positions / 20).max(4) {
            let game = misdeal_decision(&rules, seed);
            let any = GameRules::Kaibosh(rules);
            let (action, legal) = ask(bot.as_mut(), &any, &game, seed);
            assert!(legal.contains(&Action::Misdeal));
            assert!(legal.contains(&action), "{name} seed {seed}: {action}");
            kinds[0] += 1;
        }
    }
    assert!(kinds.iter().all(|&k| k > 0), "{name}: kinds {kinds:?}");
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
    check_bot("random", 1000);
    check_bot("rules", 1000);
    check_bot("easy", 1000);
}

#[test]
fn ismcts_plays_legally_everywhere() {
    check_bot("ismcts:40", 400);
    check_bot("ismcts:40:robust:c0.3", 100);
    check_bot("ismcts:40:mean", 100);
}

#[test]
fn the_rooted_tree_plays_legally_everywhere() {
    check_bot("tree:40", 10);
}

#[test]
fn pimc_plays_legally_everywhere() {
    check_bot("pimc:2", 300);
    check_bot("pimc:2:1:+1", 60);
    check_bot("medium", 150);
}

#[test]
fn strong_levels_play_legally() {
    check_bot("hard", 20);
    check_bot("expert", 10);
}

#[test]
fn same_seed_and_budget_give_the_same_action() {
    for (game_name, rules) in common::all_rules() {
        for name in [
            "rules",
            "easy",
            "ismcts:300",
            "ismcts:300:robust",
            "pimc:6",
            "medium",
            "tree:60",
        ] {
            for seed in 0..12 {
                let same = each_game!(&rules, |r, G| {
                    let game: G = common::random_decision(r, seed);
                    let (a, _) = ask(bot_by_name(name).unwrap().as_mut(), &rules, &game, seed);
                    let (b, _) = ask(bot_by_name(name).unwrap().as_mut(), &rules, &game, seed);
                    a == b
                });
                assert!(same, "{name} in {game_name} seed {seed}");
            }
        }
    }
}

#[test]
fn bad_names_are_refused_with_what_is_wrong() {
    for (bad, says) in [
        ("", "unknown bot"),
        ("nobody", "unknown bot"),
        ("hard:3", "unknown bot"),
        ("pimc:1:2:3:4", "unknown bot"),
        ("ismcts:0", "bad budget \"0\""),
        ("ismcts:x", "bad budget \"x\""),
        ("ismcts:5:mine", "unknown bot"),
        ("ismcts:5:c", "unknown bot"),
        ("ismcts:5:c-1", "unknown bot"),
        ("ismcts:5:cinf", "unknown bot"),
        ("tree:0", "bad budget \"0\""),
        ("tree:5:5", "unknown bot"),
        ("tree:5@1s", "cannot think for a time"),
        ("pimc:", "bad budget \"\""),
        ("pimc:5:0", "bad budget \"0\""),
        ("pimc:5:2:1", "bad depth \"1\""),
        ("pimc:5:2:+x", "bad depth \"+x\""),
        ("expert@", "bad thinking time \"\" in \"expert@\""),
        ("expert@2", "bad thinking time \"2\""),
        ("expert@2m", "bad thinking time \"2m\""),
        ("expert@0ms", "bad thinking time \"0ms\""),
        ("expert@-1s", "bad thinking time \"-1s\""),
        ("expert@601s", "bad thinking time \"601s\""),
        ("expert@2s@3s", "bad thinking time \"2s@3s\""),
        ("hard@fast", "bad thinking time \"fast\""),
        ("nobody@2s", "unknown bot \"nobody@2s\""),
        ("@2s", "unknown bot \"@2s\""),
        ("random@1s", "\"random@1s\" cannot think for a time"),
        ("rules@1s", "cannot think for a time"),
        ("easy@1s", "cannot think for a time"),
        ("pimc:40@1s", "cannot think for a time"),
        ("ismcts:500@1s", "cannot think for a time"),
        ("pimc:0@1s", "bad budget \"0\""),
    ] {
        let err = bot_by_name(bad)
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert!(err.to_string().contains(says), "{bad}: {err}");
    }
}

#[test]
fn every_kind_listed_is_a_bot_by_its_name_alone() {
    for kind in BOT_KINDS {
        let bot = bot_by_name(kind).unwrap_or_else(|e| panic!("{kind}: {e}"));
        // A search bot names its default budget too (`ismcts:10000`).
        assert!(bot.name().starts_with(kind), "{kind} made {}", bot.name());
    }
}

#[test]
fn names_set_the_budgets() {
    for (good, name) in [
        ("random", "random"),
        ("rules", "rules"),
        ("ismcts:5", "ismcts:5"),
        ("ismcts:5:own", "ismcts:5:own"),
        ("ismcts:5:mean", "ismcts:5:mean"),
        ("ismcts:5:own:robust:c0.3", "ismcts:5:own:robust:c0.3"),
        ("ismcts:5:c0.35", "ismcts:5"),
        ("ismcts:5:c0.7", "ismcts:5:c0.7"),
        ("tree:50", "tree:50"),
        ("tree@250ms", "tree@250ms"),
        ("pimc:5", "pimc:5:3"),
        ("pimc:8:2", "pimc:8:2"),
        ("pimc:8:2:+1", "pimc:8:2:+1"),
        ("pimc:8:2:+0", "pimc:8:2"),
        ("easy", "easy"),
        ("expert", "expert"),
        ("expert@2s", "expert@2s"),
        ("expert@1.5s", "expert@1500ms"),
        ("hard@300ms", "hard@300ms"),
        ("medium@50ms", "medium@50ms"),
        ("pimc@1s", "pimc@1s"),
        ("ismcts@250ms", "ismcts@250ms"),
        ("ismcts@2000ms", "ismcts@2s"),
    ] {
        let bot = bot_by_name(good).unwrap_or_else(|e| panic!("{good}: {e}"));
        assert_eq!(bot.name(), name);
    }
    for good in ["ismcts", "pimc", "medium", "hard"] {
        assert!(bot_by_name(good).is_ok(), "{good}");
    }
}

/// Deals differ in the discards they allow, so an ISMCTS node below a give collects more
/// children than any one deal offers: the search must take them all.
#[test]
fn ismcts_takes_children_from_every_deal() {
    use calltrump_engine::{BidEuchre, BidEuchreRules, BidEuchreVariant};
    let rules = BidEuchreRules::new(BidEuchreVariant::Simplified);
    let any = GameRules::BidEuchre(rules);
    let mut bot = bot_by_name("ismcts:3000").unwrap();
    for seed in 0..3 {
        let give = |g: &BidEuchre| matches!(g.legal_action_list()[0], Action::Give(_));
        let game = common::decision_where(&rules, seed, give);
        let (action, legal) = ask(bot.as_mut(), &any, &game, seed);
        assert!(legal.contains(&action), "seed {seed}: {action}");
    }
}

/// Whatever a decision lists as legal, every level answers one of those actions: here a
/// trump decision that offers a single suit, and a call offering only some of the bids.
#[test]
fn every_level_answers_only_from_legal_even_a_short_list() {
    use calltrump_bots::Decision;
    use calltrump_engine::{Kout, KoutRules, Suit, Turn};
    fn short_lists<G: Game>(rules: &G::Rules, any: &GameRules, names: &[&str]) {
        for seed in 0..12 {
            let game: G = common::decision_where(rules, seed, |g: &G| {
                matches!(g.legal_action_list()[0], Action::Trump(_))
            });
            let Turn::Seat(seat) = game.turn() else {
                unreachable!()
            };
            let observation = game.observation(seat);
            for (i, suit) in Suit::ALL.into_iter().enumerate() {
                let legal = [Action::Trump(suit), Action::Trump(Suit::ALL[(i + 1) % 4])];
                for name in names {
                    let mut bot = bot_by_name(name).unwrap();
                    let decision = Decision {
                        rules: any,
                        observation: &observation,
                        legal: &legal,
                    };
                    let action = bot.choose(&decision, &mut stream(seed, 1));
                    assert!(legal.contains(&action), "{name} seed {seed}: {action}");
                }
            }
        }
    }
    let names = ["random", "rules", "easy", "medium", "hard", "expert"];
    let kaibosh = KaiboshRules::default();
    short_lists::<Kaibosh>(&kaibosh, &GameRules::Kaibosh(kaibosh), &names);
    let kout = KoutRules::default();
    short_lists::<Kout>(&kout, &GameRules::Kout(kout), &names);
}

/// In Bid Euchre, over the partner's standing contract passing is the call to beat by a
/// margin, and a raise of the partner's strain is always among the calls weighed; over
/// an opponent's contract nothing is to beat.
#[test]
fn bid_euchre_weighs_the_partners_contract() {
    use calltrump_engine::{BidEuchre, BidEuchreRules, BidEuchreVariant, SeenAction, Turn};
    let standing = |g: &BidEuchre| {
        let Turn::Seat(seat) = g.turn() else {
            return None;
        };
        let observation = g.observation(seat);
        let (caller, call) = observation
            .actions
            .iter()
            .rev()
            .find_map(|(s, seen)| match seen {
                SeenAction::Open(call @ (Action::BidStrain(..) | Action::Loner(..))) => {
                    Some((*s, *call))
                }
                _ => None,
            })?;
        Some((caller == seat.partner4(), call))
    };
    let mut checked = [0; 3];
    for variant in [BidEuchreVariant::Alexa, BidEuchreVariant::Simplified] {
        let rules = BidEuchreRules::new(variant);
        for seed in 0..80 {
            let game: BidEuchre = common::decision_where(&rules, seed, |g: &BidEuchre| {
                // Even seeds: the partner's contract stands; odd: an opponent's.
                g.legal_action_list().contains(&Action::Pass)
                    && standing(g).is_some_and(|(partners, _)| partners == (seed % 2 == 0))
            });
            let (partners, call) = standing(&game).unwrap();
            let Turn::Seat(seat) = game.turn() else {
                unreachable!()
            };
            let observation = game.observation(seat);
            let legal = game.legal_action_list();
            let baseline = BidEuchre::call_baseline(&rules, &observation, &legal);
            if !partners {
                assert_eq!(baseline, None, "seed {seed}");
                checked[0] += 1;
                continue;
            }
            assert_eq!(baseline.map(|(a, _)| a), Some(Action::Pass), "seed {seed}");
            assert!(baseline.is_some_and(|(_, margin)| margin > 0.0));
            checked[1] += 1;
            let Action::BidStrain(_, strain) = call else {
                continue;
            };
            let raise = legal
                .iter()
                .find(|a| matches!(a, Action::BidStrain(_, s) if *s == strain));
            if let Some(raise) = raise {
                let candidates = BidEuchre::call_candidates(&rules, &observation, &legal);
                assert!(
                    candidates.contains(raise),
                    "seed {seed}: {raise} not weighed"
                );
                checked[2] += 1;
            }
        }
    }
    assert!(checked.iter().all(|&n| n >= 10), "{checked:?}");
}

#[test]
fn close_calls_take_more_deals_and_clear_ones_keep_the_budget() {
    use calltrump_bots::{Level, PimcBot};
    use calltrump_engine::{BidEuchre, BidEuchreRules, BidEuchreVariant};
    let rules = BidEuchreRules::new(BidEuchreVariant::Alexa);
    let any = GameRules::BidEuchre(rules);
    let expert = || Level::Expert.search_bot().unwrap();
    let (_, budget) = expert().budget();
    let most = budget * expert().close_call_factor();
    assert!(most > budget);
    let (mut kept, mut extended) = (0, 0);
    for seed in 0..24 {
        // A first bid of a hand: many calls to weigh, some close and some not.
        let game: BidEuchre = common::decision_where(&rules, seed, |g: &BidEuchre| {
            g.legal_action_list().len() > 1
        });
        let decide = |mut bot: PimcBot| {
            let action = common::decide(&mut bot, &any, &game, &mut stream(seed, 3));
            (action, bot.deals_last_decision())
        };
        let (_, fixed) = decide(expert().extending_close_calls(1));
        let (action, deals) = decide(expert());
        assert!(
            fixed <= budget,
            "seed {seed}: {fixed} deals without extending"
        );
        // The same stream: the extended call saw the budget's deals, then maybe more.
        assert!(
            (fixed..=most).contains(&deals),
            "seed {seed}: {deals} deals, {fixed} without extending"
        );
        // Reproducible from the seed: the deals' values decide when it stops.
        assert_eq!(decide(expert()), (action, deals), "seed {seed}");
        if deals > fixed {
            extended += 1;
        } else {
            kept += 1;
        }
    }
    // Most first bids weigh calls close to each other: few are clear at the budget.
    assert!(
        kept >= 1 && extended >= 1,
        "kept {kept}, extended {extended}"
    );
}
