//! [`RecordJson`]: a signed event record as JSON text, on its way to and from the store.

use std::error::Error;

use bytes::{BufMut, BytesMut};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};

/// A signed event record as (valid) JSON text.
///
/// A record is written once and read back whole, so the store keeps it as the text it
/// was given instead of a `serde_json::Value`: serialized once from the typed record,
/// sent to PostgreSQL as it is (`jsonb`'s binary input is a version byte and the text)
/// or stored as SQLite text, and parsed straight into the typed record on the way back.
/// Building a `Value` tree for each record, writing it out and dropping it took about a
/// tenth of the append benchmark's client CPU (ops/README.md).
///
/// The text read back is the database's: PostgreSQL's `jsonb` gives its own key order
/// and spacing. Two records are equal when their JSON values are ([`PartialEq`]); a
/// record's hash and signature are over its canonical encoding, never over this text.
#[derive(Clone)]
pub struct RecordJson(Box<RawValue>);

impl RecordJson {
    /// The JSON text of a value (e.g. a `replayer::log::Record`).
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        serde_json::value::to_raw_value(value).map(RecordJson)
    }

    /// Checks that `text` is one JSON value and keeps it as it is.
    pub fn from_text(text: String) -> Result<Self, serde_json::Error> {
        RawValue::from_string(text).map(RecordJson)
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Parses the record into `T`.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.get())
    }

    /// The record as a `serde_json::Value`.
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        self.parse()
    }
}

impl std::fmt::Debug for RecordJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.get())
    }
}

impl PartialEq for RecordJson {
    fn eq(&self, other: &Self) -> bool {
        match (self.to_value(), other.to_value()) {
            (Ok(a), Ok(b)) => a == b,
            _ => self.get() == other.get(),
        }
    }
}

impl From<&Value> for RecordJson {
    fn from(v: &Value) -> Self {
        // A Value always serializes, and always to one valid JSON value.
        let text = v.to_string();
        match RawValue::from_string(text) {
            Ok(raw) => RecordJson(raw),
            Err(_) => unreachable!("serde_json wrote invalid JSON for a Value"),
        }
    }
}

impl From<Value> for RecordJson {
    fn from(v: Value) -> Self {
        RecordJson::from(&v)
    }
}

impl Serialize for RecordJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for RecordJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(d).map(RecordJson)
    }
}

/// The version byte of `jsonb`'s binary format, before the JSON text.
const JSONB_VERSION: u8 = 1;

impl ToSql for RecordJson {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        if *ty == Type::JSONB {
            out.put_u8(JSONB_VERSION);
        }
        out.put_slice(self.get().as_bytes());
        Ok(IsNull::No)
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::JSONB || *ty == Type::JSON
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for RecordJson {
    fn from_sql(ty: &Type, mut raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        if *ty == Type::JSONB {
            match raw.split_first() {
                Some((&JSONB_VERSION, rest)) => raw = rest,
                _ => return Err("unsupported JSONB encoding version".into()),
            }
        }
        let text = std::str::from_utf8(raw)?;
        Ok(RecordJson::from_text(text.to_owned())?)
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::JSONB || *ty == Type::JSON
    }
}

#[cfg(test)]
mod tests {
    use super::RecordJson;
    use serde_json::json;

    #[test]
    fn keeps_the_text_and_compares_by_value() {
        let a = RecordJson::from_text(r#"{"b": 1, "a": [true, null]}"#.to_owned()).unwrap();
        let b = RecordJson::of(&json!({ "a": [true, null], "b": 1 })).unwrap();
        assert_eq!(a.get(), r#"{"b": 1, "a": [true, null]}"#);
        assert_eq!(b.get(), r#"{"a":[true,null],"b":1}"#);
        assert_eq!(a, b);
        assert_ne!(a, RecordJson::from(json!({ "a": [true], "b": 1 })));
        assert_eq!(serde_json::to_string(&a).unwrap(), a.get());
    }

    #[test]
    fn refuses_what_is_not_one_json_value() {
        for bad in ["", "{", "{} {}", "nul", "{\"a\":1,}"] {
            assert!(RecordJson::from_text(bad.to_owned()).is_err(), "{bad:?}");
        }
    }
}
