//! Two bots in Kaibosh partnerships over the same random deals, each deal played twice
//! with the teams swapped: `cargo run --release -p calltrump-bots --example duel -- A B [deals]`.
//! Prints A's average points per hand over B's, with a 95% confidence interval.

use calltrump_bots::{bot_by_name, Bot, Decision};
use calltrump_engine::{
    seeded, stream, Game, GameRules, HandStart, Kaibosh, KaiboshRules, Seat, Turn,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let a = args.next().unwrap_or_else(|| "rules".to_string());
    let b = args.next().unwrap_or_else(|| "random".to_string());
    let deals: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let mut bots: [Box<dyn Bot>; 2] = [
        bot_by_name(&a).unwrap_or_else(|e| panic!("{e}")),
        bot_by_name(&b).unwrap_or_else(|e| panic!("{e}")),
    ];
    let rules = KaiboshRules {
        target: None,
        ..KaiboshRules::default()
    };
    let any = GameRules::Kaibosh(rules);
    let mut margins = Vec::new();
    for deal in 0..deals {
        let mut margin = 0.0;
        for swap in 0..2 {
            let start = HandStart {
                deals_played: 0,
                dealer: Seat((deal % 4) as u8),
                scores: [0, 0],
            };
            let mut game = Kaibosh::resume(&rules, start);
            game.deal_random(&mut seeded(deal));
            let mut step = 0;
            while let Turn::Seat(seat) = game.turn() {
                let legal = game.legal_action_list();
                let obs = game.observation(seat);
                let d = Decision {
                    rules: &any,
                    observation: &obs,
                    legal: &legal,
                };
                // Team 0 is A in the first play of the deal, B in the second.
                let who = (seat.team().index() + swap) % 2;
                let action = bots[who].choose(&d, &mut stream(deal * 2 + swap as u64, step));
                step += 1;
                game.apply(action).expect("bots play legally");
            }
            let points = game.hand_summary().points.unwrap_or([0, 0]);
            let a_team = swap;
            margin += f64::from(points[a_team] - points[1 - a_team]);
        }
        margins.push(margin / 2.0);
    }
    let n = margins.len() as f64;
    let mean = margins.iter().sum::<f64>() / n;
    let var = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    println!(
        "{a} vs {b}: {mean:+.3} points per hand for {a} (95% CI ±{:.3}) over {deals} deals played both ways",
        1.96 * (var / n).sqrt()
    );
}
