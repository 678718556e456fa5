//! The first pass over a file: TOML syntax, then every key that is not in
//! the format (serde stops at the first; a GM wants them all, each with a
//! "did you mean"), then the typed read into [`TableRaw`]s. Unknown keys
//! are reported and left out of the typed read, so the rest of the file is
//! still checked: one pass shows every problem in it.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{Spot, suggest};
use crate::content::SourceFile;
use crate::content::schema::{self, FileRaw, TableRaw};
use crate::diagnostic::Diagnostic;

/// The raw tables of one file read whole.
pub(super) fn whole(file: &SourceFile, problems: &mut Vec<Diagnostic>) -> Vec<Spanned<TableRaw>> {
    let spot = Spot { file, table: None };
    let mut root = match DeTable::parse(&file.text) {
        Ok(v) => v,
        Err(e) => {
            problems.push(not_toml(spot, &e, 0));
            return Vec::new();
        }
    };
    super::clean::check(spot, root.get_ref(), problems);
    prune_file(spot, root.get_mut(), problems);
    let de = toml::de::Deserializer::from(root);
    match <FileRaw as serde::Deserialize>::deserialize(de) {
        Ok(raw) => raw.table,
        Err(e) => {
            problems.push(wrong_type(spot, &e));
            Vec::new()
        }
    }
}

/// A value of the wrong type (or a key missing), as the TOML reader put it.
pub(super) fn wrong_type(spot: Spot, e: &toml::de::Error) -> Diagnostic {
    let span = e.span().unwrap_or(0..0);
    spot.at(
        span.start,
        spot.width(span),
        e.message().trim().to_owned(),
        "see the guide, Table format, for each key's type",
    )
}

/// A syntax error in TOML read from byte `offset` of the file on.
pub(super) fn not_toml(spot: Spot, e: &toml::de::Error, offset: usize) -> Diagnostic {
    let span = e
        .span()
        .map_or(offset..offset, |s| s.start + offset..s.end + offset);
    spot.at(
        span.start,
        spot.width(span),
        format!("this is not valid TOML: {}", e.message().trim()),
        "fix the syntax at this line and column (see the guide, Table format)",
    )
}

/// Report and remove every key that is not in the format, at every level.
fn prune_file(spot: Spot, root: &mut DeTable, problems: &mut Vec<Diagnostic>) {
    prune((spot, 0), root, schema::FILE_KEYS, "the file", problems);
    for t in tables_in(root.get_mut("table")) {
        prune_table((spot, 0), t, problems);
    }
}

/// The same for a part of a file (see [`super::parts`]): a `[[table]]`
/// section, or `[[table.row]]` sections (`table` is then a table holding
/// `row`), read from byte `base` of the file on (its keys' positions are
/// the part's own).
pub(super) fn prune_part(
    spot: Spot,
    base: usize,
    root: &mut DeTable,
    problems: &mut Vec<Diagnostic>,
) {
    let spot = (spot, base);
    prune(spot, root, schema::FILE_KEYS, "the file", problems);
    if let Some(DeValue::Table(t)) = root.get_mut("table").map(Spanned::get_mut) {
        for r in tables_in(t.get_mut("row")) {
            prune_row(spot, r, problems);
        }
    } else {
        for t in tables_in(root.get_mut("table")) {
            prune_table(spot, t, problems);
        }
    }
}

fn prune_table(spot: (Spot, usize), t: &mut DeTable, problems: &mut Vec<Diagnostic>) {
    prune(spot, t, schema::TABLE_KEYS, "a [[table]]", problems);
    if let Some(DeValue::Table(region)) = t.get_mut("region").map(Spanned::get_mut) {
        prune(
            spot,
            region,
            schema::REGION_KEYS,
            "[table.region]",
            problems,
        );
    }
    for r in tables_in(t.get_mut("row")) {
        prune_row(spot, r, problems);
    }
}

fn prune_row(spot: (Spot, usize), r: &mut DeTable, problems: &mut Vec<Diagnostic>) {
    prune(spot, r, schema::ROW_KEYS, "a [[table.row]]", problems);
    for e in tables_in(r.get_mut("effects")) {
        prune(spot, e, schema::EFFECT_KEYS, "an effect", problems);
    }
    if let Some(DeValue::Table(s)) = r.get_mut("stats").map(Spanned::get_mut) {
        prune(spot, s, schema::STATS_KEYS, "stats", problems);
    }
}

/// The tables of an array of tables (nothing for any other value).
fn tables_in<'a, 'i>(
    value: Option<&'a mut Spanned<DeValue<'i>>>,
) -> impl Iterator<Item = &'a mut DeTable<'i>> {
    let items = match value.map(Spanned::get_mut) {
        Some(DeValue::Array(items)) => AsMut::<[Spanned<DeValue<'i>>]>::as_mut(items),
        _ => &mut [],
    };
    items.iter_mut().filter_map(|v| match v.get_mut() {
        DeValue::Table(t) => Some(t),
        _ => None,
    })
}

/// Report every key of `table` not in `allowed`, and drop it — or, when
/// it is close to a key the table lacks, read it as that key, so that a
/// typo'd required key (`nmae`) does not also make the row lack one.
///
/// `spot` is the file and where the keys' positions start in it.
fn prune(
    spot: (Spot, usize),
    table: &mut DeTable,
    allowed: &[&str],
    place: &str,
    problems: &mut Vec<Diagnostic>,
) {
    let unknown: Vec<(String, Option<String>)> = table
        .keys()
        .filter(|key| !allowed.contains(&key.get_ref().as_ref()))
        .map(|key| {
            let d = unknown_key(spot, key, allowed, place);
            let meant = d.suggestion.clone();
            problems.push(d);
            (key.get_ref().to_string(), meant)
        })
        .collect();
    for (key, meant) in unknown {
        let Some((k, v)) = table.remove_entry(key.as_str()) else {
            continue;
        };
        if let Some(meant) = meant.filter(|m| !table.contains_key(m.as_str())) {
            let k = Spanned::new(k.span(), std::borrow::Cow::Owned(meant));
            table.insert(k, v);
        }
    }
}

/// One key that is not in the format.
fn unknown_key(
    (spot, base): (Spot, usize),
    key: &Spanned<std::borrow::Cow<str>>,
    allowed: &[&str],
    place: &str,
) -> Diagnostic {
    let name = key.get_ref().as_ref();
    let suggestion = suggest(name, allowed.iter().copied());
    // After a "did you mean `x`?" the list starts a new sentence.
    let lead = if suggestion.is_some() { "Keys" } else { "keys" };
    spot.at(
        base + key.span().start,
        name.chars().count().max(1),
        format!("unknown key `{name}` in {place}"),
        format!("{lead} here: {}", allowed.join(", ")),
    )
    .with_suggestion(suggestion)
}
