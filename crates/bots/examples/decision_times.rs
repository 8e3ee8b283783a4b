//! Time per decision of a bot playing every seat of random hands, one core (the thread's
//! CPU time on Unix, so other loads on the machine count little):
//! `cargo run --release -p calltrump-bots --example decision_times -- BOT [GAME [VARIANT]] [hands]`
//! with GAME `kaibosh` (default), `bid-euchre` (`alexa`, `simplified`) or `kout`
//! (`kout6`, `kout4`).

use std::time::Instant;

use calltrump_bots::{bot_by_name, Decision};
use calltrump_engine::{seeded, stream, Action, AnyGame, Game, GameRules, Seat, Turn};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().cloned().unwrap_or_else(|| "hard".to_string());
    let game_name = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "kaibosh".to_string());
    let variant = args.get(2).filter(|v| v.parse::<u64>().is_err()).cloned();
    let hands: u64 = args
        .iter()
        .skip(2)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let mut bot = bot_by_name(&name).unwrap_or_else(|e| panic!("{e}"));
    let rules = GameRules::from_header(&game_name, variant.as_deref(), &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = seeded(1);
    // Milliseconds per decision with a choice: calls (bids, trump, exchanges), then plays.
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut decision = 0;
    for hand in 0..hands {
        let mut game = AnyGame::new(&rules, Seat(0));
        let seats = game.seats() as u64;
        game = AnyGame::new(&rules, Seat((hand % seats) as u8));
        game.deal_random(&mut rng);
        while let Turn::Seat(seat) = game.turn() {
            let legal = game.legal_action_list();
            let obs = game.observation(seat);
            let d = Decision {
                rules: &rules,
                observation: &obs,
                legal: &legal,
            };
            let (start, cpu) = (Instant::now(), thread_cpu_ns());
            let action = bot.choose(&d, &mut stream(7, decision));
            let ms = match (cpu, thread_cpu_ns()) {
                (Some(a), Some(b)) => (b - a) as f64 / 1e6,
                _ => start.elapsed().as_secs_f64() * 1e3,
            };
            decision += 1;
            if legal.len() > 1 {
                times[usize::from(matches!(action, Action::Play(_)))].push(ms);
            }
            game.apply(action).expect("bots play legally");
        }
    }
    let all: Vec<f64> = times.concat();
    if !all.is_empty() {
        println!(
            "{name} {game_name} every decision with a choice: {}, mean {:.1} ms",
            all.len(),
            all.iter().sum::<f64>() / all.len() as f64
        );
    }
    for (label, mut t) in ["calls", "plays"].into_iter().zip(times) {
        if t.is_empty() {
            continue;
        }
        t.sort_by(f64::total_cmp);
        let q = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize];
        println!(
            "{name} {game_name} {label}: {} decisions, mean {:.1} ms, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            t.len(),
            t.iter().sum::<f64>() / t.len() as f64,
            q(0.5),
            q(0.99),
            q(1.0)
        );
    }
}

/// Nanoseconds of CPU time this thread has used, where the system has a thread clock.
#[cfg(unix)]
fn thread_cpu_ns() -> Option<u64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Some(t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
}

#[cfg(not(unix))]
fn thread_cpu_ns() -> Option<u64> {
    None
}
