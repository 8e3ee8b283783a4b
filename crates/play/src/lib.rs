//! What the `calltrump` terminal and the table server share above the table library: the
//! analysis of a finished game and its JSON (the contract the replay page reads), in
//! words and as an HTML review; the game loop that asks whoever sits at a seat to act
//! (calltrump's bots or an outside program speaking the bot protocol); a local game, its
//! save and its sealed hand; files of records; the night's, the arena's and simulate's
//! runs and figures; the rules pages; committed deals at a local table; statistics, SVG
//! charts and text wrapping; and what a player's prompt says and reads (the menu of a
//! decision, the help, why a typed action is refused, the reading of a typed line). No
//! terminal and no network here: the commands, their input and how they draw on a
//! terminal are the `calltrump` binary's.

pub mod analysis;
pub mod analysis_text;
pub mod arena;
pub mod bot_protocol;
pub mod committed;
pub mod duplicate;
pub mod external;
pub mod game_loop;
pub mod help;
pub mod local;
pub mod night;
pub mod options;
pub mod player;
pub mod plot;
pub mod prompt;
pub mod records;
pub mod review;
pub mod rules;
pub mod save;
pub mod simulate;
pub mod stats;
pub mod style;
pub mod text;
pub mod typed;
