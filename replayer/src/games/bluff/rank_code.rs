//! Ranks in JSON as their printed codes (`"2"` … `"10"`, `"J"`, `"Q"`, `"K"`, `"A"`), for
//! `#[serde(with = …)]`: one rank, an optional rank, a list of ranks.

use std::borrow::Cow;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::Rank;

/// The rank printed as `code` (`10` also as `T`), if any.
pub fn parse(code: &str) -> Option<Rank> {
    let code = if code.eq_ignore_ascii_case("T") {
        "10"
    } else {
        code
    };
    Rank::ALL
        .into_iter()
        .find(|r| r.code().eq_ignore_ascii_case(code))
}

fn read<'de, D: Deserializer<'de>>(s: &str) -> Result<Rank, D::Error> {
    parse(s).ok_or_else(|| {
        D::Error::custom(format!(
            "not a rank: {:?} (expected 2-10, J, Q, K or A)",
            s.chars().take(8).collect::<String>()
        ))
    })
}

/// One rank.
pub mod one {
    use super::*;

    /// As its code.
    pub fn serialize<S: Serializer>(r: &Rank, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.code())
    }

    /// From its code.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        let s = Cow::<'de, str>::deserialize(d)?;
        read::<D>(&s)
    }
}

/// An optional rank (`null` for none), written only (views).
pub mod opt {
    use super::*;

    /// As its code, or `null`.
    pub fn serialize<S: Serializer>(r: &Option<Rank>, s: S) -> Result<S::Ok, S::Error> {
        r.map(Rank::code).serialize(s)
    }
}

/// A list of ranks.
pub mod many {
    use super::*;

    /// As a list of codes.
    pub fn serialize<S: Serializer>(r: &[Rank], s: S) -> Result<S::Ok, S::Error> {
        r.iter().map(|x| x.code()).collect::<Vec<_>>().serialize(s)
    }

    /// From a list of codes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Rank>, D::Error> {
        Vec::<Cow<'de, str>>::deserialize(d)?
            .iter()
            .map(|s| read::<D>(s))
            .collect()
    }
}
