//! The `Store` contract: what every backend must do, written once over `&dyn Store` and
//! run on each (`store.rs` on SQLite, `postgres.rs` on PostgreSQL) through
//! [`store_contract_tests!`](crate::store_contract_tests), which makes one test per check,
//! each on a fresh, empty store.

use calltrump_engine::{seeded, Game, GameRules, Seat, Turn};
use calltrump_server::model::{
    NightStatus, SeatRecord, Sitter, TableStatus, TurnClock, FORMER_PLAYER,
};
use calltrump_server::store::{
    ChatLine, ChatPlace, Store, StoreError, StoredAccount, StoredChat, StoredNight, StoredTable,
};
use calltrump_table::{Entry, Settings, Table};

/// One test per check of the contract, each on the store `$open` (an async expression
/// giving a fresh, empty [`TestStore`](crate::common::TestStore)) makes.
#[macro_export]
macro_rules! store_contract_tests {
    ($open:expr) => {
        $crate::store_contract_tests!(@tests $open;
            a_created_table_reads_back_and_an_unknown_one_is_none,
            a_table_id_is_taken_once,
            seats_and_status_are_updated_together,
            a_games_steps_are_kept_in_order_and_replay,
            a_step_with_a_version_taken_twice_changes_nothing,
            a_step_with_a_gap_or_versions_out_of_order_changes_nothing,
            a_step_of_an_unknown_table_is_refused,
            steps_of_many_tables_at_once_are_kept_and_one_out_of_order_is_refused_alone,
            chat_lines_come_back_in_order_with_their_places,
            a_chat_line_number_is_taken_once_and_an_unknown_tables_chat_refused,
            live_tables_are_the_open_and_playing_ones_oldest_first,
            nights_are_saved_updated_and_the_playing_ones_resumed,
            a_sets_table_and_its_night_are_kept_together_or_not_at_all,
            an_account_reads_back_and_its_name_key_is_taken_once,
            a_session_finds_its_account_until_it_ends_or_expires,
            deleting_an_account_ends_its_sessions_and_frees_its_name,
            an_accounts_tables_are_those_with_a_seat_bound_to_it_newest_first,
            a_deleted_accounts_seats_keep_their_games_under_a_former_players_name,
            sign_in_attempts_are_limited_per_key_and_say_when_to_retry,
        );
        $crate::store_contract_tests!(@ratings $open;
            a_rated_game_moves_each_accounts_rating_once_as_weng_lin_says,
            the_leaderboard_lists_those_with_enough_games_best_first,
            a_rated_game_over_and_not_rated_is_found_until_it_is,
        );
    };
    (@ratings $open:expr; $($check:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $check() {
                let store: $crate::common::TestStore = $open.await;
                $crate::common::rating_contract::$check(&*store.store).await;
            }
        )*
    };
    (@tests $open:expr; $($check:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $check() {
                let store: $crate::common::TestStore = $open.await;
                $crate::common::contract::$check(&*store.store).await;
            }
        )*
    };
}

/// Kaibosh settings: seat 0 a person, the rest bots.
fn settings() -> Settings {
    let rules = GameRules::from_header("kaibosh", None, &Default::default()).unwrap();
    Settings::new(rules, Seat(0), &[Seat(0)])
}

/// Seat 0 a person named `name`, the others `random` bots.
fn seats(name: &str) -> Vec<SeatRecord> {
    (0..4)
        .map(|s| SeatRecord {
            token: format!("{name}-seat-{s}"),
            name: (s == 0).then(|| name.to_string()),
            sitter: if s == 0 {
                Sitter::Person
            } else {
                Sitter::Bot("random".into())
            },
            stand_in: false,
            account: None,
            deadline_ms: None,
            former: Vec::new(),
            invited_by: None,
        })
        .collect()
}

