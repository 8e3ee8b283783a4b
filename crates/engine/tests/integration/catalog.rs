//! The game catalogue against the engine: every variant and every value of every option
//! round-trips through a record's header, options of other variants and values out of
//! place are refused, and each variant's facts are those of the game the engine plays.

use calltrump_engine::catalog::{Direction, OptionSpec, OptionValues};
use calltrump_engine::fair_deal::{self, CutSide};
use calltrump_engine::{
    seeded, AnyGame, CardBag, Game, GameKind, GameRules, Record, Seat, VariantKind,
};
use serde_json::{Map, Value};

/// The values an option is tried with: each choice, or a few counts.
fn values(option: &OptionSpec) -> Vec<Value> {
    match option.values {
        OptionValues::Choice(_) => option.choices().map(Value::from).collect(),
        OptionValues::Count => [1, 3, 12, 50].map(Value::from).to_vec(),
    }
}

fn one(key: &str, value: Value) -> Map<String, Value> {
    Map::from_iter([(key.to_string(), value)])
}

/// The rules a record made under `rules` reads back.
fn through_record(rules: &GameRules) -> GameRules {
    let written = Record::new(rules, Seat(0)).to_json();
    Record::parse(&written).unwrap().rules().unwrap().0
}

#[test]
fn every_variant_and_option_value_round_trips_through_the_record_header() {
    let mut tried = 0;
    for variant in VariantKind::ALL {
        let game = variant.game();
        let default = GameRules::from_header(game.name(), Some(variant.name()), &Map::new())
            .unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(default.kind(), variant);
        assert_eq!(default, GameRules::new(variant));
        assert_eq!(through_record(&default), default, "{variant}");
        for option in game.options() {
            for value in values(option) {
                let options = one(option.key, value.clone());
                let read = GameRules::from_header(game.name(), Some(variant.name()), &options);
                if !option.applies_to(variant) {
                    let error = read.expect_err("an option of another variant").to_string();
                    assert!(
                        error.contains(option.key),
                        "{variant} {}: {error}",
                        option.key
                    );
                    continue;
                }
                let rules =
                    read.unwrap_or_else(|e| panic!("{variant} {}={value}: {e}", option.key));
                assert_eq!(rules.kind(), variant);
                assert_eq!(
                    through_record(&rules),
                    rules,
                    "{variant} {}={value}",
                    option.key
                );
                let json = serde_json::to_string(&rules).unwrap();
                assert_eq!(serde_json::from_str::<GameRules>(&json).unwrap(), rules);
                tried += 1;
            }
            // The default, given, changes nothing.
            if let (Some(text), true) = (option.default, option.applies_to(variant)) {
                let value = text
                    .parse::<u64>()
                    .map_or_else(|_| Value::from(text), Value::from);
                let read = GameRules::from_header(
                    game.name(),
                    Some(variant.name()),
                    &one(option.key, value),
                );
                assert_eq!(read.unwrap(), default, "{variant} {} default", option.key);
            }
            // A value out of place is refused, naming the option.
            for bad in [Value::from("nonsense"), Value::from(0), Value::from(-1)] {
                let read = GameRules::from_header(
                    game.name(),
                    Some(variant.name()),
                    &one(option.key, bad.clone()),
                );
                let error = read.expect_err("a bad value").to_string();
                assert!(
                    error.contains(option.key),
                    "{variant} {}={bad}: {error}",
                    option.key
                );
            }
        }
        // A key no option of the game has is refused.
        let read = GameRules::from_header(game.name(), None, &one("trumps", Value::from(1)));
        assert!(read
            .unwrap_err()
            .to_string()
            .contains("unknown option \"trumps\""));
    }
    assert!(tried > 30, "{tried}");
}

#[test]
fn names_the_header_does_not_know_are_refused_with_the_known_ones() {
    let error = GameRules::from_header("bridge", None, &Map::new()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown game \"bridge\" (known: kaibosh, bid-euchre, kout)"
    );
    let error = GameRules::from_header("kout", Some("alexa"), &Map::new()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown variant \"alexa\" for kout (known: kout6, kout4)"
    );
    let no_variant = GameRules::from_header("bid-euchre", None, &Map::new()).unwrap();
    assert_eq!(no_variant.kind(), GameKind::BidEuchre.variants()[0]);
}

#[test]
fn each_variants_facts_are_those_of_the_game_the_engine_plays() {
    for variant in VariantKind::ALL {
        let rules = GameRules::new(variant);
        let mut game = AnyGame::new(&rules, Seat(0));
        assert_eq!(game.seats(), variant.seats(), "{variant}");
        game.deal_random(&mut seeded(7));
        for seat in 0..variant.seats() {
            assert_eq!(
                game.hand(Seat(seat as u8)).len(),
                variant.hand_size(),
                "{variant}"
            );
        }
        let mut deck = CardBag::EMPTY;
        for card in fair_deal::deck(&rules) {
            assert!(deck.insert(card), "{variant}: {card} once too often");
        }
        assert_eq!(deck, variant.deck(), "{variant}");
        // The cut option's default is the side the rules cut from: the seat before the
        // dealer in the order of play.
        let cut = variant
            .options()
            .find(|o| o.key == CutSide::OPTION)
            .unwrap();
        assert_eq!(cut.default, Some(CutSide::default_for(&rules).name()));
        let before_dealer = fair_deal::cutting_seat(&rules, CutSide::default_for(&rules), Seat(0));
        assert_eq!(
            before_dealer,
            Seat(0).after(variant.seats() - 1, variant.seats())
        );
        // Play goes to the next seat: on the dealer's left when clockwise.
        let left_cutter = fair_deal::cutting_seat(&rules, CutSide::Left, Seat(0));
        let next_on_left = left_cutter == Seat(1);
        assert_eq!(
            next_on_left,
            variant.direction() == Direction::Clockwise,
            "{variant}"
        );
        assert_eq!(variant.partners(), variant.seats() / 2 - 1);
        // The length in words names the default goal.
        let goal = game.goal();
        let number = goal.target.map_or(goal.deals.unwrap_or(0), |t| t as u32);
        assert!(
            variant.length().contains(&format!(" {number} ")),
            "{variant}: {goal:?}, {}",
            variant.length()
        );
        assert!(variant
            .rules_document()
            .text
            .starts_with(&format!("# {}", variant.game().title())));
    }
}
