//! The server's integration tests in one binary (one link instead of one a file): each
//! module starts the real server on a random loopback port and talks to it over HTTP and
//! WebSocket, on SQLite and, where named, on the PostgreSQL of `CALLTRUMP_TEST_POSTGRES`.

mod common;

mod account_seats;
mod accounts;
mod api;
mod attacks;
mod crowds;
mod faults;
mod games;
mod hints;
mod hostile;
mod invitations;
mod look;
mod night;
mod night_leave;
mod postgres;
mod protocol_doc;
mod ratings;
mod refusals;
mod replay;
mod server;
mod startup;
mod store;
mod supervision;
mod turn_clock;