/// A Kaibosh table `id` as stored at creation, dealt from `seed`.
pub fn new_table(id: &str, seed: u64, status: TableStatus, created_at: i64) -> StoredTable {
    StoredTable {
        id: id.into(),
        settings: settings(),
        hints: false,
        unattended: false,
        turn_clock: None,
        rated: false,
        night: None,
        deal_rng: seeded(seed),
        seats: seats(id),
        host_token: format!("{id}-host"),
        status,
        created_at,
    }
}

/// The first `steps` steps (a deal, then one action each, a new deal when a hand is
/// over) of the table dealt from `seed`, each action a legal one picked by the seed and
/// the step's number.
pub fn steps(seed: u64, steps: usize) -> Vec<Vec<Entry>> {
    let mut table = Table::restore(settings(), seeded(seed), &[]).unwrap();
    let mut out = Vec::new();
    while out.len() < steps {
        let step = match table.turn() {
            Turn::Chance => table.deal().unwrap(),
            Turn::Seat(seat) => {
                let legal = table.game().legal_action_list();
                let pick = legal[(seed as usize + out.len()) % legal.len()];
                table.apply(seat, pick).unwrap()
            }
            Turn::Over => break,
        };
        out.push(step);
    }
    out
}

/// Creates table `id` (playing) and appends its first `count` steps: the entries kept.
async fn table_with_steps(store: &dyn Store, id: &str, count: usize) -> Vec<Entry> {
    store
        .create_table(&new_table(id, 5, TableStatus::Playing, 0))
        .await
        .unwrap();
    let mut kept = Vec::new();
    for step in steps(5, count) {
        store.append(id, &step, None).await.unwrap();
        kept.extend(step);
    }
    kept
}

/// What is stored of table `id`: its row and its log.
async fn stored(store: &dyn Store, id: &str) -> (StoredTable, Vec<Entry>) {
    let table = store.table(id).await.unwrap().expect("the table is stored");
    (table, store.log(id).await.unwrap())
}

pub async fn a_created_table_reads_back_and_an_unknown_one_is_none(store: &dyn Store) {
    let table = new_table("t1", 1, TableStatus::Open, 1_700_000_000);
    store.create_table(&table).await.unwrap();
    assert_eq!(store.table("t1").await.unwrap(), Some(table));
    // Typed state reads back as it was given: hints, committed deals, a cut side.
    let mut settings = settings();
    settings.committed = Some("t2".into());
    settings.undo = true;
    let other = StoredTable {
        id: "t2".into(),
        settings,
        hints: true,
        unattended: true,
        turn_clock: Some(TurnClock {
            seconds: 30,
            level: "hard".into(),
        }),
        rated: true,
        night: Some("a1b2c3d4e5f60718".into()),
        ..new_table("t2", 9, TableStatus::Playing, 3)
    };
    store.create_table(&other).await.unwrap();
    assert_eq!(store.table("t2").await.unwrap(), Some(other));
    assert_eq!(store.table("nothing").await.unwrap(), None);
    assert!(store.log("t1").await.unwrap().is_empty());
    assert!(store.log("nothing").await.unwrap().is_empty());
    assert!(store.chat_history("nothing").await.unwrap().is_empty());
}

pub async fn a_table_id_is_taken_once(store: &dyn Store) {
    let first = new_table("t", 1, TableStatus::Open, 10);
    store.create_table(&first).await.unwrap();
    let second = StoredTable {
        host_token: "another".into(),
        ..new_table("t", 2, TableStatus::Playing, 20)
    };
    assert!(store.create_table(&second).await.is_err());
    assert_eq!(store.table("t").await.unwrap(), Some(first));
}

