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

/// ISMCTS on the first play decision of random deals: 20,000 iterations per call.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn ismcts_first_play(bencher: Bencher) {
    use calltrump_bots::{Bot, IsmctsBot};
    const ITERATIONS: u32 = 20_000;
    let decisions = first_play_decisions(32);
    let mut bot = IsmctsBot::new(ITERATIONS);
    let mut rng = seeded(5);
    let mut i = 0;
    bencher
        .counter(divan::counter::ItemsCount::new(ITERATIONS))
        .bench_local(|| {
            i = (i + 1) % decisions.len();
            let (rules, obs, legal) = &decisions[i];
            let decision = calltrump_bots::Decision {
                rules,
                observation: obs,
                legal,
            };
            bot.choose(&decision, &mut rng)
        });
}

/// First play decisions (the opening lead) of random deals, auction by the rules bot.
fn first_play_decisions(
    count: usize,
) -> Vec<(
    calltrump_engine::GameRules,
    calltrump_engine::Observation,
    ActionList,
)> {
    let rules = KaiboshRules {
        target: None,
        ..KaiboshRules::default()
    };
    let any = calltrump_engine::GameRules::Kaibosh(rules);
    let mut rng = seeded(43);
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
        let obs = game.observation(seat);
        if game.position().is_some() {
            out.push((any.clone(), obs, legal.clone()));
            game = Kaibosh::new(&rules, Seat(0));
            continue;
        }
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
