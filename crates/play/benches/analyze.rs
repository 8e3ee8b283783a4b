//! `calltrump analyze` (the `calltrump_play` analysis) at its default setting (the expert's 150 deals per card play, 60
//! per call) on one core: whole games of every variant, played by `hard` bots
//! (`games.jsonl`, one record a line, made by `calltrump simulate --game G --variant V
//! --games 1 --seed 1 --bots hard --records FILE`, Kaibosh with `--option deals=10`).
//! The target: a Kaibosh game of ten hands in under 30 s.

use calltrump_engine::Record;
use calltrump_play::analysis::{analyze, Settings};
use divan::Bencher;

fn main() {
    divan::main();
}

/// The bench's games, by `game variant`.
fn game(name: &str) -> Record {
    include_str!("games.jsonl")
        .lines()
        .map(|line| Record::parse(line).expect("a valid record"))
        .find(|r| format!("{} {}", r.game, r.variant.as_deref().unwrap_or_default()) == name)
        .expect("the game is in games.jsonl")
}

fn analyse(bencher: Bencher, name: &str) {
    let record = game(name);
    bencher.bench_local(|| analyze(&record, &Settings::expert(), &mut || {}).expect("analysed"));
}

/// A Kaibosh game of ten hands.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn kaibosh_ten_hands(bencher: Bencher) {
    analyse(bencher, "kaibosh standard");
}

/// A whole game of each other variant: Bid Euchre 8 deals, Kout Bo to 101 (25 and 33
/// hands).
#[divan::bench(
    args = ["bid-euchre alexa", "bid-euchre simplified", "kout kout6", "kout kout4"],
    sample_count = 1,
    sample_size = 1
)]
fn whole_game(bencher: Bencher, name: &str) {
    analyse(bencher, name);
}
