//! The built-in tables in a compact form, checked once and embedded in the
//! binary, so that a command loads them without parsing TOML or checking
//! them again (issue 32).
//!
//! The form is `assets/builtin-tables.bin`: the [`Library`] that loading
//! and checking every `content/**/*.toml` file gives, written field by
//! field (lengths and integers as LEB128 varints, each text as where it
//! lies in `assets/builtin-tables.txt`). The texts are kept apart, each
//! once, so that the binary embeds them with `include_str!`: the compiler
//! checks them as UTF-8 once, and loading takes each as a slice of them
//! without checking it again.
//! Row texts and table dice are kept as written and parsed again on first
//! use ([`super::Row::template`], [`super::Table::dice_expr`]).
//!
//! The file is made by the crate's own loader, which refuses it when a
//! built-in table has a problem: `UPDATE_GOLDEN=1 cargo test --lib
//! compact` rewrites it, and the test `compact::tests::builtin_form_is_current`
//! fails while it is out of date. Its header carries the form's version
//! (`MAGIC`: change it with the format) and the stamp `build.rs` computes
//! over the table files; a binary built with a stale form (a table edited,
//! the form not yet rewritten) does not use it and loads the TOML files as
//! before, with a build warning.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::region::Region;
use super::schema::{Effect, Stats, System};
use super::{Contribution, Entry, Lazy, Library, Origin, Row, Rows, Table};

/// The first bytes of the form: a name and this format's version.
const MAGIC: &[u8; 8] = b"twtbl\x00\x07\x00";

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/builtin_compact.rs"));
}

/// The built-in tables from the embedded form, or `None` when the binary
/// was built with a stale form (or none): the caller loads the TOML files.
pub fn builtin() -> Option<Library> {
    let (bytes, text) = embedded::COMPACT?;
    decode(bytes, text, embedded::STAMP)
}

/// The stamp of the table files this binary embeds (see `build.rs`).
#[cfg(test)]
fn stamp() -> u64 {
    embedded::STAMP
}

/// `library` (every table checked, none overridden) as bytes, stamped,
/// and the texts they point into (by the test that writes the form).
#[cfg(test)]
fn encode(library: &Library, stamp: u64) -> (Vec<u8>, String) {
    let mut w = Writer::default();
    w.extend_from_slice(MAGIC);
    w.extend_from_slice(&stamp.to_le_bytes());
    library.content_hash.put(&mut w);
    library.tables.len().put(&mut w);
    for table in library.tables.values() {
        table.put(&mut w);
    }
    (w.bytes, w.text)
}

/// The library in `bytes`, if they are a form of this version with this
/// stamp.
pub fn decode(bytes: &'static [u8], text: &'static str, stamp: u64) -> Option<Library> {
    let mut r = Reader { bytes, at: 0, text };
    if r.take(MAGIC.len())? != MAGIC || u64::from_le_bytes(r.take(8)?.try_into().ok()?) != stamp {
        return None;
    }
    let content_hash = String::get(&mut r)?;
    let n = usize::get(&mut r)?;
    let mut tables = BTreeMap::new();
    for _ in 0..n {
        let t = Table::get(&mut r)?;
        tables.insert(t.id.clone(), t);
    }
    (r.at == bytes.len()).then_some(Library {
        tables,
        overridden: Vec::new(),
        content_hash,
        // Built-in regions all have places of their own: no warnings.
        warnings: Vec::new(),
        era: None,
    })
}

/// A table's rows in the form, decoded on first use (see [`Rows`]).
#[derive(Clone, Copy)]
pub struct Packed {
    bytes: &'static [u8],
    /// How many rows (1 for a lazy field's one value).
    pub len: usize,
    text: &'static str,
}

/// The rows in `packed`.
pub fn rows(packed: Packed) -> Vec<Row> {
    let Packed { bytes, len, text } = packed;
    let mut r = Reader { bytes, at: 0, text };
    let rows: Option<Vec<Row>> = (0..len).map(|_| Row::get(&mut r)).collect();
    // The form was decoded whole by its test (`decoding_gives_what_was_encoded`).
    rows.filter(|_| r.at == bytes.len())
        .expect("the embedded form's rows decode")
}

