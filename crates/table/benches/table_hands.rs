//! Random Kaibosh hands through the table library (deal, checked apply from the seat,
//! the log and the record) beside the same hands through the engine's checked `apply`
//! alone, in one run: the table's cost is their ratio.

use calltrump_engine::{seeded, ActionList, AnyGame, Game, GameRules, KaiboshRules, Seat, Turn};
use calltrump_table::{Settings, Table};
use divan::Bencher;
use rand::Rng;

fn main() {
    divan::main();
}

/// Kaibosh with no target: hands go on for as long as the benchmark runs.
fn endless() -> GameRules {
    GameRules::Kaibosh(KaiboshRules {
        target: None,
        ..KaiboshRules::default()
    })
}

/// A uniformly random legal action of the seat to act.
fn random_action(
    game: &AnyGame,
    legal: &mut ActionList,
    rng: &mut calltrump_engine::GameRng,
) -> calltrump_engine::Action {
    legal.clear();
    game.legal_actions(legal);
    legal[rng.random_range(0..legal.len() as u32) as usize]
}

/// One random hand per iteration on the engine: deal, then checked actions.
#[divan::bench(sample_size = 64)]
fn engine_hand(bencher: Bencher) {
    let mut game = AnyGame::new(&endless(), Seat(0));
    let (mut deal_rng, mut rng) = (seeded(1), seeded(2));
    let mut legal = ActionList::new();
    bencher.bench_local(|| {
        game.deal_random(&mut deal_rng);
        while let Turn::Seat(_) = game.turn() {
            let action = random_action(&game, &mut legal, &mut rng);
            game.apply(action).expect("a legal action");
        }
    });
}

/// One random hand per iteration at a table: its deal, each action from its seat, the
/// log and the record kept. A fresh table every 1,000 hands keeps the log's size real.
#[divan::bench(sample_size = 64)]
fn table_hand(bencher: Bencher) {
    let new_table = || Table::new(Settings::new(endless(), Seat(0), &[]), seeded(1));
    let mut table = new_table();
    let mut rng = seeded(2);
    let mut legal = ActionList::new();
    bencher.bench_local(|| {
        if table.deals() == 1000 {
            table = new_table();
        }
        table.deal().expect("a deal is due");
        while let Turn::Seat(seat) = table.turn() {
            let action = random_action(table.game(), &mut legal, &mut rng);
            table.apply(seat, action).expect("a legal action");
        }
    });
}
