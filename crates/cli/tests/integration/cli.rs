//! The `calltrump` binary as a user runs it: exit codes, output and messages.

use crate::common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use common::{
    and_path, assert_contains, calltrump, fails, json_of, json_out, json_to_file, read_json,
    replayed, run_to_file, simulated, succeeded, succeeds, temp_path, text, words, KAIBOSH_DEAL,
    VARIANTS,
};

fn kaibosh_record(actions: &[&str]) -> String {
    let actions: Vec<String> = actions.iter().map(|a| format!("\"{a}\"")).collect();
    format!(
        r#"{{"game":"kaibosh","hands":[{{"deal":{KAIBOSH_DEAL},"actions":[{}]}}]}}"#,
        actions.join(",")
    )
}

#[test]
fn replay_prints_the_replay_output_of_a_good_record() {
    let record = kaibosh_record(&["bid 2", "pass", "pass", "pass", "trump S", "play 9H"]);
    let replay = replayed(&record);
    let hand = &replay["hands"][0];
    assert_eq!(hand["outcome"], "in-progress");
    assert_eq!(hand["declarer"], 1);
    assert_eq!(hand["contract"], "bid 2");
    assert_eq!(hand["trump"], "S");
    assert_eq!(hand["points"], Value::Null);
    assert_eq!(replay["finished"], false);
    assert_eq!(replay["winner"], Value::Null);
}

#[test]
fn replay_reads_a_file() {
    let path = temp_path("good.json");
    std::fs::write(&path, kaibosh_record(&["pass", "pass", "pass", "pass"])).unwrap();
    let replay = json_of(&["replay", path.to_str().unwrap()], "");
    assert_eq!(replay["hands"][0]["outcome"], "thrown-in");
}

