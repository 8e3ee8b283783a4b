//! The command line's integration tests in one binary (one link instead of one a file):
//! each module runs the built `calltrump` as a user would, with its files, screens,
//! servers and bots.

mod common;

mod analyze;
mod bot_server;
mod cli;
mod cluster;
mod play_screen;
mod rules;
mod serve;
mod verify;
