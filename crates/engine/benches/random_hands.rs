//! Random full hands (deal, auction, play) on one core.

use calltrump_engine::{
    seeded, ActionList, BidEuchre, BidEuchreRules, BidEuchreVariant, Game, Kaibosh, KaiboshRules,
    Seat, Turn,
};
use divan::Bencher;
use rand::Rng;

fn main() {
    divan::main();
}

/// Plays one hand with uniformly random legal actions, starting from a fresh deal.
fn random_hand<G: Game>(game: &mut G, rng: &mut calltrump_engine::GameRng) {
    game.deal_random(rng);
    let mut legal = ActionList::new();
    while let Turn::Seat(_) = game.turn() {
        legal.clear();
        game.legal_actions(&mut legal);
        let action = legal[rng.random_range(0..legal.len())];
        game.apply_unchecked(action);
    }
}

/// One random Kaibosh hand per iteration; the game never ends (no target).
#[divan::bench]
fn kaibosh_hand(bencher: Bencher) {
    let rules = KaiboshRules {
        target: None,
        ..KaiboshRules::default()
    };
    let mut game = Kaibosh::new(&rules, Seat(0));
    let mut rng = seeded(1);
    bencher.bench_local(|| random_hand(&mut game, &mut rng));
}

/// One random Bid Euchre hand (alexa) per iteration; the game never ends.
#[divan::bench]
fn bid_euchre_hand(bencher: Bencher) {
    let rules = BidEuchreRules {
        deals: u32::MAX,
        ..BidEuchreRules::new(BidEuchreVariant::Alexa)
    };
    let mut game = BidEuchre::new(&rules, Seat(0));
    let mut rng = seeded(1);
    bencher.bench_local(|| random_hand(&mut game, &mut rng));
}
