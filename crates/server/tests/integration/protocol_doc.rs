//! docs/table-protocol.md against the code, so that the document cannot drift from it:
//! every JSON example in it is a message of the protocol, every message (and every
//! event of an `update`) has a whole example in it, and the `curl` bodies are tables the
//! server accepts.
//!
//! What the document holds:
//! - ` ```json ` blocks: each exactly one message, whole.
//! - ` ```text ` blocks: lines `NAME → {...}` (a client's message) and `NAME ← {...}` (a
//!   server's); a line may be shortened with `…`, and is then only checked for its type.
//!   Other lines of these blocks are prose or other output, and are not checked.
//! - ` ```sh ` blocks: a `curl ... -d '{...}'` line's body is a `POST /api/tables` body.

use std::collections::BTreeSet;
use std::path::PathBuf;

use calltrump_server::hub::NewTable;
use calltrump_server::protocol::{ClientMessage, ServerMessage};
use calltrump_table::SeenEvent;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

fn document() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/table-protocol.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fenced block: its info string, the line it starts on (1-based) and its lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match open.take() {
                Some(block) => out.push(block),
                None => {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        line: i + 1,
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(block) = &mut open {
            block.lines.push(line.to_string());
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    out
}

/// The `type`s an internally tagged enum knows, as serde itself lists them when it
/// meets a type it does not know: nothing to keep in step by hand.
fn types<T: DeserializeOwned + std::fmt::Debug>() -> BTreeSet<String> {
    let error = serde_json::from_str::<T>(r#"{"type":"-"}"#)
        .expect_err("\"-\" is no type")
        .to_string();
    let expected = error
        .split_once("expected")
        .unwrap_or_else(|| panic!("serde's message changed: {error}"))
        .1;
    let names: BTreeSet<String> = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(names.len() > 2, "no types read from \"{error}\"");
    names
}

/// Whether `written` says nothing that `code` (the message as the type writes it back)
/// does not: every field written is one the type has, with the same value. Fields left
/// out (defaults) are fine.
fn covered(written: &Value, code: &Value, at: &str) -> Result<(), String> {
    match (written, code) {
        (Value::Object(w), Value::Object(c)) => {
            for (key, value) in w {
                let inner = format!("{at}.{key}");
                let Some(theirs) = c.get(key) else {
                    return Err(format!("{inner}: no such field"));
                };
                covered(value, theirs, &inner)?;
            }
            Ok(())
        }
        (Value::Array(w), Value::Array(c)) if w.len() == c.len() => w
            .iter()
            .zip(c)
            .enumerate()
            .try_for_each(|(i, (w, c))| covered(w, c, &format!("{at}[{i}]"))),
        _ if written == code => Ok(()),
        _ => Err(format!(
            "{at}: written {written}, the code reads it as {code}"
        )),
    }
}

/// The first field that `code` (the message as the type writes it) has and `written`
/// leaves out, if any: a server's message written whole must show every field the server
/// sends.
fn left_out(written: &Value, code: &Value, at: &str) -> Option<String> {
    match (written, code) {
        (Value::Object(w), Value::Object(c)) => c.iter().find_map(|(key, theirs)| {
            let inner = format!("{at}.{key}");
            match w.get(key) {
                None => Some(inner),
                Some(value) => left_out(value, theirs, &inner),
            }
        }),
        (Value::Array(w), Value::Array(c)) => w
            .iter()
            .zip(c)
            .enumerate()
            .find_map(|(i, (w, c))| left_out(w, c, &format!("{at}[{i}]"))),
        _ => None,
    }
}

/// `text` as a message of type `T`: parsed, and covered by what `T` writes back.
fn check_as<T: DeserializeOwned + Serialize>(text: &str) -> Result<Value, String> {
    let written: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let message: T = serde_json::from_value(written.clone()).map_err(|e| e.to_string())?;
    let code = serde_json::to_value(&message).expect("messages serialize");
    covered(&written, &code, "")?;
    Ok(written)
}

/// `text` as a server's message written whole, as the server sends it: checked as
/// [`check_as`] does, and leaving out no field that the server sends.
fn check_whole_server_message(text: &str) -> Result<Value, String> {
    let written = check_as::<ServerMessage>(text)?;
    let message: ServerMessage = serde_json::from_value(written.clone()).expect("checked");
    let code = serde_json::to_value(&message).expect("messages serialize");
    match left_out(&written, &code, "") {
        Some(field) => Err(format!(
            "{field} is left out, but the server sends it: a line not shortened with … is whole"
        )),
        None => Ok(written),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Client,
    Server,
}

/// Whole examples, by side, with their JSON.
#[derive(Default)]
struct Examples {
    whole: Vec<(Side, Value)>,
    checked_lines: usize,
}

fn type_of(value: &Value) -> String {
    value["type"].as_str().unwrap_or_default().to_string()
}

/// A transcript line `NAME → {...}` or `NAME ← {...}`, if `line` is one.
fn transcript_line(line: &str) -> Option<(Side, &str)> {
    if line.starts_with('#') {
        return None;
    }
    let (name, side, json) = if let Some((name, json)) = line.split_once(" → ") {
        (name, Side::Client, json)
    } else if let Some((name, json)) = line.split_once(" ← ") {
        (name, Side::Server, json)
    } else {
        return None;
    };
    let name = name.trim();
    (!name.is_empty() && !name.contains(' ')).then_some((side, json.trim()))
}

fn read_examples(markdown: &str) -> (Examples, Vec<String>) {
    let client_types = types::<ClientMessage>();
    let server_types = types::<ServerMessage>();
    let mut examples = Examples::default();
    let mut faults = Vec::new();
    for block in blocks(markdown) {
        let place = format!("docs/table-protocol.md, the block at line {}", block.line);
        match block.info.as_str() {
            "json" => {
                let text = block.lines.join("\n");
                if text.contains('…') {
                    faults.push(format!("{place}: a json block is whole, never shortened"));
                    continue;
                }
                match (
                    check_as::<ClientMessage>(&text),
                    check_whole_server_message(&text),
                ) {
                    (Ok(value), _) => examples.whole.push((Side::Client, value)),
                    (_, Ok(value)) => examples.whole.push((Side::Server, value)),
                    (Err(client), Err(server)) => faults.push(format!(
                        "{place}: neither a client message ({client}) nor a server message ({server})"
                    )),
                }
                examples.checked_lines += 1;
            }
            "text" => {
                for (i, line) in block.lines.iter().enumerate() {
                    let Some((side, json)) = transcript_line(line) else {
                        continue;
                    };
                    let place = format!("docs/table-protocol.md:{}", block.line + 1 + i);
                    examples.checked_lines += 1;
                    if json.contains('…') {
                        // Shortened: at least its type must be one of its side's.
                        let known = match side {
                            Side::Client => &client_types,
                            Side::Server => &server_types,
                        };
                        let kind = json
                            .strip_prefix(r#"{"type":""#)
                            .and_then(|rest| rest.split_once('"'))
                            .map(|(kind, _)| kind);
                        if !kind.is_some_and(|kind| known.contains(kind)) {
                            faults.push(format!(
                                "{place}: a shortened {side:?} message must start with a known {{\"type\":...}}: {json}"
                            ));
                        }
                        continue;
                    }
                    let checked = match side {
                        Side::Client => check_as::<ClientMessage>(json),
                        Side::Server => check_whole_server_message(json),
                    };
                    match checked {
                        Ok(value) => examples.whole.push((side, value)),
                        Err(error) => faults.push(format!("{place}: {side:?} message: {error}")),
                    }
                }
            }
            "sh" => {
                for (i, line) in block.lines.iter().enumerate() {
                    // A body that curl sends must say it is JSON: the server refuses
                    // any other (415), and curl -d says it is a form.
                    let sends_body = [" -d ", " --data", " --json "]
                        .iter()
                        .any(|flag| line.contains(flag));
                    if line.contains("curl ")
                        && sends_body
                        && !line.contains("-H 'Content-Type: application/json'")
                        && !line.contains(" --json ")
                    {
                        examples.checked_lines += 1;
                        faults.push(format!(
                            "docs/table-protocol.md:{}: curl sends a body without -H 'Content-Type: application/json'",
                            block.line + 1 + i
                        ));
                    }
                    let Some((_, body)) = line
                        .split_once("curl ")
                        .and_then(|(_, rest)| rest.split_once("-d '"))
                    else {
                        continue;
                    };
                    let body = body.split('\'').next().unwrap_or_default();
                    examples.checked_lines += 1;
                    if let Err(error) = serde_json::from_str::<NewTable>(body) {
                        faults.push(format!(
                            "docs/table-protocol.md:{}: not a table's request: {error}",
                            block.line + 1 + i
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    (examples, faults)
}

#[test]
fn every_example_of_the_table_protocol_document_is_a_message_of_the_protocol() {
    let (examples, faults) = read_examples(&document());
    assert!(faults.is_empty(), "\n{}", faults.join("\n"));
    assert!(
        examples.checked_lines > 40,
        "only {} examples found: is the reader right?",
        examples.checked_lines
    );
}

#[test]
fn every_message_and_event_type_has_a_whole_example_in_the_document() {
    let (examples, _) = read_examples(&document());
    let shown = |side: Side| -> BTreeSet<String> {
        examples
            .whole
            .iter()
            .filter(|(s, _)| *s == side)
            .map(|(_, value)| type_of(value))
            .collect()
    };
    for (side, all) in [
        (Side::Client, types::<ClientMessage>()),
        (Side::Server, types::<ServerMessage>()),
    ] {
        let missing: Vec<_> = all.difference(&shown(side)).cloned().collect();
        assert!(
            missing.is_empty(),
            "docs/table-protocol.md has no whole example of the {side:?} message(s) {missing:?}"
        );
    }
    let events: BTreeSet<String> = examples
        .whole
        .iter()
        .filter(|(side, value)| *side == Side::Server && type_of(value) == "update")
        .flat_map(|(_, value)| value["events"].as_array().cloned().unwrap_or_default())
        .map(|event| type_of(&event))
        .collect();
    let missing: Vec<_> = types::<SeenEvent>().difference(&events).cloned().collect();
    assert!(
        missing.is_empty(),
        "docs/table-protocol.md has no whole update with the event(s) {missing:?}"
    );
}

#[test]
fn the_checks_themselves_catch_a_wrong_example() {
    // A misspelled field (even an optional one, which serde alone would ignore), a
    // wrong type of value, an unknown type, a message of the wrong side, a shortened
    // line without its type, a table the server would refuse, a curl body not sent as
    // JSON and a server's message not shortened but not whole are all caught.
    let bad = [
        "```json\n{\"type\":\"hello\",\"tokne\":\"a7eeb19e184a322bf1692bc99338289d\"}\n```",
        "```json\n{\"type\":\"welcome\",\"table\":\"t\",\"seat\":0,\"host\":false,\"rules\":{\"game\":\"kaibosh\",\"variant\":\"standard\",\"options\":{}},\"status\":\"open\",\"undo\":\"yes\"}\n```",
        "```json\n{\"type\":\"dance\"}\n```",
        "```text\nAnn  → {\"type\":\"pong\"}\n```",
        "```text\nAnn  ← {\"type\":\"update\",\"version\":3,…}\n```",
        "```text\nAnn  ← {\"type\":\"upd…\n```",
        "```sh\ncurl -s -X POST http://h/api/tables -H 'Content-Type: application/json' -d '{\"gaem\":\"kaibosh\"}'\n```",
        "```sh\ncurl -s -X POST http://h/api/tables -d '{\"game\":\"kaibosh\"}'\n```",
        "```sh\ncurl -s -X POST http://h/api/replay --data-binary @game.json\n```",
        "```text\nAnn  ← {\"type\":\"welcome\",\"table\":\"t\",\"seat\":0,\"host\":false,\"rules\":{\"game\":\"kaibosh\",\"variant\":\"standard\",\"options\":{}},\"status\":\"open\",\"undo\":false}\n```",
    ];
    for (i, markdown) in bad.iter().enumerate() {
        let (_, faults) = read_examples(markdown);
        // The fifth is a shortened update: allowed.
        if i == 4 {
            assert!(faults.is_empty(), "{faults:?}");
        } else {
            assert_eq!(faults.len(), 1, "{markdown}: {faults:?}");
        }
    }
}
