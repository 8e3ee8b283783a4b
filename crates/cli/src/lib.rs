//! The parts of the `calltrump` command that other programs and the fuzz targets use:
//! the bot protocol's messages and its bot side. The command itself is `src/main.rs`.

pub mod protocol;
