//! A hand start continues its table's match: what the table's stored row says the next hand
//! is dealt under (game, house rules, seats and their keys, client entropy, player
//! signatures, seed chain) must be what the match's signed record says, i.e. what the hand
//! it follows recorded in its own `hand_started`. Those columns never change after a table
//! is created (a used-up seed chain is followed by a new one, the only change), so a
//! difference is an edit behind the service's back: `409 record_damaged` naming the row
//! and what the log says, never a hand dealt under edited rules or to edited seats.
//!
//! The same comparison serves the audit ([`differences`]), for the table's latest hand.

use replayer::log::{Body, SeatInfo};
use replayer::seed_chain::SeedChainRef;
use serde_json::Value;

use crate::api::errors::ApiError;
use crate::store::TableRow;

/// One column of a stored row that differs from the signed record.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The database table: `game_tables`, `seats` or `seed_chains`.
    pub table: &'static str,
    /// The seat, for a difference in `seats`.
    pub seat: Option<u8>,
    /// What the signed record says the row should hold.
    pub expected: String,
}

impl Difference {
    /// As a `409 record_damaged` naming `row`'s key.
    pub fn error(&self, t: &TableRow) -> ApiError {
        ApiError::record_damaged(
            self.table,
            row_name(self.table, t, self.seat),
            self.expected.clone(),
        )
    }
}

/// The key of the table's row (`game_tables`), of one of its seats (`seats`) or of its
/// seed chains (`seed_chains`).
pub fn row_name(table: &str, t: &TableRow, seat: Option<u8>) -> String {
    match (table, seat) {
        ("seed_chains", _) => format!(
            "(club_id, table_id) = ({}, {}): its chain for the next hand",
            t.club_id, t.table_id
        ),
        (_, Some(seat)) => format!(
            "(club_id, table_id, seat) = ({}, {}, {seat})",
            t.club_id, t.table_id
        ),
        _ => format!("(club_id, table_id) = ({}, {})", t.club_id, t.table_id),
    }
}

/// A table's stored game against the one its last hand was dealt under (checked before
/// anything reads the match state with the stored game's engine).
pub fn game_differs(t: &TableRow, prev: &Body) -> Option<ApiError> {
    match prev {
        Body::HandStarted { hand_no, game, .. } if game.as_str() != t.game => {
            Some(ApiError::record_damaged(
                "game_tables",
                row_name("game_tables", t, None),
                format!(
                    "game {}, as hand {hand_no}'s signed hand_started records",
                    game.as_str()
                ),
            ))
        }
        _ => None,
    }
}

fn compact(v: &Value) -> String {
    let s = serde_json::to_string(v).unwrap_or_else(|_| "?".into());
    if s.chars().count() > 300 {
        let mut short: String = s.chars().take(300).collect();
        short.push('…');
        short
    } else {
        s
    }
}

fn seat_text(s: &SeatInfo) -> String {
    match &s.public_key {
        Some(k) => format!("{}: {:?} key {}", s.seat.0, s.player, k.to_hex()),
        None => format!("{}: {:?}", s.seat.0, s.player),
    }
}

/// The seed chain a hand numbered `next_no` must be dealt from when the hand numbered
/// `prev_no` was dealt from `prev`: the same chain, `next_no − prev_no` positions on,
/// while it lasts; `None` once it is used up (a new chain, any anchor, follows it).
fn chain_after(prev: &SeedChainRef, prev_no: u64, next_no: u64) -> Option<SeedChainRef> {
    let step = u32::try_from(next_no.checked_sub(prev_no)?).ok()?;
    let position = prev.position.checked_add(step)?;
    (position <= prev.length).then_some(SeedChainRef {
        anchor: prev.anchor,
        length: prev.length,
        position,
    })
}

fn chain_text(c: &SeedChainRef) -> String {
    format!(
        "anchor {}, length {}, position {}",
        c.anchor.to_hex(),
        c.length,
        c.position
    )
}

