//! `calltrump play` as a player sees it through a pipe: the whole screen of one hand of
//! each variant compared with the files in tests/screens/ (`UPDATE_SCREENS=1` rewrites
//! them), every form of input accepted and refused, Ctrl-C, the end of the input, and
//! `--resume`.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use common::{and_path, read_json, run, text, words};

/// A folder of this test process's own, as the data folder and for records.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("calltrump-play-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `calltrump play ARGS` with `stdin` and the data folder in `dir`.
fn play(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_calltrump"));
    command
        .arg("play")
        .args(args)
        .env("XDG_DATA_HOME", dir)
        .env_remove("NO_COLOR");
    run(command, stdin)
}

/// The actions of seat 0 in a record's hands, as the notation writes them.
fn record_actions(path: &Path) -> Vec<String> {
    let record: Value = read_json(path);
    record["hands"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h["actions"].as_array().unwrap().clone())
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

/// Compares the screen with `tests/screens/NAME.txt`, or writes it there with
/// `UPDATE_SCREENS=1`. The temporary folder is written `<DIR>`.
fn check_screen(name: &str, dir: &Path, out: &Output) {
    assert!(out.status.success(), "{name}: {}", text(&out.stderr));
    let screen = text(&out.stdout).replace(&dir.display().to_string(), "<DIR>");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/screens")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SCREENS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &screen).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} is missing: run with UPDATE_SCREENS=1", path.display()));
    if screen != expected {
        let line = screen
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(screen.lines().count().min(expected.lines().count()));
        panic!(
            "{name}: the screen differs from {} from line {}:\n--- now\n{}\n--- expected\n{}",
            path.display(),
            line + 1,
            screen
                .lines()
                .skip(line)
                .take(8)
                .collect::<Vec<_>>()
                .join("\n"),
            expected
                .lines()
                .skip(line)
                .take(8)
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
}

/// One hand of `game`, the first item taken at every prompt after `script` (which
/// makes the player's calls).
fn one_hand(name: &str, args: &[&str], script: &str) {
    let dir = temp_dir(name);
    let mut all = vec!["--bots", "rules", "--max-deals", "1"];
    all.extend_from_slice(args);
    let input = format!("{script}{}", "1\n".repeat(100));
    check_screen(name, &dir, &play(&dir, &all, &input));
}

#[test]
fn a_kaibosh_hand_looks_as_recorded() {
    one_hand(
        "kaibosh",
        &["--game", "kaibosh", "--seed", "3"],
        "?\nbid 6\nh\n\nlast\n",
    );
}

#[test]
fn an_alexa_bid_euchre_hand_looks_as_recorded() {
    one_hand(
        "bid-euchre-alexa",
        &["--game", "bid-euchre", "--variant", "alexa", "--seed", "5"],
        "help\ncall2 hearts\nkh\n2\n",
    );
}

#[test]
fn a_simplified_bid_euchre_hand_looks_as_recorded() {
    one_hand(
        "bid-euchre-simplified",
        &words("--game bid-euchre --variant simplified --seed 8"),
        "pass\n",
    );
}

#[test]
fn a_kout6_hand_looks_as_recorded() {
    one_hand(
        "kout6",
        &["--game", "kout", "--variant", "kout6", "--seed", "2"],
        "?\np\n",
    );
}

#[test]
fn a_kout4_hand_in_ascii_looks_as_recorded() {
    one_hand(
        "kout4-ascii",
        &words("--game kout --variant kout4 --seed 4 --ascii"),
        "p\n",
    );
}

/// Plays Kaibosh seed 3 (seat 0 holds A♥ K♥ T♥ 9♥ J♦ T♣ and may still call kaibosh)
/// with `script`, then quits; returns the screen and seat 0's recorded actions.
fn kaibosh_with(name: &str, script: &str) -> (String, Vec<String>) {
    let (screen, record) = screen_of(name, "kaibosh", "standard", "3", script);
    (screen, record_actions(&record))
}

#[test]
fn suits_cards_and_calls_are_read_in_every_form() {
    let trumps = ["h", "hearts", "♥", "trump h", "  TRUMP   Hearts ", "2"];
    let cards = ["10h", "T♥", "th", "play 10h", "10♥", " Play  tH "];
    for (trump, card) in trumps.iter().zip(cards) {
        let (screen, actions) = kaibosh_with("forms", &format!("kaibosh\n{trump}\n{card}\n"));
        assert!(
            actions.contains(&"kaibosh".to_string())
                && actions.contains(&"trump H".to_string())
                && actions.contains(&"play TH".to_string()),
            "{trump} / {card}: {actions:?}\n{screen}"
        );
    }
    // A whole Bid Euchre bid in words, symbols, or without the word `bid`.
    for bid in ["bid 7 hearts", "bid 7 ♥", "7 h", "BID  7  H", "bid 7 Heart"] {
        let (screen, record) = screen_of("bids", "bid-euchre", "alexa", "5", &format!("{bid}\n"));
        assert!(
            record_actions(&record).contains(&"bid 7 H".to_string()),
            "{bid}: {screen}"
        );
    }
}

#[test]
fn refused_input_is_explained_and_asked_again() {
    let (screen, actions) = kaibosh_with(
        "refused",
        "bid 9\nbid seven\n9\nzz\nbid 2\nplay AS\nkaibosh\ntrump x\nspades\nplay 9S\nundo\n",
    );
    for expected in [
        "Not understood: \"seven\" is not a number of tricks;",
        "Not allowed: you may bid only 6, kaibosh, or pass.",
        "Not understood: unknown action \"zz\";",
        "Not allowed: you must bid higher than \"bid 5\".",
        "Not allowed: you may not do that now: the game expects a call:",
        "Not understood: \"x\" is not a suit;",
        // Cards named as the screen shows them.
        "Not allowed: you do not hold 9♠.",
        "Taken back: your trump ♠.",
    ] {
        assert!(screen.contains(expected), "{expected}\n{screen}");
    }
    // Every one-line refusal asks again: the prompt follows it at once. (Input is not
    // echoed through a pipe, so a refusal stands after the prompt it answers.)
    let refusals: Vec<&str> = screen
        .lines()
        .filter(|l| l.trim_start_matches("> ").starts_with("Not ") && l.ends_with('.'))
        .collect();
    assert!(refusals.len() >= 4, "{screen}");
    for line in refusals {
        let after = &screen[screen.find(line).unwrap() + line.len()..];
        assert!(
            after.starts_with("\n> "),
            "no prompt after {line:?}\n{screen}"
        );
    }
    // `bid 9` and `9` alike: a number alone is a bid, never the menu's item 9.
    assert_eq!(
        screen
            .matches("Not allowed: you may bid only 6, kaibosh, or pass.")
            .count(),
        2,
        "{screen}"
    );
    assert_eq!(actions.iter().filter(|a| *a == "kaibosh").count(), 1);
    // The trump named was taken back: nothing after the kaibosh is left.
    assert_eq!(
        actions.last().map(String::as_str),
        Some("kaibosh"),
        "{screen}"
    );
}

#[test]
fn the_end_of_the_input_stops_the_game_with_an_error_and_saves_it() {
    let dir = temp_dir("eof");
    let out = play(&dir, &["--seed", "2", "--bots", "rules"], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("The input ended before the game did"),
        "{stdout}"
    );
    // Without --record, the record goes to the data folder.
    let saved = dir
        .join("calltrump")
        .join("calltrump-kaibosh-standard-2.json");
    assert!(saved.exists(), "{stdout}");
    assert!(stdout.contains("calltrump play --resume"), "{stdout}");
}

#[test]
fn an_unwritable_record_is_refused_before_the_deal() {
    let dir = temp_dir("unwritable");
    let blocker = dir.join("file");
    std::fs::write(&blocker, "").unwrap();
    let record = blocker.join("game.json");
    let out = play(
        &dir,
        &["--seed", "2", "--record", record.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("making the folder"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        !text(&out.stdout).contains("Hand 1"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn bots_may_be_named_for_the_other_seats_only() {
    let dir = temp_dir("bots");
    let out = play(
        &dir,
        &["--seed", "2", "--bots", "rules,random,rules"],
        "quit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("bots: rules, random, rules."),
        "{}",
        text(&out.stdout)
    );
}

/// Sends `signal` to a game waiting for its second line: the game saves its record and
/// stops with 130, as after Ctrl-C.
#[cfg(unix)]
fn a_signal_saves_the_record_and_stops(signal: &str) {
    let dir = temp_dir(&format!("sig{signal}"));
    let record = dir.join("game.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_calltrump"))
        .args(["play", "--seed", "2", "--bots", "rules", "--record"])
        .arg(&record)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // One move, then the game waits for the next line while the signal comes.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"1\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Interrupted"),
        "{}",
        text(&out.stdout)
    );
    let actions = record_actions(&record);
    assert!(!actions.is_empty(), "{}", text(&out.stdout));
}

#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_record_and_stops() {
    a_signal_saves_the_record_and_stops("INT");
}

/// A plain `kill` saves the game as Ctrl-C does.
#[cfg(unix)]
#[test]
fn sigterm_saves_the_record_and_stops() {
    a_signal_saves_the_record_and_stops("TERM");
}

/// Closing the terminal (SIGHUP) saves the game as Ctrl-C does.
#[cfg(unix)]
#[test]
fn a_closed_terminal_saves_the_record_and_stops() {
    a_signal_saves_the_record_and_stops("HUP");
}

#[test]
fn a_resumed_game_ends_as_the_uninterrupted_one() {
    let dir = temp_dir("resume");
    let whole = dir.join("whole.json");
    let parts = dir.join("parts.json");
    let args = |record: &Path| {
        vec![
            "--game".to_string(),
            "kaibosh".to_string(),
            "--seed".to_string(),
            "9".to_string(),
            "--bots".to_string(),
            "rules".to_string(),
            "--record".to_string(),
            record.display().to_string(),
        ]
    };
    let strs = |v: &[String]| v.iter().map(String::clone).collect::<Vec<_>>();
    let ones = common::first_choices(200);
    let whole_args = strs(&args(&whole));
    let out = play(
        &dir,
        &whole_args.iter().map(String::as_str).collect::<Vec<_>>(),
        &ones,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Game over."));
    // The same game quit twice, mid-hand, and resumed each time.
    let parts_args = strs(&args(&parts));
    let first = play(
        &dir,
        &parts_args.iter().map(String::as_str).collect::<Vec<_>>(),
        &format!("{}quit\n", common::first_choices(4)),
    );
    assert!(first.status.success(), "{}", text(&first.stderr));
    let resume = ["--resume", parts.to_str().unwrap(), "--bots", "rules"];
    let second = play(
        &dir,
        &resume,
        &format!("{}quit\n", common::first_choices(3)),
    );
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(text(&second.stdout).contains("Resuming after"));
    let last = play(&dir, &resume, &ones);
    assert!(last.status.success(), "{}", text(&last.stderr));
    assert!(text(&last.stdout).contains("Game over."));
    assert_eq!(
        std::fs::read_to_string(&whole).unwrap(),
        std::fs::read_to_string(&parts).unwrap()
    );
    // A finished game has nothing to resume.
    let again = play(&dir, &resume, "");
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("nothing to resume"));
}

#[test]
fn a_resumed_committed_game_asks_the_bots_with_the_same_dice_whenever_resumed() {
    // A game quit right after a hand's last action is saved between hands: the next
    // hand is drawn only when resumed, so a run that stops there is played again.
    for attempt in 0..8 {
        if let Some(hands) = resume_twice(attempt) {
            assert_eq!(hands[0], hands[1]);
            return;
        }
    }
    panic!("eight saved games all stopped between hands");
}

/// A game of random bots saved after the player's first choice, resumed twice in
/// different seconds of the clock: the interrupted hand as each resume finished it, or
/// `None` if the game was saved between hands.
fn resume_twice(attempt: u32) -> Option<Vec<Value>> {
    let dir = temp_dir(&format!("resume-committed-{attempt}"));
    let saved = dir.join("saved.json");
    let record = saved.to_str().unwrap();
    // Random bots: any other dice would show in their moves.
    let bots = ["--bots", "random", "--speed", "0"];
    let mut args = vec!["--game", "kaibosh", "--record", record];
    args.extend(bots);
    let out = play(&dir, &args, &format!("{}quit\n", common::first_choices(1)));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut hands = Vec::new();
    for name in ["a.json", "b.json"] {
        let copy = dir.join(name);
        std::fs::copy(&saved, &copy).unwrap();
        // The hand in play is kept beside the record.
        std::fs::copy(companion(&saved), companion(&copy)).unwrap();
        let mut args = vec!["--resume", copy.to_str().unwrap()];
        args.extend(bots);
        let out = play(&dir, &args, &format!("{}quit\n", common::first_choices(30)));
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("Resuming after"));
        let record: Value = read_json(&copy);
        // The interrupted hand, finished after the resume (later hands have new seeds):
        // the saved record's last (hands before it may have been played out by the
        // bots before the player's first decision, a partner's kaibosh say). A hand may
        // be short, a kaibosh or a misdeal: that a next one was dealt shows it finished.
        let saved_hands = read_json(&saved)["hands"].as_array().unwrap().clone();
        let interrupted = saved_hands.len() - 1;
        let before = saved_hands[interrupted]["actions"]
            .as_array()
            .unwrap()
            .len();
        let finished = record["hands"][interrupted]["actions"].clone();
        if finished.as_array().unwrap().len() == before {
            // Saved with its last hand complete: nothing was interrupted.
            return None;
        }
        assert!(
            finished.as_array().unwrap().len() > before
                && record["hands"].as_array().unwrap().len() > interrupted + 1,
            "{record}"
        );
        hands.push(finished);
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }
    Some(hands)
}

/// Plays `game` in `variant` from `seed` with rules bots and `script`, then quits: the
/// screen, and where the record is.
fn screen_of(name: &str, game: &str, variant: &str, seed: &str, script: &str) -> (String, PathBuf) {
    let dir = temp_dir(name);
    let record = dir.join("game.json");
    let args = [
        "--game",
        game,
        "--variant",
        variant,
        "--seed",
        seed,
        "--bots",
        "rules",
        "--record",
        record.to_str().unwrap(),
    ];
    let out = play(&dir, &args, &format!("{script}quit\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    (text(&out.stdout), record)
}

#[test]
fn a_bid_of_another_game_says_what_to_type_instead() {
    let (screen, _) = kaibosh_with("kaibosh-suit", "bid 3 hearts\n3 h\n9\n");
    let no_suit = "Not allowed: Kaibosh bids are a number of tricks, with no suit; the \
                   winner of the auction names trump after it. Instead type bid 6 (or pass).";
    assert_eq!(screen.matches(no_suit).count(), 2, "{screen}");
    // A number alone is the bid of that number, however many items the menu has.
    assert!(
        screen.contains("Not allowed: you may bid only 6, kaibosh, or pass."),
        "{screen}"
    );
    let (screen, _) = screen_of("alexa-no-suit", "bid-euchre", "alexa", "5", "bid 8\n8\n1\n");
    assert!(
        screen.contains(
            "Not allowed: Bid Euchre (alexa) bids name a suit or NT (no trump). Instead \
             type e.g. bid 8 ♥ or bid 8 NT (or pass)."
        ),
        "{screen}"
    );
    for level in [8, 7] {
        assert!(
            screen.contains(&format!(
                "A number alone is not a bid here: a bid names a suit or NT, e.g. \
                 bid {level} ♥ or bid {level} NT (or pass; help explains)."
            )),
            "{level}: {screen}"
        );
    }
}

#[test]
fn help_speaks_of_the_game_and_the_decision_at_hand() {
    let (alexa, _) = screen_of("help-alexa", "bid-euchre", "alexa", "5", "help\n");
    // Words as they read, whatever the line breaks.
    let alexa = alexa.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(alexa.contains("bid 7 NT, call2 spades"), "{alexa}");
    assert!(alexa.contains("A number alone is not a bid: it needs its suit or NT."));
    assert!(
        alexa.contains("call2 (partner gives you 2 cards"),
        "{alexa}"
    );
    assert!(!alexa.contains("Type a number from the list") && !alexa.contains("a ten"));
    let (kaibosh, _) = kaibosh_with("help-kaibosh", "?\nbid 6\nh\n?\n");
    let kaibosh = kaibosh.split_whitespace().collect::<Vec<_>>().join(" ");
    for needle in [
        "Type a number to bid it (6 bids 6), p to pass, k for kaibosh, or the call \
         itself: pass, bid 6, kaibosh.",
        "Partners signal with low bids",
        "T or 10 for a ten",
        "(right bower)",
    ] {
        assert!(kaibosh.contains(needle), "{needle}: {kaibosh}");
    }
    assert!(
        !kaibosh.contains("joker") && !kaibosh.contains("NT"),
        "{kaibosh}"
    );
    let (kout, _) = screen_of("help-kout", "kout", "kout6", "2", "?\n");
    let kout = kout.split_whitespace().collect::<Vec<_>>().join(" ");
    for needle in [
        "5 (Bab) to 9 (Bawan)",
        "a forced 5 is Malzom",
        "Type a number to bid it (5 bids 5), p to pass, or the call itself: pass, bid 5.",
    ] {
        assert!(kout.contains(needle), "{needle}: {kout}");
    }
}

#[test]
fn last_says_who_won_the_previous_trick() {
    let (screen, _) = kaibosh_with("last-won", "bid 6\nh\n1\nlast\n");
    let previous = screen
        .split("Previous trick:\n")
        .nth(1)
        .expect("a previous trick is shown");
    let trick: Vec<&str> = previous.lines().take(4).collect();
    assert_eq!(
        trick
            .iter()
            .filter(|l| l.ends_with("◀ won the trick"))
            .count(),
        1,
        "{trick:?}"
    );
    assert!(!trick.iter().any(|l| l.contains("winning")), "{trick:?}");
}

#[test]
fn malzom_is_named_where_the_dealer_is_forced_to_bid_5() {
    let path = dir_file("malzom", "kout.jsonl");
    let out = common::calltrump(
        &words(&and_path(
            "simulate --game kout --games 3 --seed 1 --bots rules --records",
            &path,
        )),
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = common::calltrump(&["replay", "--show", path.to_str().unwrap()], "");
    let shown = text(&out.stdout);
    let malzom: Vec<&str> = shown.lines().filter(|l| l.contains("Malzom")).collect();
    assert!(!malzom.is_empty(), "{shown}");
    for line in malzom {
        assert!(line.contains(" bid 5 (Malzom), took "), "{line}");
    }
    // An ordinary 5, bid before anyone passed to the dealer, is not Malzom.
    assert!(shown
        .lines()
        .any(|l| l.starts_with("Hand ") && l.contains(" bid 5, took")));
}

/// A file `name` in a fresh temporary folder `dir`.
fn dir_file(dir: &str, name: &str) -> PathBuf {
    temp_dir(dir).join(name)
}

/// The output of `calltrump play ARGS` run on a terminal (a pseudo-terminal made by
/// script(1)) with the data folder in `dir`: `typed_early` typed at once, while the bots
/// play, then `answer` once the first prompt of the player's is on the screen. `None`
/// when script(1) is missing.
#[cfg(unix)]
fn on_a_terminal(dir: &Path, args: &str, typed_early: &str, answer: &str) -> Option<String> {
    use std::io::Read;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    let line = format!("{} play {args}", env!("CARGO_BIN_EXE_calltrump"));
    let Ok(mut child) = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("XDG_DATA_HOME", dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("script(1) is missing: not tried on a terminal");
        return None;
    };
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let screen = Arc::new(Mutex::new(Vec::new()));
    let shared = Arc::clone(&screen);
    let reader = std::thread::spawn(move || {
        let mut buffer = [0; 4096];
        while let Ok(n @ 1..) = stdout.read(&mut buffer) {
            shared.lock().unwrap().extend_from_slice(&buffer[..n]);
        }
    });
    stdin.write_all(typed_early.as_bytes()).unwrap();
    let start = Instant::now();
    let prompted = || {
        let screen = text(&screen.lock().unwrap());
        screen.contains("Your bid:") && screen.trim_end().ends_with('>')
    };
    while !prompted() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no prompt: {}",
            text(&screen.lock().unwrap())
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    stdin.write_all(answer.as_bytes()).unwrap();
    let status = child.wait().unwrap();
    reader.join().unwrap();
    drop(stdin);
    let screen = text(&screen.lock().unwrap());
    assert!(status.success(), "{screen}");
    Some(screen)
}

#[cfg(unix)]
#[test]
fn keys_typed_while_the_bots_play_do_not_answer_the_next_question() {
    let dir = temp_dir("typed-ahead");
    let record = dir.join("game.json");
    // Seed 3: the three bots bid before seat 0, 0.7 s each. An impatient `k` and Enter
    // typed meanwhile would call kaibosh at a menu never seen; they are forgotten, and
    // the answer typed at the prompt is read.
    let args = format!(
        "--seed 3 --bots rules --speed normal --record {}",
        record.display()
    );
    let Some(screen) = on_a_terminal(&dir, &args, "k\n", "quit\n") else {
        return;
    };
    assert!(screen.contains("Game stopped."), "{screen}");
    assert!(!screen.contains("you: kaibosh"), "{screen}");
    let actions = record_actions(&record);
    assert_eq!(actions, ["bid 4", "pass", "bid 5"], "{screen}");
}

#[test]
fn a_number_alone_is_the_bid_of_that_number_in_every_auction() {
    // Kaibosh: the menu keys say so, and a number that may not be bid is refused,
    // never taken as the menu's item of that number (3 was kaibosh, 1 pass).
    let (screen, actions) = kaibosh_with("number-bids", "3\n1\n6\nh\n");
    assert!(
        screen.contains("  [p] pass  [6] bid 6  [k] kaibosh\n"),
        "{screen}"
    );
    assert_eq!(
        screen
            .matches("Not allowed: you must bid higher than \"bid 5\".")
            .count(),
        2,
        "{screen}"
    );
    assert_eq!(actions[..5], ["bid 4", "pass", "bid 5", "bid 6", "trump H"]);
    // The letters: p passes, k calls kaibosh.
    for (key, call) in [("p", "pass"), ("P", "pass"), ("k", "kaibosh")] {
        let (screen, actions) = kaibosh_with("letter-calls", &format!("{key}\n"));
        assert_eq!(actions.get(3).map(String::as_str), Some(call), "{screen}");
    }
    // Kout Bo: 5 is Bab (the menu's item 5 was bid 8); the bids by their names.
    let (screen, record) = screen_of("kout-number", "kout", "kout6", "2", "5\n");
    let menu = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        menu.contains("[p] pass [5] Bab [6] Six [7] Seven [8] Eight [9] Bawan"),
        "{screen}"
    );
    assert!(
        record_actions(&record).contains(&"bid 5".to_string()),
        "{screen}"
    );
    // Bid Euchre: calls are typed even when few are left (after a loner they were
    // numbered, 2 being call1 ♠); a number alone is refused with what to type.
    let (screen, record) = screen_of("alexa-after-loner", "bid-euchre", "alexa", "59", "2\np\n");
    let words = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("Your bid: pass, call1 SUIT, moon SUIT. SUIT is ♠ ♥ ♦ ♣ NT, e.g. call1 ♥."),
        "{screen}"
    );
    assert!(!screen.contains("[1] pass"), "{screen}");
    assert!(
        screen.contains(
            "A number alone is not a call here: type the call, e.g. call1 ♥ (or pass; help \
             explains)."
        ),
        "{screen}"
    );
    assert_eq!(
        record_actions(&record)[..3],
        ["bid 6 D", "call2 S", "pass"],
        "{screen}"
    );
}

/// The companion of the save at `path`: the seat and the hand in play, sealed.
fn companion(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.resume", path.display()))
}

#[test]
fn a_new_game_never_writes_over_a_saved_one() {
    let dir = temp_dir("no-overwrite");
    let data = dir.join("calltrump");
    let quit_early = format!("{}quit\n", common::first_choices(1));
    let kout4 = ["--game", "kout", "--variant", "kout4", "--seed", "7"];
    let out = play(&dir, &kout4, &quit_early);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = data.join("calltrump-kout-kout4-7.json");
    let saved = std::fs::read_to_string(&first).unwrap();
    // The other variant with the same seed has a name of its own.
    let kout6 = ["--game", "kout", "--variant", "kout6", "--seed", "7"];
    let out = play(&dir, &kout6, &quit_early);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(data.join("calltrump-kout-kout6-7.json").exists());
    // The same game started again goes to a new name, and says where both are.
    let out = play(&dir, &kout4, &quit_early);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let second = data.join("calltrump-kout-kout4-7-2.json");
    assert!(second.exists(), "{stdout}");
    assert!(
        stdout.contains(&format!("{} holds another game", first.display()))
            && stdout.contains(&format!("saved to {}", second.display())),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), saved);
    // Named with --record, an unfinished game is refused, and kept as it was.
    let mut args = kout4.to_vec();
    args.extend(["--record", first.to_str().unwrap()]);
    let out = play(&dir, &args, &quit_early);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("holds an unfinished game"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), saved);
    // A finished game is not written over either, at --record or the default name:
    // the new game takes the next name and says so.
    let done = dir.join("done.json");
    let mut args = vec!["--seed", "3", "--max-deals", "1", "--bots", "rules"];
    args.extend(["--record", done.to_str().unwrap()]);
    let ones = common::first_choices(100);
    let out = play(&dir, &args, &ones);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let finished = std::fs::read_to_string(&done).unwrap();
    let out = play(&dir, &args, &ones);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let again = dir.join("done-2.json");
    assert!(
        text(&out.stdout).contains(&format!(
            "{} holds a finished game: kept. This game is saved to {}.",
            done.display(),
            again.display()
        )),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(std::fs::read_to_string(&done).unwrap(), finished);
    assert!(again.exists());
    let default = ["--seed", "3", "--max-deals", "1", "--bots", "rules"];
    let out = play(&dir, &default, &ones);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = data.join("calltrump-kaibosh-standard-3.json");
    let finished = std::fs::read_to_string(&first).unwrap();
    let out = play(&dir, &default, &ones);
    assert!(
        text(&out.stdout).contains("holds a finished game: kept"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), finished);
    assert!(data.join("calltrump-kaibosh-standard-3-2.json").exists());
}

#[test]
fn a_save_shows_nothing_of_the_hand_in_play_and_goes_on_from_the_same_seat() {
    let dir = temp_dir("sealed");
    let saved = dir.join("game.json");
    let record = saved.to_str().unwrap();
    // Committed deals, the player at seat 2, stopped in the middle of a hand.
    let args = ["--bots", "rules", "--seat", "2", "--record", record];
    let out = play(&dir, &args, &format!("{}quit\n", common::first_choices(2)));
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The first dealer is drawn at random: a quit that came at the player's cut, between
    // hands, goes on to the next hand's first decision.
    let mut stopped: Value = read_json(&saved);
    for _ in 0..3 {
        if companion(&saved).exists() && read_json(&companion(&saved))["sealed"].is_string() {
            break;
        }
        let out = play(&dir, &["--resume", record], "1\nquit\n");
        assert!(out.status.success(), "{}", text(&out.stderr));
        stopped = read_json(&saved);
    }
    let last = stopped["hands"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        last["deal"],
        serde_json::json!([[], [], [], []]),
        "{stopped}"
    );
    assert!(last["fair_deal"]["seed"].is_null(), "{stopped}");
    let sealed = std::fs::read_to_string(companion(&saved)).unwrap();
    assert!(
        !sealed.contains("deal") && !sealed.contains("\"AS\""),
        "{sealed}"
    );
    // The resumed game keeps its seat and its game.
    let out = play(&dir, &["--resume", record, "--seat", "0"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("at seat 2"),
        "{}",
        text(&out.stderr)
    );
    let out = play(&dir, &["--resume", record, "--game", "kout"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("holds a game of Kaibosh"),
        "{}",
        text(&out.stderr)
    );
    // The record alone, copied elsewhere, does not go on without its hand.
    let alone = dir.join("alone.json");
    std::fs::copy(&saved, &alone).unwrap();
    let out = play(&dir, &["--resume", alone.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is missing"),
        "{}",
        text(&out.stderr)
    );
    // Resumed, the hand ends with its deal, and its seed is shown and checks out.
    let out = play(
        &dir,
        &["--resume", record, "--bots", "rules"],
        &format!("{}quit\n", common::first_choices(40)),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("You are seat 2."), "{stdout}");
    let hand = stopped["hands"].as_array().unwrap().len();
    let finished: Value = read_json(&saved);
    let seed = finished["hands"][hand - 1]["fair_deal"]["seed"]
        .as_str()
        .unwrap_or_else(|| panic!("{finished}"))
        .to_string();
    assert!(
        stdout.contains(&format!("Hand {hand}'s seed: {}…", &seed[..8])),
        "{stdout}"
    );
    assert!(!sealed.contains(&seed));
    let verified = common::calltrump(&["verify", record], "");
    assert_eq!(
        verified.status.code(),
        Some(0),
        "{}",
        text(&verified.stdout)
    );
}

#[test]
fn a_decided_kout_bo_hand_says_so_and_kout_bo_counts_no_throw_ins() {
    let dir = temp_dir("kout-decided");
    let args = [
        "--game",
        "kout",
        "--seed",
        "3",
        "--bots",
        "rules",
        "--max-deals",
        "1",
    ];
    let out = play(&dir, &args, &common::first_choices(100));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // The partner's 6 is made by trick 6: said once, and the hand played out.
    let lines: Vec<&str> = stdout.lines().collect();
    let decided: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("The hand is decided: the bid is made."))
        .collect();
    assert_eq!(decided.len(), 1, "{stdout}");
    assert!(lines[decided[0] - 1].starts_with("Trick 6: "), "{stdout}");
    assert!(stdout.contains("\nTrick 9: "), "{stdout}");
    // Nothing is asked of the player from then on: their cards are played for them.
    let after = lines[decided[0]..].join("\n");
    assert!(!after.contains("> "), "{after}");
    assert!(after.contains("\nyou: "), "{after}");
    let summary = common::succeeds(
        &words("simulate --game kout --games 2 --seed 1 --bots random"),
        "",
    );
    assert!(
        summary.contains("\nhands: ") && !summary.contains("thrown in"),
        "{summary}"
    );
}

#[test]
fn a_very_long_line_is_not_echoed_back() {
    let dir = temp_dir("long-line");
    let long = "x".repeat(5000);
    let out = play(
        &dir,
        &["--seed", "3", "--bots", "rules"],
        &format!("{long}\nquit\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Not understood: a line of 5000 characters"),
        "{stdout}"
    );
    assert!(!stdout.contains(&"x".repeat(100)), "{stdout}");
}

/// The columns `line` takes on a terminal: its characters, less colour codes.
fn columns_of(line: &str) -> usize {
    line.split('\x1b')
        .enumerate()
        .map(|(i, part)| match i {
            0 => part.chars().count(),
            _ => part.chars().skip_while(|c| *c != 'm').skip(1).count(),
        })
        .sum()
}

#[test]
fn every_screen_text_follows_the_terminals_width() {
    let program = env!("CARGO_BIN_EXE_calltrump");
    let games = [
        "--game kaibosh --seed 3",
        "--game bid-euchre --variant alexa --seed 5",
        "--game kout --seed 1 --ascii",
    ];
    // Help, a hint, the rules and the menus of a whole hand or more.
    let script = format!(
        "help\nhint\nrules\n{}hint\nhelp\nquit\n",
        "p\n1\n".repeat(12)
    );
    for columns in [60, 100] {
        let mut widest = 0;
        for (g, game) in games.iter().enumerate() {
            let dir = temp_dir(&format!("width-{columns}-{g}"));
            let mut command = Command::new(program);
            command
                .arg("play")
                .args(game.split(' '))
                .args(["--bots", "rules"])
                .env("XDG_DATA_HOME", &dir)
                .env("COLUMNS", columns.to_string());
            let out = run(command, &script);
            assert!(out.status.success(), "{game}: {}", text(&out.stderr));
            for line in text(&out.stdout).lines() {
                // Through a pipe the typed line is not echoed: what follows a prompt
                // starts on the prompt's line, where a terminal starts a new one.
                let line = line.trim_start_matches("> ");
                // Commands to copy stand on lines of their own, never wrapped; so does
                // a path longer than the line.
                let command = line.starts_with("  ") && line.contains(program);
                let one_word = !line.trim().contains(' ');
                assert!(
                    command || one_word || columns_of(line) <= columns,
                    "{game} at {columns} columns: a line of {}:\n{line}",
                    columns_of(line)
                );
                widest = widest.max(columns_of(line));
            }
        }
        // The text fills a wide terminal rather than keep to a narrow column.
        assert!(
            widest > columns - 10,
            "{columns} columns: at most {widest} used"
        );
    }
}

#[test]
fn a_bid_out_of_range_names_the_bids_allowed_and_bawan_is_named() {
    let dir = temp_dir("bids");
    // Kaibosh seed 3: two bids before seat 0, the highest 5.
    let out = play(&dir, &["--seed", "3", "--bots", "rules"], "bid 9\nquit\n");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Not allowed: you may bid only 6, kaibosh, or pass."),
        "{stdout}"
    );
    let out = play(
        &dir,
        &["--game", "kout", "--seed", "1", "--bots", "rules"],
        "bid 4\n9\nh\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Not allowed: you may bid 5, 6, 7, 8 or 9, or pass."),
        "{stdout}"
    );
    assert!(
        stdout.contains("Contract: you bid Bawan (9), trump "),
        "{stdout}"
    );
}

#[test]
fn resume_refuses_another_seed() {
    let dir = temp_dir("resume-seed");
    let record = dir.join("game.json");
    let path = record.to_str().unwrap();
    let out = play(&dir, &["--seed", "4", "--record", path], "quit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = play(&dir, &["--resume", path, "--seed", "5"], "quit\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("goes on with its own deals (seed 4): --resume takes no other --seed"),
        "{}",
        text(&out.stderr)
    );
    // Its own seed is no contradiction.
    let out = play(&dir, &["--resume", path, "--seed", "4"], "quit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn a_save_open_in_another_calltrump_is_refused_and_a_stale_lock_taken_over() {
    let dir = temp_dir("lock");
    let record = dir.join("game.json");
    let path = record.to_str().unwrap();
    let out = play(&dir, &["--seed", "4", "--record", path], "quit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lock = dir.join("game.json.lock");
    assert!(!lock.exists(), "the lock goes when the game stops");
    let saved = std::fs::read_to_string(&record).unwrap();
    // A running process (this test) holds it: refused, the save left as it was.
    std::fs::write(&lock, format!("{}\n", std::process::id())).unwrap();
    let out = play(&dir, &["--resume", path], "quit\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(&format!(
            "{path} is open in another calltrump (process {})",
            std::process::id()
        )),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), saved);
    assert!(lock.exists());
    // A process that is gone left it: taken over, and removed at the end.
    let mut gone = Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    std::fs::write(&lock, format!("{pid}\n")).unwrap();
    let out = play(&dir, &["--resume", path], "quit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!lock.exists());
}