pub async fn seats_and_status_are_updated_together(store: &dyn Store) {
    store
        .create_table(&new_table("t", 1, TableStatus::Open, 0))
        .await
        .unwrap();
    let mut changed = seats("t");
    changed[1] = SeatRecord {
        token: "new".into(),
        name: Some("Bea".into()),
        sitter: Sitter::Open,
        stand_in: false,
        account: None,
        deadline_ms: None,
        former: Vec::new(),
        invited_by: None,
    };
    // Seat 0's person away past the grace: the bot standing in is kept.
    changed[0].stand_in = true;
    // Seat 1 to decide on a clock: its deadline is kept with the seats.
    changed[1].deadline_ms = Some(1_700_000_030_000);
    store
        .update_table("t", &changed, TableStatus::Playing)
        .await
        .unwrap();
    let (table, log) = stored(store, "t").await;
    assert_eq!(table.seats, changed);
    assert_eq!(table.status, TableStatus::Playing);
    assert_eq!(
        table.settings,
        new_table("t", 1, TableStatus::Open, 0).settings
    );
    assert!(log.is_empty());
}

pub async fn a_games_steps_are_kept_in_order_and_replay(store: &dyn Store) {
    // Three tables' steps interleaved: each log holds its own, in order.
    let ids = ["a", "b", "c"];
    let games: Vec<Vec<Vec<Entry>>> = (0..3).map(|seed| steps(seed, 40)).collect();
    assert!(games.iter().all(|game| game.len() == 40));
    for (i, id) in ids.iter().enumerate() {
        store
            .create_table(&new_table(id, i as u64, TableStatus::Playing, i as i64))
            .await
            .unwrap();
    }
    for n in 0..40 {
        for (id, game) in ids.iter().zip(&games) {
            if let Some(step) = game.get(n) {
                store.append(id, step, None).await.unwrap();
            }
        }
    }
    for (seed, (id, game)) in ids.iter().zip(&games).enumerate() {
        let log = store.log(id).await.unwrap();
        let all: Vec<Entry> = game.concat();
        assert!(all.len() >= 40, "{id}: {} entries", all.len());
        assert_eq!(log, all, "{id}");
        let versions: Vec<u64> = log.iter().map(|e| e.version).collect();
        assert_eq!(versions, (1..=log.len() as u64).collect::<Vec<_>>());
        // The log restores the table it was taken from.
        let restored = Table::restore(settings(), seeded(seed as u64), &log).unwrap();
        assert_eq!(restored.version(), log.len() as u64);
    }
    // The step that ends a game keeps its seats and status with its entries.
    let last = steps(0, 41).pop().unwrap();
    let mut given = seats("a");
    given[0].sitter = Sitter::Bot("random".into());
    store
        .append("a", &last, Some((&given, TableStatus::Over)))
        .await
        .unwrap();
    let (table, log) = stored(store, "a").await;
    assert_eq!(table.status, TableStatus::Over);
    assert_eq!(table.seats, given);
    assert_eq!(log.last(), last.last());
}

/// Table `t` with some steps, then `bad` appended with new seats and status `over`:
/// refused, and nothing of the table changed.
async fn refused_changes_nothing(store: &dyn Store, kept: &[Entry], bad: &[Entry]) -> StoreError {
    let before = stored(store, "t").await;
    assert_eq!(before.1, kept);
    let mut given = seats("t");
    given[2].name = Some("Cy".into());
    let error = store
        .append("t", bad, Some((&given, TableStatus::Over)))
        .await
        .expect_err("the step is refused");
    assert_eq!(stored(store, "t").await, before, "after {error}");
    // Refused without an update, too.
    assert!(store.append("t", bad, None).await.is_err());
    assert_eq!(stored(store, "t").await, before);
    error
}

pub async fn a_step_with_a_version_taken_twice_changes_nothing(store: &dyn Store) {
    let kept = table_with_steps(store, "t", 5).await;
    let next = steps(5, 6).pop().unwrap();
    // A step that repeats the log's last entry, then the real next one.
    let mut bad = vec![kept.last().unwrap().clone()];
    bad.extend(next.iter().cloned());
    refused_changes_nothing(store, &kept, &bad).await;
    // The whole last step again.
    let last_step = steps(5, 5).pop().unwrap();
    refused_changes_nothing(store, &kept, &last_step).await;
    // The real next step is then kept.
    store.append("t", &next, None).await.unwrap();
    assert_eq!(store.log("t").await.unwrap(), [kept, next].concat());
}

