//! The auction decisions of game records judged as `calltrump analyze` judges them (the
//! expert's evaluation, the same seeds), without judging the card play: one JSON line per
//! unforced auction decision, with the taken call's loss and mark, and the judge's own
//! noise: the call it would choose on other deals (seed + 1), judged on its deals
//! (`rival`, `rival_loss`, `rival_mark`). For the README's "Partners' auctions in Bid
//! Euchre".
//!
//! `cargo run --release -p calltrump-play --example auction_marks -- RECORDS SAMPLES`
//! (RECORDS: a file of games one a line, as `simulate --records` writes; SAMPLES: deals
//! per card play, calls get 60 per 150 of them, as `analyze --samples`).

use std::process::ExitCode;

use calltrump_bots::{evaluation_rng, Decision};
use calltrump_engine::{Action, AnyGame, CardBag, Game, Phase, Record, Turn};
use calltrump_play::analysis::{judge, Settings, Thresholds};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(samples)) = (args.get(1), args.get(2).and_then(|s| s.parse().ok()))
    else {
        eprintln!("usage: auction_marks RECORDS SAMPLES");
        return ExitCode::FAILURE;
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let settings = Settings::expert().with_samples(samples);
    for (g, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        if let Err(e) = judge_game(g, line, &settings) {
            eprintln!("{path}, game {}: {e}", g + 1);
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn judge_game(g: usize, line: &str, settings: &Settings) -> Result<(), String> {
    let record = Record::parse(line).map_err(|e| e.to_string())?;
    let (rules, first_dealer) = record.rules().map_err(|e| e.to_string())?;
    let thresholds = Thresholds::of(&rules);
    let mut bot = judge().with_budget(settings.play_samples, settings.call_samples);
    let mut game = AnyGame::new(&rules, first_dealer);
    for (h, hand) in record.hands.iter().enumerate() {
        let deal: Vec<CardBag> = hand
            .deal
            .iter()
            .map(|cards| cards.iter().filter_map(|c| c.parse().ok()).collect())
            .collect();
        game.deal(&deal).map_err(|e| e.to_string())?;
        for (i, text) in hand.actions.iter().enumerate() {
            let taken: Action = text.parse().map_err(|e| format!("{e}"))?;
            let Turn::Seat(seat) = game.turn() else {
                return Err(format!("hand {h}: complete before action {i}"));
            };
            let legal = game.legal_action_list();
            if game.phase() == Phase::Auction && legal.len() > 1 {
                let observation = game.observation(seat);
                let decision = Decision {
                    rules: game.rules(),
                    observation: &observation,
                    legal: &legal,
                };
                let mut rng = evaluation_rng(settings.seed, (h, i));
                let evaluation = bot
                    .evaluate(&decision, &[taken], &mut rng)
                    .map_err(|e| format!("hand {h}, action {i}: {e}"))?;
                let best = evaluation.actions[0].points;
                let value = |a: Action| {
                    evaluation
                        .actions
                        .iter()
                        .find(|v| v.action == a)
                        .map_or(best, |v| v.points)
                };
                let loss = best - value(taken);
                // The judge's own noise: its choice on other deals (seed + 1), judged.
                let mut other = evaluation_rng(settings.seed + 1, (h, i));
                let rival = bot
                    .evaluate(&decision, &[taken], &mut other)
                    .map_err(|e| format!("hand {h}, action {i}: {e}"))?
                    .actions[0]
                    .action;
                let rival_loss = best - value(rival);
                let before: Vec<String> = hand.actions[..i].to_vec();
                let actions: Vec<(String, f64)> = evaluation
                    .actions
                    .iter()
                    .map(|v| (v.action.to_string(), v.points))
                    .collect();
                let out = serde_json::json!({
                    "game": g, "hand": h, "index": i, "seat": seat.0,
                    "before": before, "taken": taken.to_string(),
                    "hand_cards": observation.hand.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                    "best": evaluation.actions[0].action.to_string(),
                    "loss": loss,
                    "rival": rival.to_string(), "rival_loss": rival_loss,
                    "rival_mark": thresholds.mark(rival_loss).map(|m| m.name()),
                    "mark": thresholds.mark(loss).map(|m| m.name()),
                    "actions": actions,
                });
                println!("{out}");
            }
            game.apply(taken).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