#[test]
fn replay_rejects_a_broken_rule_with_one_line() {
    let record = kaibosh_record(&["bid 2", "pass", "pass", "pass", "trump S", "play AS"]);
    let out = calltrump(&["replay", "-"], &record);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("hand 0, action 5 \"play AS\": seat 1 does not hold AS"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn replay_rejects_bad_input_without_panicking() {
    for (input, expected) in [
        ("{not json", "invalid record"),
        (r#"{"game":"chess","hands":[]}"#, "unknown game \"chess\""),
        (
            r#"{"game":"kaibosh","options":{"colour":1},"hands":[]}"#,
            "unknown option \"colour\"",
        ),
        (
            r#"{"game":"kaibosh","options":{"target":0},"hands":[]}"#,
            "option \"target\"",
        ),
        (
            r#"{"game":"kaibosh","hands":[{"deal":[["9S","TS","JS","QS","KS","ZZ"],[],[],[]],"actions":[]}]}"#,
            "hand 0: seat 0's cards: unknown card \"ZZ\"",
        ),
        (
            r#"{"game":"kaibosh","hands":[{"deal":[["9S","9S","JS","QS","KS","AS"],["9H","TH","JH","QH","KH","AH"],["9D","TD","JD","QD","KD","AD"],["9C","TC","JC","QC","KC","AC"]],"actions":[]}]}"#,
            "hand 0: 9S is dealt more times",
        ),
    ] {
        let out = calltrump(&["replay", "-"], input);
        assert_eq!(out.status.code(), Some(1), "{input}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expected), "{input}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn replay_of_a_missing_file_says_which() {
    assert_contains(
        &fails(&["replay", "/no/such/record.json"], ""),
        &["/no/such/record.json"],
    );
}

#[test]
fn simulate_summarises_games_and_saves_records_that_replay() {
    let (records, summary) = json_to_file(
        "sim.jsonl",
        "simulate --game kaibosh --games 12 --seed 5 --option deals=6 --json --records",
    );
    assert_eq!(summary["games"], 12);
    let wins = summary["wins"][0].as_u64().unwrap() + summary["wins"][1].as_u64().unwrap();
    assert_eq!(wins + summary["draws"].as_u64().unwrap(), 12);
    assert_eq!(summary["hands"], 72);
    let lines = std::fs::read_to_string(&records).unwrap();
    assert_eq!(lines.lines().count(), 12);
    for line in lines.lines() {
        let replay = replayed(line);
        assert_eq!(replay["finished"], true);
        assert_eq!(replay["hands"].as_array().unwrap().len(), 6);
    }
}

#[test]
fn simulate_is_reproducible_from_its_seed() {
    let args = [
        "simulate", "--games", "5", "--seed", "9", "--option", "deals=4", "--json",
    ];
    let first = calltrump(&args, "");
    let second = calltrump(&args, "");
    assert!(first.status.success());
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn simulate_rejects_a_wrong_number_of_bots() {
    assert_contains(
        &fails(&["simulate", "--bots", "random,random"], ""),
        &["4 seats"],
    );
}

#[test]
fn play_through_a_pipe_plays_a_whole_game_and_saves_it() {
    let record = temp_path("played.json");
    let moves = common::first_choices(250);
    let stdout = succeeds(
        &words(&and_path(
            "play --seed 11 --option deals=3 --record",
            &record,
        )),
        &moves,
    );
    assert_contains(&stdout, &["Your hand:", "Game over.", "Record saved"]);
    // The end says how to look back over the game.
    assert_contains(
        &stdout,
        &[&format!("analyze {} --html review.html", record.display())],
    );
    // Every trick names its winning seat, the hand's last trick included.
    let winners: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Trick "))
        .map(|l| l.split_once(": ").unwrap().1)
        .collect();
    assert!(!winners.is_empty(), "{stdout}");
    assert!(
        winners
            .iter()
            .all(|w| w.starts_with("seat ") || w.starts_with("you win it")),
        "{winners:?}"
    );
    let replayed = calltrump(&["replay", record.to_str().unwrap()], "");
    let replay: Value = serde_json::from_slice(&replayed.stdout).unwrap();
    assert_eq!(replay["finished"], true);
    assert_eq!(replay["hands"].as_array().unwrap().len(), 3);
    // Each played hand closes with its sixth trick and a line saying how the bid went.
    let played = replay["hands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["outcome"] == "played")
        .count();
    let sixth_tricks = stdout
        .lines()
        .filter(|l| l.starts_with("Trick 6: "))
        .count();
    assert_eq!(sixth_tricks, played, "{stdout}");
    let closed = stdout
        .lines()
        .filter(|l| l.starts_with("Hand ") && l.contains(", took "))
        .count();
    assert_eq!(closed, played, "{stdout}");
}

#[test]
fn play_saves_the_record_on_quit() {
    let (record, out) = run_to_file("quit.json", "play --seed 2 --record", "quit\n");
    assert!(succeeded(&out).contains("Game stopped."));
    // Saved in the middle of a hand: the record shows no one's cards (they are sealed
    // beside it until the hand is over), so it does not replay yet.
    let saved = read_json(&record);
    assert_eq!(
        saved["hands"][0]["deal"],
        serde_json::json!([[], [], [], []])
    );
    let error = fails(&["replay", record.to_str().unwrap()], "");
    assert!(error.contains("hand 0: no deal shown"), "{error}");
}

#[test]
fn play_explains_an_illegal_choice_and_asks_again() {
    let moves = "bid 9\nfoo\n99\nquit\n";
    let stdout = succeeded(&run_to_file("illegal.json", "play --seed 4 --record", moves).1);
    assert_contains(&stdout, &["Not understood"]);
    // `99` alone is a bid of 99 in the auction, refused as `bid 9` is.
    assert_eq!(
        stdout
            .matches("Not allowed: you may bid 2, 3, 4, 5 or 6, kaibosh, or pass.")
            .count(),
        2,
        "{stdout}"
    );
}

/// Writes an outside bot as a Python script; `body` handles one decision message `m`
/// and prints the reply.
fn script_bot(name: &str, body: &str) -> String {
    let path = temp_path(name);
    let script = format!(
        r#"import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({{"type": "hello", "protocol": 1, "name": "{name}"}}), flush=True)
    elif m["type"] == "bye":
        break
    else:
{body}
"#
    );
    std::fs::write(&path, script).unwrap();
    format!("ext:python3 {}", path.display())
}

/// An arena of outside bot `bot` against `random` with the arguments `rest`.
fn against_random(bot: &str, rest: &[&str]) -> Output {
    calltrump(
        &[&["arena", "--a", bot, "--b", "random"], rest].concat(),
        "",
    )
}

/// A two-deal arena of outside bot `bot` against `random`, `limit` ms a decision.
fn two_deals_against_random(bot: &str, limit: &str) -> Output {
    against_random(bot, &["--deals", "2", "--time-limit-ms", limit])
}

const FIRST_LEGAL: &str =
    r#"        print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)"#;

#[test]
fn an_outside_bot_plays_a_whole_match() {
    let bot = script_bot("first_legal.py", FIRST_LEGAL);
    let report = json_of(
        &[
            "arena", "--a", &bot, "--b", "random", "--deals", "6", "--seed", "3", "--json",
        ],
        "",
    );
    assert_eq!(report["a"], "first_legal.py");
    assert_eq!(report["pairs"], 6);
    assert!(report["decision_time_ms"][0]["decisions"].as_u64().unwrap() > 0);
}

#[test]
fn the_observation_sent_to_an_outside_bot_holds_only_what_its_seat_may_see() {
    // The bot checks each observation itself and answers with an illegal action if it
    // finds a card it should not know: its hand must be a subset of what it was dealt,
    // and no action may show another seat's unplayed card.
    let body = r#"        o = m["observation"]
        dealt = list(o["dealt"])
        for card in o["hand"]:
            dealt.remove(card)
        keys = sorted(o.keys())
        ok = keys == ["actions", "dealt", "hand", "seat", "start"] and o["seat"] == m["seat"]
        print(json.dumps({"type": "action", "action": m["legal"][0] if ok else "bid 99"}), flush=True)"#;
    let bot = script_bot("checker.py", body);
    let out = calltrump(&["arena", "--a", &bot, "--b", "random", "--deals", "4"], "");
    succeeded(&out);
}

#[test]
fn each_kind_of_outside_misbehaviour_stops_the_match_with_its_message() {
    // Only the silent bot is held to a short limit: the others must not be timed out by
    // a busy machine before their fault shows.
    for (name, body, limit, expected) in [
        (
            "illegal.py",
            r#"        print(json.dumps({"type": "action", "action": "bid 99"}), flush=True)"#,
            "20000",
            "sent the illegal action \"bid 99\"",
        ),
        (
            "garbage.py",
            r#"        print("this is not json", flush=True)"#,
            "20000",
            "sent bad JSON",
        ),
        (
            "nonsense.py",
            r#"        print(json.dumps({"type": "action", "action": "dance"}), flush=True)"#,
            "20000",
            "which is not an action",
        ),
        (
            "silent.py",
            "        import time; time.sleep(5)",
            "300",
            "sent nothing within 300 ms",
        ),
        (
            "quitter.py",
            "        sys.exit(0)",
            "20000",
            "without answering",
        ),
    ] {
        let bot = script_bot(name, body);
        let out = two_deals_against_random(&bot, limit);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expected), "{name}: {stderr}");
        assert!(
            stderr.contains(name),
            "{name}: the message names the bot: {stderr}"
        );
        assert!(
            stderr.contains("deal "),
            "{name}: the message names the deal: {stderr}"
        );
    }
}

/// Whether process `pid` still runs; a zombie waiting to be reaped does not.
#[cfg(target_os = "linux")]
fn runs(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state letter follows the command name, which is in parentheses.
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// Waits up to ten seconds (a loaded machine may be slow) for `pid` to end.
#[cfg(target_os = "linux")]
fn ends_soon(pid: &str) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while runs(pid) {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    true
}

#[test]
#[cfg(target_os = "linux")]
fn an_outside_bot_leaves_no_process_behind() {
    // The bot's shell starts a sleeper that never reads its input, notes its own pid and
    // the sleeper's, and becomes the bot (`exec`). Whether the bot times out or the match
    // ends well, neither may live on.
    for (name, body, limit, succeeds) in [
        (
            "silent_parent.py",
            "        import time; time.sleep(60)",
            "300",
            false,
        ),
        ("legal_parent.py", FIRST_LEGAL, "20000", true),
    ] {
        let bot_pid = temp_path(&format!("{name}.pid"));
        let sleeper_pid = temp_path(&format!("{name}.sleeper.pid"));
        let bot = script_bot(name, body);
        // The sleeper's error output would otherwise hold this test's pipe open.
        let command = format!(
            "ext:sleep 300 2>/dev/null & echo $! > '{}'; echo $$ > '{}'; exec {}",
            sleeper_pid.display(),
            bot_pid.display(),
            bot.strip_prefix("ext:").unwrap()
        );
        let out = two_deals_against_random(&command, limit);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.success(), succeeds, "{name}: {stderr}");
        if !succeeds {
            assert_contains(&stderr, &["sent nothing within 300 ms"]);
        }
        for pid_file in [&bot_pid, &sleeper_pid] {
            let pid = std::fs::read_to_string(pid_file).unwrap();
            let pid = pid.trim();
            assert!(
                ends_soon(pid),
                "{name}: process {pid} ({pid_file:?}) lives on"
            );
        }
    }
}

/// An outside bot `name` that plays the first legal action and, once its loop is over
/// after `bye`, runs `before` and then writes `bye` to a new file `mark`: the bot and
/// the mark's path.
fn bot_marking_its_exit(name: &str, mark: &str, before: &str) -> (String, PathBuf) {
    let mark = temp_path(mark);
    let _ = std::fs::remove_file(&mark);
    let bot = script_bot(name, FIRST_LEGAL);
    let path = bot.strip_prefix("ext:python3 ").unwrap();
    let script = std::fs::read_to_string(path).unwrap();
    let exit = format!(
        "{before}open({:?}, \"w\").write(\"bye\")\n",
        mark.display().to_string()
    );
    std::fs::write(path, format!("{script}{exit}")).unwrap();
    (bot, mark)
}

#[test]
fn a_well_behaved_outside_bot_exits_by_itself_at_the_end() {
    // The bot writes a mark only after `bye`, once its loop is over: it must not be
    // killed before it can.
    let (bot, mark) = bot_marking_its_exit("clean_exit.py", "clean_exit.mark", "");
    let out = calltrump(&["arena", "--a", &bot, "--b", "random", "--deals", "2"], "");
    succeeded(&out);
    assert_eq!(std::fs::read_to_string(&mark).unwrap(), "bye");
}

#[test]
fn calltrump_bot_speaks_the_protocol_as_an_outside_bot() {
    let me = env!("CARGO_BIN_EXE_calltrump");
    let bot = format!("ext:{me} bot --level random --seed 4");
    let report = json_of(
        &[
            "arena", "--a", &bot, "--b", "random", "--deals", "5", "--json",
        ],
        "",
    );
    assert_eq!(report["a"], "calltrump random");
}

#[test]
fn arena_results_do_not_depend_on_the_thread_count() {
    let run = |threads: &str| {
        let mut report = json_of(
            &[
                "arena",
                "--a",
                "random",
                "--b",
                "random",
                "--deals",
                "30",
                "--seed",
                "8",
                "--threads",
                threads,
                "--json",
            ],
            "",
        );
        // Decision times are measured, not computed: everything else must agree.
        report.as_object_mut().unwrap().remove("decision_time_ms");
        report
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn arena_writes_a_csv_row_per_deal_and_a_plot() {
    let csv = temp_path("arena.csv");
    let svg = temp_path("arena.svg");
    let out = calltrump(
        &words(&format!(
            "arena --a random --b random --deals 10 --csv {} --plot {}",
            csv.display(),
            svg.display()
        )),
        "",
    );
    succeeded(&out);
    let rows = std::fs::read_to_string(&csv).unwrap();
    // The line naming the match, the header, a row per deal.
    assert_eq!(rows.lines().count(), 12);
    assert!(rows.starts_with("# arena game=kaibosh "));
    assert!(rows.lines().nth(1).unwrap().starts_with("index,"));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));
}

/// `arena --game kaibosh --a rules --b B --deals 6 --json` with `extra` arguments.
fn small_arena(b: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "arena", "--game", "kaibosh", "--a", "rules", "--b", b, "--deals", "6", "--json",
    ];
    args.extend_from_slice(extra);
    calltrump(&args, "")
}

#[test]
fn a_stopped_arena_run_resumed_reports_as_if_played_in_one_go() {
    let one_go = json_out(&small_arena("random", &["--threads", "2"]));
    let csv = temp_path("resumed.csv");
    let path = csv.to_str().unwrap();
    json_out(&small_arena("random", &["--csv", path, "--threads", "2"]));
    // As if killed: the match line, the header, two rows and half of a third.
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    let partial = &lines[4][..lines[4].len() / 2];
    let kept = lines[..4].join("\n");
    std::fs::write(&csv, format!("{kept}\n{partial}")).unwrap();

    let out = small_arena("random", &["--csv", path, "--resume", "--threads", "1"]);
    let resumed = json_out(&out);
    assert!(
        text(&out.stderr).contains("unfinished last line"),
        "{}",
        text(&out.stderr)
    );
    for key in ["difference", "mean_a", "mean_b", "pairs"] {
        assert_eq!(resumed[key], one_go[key], "{key}");
    }
    assert_eq!(resumed["resumed_pairs"], 2);
    // Every pair is in the file once, the cut one rewritten.
    let rewritten = std::fs::read_to_string(&csv).unwrap();
    let mut indexes: Vec<u64> = rewritten
        .lines()
        .skip(2)
        .map(|row| row.split(',').next().unwrap().parse().unwrap())
        .collect();
    indexes.sort();
    assert_eq!(indexes, [0, 1, 2, 3, 4, 5]);
    assert!(rewritten.starts_with(&kept));

    // Nothing left to play: the same report again.
    let out = small_arena("random", &["--csv", path, "--resume"]);
    assert_eq!(json_out(&out)["difference"], one_go["difference"]);
    assert_eq!(json_out(&out)["resumed_pairs"], 6);
}

#[test]
fn resuming_a_different_match_is_refused() {
    let csv = temp_path("other-match.csv");
    let path = csv.to_str().unwrap();
    json_out(&small_arena("random", &["--csv", path, "--seed", "1"]));
    let before = std::fs::read_to_string(&csv).unwrap();
    for (b, seed) in [("random", "2"), ("rules", "1")] {
        let out = small_arena(b, &["--csv", path, "--resume", "--seed", seed]);
        assert!(!out.status.success());
        let message = text(&out.stderr);
        assert_contains(&message, &["written by a different match"]);
    }
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), before);
    // --resume needs the file.
    assert!(!small_arena("random", &["--resume"]).status.success());
}

#[test]
fn arena_in_game_mode_reports_win_rates() {
    let report = json_of(
        &[
            "arena", "--a", "random", "--b", "random", "--games", "4", "--option", "deals=3",
            "--json",
        ],
        "",
    );
    assert_eq!(report["mode"], "games");
    let rate = report["win_rate_a"]["mean"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&rate));
}

#[test]
fn night_plays_every_set_and_the_sheet_adds_up() {
    let (record, sheet) = json_to_file(
        "night.json",
        "night --players Ann,Bob,Cy,Di,Ed --sets 5 --seed 2 --json --record",
    );
    let players = sheet["players"].as_array().unwrap();
    assert_eq!(players.len(), 5);
    for player in players {
        let rows = player["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 5);
        let sum: i64 = rows.iter().map(|r| r["points"].as_i64().unwrap()).sum();
        assert_eq!(sum, player["total"].as_i64().unwrap());
        // With five players each sits out exactly one set of five, for 30 points.
        let sat_out: Vec<_> = rows.iter().filter(|r| r["seat"].is_null()).collect();
        assert_eq!(sat_out.len(), 1, "{player}");
        assert_eq!(sat_out[0]["points"], 30);
    }
    assert_eq!(sheet["complete"], true);
    // The night's record holds each set's game record, and each replays to its sheet row.
    let night: Value = read_json(&record);
    let sets = night["sets"].as_array().unwrap();
    assert_eq!(sets.len(), 5);
    for (i, set) in sets.iter().enumerate() {
        let replay = replayed(&set["record"].to_string());
        assert_eq!(replay["hands"].as_array().unwrap().len(), 8);
        let seats = set["table"]["seats"].as_array().unwrap();
        let first = seats[0].as_u64().unwrap() as usize;
        assert_eq!(players[first]["rows"][i]["points"], replay["scores"][0]);
    }
}

#[test]
fn night_needs_four_distinct_players() {
    let out = calltrump(&["night", "--players", "Ann,Bob,Cy"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("at least 4 players"));
    let out = calltrump(&["night", "--players", "Ann,Bob,Cy,Ann"], "");
    assert!(text(&out.stderr).contains("two players are named \"Ann\""));
}

#[test]
fn night_with_a_person_in_one_seat_plays_through_a_pipe() {
    let (record, out) = run_to_file(
        "night-me.json",
        "night --players Ann,Bob,Cy,Di --sets 1 --me Cy --seed 0 --record",
        &"pass\n1\n".repeat(300),
    );
    let stdout = succeeded(&out);
    assert_contains(&stdout, &["Your hand:", "Set 1 over"]);
    assert!(
        !stdout.contains("Night seed"),
        "a given seed is not announced"
    );
    // Seats are called by their players' names, at the table and in the replay.
    assert_contains(&stdout, &["Ann (partner):"]);
    assert!(stdout.contains("Di (left):") && stdout.contains("Bob (right):"));
    assert!(!stdout.contains("seat 1") && !stdout.contains("seat 3"));
    let shown = succeeds(&["replay", "--show", record.to_str().unwrap()], "");
    assert_contains(&shown, &["\nHand 1: Ann deals.\n  Ann: ", "Ann and Cy "]);
    assert!(!shown.contains("seat "), "{shown}");
}

#[test]
fn a_night_without_a_seed_names_its_seed_and_a_stopped_set_is_not_called_over() {
    let out = calltrump(
        &words("night --players Ann,Bob,Cy,Di,Ed --me Bob --sets 1"),
        "quit\n",
    );
    let stdout = text(&out.stdout);
    let seed = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Night seed "))
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no seed named: {stdout}"));
    assert!(seed.parse::<u64>().is_ok(), "{seed}");
    assert!(!stdout.contains("Set 1 over"), "{stdout}");
    assert_contains(&stdout, &["Night stopped during set 1."]);
    // A night with a person in it is kept without --record, stopped or not.
    let saved = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Night record saved to "))
        .unwrap_or_else(|| panic!("no record saved: {stdout}"));
    let record = read_json(std::path::Path::new(saved));
    assert_eq!(record["players"][1], "Bob", "{record}");
    // The first player sits the first set out, and is told so before it is played.
    let out = calltrump(
        &words("night --players Ann,Bob,Cy,Di,Ed --me Ann --sets 1 --seed 3"),
        "",
    );
    assert_contains(
        &text(&out.stdout),
        &["Ann sits out set 1 (30 points): the bots play it."],
    );
}

#[test]
fn every_game_and_variant_simulates_and_replays() {
    for variant in VARIANTS {
        for line in simulated(variant, 3, 1, "rules", &[]) {
            let out = calltrump(&["replay", "-"], &line);
            assert!(out.status.success(), "{variant:?}: {}", text(&out.stderr));
        }
    }
}

#[test]
fn play_saves_the_record_even_when_its_output_is_closed() {
    let record = temp_path("closed.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_calltrump"))
        .args(["play", "--seed", "6", "--record", record.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once, as `calltrump play | head -1` would.
    drop(child.stdout.take());
    let _ = child.stdin.take().unwrap().write_all(b"1\n1\nquit\n");
    let out = child.wait_with_output().unwrap();
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    let replayed = calltrump(&["replay", record.to_str().unwrap()], "");
    succeeded(&replayed);
}

/// `calltrump replay --show FILE | head -1`: the reader goes away after a line, and the
/// command stops quietly, as Unix tools do, instead of printing a broken pipe error.
#[test]
fn output_closed_early_ends_a_command_quietly() {
    let records = simulated_records("pipe.jsonl", 20, 1);
    for args in [
        vec!["replay", "--show", records.to_str().unwrap()],
        vec!["replay", records.to_str().unwrap()],
        vec!["rules", "kaibosh"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_calltrump"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 1];
        std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{args:?}");
    }
}

/// An outside bot that records, one JSON line per message into `log`, its process id,
/// the seat its hello named, and every card it is shown: its dealt cards, its hand and
/// every card in the actions. It plays the first legal action.
fn spy_bot(name: &str, log: &std::path::Path) -> String {
    let path = temp_path(name);
    let _ = std::fs::remove_file(log);
    let script = format!(
        r#"import json, os, sys
log = open({log:?}, "a")
seat = None
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        seat = m.get("seat")
        print(json.dumps({{"type": "hello", "protocol": 2, "name": "spy"}}), flush=True)
    elif m["type"] == "bye":
        break
    elif m["type"] == "decide":
        o = m["observation"]
        shown = o["dealt"] + o["hand"] + [w for _, a in o["actions"] for w in a.split()[1:]]
        log.write(json.dumps({{"pid": os.getpid(), "hello": seat, "seat": m["seat"],
            "deal": m["deal"], "hand": o["start"]["deals_played"], "dealt": sorted(o["dealt"]),
            "shown": shown}}) + "\n")
        log.flush()
        print(json.dumps({{"type": "action", "action": m["legal"][0]}}), flush=True)
"#,
        log = log.display().to_string()
    );
    std::fs::write(&path, script).unwrap();
    format!("ext:python3 {}", path.display())
}

/// The spy's log: every decide it was sent.
fn spy_log(log: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Checks that no process of the spy was shown two seats' cards: every decide it got
/// was for the seat its hello named, and within a deal (a hand of a pair or game) it
/// saw one hand only.
fn assert_one_seat_per_process(entries: &[Value], what: &str) {
    use std::collections::{BTreeMap, BTreeSet};
    assert!(!entries.is_empty(), "{what}: the spy was asked nothing");
    let mut hands: BTreeMap<(u64, u64, u64), BTreeSet<String>> = BTreeMap::new();
    let mut processes = BTreeSet::new();
    for entry in entries {
        assert_eq!(entry["hello"], entry["seat"], "{what}: {entry}");
        let pid = entry["pid"].as_u64().unwrap();
        processes.insert(pid);
        hands
            .entry((
                pid,
                entry["deal"].as_u64().unwrap(),
                entry["hand"].as_u64().unwrap(),
            ))
            .or_default()
            .insert(entry["dealt"].to_string());
    }
    for ((pid, deal, hand), seen) in &hands {
        assert_eq!(
            seen.len(),
            1,
            "{what}: process {pid} saw {seen:?} in deal {deal}, hand {hand}"
        );
    }
    eprintln!("{what}: {} processes", processes.len());
}

/// Runs `calltrump ARGS`, which must succeed, with the spies' `log` emptied first: the
/// spies' log.
fn spied(log: &std::path::Path, args: &[&str]) -> Vec<Value> {
    let _ = std::fs::remove_file(log);
    succeeded(&calltrump(args, ""));
    spy_log(log)
}

#[test]
fn an_outside_bot_sees_one_seat_in_one_process_in_both_halves_of_each_pair() {
    for (game, variant, seats) in [("kaibosh", "standard", 4), ("kout", "kout6", 6)] {
        let log = temp_path(&format!("spy-{variant}.log"));
        let spy = spy_bot(&format!("spy_{variant}.py"), &log);
        let spy = spy.as_str();
        let game = ["--game", game, "--variant", variant];
        // The spy on both sides: every seat of both halves is an outside process.
        let both = [
            "--a",
            spy,
            "--b",
            spy,
            "--deals",
            "3",
            "--threads",
            "1",
            "--json",
        ];
        let entries = spied(&log, &[&["arena"], &game[..], &both].concat());
        assert_one_seat_per_process(&entries, variant);
        // One process per seat and per half.
        let pids: std::collections::BTreeSet<u64> =
            entries.iter().map(|e| e["pid"].as_u64().unwrap()).collect();
        assert_eq!(pids.len(), 2 * seats, "{variant}");

        // The same in whole games, and in `simulate`.
        let games = [
            "--a",
            spy,
            "--b",
            "random",
            "--games",
            "1",
            "--max-deals",
            "3",
            "--threads",
            "1",
        ];
        let entries = spied(&log, &[&["arena"], &game[..], &games].concat());
        assert_one_seat_per_process(&entries, &format!("{variant} games"));
        let simulate = ["--bots", spy, "--games", "1", "--max-deals", "2"];
        let entries = spied(&log, &[&["simulate"], &game[..], &simulate].concat());
        assert_one_seat_per_process(&entries, &format!("{variant} simulate"));
    }
}

#[test]
fn counts_beyond_what_makes_sense_are_refused_with_a_clear_message() {
    for (args, expected) in [
        (
            &words("arena --a random --b random --deals 18446744073709551615")[..],
            "--deals",
        ),
        (
            &words("arena --a random --b random --deals 4294967296")[..],
            "1..=1000000000",
        ),
        (
            &["arena", "--a", "random", "--b", "random", "--deals", "0"][..],
            "--deals",
        ),
        (
            &["arena", "--a", "random", "--b", "random", "--games", "0"][..],
            "--games",
        ),
        (
            &["arena", "--a", "random", "--b", "random", "--threads", "0"][..],
            "--threads",
        ),
        (
            &words("arena --a random --b random --threads 100000")[..],
            "1..=256",
        ),
        (
            &words("arena --a random --b random --max-deals 0")[..],
            "--max-deals",
        ),
        (
            &words("arena --a random --b random --time-limit-ms 0")[..],
            "--time-limit-ms",
        ),
        (
            &words("arena --a random --b random --bye-grace-ms 99999999")[..],
            "--bye-grace-ms",
        ),
        (
            &words("night --players A,B,C,D --sets 18446744073709551615")[..],
            "--sets",
        ),
        (
            &["night", "--players", "A,B,C,D", "--sets", "0"][..],
            "--sets",
        ),
        (&["simulate", "--games", "0"][..], "--games"),
        (
            &["simulate", "--games", "18446744073709551615"][..],
            "--games",
        ),
        (&["simulate", "--max-deals", "0"][..], "--max-deals"),
        (&["play", "--max-deals", "0"][..], "--max-deals"),
    ] {
        let out = calltrump(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("invalid value"), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_large_arena_streams_its_results_instead_of_allocating_them() {
    // A billion deals would take for ever; what matters is that the run starts at once
    // (nothing is allocated per deal up front) and stops cleanly at the first fault.
    let bot = script_bot("quit_at_once.py", "        sys.exit(0)");
    let out = against_random(&bot, &["--deals", "1000000000"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_contains(&stderr, &["without answering"]);
    assert!(
        !stderr.contains("capacity") && !stderr.contains("memory"),
        "{stderr}"
    );
}

#[test]
fn a_game_reaching_the_deal_limit_ends_as_a_draw_and_says_so() {
    // Every other seat a random bot, the person's choices always the first listed:
    // a game to 1,000 points does not end by itself in three deals.
    let stdout = succeeds(
        &[
            "play",
            "--bots",
            "random",
            "--seed",
            "4",
            "--option",
            "target=1000",
            "--max-deals",
            "3",
            "--record",
            temp_path("limit.json").to_str().unwrap(),
        ],
        &common::first_choices(250),
    );
    assert_contains(&stdout, &["Game over at the deal limit (3 deals): a draw."]);
    // `simulate`: draws at the limit are counted as draws, and said to be.
    let summary = json_of(
        &words("simulate --bots random --games 3 --option target=1000 --max-deals 2 --json"),
        "",
    );
    assert_eq!(summary["draws"], 3);
    assert_eq!(summary["deal_limit_draws"], 3);
    let out = calltrump(
        &words("simulate --bots random --games 3 --option target=1000 --max-deals 2"),
        "",
    );
    assert!(text(&out.stdout).contains("reached the deal limit (2 deals) and ended there as draws"));
}

#[test]
fn an_option_given_twice_is_an_error() {
    for args in [
        &["simulate", "--option", "target=10", "--option", "target=20"][..],
        &[
            "night",
            "--players",
            "A,B,C,D",
            "--option",
            "all_pass=redeal",
            "--option",
            "all_pass=dealer-must-bid",
        ][..],
    ] {
        let out = calltrump(args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("is given twice"), "{args:?}: {stderr}");
    }
}

#[test]
fn resuming_an_empty_or_headerless_csv_says_so() {
    let empty = temp_path("empty.csv");
    std::fs::write(&empty, "").unwrap();
    let out = small_arena("random", &["--csv", empty.to_str().unwrap(), "--resume"]);
    succeeded(&out);
    assert!(
        text(&out.stderr).contains("is empty: there is nothing to resume"),
        "{}",
        text(&out.stderr)
    );
    // The match line of a run stopped before its header was written.
    let headerless = temp_path("headerless.csv");
    let first = std::fs::read_to_string(&empty).unwrap();
    std::fs::write(
        &headerless,
        first.lines().next().unwrap().to_string() + "\n",
    )
    .unwrap();
    let out = small_arena(
        "random",
        &["--csv", headerless.to_str().unwrap(), "--resume"],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("headerless.csv") && stderr.contains("header line"),
        "{stderr}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn a_write_error_names_the_file() {
    let stderr = fails(&["simulate", "--games", "2", "--records", "/dev/full"], "");
    assert_contains(&stderr, &["/dev/full"]);
}

/// An outside bot speaking `version` that logs every message it gets to `log`.
fn logging_bot(name: &str, version: u32, log: &std::path::Path) -> String {
    let path = temp_path(name);
    let _ = std::fs::remove_file(log);
    let script = format!(
        r#"import json, sys
log = open({log:?}, "a")
for line in sys.stdin:
    log.write(line)
    log.flush()
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({{"type": "hello", "protocol": {version}, "name": "logger"}}), flush=True)
    elif m["type"] == "bye":
        break
    elif m["type"] == "decide":
        print(json.dumps({{"type": "action", "action": m["legal"][0]}}), flush=True)
"#,
        log = log.display().to_string()
    );
    std::fs::write(&path, script).unwrap();
    format!("ext:python3 {}", path.display())
}

#[test]
fn version_2_bots_get_their_seat_seeds_and_results_and_version_1_bots_are_still_served() {
    for version in [2, 1] {
        let log = temp_path(&format!("messages-v{version}.log"));
        let bot = logging_bot(&format!("logger_v{version}.py"), version, &log);
        let out = calltrump(
            &[
                "simulate",
                "--bots",
                &format!("{bot},random,random,random"),
                "--games",
                "1",
                "--option",
                "deals=2",
            ],
            "",
        );
        succeeded(&out);
        let messages: Vec<Value> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let of = |kind: &'static str| messages.iter().filter(move |m| m["type"] == kind);
        let hello = of("hello").next().unwrap();
        assert_eq!(hello["protocol"], 2);
        assert_eq!(hello["seat"], 0);
        assert_eq!(hello["game"], "kaibosh");
        let decides: Vec<&Value> = of("decide").collect();
        assert!(!decides.is_empty());
        let results: Vec<&Value> = of("result").collect();
        if version == 1 {
            assert!(results.is_empty());
            assert!(decides.iter().all(|m| m.get("seed").is_none()));
            assert!(decides.iter().all(|m| m.get("view").is_none()));
            continue;
        }
        assert!(decides.iter().all(|m| m["seed"].as_u64().is_some()));
        // The view is the seat's own, agrees with the decision, and once trump is named
        // it names it, as the hand's actions do.
        for decide in &decides {
            let view = &decide["view"];
            assert_eq!(view["viewer"]["seat"], 0, "{view}");
            assert_eq!(view["legal"], decide["legal"], "{decide}");
            let named = decide["observation"]["actions"]
                .as_array()
                .unwrap()
                .iter()
                .find_map(|a| a[1].as_str()?.strip_prefix("trump ").map(str::to_string));
            match named {
                Some(suit) => assert_eq!(view["trump"], suit.as_str(), "{decide}"),
                None => assert!(view["trump"].is_null(), "{decide}"),
            }
        }
        // Two hands, then the game.
        let hands: Vec<&&Value> = results.iter().filter(|m| m["hand"].is_object()).collect();
        assert_eq!(hands.len(), 2, "{results:?}");
        for hand in &hands {
            let hand = &hand["hand"];
            assert!(
                hand["points"].is_array() && hand["actions"].is_array(),
                "{hand}"
            );
            assert!(hand["start"]["dealer"].is_u64(), "{hand}");
        }
        let game = &results.last().unwrap()["game"];
        assert_eq!(game["deals"], 2, "{game}");
        assert_eq!(game["ended"], "game-over", "{game}");
        assert!(
            game["scores"].is_array() && !game["winner"].is_null(),
            "{game}"
        );
        assert_eq!(messages.last().unwrap()["type"], "bye");
    }
}

#[test]
fn the_grace_after_bye_is_the_hosts_to_set() {
    // A bot that takes half a second to exit after `bye` writes its mark only with a
    // grace long enough.
    for (grace, exits) in [("2000", true), ("0", false)] {
        let (bot, mark) = bot_marking_its_exit(
            &format!("slow_exit_{grace}.py"),
            &format!("grace-{grace}.mark"),
            "import time; time.sleep(0.5); ",
        );
        let rest = ["--deals", "1", "--threads", "1", "--bye-grace-ms", grace];
        let out = against_random(&bot, &rest);
        succeeded(&out);
        std::thread::sleep(std::time::Duration::from_millis(800));
        assert_eq!(mark.exists(), exits, "grace {grace}");
    }
}

/// A file of `games` Kaibosh games of `rules` bots written by `simulate --records`.
fn simulated_records(name: &str, games: u32, seed: u64) -> std::path::PathBuf {
    let path = temp_path(name);
    let (games, seed) = (games.to_string(), seed.to_string());
    let out = calltrump(
        &[
            "simulate",
            "--game",
            "kaibosh",
            "--games",
            &games,
            "--seed",
            &seed,
            "--bots",
            "rules",
            "--records",
            path.to_str().unwrap(),
        ],
        "",
    );
    succeeded(&out);
    path
}

#[test]
fn replay_reads_what_simulate_and_night_write() {
    let games = simulated_records("sim-games.jsonl", 3, 4);
    let out = calltrump(&["replay", games.to_str().unwrap()], "");
    succeeded(&out);
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "one replay a game");
    assert!(lines.iter().all(|replay| replay["finished"] == true));

    let (night, out) = run_to_file(
        "night-replayed.json",
        "night --players Ann,Bob,Cy,Di,Ed --sets 2 --seed 3 --record",
        "",
    );
    succeeded(&out);
    let out = calltrump(&["replay", night.to_str().unwrap()], "");
    succeeded(&out);
    assert_eq!(text(&out.stdout).lines().count(), 2, "one replay a set");

    // A broken game among good ones is named by its line, and the exit says so.
    let mut mixed = std::fs::read_to_string(&games).unwrap();
    mixed.push_str(&kaibosh_record(&["play 9H"]));
    let out = calltrump(&["replay", "-"], &mixed);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).starts_with("line 4: hand 0, action 0"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout).lines().count(), 3);
}

#[test]
fn replay_show_walks_the_game_and_hides_what_a_seat_did_not_see() {
    let games = simulated_records("show-games.jsonl", 1, 9);
    let record: Value =
        serde_json::from_str(std::fs::read_to_string(&games).unwrap().trim()).unwrap();

    let shown = succeeds(&["replay", "--show", games.to_str().unwrap()], "");
    assert_contains(&shown, &["Hand 1: seat", "Trick 1: seat", " wins "]);
    // Every seat's cards of every hand are shown at its deal.
    let hands = record["hands"].as_array().unwrap().len();
    let shown_hands = shown.lines().filter(|l| l.starts_with("  seat ")).count();
    assert_eq!(shown_hands, 4 * hands, "{shown}");

    let seen = succeeds(
        &["replay", "--show", "--seat", "2", games.to_str().unwrap()],
        "",
    );
    assert_contains(&seen, &["  you: "]);
    assert!(!seen.lines().any(|l| l.starts_with("  seat ")), "{seen}");
    // Seat 2 never learns the cards another seat held and did not play.
    let hand = &record["hands"][0];
    let played: Vec<&str> = hand["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_str()?.strip_prefix("play "))
        .collect();
    let first_hand: String = seen.split("\nHand 2").next().unwrap().to_string();
    for (seat, cards) in hand["deal"].as_array().unwrap().iter().enumerate() {
        for card in cards.as_array().unwrap() {
            let card = card.as_str().unwrap();
            if seat == 2 || played.contains(&card) {
                continue;
            }
            let (rank, suit) = card.split_at(1);
            let symbol = match suit {
                "S" => "♠",
                "H" => "♥",
                "D" => "♦",
                _ => "♣",
            };
            assert!(
                !first_hand.contains(&format!("{rank}{symbol}")),
                "seat {seat}'s unplayed {card} is shown to seat 2:\n{first_hand}"
            );
        }
    }

    let bad = calltrump(
        &["replay", "--show", "--seat", "7", games.to_str().unwrap()],
        "",
    );
    assert!(!bad.status.success());
    assert!(
        text(&bad.stderr).contains("--seat 7 does not exist"),
        "{}",
        text(&bad.stderr)
    );
}

/// `night ARGS --record FILE` for a night of five players and two sets with Bob played
/// through a pipe: its output.
fn bobs_night(record: &std::path::Path, extra: &[&str], stdin: &str) -> Output {
    let mut args = words("night --players Ann,Bob,Cy,Di,Ed --sets 2 --me Bob --seed 5");
    args.extend(["--record", record.to_str().unwrap()]);
    args.extend(extra);
    calltrump(&args, stdin)
}

#[test]
fn a_night_stopped_midway_goes_on_with_resume_as_if_never_stopped() {
    let whole = temp_path("night-whole.json");
    let parts = temp_path("night-parts.json");
    let ones = common::first_choices(400);
    succeeded(&bobs_night(&whole, &[], &ones));
    // Stopped twice in the middle of Bob's set, and resumed each time.
    let stopped = bobs_night(&parts, &[], &format!("{}quit\n", common::first_choices(5)));
    let stdout = succeeded(&stopped);
    assert_contains(&stdout, &["Night stopped during set 1.", "night --resume"]);
    let path = parts.to_str().unwrap();
    let again = calltrump(
        &["night", "--resume", path],
        &format!("{}quit\n", common::first_choices(5)),
    );
    assert_contains(&succeeded(&again), &["Going on with the night"]);
    // `play --resume` points to the command that goes on with a night.
    let refused = fails(&["play", "--resume", path], "");
    assert!(refused.contains("night --resume"), "{refused}");
    let last = calltrump(&["night", "--resume", path], &ones);
    assert_contains(&succeeded(&last), &["wins."]);
    assert_eq!(
        std::fs::read_to_string(&whole).unwrap(),
        std::fs::read_to_string(&parts).unwrap()
    );
    // A finished night's companion is gone.
    assert!(!PathBuf::from(format!("{path}.resume")).exists());
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_a_night_saves_it() {
    let record = temp_path("night-sigint.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_calltrump"))
        .args(words(
            "night --players Ann,Bob,Cy,Di --sets 2 --me Bob --seed 5",
        ))
        .arg("--record")
        .arg(&record)
        .env("XDG_DATA_HOME", temp_path("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // One move, then the night waits for the next line while Ctrl-C comes.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"p\n1\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert_contains(
        &text(&out.stdout),
        &["Night stopped during set 1.", "night --resume"],
    );
    let saved = read_json(&record);
    assert_eq!(saved["sets"].as_array().unwrap().len(), 1, "{saved}");
    assert_eq!(saved["planned_sets"], 2, "{saved}");
}

#[test]
fn a_blank_player_is_refused_and_the_sheet_marks_sit_outs_only_when_there_were_some() {
    let error = fails(&words("night --players Ann,,Bob,Cy,Di --seed 1"), "");
    assert!(error.contains("player 2 of 5 has no name"), "{error}");
    let four = succeeds(
        &words("night --players Ann,Bob,Cy,Di --sets 1 --seed 1 --bots rules"),
        "",
    );
    assert!(!four.contains("sat out"), "{four}");
    let five = succeeds(
        &words("night --players Ann,Bob,Cy,Di,Ed --sets 1 --seed 1 --bots rules"),
        "",
    );
    assert_contains(&five, &["30*", "* sat out"]);
}

#[test]
fn errors_speak_a_persons_words_not_the_parsers() {
    for (input, expected) in [
        ("{x", "invalid record: not JSON (line 1, column 2)"),
        (
            "{\"game\": ",
            "invalid record: the text ends before the record does",
        ),
        ("[]", "a record is a JSON object"),
    ] {
        let error = fails(&["replay", "-"], input);
        assert!(error.contains(expected), "{input}: {error}");
        assert!(!error.contains("expected"), "{input}: {error}");
    }
    let missing = temp_path("no-such-record.json");
    let error = fails(&["replay", missing.to_str().unwrap()], "");
    assert!(
        error.contains("No such file") && !error.contains("os error"),
        "{error}"
    );
    for line in [
        "play --seed 99999999999999999999999",
        "play --seed abc",
        "simulate --seed -",
    ] {
        let out = calltrump(&words(line), "");
        assert_eq!(out.status.code(), Some(2), "{line}");
        let error = text(&out.stderr);
        assert!(
            error.contains("--seed must be a whole number from 0 to 18446744073709551615, not"),
            "{line}: {error}"
        );
    }
    for (flag, expected) in [
        (
            "--hand",
            "--hand 0: hands are numbered from 1, as play shows them",
        ),
        ("--set", "--set 0: sets are numbered from 1"),
    ] {
        let out = calltrump(&["analyze", "-", flag, "0"], "");
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let error = text(&out.stderr);
        assert!(error.contains(expected), "{error}");
    }
}

#[test]
fn a_file_that_holds_no_record_is_named_and_an_empty_one_said_to_be_empty() {
    let empty = temp_path("empty.json");
    std::fs::write(&empty, "\n").unwrap();
    let broken = temp_path("broken.json");
    std::fs::write(&broken, "{x").unwrap();
    for command in ["replay", "verify", "analyze"] {
        let error = fails(&[command, empty.to_str().unwrap()], "");
        assert!(
            error.contains(&format!(
                "{} is empty: there is no record in it",
                empty.display()
            )),
            "{command}: {error}"
        );
        let error = fails(&[command, broken.to_str().unwrap()], "");
        assert!(
            error.contains(&format!(
                "{}: invalid record: not JSON (line 1, column 2)",
                broken.display()
            )),
            "{command}: {error}"
        );
        let error = fails(&[command, "-"], "  ");
        assert!(
            error.contains("standard input is empty"),
            "{command}: {error}"
        );
    }
}

/// A review or an arena plot named after a saved game is refused, and simulated records
/// after a game that goes on: the save is left as it was. Outputs are written over,
/// saves never are.
#[test]
fn no_output_is_written_over_a_saved_game() {
    let record = simulated(("kaibosh", "standard"), 1, 3, "rules", &[]).remove(0);
    let save = temp_path("a-save.json");
    std::fs::write(&save, &record).unwrap();
    let save_path = save.to_str().unwrap();
    let runs: [Vec<&str>; 2] = [
        vec!["analyze", "-", "--samples", "2", "--html", save_path],
        words("arena --game kaibosh --a random --b random --deals 2 --seed 1 --plot")
            .into_iter()
            .chain([save_path])
            .collect(),
    ];
    for args in runs {
        let stderr = fails(&args, &record);
        assert!(
            stderr.contains("holds a saved game: calltrump never writes over one"),
            "{args:?}: {stderr}"
        );
        assert_eq!(std::fs::read_to_string(&save).unwrap(), record, "{args:?}");
    }
    // A game that goes on has its companion file beside it.
    let companion = temp_path("a-save.json.resume");
    std::fs::write(&companion, r#"{"calltrump_resume":1,"seat":0}"#).unwrap();
    let args: Vec<&str> = words("simulate --game kaibosh --games 1 --seed 1 --records")
        .into_iter()
        .chain([save_path])
        .collect();
    let stderr = fails(&args, "");
    assert!(
        stderr.contains("holds a game that goes on: calltrump never writes over one"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&save).unwrap(), record);
    // Any other file is an output's to write over.
    let other = temp_path("not-a-save.html");
    std::fs::write(&other, "an old review").unwrap();
    let html = other.to_str().unwrap();
    succeeds(&["analyze", "-", "--samples", "2", "--html", html], &record);
    assert!(std::fs::read_to_string(&other)
        .unwrap()
        .starts_with("<!DOCTYPE html>"));
}

/// A night with bad arguments says only what is wrong: no seed line before the error.
#[test]
fn a_night_checks_its_players_before_telling_its_seed() {
    let out = calltrump(&words("night --players A,B,C --me A"), "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("a night needs at least 4 players, not 3"),
        "{}",
        text(&out.stderr)
    );
}

/// A negative seed gets the same plain sentence as any other seed that is no seed.
#[test]
fn a_negative_seed_is_explained() {
    for command in ["play", "simulate", "night --players A,B,C,D"] {
        let args: Vec<&str> = words(command).into_iter().chain(["--seed", "-1"]).collect();
        let out = calltrump(&args, "");
        assert_ne!(out.status.code(), Some(0), "{command}");
        let stderr = text(&out.stderr);
        assert!(
            stderr
                .contains("--seed must be a whole number from 0 to 18446744073709551615, not '-1'"),
            "{command}: {stderr}"
        );
    }
}

/// Going on with an empty file says that it is empty, for a game and for a night.
#[test]
fn resuming_an_empty_file_says_it_is_empty() {
    let empty = temp_path("empty-save.json");
    std::fs::write(&empty, "").unwrap();
    for command in ["play --resume", "night --resume"] {
        let args: Vec<&str> = words(command)
            .into_iter()
            .chain([empty.to_str().unwrap()])
            .collect();
        let stderr = fails(&args, "");
        assert!(
            stderr.contains("is empty: there is no record in it"),
            "{command}: {stderr}"
        );
    }
}
