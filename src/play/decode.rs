//! An action's JSON object (`{"do": "dice", "expr": "2d6"}`, from the
//! GM's screen or a log line read back) shown to serde's derive as the
//! externally tagged enum it is — `do`, the variant; the other keys, its
//! fields — and written back in the order the enum declares its fields
//! (the log line's). The words of `do` and the keys each takes are the
//! ones the derive hands over: no list is kept beside the enum.
//!
//! A refusal says, in this order: an object that is not one; a `do` that
//! is not a variant (naming them all); a key that is not a field (naming
//! the fields); then each field in the order declared, absent ones too,
//! its own check saying whether it may be left out ([`Refusal::Needs`])
//! and what is wrong with its value, which the field's key and the
//! action's word are put before here.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, VariantAccess, Visitor,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Why an action's object was refused.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The message whole.
    Said(String),
    /// A field was asked for and is not there (or is null).
    Needs,
    /// What is wrong with a field's value (`is text, in quotes`).
    Value(String),
    /// A choice of keys (`push`: `address` or `k`) given neither or both.
    Either,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Said(s) | Refusal::Value(s) => f.write_str(s),
            Refusal::Needs => f.write_str("a value is needed"),
            Refusal::Either => f.write_str("one of the keys is needed"),
        }
    }
}

impl std::error::Error for Refusal {}

impl de::Error for Refusal {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Refusal::Value(msg.to_string())
    }
}

/// What an action that is not an object is told.
const NOT_AN_OBJECT: &str =
    "an action is a JSON object with `do` (`{\"do\":\"dice\",\"expr\":\"2d6\"}`)";

/// The `T` (an externally tagged enum) the object `v` says.
pub(crate) fn object<'de, T: Deserialize<'de>>(v: &'de Value) -> Result<T, Refusal> {
    let map = v
        .as_object()
        .ok_or_else(|| Refusal::Said(NOT_AN_OBJECT.into()))?;
    let verb = map.get("do").and_then(Value::as_str).unwrap_or_default();
    T::deserialize(Object { verb, map })
}

/// The object: its `do`, and all its keys.
#[derive(Clone, Copy)]
struct Object<'de> {
    verb: &'de str,
    map: &'de Map<String, Value>,
}

impl<'de> Object<'de> {
    /// A key's value; null is none.
    fn get(&self, key: &str) -> Option<&'de Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Refuses a key (`do` aside) not among `keys`, naming them joined
    /// by `sep`.
    fn only(&self, keys: &[&str], sep: &str) -> Result<(), Refusal> {
        let Some(key) = self
            .map
            .keys()
            .find(|k| *k != "do" && !keys.contains(&k.as_str()))
        else {
            return Ok(());
        };
        let takes = if keys.is_empty() {
            "nothing".to_string()
        } else {
            keys.join(sep)
        };
        Err(Refusal::Said(format!(
            "`{}` takes {takes}, not `{key}`",
            self.verb
        )))
    }

    /// `key`'s value read by `seed`; what is wrong with it said whole.
    fn value<S: DeserializeSeed<'de>>(&self, key: &str, seed: S) -> Result<S::Value, Refusal> {
        seed.deserialize(Arg(self.get(key))).map_err(|r| match r {
            Refusal::Needs => Refusal::Said(format!("`{}` needs `{key}`", self.verb)),
            Refusal::Value(why) => Refusal::Said(format!("`{key}` of `{}` {why}", self.verb)),
            r => r,
        })
    }
}

/// Whatever is asked of a deserializer besides what it answers.
fn not_asked<T>(what: &str) -> Result<T, Refusal> {
    Err(Refusal::Said(format!("an action is not read as {what}")))
}

impl<'de> Deserializer<'de> for Object<'de> {
    type Error = Refusal;

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        verbs: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        if !verbs.contains(&self.verb) {
            return Err(Refusal::Said(format!(
                "`do` must be one of: {} (it is `{}`)",
                verbs.join(", "),
                self.verb
            )));
        }
        visitor.visit_enum(self)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Refusal> {
        not_asked("anything but an enum")
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'de> EnumAccess<'de> for Object<'de> {
    type Error = Refusal;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Refusal> {
        let verb = seed.deserialize(BorrowedStrDeserializer::new(self.verb))?;
        Ok((verb, self))
    }
}

