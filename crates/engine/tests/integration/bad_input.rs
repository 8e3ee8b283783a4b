//! Bad input never panics: malformed JSON, wrong types, huge or negative numbers, broken
//! deals and actions all give one clear error line through `Record::parse` and `replay`,
//! and no action in any state makes `Game::apply` panic. The record's fields are tried on
//! a Kaibosh record; truncated, corrupt and broken records, and every kind of illegal
//! action at every phase, on every variant.

use crate::common;

use calltrump_engine::{
    seeded, Action, AnyGame, Broken, Card, CardBag, CardPair, CardSet, Game, GameRng, GameRules,
    KaiboshRules, KoutRules, KoutVariant, Loner, Phase, Record, RecordError, Seat, Strain, Suit,
    Turn,
};
use common::check_cases;
use rand::Rng;
use serde_json::{json, Value};

/// Every variant: Kaibosh, Bid Euchre alexa and simplified, Kout Bo 6, Kout Bo 4 with
/// two cards undealt and with its default deck.
fn every_variant() -> Vec<(&'static str, GameRules)> {
    let mut all = common::every_variant();
    all.push((
        "kout4 no black sixes",
        GameRules::Kout(KoutRules {
            variant: KoutVariant::Four,
            ..KoutRules::default()
        }),
    ));
    all
}

/// A record (as JSON) of the first hand of a seeded random game of `rules`, played out,
/// the game going on after it.
fn first_hand(rules: &GameRules) -> Value {
    for seed in 0.. {
        let (mut record, _) = common::random_game(rules, seed);
        if record.hands.len() > 1 {
            record.hands.truncate(1);
            return serde_json::from_str(&record.to_json()).unwrap();
        }
    }
    unreachable!()
}

/// The seat that acts first after `record`'s first deal.
fn first_to_act(record: &Value) -> Seat {
    let record = Record::parse(&record.to_string()).unwrap();
    let (rules, dealer) = record.rules().unwrap();
    let mut game = AnyGame::new(&rules, dealer);
    let deal: Vec<CardBag> = record.hands[0]
        .deal
        .iter()
        .map(|seat| seat.iter().map(|c| c.parse::<Card>().unwrap()).collect())
        .collect();
    game.deal(&deal).unwrap();
    common::seat_to_act(&game)
}

/// A valid, complete record: seat 1 kaiboshes in hearts and takes every trick.
fn valid() -> Value {
    json!({
        "game": "kaibosh",
        "variant": "standard",
        "options": {"target": 50, "all_pass": "redeal"},
        "first_dealer": 0,
        "hands": [{
            "deal": [["9S","TS","JS","QS","KS","AS"], ["JH","AH","KH","QH","TH","9H"],
                     ["JD","AD","KD","QD","TD","9D"], ["9C","TC","JC","QC","KC","AC"]],
            "actions": ["kaibosh", "trump H",
                "play JH", "play JD", "play 9S", "play AH", "play AD", "play TS",
                "play KH", "play KD", "play JS", "play QH", "play QD", "play QS",
                "play TH", "play TD", "play KS", "play 9H", "play 9D", "play AS"]
        }]
    })
}

/// Parses and replays `text`; returns the error line, or `None` if it replays.
fn outcome(text: &str) -> Option<String> {
    let error = match Record::parse(text) {
        Err(e) => e,
        Ok(record) => match record.replay() {
            Ok(_) => return None,
            Err(e) => e,
        },
    };
    let line = error.to_string();
    assert!(!line.is_empty(), "{text}: empty error");
    assert!(
        !line.contains('\n'),
        "{text}: error is not one line: {line}"
    );
    Some(line)
}

fn error_of(value: &Value) -> String {
    outcome(&value.to_string()).unwrap_or_else(|| panic!("{value} replays"))
}

/// `valid()` with `path` (object keys and array indices) set to `new`.
fn with(path: &[&str], new: Value) -> Value {
    let mut value = valid();
    let mut slot = &mut value;
    for key in path {
        slot = match key.parse::<usize>() {
            Ok(i) => &mut slot[i],
            Err(_) => &mut slot[*key],
        };
    }
    *slot = new;
    value
}

