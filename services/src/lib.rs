//! The audit service (in progress).

pub mod store;
