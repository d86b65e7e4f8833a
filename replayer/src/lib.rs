//! The verifiable core of the Persian card-game audit service.
//!
//! No database, no network, no async runtime: cards and decks ([`cards`]), the committed
//! shuffle ([`shuffle`]) and seed chains ([`seed_chain`]), the signed hash-chained event log ([`log`]), the hand bundle
//! ([`bundle`]), one rules engine per game behind one interface ([`engine`], [`games`]), the
//! live hand driver that the service and the simulator share ([`dealer`]), replay and
//! verification ([`verify`]), the club's transparency log ([`tlog`]), and the signed record
//! of a dispute over a hand ([`dispute`]); and the replay page, embedded ([`viewer`]).
//!
//! The formats a third party must reproduce are written down in `docs/` at the repository
//! root, with test vectors.

pub mod bench;
pub mod bundle;
pub mod cards;
pub mod dealer;
pub mod dispute;
pub mod engine;
pub mod games;
pub mod log;
pub mod matches;
pub mod seed_chain;
pub mod shuffle;
pub mod sim;
#[cfg(any(test, feature = "testkit"))]
pub mod testkit;
pub mod tlog;
#[cfg(any(test, feature = "testkit"))]
pub mod toy;
pub mod verify;
pub mod viewer;
pub mod zones;
