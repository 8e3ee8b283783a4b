//! Bid Euchre calls simulated in two rounds (`BotGame::CALL_FINALISTS`): the finalists
//! get more deals than one round of the same simulations gives, the call is legal and
//! the same for the same seed; other games' calls keep one round.

mod common;

use calltrump_bots::{BotGame, Level};
use calltrump_engine::{
    stream, BidEuchre, BidEuchreRules, BidEuchreVariant, Game, GameRules, Phase, Turn,
};
use common::each_game;

/// An auction decision of Bid Euchre with more calls weighed than there are finalists
/// (and the baseline), seeded.
fn wide_auction(rules: &BidEuchreRules, seed: u64) -> BidEuchre {
    common::decision_where(rules, seed, |g: &BidEuchre| {
        let Turn::Seat(seat) = g.turn() else {
            return false;
        };
        let legal = g.legal_action_list();
        g.phase() == Phase::Auction
            && BidEuchre::call_candidates(rules, &g.observation(seat), &legal).len()
                > BidEuchre::CALL_FINALISTS + 1
    })
}

#[test]
fn bid_euchre_finalists_get_more_deals_and_the_call_is_reproducible() {
    let rules = BidEuchreRules::new(BidEuchreVariant::Alexa);
    let any = GameRules::BidEuchre(rules);
    for level in [Level::Hard, Level::Expert] {
        let (_, budget) = level.search_bot().unwrap().budget();
        for seed in 0..4 {
            let game = wide_auction(&rules, seed);
            let choose = || {
                let mut bot = level.search_bot().unwrap();
                let call = common::decide(&mut bot, &any, &game, &mut stream(seed, 5));
                (call, bot.deals_last_decision())
            };
            let (call, deals) = choose();
            assert!(game.legal_action_list().contains(&call), "{call} illegal");
            assert_eq!(choose(), (call, deals), "seed {seed}: not reproducible");
            // A third of the budget for all, then the rest of the simulations for at
            // most four: at least twice the budget's deals for the finalists.
            assert!(deals >= 2 * budget, "{level:?} seed {seed}: {deals} deals");
        }
    }
}

#[test]
fn other_games_calls_keep_one_round() {
    let mut checked = 0;
    for (name, rules) in common::all_rules() {
        let mut bot = Level::Expert.search_bot().unwrap();
        let (_, budget) = bot.budget();
        for seed in 0..3 {
            // Bid Euchre's calls are the other test's.
            let legal = each_game!(&rules, |r, G| {
                let game: G = common::decision_where(r, seed, |g: &G| {
                    g.phase() == Phase::Auction && g.legal_action_list().len() > 2
                });
                let call = common::decide(&mut bot, &rules, &game, &mut stream(seed, 5));
                game.legal_action_list().contains(&call)
            });
            assert!(legal, "{name} seed {seed}");
            if matches!(rules, GameRules::BidEuchre(_)) {
                continue;
            }
            let deals = bot.deals_last_decision();
            assert!(
                deals > 0 && deals <= budget,
                "{name} seed {seed}: {deals} deals"
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked}");
}
