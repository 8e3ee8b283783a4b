//! The `Store` contract (`common/contract.rs`) on SQLite: each check on a fresh database
//! file.

mod common;

store_contract_tests!(common::sqlite_store());