/// Reading the form (embedded in the binary: rows keep slices of it, and
/// texts are slices of its texts).
struct Reader {
    bytes: &'static [u8],
    at: usize,
    text: &'static str,
}

/// Writing the form: its bytes, and its texts, each written once.
#[cfg(test)]
#[derive(Default)]
struct Writer {
    bytes: Vec<u8>,
    text: String,
    /// Where each text written so far starts in `text`.
    at: BTreeMap<String, usize>,
}

#[cfg(test)]
impl Writer {
    fn push(&mut self, b: u8) {
        self.bytes.push(b);
    }
    fn extend_from_slice(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }
    /// A text as where it lies in the texts, and its length in bytes.
    fn text(&mut self, s: &str) {
        let at = match self.at.get(s) {
            Some(&at) => at,
            None => {
                let at = self.text.len();
                self.text.push_str(s);
                self.at.insert(s.to_owned(), at);
                at
            }
        };
        at.put(self);
        s.len().put(self);
    }
}

impl Reader {
    fn take(&mut self, n: usize) -> Option<&'static [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    /// A text of the form (no copy, no check: the compiler checked the
    /// texts as UTF-8 when it embedded them; a slice that would split a
    /// character is refused).
    fn text(&mut self) -> Option<&'static str> {
        let at = usize::get(self)?;
        let len = usize::get(self)?;
        self.text.get(at..at.checked_add(len)?)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at)?;
            self.at += 1;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }
}

#[cfg(test)]
fn put_varint(mut v: u64, w: &mut Writer) {
    while v >= 0x80 {
        w.push((v as u8) | 0x80);
        v >>= 7;
    }
    w.push(v as u8);
}

/// A value written to and read from the form (written only by the test
/// that makes it).
trait Compact: Sized {
    #[cfg(test)]
    fn put(&self, w: &mut Writer);
    fn get(r: &mut Reader) -> Option<Self>;
}

impl Compact for u64 {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        put_varint(*self, w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        r.varint()
    }
}

impl Compact for usize {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        put_varint(*self as u64, w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        r.varint()?.try_into().ok()
    }
}

impl Compact for u32 {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        put_varint(u64::from(*self), w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        r.varint()?.try_into().ok()
    }
}

impl Compact for i64 {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        // Zig-zag: small negative numbers stay short.
        put_varint(((*self << 1) ^ (*self >> 63)) as u64, w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let v = r.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }
}

impl Compact for bool {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        w.push(u8::from(*self));
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match r.take(1)?[0] {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl<T: Compact> Compact for Box<T> {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        (**self).put(w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        T::get(r).map(Box::new)
    }
}

impl Compact for String {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        w.text(self);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        r.text().map(str::to_owned)
    }
}

/// Borrowed from the form (which is embedded in the binary).
impl Compact for std::borrow::Cow<'static, str> {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        w.text(self);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        r.text().map(Self::Borrowed)
    }
}

impl<T: Compact> Compact for Option<T> {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        match self {
            None => w.push(0),
            Some(v) => {
                w.push(1);
                v.put(w);
            }
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match bool::get(r)? {
            false => Some(None),
            true => T::get(r).map(Some),
        }
    }
}

impl<T: Compact> Compact for Vec<T> {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        self.len().put(w);
        for v in self {
            v.put(w);
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let n = usize::get(r)?;
        // Never trust a length for more than the bytes left.
        let mut out = Vec::with_capacity(n.min(r.bytes.len() - r.at));
        for _ in 0..n {
            out.push(T::get(r)?);
        }
        Some(out)
    }
}

impl<A: Compact, B: Compact> Compact for (A, B) {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some((A::get(r)?, B::get(r)?))
    }
}

