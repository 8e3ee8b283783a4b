//! Random positions of every game for the bots' tests.

use calltrump_bots::{Bot, BotGame, Decision};
use calltrump_engine::{
    stream, Action, ActionList, AllPass, BidEuchreRules, BidEuchreVariant, Game, GameRng,
    GameRules, JokerLead, KaiboshRules, Kout4Deck, KoutRules, KoutVariant, Seat, Turn,
};
use rand::Rng;

pub use calltrump_bots::with_game as each_game;

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

/// Every game and option under test.
pub fn all_rules() -> Vec<(&'static str, GameRules)> {
    let mut out: Vec<(&'static str, GameRules)> = vec![
        ("kaibosh", GameRules::Kaibosh(kaibosh_rules()[0])),
        (
            "kaibosh dealer-must-bid",
            GameRules::Kaibosh(kaibosh_rules()[1]),
        ),
        (
            "alexa",
            GameRules::BidEuchre(BidEuchreRules::new(BidEuchreVariant::Alexa)),
        ),
        (
            "simplified dealer-must-bid",
            GameRules::BidEuchre(BidEuchreRules {
                all_pass: AllPass::DealerMustBid,
                ..BidEuchreRules::new(BidEuchreVariant::Simplified)
            }),
        ),
    ];
    for (name, joker_lead) in [
        ("kout6", JokerLead::Standard),
        ("kout6 contract-only", JokerLead::ContractOnly),
        ("kout6 all-trumps-played", JokerLead::AllTrumpsPlayed),
        ("kout6 trump-ace-played", JokerLead::TrumpAcePlayed),
    ] {
        out.push((
            name,
            GameRules::Kout(KoutRules {
                variant: KoutVariant::Six,
                joker_lead,
                deck: Kout4Deck::NoBlackSixes,
            }),
        ));
    }
    for (name, deck, joker_lead) in [
        ("kout4", Kout4Deck::NoBlackSixes, JokerLead::Standard),
        (
            "kout4 two-undealt",
            Kout4Deck::TwoUndealt,
            JokerLead::TrumpAcePlayed,
        ),
    ] {
        out.push((
            name,
            GameRules::Kout(KoutRules {
                variant: KoutVariant::Four,
                joker_lead,
                deck,
            }),
        ));
    }
    out
}

/// Runs `check` on every game and option under test, at each of the seeds `0..seeds`;
/// each game must count more than `at_least` of `what` it checked over all its seeds.
pub fn count_in_every_game(
    what: &str,
    at_least: usize,
    seeds: u64,
    mut check: impl FnMut(&'static str, &GameRules, u64) -> usize,
) {
    for (name, rules) in all_rules() {
        let checked: usize = (0..seeds).map(|seed| check(name, &rules, seed)).sum();
        assert!(checked > at_least, "{name}: {checked} {what}");
    }
}

/// A random legal action that bids often enough for hands to be played, and sometimes
/// bids alone (kaibosh, a loner) so three-handed play and exchanges are covered.
pub fn random_action(legal: &ActionList, rng: &mut GameRng) -> Action {
    if legal.contains(&Action::Pass) && rng.random_bool(0.5) {
        return Action::Pass;
    }
    let those =
        |keep: fn(&Action) -> bool| -> Vec<Action> { legal.iter().copied().filter(keep).collect() };
    let alone = those(|a| matches!(a, Action::Kaibosh | Action::Loner(..)));
    if !alone.is_empty() && rng.random_bool(0.12) {
        return alone[rng.random_range(0..alone.len())];
    }
    // One of the first five bids listed.
    let bids = those(|a| matches!(a, Action::Bid(_) | Action::BidStrain(..)));
    if !bids.is_empty() && rng.random_bool(0.8) {
        return bids[rng.random_range(0..bids.len().min(5))];
    }
    legal[rng.random_range(0..legal.len())]
}

/// A random game at the first decision `wanted` accepts, advanced at random from a
/// random deal (trying fresh deals until one gets there).
pub fn decision_where<G: Game>(
    rules: &G::Rules,
    seed: u64,
    mut wanted: impl FnMut(&G) -> bool,
) -> G {
    let mut rng = stream(seed, 13);
    let mut legal = ActionList::new();
    loop {
        let probe = G::new(rules, Seat(0));
        let mut game = G::new(rules, Seat(rng.random_range(0..probe.seats()) as u8));
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

/// A random game at a random decision of a hand.
pub fn random_decision<G: Game>(rules: &G::Rules, seed: u64) -> G {
    let mut rng = stream(seed, 7);
    let depth = rng.random_range(0..60);
    let mut counter = 0;
    decision_where(rules, seed, |_: &G| {
        counter += 1;
        counter > depth || rng.random_bool(0.03)
    })
}

/// A random game in its card play with at most `tricks_left` tricks to go.
pub fn random_endgame<G: BotGame>(rules: &G::Rules, seed: u64, tricks_left: u32) -> G {
    let mut rng = stream(seed, 11);
    decision_where(rules, seed, |g: &G| {
        g.position()
            .is_some_and(|(p, _)| p.tricks_left() <= tricks_left)
            && rng.random_bool(0.5)
    })
}

/// What `bot` chooses at `game`, a seat's decision, drawing from `rng`.
pub fn decide<G: Game>(
    bot: &mut dyn Bot,
    rules: &GameRules,
    game: &G,
    rng: &mut GameRng,
) -> Action {
    let Turn::Seat(seat) = game.turn() else {
        panic!("not a decision")
    };
    let legal = game.legal_action_list();
    let observation = game.observation(seat);
    let decision = Decision {
        rules,
        observation: &observation,
        legal: &legal,
    };
    bot.choose(&decision, rng)
}
