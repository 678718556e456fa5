//! A row's field that a built-in table keeps encoded until it is read:
//! an effect list or a stat block of the compact form ([`super::compact`])
//! is decoded the first time anything looks at it, so a command that
//! picks one row of a table decodes that row's effects, not every row's.
//! A row read from a file holds its value from the start. Either way it
//! reads, compares, prints and serialises as the value itself.

use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::compact::Packed;

/// What makes a value from its bytes.
type Decode<T> = fn(Packed) -> T;

/// A value, or the bytes it decodes from on first use (boxed: a row read
/// from a file, and a built-in row without effects or stats, has none,
/// and pays one pointer for them).
pub struct Lazy<T> {
    value: OnceLock<T>,
    packed: Option<Box<(Packed, Decode<T>)>>,
}

impl<T> Lazy<T> {
    /// A value kept encoded: `decode` makes it from `packed` when read.
    pub fn packed(packed: Packed, decode: Decode<T>) -> Lazy<T> {
        Lazy {
            value: OnceLock::new(),
            packed: Some(Box::new((packed, decode))),
        }
    }
}

impl<T: Default> std::ops::Deref for Lazy<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value.get_or_init(|| match self.packed.as_deref() {
            Some(&(packed, decode)) => decode(packed),
            None => T::default(),
        })
    }
}

impl<T: Default> std::ops::DerefMut for Lazy<T> {
    fn deref_mut(&mut self) -> &mut T {
        let _ = std::ops::Deref::deref(self);
        self.value.get_mut().expect("decoded just now")
    }
}

impl<T> From<T> for Lazy<T> {
    fn from(value: T) -> Lazy<T> {
        Lazy {
            value: OnceLock::from(value),
            packed: None,
        }
    }
}

impl<T: Default> Default for Lazy<T> {
    fn default() -> Lazy<T> {
        T::default().into()
    }
}

impl<T: Clone> Clone for Lazy<T> {
    fn clone(&self) -> Lazy<T> {
        Lazy {
            value: self.value.clone(),
            packed: self.packed.clone(),
        }
    }
}

impl<T: Default + PartialEq> PartialEq for Lazy<T> {
    fn eq(&self, other: &Lazy<T>) -> bool {
        **self == **other
    }
}

impl<T: Default + std::fmt::Debug> std::fmt::Debug for Lazy<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: Default + Serialize> Serialize for Lazy<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Lazy<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Lazy<T>, D::Error> {
        T::deserialize(d).map(Lazy::from)
    }
}

#[cfg(test)]
impl<T> Lazy<T> {
    /// Whether the value has been made (read, or held from the start).
    pub(crate) fn is_made(&self) -> bool {
        self.value.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_value_reads_compares_and_serialises_as_itself() {
        let held: Lazy<Vec<u32>> = vec![3, 1].into();
        assert!(held.is_made());
        assert_eq!(*held, [3, 1]);
        assert_eq!(held.clone(), held);
        assert_ne!(held, Lazy::from(vec![3]));
        assert_eq!(serde_json::to_string(&held).unwrap(), "[3,1]");
        let back: Lazy<Vec<u32>> = serde_json::from_str("[3,1]").unwrap();
        assert_eq!(back, held);
        assert_eq!(format!("{held:?}"), "[3, 1]");
        let mut edited = held.clone();
        edited.push(4);
        assert_eq!(*edited, [3, 1, 4]);
        assert_eq!(*held, [3, 1], "a clone is a value of its own");
    }
}