#[test]
fn the_valid_record_replays() {
    assert_eq!(outcome(&valid().to_string()), None);
}

#[test]
fn malformed_json_is_an_invalid_record() {
    let deep = "[".repeat(100_000);
    for text in [
        "",
        " ",
        "{",
        "}",
        "[]",
        "null",
        "42",
        "\"kaibosh\"",
        "{\"game\": \"kaibosh\",}",
        "{\"game\": \"kaibosh\"} trailing",
        "{'game': 'kaibosh'}",
        "{\"game\": \"kaibosh\", \"hands\": [",
        "\u{feff}{\"game\": \"kaibosh\"}",
        "{\"game\": \"kai\\ud800bosh\"}",
        &deep,
    ] {
        let error = Record::parse(text).expect_err(text);
        assert!(matches!(error, RecordError::Json(_)), "{text}: {error:?}");
        assert!(error.to_string().starts_with("invalid record"), "{error}");
    }
}

#[test]
fn wrong_types_in_the_record_are_errors() {
    for (path, value) in [
        (&["game"][..], json!(5)),
        (&["game"][..], json!(null)),
        (&["variant"][..], json!(["standard"])),
        (&["options"][..], json!([1, 2])),
        (&["options"][..], json!("target=50")),
        (&["hands"][..], json!({"0": {}})),
        (&["hands"][..], json!("none")),
        (&["hands", "0"][..], json!(null)),
        (&["hands", "0"][..], json!([])),
        (&["hands", "0", "deal"][..], json!("9S TS JS")),
        (&["hands", "0", "deal"][..], json!(null)),
        (&["hands", "0", "deal", "0"][..], json!("9S")),
        (&["hands", "0", "deal", "0", "0"][..], json!(9)),
        (&["hands", "0", "deal", "0", "0"][..], json!({"rank": 9})),
        (&["hands", "0", "actions"][..], json!("kaibosh")),
        (&["hands", "0", "actions", "0"][..], json!(7)),
        (&["hands", "0", "actions", "0"][..], json!(["kaibosh"])),
    ] {
        let record = with(path, value.clone());
        let line = error_of(&record);
        // The error names the field as a path: `hands[0].deal[0][0]`.
        let field = path
            .iter()
            .fold(String::new(), |field, key| match key.parse::<usize>() {
                Ok(i) => format!("{field}[{i}]"),
                Err(_) if field.is_empty() => key.to_string(),
                Err(_) => format!("{field}.{key}"),
            });
        assert!(
            line.starts_with(&format!("invalid record: {field}: ")),
            "{path:?} = {value}: {line}"
        );
    }
}

/// Numbers no seat takes: negative, past the seats, at the ends of `u64` and `i64`, and
/// too big for any integer.
fn odd_numbers() -> [Value; 5] {
    [
        json!(-1),
        json!(4),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1e300),
    ]
}

#[test]
fn first_dealer_must_be_a_seat() {
    let more = [
        json!(255),
        json!(256),
        json!(1.5),
        json!("1"),
        json!(true),
        json!([0]),
    ];
    for value in odd_numbers().into_iter().chain(more) {
        let line = error_of(&with(&["first_dealer"], value.clone()));
        assert!(line.starts_with("first_dealer"), "{value}: {line}");
    }
    // Huge integers beyond u64 and negative zero parse as floats: still not a seat.
    for text in [
        "18446744073709551616",
        "-0.0",
        "100000000000000000000000000000",
    ] {
        let record = valid()
            .to_string()
            .replace("\"first_dealer\":0", &format!("\"first_dealer\":{text}"));
        let line = outcome(&record).unwrap_or_else(|| panic!("{text} replays"));
        assert!(line.starts_with("first_dealer"), "{text}: {line}");
    }
    for seat in [json!(0), json!(1), json!(2), json!(3), json!(null)] {
        let mut record = with(&["first_dealer"], seat.clone());
        record["hands"][0]["actions"] = json!([]);
        assert_eq!(outcome(&record.to_string()), None, "{seat}");
    }
}

