//! End-to-end tests of the real `audit-service` binary over HTTP, on both stores (a fresh
//! PostgreSQL database per test through `DATABASE_URL_ADMIN`, default
//! `postgres://postgres@127.0.0.1:5432/postgres`, and the embedded SQLite store in a temp
//! data folder), with bundles checked by the `replayer` command. Every test starts its own
//! server process on `127.0.0.1:0`, so the tests run in parallel. PostgreSQL tests fail,
//! never skip, when the database is unreachable.

mod audit;
mod chains;
mod club_order;
mod clublog;
mod concurrency;
mod crash;
mod damaged;
mod disputes;
mod errors;
mod game_pasur;
mod game_shelem;
mod games;
mod harness;
mod health;
mod holes;
mod hygiene;
mod inputs;
mod limits;
mod pages;
mod penalties;
mod play;
mod share;
mod smoke;
mod standby;
mod tamper;
mod tamper_log;
mod tokens;
mod visibility;
