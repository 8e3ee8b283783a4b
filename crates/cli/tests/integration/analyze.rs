//! `calltrump analyze` as a user runs it, over seeded games of every variant (few deals
//! sampled per decision, to stay fast): every decision judged once, losses and marks as
//! documented, the open-cards table as the solver says, a seat judged from its own
//! observation only, clear errors; positions whose best play is known by hand
//! (tests/analysis/known-positions.json); and `hint` at the `play` prompt.

use crate::common;

use calltrump_bots::{BotGame, Solver};
use calltrump_engine::{
    Action, CardBag, Game, GameRules, Kaibosh, KaiboshRules, Record, Seat, Suit, Turn, VariantKind,
};
use calltrump_server::session::hint_message;
use serde_json::Value;

use common::{
    calltrump, read_json, simulated, succeeds, temp_path, text, words, KAIBOSH_DEAL, VARIANTS,
};

/// A game of `game` and `variant` between `hard` bots, at most two deals: its record.
fn game_record(game: &str, variant: &str, seed: u64) -> String {
    let records = simulated((game, variant), 1, seed, "hard", &["--max-deals", "2"]);
    records.into_iter().next().expect("one game")
}

/// `analyze - --json` of `record` with `extra` flags, by default 6 deals per card play.
fn analyze(record: &str, extra: &[&str]) -> Value {
    let mut args = vec!["analyze", "-", "--json"];
    args.extend_from_slice(extra);
    if !extra.contains(&"--samples") {
        args.extend(["--samples", "6"]);
    }
    serde_json::from_str(&succeeds(&args, record)).unwrap()
}

#[test]
fn every_decision_is_judged_once_with_losses_and_marks_as_documented() {
    for (game, variant) in VARIANTS {
        for seed in [1, 2] {
            let record = game_record(game, variant, seed);
            let analysis = analyze(&record, &[]);
            let at = format!("{game} {variant} seed {seed}");
            check_analysis(&record, &analysis, &at);
        }
    }
}

/// Everything the JSON of `record`'s analysis promises.
fn check_analysis(record: &str, analysis: &Value, at: &str) {
    let record = Record::parse(record).unwrap();
    let t = &analysis["thresholds"];
    let (inaccuracy, mistake, blunder) = (
        t["inaccuracy"].as_f64().unwrap(),
        t["mistake"].as_f64().unwrap(),
        t["blunder"].as_f64().unwrap(),
    );
    assert!(
        0.0 < inaccuracy && inaccuracy < mistake && mistake < blunder,
        "{at}"
    );
    let hands = analysis["hands"].as_array().unwrap();
    assert_eq!(hands.len(), record.hands.len(), "{at}");
    let seats = analysis["seats"].as_array().unwrap().len();
    let mut per_seat = vec![(0, 0.0, [0; 3]); seats];
    for (h, (hand, recorded)) in hands.iter().zip(&record.hands).enumerate() {
        let decisions = hand["decisions"].as_array().unwrap();
        assert_eq!(decisions.len(), recorded.actions.len(), "{at} hand {h}");
        for (i, (decision, action)) in decisions.iter().zip(&recorded.actions).enumerate() {
            let at = format!("{at} hand {h} decision {i}");
            assert_eq!(decision["index"], i, "{at}");
            let taken: Action = action.parse().unwrap();
            assert_eq!(decision["taken"], taken.to_string(), "{at}");
            let judged = decision["actions"].as_array().unwrap();
            let loss_of = |j: &Value| j["loss"].as_f64().unwrap();
            assert!(judged.iter().all(|j| loss_of(j) >= 0.0), "{at}");
            assert_eq!(loss_of(&judged[0]), 0.0, "{at}: the best loses nothing");
            let mine = judged.iter().find(|j| j["action"] == decision["taken"]);
            let mine = mine.unwrap_or_else(|| panic!("{at}: the action taken is judged"));
            let loss = decision["loss"].as_f64().unwrap();
            assert_eq!(loss, loss_of(mine), "{at}");
            let expected = if loss >= blunder {
                "blunder"
            } else if loss >= mistake {
                "mistake"
            } else if loss >= inaccuracy {
                "inaccuracy"
            } else {
                "none"
            };
            assert_eq!(
                decision["mark"].as_str().unwrap_or("none"),
                expected,
                "{at}"
            );
            if decision["forced"] == true {
                assert_eq!(judged.len(), 1, "{at}");
                continue;
            }
            assert!(decision["deals"].as_u64().unwrap() > 0, "{at}");
            let seat = decision["seat"].as_u64().unwrap() as usize;
            per_seat[seat].0 += 1;
            per_seat[seat].1 += loss;
            if let Some(m) = ["inaccuracy", "mistake", "blunder"]
                .iter()
                .position(|m| decision["mark"] == *m)
            {
                per_seat[seat].2[m] += 1;
            }
        }
        let table = &hand["open_cards"]["rows"];
        assert_eq!(table.as_array().unwrap().len(), seats, "{at} hand {h}");
    }
    for (s, (decisions, lost, marks)) in per_seat.into_iter().enumerate() {
        let summary = &analysis["seats"][s];
        assert_eq!(summary["decisions"], decisions, "{at} seat {s}");
        let average = summary["average_loss"].as_f64().unwrap();
        assert!(
            (average - lost / f64::from(decisions.max(1))).abs() < 1e-9,
            "{at}"
        );
        let counted = [
            &summary["inaccuracies"],
            &summary["mistakes"],
            &summary["blunders"],
        ];
        assert_eq!(counted.map(|c| c.as_u64().unwrap() as usize), marks, "{at}");
    }
}