#[test]
fn counting_options_take_whole_numbers_of_at_least_one() {
    for key in ["target", "deals"] {
        for value in [
            json!(0),
            json!(-1),
            json!(i64::MIN),
            json!(0.5),
            json!(1e300),
            json!(-1e300),
            json!("50"),
            json!(null),
            json!(true),
            json!([50]),
            json!({"value": 50}),
        ] {
            let line = error_of(&with(&["options", key], value.clone()));
            assert!(line.contains(key), "{key} = {value}: {line}");
            assert!(!line.starts_with("hand"), "{key} = {value}: {line}");
        }
    }
}

#[test]
fn huge_counting_options_are_read_without_overflow() {
    // A target or number of deals beyond any game's reach is a whole number of at
    // least 1: the game simply goes on.
    for value in [
        json!(u64::from(u32::MAX)),
        json!(u64::from(u32::MAX) + 1),
        json!(i64::MAX),
        json!(u64::MAX),
    ] {
        for key in ["target", "deals"] {
            let record = with(&["options", key], value.clone());
            let parsed = Record::parse(&record.to_string()).unwrap();
            let (replay, _) = parsed
                .replay()
                .unwrap_or_else(|e| panic!("{key} = {value}: {e}"));
            assert_eq!(replay.scores, [0, 12]);
            assert!(!replay.finished, "{key} = {value}");
        }
    }
}

#[test]
fn unknown_game_variant_and_option_names_are_header_errors() {
    for (path, value) in [
        (&["game"][..], json!("Kaibosh ")),
        (&["game"][..], json!("")),
        (&["variant"][..], json!("STANDARD")),
        (&["options", "colour"][..], json!("red")),
        (&["options", ""][..], json!(1)),
        (&["options", "all_pass"][..], json!("Redeal")),
    ] {
        let line = error_of(&with(path, value.clone()));
        assert!(
            line.starts_with("unknown") || line.starts_with("option"),
            "{path:?} = {value}: {line}"
        );
    }
}

