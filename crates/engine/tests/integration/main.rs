//! The rules engine's integration tests in one binary (one link instead of one a file):
//! each rule of the rules texts and each ruling, bad input, the records' cases, the views
//! and invariants over many seeded games.

mod common;

mod bad_input;
mod bid_euchre_rules;
mod catalog;
mod catalogue_only;
mod data_cases;
mod fair_deal;
mod fair_deal_stats;
mod invariants;
mod kaibosh_rules;
mod kout_rules;
mod night;
mod rules_review;
mod views;
