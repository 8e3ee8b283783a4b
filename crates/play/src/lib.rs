//! What the `calltrump` terminal and the table server share above the table library: the
//! analysis of a finished game and its JSON (the contract the replay page reads), the
//! game loop that asks whoever sits at a seat to act (calltrump's bots or an outside
//! program speaking the bot protocol), committed deals at a local table, and the
//! statistics and SVG charts of matches and analyses. No terminal and no network here:
//! the commands and their rendering are the `calltrump` binary's.

pub mod analysis;
pub mod analysis_text;
pub mod arena;
pub mod bot_protocol;
pub mod committed;
pub mod duplicate;
pub mod external;
pub mod game_loop;
pub mod local;
pub mod night;
pub mod options;
pub mod player;
pub mod plot;
pub mod records;
pub mod review;
pub mod rules;
pub mod save;
pub mod simulate;
pub mod stats;
pub mod style;
pub mod text;
