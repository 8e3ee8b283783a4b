//! The table over seeded random games of every variant and option: redaction, snapshots
//! against the fold of updates, restoring from the log, rejected actions and undo.

use calltrump_engine::{
    seeded, Action, AllPass, AnyGame, BidEuchreRules, BidEuchreVariant, Card, Game, GameRules,
    JokerLead, KaiboshRules, Kout4Deck, KoutRules, KoutVariant, Outcome, Phase, Seat, Turn, Viewer,
};
use calltrump_table::{ClientState, Entry, Settings, Table, TableError, UndoError};
use rand::Rng;

#[path = "../../engine/tests/integration/common/redaction.rs"]
mod redaction;
use redaction::assert_only_known;

fn variants() -> Vec<GameRules> {
    vec![
        GameRules::Kaibosh(KaiboshRules::default()),
        GameRules::Kaibosh(KaiboshRules {
            all_pass: AllPass::DealerMustBid,
            target: None,
            deals: Some(4),
        }),
        GameRules::BidEuchre(BidEuchreRules::new(BidEuchreVariant::Alexa)),
        GameRules::BidEuchre(BidEuchreRules {
            all_pass: AllPass::DealerMustBid,
            deals: 4,
            ..BidEuchreRules::new(BidEuchreVariant::Simplified)
        }),
        GameRules::Kout(KoutRules::default()),
        GameRules::Kout(KoutRules {
            joker_lead: JokerLead::ContractOnly,
            ..KoutRules::default()
        }),
        GameRules::Kout(KoutRules {
            variant: KoutVariant::Four,
            joker_lead: JokerLead::TrumpAcePlayed,
            deck: Kout4Deck::TwoUndealt,
        }),
    ]
}

fn settings(rules: &GameRules, humans: Vec<bool>, undo: bool) -> Settings {
    Settings {
        rules: rules.clone(),
        first_dealer: Seat(1),
        humans,
        undo,
        committed: None,
        cut_side: None,
    }
}

fn seats_of(rules: &GameRules) -> usize {
    AnyGame::new(rules, Seat(0)).seats()
}

fn recipients(seats: usize) -> Vec<Viewer> {
    let mut all: Vec<Viewer> = (0..seats).map(|s| Viewer::Seat(Seat(s as u8))).collect();
    all.push(Viewer::Spectator);
    all
}

/// A table of bots (no person seated, no undo) under `rules`, dealing from `seed`.
fn bot_table(rules: &GameRules, seed: u64) -> Table {
    let seats = seats_of(rules);
    Table::new(settings(rules, vec![false; seats], false), seeded(seed))
}

/// A legal action of the seat to act, drawn at random.
fn random_legal(table: &Table, rng: &mut impl Rng) -> Action {
    let legal = table.game().legal_action_list();
    legal[rng.random_range(0..legal.len())]
}

/// One step of a random game at `table`: a deal, or a random legal action of the seat to
/// act; the entries it logged (none once the game is over).
fn random_step(table: &mut Table, rng: &mut impl Rng) -> Vec<Entry> {
    match table.turn() {
        Turn::Over => Vec::new(),
        Turn::Chance => table.deal().unwrap(),
        Turn::Seat(seat) => {
            let action = random_legal(table, rng);
            table.apply(seat, action).unwrap()
        }
    }
}

/// Plays `table` to the end (or `max_steps`) with random legal actions, checking after
/// every step that each recipient's fold of updates equals its snapshot and holds only
/// cards it may know. Returns the folds.
fn play_checked(table: &mut Table, seed: u64, max_steps: usize) -> Vec<ClientState> {
    let mut rng = seeded(seed ^ 0x5EED);
    let all = recipients(table.seats());
    let mut folds: Vec<ClientState> = all.iter().map(|r| table.snapshot(*r)).collect();
    for step in 0..max_steps {
        if table.turn() == Turn::Over {
            break;
        }
        let entries = random_step(table, &mut rng);
        for (recipient, fold) in all.iter().zip(folds.iter_mut()) {
            let context = format!("seed {seed} step {step}");
            let update = table.update_for(&entries, *recipient);
            assert_only_known(&update, table.game(), *recipient, &context);
            fold.apply(&update);
            let snapshot = table.snapshot(*recipient);
            assert_only_known(&snapshot, table.game(), *recipient, &context);
            assert_eq!(
                *fold, snapshot,
                "{context}: fold of {recipient:?}'s updates"
            );
            if *recipient == Viewer::Spectator {
                assert_public_record(table, &snapshot, &context);
            }
            if let (Some(seat), Turn::Seat(_)) = (recipient.seat(), table.turn()) {
                assert_eq!(
                    fold.observation(),
                    Some(table.game().observation(seat)),
                    "{context}: the observation rebuilt from the fold"
                );
            }
        }
    }
    folds
}