/// A way to break a deal (seat by seat, cards as text): what it does, and the card it
/// deals that breaks only a deck without it.
type BrokenDeal = (fn(&mut Vec<Vec<Value>>), Option<&'static str>);

/// Ways to break a deal of any variant.
fn broken_deals() -> Vec<(&'static str, BrokenDeal)> {
    vec![
        ("no seats", (|deal| deal.clear(), None)),
        (
            "no cards",
            (|deal| deal.iter_mut().for_each(Vec::clear), None),
        ),
        ("one seat", (|deal| deal.truncate(1), None)),
        ("a seat too many", (|deal| deal.push(vec![]), None)),
        (
            "a card three times",
            (
                |deal| {
                    let card = deal[0][0].clone();
                    deal[0][..3].fill(card);
                },
                None,
            ),
        ),
        (
            "a card more and one fewer",
            (
                |deal| {
                    deal[0].push(json!("2S"));
                    deal[1].pop();
                },
                None,
            ),
        ),
        ("a joker", (|deal| deal[0][0] = json!("RJ"), Some("RJ"))),
        ("an empty card", (|deal| deal[0][0] = json!(""), None)),
        ("a suit symbol", (|deal| deal[0][0] = json!("9♠"), None)),
        (
            "a rank of three digits",
            (|deal| deal[0][0] = json!("100S"), None),
        ),
        (
            "a thousand cards a seat",
            (|deal| *deal = vec![vec![json!("AS"); 1000]; 1000], None),
        ),
    ]
}

/// Each broken deal in place of the first deal of `record`, a valid record: the error
/// names the hand.
fn check_broken_deals(record: &Value, deck: CardSet) {
    let seats: Vec<Vec<Value>> =
        serde_json::from_value(record["hands"][0]["deal"].clone()).unwrap();
    let cases = broken_deals()
        .into_iter()
        .filter(|(_, (_, card))| card.is_none_or(|c| !deck.contains(c.parse().unwrap())));
    check_cases(cases, |(broken, _)| {
        let mut seats = seats.clone();
        broken(&mut seats);
        let mut record = record.clone();
        record["hands"][0]["deal"] = json!(seats);
        let line = error_of(&record);
        assert!(line.starts_with("hand 0: "), "{line}");
    });
}

#[test]
fn broken_deals_name_the_hand() {
    check_broken_deals(&valid(), calltrump_engine::kaibosh::DECK);
}

/// A record taken from the table server while a hand is played shows that hand with no
/// deal: replaying it says so, rather than counting the cards missing.
#[test]
fn a_hand_shown_without_its_deal_is_named_as_one_still_in_play() {
    let mut record = valid();
    for seat in record["hands"][0]["deal"].as_array_mut().unwrap() {
        *seat = json!([]);
    }
    let line = error_of(&record);
    assert!(line.starts_with("hand 0: no deal shown"), "{line}");
    assert!(line.contains("replays once the hand is over"), "{line}");
}

#[test]
fn broken_deals_name_the_hand_in_every_variant() {
    for (name, rules) in every_variant() {
        eprintln!("{name}");
        check_broken_deals(&first_hand(&rules), deck(&rules));
    }
}

/// The faces of the deck `rules` deal from.
fn deck(rules: &GameRules) -> CardSet {
    match rules {
        GameRules::Kaibosh(_) => calltrump_engine::kaibosh::DECK,
        GameRules::BidEuchre(_) => calltrump_engine::bid_euchre::DECK,
        GameRules::Kout(kout) => kout.deck(),
    }
}

#[test]
fn broken_actions_name_the_hand_action_and_seat() {
    for text in [
        "",
        " ",
        "kaibosh ",
        "bid",
        "bid 99999999999999999999",
        "bid -1",
        "bid 1.5",
        "bid 256",
        "bid 3 NT",
        "call2 H",
        "give AS",
        "discard AS KS",
        "trump",
        "play",
        "play RJ",
        "play 100S",
        "play A♠",
        "misdeal misdeal",
        "é",
        "kaibosh\"",
    ] {
        let record = with(&["hands", "0", "actions", "0"], json!(text));
        let line = error_of(&record);
        let prefix = format!("hand 0, action 0 \"{text}\": seat 1");
        assert!(line.starts_with(&prefix), "{text:?}: {line}");
    }
    // Control characters are escaped: the error stays on one line (checked in `outcome`).
    for text in ["p\u{0}ass", "pass\nplay 9S", "bid\r\n1", "\tpass"] {
        let record = with(&["hands", "0", "actions", "0"], json!(text));
        let line = error_of(&record);
        assert!(line.starts_with("hand 0, action 0 \""), "{text:?}: {line}");
        assert!(line.contains("\": seat 1"), "{text:?}: {line}");
    }
    let long = "play ".to_string() + &"A".repeat(100_000);
    let line = error_of(&with(&["hands", "0", "actions", "2"], json!(long)));
    assert!(line.starts_with("hand 0, action 2 "), "{line}");
}

/// Actions no variant reads or accepts as the first call of a hand.
const BROKEN_ACTIONS: [&str; 14] = [
    "",
    " ",
    "bid",
    "bid 99999999999999999999",
    "bid -1",
    "bid 1.5",
    "bid 256",
    "trump",
    "play",
    "play 100S",
    "play A♠",
    "give AS AS AS",
    "misdeal misdeal",
    "é",
];

#[test]
fn broken_actions_name_the_hand_action_and_seat_in_every_variant() {
    for (name, rules) in every_variant() {
        let record = first_hand(&rules);
        let seat = first_to_act(&record);
        for text in BROKEN_ACTIONS {
            let mut bad = record.clone();
            bad["hands"][0]["actions"][0] = json!(text);
            let line = error_of(&bad);
            let prefix = format!("hand 0, action 0 \"{text}\": seat {seat}");
            assert!(line.starts_with(&prefix), "{name}, {text:?}: {line}");
        }
    }
}

#[test]
fn control_characters_in_names_and_cards_keep_the_error_on_one_line() {
    for (path, value) in [
        (&["game"][..], json!("kai\nbosh")),
        (&["variant"][..], json!("stan\r\ndard")),
        (&["options", "tar\nget"][..], json!(50)),
        (&["options", "all_pass"][..], json!("re\ndeal")),
        (&["hands", "0", "deal", "1", "0"][..], json!("J\nH")),
    ] {
        // `outcome` asserts the single line.
        let line = error_of(&with(path, value.clone()));
        assert!(line.contains("\\n"), "{path:?} = {value}: {line}");
    }
}

/// Replays every truncation of a valid record's first hand, with and without a following
/// hand: each is an in-progress replay or an error at the missing action, never a panic.
fn check_truncations(full: &Value) {
    let actions = full["hands"][0]["actions"].as_array().unwrap().clone();
    for n in 0..=actions.len() {
        let mut cut = full.clone();
        cut["hands"][0]["actions"] = json!(actions[..n]);
        let parsed = Record::parse(&cut.to_string()).unwrap();
        let (replay, _) = parsed.replay().unwrap();
        assert_eq!(replay.hands.len(), 1);
        // A next hand, dealt but not yet bid on.
        let mut two = cut.clone();
        let mut next = full["hands"][0].clone();
        next["actions"] = json!([]);
        two["hands"].as_array_mut().unwrap().push(next);
        let result = outcome(&two.to_string());
        if n == actions.len() {
            assert_eq!(result, None);
        } else {
            let line = result.unwrap();
            assert!(
                line.starts_with(&format!("hand 0, action {n}: seat ")),
                "{line}"
            );
        }
    }
}

#[test]
fn every_truncation_replays_or_errs_cleanly() {
    check_truncations(&valid());
}

#[test]
fn every_truncation_replays_or_errs_cleanly_in_every_variant() {
    check_cases(every_variant(), |rules| {
        check_truncations(&first_hand(&rules))
    });
}

/// Random mutations of valid records, at the JSON tree and at the byte level: every one
/// parses and replays or fails with one error line.
#[test]
fn mutated_records_never_panic() {
    let mut rng = seeded(20_261_121);
    let data = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/kaibosh.json"),
    )
    .unwrap();
    let cases: Vec<Value> = serde_json::from_str(&data).unwrap();
    let mut records: Vec<Value> = cases.iter().map(|c| c["record"].clone()).collect();
    records.push(valid());
    let errors = mutated_errors(&records, 20_000, &mut rng);
    // Most mutations break a rule; some leave a valid record.
    assert!(errors > 1000 && errors < 20_000, "{errors} errors");
}

