//! Search bots given a thinking time (`expert@2s`): a legal action within the time and
//! one deal's work, more deals with more time, an early answer when the choice is clear.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use calltrump_bots::thinking::{parse_thinking_time, SteppingClock};
use calltrump_bots::{bot_by_name, Bot, BotGame, IsmctsBot, Level, PimcBot};
use calltrump_engine::{stream, BidEuchreRules, BidEuchreVariant, Game, GameRules, Turn};
use common::each_game;

/// The CPU time this thread has used: the clock thinking times are measured by.
fn thread_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// What `bot` chooses at a random decision of `rules` (seeded), with the legal actions
/// and the thread time the decision took.
fn timed_decision<G: Game>(
    bot: &mut dyn Bot,
    any: &GameRules,
    game: &G,
    seed: u64,
) -> (bool, Duration) {
    let before = thread_time();
    let action = common::decide(bot, any, game, &mut stream(seed, 3));
    let took = thread_time() - before;
    (game.legal_action_list().contains(&action), took)
}

/// The most time one deal (or a few ISMCTS iterations) may add past the thinking time:
/// the clock is read between deals, so a decision overruns by at most the last deal
/// it started, which on these decisions is far below this bound.
const SLACK: Duration = Duration::from_millis(150);

#[test]
fn a_thinking_bot_answers_legally_within_its_time() {
    // One bot for many decisions: a PIMC bot may spend time earlier ones left unused,
    // up to its bank limit.
    let most = Duration::from_millis(20) * (PimcBot::BANK_LIMIT + 1);
    for name in ["hard@20ms", "expert@20ms", "ismcts@20ms", "medium@20ms"] {
        let mut bot = bot_by_name(name).unwrap();
        for (game_name, rules) in common::all_rules() {
            for seed in 0..3 {
                let (legal, took) = each_game!(&rules, |r, G| {
                    let game: G = common::random_decision(r, seed);
                    timed_decision(bot.as_mut(), &rules, &game, seed)
                });
                assert!(legal, "{name} in {game_name} seed {seed}");
                assert!(
                    took <= most + SLACK,
                    "{name} in {game_name} seed {seed}: {took:?}"
                );
            }
        }
    }
}

/// The first card play of a hand (the most to search), seeded.
fn first_play<G: BotGame>(rules: &G::Rules, seed: u64) -> G {
    common::decision_where(rules, seed, |g: &G| {
        g.position()
            .is_some_and(|(p, _)| p.tricks[0] + p.tricks[1] == 0 && g.legal_action_list().len() > 1)
    })
}

#[test]
fn more_time_samples_more_deals() {
    let rules = BidEuchreRules::new(BidEuchreVariant::Alexa);
    let any = GameRules::BidEuchre(rules);
    let deals = |time: u64, seed: u64| {
        let mut bot = Level::Expert
            .search_bot()
            .unwrap()
            .thinking_for(Duration::from_millis(time));
        let game: calltrump_engine::BidEuchre = first_play(&rules, seed);
        common::decide(&mut bot, &any, &game, &mut stream(seed, 3));
        bot.deals_last_decision()
    };
    // Summed over a few decisions: some may stop early once the best card is clear.
    let (short, long): (u32, u32) = (0..4)
        .map(|seed| (deals(5, seed), deals(100, seed)))
        .fold((0, 0), |(s, l), (a, b)| (s + a, l + b));
    assert!(short >= 4, "{short}");
    assert!(long > 2 * short, "5 ms: {short} deals, 100 ms: {long}");
}

#[test]
fn a_clear_choice_stops_before_the_time_is_spent() {
    // Two tricks to go: few cards to choose from, and on most deals the best of them
    // is plain, so the bot stops once its 32 deals or so show it, instead of thinking
    // for ten seconds or to its most deals.
    let rules = calltrump_engine::KaiboshRules::default();
    let any = GameRules::Kaibosh(rules);
    let mut stopped = 0;
    for seed in 0..8 {
        let game: calltrump_engine::Kaibosh = common::random_endgame(&rules, seed, 2);
        let Turn::Seat(_) = game.turn() else { continue };
        if game.legal_action_list().len() < 2 {
            continue;
        }
        let mut bot = Level::Expert
            .search_bot()
            .unwrap()
            .thinking_for(Duration::from_secs(10));
        let before = thread_time();
        common::decide(&mut bot, &any, &game, &mut stream(seed, 3));
        let took = thread_time() - before;
        assert!(took < Duration::from_secs(5), "seed {seed}: {took:?}");
        assert!(bot.deals_last_decision() < PimcBot::MAX_TIMED_DEALS);
        stopped += 1;
    }
    assert!(stopped >= 4, "{stopped} decisions checked");
}