pub async fn a_step_with_a_gap_or_versions_out_of_order_changes_nothing(store: &dyn Store) {
    let kept = table_with_steps(store, "t", 5).await;
    let after: Vec<Entry> = steps(5, 8)[5..].concat();
    assert!(after.len() >= 3);
    // A gap: the step skips the next version.
    let error = refused_changes_nothing(store, &kept, &after[1..]).await;
    let next = kept.len() as i64 + 1;
    assert!(
        matches!(error, StoreError::OutOfOrder { expected, got, .. } if expected == next && got == next + 1),
        "{error}"
    );
    // Versions in the wrong order within the step.
    let swapped = vec![after[1].clone(), after[0].clone()];
    refused_changes_nothing(store, &kept, &swapped).await;
    store.append("t", &after, None).await.unwrap();
    assert_eq!(store.log("t").await.unwrap(), [kept, after].concat());
}

pub async fn a_step_of_an_unknown_table_is_refused(store: &dyn Store) {
    let step = steps(1, 1).pop().unwrap();
    assert!(store.append("nothing", &step, None).await.is_err());
    assert!(store.log("nothing").await.unwrap().is_empty());
    assert_eq!(store.table("nothing").await.unwrap(), None);
}

/// Many tables step at once (a store may commit them together, as SQLite's group
/// commit does): each step is kept in its own log, and the one step with a gap is refused
/// without taking the others down with it.
pub async fn steps_of_many_tables_at_once_are_kept_and_one_out_of_order_is_refused_alone(
    store: &dyn Store,
) {
    const TABLES: usize = 40;
    let ids: Vec<String> = (0..TABLES).map(|i| format!("t{i}")).collect();
    for id in &ids {
        store
            .create_table(&new_table(id, 5, TableStatus::Playing, 0))
            .await
            .unwrap();
    }
    let game = steps(5, 4);
    for round in 0..game.len() {
        let appends = ids.iter().enumerate().map(|(i, id)| {
            // Table t7 skips its second step: a gap.
            let step = if i == 7 && round == 1 {
                &game[round + 1]
            } else {
                &game[round]
            };
            store.append(id, step, None)
        });
        let results = futures_util::future::join_all(appends).await;
        for (i, result) in results.into_iter().enumerate() {
            match (i, round) {
                (7, 1) => assert!(
                    matches!(result, Err(StoreError::OutOfOrder { .. })),
                    "{result:?}"
                ),
                // Its later steps follow a log that stopped before the gap.
                (7, r) if r > 1 => assert!(result.is_err(), "{result:?}"),
                _ => result.unwrap(),
            }
        }
    }
    for (i, id) in ids.iter().enumerate() {
        let expected = if i == 7 {
            game[0].clone()
        } else {
            game.concat()
        };
        assert_eq!(store.log(id).await.unwrap(), expected, "table {id}");
    }
}

fn line(seq: i64, body: &str) -> ChatLine {
    ChatLine {
        seq,
        sender: format!("seat {}", seq % 4),
        body: body.into(),
        at: 1_700_000_000 + seq,
    }
}