/// The record every player may read while the game runs: the hands played out in full,
/// and of the hand in play no deal and its actions exactly as a spectator was shown them
/// (`spectator`, its snapshot): no card a spectator may not know.
fn assert_public_record(table: &Table, spectator: &ClientState, context: &str) {
    let public = table.public_record();
    let full = table.record();
    assert_eq!(public.hands.len(), full.hands.len(), "{context}");
    let Some((last, played)) = public.hands.split_last() else {
        return;
    };
    assert_eq!(played, &full.hands[..played.len()], "{context}");
    if !matches!(table.turn(), Turn::Seat(_)) {
        assert_eq!(
            last,
            full.hands.last().unwrap(),
            "{context}: a hand played out"
        );
        return;
    }
    assert!(last.deal.iter().all(Vec::is_empty), "{context}: {last:?}");
    let shown: Vec<String> = spectator
        .actions
        .iter()
        .map(|(_, seen)| seen.to_string())
        .collect();
    assert_eq!(last.actions, shown, "{context}");
    assert_only_known(last, table.game(), Viewer::Spectator, context);
}

#[test]
fn the_public_record_writes_a_loners_cards_passed_face_down_as_unseen() {
    let rules = GameRules::BidEuchre(BidEuchreRules::new(BidEuchreVariant::Alexa));
    let mut hidden = 0;
    for seed in 0..40 {
        let mut table = Table::new(settings(&rules, vec![false; 4], false), seeded(seed));
        let mut rng = seeded(seed + 7);
        while table.turn() != Turn::Over && table.deals() < 12 {
            match table.turn() {
                Turn::Chance => {
                    table.deal().unwrap();
                }
                Turn::Seat(seat) => {
                    let random = random_legal(&table, &mut rng);
                    // Loners whenever they may be bid: the hands that pass cards.
                    let action = table
                        .game()
                        .legal_action_list()
                        .iter()
                        .copied()
                        .rfind(|a| a.to_string().starts_with("call"))
                        .unwrap_or(random);
                    table.apply(seat, action).unwrap();
                }
                Turn::Over => {}
            }
            let spectator = table.snapshot(Viewer::Spectator);
            assert_public_record(&table, &spectator, &format!("seed {seed}"));
            let public = table.public_record();
            let actions = &public.hands.last().unwrap().actions;
            if actions.iter().any(|a| a.starts_with("give ??")) {
                hidden += 1;
                assert!(
                    !table
                        .record()
                        .hands
                        .last()
                        .unwrap()
                        .actions
                        .iter()
                        .any(|a| a.contains("??")),
                    "the table's own record keeps the cards"
                );
            }
        }
    }
    assert!(hidden > 20, "only {hidden} records with a hidden give");
}

#[test]
fn a_table_ended_as_a_draw_between_hands_stays_over_and_restores() {
    for rules in variants() {
        let mut table = bot_table(&rules, 3);
        let seats = table.seats();
        let mut rng = seeded(33);
        // Not while a hand is in play.
        table.deal().unwrap();
        assert_eq!(table.end_as_draw().unwrap_err(), TableError::NoDealDue);
        while let Turn::Seat(_) = table.turn() {
            random_step(&mut table, &mut rng);
        }
        if table.turn() == Turn::Over {
            continue;
        }
        let scores = table.game().scores();
        let entries = table.end_as_draw().unwrap();
        assert_eq!(
            entries.iter().map(|e| &e.event).collect::<Vec<_>>(),
            [&calltrump_table::Event::GameEnded {
                outcome: Outcome::Draw,
                scores
            }]
        );
        assert_eq!(table.turn(), Turn::Over);
        assert_eq!(table.outcome(), Some(Outcome::Draw));
        assert_eq!(table.deal().unwrap_err(), TableError::NoDealDue);
        assert!(table.apply(Seat(0), Action::Pass).is_err());
        for recipient in recipients(seats) {
            let update = table.update_for(&entries, recipient);
            assert_eq!(update.view.phase, Phase::GameOver);
            assert_eq!(update.view.turn, Turn::Over);
            assert_eq!(update.view.outcome, Some(Outcome::Draw));
            assert!(update.view.legal.is_empty());
            assert_eq!(table.snapshot(recipient).view, update.view);
        }
        // The whole record once over; the log restores a table that stays over.
        assert_eq!(&table.public_record(), table.record());
        let restored = Table::restore(table.settings().clone(), seeded(3), table.log()).unwrap();
        assert_eq!(restored.turn(), Turn::Over);
        assert_eq!(restored.outcome(), Some(Outcome::Draw));
        assert_eq!(
            restored.snapshot(Viewer::Spectator),
            table.snapshot(Viewer::Spectator)
        );
    }
}

