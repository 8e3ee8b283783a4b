//! Fixed-deal cases from `tests/data/*.json`, written by hand from the rules texts: each
//! gives a record and either its expected replay output or the start of its error line.
//!
//! A file is a JSON array of cases:
//! `{"name": "...", "record": {...}, "replay": {...}}` or
//! `{"name": "...", "record": {...}, "error": "hand 0, action 7 \"play KS\": seat 3"}`.

use std::path::Path;

use calltrump_engine::Record;
use serde_json::Value;

fn run_file(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let cases: Vec<Value> = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not a JSON array of cases: {e}", path.display()));
    for case in &cases {
        let name = case["name"].as_str().expect("every case has a name");
        let where_ = format!("{} / {name}", path.display());
        let record =
            Record::parse(&case["record"].to_string()).unwrap_or_else(|e| panic!("{where_}: {e}"));
        match (record.replay(), case.get("replay"), case.get("error")) {
            (Ok((replay, _)), Some(expected), None) => {
                let got = serde_json::to_value(&replay).unwrap();
                assert_eq!(&got, expected, "{where_}: replay differs");
            }
            (Err(error), None, Some(expected)) => {
                let expected = expected.as_str().expect("error is a string");
                let line = error.to_string();
                assert!(
                    line.starts_with(expected),
                    "{where_}: error \"{line}\" does not start with \"{expected}\""
                );
            }
            (Ok(_), None, Some(expected)) => {
                panic!("{where_}: replayed, expected error {expected}")
            }
            (Err(error), Some(_), None) => panic!("{where_}: unexpected error: {error}"),
            _ => panic!("{where_}: a case has exactly one of replay and error"),
        }
    }
    cases.len()
}

#[test]
fn every_data_case_replays_as_written() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let total: usize = files.iter().map(|f| run_file(f)).sum();
    assert!(total > 0, "no data cases in {}", dir.display());
}