/// Where the `hand_started` of the hand about to start (`next`) differs from the one of
/// the hand it follows in the match (`prev`), in the columns the table's stored rows
/// supply. Both bodies must be `hand_started`; anything else is no difference.
pub fn differences(prev: &Body, next: &Body) -> Vec<Difference> {
    let (
        Body::HandStarted {
            hand_no: p_no,
            game: p_game,
            rules: p_rules,
            seats: p_seats,
            client_entropy: p_entropy,
            seed_chain: p_chain,
            player_signatures: p_sigs,
            ..
        },
        Body::HandStarted {
            hand_no: n_no,
            game: n_game,
            rules: n_rules,
            seats: n_seats,
            client_entropy: n_entropy,
            seed_chain: n_chain,
            player_signatures: n_sigs,
            ..
        },
    ) = (prev, next)
    else {
        return Vec::new();
    };
    let says = |what: String| format!("{what}, as hand {p_no}'s signed hand_started records");
    let mut out = Vec::new();
    let mut push = |table: &'static str, seat: Option<u8>, expected: String| {
        out.push(Difference {
            table,
            seat,
            expected,
        })
    };
    if p_game != n_game {
        push(
            "game_tables",
            None,
            says(format!("game {}", p_game.as_str())),
        );
    }
    if p_rules != n_rules {
        push(
            "game_tables",
            None,
            says(format!("rules {}", compact(p_rules))),
        );
    }
    if p_seats.len() != n_seats.len() {
        push("seats", None, says(format!("{} seats", p_seats.len())));
    } else {
        for (p, n) in p_seats.iter().zip(n_seats) {
            if p != n {
                push(
                    "seats",
                    Some(p.seat.0),
                    says(format!("seat {}", seat_text(p))),
                );
            }
        }
    }
    if p_entropy != n_entropy {
        push(
            "game_tables",
            None,
            says(format!("setup with client_entropy {p_entropy}")),
        );
    }
    if p_sigs != n_sigs {
        let s = |v: &Option<_>| {
            serde_json::to_value(v)
                .map(|v| compact(&v))
                .unwrap_or_default()
        };
        push(
            "game_tables",
            None,
            says(format!("setup with player_signatures {}", s(p_sigs))),
        );
    }
    let chain_problem = match (p_chain, n_chain) {
        // Dealt without a chain, the match goes on without one.
        (None, None) => None,
        (None, Some(_)) => Some(says("no seed chain".into())),
        (Some(c), got) => match (chain_after(c, *p_no, *n_no), got) {
            (Some(want), Some(got)) if want == *got => None,
            // The chain was used up: a new one (any anchor) follows it.
            (None, Some(_)) => None,
            (Some(want), _) => Some(says(format!(
                "hand {n_no} dealt from {}",
                chain_text(&want)
            ))),
            (None, None) => Some(says(format!(
                "a new seed chain for hand {n_no} (hand {p_no} used up {})",
                chain_text(c)
            ))),
        },
    };
    if let Some(expected) = chain_problem {
        out.push(Difference {
            table: "seed_chains",
            seat: None,
            expected,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use replayer::log::Hash;

    fn chain(anchor: u8, length: u32, position: u32) -> SeedChainRef {
        SeedChainRef {
            anchor: Hash([anchor; 32]),
            length,
            position,
        }
    }

    /// A chain goes on one position per hand number while it lasts, and only then may a
    /// new one (any anchor) follow.
    #[test]
    fn a_chain_goes_on_position_by_position_until_used_up() {
        assert_eq!(chain_after(&chain(1, 3, 1), 1, 2), Some(chain(1, 3, 2)));
        // A quarantined hand between: two numbers on, two positions on.
        assert_eq!(chain_after(&chain(1, 3, 1), 4, 6), Some(chain(1, 3, 3)));
        assert_eq!(chain_after(&chain(1, 3, 3), 7, 8), None);
        assert_eq!(chain_after(&chain(9, 1_000_000, 999_999), 1, 3), None);
        assert_eq!(chain_after(&chain(1, 3, 1), 5, 4), None);
    }
}
