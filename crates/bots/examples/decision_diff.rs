//! Where bot A's decisions differ from bot B's, and what the differences cost, on
//! duplicate hands: `cargo run --release -p calltrump-bots --example decision_diff -- A B
//! [GAME [VARIANT]] [hands]` (e.g. `expert@140ms expert kaibosh 150`).
//!
//! Each hand is played three times from the same cards: by B in every seat (the
//! reference), then with A at team 0's seats, then at team 1's. At each of A's decisions
//! B is asked too, with the same random stream; from A's first decision that differs
//! from B's the hand goes its own way. A half's cost is A's team's net points minus the
//! reference's for that team, counted against the phase (call or card play) of that
//! first difference (each half's cost is counted in points of the hand, so the halves'
//! costs sum to twice the arena's A − B for the deal). Every decision draws from a stream of its hand and its index, so the
//! reference and a half where A agrees with B throughout play identically.

use std::collections::BTreeMap;

use calltrump_bots::{bot_by_name, Bot, Decision};
use calltrump_engine::{seeded, stream, Action, AnyGame, Game, GameRules, Seat, Turn};

/// The first of A's decisions that differed from B's in a half.
struct Divergence {
    is_play: bool,
    a: Action,
    b: Action,
}

/// Plays one hand; with `a_team`, A sits at that team's seats. Returns team 0's net
/// points and A's first divergence from B.
fn play_half(
    rules: &GameRules,
    hand: u64,
    a_team: Option<usize>,
    a: &mut dyn Bot,
    b: &mut dyn Bot,
) -> (i32, Option<Divergence>) {
    let seats = AnyGame::new(rules, Seat(0)).seats() as u64;
    let mut game = AnyGame::new(rules, Seat((hand % seats) as u8));
    game.deal_random(&mut seeded(hand));
    let mut first = None;
    let mut index = 0;
    while let Turn::Seat(seat) = game.turn() {
        let legal = game.legal_action_list();
        let observation = game.observation(seat);
        let d = Decision {
            rules,
            observation: &observation,
            legal: &legal,
        };
        let rng = stream(hand, index);
        index += 1;
        let action = if Some(seat.team().index()) == a_team {
            let by_a = a.choose(&d, &mut rng.clone());
            if first.is_none() && legal.len() > 1 {
                let by_b = b.choose(&d, &mut rng.clone());
                if by_a != by_b {
                    first = Some(Divergence {
                        is_play: matches!(by_a, Action::Play(_)),
                        a: by_a,
                        b: by_b,
                    });
                }
            }
            by_a
        } else {
            b.choose(&d, &mut rng.clone())
        };
        game.apply(action).expect("bots play legally");
    }
    let points = game.hand_summary().points.unwrap_or([0, 0]);
    (points[0] - points[1], first)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (a_name, b_name) = (args[0].clone(), args[1].clone());
    let game_name = args.get(2).cloned().unwrap_or_else(|| "kaibosh".into());
    let variant = args.get(3).filter(|v| v.parse::<u64>().is_err()).cloned();
    let hands: u64 = args
        .iter()
        .skip(2)
        .find_map(|a| a.parse().ok())
        .unwrap_or(100);
    let rules = GameRules::from_header(&game_name, variant.as_deref(), &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut a = bot_by_name(&a_name).unwrap_or_else(|e| panic!("{e}"));
    let mut b = bot_by_name(&b_name).unwrap_or_else(|e| panic!("{e}"));
    // The reference's own B, so that it is a second player to pass as A (never asked).
    let mut idle = bot_by_name(&b_name).unwrap_or_else(|e| panic!("{e}"));
    // phase -> (halves, net cost to A's team summed, halves lost, halves won)
    let mut by_phase: BTreeMap<&str, (u32, i64, u32, u32)> = BTreeMap::new();
    let mut calls: BTreeMap<String, (u32, i64)> = BTreeMap::new();
    // Each hand's A − B per deal as the arena counts it: the mean of the two halves.
    let mut per_deal = Vec::new();
    for hand in 0..hands {
        let mut pair = 0i64;
        let (reference, _) = play_half(&rules, hand, None, idle.as_mut(), b.as_mut());
        for team in 0..2 {
            let (net, first) = play_half(&rules, hand, Some(team), a.as_mut(), b.as_mut());
            let sign = if team == 0 { 1 } else { -1 };
            let cost = i64::from(sign * (net - reference));
            pair += cost;
            let phase = match &first {
                None => "same",
                Some(d) if d.is_play => "play",
                Some(_) => "call",
            };
            let entry = by_phase.entry(phase).or_default();
            entry.0 += 1;
            entry.1 += cost;
            entry.2 += u32::from(cost < 0);
            entry.3 += u32::from(cost > 0);
            if let Some(d) = first.filter(|d| !d.is_play) {
                let e = calls.entry(format!("{} for {}", d.a, d.b)).or_default();
                e.0 += 1;
                e.1 += cost;
            }
        }
        per_deal.push(pair as f64 / 2.0);
    }
    let n = per_deal.len() as f64;
    let mean = per_deal.iter().sum::<f64>() / n;
    let variance = per_deal.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half_width = 1.96 * (variance / n).sqrt();
    println!(
        "{a_name} against {b_name}, {game_name}, {hands} deals: A − B per deal {mean:+.2} [{:+.2}, {:+.2}]",
        mean - half_width,
        mean + half_width
    );
    for (phase, (n, cost, lost, won)) in &by_phase {
        println!("first difference {phase}: {n} halves, net {cost:+}, lost {lost}, won {won}");
    }
    println!("calls, A's for B's: count, net");
    for (call, (n, cost)) in &calls {
        println!("  {call}: {n}, {cost:+}");
    }
}