/// Records of seeded random games of every variant, mutated: each parses and replays or
/// fails with one error line.
#[test]
fn mutated_records_of_every_variant_never_panic() {
    for (name, rules) in every_variant() {
        let records: Vec<Value> = (0..4)
            .map(|seed| {
                serde_json::from_str(&common::random_game(&rules, seed).0.to_json()).unwrap()
            })
            .collect();
        let errors = mutated_errors(&records, 4_000, &mut seeded(20_261_125));
        assert!(errors > 200 && errors < 4_000, "{name}: {errors} errors");
    }
}

/// Mutates a record of `records` `rounds` times, at the JSON tree and at the byte level,
/// and counts the results that do not replay (each an error of one line).
fn mutated_errors(records: &[Value], rounds: usize, rng: &mut GameRng) -> usize {
    let pool: Vec<Value> = [json!(null), json!(true), json!(0)]
        .into_iter()
        .chain(odd_numbers())
        .chain([
            json!(0.5),
            json!(""),
            json!("pass"),
            json!("kaibosh"),
            json!("misdeal"),
            json!("bid 6"),
            json!("trump S"),
            json!("play JH"),
            json!("play 9S"),
            json!("AS"),
            json!("JD"),
            json!([]),
            json!({}),
            json!(["AS", "KS"]),
            json!([[], [], [], []]),
        ])
        .collect();
    let mut errors = 0;
    for round in 0..rounds {
        let mut record = records[rng.random_range(0..records.len())].clone();
        for _ in 0..rng.random_range(1..4) {
            mutate(&mut record, &pool, rng);
        }
        let mut text = record.to_string();
        if round % 4 == 0 && !text.is_empty() {
            // Byte-level damage: drop, duplicate or flip one ASCII byte.
            let i = rng.random_range(0..text.len());
            if text.is_char_boundary(i) && text.is_char_boundary(i + 1) {
                let byte = text.as_bytes()[i];
                let replacement = match rng.random_range(0..3) {
                    0 => String::new(),
                    1 => format!("{}{}", byte as char, byte as char),
                    _ => ((byte ^ 1) as char).to_string(),
                };
                text.replace_range(i..i + 1, &replacement);
            }
        }
        if outcome(&text).is_some() {
            errors += 1;
        }
    }
    errors
}

