//! Chat: paced by the clock given, bounded in memory.

use super::*;

#[test]
fn chat_lines_are_paced_by_the_clock_given() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, bot(), bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    connect(&mut s, 1, None, t0);
    let line = |text: &str| ClientMessage::Chat { text: text.into() };
    let first = say(&mut s, 1, line("one"), t0);
    let [Persist::Chat { line: kept, .. }] = persists(&first)[..] else {
        panic!("the line is kept")
    };
    assert_eq!(
        (kept.seq, kept.at, kept.sender.as_str()),
        (1, WALL, "watching")
    );
    let soon = say(&mut s, 1, line("two"), t0 + Duration::from_millis(100));
    assert_eq!(errors(&soon, 1), [ErrorCode::Chat]);
    assert!(persists(&soon).is_empty());
    let later = say(&mut s, 1, line("three"), t0 + Duration::from_secs(5));
    let [Persist::Chat { line: kept, .. }] = persists(&later)[..] else {
        panic!("the line is kept")
    };
    assert_eq!((kept.seq, kept.at), (2, WALL + 5));
}

#[test]
fn a_tables_chat_in_memory_is_bounded_and_a_newcomer_gets_the_latest_lines() {
    let t0 = start();
    let mut s = table(
        &[Sitter::Open, bot(), bot(), bot()],
        TableStatus::Open,
        false,
        false,
    );
    connect(&mut s, 1, None, t0);
    for i in 0..200u64 {
        let text = format!("line {i}");
        let said = say(
            &mut s,
            1,
            ClientMessage::Chat { text },
            t0 + Duration::from_secs(i),
        );
        assert_eq!(persists(&said).len(), 1, "every line is kept in the store");
        assert!(s.chat.len() <= 51, "{} lines in memory", s.chat.len());
    }
    let newcomer = connect(&mut s, 2, None, t0 + Duration::from_secs(300));
    let lines: Vec<&str> = sent(&newcomer, 2)
        .into_iter()
        .filter_map(|m| match m {
            ServerMessage::Chat(chat) => Some(chat.line.body.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(lines.len(), 50);
    assert_eq!((lines[0], lines[49]), ("line 150", "line 199"));
}
