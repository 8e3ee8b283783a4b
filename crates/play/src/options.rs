//! The options of a game written `KEY=VALUE`, as `--option` takes them and a night's
//! record keeps them, read into a record header's options.

use anyhow::{anyhow, bail, Result};
use serde_json::{Map, Value};

/// Reads `--option KEY=VALUE` arguments into a header's options: a key given twice is
/// an error, and a whole number is read as one.
pub fn option_map(options: &[String]) -> Result<Map<String, Value>> {
    let mut map = Map::new();
    for option in options {
        let (key, value) = option
            .split_once('=')
            .ok_or_else(|| anyhow!("--option {option}: expected KEY=VALUE"))?;
        let value = match value.parse::<u64>() {
            Ok(n) => Value::from(n),
            Err(_) => Value::from(value),
        };
        if let Some(earlier) = map.insert(key.to_string(), value) {
            bail!("--option {key} is given twice (first {key}={earlier}, then {option})");
        }
    }
    Ok(map)
}
