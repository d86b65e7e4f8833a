//! Reading a request body strictly: a struct is read only from a JSON object.
//!
//! serde's derived `Deserialize` for a struct also accepts an array of its fields in
//! declaration order, and `serde_json` offers that form at every level: `[]` read as an
//! empty body (and so started a hand), `"seats": [["Dariush", null]]` as a seat. Nothing in
//! the API is written that way. [`from_value`] reads a value as `serde_json::from_value`
//! does, except that a struct, at any depth, must be an object.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};
use serde_json::{Error, Value};

/// Reads `T` from `value`; a struct anywhere in `T` must be a JSON object.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, Error> {
    T::deserialize(Strict(value))
}

/// A borrowed JSON value that refuses to be read as a struct unless it is an object.
#[derive(Clone, Copy)]
struct Strict<'a>(&'a Value);

fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(_) => Unexpected::Other("number"),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

impl<'de> Strict<'de> {
    fn visit_array<V: Visitor<'de>>(items: &'de [Value], visitor: V) -> Result<V::Value, Error> {
        let mut seq = Seq(items.iter());
        let out = visitor.visit_seq(&mut seq)?;
        if seq.0.len() == 0 {
            Ok(out)
        } else {
            Err(de::Error::invalid_length(
                items.len(),
                &"fewer elements in array",
            ))
        }
    }

    fn visit_object<V: Visitor<'de>>(
        map: &'de serde_json::Map<String, Value>,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let mut access = Obj {
            iter: map.iter(),
            value: None,
        };
        let out = visitor.visit_map(&mut access)?;
        if access.iter.len() == 0 {
            Ok(out)
        } else {
            Err(de::Error::invalid_length(
                map.len(),
                &"fewer elements in map",
            ))
        }
    }
}

impl<'de> de::Deserializer<'de> for Strict<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => n.deserialize_any(visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => Strict::visit_array(items, visitor),
            Value::Object(map) => Strict::visit_object(map, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        // serde_json's own private newtypes (`RawValue`) need serde_json's deserializer.
        if name.starts_with("$serde_json::") {
            return de::Deserializer::deserialize_newtype_struct(self.0, name, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(map) => Strict::visit_object(map, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Value::Object(map) if map.len() == 1 => match map.iter().next() {
                Some((variant, value)) => visitor.visit_enum(Enum { variant, value }),
                None => Err(de::Error::invalid_value(
                    Unexpected::Map,
                    &"map with a single key",
                )),
            },
            Value::Object(_) => Err(de::Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            )),
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        seq tuple tuple_struct map identifier
    }
}

struct Seq<'a>(std::slice::Iter<'a, Value>);

impl<'de> SeqAccess<'de> for Seq<'de> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        self.0
            .next()
            .map(|v| seed.deserialize(Strict(v)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Obj<'a> {
    iter: serde_json::map::Iter<'a>,
    value: Option<&'a Value>,
}

impl<'de> MapAccess<'de> for Obj<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.iter.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(BorrowedStrDeserializer::new(key))
                    .map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        match self.value.take() {
            Some(v) => seed.deserialize(Strict(v)),
            None => Err(de::Error::custom("a map value was read before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An externally tagged enum value `{"variant": value}`.
struct Enum<'a> {
    variant: &'a str,
    value: &'a Value,
}

impl<'de> EnumAccess<'de> for Enum<'de> {
    type Error = Error;
    type Variant = Strict<'de>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Strict<'de>), Error> {
        let tag = seed.deserialize(BorrowedStrDeserializer::new(self.variant))?;
        Ok((tag, Strict(self.value)))
    }
}

impl<'de> VariantAccess<'de> for Strict<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.0 {
            Value::Null => Ok(()),
            other => Err(de::Error::invalid_type(unexpected(other), &"unit variant")),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}

/// Parses a JSON text as [`serde_json::from_slice`] does into a [`Value`], except that an
/// object that names a member twice, at any depth, is refused (`serde_json` keeps the
/// last): a body that says two things is not read as one of them (issue 29).
pub fn parse_unique(bytes: &[u8]) -> Result<Value, Error> {
    serde_json::from_slice::<Unique>(bytes).map(|u| u.0)
}

/// A [`Value`] read with every object's members unique.
struct Unique(Value);

impl<'de> de::Deserialize<'de> for Unique {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueVisitor).map(Unique)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(Unique(x)) = seq.next_element()? {
            v.push(x);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut m = serde_json::Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if m.contains_key(&k) {
                return Err(de::Error::custom(format!(
                    "member {:?} is given twice in one object",
                    k.chars().take(40).collect::<String>()
                )));
            }
            let Unique(v) = map.next_value()?;
            m.insert(k, v);
        }
        Ok(Value::Object(m))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Seat {
        player: String,
        key: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Body {
        seats: Vec<Seat>,
        flag: Option<bool>,
        n: Option<u64>,
        any: Option<Value>,
        kind: Option<Kind>,
        map: Option<BTreeMap<String, i64>>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Plain,
        Wrapped(u8),
        Pair(u8, u8),
        Named { x: u8 },
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Empty {}

    #[test]
    fn objects_read_as_serde_json_reads_them() {
        let v = json!({
            "seats": [{"player": "Shirin"}, {"player": "Babak", "key": null}],
            "flag": true, "n": 7, "any": [1, {"a": [null]}], "kind": {"named": {"x": 3}},
            "map": {"a": -1}
        });
        let strict: Body = from_value(&v).unwrap();
        let plain: Body = serde_json::from_value(v).unwrap();
        assert_eq!(strict, plain);
        for (kind, want) in [
            (json!("plain"), Kind::Plain),
            (json!({"plain": null}), Kind::Plain),
            (json!({"wrapped": 4}), Kind::Wrapped(4)),
            (json!({"pair": [1, 2]}), Kind::Pair(1, 2)),
        ] {
            assert_eq!(from_value::<Kind>(&kind).unwrap(), want);
        }
    }

    #[test]
    fn a_struct_from_an_array_is_refused_at_any_depth() {
        assert!(
            serde_json::from_value::<Empty>(json!([])).is_ok(),
            "serde_json's leniency"
        );
        let e = from_value::<Empty>(&json!([])).unwrap_err().to_string();
        assert!(e.contains("invalid type: sequence"), "{e}");
        let nested = json!({"seats": [["Shirin", null]]});
        assert!(serde_json::from_value::<Body>(nested.clone()).is_ok());
        assert!(from_value::<Body>(&nested).is_err());
        assert!(from_value::<Kind>(&json!({"named": [3]})).is_err());
    }

    #[test]
    fn types_stay_strict() {
        for bad in [
            json!({"seats": [], "n": "7"}),
            json!({"seats": [], "n": -1}),
            json!({"seats": [], "flag": 1}),
            json!({"seats": [], "other": 1}),
            json!({"seats": {}}),
            json!({"seats": [], "kind": {"plain": null, "wrapped": 1}}),
            json!({"seats": [], "kind": {"pair": [1, 2, 3]}}),
            json!("text"),
            json!(null),
        ] {
            assert!(from_value::<Body>(&bad).is_err(), "{bad}");
        }
        assert!(from_value::<Body>(&json!({"seats": []})).is_ok());
    }
}
