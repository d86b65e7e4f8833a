//! The audit service (in progress).