#[test]
fn the_open_cards_table_is_what_the_solver_says_of_the_deal() {
    let record = format!(r#"{{"game":"kaibosh","hands":[{{"deal":{KAIBOSH_DEAL}}}]}}"#);
    let analysis = analyze(&record, &[]);
    let table = &analysis["hands"][0]["open_cards"];
    assert_eq!(table["depth"], Value::Null, "Kaibosh is solved to the end");
    let deal: Vec<Vec<String>> = serde_json::from_str(KAIBOSH_DEAL).unwrap();
    let deal: Vec<CardBag> = deal
        .iter()
        .map(|hand| hand.iter().map(|c| c.parse().unwrap()).collect())
        .collect();
    let mut solver = Solver::new();
    for declarer in 0..4u8 {
        let row = &table["rows"][usize::from(declarer)];
        assert_eq!(row["declarer"], declarer);
        for (column, suit) in Suit::ALL.into_iter().enumerate() {
            // Seat 0 deals: seats 1, 2, 3 and 0 call in turn.
            let mut game = Kaibosh::new(&KaiboshRules::default(), Seat(0));
            game.deal(&deal).unwrap();
            for seat in [1, 2, 3, 0] {
                let call = if seat == declarer { "bid 1" } else { "pass" };
                game.apply(call.parse().unwrap()).unwrap();
            }
            game.apply(Action::Trump(suit)).unwrap();
            let (position, _) = game.position().unwrap();
            let team0 = solver.solve(&position);
            let tricks = if declarer % 2 == 0 { team0 } else { 6 - team0 };
            let cell = &row["cells"][column];
            assert_eq!(cell["trump"], suit.letter().to_string());
            assert_eq!(cell["tricks"], tricks, "declarer {declarer} trump {suit:?}");
        }
    }
    // By hand: with spades trump seat 0 holds six of the seven trumps and overtrumps
    // the seventh (the left bower, J♣): its team takes every trick.
    assert_eq!(table["rows"][0]["cells"][0]["tricks"], 6);
    assert_eq!(table["rows"][3]["cells"][0]["tricks"], 0);
}

#[test]
fn a_seat_is_judged_from_its_own_observation_only() {
    for (game, variant, seed) in [("kaibosh", "standard", 3), ("bid-euchre", "alexa", 4)] {
        let mut record = Record::parse(&game_record(game, variant, seed)).unwrap();
        record.hands.truncate(1);
        // Stop a few cards into the play, then swap an unplayed card of seat 1 with one
        // of seat 3: seat 0 (and its partner) cannot tell the two deals apart.
        let actions = &mut record.hands[0].actions;
        let auction = actions
            .iter()
            .position(|a| a.starts_with("play"))
            .unwrap_or(actions.len());
        actions.truncate(auction + 3);
        let played: Vec<String> = actions
            .iter()
            .filter_map(|a| a.strip_prefix("play ").map(str::to_string))
            .collect();
        let before = analyze(&record.to_json(), &["--seed", "11"]);
        let mut swapped = 0;
        let deal = record.hands[0].deal.clone();
        'swap: for i in 0..deal[1].len() {
            for j in 0..deal[3].len() {
                let (a, b) = (deal[1][i].clone(), deal[3][j].clone());
                if a == b || played.contains(&a) || played.contains(&b) {
                    continue;
                }
                let mut other = record.clone();
                other.hands[0].deal[1][i] = b;
                other.hands[0].deal[3][j] = a;
                // The seats' plays must stay legal (no revealed void broken).
                if other.replay().is_err() {
                    continue;
                }
                let after = analyze(&other.to_json(), &["--seed", "11"]);
                assert_ne!(before["hands"][0]["deal"], after["hands"][0]["deal"]);
                let of_seat = |analysis: &Value, seat: u64| -> Vec<Value> {
                    analysis["hands"][0]["decisions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|d| d["seat"] == seat)
                        .cloned()
                        .collect()
                };
                for seat in [0, 2] {
                    assert_eq!(of_seat(&before, seat), of_seat(&after, seat), "{game}");
                    assert_eq!(
                        before["seats"][seat as usize],
                        after["seats"][seat as usize]
                    );
                }
                swapped += 1;
                if swapped == 2 {
                    break 'swap;
                }
            }
        }
        assert_eq!(swapped, 2, "{game}: two swaps that keep the record legal");
    }
}

#[test]
fn a_bad_record_is_refused_with_one_clear_line() {
    let missing = temp_path("missing.json");
    let bad_rule = format!(
        r#"{{"game":"kaibosh","hands":[{{"deal":{KAIBOSH_DEAL},"actions":["bid 2","pass","pass","pass","trump S","play AS"]}}]}}"#
    );
    let good = format!(r#"{{"game":"kaibosh","hands":[{{"deal":{KAIBOSH_DEAL}}}]}}"#);
    let two = format!("{good}\n{good}\n");
    let cases: [(Vec<&str>, &str, &str); 6] = [
        (
            vec!["analyze", missing.to_str().unwrap()],
            "",
            "error: reading",
        ),
        (vec!["analyze", "-"], "{not json", "invalid record"),
        (vec!["analyze", "-"], r#"{"game":"chess"}"#, "chess"),
        (
            vec!["analyze", "-"],
            &bad_rule,
            "hand 0, action 5 \"play AS\": seat 1 does not hold AS",
        ),
        (
            vec!["analyze", "-"],
            &two,
            "error: standard input holds 2 games; analyze takes one",
        ),
        (
            vec!["analyze", "-", "--hand", "3"],
            &good,
            "error: there is no hand 3: the record has only hand 1",
        ),
    ];
    for (args, stdin, message) in cases {
        let out = calltrump(&args, stdin);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn the_html_review_walks_the_game_with_its_score_chart() {
    let record = game_record("kaibosh", "standard", 5);
    let path = temp_path("review.html");
    let html_path = path.to_str().unwrap();
    let args = ["analyze", "-", "--samples", "4", "--html", html_path];
    let stdout = succeeds(&args, &record);
    assert!(stdout.contains("Per seat:"), "{stdout}");
    let html = std::fs::read_to_string(&path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    for part in [
        "<svg",
        "Score through the game",
        "Hand 1",
        "Auction",
        "Trick 1",
        "Open cards",
    ] {
        assert!(html.contains(part), "{part}");
    }
    assert!(
        !html.contains("Hand 0"),
        "hands are numbered from 1, as play shows them"
    );
    // Self-contained: nothing fetched from elsewhere.
    assert!(!html.contains("src=") && !html.contains("href="));
    // A record alone says nobody's name or seat: the legend names the teams by seats,
    // the x axis the hands as play numbers them.
    for part in [
        ">team of seats 0 and 2<",
        ">team of seats 1 and 3<",
        ">start<",
        ">1<",
        ">2<",
    ] {
        assert!(html.contains(part), "{part}");
    }
    assert!(!html.contains("(steelblue)"));
    // One hand: bars of the score before and after it, not a lone slanted line.
    succeeds(&[&args[..], &["--hand", "2"]].concat(), &record);
    let html = std::fs::read_to_string(&path).unwrap();
    for part in [
        "Score before and after hand 2",
        ">before hand 2<",
        ">after hand 2<",
    ] {
        assert!(html.contains(part), "{part}");
    }
    assert!(!html.contains("<polyline"));
}

#[test]
fn the_review_legend_says_which_team_is_the_players() {
    // A play save going on: its companion holds the person's seat.
    let record = game_record("kaibosh", "standard", 7);
    let save = temp_path("saved-game.json");
    std::fs::write(&save, &record).unwrap();
    let mut companion = save.clone().into_os_string();
    companion.push(".resume");
    std::fs::write(&companion, r#"{"calltrump_resume":1,"seat":1}"#).unwrap();
    let review = temp_path("saved-review.html");
    let (save, html_path) = (save.to_str().unwrap(), review.to_str().unwrap());
    succeeds(
        &["analyze", save, "--samples", "1", "--html", html_path],
        "",
    );
    let html = std::fs::read_to_string(&review).unwrap();
    assert!(html.contains(">your team (seats 1 and 3)<"), "{html}");
    assert!(html.contains(">the other team (seats 0 and 2)<"));

    // A night's set: the players of each seat by name.
    let night = temp_path("review-night.json");
    let line = format!(
        "night --players Ann,Bob,Cy,Di,Ed --sets 2 --seed 3 --bots random --record {}",
        night.display()
    );
    succeeds(&words(&line), "");
    let saved = read_json(&night);
    let players: Vec<&str> = saved["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let seat = |s: usize| players[saved["sets"][1]["table"]["seats"][s].as_u64().unwrap() as usize];
    let night = night.to_str().unwrap();
    succeeds(
        &[
            "analyze",
            night,
            "--set",
            "2",
            "--samples",
            "1",
            "--hand",
            "1",
            "--html",
            html_path,
        ],
        "",
    );
    let html = std::fs::read_to_string(&review).unwrap();
    for (team, seats) in [
        ((seat(0), seat(2)), "0 and 2"),
        ((seat(1), seat(3)), "1 and 3"),
    ] {
        let legend = format!(">{} and {} (seats {seats})<", team.0, team.1);
        assert!(html.contains(&legend), "{legend}");
    }
}

/// `calltrump play ARGS --bots rules` asked for a hint at the first prompt: the whole
/// screen and the hint in it.
fn hint_at_first_prompt(name: &str, args: &str) -> (String, String) {
    let path = temp_path(name);
    let line = format!("play {args} --bots rules --record {}", path.display());
    let stdout = text(&calltrump(&words(&line), "hint\nquit\n").stdout);
    let hint = stdout
        .split("Hint: ")
        .nth(1)
        .unwrap_or_else(|| panic!("a hint: {stdout}"))
        .to_string();
    (stdout, hint)
}

#[test]
fn hint_at_the_play_prompt_shows_the_best_three_from_the_players_cards() {
    let (_, hint) = hint_at_first_prompt("hint-game.json", "--seed 3");
    assert!(hint.starts_with("the expert's best"), "{hint}");
    for n in ["  1. ", "  2. ", "  3. "] {
        assert!(hint.contains(n), "{hint}");
    }
    // The same position asks again with the same dice: the same hint.
    let again = hint_at_first_prompt("hint-game-2.json", "--seed 3").1;
    assert_eq!(again.replace("hint-game-2", "hint-game"), hint);
}

#[test]
fn hint_weighs_the_calls_the_expert_prunes_to_show_three() {
    // Kout Bo seed 1: the expert weighs only pass at seat 0's first bid; the hint
    // weighs the pruned bids too, and shows them as any other: their points say how
    // they fare.
    let (_, hint) = hint_at_first_prompt("hint-pruned.json", "--game kout --seed 1");
    let lines: Vec<&str> = hint.lines().skip(2).take(3).collect();
    for (i, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("  {}. ", i + 1)), "{hint}");
    }
    assert!(lines[0].starts_with("  1. pass "), "{hint}");
    for line in &lines[1..] {
        assert!(line.contains(" bid "), "{hint}");
    }
    assert!(
        !hint.contains("would not") && !hint.contains("not weighed"),
        "{hint}"
    );
}

#[test]
fn the_best_moves_are_the_last_of_a_hint_and_it_fits_a_small_terminal() {
    // Bid Euchre seed 5: seat 0 bids after two calls the bots read; and later in the
    // play, after the whole auction.
    for (name, script) in [
        ("auction", "hint\nquit\n"),
        ("play", "p\n1\n1\n1\nhint\nquit\n"),
    ] {
        let path = temp_path(&format!("hint-last-{name}.json"));
        let line = format!(
            "play --game bid-euchre --variant alexa --seed 5 --bots rules --record {}",
            path.display()
        );
        let stdout = text(&calltrump(&words(&line), script).stdout);
        let from_hint = stdout
            .rsplit("> ")
            .find(|part| part.contains("Hint: "))
            .unwrap_or_else(|| panic!("a hint: {stdout}"));
        let lines: Vec<&str> = from_hint.lines().collect();
        assert!(
            lines[0].starts_with("What the bots take"),
            "{name}: the readings come first: {from_hint}"
        );
        // The hint, then the choices shown again: the best move is the last line of
        // the hint, and all of it is on a 24-line screen with the prompt.
        let best = lines.iter().rposition(|l| l.starts_with("  1. ")).unwrap();
        let after: Vec<&&str> = lines[best..]
            .iter()
            .filter(|l| !l.starts_with("  "))
            .collect();
        assert!(
            after.len() == 1 && after[0].ends_with(':'),
            "{name}: after the best moves only the choices again: {from_hint}"
        );
        assert!(
            lines.len() < 24,
            "{name}: {} lines: {from_hint}",
            lines.len()
        );
    }
}

#[test]
fn known_best_plays_are_best_and_known_blunders_are_blunders() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/analysis/known-positions.json"
    );
    let cases: Value = read_json(std::path::Path::new(path));
    for case in cases.as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let analysis = analyze(&case["record"].to_string(), &["--samples", "30"]);
        let index = case["decision"].as_u64().unwrap() as usize;
        let decision = &analysis["hands"][0]["decisions"][index];
        assert_eq!(decision["taken"], case["blunder"], "{name}");
        assert_eq!(decision["mark"], "blunder", "{name}: {decision}");
        let best = &decision["actions"][0];
        let known: Vec<&Value> = case["best"].as_array().unwrap().iter().collect();
        assert!(known.contains(&&best["action"]), "{name}: {decision}");
        assert_eq!(best["loss"], 0.0, "{name}");
    }
}

#[test]
fn analyze_numbers_hands_from_1_as_play_shows_them() {
    let record = game_record("kaibosh", "standard", 5);
    let hands = serde_json::from_str::<Value>(&record).unwrap()["hands"]
        .as_array()
        .unwrap()
        .len();
    assert!(hands >= 2);
    let report = succeeds(&["analyze", "-", "--samples", "2", "--hand", "2"], &record);
    assert!(report.contains("\nHand 2: "), "{report}");
    assert!(
        !report.contains("\nHand 1: ") && !report.contains("\nHand 3: "),
        "{report}"
    );
    // The JSON keeps each hand's index in the record, from 0.
    let json = analyze(&record, &["--samples", "2", "--hand", "2"]);
    assert_eq!(json["hands"][0]["hand"], 1);
    let out = calltrump(&["analyze", "-", "--hand", "0"], &record);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let beyond = (hands + 1).to_string();
    let out = calltrump(&["analyze", "-", "--hand", &beyond], &record);
    assert!(
        text(&out.stderr).contains(&format!(
            "there is no hand {beyond}: the record has hands 1 to {hands}"
        )),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn analyze_takes_a_set_of_a_night() {
    let night = temp_path("analyzed-night.json");
    let line = format!(
        "night --players Ann,Bob,Cy,Di --sets 2 --seed 2 --bots random --record {}",
        night.display()
    );
    succeeds(&words(&line), "");
    let path = night.to_str().unwrap();
    let out = calltrump(&["analyze", path, "--samples", "1"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("choose it with --set N"),
        "{}",
        text(&out.stderr)
    );
    let report = succeeds(
        &[
            "analyze",
            path,
            "--set",
            "2",
            "--samples",
            "1",
            "--hand",
            "1",
        ],
        "",
    );
    assert!(report.starts_with("Bid Euchre (alexa)"), "{report}");
    let out = calltrump(&["analyze", path, "--set", "3"], "");
    assert!(
        text(&out.stderr).contains("there is no set 3"),
        "{}",
        text(&out.stderr)
    );
}

/// The first seed from 1 whose first decision of the game is seat 0's (the person's in
/// `calltrump play --seat 0`), and that decision's hint as the server sends it.
fn first_decision_of_seat_0(variant: VariantKind) -> (u64, Value) {
    let rules = GameRules::new(variant);
    for seed in 1..200 {
        let mut table = calltrump_play::game_loop::seeded(&rules, seed, 0, &[Seat(0)]);
        table.deal().unwrap();
        if table.turn() != Turn::Seat(Seat(0)) {
            continue;
        }
        let game = table.game();
        let legal = game.legal_action_list();
        let names: Vec<String> = (0..table.seats()).map(|s| format!("seat {s}")).collect();
        let message = hint_message(&rules, &game.observation(Seat(0)), &legal, 0, &names);
        return (seed, serde_json::to_value(message).unwrap());
    }
    panic!("no seed of {variant:?} from 1 to 200 gives seat 0 the first decision");
}

#[test]
fn the_terminal_and_the_web_give_the_same_hint_for_the_same_position() {
    for (variant, game) in [
        (VariantKind::Standard, "--game kaibosh"),
        (VariantKind::Alexa, "--game bid-euchre --variant alexa"),
        (VariantKind::Kout6, "--game kout --variant kout6"),
    ] {
        let (seed, web) = first_decision_of_seat_0(variant);
        let (_, terminal) = hint_at_first_prompt(
            &format!("hint-same-{variant:?}.json"),
            &format!("{game} --seed {seed}"),
        );
        let at = format!("{game} --seed {seed}: terminal {terminal}\nweb {web}");
        let deals = format!("({} deals;", web["deals"]);
        assert!(terminal.contains(&deals), "{at}");
        // The points of each line, in order: "  1. ACTION  +1.25".
        let terminal_points: Vec<String> = terminal
            .lines()
            .filter(|line| line.starts_with("  ") && line.as_bytes()[2].is_ascii_digit())
            .map(|line| line.rsplit(' ').next().unwrap().to_string())
            .collect();
        let web_points: Vec<String> = web["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| format!("{:+.2}", a["points"].as_f64().unwrap()))
            .collect();
        assert!(!web_points.is_empty(), "{at}");
        assert_eq!(terminal_points, web_points, "{at}");
    }
}