#[test]
fn every_recipient_gets_only_what_it_may_know_and_its_fold_is_its_snapshot() {
    for rules in variants() {
        for seed in 0..25 {
            let mut table = bot_table(&rules, seed);
            play_checked(&mut table, seed, 2_000);
        }
    }
}

#[test]
fn a_snapshot_at_any_version_is_rebuilt_from_the_log() {
    for rules in variants() {
        let mut table = bot_table(&rules, 9);
        let mut rng = seeded(99);
        let mut history = Vec::new();
        for _ in 0..300 {
            if table.turn() == Turn::Over {
                break;
            }
            let entries = random_step(&mut table, &mut rng);
            history.push((
                table.version(),
                table.snapshot(Viewer::Seat(Seat(2))),
                entries,
            ));
        }
        for (version, snapshot, _) in history.iter().step_by(7) {
            let rebuilt = table
                .snapshot_at(seeded(9), *version, Viewer::Seat(Seat(2)))
                .unwrap();
            assert_eq!(rebuilt, *snapshot, "{} at version {version}", rules.game());
        }
        // The whole log restores the table, which then deals on exactly as it would.
        let mut restored =
            Table::restore(table.settings().clone(), seeded(9), table.log()).unwrap();
        assert_eq!(restored.game(), table.game());
        assert_eq!(restored.record(), table.record());
        if table.turn() == Turn::Chance {
            restored.deal().unwrap();
            table.deal().unwrap();
            assert_eq!(restored.game(), table.game());
        }
    }
}

#[test]
fn the_record_is_the_logs_projection_and_replays_to_the_game() {
    for rules in variants() {
        let mut table = bot_table(&rules, 4);
        play_checked(&mut table, 4, 5_000);
        let (replay, game) = table.record().replay().unwrap();
        assert_eq!(&game, table.game());
        assert_eq!(replay.scores, table.game().scores());
    }
}

#[test]
fn a_refused_action_names_the_rule_and_changes_nothing() {
    for rules in variants() {
        let mut table = bot_table(&rules, 5);
        let seats = table.seats();
        // Before the deal nobody may act.
        let before = table.clone();
        let error = table.apply(Seat(0), Action::Pass).unwrap_err();
        assert!(matches!(error, TableError::NoOneToAct { .. }), "{error}");
        assert_eq!(table.version(), before.version());
        table.deal().unwrap();
        assert_eq!(table.deal().unwrap_err(), TableError::NoDealDue);
        let mut rng = seeded(55);
        for _ in 0..200 {
            let Turn::Seat(to_act) = table.turn() else {
                break;
            };
            let before = table.clone();
            let other = Seat(((to_act.index() + 1) % seats) as u8);
            let legal = table.game().legal_action_list();
            let error = table.apply(other, legal[0]).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("seat {other} may not act: it is seat {to_act}'s turn")
            );
            let error = table.apply(Seat(9), legal[0]).unwrap_err();
            assert!(matches!(error, TableError::NoSuchSeat { .. }));
            // A card nobody may play now: one not in the seat's hand, or out of turn.
            let foreign = Card::from_index(rng.random_range(0..64)).unwrap_or(Card::RED_JOKER);
            if !legal.contains(&Action::Play(foreign)) {
                let error = table.apply(to_act, Action::Play(foreign)).unwrap_err();
                assert!(matches!(error, TableError::Illegal(_)), "{error}");
                assert!(
                    error.to_string().starts_with(&format!("seat {to_act} ")),
                    "{error}"
                );
            }
            assert_eq!(table.game(), before.game());
            assert_eq!(table.record(), before.record());
            assert_eq!(table.log(), before.log());
            random_step(&mut table, &mut rng);
        }
    }
}