fn mutate(value: &mut Value, pool: &[Value], rng: &mut impl Rng) {
    // Walk down to a random node.
    let mut node = value;
    loop {
        let children = match node {
            Value::Array(a) => a.len(),
            Value::Object(o) => o.len(),
            _ => 0,
        };
        if children == 0 || rng.random_bool(0.3) {
            break;
        }
        let i = rng.random_range(0..children);
        node = match node {
            Value::Array(a) => &mut a[i],
            Value::Object(o) => o.values_mut().nth(i).unwrap(),
            _ => unreachable!(),
        };
    }
    match (rng.random_range(0..4), &mut *node) {
        (0, Value::Array(a)) if !a.is_empty() => {
            let i = rng.random_range(0..a.len());
            a.remove(i);
        }
        (1, Value::Array(a)) if !a.is_empty() => {
            let i = rng.random_range(0..a.len());
            let copy = a[i].clone();
            a.insert(rng.random_range(0..=a.len()), copy);
        }
        (2, Value::Object(o)) if !o.is_empty() => {
            let key = o.keys().nth(rng.random_range(0..o.len())).unwrap().clone();
            o.remove(&key);
        }
        _ => *node = pool[rng.random_range(0..pool.len())].clone(),
    }
}

/// Every action of every kind, in every state of random games: a checked apply never
/// panics, and a refused one changes nothing.
#[test]
fn any_action_in_any_state_is_refused_cleanly() {
    let rules = GameRules::Kaibosh(KaiboshRules {
        deals: Some(6),
        ..KaiboshRules::default()
    });
    for seed in 0..40 {
        check_any_action(&rules, seed);
    }
}

#[test]
fn any_action_in_any_state_is_refused_cleanly_in_every_variant() {
    check_cases(every_variant(), |rules| {
        for seed in 0..6 {
            check_any_action(&rules, seed);
        }
    });
}

/// Actions of every kind of every game, legal somewhere or nowhere.
fn oddities() -> Vec<Action> {
    let mut oddities: Vec<Action> = vec![
        Action::Pass,
        Action::Kaibosh,
        Action::Misdeal,
        Action::BidStrain(3, Strain::NoTrump),
        Action::Loner(Loner::Moon, Strain::Suit(Suit::Hearts)),
        Action::Give(CardPair::one(Card::RED_JOKER)),
        Action::Discard(CardPair::two(Card::BLACK_JOKER, Card::RED_JOKER)),
    ];
    oddities.extend([0, 1, 6, 7, 9, 255].map(Action::Bid));
    oddities.extend(Suit::ALL.map(Action::Trump));
    oddities.extend((0..64).filter_map(Card::from_index).map(Action::Play));
    oddities
}

/// Replays the seeded random game of `rules`, trying every oddity in every state.
fn check_any_action(rules: &GameRules, seed: u64) {
    let oddities = oddities();
    let (record, final_game) = common::random_game(rules, seed);
    let mut game = AnyGame::new(rules, record.rules().unwrap().1);
    for hand in &record.hands {
        let deal = hand
            .deal
            .iter()
            .map(|seat| seat.iter().map(|c| c.parse::<Card>().unwrap()).collect())
            .collect::<Vec<_>>();
        game.deal(&deal).unwrap();
        for text in &hand.actions {
            for action in &oddities {
                let mut copy = game.clone();
                if copy.apply(*action).is_err() {
                    assert!(copy == game, "refused {action} changed the game");
                }
            }
            game.apply(text.parse().unwrap()).unwrap();
        }
        if let Turn::Chance = game.turn() {
            let mut copy = game.clone();
            let refused = copy.apply(Action::Pass);
            assert!(refused.is_err() && refused.unwrap_err().seat.is_none());
        }
    }
    assert!(game == final_game);
    for action in &oddities {
        assert!(
            game.clone().apply(*action).is_err(),
            "{action} after the end"
        );
    }
    assert!(game.clone().deal(&[]).is_err());
}

