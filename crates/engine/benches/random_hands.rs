//! Random full hands (deal, auction, play) on one core.

use calltrump_engine::{
    seeded, ActionList, BidEuchre, BidEuchreRules, BidEuchreVariant, Game, Kaibosh, KaiboshRules,
    Kout, KoutRules, Seat, Turn,
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
        let action = legal[rng.random_range(0..legal.len() as u32) as usize];
        game.apply_unchecked(action);
    }
}

/// One random Kaibosh hand per iteration; the game never ends (no target).
/// Samples of 64 hands keep the timer's overhead out of every figure.
#[divan::bench(sample_size = 64)]
fn kaibosh_hand(bencher: Bencher) {
    let rules = KaiboshRules {
        target: None,
        ..KaiboshRules::default()
    };
    let mut game = Kaibosh::new(&rules, Seat(0));
    let mut rng = seeded(1);
    bencher.bench_local(|| random_hand(&mut game, &mut rng));
}

/// One random Kout Bo 6 hand per iteration; the game is restarted when it ends.
#[divan::bench(sample_size = 64)]
fn kout6_hand(bencher: Bencher) {
    let rules = KoutRules::default();
    let mut game = Kout::new(&rules, Seat(0));
    let mut rng = seeded(1);
    bencher.bench_local(|| {
        if game.turn() == Turn::Over {
            game = Kout::new(&rules, Seat(0));
        }
        random_hand(&mut game, &mut rng)
    });
}

/// One random Bid Euchre hand (alexa) per iteration; the game never ends.
#[divan::bench(sample_size = 64)]
fn bid_euchre_hand(bencher: Bencher) {
    let rules = BidEuchreRules {
        deals: u32::MAX,
        ..BidEuchreRules::new(BidEuchreVariant::Alexa)
    };
    let mut game = BidEuchre::new(&rules, Seat(0));
    let mut rng = seeded(1);
    bencher.bench_local(|| random_hand(&mut game, &mut rng));
}
