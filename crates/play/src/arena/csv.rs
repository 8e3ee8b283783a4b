//! The arena's CSV file: one row per duplicate pair, written as soon as the pair is
//! finished, so a stopped run keeps every finished pair and `--resume` plays only the
//! missing ones.
//!
//! The file's first line names the match (`# arena game=... seed=...`, see
//! [`super::match_line`]) so that a different match is never resumed into it; then come
//! the header `HEADER` and the rows, in the order the pairs finished. The game-mode
//! results (1, 0.5 or 0 for A) are empty in deal mode.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{anyhow, bail, Context, Result};

use crate::duplicate::{Half, Pair};

/// The column names.
const HEADER: &str =
    "index,a_first,b_first,a_second,b_second,difference,a_result_first,a_result_second";

/// A CSV file being written, shared by the workers.
pub struct CsvWriter {
    file: Mutex<File>,
    /// The file's name, for errors.
    path: PathBuf,
}

impl CsvWriter {
    /// Creates (or empties) `path` and writes the match line `meta` and the header.
    pub fn create(path: &Path, meta: &str) -> Result<CsvWriter> {
        let mut file =
            File::create(path).with_context(|| format!("creating {}", path.display()))?;
        file.write_all(format!("{meta}\n{HEADER}\n").as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(CsvWriter {
            file: Mutex::new(file),
            path: path.to_path_buf(),
        })
    }

    /// Opens `path` to continue the match `meta`: returns the pairs it holds, by index,
    /// and a writer appending after them. A missing file is created. An unfinished last
    /// line (from a killed run) is dropped with a note on standard error, so its pair is
    /// played and written again.
    pub fn resume(path: &Path, meta: &str) -> Result<(BTreeMap<u64, Pair>, CsvWriter)> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Ok((BTreeMap::new(), CsvWriter::create(path, meta)?));
            }
            Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
        };
        let complete = &text[..text.rfind('\n').map_or(0, |end| end + 1)];
        if complete.len() < text.len() {
            eprintln!(
                "note: {}: dropping the unfinished last line `{}` (a stopped run); \
                 its pair is played again",
                path.display(),
                &text[complete.len()..]
            );
        }
        if complete.is_empty() {
            eprintln!(
                "note: {} is empty: there is nothing to resume; the match starts at its \
                 first pair",
                path.display()
            );
            return Ok((BTreeMap::new(), CsvWriter::create(path, meta)?));
        }
        let pairs = read_pairs(path, complete, meta)?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        file.set_len(complete.len() as u64)
            .with_context(|| format!("truncating {}", path.display()))?;
        Ok((
            pairs,
            CsvWriter {
                file: Mutex::new(file),
                path: path.to_path_buf(),
            },
        ))
    }

    /// Appends the row of pair `index` in one write, so a killed run keeps it whole.
    pub fn write(&self, index: u64, pair: &Pair) -> Result<()> {
        let mut file = self
            .file
            .lock()
            .map_err(|_| anyhow!("writing {}: a writer failed", self.path.display()))?;
        file.write_all(row(index, pair).as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("writing {}", self.path.display()))
    }
}

/// The row of pair `index`, with its line end.
fn row(index: u64, pair: &Pair) -> String {
    let [first, second] = &pair.halves;
    let result = |half: &Half| half.a_result.map_or(String::new(), |r| r.to_string());
    format!(
        "{index},{},{},{},{},{},{},{}\n",
        first.a,
        first.b,
        second.a,
        second.b,
        pair.difference(),
        result(first),
        result(second)
    )
}

/// The pairs in the complete lines `text` of `path`, after checking that the file was
/// written by the match `meta`.
fn read_pairs(path: &Path, text: &str, meta: &str) -> Result<BTreeMap<u64, Pair>> {
    let mut lines = text.lines();
    match lines.next() {
        Some(line) if line == meta => {}
        Some(line) if line.starts_with("# arena ") => bail!(
            "{} was written by a different match; refusing to resume it\n  \
             the file: {line}\n  this run: {meta}",
            path.display()
        ),
        _ => bail!(
            "{}:1: expected the line `# arena ...` naming the match: \
             not a CSV written by `calltrump arena`",
            path.display()
        ),
    }
    match lines.next() {
        Some(HEADER) => {}
        None => bail!(
            "{}: the match line is there but the header line `{HEADER}` is not: \
             not a whole CSV of `calltrump arena` (remove the file to start afresh)",
            path.display()
        ),
        Some(_) => bail!("{}:2: expected the header `{HEADER}`", path.display()),
    }
    let mut pairs = BTreeMap::new();
    for (number, line) in (3..).zip(lines) {
        let at = || format!("{}:{number}", path.display());
        let (index, pair) = parse_row(line).with_context(|| format!("{}: `{line}`", at()))?;
        if pairs.insert(index, pair).is_some() {
            bail!("{}: pair {index} appears twice", at());
        }
    }
    Ok(pairs)
}

