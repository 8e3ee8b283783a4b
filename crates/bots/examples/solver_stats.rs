//! Percentiles of the solver's time on random full deals at the first lead (the auction
//! and trump by the rules bot), one core:
//! `cargo run --release -p calltrump-bots --example solver_stats -- [deals] [GAME [VARIANT]]`
//! (GAME `kaibosh` by default, `bid-euchre` or `kout`). Kaibosh and Bid Euchre are solved
//! exactly; Kout Bo is searched as the bots search it, to each lookahead's depth, by one
//! probe of whether the contract is made and, for comparison, by counting the tricks.

use std::time::Instant;

use calltrump_bots::{Bot, BotGame, Decision, Lookahead, Position, RulesBot, Solver};
use calltrump_engine::{seeded, ActionList, BidEuchre, GameRules, Kaibosh, Kout, Seat, Turn};

/// A first lead, and the makers' team and bid where the points hang on nothing else
/// (Kout Bo).
type Lead = (Position, Option<(usize, u8)>);

fn first_leads<G: BotGame>(any: &GameRules, rules: &G::Rules, count: usize) -> Vec<Lead> {
    let mut rng = seeded(7);
    let mut out = Vec::new();
    let mut game = G::new(rules, Seat(0));
    let mut legal = ActionList::new();
    while out.len() < count {
        match game.turn() {
            Turn::Chance => game.deal_random(&mut rng),
            Turn::Over => game = G::new(rules, Seat(0)),
            Turn::Seat(seat) => {
                if let Some((position, _)) = game.position() {
                    out.push((position, game.contract_tricks()));
                    game = G::new(rules, Seat(0));
                    continue;
                }
                legal.clear();
                game.legal_actions(&mut legal);
                let obs = game.observation(seat);
                let decision = Decision {
                    rules: any,
                    observation: &obs,
                    legal: &legal,
                };
                let action = RulesBot.choose(&decision, &mut rng);
                game.apply(action).expect("the rules bot plays legally");
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = args.first().and_then(|a| a.parse().ok()).unwrap_or(5000);
    let game = args.get(1).map_or("kaibosh", String::as_str);
    let mut options = serde_json::Map::new();
    if game != "kout" {
        // No game ends on a deal limit while the leads are gathered (Kout Bo has none).
        options.insert("deals".into(), 1_000_000.into());
    }
    let any = GameRules::from_header(game, args.get(2).map(String::as_str), &options)
        .unwrap_or_else(|e| panic!("{e}"));
    match &any {
        GameRules::Kaibosh(r) => {
            let leads = first_leads::<Kaibosh>(&any, r, count);
            report("exact", &leads, |solver, (p, _)| {
                solver.solve(p);
            });
        }
        GameRules::BidEuchre(r) => {
            let leads = first_leads::<BidEuchre>(&any, r, count);
            report("exact", &leads, |solver, (p, _)| {
                solver.solve(p);
            });
        }
        GameRules::Kout(r) => {
            let leads = first_leads::<Kout>(&any, r, count);
            for lookahead in [Lookahead::Near, Lookahead::Far] {
                let depth = Kout::search_depth(r, lookahead);
                let name = format!("{lookahead:?}, {depth:?} tricks ahead");
                report(
                    &format!("{name}, probe"),
                    &leads,
                    |solver, (p, contract)| {
                        let (makers, bid) = contract.expect("a Kout Bo hand has a contract");
                        solver.makes_to(p, makers, bid, depth);
                    },
                );
                report(&format!("{name}, count"), &leads, |solver, (p, _)| {
                    solver.solve_to(p, depth);
                });
            }
        }
    }
}

/// Prints the percentiles of `search` over `leads`, with a fresh solver.
fn report(name: &str, leads: &[Lead], mut search: impl FnMut(&mut Solver, &Lead)) {
    println!("{name}:");
    let mut solver = Solver::new();
    let mut nodes = Vec::with_capacity(leads.len());
    let mut times: Vec<f64> = leads
        .iter()
        .map(|lead| {
            let before = solver.nodes();
            let start = Instant::now();
            search(&mut solver, std::hint::black_box(lead));
            let time = start.elapsed().as_secs_f64() * 1e3;
            nodes.push(solver.nodes() - before);
            time
        })
        .collect();
    let mut per_node: Vec<f64> = times
        .iter()
        .zip(&nodes)
        .map(|(t, &n)| t * 1e6 / n as f64)
        .collect();
    per_node.sort_by(f64::total_cmp);
    println!(
        "ns per node: median {:.0}, p99 {:.0} (a high p99 means the core was busy elsewhere)",
        per_node[per_node.len() / 2],
        per_node[(per_node.len() - 1) * 99 / 100]
    );
    nodes.sort_unstable();
    let q = |q: f64| nodes[((nodes.len() - 1) as f64 * q) as usize];
    println!(
        "nodes: median {}, p90 {}, p99 {}, max {}",
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0)
    );
    times.sort_by(f64::total_cmp);
    let pct = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{} deals: median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms, mean {:.3} ms",
        times.len(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0),
        times.iter().sum::<f64>() / times.len() as f64
    );
}