/// Rows are written as their length in bytes, their number, then each row,
/// so that loading the form skips them.
impl Compact for Rows {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        // The rows' bytes are made apart (their texts go with the rest).
        let outer = std::mem::take(&mut w.bytes);
        for row in self.iter() {
            row.put(w);
        }
        let packed = std::mem::replace(&mut w.bytes, outer);
        packed.len().put(w);
        self.len().put(w);
        w.extend_from_slice(&packed);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let bytes = usize::get(r)?;
        let len = usize::get(r)?;
        Some(Rows::packed(Packed {
            bytes: r.take(bytes)?,
            len,
            text: r.text,
        }))
    }
}

/// A lazy field is written as its length in bytes, then the value, so
/// that loading a row skips it; it is decoded when first read. An empty
/// value (no effects, no stats: most rows) is written as length 0 and
/// read back as itself.
impl<T: Compact + Default + PartialEq> Compact for Lazy<T> {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        if **self == T::default() {
            return 0usize.put(w);
        }
        let outer = std::mem::take(&mut w.bytes);
        (**self).put(w);
        let packed = std::mem::replace(&mut w.bytes, outer);
        packed.len().put(w);
        w.extend_from_slice(&packed);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let bytes = usize::get(r)?;
        if bytes == 0 {
            return Some(T::default().into());
        }
        let packed = Packed {
            bytes: r.take(bytes)?,
            len: 1,
            text: r.text,
        };
        Some(Lazy::packed(packed, decode_whole::<T>))
    }
}

/// The one value `packed` holds (a lazy field, on first use).
fn decode_whole<T: Compact>(packed: Packed) -> T {
    let Packed { bytes, text, .. } = packed;
    let mut r = Reader { bytes, at: 0, text };
    // The form was decoded whole by its test (`decoding_gives_what_was_encoded`).
    T::get(&mut r)
        .filter(|_| r.at == bytes.len())
        .expect("the embedded form's fields decode")
}

impl Compact for System {
    #[cfg(test)]
    fn put(&self, w: &mut Writer) {
        w.push(match self {
            System::Mettle => 0,
            System::Core => 1,
            System::Acs => 2,
            System::Cp => 3,
            System::Any => 4,
        });
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some(match r.take(1)?[0] {
            0 => System::Mettle,
            1 => System::Core,
            2 => System::Acs,
            3 => System::Cp,
            4 => System::Any,
            _ => return None,
        })
    }
}

/// A struct written field by field in the order given; the fields after
/// `lazy` are not written and start empty (parsed again on first use).
macro_rules! compact_struct {
    ($ty:ident { $($field:ident),* $(,)? } $(lazy { $($lazy:ident),* })?) => {
        impl Compact for $ty {
            #[cfg(test)]
    fn put(&self, w: &mut Writer) {
                $(self.$field.put(w);)*
            }
            fn get(r: &mut Reader) -> Option<Self> {
                Some($ty {
                    $($field: Compact::get(r)?,)*
                    $($($lazy: OnceLock::new(),)*)?
                })
            }
        }
    };
}

/// A field of a struct written sparsely ([`compact_sparse`]): an
/// `Option` or a `Vec`, left out of the form when `None` or empty.
trait Sparse: Sized {
    #[cfg(test)]
    fn is_empty(&self) -> bool;
    fn empty() -> Self;
    #[cfg(test)]
    fn put_inner(&self, w: &mut Writer);
    fn get_inner(r: &mut Reader) -> Option<Self>;
}

impl<T: Compact> Sparse for Option<T> {
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.is_none()
    }
    fn empty() -> Self {
        None
    }
    #[cfg(test)]
    fn put_inner(&self, w: &mut Writer) {
        if let Some(v) = self {
            v.put(w);
        }
    }
    fn get_inner(r: &mut Reader) -> Option<Self> {
        T::get(r).map(Some)
    }
}

impl<T: Compact> Sparse for Vec<T> {
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.is_empty()
    }
    fn empty() -> Self {
        Vec::new()
    }
    #[cfg(test)]
    fn put_inner(&self, w: &mut Writer) {
        self.put(w);
    }
    fn get_inner(r: &mut Reader) -> Option<Self> {
        Vec::get(r)
    }
}

