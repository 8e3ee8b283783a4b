//! `calltrump verify` as a user runs it, and the deal sources that `play`, `simulate`
//! and `night` write into their records (docs/fair-deals.md).

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{
    and_path, assert_contains, calltrump, read_json, run_to_file, simulated, succeeded, temp_path,
    text, words,
};

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/fair-deal")
        .join(name)
}

fn fixture(name: &str) -> Value {
    read_json(&fixture_path(name))
}

/// `verify -` of `record`: the exit code and standard output.
fn verify(record: &Value) -> (Option<i32>, String) {
    let out = calltrump(&["verify", "-"], &record.to_string());
    (out.status.code(), text(&out.stdout))
}

/// `verify -` of `record`, which must exit `code`: its standard output.
fn verify_exits(record: &Value, code: i32) -> String {
    let (exit, stdout) = verify(record);
    assert_eq!(exit, Some(code), "{stdout}");
    stdout
}

#[test]
fn every_committed_record_verifies_hand_by_hand() {
    for name in [
        "kaibosh.json",
        "bid-euchre-alexa.json",
        "bid-euchre-simplified-cut-left.json",
        "kout6.json",
        "kout4-two-undealt-cut-right.json",
    ] {
        let out = calltrump(&["verify", fixture_path(name).to_str().unwrap()], "");
        let stdout = text(&out.stdout);
        assert!(
            out.status.success(),
            "{name}: {stdout}{}",
            text(&out.stderr)
        );
        let lines: Vec<&str> = stdout.lines().collect();
        let hands = fixture(name)["hands"].as_array().unwrap().len();
        assert_eq!(lines.len(), hands + 1, "{stdout}");
        for (h, line) in lines[..hands].iter().enumerate() {
            assert!(
                line.starts_with(&format!("hand {}: ok (committed; dealer ", h + 1)),
                "{line}"
            );
        }
        assert_eq!(
            lines[hands],
            format!("{hands} hands: every deal checks out")
        );
    }
}

#[test]
fn the_cutting_seat_follows_the_rules_and_the_option() {
    for (name, says) in [
        // Kaibosh: the seat right of the dealer, the one before it in the order of play.
        (
            "kaibosh.json",
            "hand 1: ok (committed; dealer 0, cut 23 by seat 3)",
        ),
        // Kout Bo 4 with `cut: right`: counter-clockwise, the seat after the dealer.
        (
            "kout4-two-undealt-cut-right.json",
            "hand 1: ok (committed; dealer 3, cut 36 by seat 0)",
        ),
    ] {
        let (_, stdout) = verify(&fixture(name));
        assert!(stdout.contains(says), "{name}: {stdout}");
    }
}

#[test]
fn a_changed_card_fails_naming_the_hand_and_the_seats() {
    let mut record = fixture("kaibosh.json");
    let deal = &mut record["hands"][2]["deal"];
    let (a, b) = (deal[1][0].clone(), deal[3][5].clone());
    deal[1][0] = b.clone();
    deal[3][5] = a.clone();
    let stdout = verify_exits(&record, 1);
    let (a, b) = (a.as_str().unwrap(), b.as_str().unwrap());
    assert_contains(
        &stdout,
        &[
            "hand 1: ok",
            "hand 2: ok",
            &format!("hand 3: seat 1: the record deals {b}, the seed deals {a}"),
            &format!("hand 3: seat 3: the record deals {a}, the seed deals {b}"),
        ],
    );
    assert!(
        stdout.ends_with("3 hands: 1 does not check out\n"),
        "{stdout}"
    );
}

