//! Shared test harness: random games, and the invariants every game must keep.

pub mod redaction;

use std::fmt::Debug;

use calltrump_engine::{
    stream, Action, ActionList, AnyGame, BidEuchreRules, BidEuchreVariant, Card, CardBag, Game,
    GameRules, HandOutcome, JokerLead, KaiboshRules, Kout4Deck, KoutRules, KoutVariant, PlayError,
    Record, Seat, SeenAction, Turn,
};
use rand::Rng;

/// Every variant, named: Kaibosh, Bid Euchre alexa and simplified, Kout Bo 6, and Kout
/// Bo 4 with two cards undealt (and the joker led once the trump ace is out).
pub fn every_variant() -> Vec<(&'static str, GameRules)> {
    vec![
        ("kaibosh", GameRules::Kaibosh(KaiboshRules::default())),
        (
            "alexa",
            GameRules::BidEuchre(BidEuchreRules::new(BidEuchreVariant::Alexa)),
        ),
        (
            "simplified",
            GameRules::BidEuchre(BidEuchreRules::new(BidEuchreVariant::Simplified)),
        ),
        ("kout6", GameRules::Kout(KoutRules::default())),
        (
            "kout4",
            GameRules::Kout(KoutRules {
                variant: KoutVariant::Four,
                joker_lead: JokerLead::TrumpAcePlayed,
                deck: Kout4Deck::TwoUndealt,
            }),
        ),
    ]
}

// ---- hands and actions written as text ---------------------------------------------------

/// A card from its text: `"AS"`, `"RJ"`.
pub fn card(text: &str) -> Card {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} in a test: {e}"))
}

/// Cards separated by spaces; a face may stand as often as a deck holds it.
pub fn bag(text: &str) -> CardBag {
    let mut bag = CardBag::EMPTY;
    for c in text.split_whitespace() {
        assert!(
            bag.insert(card(c)),
            "{c} too often in the test hand {text:?}"
        );
    }
    bag
}

/// A deal written seat by seat from seat 0, the hands separated by `|`:
/// `"JS AS KS | JH AH KH | ..."`.
pub fn deal(text: &str) -> Vec<CardBag> {
    text.split('|').map(bag).collect()
}

/// The seat whose turn it is; fails if it is no seat's.
pub fn seat_to_act(game: &impl Game) -> Seat {
    match game.turn() {
        Turn::Seat(seat) => seat,
        other => panic!("no seat to act: {other:?}"),
    }
}

/// Applies each action, which must be listed as legal and accepted.
pub fn apply_all(game: &mut impl Game, actions: &[&str]) {
    for text in actions {
        let action: Action = text.parse().unwrap();
        assert!(
            game.legal_action_list().contains(&action),
            "{text} not listed: {:?}",
            game.legal_action_list()
        );
        game.apply(action)
            .unwrap_or_else(|e| panic!("{text} refused: {e}"));
    }
}

/// The error of an action that must be refused: it is not listed as legal, and the game
/// is left exactly as it was.
pub fn refused<G: Game + Clone + PartialEq + Debug>(game: &G, text: &str) -> PlayError {
    let action: Action = text.parse().unwrap();
    assert!(!game.legal_action_list().contains(&action), "{text} listed");
    let mut copy = game.clone();
    let error = copy.apply(action).expect_err(text);
    assert_eq!(&copy, game, "{text}: a refused action changed the game");
    error
}

/// Runs `check` on each named case of a table-driven test, all of them, then fails
/// naming every case that failed (each failure's own message is printed as it happens).
pub fn check_cases<T>(cases: impl IntoIterator<Item = (&'static str, T)>, check: impl Fn(T)) {
    let mut failed = Vec::new();
    for (name, case) in cases {
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(case))).is_err() {
            eprintln!("case {name:?} failed");
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "failed cases: {failed:?}");
}

/// The tricks each team has taken, and `winner`, who took the last, leads the next.
pub fn assert_won(game: &impl Game, tricks: [u8; 2], winner: u8) {
    assert_eq!(game.hand_summary().tricks, tricks, "tricks");
    assert_eq!(seat_to_act(game), Seat(winner), "the winner leads");
}

/// The hand's tricks and points, and the game's scores after it.
pub fn assert_hand_result(game: &impl Game, tricks: [u8; 2], points: [i32; 2], scores: [i32; 2]) {
    let summary = game.hand_summary();
    assert_eq!(summary.tricks, tricks, "tricks");
    assert_eq!(summary.points, Some(points), "points");
    assert_eq!(game.scores(), scores, "scores");
}

/// Plays a whole game with uniformly random legal actions, recording it, and checks the
/// invariants of every step on the way. Returns the record and the final game.
pub fn random_game(rules: &GameRules, seed: u64) -> (Record, AnyGame) {
    random_game_watched(rules, seed, |_| {})
}

/// [`random_game`], showing `watch` the game after the deal and after every action.
pub fn random_game_watched(
    rules: &GameRules,
    seed: u64,
    mut watch: impl FnMut(&AnyGame),
) -> (Record, AnyGame) {
    let mut rng = stream(seed, 0);
    let first_dealer = Seat(rng.random_range(0..AnyGame::new(rules, Seat(0)).seats()) as u8);
    let mut game = AnyGame::new(rules, first_dealer);
    let mut record = Record::new(rules, first_dealer);
    let mut legal = ActionList::new();
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 100_000, "seed {seed}: the game does not end");
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                game.deal_random(&mut rng);
                let deal: Vec<CardBag> = (0..game.seats())
                    .map(|s| game.observation(Seat(s as u8)).dealt)
                    .collect();
                check_deal(&game, &deal, seed);
                record.push_deal(&deal);
                watch(&game);
            }
            Turn::Seat(seat) => {
                legal.clear();
                game.legal_actions(&mut legal);
                check_legal_actions(&game, &legal, seed);
                check_observations(&game);
                check_rejection_changes_nothing(&game, seat, &mut rng);
                let action = cautious_random(&legal, &mut rng);
                let before = matches!(action, Action::Play(_)).then(|| game.clone());
                game.apply(action)
                    .unwrap_or_else(|e| panic!("seed {seed}: legal {action} refused: {e}"));
                if let Some(before) = before {
                    check_hand_points(&before, &game, seed);
                }
                record.push_action(action);
                watch(&game);
            }
        }
    }
    (record, game)
}

