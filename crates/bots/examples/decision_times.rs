//! Time per decision of a bot playing every seat of random Kaibosh hands, one core:
//! `cargo run --release -p calltrump-bots --example decision_times -- BOT [hands]`.

use std::time::Instant;

use calltrump_bots::{bot_by_name, Decision};
use calltrump_engine::{
    seeded, stream, Action, Game, GameRules, Kaibosh, KaiboshRules, Seat, Turn,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "hard".to_string());
    let hands: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let mut bot = bot_by_name(&name).unwrap_or_else(|e| panic!("{e}"));
    let rules = KaiboshRules {
        target: None,
        ..KaiboshRules::default()
    };
    let any = GameRules::Kaibosh(rules);
    let mut rng = seeded(1);
    // Milliseconds per decision: calls (bids, misdeals, trump), then card plays.
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut decision = 0;
    for hand in 0..hands {
        let mut game = Kaibosh::new(&rules, Seat((hand % 4) as u8));
        game.deal_random(&mut rng);
        while let Turn::Seat(seat) = game.turn() {
            let legal = game.legal_action_list();
            let obs = game.observation(seat);
            let d = Decision {
                rules: &any,
                observation: &obs,
                legal: &legal,
            };
            let start = Instant::now();
            let action = bot.choose(&d, &mut stream(7, decision));
            let ms = start.elapsed().as_secs_f64() * 1e3;
            decision += 1;
            if legal.len() > 1 {
                times[usize::from(matches!(action, Action::Play(_)))].push(ms);
            }
            game.apply(action).expect("bots play legally");
        }
    }
    for (label, mut t) in ["calls", "plays"].into_iter().zip(times) {
        if t.is_empty() {
            continue;
        }
        t.sort_by(f64::total_cmp);
        let q = |q: f64| t[((t.len() - 1) as f64 * q) as usize];
        println!(
            "{name} {label}: {} decisions, median {:.1} ms, p90 {:.1} ms, max {:.1} ms",
            t.len(),
            q(0.5),
            q(0.9),
            q(1.0)
        );
    }
}