pub async fn chat_lines_come_back_in_order_with_their_places(store: &dyn Store) {
    for id in ["t", "u"] {
        store
            .create_table(&new_table(id, 1, TableStatus::Playing, 0))
            .await
            .unwrap();
    }
    let said: Vec<StoredChat> = (1..=12)
        .map(|seq| StoredChat {
            line: line(seq, &format!("line {seq}: ünïcode ♠ and 'quotes'")),
            place: Some(ChatPlace {
                deals: (seq / 5) as u32,
                actions: (seq * 3 % 7) as u32,
            }),
        })
        .collect();
    // Written out of order, between another table's lines.
    for chat in said.iter().rev() {
        store
            .chat("t", &chat.line, chat.place.unwrap())
            .await
            .unwrap();
        let other = line(chat.line.seq, "elsewhere");
        store
            .chat(
                "u",
                &other,
                ChatPlace {
                    deals: 0,
                    actions: 0,
                },
            )
            .await
            .unwrap();
    }
    assert_eq!(store.chat_history("t").await.unwrap(), said);
    let other = store.chat_history("u").await.unwrap();
    assert_eq!(other.len(), 12);
    assert!(other.iter().all(|c| c.line.body == "elsewhere"));
}

pub async fn a_chat_line_number_is_taken_once_and_an_unknown_tables_chat_refused(
    store: &dyn Store,
) {
    store
        .create_table(&new_table("t", 1, TableStatus::Playing, 0))
        .await
        .unwrap();
    let place = ChatPlace {
        deals: 1,
        actions: 2,
    };
    store.chat("t", &line(1, "first"), place).await.unwrap();
    assert!(store.chat("t", &line(1, "again"), place).await.is_err());
    assert!(store.chat("nothing", &line(1, "hi"), place).await.is_err());
    let history = store.chat_history("t").await.unwrap();
    assert_eq!(
        history,
        [StoredChat {
            line: line(1, "first"),
            place: Some(place)
        }]
    );
}

pub async fn live_tables_are_the_open_and_playing_ones_oldest_first(store: &dyn Store) {
    // (id, status, created at): ties in time are ordered by id.
    let tables = [
        ("e", TableStatus::Open, 30),
        ("d", TableStatus::Playing, 10),
        ("c", TableStatus::Over, 5),
        ("b", TableStatus::Ended, 1),
        ("a", TableStatus::Open, 30),
        ("f", TableStatus::Playing, 20),
    ];
    for (id, status, at) in tables {
        store
            .create_table(&new_table(id, 1, status, at))
            .await
            .unwrap();
    }
    let live = |tables: Vec<Result<StoredTable, StoreError>>| -> Vec<String> {
        tables.into_iter().map(|t| t.unwrap().id).collect()
    };
    assert_eq!(
        live(store.live_tables().await.unwrap()),
        ["d", "f", "a", "e"]
    );
    store
        .update_table("f", &seats("f"), TableStatus::Ended)
        .await
        .unwrap();
    let step = steps(1, 1).pop().unwrap();
    store
        .append("d", &step, Some((&seats("d"), TableStatus::Over)))
        .await
        .unwrap();
    store
        .update_table("c", &seats("c"), TableStatus::Playing)
        .await
        .unwrap();
    let now: Vec<StoredTable> = store
        .live_tables()
        .await
        .unwrap()
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let ids: Vec<&str> = now.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["c", "a", "e"]);
    assert_eq!(now[0], new_table("c", 1, TableStatus::Playing, 5));
}

fn night(id: &str, state: &str, status: NightStatus, created_at: i64) -> StoredNight {
    StoredNight {
        id: id.into(),
        state: state.into(),
        status,
        created_at,
    }
}