/// A struct of optional fields (at most 64) written as a bit mask of the
/// fields it has, then those fields in the order given: an effect uses
/// two or three of its thirty keys, and reading thirty "none" marks cost
/// more than the rest of its row.
macro_rules! compact_sparse {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Compact for $ty {
            #[cfg(test)]
    fn put(&self, w: &mut Writer) {
                let mut mask = 0u64;
                let mut bit = 1u64;
                $(
                    if !Sparse::is_empty(&self.$field) {
                        mask |= bit;
                    }
                    bit <<= 1;
                )*
                let _ = bit;
                mask.put(w);
                $(
                    if !Sparse::is_empty(&self.$field) {
                        Sparse::put_inner(&self.$field, w);
                    }
                )*
            }
            fn get(r: &mut Reader) -> Option<Self> {
                let mask = u64::get(r)?;
                let mut bit = 1u64;
                let out = $ty {
                    $($field: {
                        let here = mask & bit != 0;
                        bit <<= 1;
                        if here { Sparse::get_inner(r)? } else { Sparse::empty() }
                    },)*
                };
                // A bit past the last field: not a form of this version.
                (bit.trailing_zeros() == 64 || mask >> bit.trailing_zeros() == 0).then_some(out)
            }
        }
    };
}

compact_struct!(Table {
    id, title, system, source, dice, notes, deck, region, rows, origin, extended_by, text_only
} lazy { dice_expr });
compact_struct!(Row { entry, line, from, at, roll_at, width } lazy { template });
compact_struct!(Entry {
    range,
    weight,
    name,
    text,
    tags,
    reroll,
    distinct,
    effects,
    stats
});
compact_struct!(Origin { file, line, layer });
compact_struct!(Contribution {
    file,
    line,
    added,
    replaced
});
compact_struct!(Region {
    name,
    table,
    danger,
    forage,
    water,
    encounter_chance,
    places,
    setting
});
compact_sparse!(Effect {
    ability,
    change,
    lasts,
    max,
    condition,
    status,
    trait_,
    skill,
    omens_max,
    reroll_if_zero,
    damage,
    direct,
    armour,
    hazard,
    per,
    cap,
    vs,
    difficulty,
    modifier,
    soak,
    interval,
    duration,
    raise,
    rations,
    perishable,
    needs,
    save,
    min_damage,
    chance,
    value
});
compact_sparse!(Stats {
    NATURE,
    CULTURE,
    POISE,
    MOTIVE,
    FRAME,
    STR,
    AGI,
    WIT,
    armor,
    weapon,
    dm,
    damage,
    callings,
    skills,
    traits,
    omens
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{builtin_files, validate};

    /// The files the form is kept in: its bytes and its texts.
    const PATH: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/builtin-tables.bin"
    );
    const TEXT_PATH: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/builtin-tables.txt"
    );

    /// The built-in tables loaded from TOML and checked, as the form.
    fn fresh() -> (Vec<u8>, String) {
        let (library, problems) = validate::build(&builtin_files());
        assert!(
            problems.is_empty(),
            "the built-in tables have problems: {problems:?}"
        );
        assert!(library.overridden.is_empty());
        encode(&library, stamp())
    }

    #[test]
    fn builtin_form_is_current() {
        let (fresh, text) = fresh();
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(TEXT_PATH, &text).expect("write assets/builtin-tables.txt");
            std::fs::write(PATH, &fresh).expect("write assets/builtin-tables.bin");
            return;
        }
        let kept = std::fs::read(PATH).unwrap_or_default();
        let kept_text = std::fs::read_to_string(TEXT_PATH).unwrap_or_default();
        assert!(
            kept == fresh && kept_text == text,
            "assets/builtin-tables.bin is not the built-in tables as they are now \
             (a table or the form changed): run `UPDATE_GOLDEN=1 cargo test --lib compact` \
             and commit it"
        );
        assert!(
            builtin().is_some(),
            "this build did not embed the form: rebuild after rewriting it"
        );
    }

    #[test]
    fn decoding_gives_what_was_encoded() {
        let (library, _) = validate::build(&builtin_files());
        let (bytes, text) = encode(&library, 7);
        let (bytes, text): (&'static [u8], &'static str) = (bytes.leak(), text.leak());
        let back = decode(bytes, text, 7).expect("decodes");
        assert_eq!(encode(&back, 7), (bytes.to_vec(), text.to_owned()));
        assert_eq!(back.content_hash, library.content_hash);
        // Parsed again on first use, as validation parsed them.
        for (t, u) in library.tables.values().zip(back.tables.values()) {
            assert_eq!(t.dice_expr(), u.dice_expr(), "{}", t.id);
            for (a, b) in t.rows.iter().zip(&u.rows) {
                assert_eq!(a.template(), b.template(), "{} {}", t.id, a.entry.name);
            }
        }
    }

    #[test]
    fn each_text_is_kept_once_and_read_back_in_place() {
        let mut w = Writer::default();
        for t in ["bandit", "camp", "bandit", "", "é·"] {
            w.text(t);
        }
        assert_eq!(w.text, "banditcampé·");
        let text: &'static str = w.text.leak();
        let mut r = Reader {
            bytes: w.bytes.leak(),
            at: 0,
            text,
        };
        let back: Vec<&str> = (0..5).map_while(|_| r.text()).collect();
        assert_eq!(back, ["bandit", "camp", "bandit", "", "é·"]);
        // A text that would split a character is refused.
        let mut w = Writer::default();
        11usize.put(&mut w);
        1usize.put(&mut w);
        let mut r = Reader {
            bytes: w.bytes.leak(),
            at: 0,
            text,
        };
        assert_eq!(r.text(), None);
    }

    #[test]
    fn a_rows_effects_and_stats_are_decoded_when_first_read() {
        let (library, _) = validate::build(&builtin_files());
        let (bytes, text) = encode(&library, 7);
        let back = decode(bytes.leak(), text.leak(), 7).expect("decodes");
        let tiles = &back.tables["acs.tiles"].rows;
        let npcs = &back.tables["gen.npc.mettle"].rows;
        let own = &library.tables["acs.tiles"].rows;
        // Effects wait to be read; a row without any holds its none.
        for (r, o) in tiles.iter().zip(own.iter()) {
            assert_eq!(r.entry.effects.is_made(), o.entry.effects.is_empty());
        }
        assert!(tiles.iter().filter(|r| !r.entry.effects.is_made()).count() > 30);
        // Rows without stats hold their none from the start.
        assert!(
            tiles
                .iter()
                .all(|r| r.entry.stats.is_made() && r.entry.stats.is_none())
        );
        assert!(npcs.iter().all(|r| !r.entry.stats.is_made()));
        assert!(!tiles[0].entry.effects.is_empty());
        assert!(tiles[0].entry.effects.is_made() && !tiles[1].entry.effects.is_made());
        assert!(npcs[0].entry.stats.is_some());
        assert!(npcs[0].entry.stats.is_made() && !npcs[1].entry.stats.is_made());
        // As read from the files.
        assert_eq!(tiles[5].entry.effects, own[5].entry.effects);
    }

    #[test]
    fn another_stamp_or_truncated_bytes_are_refused() {
        let (library, _) = validate::build(&builtin_files());
        let (bytes, text) = encode(&library, 7);
        let (bytes, text): (&'static [u8], &'static str) = (bytes.leak(), text.leak());
        assert!(decode(bytes, text, 8).is_none());
        assert!(decode(&bytes[..bytes.len() - 1], text, 7).is_none());
        assert!(decode(&bytes[..bytes.len() / 2], text, 7).is_none());
        assert!(decode(b"twtbl", text, 7).is_none());
        // Texts cut short: a text past their end is refused.
        assert!(decode(bytes, &text[..text.len() / 2], 7).is_none());
    }
}
