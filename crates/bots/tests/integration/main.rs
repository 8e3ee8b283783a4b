//! The bots' integration tests in one binary (one link instead of one a file): legal,
//! reproducible decisions, the sampler, the solver, the search's use of its time and the
//! ISMCTS baseline.

mod common;

mod bots;
mod ismcts_baseline;
mod position;
mod sampler;
mod solver;
mod thinking;