// ---- each kind of illegal action at each phase, in every variant ------------------------

/// The seat to act's hand.
fn held(game: &AnyGame) -> CardBag {
    game.observation(common::seat_to_act(game)).hand
}

/// A card the seat to act does not hold.
fn not_held(game: &AnyGame) -> Card {
    let held = held(game);
    (0..64)
        .filter_map(Card::from_index)
        .find(|c| !held.contains(*c))
        .unwrap()
}

/// The highest call of the auction so far.
fn high_call(game: &AnyGame) -> Option<Action> {
    let obs = game.observation(common::seat_to_act(game));
    obs.actions.iter().rev().find_map(|(_, seen)| match seen {
        calltrump_engine::SeenAction::Open(a) if a.is_call() && *a != Action::Pass => Some(*a),
        _ => None,
    })
}

/// The cards a loner's exchange moves: 2 for `call2`, 1 for `call1`.
fn exchanged(game: &AnyGame) -> usize {
    match game.hand_summary().contract {
        Some(Action::Loner(Loner::Call2, _)) => 2,
        _ => 1,
    }
}

/// `cards` as the exchange action of the seat to act: the declarer discards, its partner
/// gives.
fn exchange(game: &AnyGame, cards: &[Card]) -> Action {
    let pair = match cards {
        [a] => CardPair::one(*a),
        [a, b] => CardPair::two(*a, *b),
        _ => unreachable!(),
    };
    if game.hand_summary().declarer == Some(common::seat_to_act(game)) {
        Action::Discard(pair)
    } else {
        Action::Give(pair)
    }
}

/// Which refusals name the rule an illegal action breaks.
type Rule = Box<dyn Fn(&Broken) -> bool>;

fn is(broken: Broken) -> Rule {
    Box::new(move |b| *b == broken)
}

fn not_now() -> Rule {
    Box::new(|b| matches!(b, Broken::NotNow { .. }))
}