pub async fn nights_are_saved_updated_and_the_playing_ones_resumed(store: &dyn Store) {
    assert_eq!(store.night("n").await.unwrap(), None);
    assert!(store.live_nights().await.unwrap().is_empty());
    let nights = [
        night("n3", r#"{"sets":[]}"#, NightStatus::Playing, 30),
        night("n1", r#"{"sets":[1]}"#, NightStatus::Playing, 10),
        night("n2", r#"{"sets":[2]}"#, NightStatus::Over, 20),
    ];
    for n in &nights {
        store.save_night(n).await.unwrap();
    }
    assert_eq!(store.night("n2").await.unwrap().as_ref(), Some(&nights[2]));
    let ids =
        |nights: Vec<StoredNight>| -> Vec<String> { nights.into_iter().map(|n| n.id).collect() };
    assert_eq!(ids(store.live_nights().await.unwrap()), ["n1", "n3"]);
    // Saved again: its state and status change, its creation time stays.
    let ended = night("n1", r#"{"sets":[1,"ended"]}"#, NightStatus::Ended, 99);
    store.save_night(&ended).await.unwrap();
    assert_eq!(
        store.night("n1").await.unwrap(),
        Some(night(
            "n1",
            r#"{"sets":[1,"ended"]}"#,
            NightStatus::Ended,
            10
        ))
    );
    assert_eq!(store.live_nights().await.unwrap(), [nights[0].clone()]);
}

/// A night's next set: its table and the night naming it are kept in one transaction,
/// a new night's first as a later set's; a set whose table cannot be kept (its id
/// taken) leaves the night as it was.
pub async fn a_sets_table_and_its_night_are_kept_together_or_not_at_all(store: &dyn Store) {
    let first = new_table("s1", 1, TableStatus::Open, 10);
    let started = night("n", r#"{"tables":["s1"]}"#, NightStatus::Playing, 10);
    store.create_set_table(&first, &started).await.unwrap();
    assert_eq!(store.table("s1").await.unwrap(), Some(first.clone()));
    assert_eq!(store.night("n").await.unwrap().as_ref(), Some(&started));
    let second = new_table("s2", 2, TableStatus::Open, 20);
    let next = night("n", r#"{"tables":["s1","s2"]}"#, NightStatus::Playing, 10);
    store.create_set_table(&second, &next).await.unwrap();
    assert_eq!(store.table("s2").await.unwrap(), Some(second));
    assert_eq!(store.night("n").await.unwrap().as_ref(), Some(&next));
    // The third set's table under an id taken: neither it nor the night is kept.
    let third = night(
        "n",
        r#"{"tables":["s1","s2","s1"]}"#,
        NightStatus::Playing,
        10,
    );
    assert!(store.create_set_table(&first, &third).await.is_err());
    assert_eq!(store.night("n").await.unwrap(), Some(next));
}

/// An account `id` named `name` (its key the lowercase name), with a stand-in hash.
pub fn account(id: &str, name: &str) -> StoredAccount {
    StoredAccount {
        id: id.into(),
        name: name.into(),
        name_key: name.to_lowercase(),
        name_skeleton: Some(calltrump_server::accounts::name_skeleton(
            &name.to_lowercase(),
        )),
        password_hash: format!("$argon2id$stand-in-for-{id}"),
        created_at: 1_700_000_000,
    }
}

pub async fn an_account_reads_back_and_its_name_key_is_taken_once(store: &dyn Store) {
    let accounts = store.accounts();
    let ann = account("a1", "Ann");
    assert!(accounts.create_account(&ann).await.unwrap());
    assert_eq!(
        accounts.account_named("ann").await.unwrap(),
        Some(ann.clone())
    );
    assert_eq!(accounts.account_named("bob").await.unwrap(), None);
    // Another account whose name has the same key is refused, and the first stays.
    assert!(!accounts
        .create_account(&account("a2", "ANN"))
        .await
        .unwrap());
    assert_eq!(
        accounts.account_named("ann").await.unwrap(),
        Some(ann.clone())
    );
    // So is one whose name only looks the same (a Cyrillic а), and one from before
    // skeletons were kept (none) is taken beside it.
    let lookalike = account("a3", "\u{430}nn");
    assert_ne!(lookalike.name_key, ann.name_key);
    assert!(!accounts.create_account(&lookalike).await.unwrap());
    assert_eq!(
        accounts.account_named(&lookalike.name_key).await.unwrap(),
        None
    );
    let older = StoredAccount {
        name_skeleton: None,
        ..account("a4", "Bo")
    };
    assert!(accounts.create_account(&older).await.unwrap());
    let older_too = StoredAccount {
        name_skeleton: None,
        ..account("a5", "Cy")
    };
    assert!(accounts.create_account(&older_too).await.unwrap());
    assert_eq!(accounts.account_named("bo").await.unwrap(), Some(older));
}

pub async fn a_session_finds_its_account_until_it_ends_or_expires(store: &dyn Store) {
    let accounts = store.accounts();
    let ann = account("a1", "Ann");
    accounts.create_account(&ann).await.unwrap();
    accounts
        .create_session("hash-1", "a1", 1_000)
        .await
        .unwrap();
    accounts
        .create_session("hash-2", "a1", 2_000)
        .await
        .unwrap();
    assert_eq!(
        accounts.session_account("hash-1", 1_000).await.unwrap(),
        Some(ann.clone())
    );
    assert_eq!(accounts.session_account("unknown", 0).await.unwrap(), None);
    // Opened before `since`: expired.
    assert_eq!(
        accounts.session_account("hash-1", 1_001).await.unwrap(),
        None
    );
    accounts.delete_session("hash-1").await.unwrap();
    assert_eq!(accounts.session_account("hash-1", 0).await.unwrap(), None);
    // The account's other session goes on.
    assert_eq!(
        accounts.session_account("hash-2", 0).await.unwrap(),
        Some(ann)
    );
    // A session of no account is refused by the foreign key.
    assert!(accounts
        .create_session("hash-3", "nobody", 0)
        .await
        .is_err());
}

pub async fn deleting_an_account_ends_its_sessions_and_frees_its_name(store: &dyn Store) {
    let accounts = store.accounts();
    accounts
        .create_account(&account("a1", "Ann"))
        .await
        .unwrap();
    let bob = account("b1", "Bob");
    accounts.create_account(&bob).await.unwrap();
    accounts.create_session("ann-1", "a1", 0).await.unwrap();
    accounts.create_session("ann-2", "a1", 0).await.unwrap();
    accounts.create_session("bob-1", "b1", 0).await.unwrap();
    assert!(accounts.delete_account("a1").await.unwrap());
    assert!(!accounts.delete_account("a1").await.unwrap());
    for session in ["ann-1", "ann-2"] {
        assert_eq!(accounts.session_account(session, 0).await.unwrap(), None);
    }
    assert_eq!(accounts.account_named("ann").await.unwrap(), None);
    assert_eq!(
        accounts.session_account("bob-1", 0).await.unwrap(),
        Some(bob)
    );
    assert!(accounts
        .create_account(&account("a3", "Ann"))
        .await
        .unwrap());
}

/// Table `id` with seat `seat` bound to account `account` (and named after it).
fn bound_table(id: &str, account_id: &str, seat: usize, created_at: i64) -> StoredTable {
    let mut table = new_table(id, 3, TableStatus::Playing, created_at);
    table.seats[seat].sitter = Sitter::Person;
    table.seats[seat].name = Some(format!("{account_id}'s name"));
    table.seats[seat].account = Some(account_id.into());
    table
}

pub async fn an_accounts_tables_are_those_with_a_seat_bound_to_it_newest_first(store: &dyn Store) {
    let accounts = store.accounts();
    accounts
        .create_account(&account("a1", "Ann"))
        .await
        .unwrap();
    accounts
        .create_account(&account("b1", "Bob"))
        .await
        .unwrap();
    store
        .create_table(&bound_table("old", "a1", 0, 10))
        .await
        .unwrap();
    store
        .create_table(&bound_table("new", "a1", 2, 20))
        .await
        .unwrap();
    store
        .create_table(&bound_table("bobs", "b1", 0, 30))
        .await
        .unwrap();
    // A seat whose *name* looks like the account's id binds nothing.
    let mut named = new_table("named", 3, TableStatus::Open, 40);
    named.seats[0].name = Some("\"account\":\"a1\"".into());
    store.create_table(&named).await.unwrap();
    let ids = |tables: Vec<StoredTable>| tables.into_iter().map(|t| t.id).collect::<Vec<_>>();
    assert_eq!(
        ids(accounts.account_tables("a1").await.unwrap()),
        ["new", "old"]
    );
    assert_eq!(ids(accounts.account_tables("b1").await.unwrap()), ["bobs"]);
    assert!(accounts.account_tables("c1").await.unwrap().is_empty());
    // An id that is no account's (ids are hex) matches nothing, not every table.
    assert!(accounts.account_tables("%").await.unwrap().is_empty());
    // A seat bound later (the seats updated) makes the table the account's.
    let mut seats = store.table("bobs").await.unwrap().unwrap().seats;
    seats[3].account = Some("a1".into());
    store
        .update_table("bobs", &seats, TableStatus::Over)
        .await
        .unwrap();
    let tables = accounts.account_tables("a1").await.unwrap();
    assert_eq!(ids(tables.clone()), ["bobs", "new", "old"]);
    assert_eq!(tables[0].status, TableStatus::Over);
}

pub async fn a_deleted_accounts_seats_keep_their_games_under_a_former_players_name(
    store: &dyn Store,
) {
    let accounts = store.accounts();
    accounts
        .create_account(&account("a1", "Ann"))
        .await
        .unwrap();
    accounts
        .create_account(&account("b1", "Bob"))
        .await
        .unwrap();
    let mut shared = bound_table("shared", "a1", 0, 10);
    shared.seats[2].name = Some("Bob".into());
    shared.seats[2].account = Some("b1".into());
    store.create_table(&shared).await.unwrap();
    for step in steps(3, 5) {
        store.append("shared", &step, None).await.unwrap();
    }
    let log = store.log("shared").await.unwrap();
    assert!(accounts.delete_account("a1").await.unwrap());
    let (table, kept_log) = stored(store, "shared").await;
    assert_eq!(kept_log, log, "the game stays whole");
    assert_eq!(table.seats[0].name.as_deref(), Some(FORMER_PLAYER));
    assert_eq!(table.seats[0].account, None);
    // A new token: the account's old link seats no one.
    assert_ne!(table.seats[0].token, shared.seats[0].token);
    assert_eq!(table.seats[0].token.len(), 32, "{}", table.seats[0].token);
    // The other account's seat and the bots' are as they were.
    assert_eq!(table.seats[1..], shared.seats[1..]);
    assert!(accounts.account_tables("a1").await.unwrap().is_empty());
    assert_eq!(accounts.account_tables("b1").await.unwrap().len(), 1);
}

/// Sign-in attempts are counted per key: `per_minute` at once, then refused with the
/// time until the next (a minute's share), while another key has its own; 0 is no limit.
pub async fn sign_in_attempts_are_limited_per_key_and_say_when_to_retry(store: &dyn Store) {
    let accounts = store.accounts();
    for attempt in 0..3 {
        let taken = accounts
            .take_attempt("name 192.0.2.1 ann", 3)
            .await
            .unwrap();
        assert_eq!(taken, None, "attempt {attempt}");
    }
    let wait = accounts
        .take_attempt("name 192.0.2.1 ann", 3)
        .await
        .unwrap()
        .expect("the fourth attempt is refused");
    assert!(
        wait > std::time::Duration::ZERO && wait <= std::time::Duration::from_secs(20),
        "{wait:?}"
    );
    // A refused attempt spends nothing: the wait does not grow.
    let again = accounts
        .take_attempt("name 192.0.2.1 ann", 3)
        .await
        .unwrap()
        .expect("still refused");
    assert!(again <= wait, "{again:?} after {wait:?}");
    assert_eq!(
        accounts
            .take_attempt("name 192.0.2.2 ann", 3)
            .await
            .unwrap(),
        None
    );
    for _ in 0..10 {
        assert_eq!(
            accounts.take_attempt("address 192.0.2.1", 0).await.unwrap(),
            None
        );
    }
}