/// Deals and lets the bots act until `human` is to act (or the hand ends).
fn bots_until(table: &mut Table, human: Seat, rng: &mut impl Rng) {
    while table.turn() != Turn::Over && table.turn() != Turn::Seat(human) {
        random_step(table, rng);
    }
}

#[test]
fn undo_takes_back_a_persons_action_and_the_bots_after_it() {
    for rules in variants() {
        let seats = seats_of(&rules);
        let mut humans = vec![false; seats];
        humans[0] = true;
        let mut undone = 0;
        for seed in 0..20 {
            let mut table = Table::new(settings(&rules, humans.clone(), true), seeded(seed));
            let mut rng = seeded(seed + 100);
            bots_until(&mut table, Seat(0), &mut rng);
            for _ in 0..30 {
                if table.turn() != Turn::Seat(Seat(0)) {
                    break;
                }
                let before = table.clone();
                random_step(&mut table, &mut rng);
                bots_until(&mut table, Seat(0), &mut rng);
                let in_hand = table.record().hands.len() == before.record().hands.len();
                match table.undo(Seat(0)) {
                    Ok(entries) => {
                        assert!(in_hand, "undo across hands");
                        assert_eq!(table.game(), before.game(), "seed {seed}");
                        assert_eq!(table.record(), before.record(), "seed {seed}");
                        assert_eq!(entries[0].version, table.version());
                        undone += 1;
                    }
                    Err(UndoError::HandOver | UndoError::Nothing(_)) => {
                        assert!(!in_hand || table.turn() != Turn::Seat(Seat(0)));
                        bots_until(&mut table, Seat(0), &mut rng);
                    }
                    Err(other) => panic!("seed {seed}: {other}"),
                }
                // Play on: the same action again, or another.
                if table.turn() == Turn::Seat(Seat(0)) {
                    random_step(&mut table, &mut rng);
                    bots_until(&mut table, Seat(0), &mut rng);
                }
            }
        }
        assert!(undone > 20, "{}: only {undone} undos", rules.game());
    }
}

#[test]
fn undo_is_refused_where_it_would_be_unfair() {
    let rules = GameRules::Kaibosh(KaiboshRules::default());
    // Not allowed at this table.
    let mut table = Table::new(
        settings(&rules, vec![true, false, false, false], false),
        seeded(1),
    );
    table.deal().unwrap();
    assert_eq!(table.undo(Seat(0)), Err(UndoError::NotAllowed));

    // A bot's seat, nothing done yet, another person acted since, the other team saw a card.
    let mut table = Table::new(
        settings(&rules, vec![true, true, false, false], true),
        seeded(1),
    );
    table.deal().unwrap();
    assert_eq!(table.undo(Seat(2)), Err(UndoError::NotHuman(Seat(2))));
    assert_eq!(table.undo(Seat(0)), Err(UndoError::Nothing(Seat(0))));
    // Seat 1 deals, so seats 2, 3, 0 call, then seat 1, a person, bids.
    for seat in [2, 3, 0] {
        table.apply(Seat(seat), Action::Pass).unwrap();
    }
    assert_eq!(table.turn(), Turn::Seat(Seat(1)));
    let bid = *table
        .game()
        .legal_action_list()
        .iter()
        .find(|a| matches!(a, Action::Bid(_)))
        .unwrap();
    table.apply(Seat(1), bid).unwrap();
    assert_eq!(
        table.undo(Seat(0)),
        Err(UndoError::OtherPersonActed(Seat(1)))
    );

    // Seat 3, a person of the other team, saw seat 0's card.
    let mut table = Table::new(
        settings(&rules, vec![true, false, false, true], true),
        seeded(2),
    );
    let mut rng = seeded(4);
    loop {
        match table.turn() {
            Turn::Chance => drop(table.deal().unwrap()),
            Turn::Seat(seat) => {
                let action = random_legal(&table, &mut rng);
                let card = matches!(action, Action::Play(_));
                table.apply(seat, action).unwrap();
                if card && seat == Seat(0) && table.turn() == Turn::Seat(Seat(1)) {
                    break;
                }
            }
            Turn::Over => panic!("no play by seat 0 before seat 1"),
        }
    }
    let before = table.clone();
    assert_eq!(table.undo(Seat(0)), Err(UndoError::CardSeen));
    assert_eq!(table.game(), before.game());
    assert_eq!(table.log(), before.log());
}