/// When the card just played after `before` ended the hand, the hand scored what
/// [`Game::hand_points`] of `before`, a state in mid-play, makes of the final tricks:
/// the search scores hands from such states.
fn check_hand_points(before: &AnyGame, after: &AnyGame, seed: u64) {
    let hand = after.hand_summary();
    if matches!(after.turn(), Turn::Seat(_)) || hand.outcome != HandOutcome::Played {
        return;
    }
    assert_eq!(
        Some(before.hand_points(hand.tricks)),
        hand.points,
        "seed {seed}: the points of the tricks taken"
    );
}

/// A random policy that passes half the time and otherwise mostly makes the lowest bid
/// (the first non-pass call listed): uniform bidding drives both teams' scores down so
/// far that games to a target never end.
fn cautious_random(legal: &ActionList, rng: &mut impl Rng) -> calltrump_engine::Action {
    use calltrump_engine::Action;
    if legal.contains(&Action::Pass) {
        if rng.random_bool(0.5) {
            return Action::Pass;
        }
        if rng.random_bool(0.8) {
            if let Some(bid) = legal.iter().find(|a| **a != Action::Pass) {
                return *bid;
            }
        }
    }
    legal[rng.random_range(0..legal.len())]
}

fn check_deal(game: &AnyGame, deal: &[CardBag], seed: u64) {
    let mut all = CardBag::EMPTY;
    for hand in deal {
        for card in hand.iter() {
            assert!(all.insert(card), "seed {seed}: {card} dealt too often");
        }
    }
    let sizes: Vec<usize> = deal.iter().map(|h| h.len()).collect();
    assert!(
        sizes.windows(2).all(|w| w[0] == w[1]),
        "seed {seed}: uneven deal {sizes:?}"
    );
    assert_eq!(deal.len(), game.seats());
}

fn check_legal_actions(game: &AnyGame, legal: &ActionList, seed: u64) {
    assert!(
        !legal.is_empty(),
        "seed {seed}: no legal action at {:?}",
        game.turn()
    );
    for (i, a) in legal.iter().enumerate() {
        assert!(!legal[..i].contains(a), "seed {seed}: {a} listed twice");
        assert!(game.is_legal(*a), "seed {seed}: listed {a} is refused");
    }
}

/// Every observation holds exactly the seat's own hand, and only cards it may have seen.
fn check_observations(game: &AnyGame) {
    for s in 0..game.seats() {
        let seat = Seat(s as u8);
        let obs = game.observation(seat);
        assert_eq!(obs.seat, seat);
        // What the seat holds now is what it was dealt, plus what it saw given to it,
        // less what it played or passed on.
        let mut expected = obs.dealt;
        for (actor, seen) in &obs.actions {
            if let SeenAction::Open(action) = seen {
                use calltrump_engine::Action::*;
                match action {
                    Play(card) if *actor == seat => {
                        assert!(expected.remove(*card));
                    }
                    Give(cards) if *actor != seat => {
                        // Cards given to this seat (it sees them because it receives them).
                        for c in cards.cards() {
                            expected.insert(*c);
                        }
                    }
                    Give(cards) | Discard(cards) if *actor == seat => {
                        for c in cards.cards() {
                            assert!(expected.remove(*c));
                        }
                    }
                    _ => {}
                }
            }
        }
        assert_eq!(
            obs.hand, expected,
            "seat {seat}: hand does not follow from what it saw"
        );
    }
}

fn check_rejection_changes_nothing(game: &AnyGame, seat: Seat, rng: &mut impl Rng) {
    // A card from someone else's hand or off the deck, and a call out of place.
    let card = Card::from_index(rng.random_range(0..64u8)).unwrap_or(Card::RED_JOKER);
    for action in [
        calltrump_engine::Action::Play(card),
        calltrump_engine::Action::Bid(rng.random_range(0..12)),
        calltrump_engine::Action::Pass,
    ] {
        let mut copy = game.clone();
        if copy.apply(action).is_err() {
            assert!(
                copy == *game,
                "seat {seat}: rejected {action} changed the game"
            );
        }
    }
}

/// The replay of a record equals the game that produced it.
pub fn check_record_round_trip(record: &Record, game: &AnyGame) {
    let text = record.to_json();
    let parsed = Record::parse(&text).expect("a written record parses");
    assert_eq!(&parsed, record);
    let (replay, replayed) = parsed
        .replay()
        .unwrap_or_else(|e| panic!("replay failed: {e}"));
    assert!(
        replayed == *game,
        "the replayed game differs from the game played"
    );
    // Scores are the sum of the hands' points.
    let mut sum = [0; 2];
    for hand in &replay.hands {
        let points = hand.points.unwrap_or([0, 0]);
        sum[0] += points[0];
        sum[1] += points[1];
    }
    assert_eq!(sum, replay.scores);
    assert_eq!(replay.finished, game.outcome().is_some());
}
