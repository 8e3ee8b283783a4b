//! The parts of the `calltrump` command that other programs, benchmarks and the fuzz
//! targets use: the bot protocol's messages and its bot side, and the analysis of a game
//! record. The command itself is `src/main.rs`.

pub mod analysis;
pub mod protocol;
