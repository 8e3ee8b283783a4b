//! Search benchmarks on one core: the solver on full Kaibosh deals after the auction.

use calltrump_bots::{BotGame, Position, RulesBot, Solver};
use calltrump_engine::{seeded, ActionList, Game, Kaibosh, KaiboshRules, Seat, Turn};
use divan::Bencher;

fn main() {
    divan::main();
}

/// Positions at the first lead of random deals, the auction and trump by the rules bot.
fn first_leads(count: usize) -> Vec<Position> {
    let rules = KaiboshRules {
        target: None,
        ..KaiboshRules::default()
    };
    let any = calltrump_engine::GameRules::Kaibosh(rules);
    let mut rng = seeded(42);
    let mut out = Vec::new();
    let mut game = Kaibosh::new(&rules, Seat(0));
    let mut legal = ActionList::new();
    while out.len() < count {
        if game.turn() == Turn::Chance {
            game.deal_random(&mut rng);
        }
        if let Some((position, _)) = game.position() {
            out.push(position);
            game = Kaibosh::new(&rules, Seat(0));
            continue;
        }
        let Turn::Seat(seat) = game.turn() else {
            break;
        };
        legal.clear();
        game.legal_actions(&mut legal);
        let obs = game.observation(seat);
        let decision = calltrump_bots::Decision {
            rules: &any,
            observation: &obs,
            legal: &legal,
        };
        use calltrump_bots::Bot;
        let action = RulesBot.choose(&decision, &mut rng);
        game.apply(action).unwrap();
    }
    out
}

/// One full solve (exact tricks) of a random deal at its first lead per iteration.
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn solve_full_deal(bencher: Bencher) {
    let positions = first_leads(2000);
    let mut solver = Solver::new();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % positions.len();
        solver.solve(&positions[i])
    });
}
