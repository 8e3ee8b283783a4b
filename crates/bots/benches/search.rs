//! Search benchmarks on one core: the solver on full Kaibosh deals after the auction,
//! and ISMCTS on the first play.

use calltrump_bots::{Bot, BotGame, Decision, IsmctsBot, Position, RulesBot, Solver};
use calltrump_engine::{
    seeded, ActionList, Game, GameRules, Kaibosh, KaiboshRules, Observation, Seat, Turn,
};
use divan::Bencher;

fn main() {
    divan::main();
}

/// Random Kaibosh deals at their first lead, the auction and trump by the rules bot:
/// the game, the leader's observation and its legal cards.
fn first_leads(count: usize, seed: u64) -> (GameRules, Vec<(Kaibosh, Observation, ActionList)>) {
    let rules = KaiboshRules {
        target: None,
        ..KaiboshRules::default()
    };
    let any = GameRules::Kaibosh(rules);
    let mut rng = seeded(seed);
    let mut out = Vec::new();
    let mut game = Kaibosh::new(&rules, Seat(0));
    let mut legal = ActionList::new();
    while out.len() < count {
        if game.turn() == Turn::Chance {
            game.deal_random(&mut rng);
        }
        let Turn::Seat(seat) = game.turn() else {
            break;
        };
        legal.clear();
        game.legal_actions(&mut legal);
        let observation = game.observation(seat);
        if game.position().is_some() {
            out.push((game.clone(), observation, legal.clone()));
            game = Kaibosh::new(&rules, Seat(0));
            continue;
        }
        let decision = Decision {
            rules: &any,
            observation: &observation,
            legal: &legal,
        };
        let action = RulesBot.choose(&decision, &mut rng);
        game.apply(action).unwrap();
    }
    (any, out)
}

/// One full solve (exact tricks) of a random deal at its first lead per iteration.
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn solve_full_deal(bencher: Bencher) {
    let positions: Vec<Position> = first_leads(2000, 42)
        .1
        .iter()
        .filter_map(|(game, _, _)| game.position().map(|(position, _)| position))
        .collect();
    let mut solver = Solver::new();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % positions.len();
        solver.solve(&positions[i])
    });
}

/// ISMCTS on the first play decision of random deals: 20,000 iterations per call.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn ismcts_first_play(bencher: Bencher) {
    const ITERATIONS: u32 = 20_000;
    let (rules, decisions) = first_leads(32, 43);
    let mut bot = IsmctsBot::new(ITERATIONS);
    let mut rng = seeded(5);
    let mut i = 0;
    bencher
        .counter(divan::counter::ItemsCount::new(ITERATIONS))
        .bench_local(|| {
            i = (i + 1) % decisions.len();
            let (_, observation, legal) = &decisions[i];
            let decision = Decision {
                rules: &rules,
                observation,
                legal,
            };
            bot.choose(&decision, &mut rng)
        });
}