impl<'de> VariantAccess<'de> for Object<'de> {
    type Error = Refusal;

    fn unit_variant(self) -> Result<(), Refusal> {
        self.only(&[], "")
    }

    /// A choice of keys ([`Choice`]).
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Refusal> {
        seed.deserialize(Choice(self))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, Refusal> {
        not_asked("a tuple")
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        self.only(fields, ", ")?;
        visitor.visit_map(Fields {
            of: self,
            keys: fields.iter(),
            key: "",
        })
    }
}

/// A struct variant's fields, every one asked for in the order declared
/// (an absent one too: its check says whether it may be left out).
struct Fields<'de> {
    of: Object<'de>,
    keys: std::slice::Iter<'static, &'static str>,
    key: &'static str,
}

impl<'de> MapAccess<'de> for Fields<'de> {
    type Error = Refusal;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Refusal> {
        let Some(&key) = self.keys.next() else {
            return Ok(None);
        };
        self.key = key;
        seed.deserialize(BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Refusal> {
        self.of.value(self.key, seed)
    }
}

/// A newtype variant's value: an enum whose variants are keys of the
/// object (`push`'s `address` or `k`), exactly one of them given. Given
/// both, the first declared is still read, so that a wrong value is
/// named before the choice is.
struct Choice<'de>(Object<'de>);

impl<'de> Deserializer<'de> for Choice<'de> {
    type Error = Refusal;

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        keys: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        let of = self.0;
        of.only(keys, " or ")?;
        let given: Vec<&'static str> = keys
            .iter()
            .copied()
            .filter(|k| of.get(k).is_some())
            .collect();
        match given[..] {
            [key] => visitor.visit_enum(Chosen(of, key)),
            [key, ..] => visitor
                .visit_enum(Chosen(of, key))
                .and(Err(Refusal::Either)),
            [] => Err(Refusal::Either),
        }
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Refusal> {
        not_asked("a choice of anything but keys")
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// The key chosen, and its value.
struct Chosen<'de>(Object<'de>, &'static str);

impl<'de> EnumAccess<'de> for Chosen<'de> {
    type Error = Refusal;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Refusal> {
        let key = seed.deserialize(BorrowedStrDeserializer::new(self.1))?;
        Ok((key, self))
    }
}

impl<'de> VariantAccess<'de> for Chosen<'de> {
    type Error = Refusal;

    fn unit_variant(self) -> Result<(), Refusal> {
        not_asked("a key without a value")
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Refusal> {
        self.0.value(self.1, seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, Refusal> {
        not_asked("a tuple")
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Refusal> {
        not_asked("a struct")
    }
}

/// A field's value, or none (absent, or null): as an `Option`, none is
/// `None`; asked for a value, it is [`Refusal::Needs`].
struct Arg<'de>(Option<&'de Value>);

impl<'de> Deserializer<'de> for Arg<'de> {
    type Error = Refusal;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        let v = self.0.ok_or(Refusal::Needs)?;
        v.deserialize_any(visitor)
            .map_err(|e| Refusal::Value(e.to_string()))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        match self.0 {
            None => visitor.visit_none(),
            Some(_) => visitor.visit_some(self),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// An externally tagged enum's word and its fields, in the order serde
/// writes them (the order declared; `{"check":{"pc":…,"pool":…}}`).
pub(crate) fn entries<T: Serialize>(value: &T) -> (String, Vec<(String, Value)>) {
    let text = serde_json::to_string(value).expect("an action serialises");
    let Ordered(mut word) =
        serde_json::from_str::<Ordered<Ordered<Value>>>(&text).expect("an action reads back");
    let (word, Ordered(fields)) = word.pop().expect("an action has its word");
    (word, fields)
}

/// A JSON object's entries, in the order written.
struct Ordered<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(OrderedVisitor(std::marker::PhantomData))
    }
}

struct OrderedVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for OrderedVisitor<T> {
    type Value = Ordered<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<T>, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Ordered(entries))
    }
}