#[test]
fn settings_arrive_as_json() {
    let text = r#"{"rules":{"game":"bid-euchre","variant":"simplified","options":{"deals":12}},
        "first_dealer":2,"humans":[true,false,false,false],"undo":true}"#;
    let settings: Settings = serde_json::from_str(text).unwrap();
    assert_eq!(
        settings.rules,
        GameRules::BidEuchre(BidEuchreRules {
            deals: 12,
            ..BidEuchreRules::new(BidEuchreVariant::Simplified)
        })
    );
    let back: Settings = serde_json::from_str(&serde_json::to_string(&settings).unwrap()).unwrap();
    assert_eq!(back, settings);
    let bad = r#"{"rules":{"game":"kout","options":{"joker_lead":"never"}},"first_dealer":0,"humans":[],"undo":false}"#;
    let error = serde_json::from_str::<Settings>(bad)
        .unwrap_err()
        .to_string();
    assert!(error.contains("joker_lead"), "{error}");
}

#[test]
fn committed_deals_reveal_each_seed_only_after_its_hand_and_verify() {
    use calltrump_engine::fair_deal::{verify, Seed};
    for rules in variants() {
        let seats = seats_of(&rules);
        let mut settings = settings(&rules, vec![false; seats], false);
        settings.committed = Some("table-7".into());
        let mut table = Table::new(settings, seeded(1));
        let mut rng = seeded(11);
        let all = recipients(seats);
        let mut folds: Vec<ClientState> = all.iter().map(|r| table.snapshot(*r)).collect();
        let mut secret: Option<String> = None;
        for step in 0..3_000 {
            let entries = match table.turn() {
                Turn::Over => break,
                Turn::Chance => match table.cutter() {
                    None => {
                        assert_eq!(
                            table.deal().unwrap_err().to_string(),
                            "this table deals committed hands: a seed is committed, then the deck is cut"
                        );
                        let seed = Seed(std::array::from_fn(|_| rng.random()));
                        secret = Some(seed.to_hex());
                        table.commit(seed).unwrap()
                    }
                    Some(cutter) => {
                        let other = Seat(((cutter.index() + 1) % seats) as u8);
                        assert!(table.cut(other, 3).is_err(), "only the cutter cuts");
                        assert!(
                            table.cut(cutter, 0).is_err(),
                            "a cut lifts at least one card"
                        );
                        table.cut(cutter, rng.random_range(1..20)).unwrap()
                    }
                },
                Turn::Seat(_) => random_step(&mut table, &mut rng),
            };
            let revealed = entries
                .iter()
                .any(|e| matches!(e.event, calltrump_table::Event::Revealed { .. }));
            for (recipient, fold) in all.iter().zip(folds.iter_mut()) {
                let update = table.update_for(&entries, *recipient);
                let text = serde_json::to_string(&update).unwrap();
                if let (Some(seed), false) = (&secret, revealed) {
                    assert!(
                        !text.contains(seed.as_str()),
                        "step {step}: the seed before the hand's end"
                    );
                }
                assert_only_known(&update, table.game(), *recipient, &format!("step {step}"));
                fold.apply(&update);
                assert_eq!(*fold, table.snapshot(*recipient), "step {step}");
            }
            if revealed {
                secret = None;
            }
        }
        // Every hand played out checks; a hand still in play has no seed yet.
        let verification = verify(table.record()).unwrap();
        let in_play = usize::from(table.turn() != Turn::Over && table.turn() != Turn::Chance);
        let done = verification.hands.len() - in_play;
        assert!(done > 3, "{}: {done} hands", rules.game());
        for check in &verification.hands[..done] {
            assert!(check.is_ok(), "{}: {check:?}", rules.game());
        }
        // The log restores the table, commitments and cuts included.
        let restored = Table::restore(table.settings().clone(), seeded(1), table.log()).unwrap();
        assert_eq!(restored.record(), table.record());
    }
}