#[test]
fn plain_levels_keep_their_counts_and_time_names_parse() {
    // The plain names are the fixed-count bots of before, reproducible from the seed.
    assert_eq!(Level::Expert.search_bot().unwrap().budget(), (150, 60));
    assert_eq!(Level::Hard.search_bot().unwrap().budget(), (30, 12));
    let timed = Level::Medium
        .search_bot()
        .unwrap()
        .thinking_for(Duration::from_secs(1));
    // `medium` calls by the rules of thumb, with or without a time.
    assert_eq!(timed.budget(), (PimcBot::MAX_TIMED_DEALS, 0));
    assert_eq!(
        parse_thinking_time("300ms"),
        Some(Duration::from_millis(300))
    );
    assert_eq!(
        IsmctsBot::thinking_for(Duration::from_millis(300)).name(),
        "ismcts@300ms"
    );
}

/// A level's search bot thinking for `time` as its name `LEVEL@TIME` does (reading the
/// play), by a clock that moves `step` a reading.
fn stepping(level: Level, time: u64, step: u64) -> (PimcBot, Arc<SteppingClock>) {
    let clock = Arc::new(SteppingClock::new(Duration::from_millis(step)));
    let bot = level
        .search_bot()
        .unwrap()
        .thinking_for(Duration::from_millis(time))
        .reading_play()
        .with_clock(clock.clone());
    (bot, clock)
}

#[test]
fn by_a_stepping_clock_a_bot_stops_within_its_time_on_any_machine() {
    // 20 ms at 1 ms a reading: the clock is read once at the start and once before every
    // deal after the first, so the bot samples at most 20 deals, and the time it saw pass
    // ends within one reading of its budget, however fast the machine is.
    let (time, step) = (20, 1);
    let mut sampled = 0;
    for (game_name, rules) in common::all_rules() {
        for seed in 0..3 {
            for level in [Level::Hard, Level::Expert] {
                let (mut bot, clock) = stepping(level, time, step);
                let legal = each_game!(&rules, |r, G| {
                    let game: G = first_play(r, seed);
                    let action = common::decide(&mut bot, &rules, &game, &mut stream(seed, 3));
                    game.legal_action_list().contains(&action)
                });
                assert!(legal, "{level:?} in {game_name} seed {seed}");
                let deals = bot.deals_last_decision();
                assert!(
                    (1..=20).contains(&deals),
                    "{level:?} in {game_name} seed {seed}: {deals} deals"
                );
                let seen = u64::from(clock.readings().saturating_sub(1)) * step;
                assert!(
                    seen <= time + step,
                    "{level:?} in {game_name} seed {seed}: {seen} ms"
                );
                sampled += deals;
            }
        }
    }
    // Most first plays have a real choice: the bots sampled up to their time.
    assert!(sampled >= 20 * 10, "{sampled} deals in all");
}

#[test]
fn by_a_stepping_clock_timed_decisions_repeat_from_their_seed() {
    for (game_name, rules) in common::all_rules() {
        for seed in 0..6 {
            let decide = |time: u64| {
                let (mut bot, _) = stepping(Level::Expert, time, 1);
                let action = each_game!(&rules, |r, G| {
                    let game: G = common::random_decision(r, seed);
                    common::decide(&mut bot, &rules, &game, &mut stream(seed, 3))
                });
                (action, bot.deals_last_decision())
            };
            assert_eq!(decide(12), decide(12), "{game_name} seed {seed}");
            let ismcts = || {
                let clock = Arc::new(SteppingClock::new(Duration::from_millis(1)));
                let mut bot = IsmctsBot::thinking_for(Duration::from_millis(8)).with_clock(clock);
                each_game!(&rules, |r, G| {
                    let game: G = common::random_decision(r, seed);
                    common::decide(&mut bot, &rules, &game, &mut stream(seed, 3))
                })
            };
            assert_eq!(ismcts(), ismcts(), "ismcts in {game_name} seed {seed}");
        }
    }
}

#[test]
fn by_a_stepping_clock_more_time_is_more_deals() {
    let rules = calltrump_engine::KaiboshRules::default();
    let any = GameRules::Kaibosh(rules);
    for seed in 0..4 {
        let game: calltrump_engine::Kaibosh = first_play(&rules, seed);
        let deals = |time: u64| {
            let (mut bot, _) = stepping(Level::Expert, time, 1);
            common::decide(&mut bot, &any, &game, &mut stream(seed, 3));
            bot.deals_last_decision()
        };
        // Below the 32 deals where an early stop is first weighed: exactly one deal a
        // reading after the first.
        assert_eq!((deals(5), deals(25)), (5, 25), "seed {seed}");
    }
}