/// The kinds of illegal action there are in `game`'s state, an action of each kind, and
/// the rule its refusal must name.
fn illegal_actions(g: &AnyGame) -> Vec<(&'static str, Action, Rule)> {
    let seat = match g.turn() {
        Turn::Chance => {
            return vec![(
                "an action before the deal",
                Action::Pass,
                is(Broken::DealDue),
            )]
        }
        Turn::Over => {
            return vec![(
                "an action after the game",
                Action::Pass,
                is(Broken::GameOver),
            )]
        }
        Turn::Seat(seat) => seat,
    };
    let held: Vec<Card> = held(g).iter().collect();
    let missing = not_held(g);
    let bid_euchre = matches!(g, AnyGame::BidEuchre(..));
    let mut kinds: Vec<(&'static str, Action, Rule)> = Vec::new();
    match g.phase() {
        Phase::Auction => {
            kinds.push(("a card in the auction", Action::Play(held[0]), not_now()));
            let trump_rule = if bid_euchre {
                is(Broken::NotInGame)
            } else {
                not_now()
            };
            kinds.push((
                "trump named in the auction",
                Action::Trump(Suit::Spades),
                trump_rule,
            ));
            let (foreign, too_high) = match g {
                AnyGame::Kaibosh(..) => (Action::BidStrain(1, Strain::NoTrump), Action::Bid(7)),
                AnyGame::BidEuchre(..) => (Action::Kaibosh, Action::BidStrain(9, Strain::NoTrump)),
                AnyGame::Kout(..) => (Action::Kaibosh, Action::Bid(10)),
            };
            kinds.push((
                "another game's call in the auction",
                foreign,
                is(Broken::NotInGame),
            ));
            let out_of_range = Box::new(|b: &Broken| matches!(b, Broken::BidOutOfRange { .. }));
            kinds.push(("a bid out of range", too_high, out_of_range));
            if let Some(high) = high_call(g).filter(|_| seat != g.hand_summary().dealer) {
                let too_low = is(Broken::BidTooLow { high });
                kinds.push(("the high bid again, not by the dealer", high, too_low));
            }
        }
        Phase::TrumpNaming => {
            kinds.push(("a call when trump is due", Action::Pass, not_now()));
            kinds.push(("a card when trump is due", Action::Play(held[0]), not_now()));
        }
        Phase::Exchange => {
            let n = exchanged(g);
            kinds.push(("a call in the exchange", Action::Pass, not_now()));
            let count = Box::new(
                move |b: &Broken| matches!(b, Broken::CardCount { expected, .. } if usize::from(*expected) == n),
            );
            let wrong = exchange(g, &held[..3 - n]);
            kinds.push(("too many or too few cards exchanged", wrong, count));
            let stranger = exchange(g, &vec![missing; n]);
            kinds.push((
                "a card not held exchanged",
                stranger,
                is(Broken::NotHeld(missing)),
            ));
        }
        Phase::Play => {
            kinds.push(("a call in the play", Action::Pass, not_now()));
            kinds.push((
                "a card not held",
                Action::Play(missing),
                is(Broken::NotHeld(missing)),
            ));
            if let Some(&card) = held.iter().find(|c| !g.is_legal(Action::Play(**c))) {
                let follow = Box::new(|b: &Broken| {
                    matches!(b, Broken::MustFollow(_) | Broken::JokerLead(_))
                });
                kinds.push((
                    "a held card that may not be played",
                    Action::Play(card),
                    follow,
                ));
            }
        }
        other => panic!("{other:?} with seat {seat} to act"),
    }
    kinds
}

/// Every kind of illegal action, by the phase it is tried in.
const KINDS: [&str; 15] = [
    "a card in the auction",
    "trump named in the auction",
    "another game's call in the auction",
    "a bid out of range",
    "the high bid again, not by the dealer",
    "a call when trump is due",
    "a card when trump is due",
    "a call in the exchange",
    "too many or too few cards exchanged",
    "a card not held exchanged",
    "a call in the play",
    "a card not held",
    "a held card that may not be played",
    "an action before the deal",
    "an action after the game",
];

/// Kinds that do not arise in a game: no trump naming in Bid Euchre, no exchange but
/// in Bid Euchre.
fn arises(game: &str, kind: &str) -> bool {
    let bid_euchre = game == "bid-euchre";
    let trump_naming = kind.contains("trump is due");
    let exchange = kind.contains("exchange");
    !(bid_euchre && trump_naming) && (bid_euchre || !exchange)
}

/// In seeded random games of every variant, every kind of illegal action in every state
/// where it applies: refused, naming the rule it breaks and the seat to act, and leaving
/// the game exactly as it was.
#[test]
fn every_kind_of_illegal_action_at_every_phase_names_the_rule_and_changes_nothing() {
    for (variant, rules) in every_variant() {
        let mut tried: std::collections::BTreeMap<&str, u32> = Default::default();
        for seed in 0..8 {
            common::random_game_watched(&rules, seed, |game| {
                for (kind, action, names_the_rule) in illegal_actions(game) {
                    let context = format!("{variant} seed {seed}, {kind}: {action}");
                    let mut copy = game.clone();
                    let error = copy.apply(action).expect_err(&context);
                    assert!(copy == *game, "{context}: the refusal changed the game");
                    let to_act = match game.turn() {
                        Turn::Seat(seat) => Some(seat),
                        _ => None,
                    };
                    assert_eq!(error.seat, to_act, "{context}");
                    let line = error.to_string();
                    assert!(
                        line.contains(&error.broken.to_string()),
                        "{context}: {line}"
                    );
                    assert!(
                        names_the_rule(&error.broken),
                        "{context}: refused as \"{line}\""
                    );
                    *tried.entry(kind).or_default() += 1;
                }
            });
        }
        for kind in KINDS {
            let n = tried.get(kind).copied().unwrap_or(0);
            assert_eq!(
                n > 0,
                arises(rules.game(), kind),
                "{variant}: {kind} tried {n} times"
            );
        }
    }
}