/// One row: the pair's index and its points and results (no contracts or times).
fn parse_row(line: &str) -> Result<(u64, Pair)> {
    let fields: Vec<&str> = line.split(',').collect();
    let [index, a_first, b_first, a_second, b_second, difference, result_first, result_second] =
        fields[..]
    else {
        bail!("expected 8 fields, found {}", fields.len());
    };
    let points = |name: &str, text: &str| {
        text.parse::<i64>()
            .map_err(|_| anyhow!("{name} `{text}` is not a whole number"))
    };
    let result = |name: &str, text: &str| match text {
        "" => Ok(None),
        _ => text
            .parse::<f64>()
            .ok()
            .filter(|r| [0.0, 0.5, 1.0].contains(r))
            .map(Some)
            .ok_or_else(|| anyhow!("{name} `{text}` is not 0, 0.5 or 1")),
    };
    let pair = Pair {
        halves: [
            Half {
                a: points("a_first", a_first)?,
                b: points("b_first", b_first)?,
                a_result: result("a_result_first", result_first)?,
            },
            Half {
                a: points("a_second", a_second)?,
                b: points("b_second", b_second)?,
                a_result: result("a_result_second", result_second)?,
            },
        ],
        ..Pair::default()
    };
    if difference.parse::<f64>().ok() != Some(pair.difference()) {
        bail!(
            "difference `{difference}` is not the points' {}",
            pair.difference()
        );
    }
    let index = index
        .parse()
        .map_err(|_| anyhow!("index `{index}` is not a pair number"))?;
    Ok((index, pair))
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: &str = "# arena game=kaibosh seed=1";

    fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("calltrump-arena-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    fn pair(a: [i64; 2], b: [i64; 2], results: [Option<f64>; 2]) -> Pair {
        Pair {
            halves: [0, 1].map(|h| Half {
                a: a[h],
                b: b[h],
                a_result: results[h],
            }),
            ..Pair::default()
        }
    }

    #[test]
    fn rows_read_back_as_written() {
        for written in [
            pair([3, -2], [0, 4], [None, None]),
            pair([51, 40], [47, 52], [Some(1.0), Some(0.5)]),
        ] {
            let line = row(12, &written);
            let (index, read) = parse_row(line.trim_end()).unwrap();
            assert_eq!(index, 12);
            assert_eq!(
                format!("{:?}", read.halves),
                format!("{:?}", written.halves)
            );
        }
    }

    #[test]
    fn a_bad_line_is_named_by_file_and_number() {
        let text = format!("{META}\n{HEADER}\n0,1,0,0,1,0,,\n1,1,x,0,1,0,,\n");
        let path = temp_file("bad.csv", &text);
        let error = format!("{:#}", CsvWriter::resume(&path, META).err().unwrap());
        assert!(error.contains("bad.csv:4"), "{error}");
        assert!(
            error.contains("b_first `x` is not a whole number"),
            "{error}"
        );
        // A difference that does not match the points is a bad line too.
        let path = temp_file("sum.csv", &format!("{META}\n{HEADER}\n0,1,0,0,1,1,,\n"));
        let error = format!("{:#}", CsvWriter::resume(&path, META).err().unwrap());
        assert!(
            error.contains("sum.csv:3") && error.contains("difference"),
            "{error}"
        );
    }

    #[test]
    fn another_match_or_file_is_refused() {
        let path = temp_file(
            "other.csv",
            &format!("# arena game=kout seed=1\n{HEADER}\n"),
        );
        let error = CsvWriter::resume(&path, META).err().unwrap().to_string();
        assert!(error.contains("written by a different match"), "{error}");
        let path = temp_file("plain.csv", &format!("{HEADER}\n"));
        let error = CsvWriter::resume(&path, META).err().unwrap().to_string();
        assert!(error.contains("plain.csv:1"), "{error}");
        let text = format!("{META}\n{HEADER}\n0,1,0,0,1,0,,\n0,2,0,0,2,0,,\n");
        let path = temp_file("twice.csv", &text);
        let error = CsvWriter::resume(&path, META).err().unwrap().to_string();
        assert!(
            error.contains("twice.csv:4: pair 0 appears twice"),
            "{error}"
        );
    }

    #[test]
    fn an_unfinished_last_line_is_dropped_and_rewritten() {
        let kept = format!("{META}\n{HEADER}\n0,1,0,0,1,0,,\n");
        let path = temp_file("killed.csv", &format!("{kept}1,4,"));
        let (pairs, writer) = CsvWriter::resume(&path, META).unwrap();
        assert_eq!(pairs.keys().collect::<Vec<_>>(), [&0]);
        let again = pair([4, 0], [0, 2], [None, None]);
        writer.write(1, &again).unwrap();
        drop(writer);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{kept}{}", row(1, &again)));
    }
}
