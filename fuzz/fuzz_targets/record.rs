//! Game records: reading and replaying any text never panics, and a record that
//! replays reads back from its own JSON the same.

#![no_main]

use calltrump_engine::Record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = Record::parse(text) else {
        return;
    };
    if let Ok((replay, _)) = record.replay() {
        let again = Record::parse(&record.to_json()).expect("a record reads back");
        let (replayed, _) = again.replay().expect("a record that replayed replays again");
        assert_eq!(replay, replayed);
    }
});