#[test]
fn a_changed_cut_fails_naming_the_hand() {
    let mut record = fixture("kout6.json");
    let cut = record["hands"][1]["fair_deal"]["cut"].as_u64().unwrap();
    record["hands"][1]["fair_deal"]["cut"] = (cut % 53 + 1).into();
    let stdout = verify_exits(&record, 1);
    assert!(stdout.starts_with("hand 1: ok"), "{stdout}");
    assert_contains(&stdout, &["hand 2: seat "]);
    assert!(!stdout.contains("hand 1: seat"), "{stdout}");
    record["hands"][1]["fair_deal"]["cut"] = 54.into();
    let stdout = verify_exits(&record, 1);
    assert_contains(
        &stdout,
        &["hand 2: the cut 54 is not from 1 to 53 (the deck's 54 cards less one)"],
    );
}

#[test]
fn a_changed_seed_fails_naming_the_hand() {
    let mut record = fixture("bid-euchre-alexa.json");
    let seed = record["hands"][0]["fair_deal"]["seed"]
        .as_str()
        .unwrap()
        .to_string();
    let changed = format!(
        "{}{}",
        if seed.starts_with('a') { "b" } else { "a" },
        &seed[1..]
    );
    record["hands"][0]["fair_deal"]["seed"] = changed.into();
    let stdout = verify_exits(&record, 1);
    assert!(
        stdout.starts_with("hand 1: the seed does not match the commitment\n"),
        "{stdout}"
    );
    assert_contains(&stdout, &["hand 2: ok"]);
    // A hand whose seed is still secret cannot be checked yet.
    record["hands"][1]["fair_deal"]
        .as_object_mut()
        .unwrap()
        .remove("seed");
    let (_, stdout) = verify(&record);
    assert_contains(&stdout, &["hand 2: the seed is not revealed"]);
}

/// A record served by a table while a hand is played (its deal and seed not shown yet):
/// the hands before it are checked, the one in play is named and not failed; a hand
/// whose deal is shown but whose seed is withheld still fails.
#[test]
fn a_hand_still_in_play_is_named_and_the_hands_before_it_checked() {
    let mut record = fixture("kaibosh.json");
    let hands = record["hands"].as_array().unwrap().len();
    let last = &mut record["hands"][hands - 1];
    for seat in last["deal"].as_array_mut().unwrap() {
        *seat = Value::Array(vec![]);
    }
    last["fair_deal"].as_object_mut().unwrap().remove("seed");
    let stdout = verify_exits(&record, 0);
    assert_contains(
        &stdout,
        &[
            "hand 1: ok (committed",
            &format!("hand {hands}: in play, not checked"),
            &format!("{} hands: every deal checks out", hands - 1),
        ],
    );

    // Only the hand in play: nothing is over to check.
    let mut first = fixture("kaibosh.json");
    first["hands"] = Value::Array(vec![record["hands"][hands - 1].clone()]);
    let stdout = verify_exits(&first, 0);
    assert_contains(&stdout, &["hand 1: in play", "no hand is over yet"]);

    // Dealt in the open but the seed kept back: that does not check out.
    let mut withheld = fixture("kaibosh.json");
    withheld["hands"][hands - 1]["fair_deal"]
        .as_object_mut()
        .unwrap()
        .remove("seed");
    let stdout = verify_exits(&withheld, 1);
    assert_contains(
        &stdout,
        &[&format!("hand {hands}: the seed is not revealed")],
    );
}

