//! The `Store` contract (`common/contract.rs`) on SQLite: each check on a fresh database
//! file.

use crate::common;

crate::store_contract_tests!(common::sqlite_store());