/// The first call of a hand with a choice, seeded.
fn first_call<G: BotGame>(rules: &G::Rules, seed: u64) -> G {
    common::decision_where(rules, seed, |g: &G| {
        g.position().is_none() && g.legal_action_list().len() > 1
    })
}

#[test]
fn by_a_stepping_clock_time_a_clear_decision_leaves_goes_to_the_next_call_not_play() {
    // 60 ms at 1 ms a reading. A Kaibosh endgame choice is mostly clear: it stops once
    // 32 deals or so show it and leaves the rest of its time. A call that follows then
    // samples more deals than the same bot fresh, and no more than its time and the
    // most it may carry; a card play that follows samples exactly what it does fresh.
    let rules = calltrump_engine::KaiboshRules::default();
    let any = GameRules::Kaibosh(rules);
    let time = 60;
    let (mut fresh_total, mut after_total) = (0, 0);
    for seed in 0..6 {
        let endgame: calltrump_engine::Kaibosh = common::random_endgame(&rules, seed, 2);
        let call: calltrump_engine::Kaibosh = first_call(&rules, seed);
        let play: calltrump_engine::Kaibosh = first_play(&rules, seed);
        let fresh = |game: &calltrump_engine::Kaibosh| {
            let (mut bot, _) = stepping(Level::Expert, time, 1);
            let action = common::decide(&mut bot, &any, game, &mut stream(seed, 3));
            (action, bot.deals_last_decision())
        };
        let after = |game: &calltrump_engine::Kaibosh| {
            let (mut bot, clock) = stepping(Level::Expert, time, 1);
            if let Turn::Seat(_) = endgame.turn() {
                common::decide(&mut bot, &any, &endgame, &mut stream(seed, 3));
            }
            // The endgame's clock read once at its start and then before each deal: it
            // used a millisecond a reading after the first, and carries what is left.
            let readings = u64::from(clock.readings());
            let carried = bot.allowance(false).expect("a thinking time").as_millis() as u64;
            let left = match readings {
                0 => 0, // no choice there: nothing sampled, nothing left
                n => time.saturating_sub(n - 1),
            };
            assert_eq!(carried - time, left, "seed {seed}: {readings} readings");
            assert_eq!(bot.allowance(true), Some(Duration::from_millis(time)));
            let action = common::decide(&mut bot, &any, game, &mut stream(seed, 3));
            assert!(game.legal_action_list().contains(&action), "seed {seed}");
            (action, bot.deals_last_decision())
        };
        let ((_, fresh_call), (_, after_call)) = (fresh(&call), after(&call));
        assert!(
            after_call >= fresh_call,
            "seed {seed}: {fresh_call} fresh, {after_call} after"
        );
        assert!(
            u64::from(after_call) <= time * u64::from(PimcBot::BANK_LIMIT + 1),
            "seed {seed}: {after_call}"
        );
        fresh_total += fresh_call;
        after_total += after_call;
        // A card play thinks for its own time only: the same deals and card.
        assert_eq!(fresh(&play), after(&play), "seed {seed}");
    }
    assert!(
        after_total > fresh_total,
        "{fresh_total} deals fresh, {after_total} after a clear decision"
    );
}

#[test]
fn by_a_stepping_clock_the_rooted_tree_runs_more_iterations_with_more_time() {
    let rules = calltrump_engine::KaiboshRules::default();
    let any = GameRules::Kaibosh(rules);
    for seed in 0..3 {
        let game: calltrump_engine::Kaibosh = first_play(&rules, seed);
        let decide = |time: u64| {
            let clock = Arc::new(SteppingClock::new(Duration::from_millis(1)));
            let mut bot = Level::Expert
                .search_bot()
                .unwrap()
                .playing_tree()
                .thinking_for(Duration::from_millis(time))
                .reading_play()
                .with_clock(clock);
            let action = common::decide(&mut bot, &any, &game, &mut stream(seed, 3));
            assert!(game.legal_action_list().contains(&action), "seed {seed}");
            (action, bot.deals_last_decision())
        };
        // The clock is read every 8 iterations: at most 8 a millisecond.
        let (short, long) = (decide(4).1, decide(20).1);
        assert!((1..=32).contains(&short), "seed {seed}: {short}");
        assert!(
            long > 3 * short && long <= 160,
            "seed {seed}: {short} then {long}"
        );
        assert_eq!(decide(20), decide(20), "seed {seed}");
    }
}