#[test]
fn a_record_without_a_deal_source_does_not_verify_but_still_replays() {
    let record = r#"{"game":"kaibosh","hands":[{"deal":[["9S","TS","JS","QS","KS","AS"],["9H","TH","JH","QH","KH","AH"],["9D","TD","JD","QD","KD","AD"],["9C","TC","JC","QC","KC","AC"]],"actions":["pass"]}]}"#;
    let out = calltrump(&["verify", "-"], record);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "hand 1: no fair-deal block, and the header's deal_source states no seeded deals\n\
         1 hand: 1 does not check out\n"
    );
    assert!(calltrump(&["replay", "-"], record).status.success());
    // Not a record at all: one line on standard error.
    let out = calltrump(&["verify", "-"], "{");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("invalid record"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn simulated_games_say_their_deals_are_seeded_and_verify() {
    for variant in [("kaibosh", "standard"), ("kout", "kout4")] {
        let lines = simulated(variant, 3, 8, "random", &[]);
        for (index, line) in lines.iter().enumerate() {
            let record: Value = serde_json::from_str(line).unwrap();
            assert_eq!(
                record["deal_source"],
                serde_json::json!({"method": "seeded", "seed": 8, "stream": 2 * index,
                    "first_dealer_drawn": true})
            );
            let stdout = verify_exits(&record, 0);
            assert_contains(&stdout, &["hand 1: ok (seeded; dealer "]);
        }
    }
}

#[test]
fn play_with_a_seed_deals_seeded_and_without_one_committed() {
    let seeded = temp_path("seeded.json");
    let out = calltrump(
        &words(&and_path("play --seed 5 --bots random --record", &seeded)),
        &common::first_choices(30),
    );
    // The input ends before the game does: exit 1, the record saved all the same.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let record: Value = read_json(&seeded);
    assert_eq!(record["deal_source"]["method"], "seeded");
    assert!(record["hands"][0].get("fair_deal").is_none());
    verify_exits(&record, 0);

    // Without --seed: each hand committed before its cut, the seed told after it. The
    // player answers the cut prompt with a number when it comes.
    let (committed, out) = run_to_file(
        "committed.json",
        "play --game kout --variant kout4 --option cut=right --bots random --record",
        &common::first_choices(100),
    );
    // Secret deals: the game may end within the input (exit 0) or not (exit 1).
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    assert_contains(
        &stdout,
        &[
            "committed deals",
            "committed to the deal ",
            "Hand 1's seed: ",
        ],
    );
    let record: Value = read_json(&committed);
    assert_eq!(record["deal_source"]["method"], "committed");
    assert_eq!(record["options"]["cut"], "right");
    let block = &record["hands"][0]["fair_deal"];
    assert_eq!(block["commitment"].as_str().unwrap().len(), 64);
    assert_eq!(block["seed"].as_str().unwrap().len(), 64);
    verify_exits(&record, 0);
    // The commitment shown before the deal, with its dealer, is the one recorded: its
    // first 8 digits on screen, all 64 in the record.
    let dealer = record["first_dealer"].as_u64().unwrap();
    let dealer = match dealer {
        0 => "you deal".to_string(),
        n => format!("seat {n} ("),
    };
    let shown = format!(
        "committed to the deal {}… (in full in the record)",
        &block["commitment"].as_str().unwrap()[..8]
    );
    let line = stdout
        .lines()
        .find(|line| line.starts_with("Hand 1: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.contains(&dealer) && line.contains(&shown), "{line}");
    assert!(!stdout.contains(block["commitment"].as_str().unwrap()));
}

#[test]
fn night_records_say_their_deals_are_seeded() {
    let (path, out) = run_to_file(
        "night.json",
        "night --players A,B,C,D --sets 1 --bots random --seed 3 --record",
        "",
    );
    succeeded(&out);
    let night: Value = read_json(&path);
    let record = &night["sets"][0]["record"];
    assert_eq!(
        record["deal_source"],
        serde_json::json!({"method": "seeded", "seed": 3, "stream": 0})
    );
    verify_exits(record, 0);
}

/// A committed game stopped in the middle of a hand and resumed: the stopped hand's seed
/// is in the record, so the record checks out at every stop and once the game is over.
#[test]
fn a_committed_game_stopped_midway_and_resumed_verifies() {
    let path = temp_path("stopped-midway.json");
    let record = || -> Value { read_json(&path) };
    let out = calltrump(
        &words(&format!("play --bots random --record {}", path.display())),
        &common::first_choices(2),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stopped = record();
    assert_eq!(stopped["deal_source"]["method"], "committed");
    verify_exits(&stopped, 0);

    let out = calltrump(
        &["play", "--resume", path.to_str().unwrap()],
        &common::first_choices(200),
    );
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    let resumed = record();
    assert!(resumed["hands"].as_array().unwrap().len() > 1);
    verify_exits(&resumed, 0);
}
