//! Foundry VTT RollTable documents. Export writes one document per table
//! with the fields every Foundry version since v10 reads — `name`,
//! `description`, `formula`, `replacement`, `displayRoll`, and `results`
//! of `type: "text"` with `range`, `weight`, `drawn: false` and the row's
//! text both as `text` (v12 and before) and as `name`/`description` (v13)
//! — and what tablewright needs to read it back under
//! `flags.tablewright`. Import (`read`) takes single documents or arrays
//! in the v10 to v13 shapes (numeric or string `type`; `text` or
//! `name`/`description`).

use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::draft::DraftRegion;
use super::{Draft, DraftRow, Export, Piece, markup, pieces};
use crate::content::{Effect, Stats, System, Table};
use crate::diagnostic::Diagnostic;

/// A RollTable document as tablewright writes it.
#[derive(Serialize)]
struct Doc {
    _id: String,
    name: String,
    description: String,
    formula: String,
    replacement: bool,
    #[serde(rename = "displayRoll")]
    display_roll: bool,
    results: Vec<ResultDoc>,
    flags: Flags,
}

#[derive(Serialize)]
struct ResultDoc {
    _id: String,
    #[serde(rename = "type")]
    kind: &'static str,
    name: String,
    description: String,
    text: String,
    range: [i64; 2],
    weight: u64,
    drawn: bool,
    #[serde(skip_serializing_if = "ResultFlags::is_empty")]
    flags: ResultFlags,
}

#[derive(Serialize)]
struct ResultFlags {
    tablewright: RowFlags,
}

impl ResultFlags {
    fn is_empty(&self) -> bool {
        self.tablewright.is_empty()
    }
}

/// What a row has that Foundry has no field for, under
/// `flags.tablewright` of the result.
#[derive(Serialize, Deserialize, Default)]
struct RowFlags {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reroll: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    distinct: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    effects: Vec<Effect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stats: Option<Stats>,
    /// The row's text as tablewright wrote it, when it holds words that
    /// Foundry reads as its own markup (`[[Wiki]]`, `@UUID[…]`,
    /// `[[/r 1d4]]` written as words): read back in their place while the
    /// result's text is still what the export wrote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
}

impl RowFlags {
    fn is_empty(&self) -> bool {
        self.text.is_none()
            && self.tags.is_empty()
            && self.reroll.is_none()
            && !self.distinct
            && self.effects.is_empty()
            && self.stats.is_none()
    }
}

#[derive(Serialize)]
struct Flags {
    tablewright: Ours,
}

/// What tablewright keeps of a table that Foundry has no field for.
#[derive(Serialize)]
struct Ours {
    id: String,
    system: &'static str,
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<String>,
    weighted: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    text_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<DraftRegion>,
}

/// A Foundry document id for `key`: 16 letters and digits, the same for
/// the same key on every run (so links between tables exported together
/// resolve, and a second export is byte for byte the first).
pub(crate) fn doc_id(key: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    (0..16u8)
        .map(|i| {
            let mut h = crate::hash::Stable::new();
            h.write(key.as_bytes());
            h.write_u8(i);
            ALPHABET[(h.finish() % ALPHABET.len() as u64) as usize] as char
        })
        .collect()
}

/// `&`, `<` and `>` as HTML writes them (Foundry reads text as HTML).
pub(crate) fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A row's text as Foundry shows it: dice as `[[/r …]]` inline rolls, a
/// roll on a table exported alongside as a `@UUID[RollTable.…]{Title}`
/// link (else "roll on Title"), `{pick: …}` kept as written.
pub(crate) fn row_text(ex: &Export, text: &str) -> String {
    let mut out = String::new();
    for piece in pieces(text) {
        match piece {
            Piece::Plain(p) => out.push_str(&escape_html(p)),
            Piece::Braced(inner) => {
                let t = inner.trim_start();
                if let Some(id) = t.strip_prefix("table:").map(str::trim) {
                    let title = escape_html(ex.title_of(id));
                    if ex.has(id) {
                        out.push_str(&format!("@UUID[RollTable.{}]{{{title}}}", doc_id(id)));
                    } else {
                        out.push_str(&format!("roll on {title}"));
                    }
                } else if t.starts_with("pick:") {
                    out.push_str(&format!("{{{}}}", escape_html(inner)));
                } else {
                    out.push_str(&format!("[[/r {}]]", escape_html(inner)));
                }
            }
        }
    }
    out
}

fn doc(ex: &Export, table: &Table) -> Doc {
    let weighted = table.dice.is_none();
    let results = table
        .rows
        .iter()
        .zip(super::ranges(table))
        .enumerate()
        .map(|(i, (row, (a, b)))| {
            let text = row_text(ex, &row.entry.text);
            ResultDoc {
                _id: doc_id(&format!("{}#{i}", table.id)),
                kind: "text",
                name: row.entry.name.to_string(),
                description: text.clone(),
                text,
                range: [a, b],
                weight: row.entry.weight.unwrap_or((b - a + 1) as u64),
                drawn: false,
                flags: ResultFlags {
                    tablewright: RowFlags {
                        tags: row.entry.tags.iter().map(|t| t.to_string()).collect(),
                        reroll: row.entry.reroll,
                        distinct: row.entry.distinct,
                        effects: row.entry.effects.to_vec(),
                        stats: row.entry.stats.as_deref().cloned(),
                        text: looks_like_markup(&row.entry.text)
                            .then(|| row.entry.text.to_string()),
                    },
                },
            }
        })
        .collect();
    Doc {
        _id: doc_id(&table.id),
        name: table.title.to_string(),
        description: table.notes.as_deref().map(escape_html).unwrap_or_default(),
        formula: super::formula(table),
        replacement: !table.deck,
        display_roll: true,
        results,
        flags: Flags {
            tablewright: Ours {
                id: table.id.clone(),
                system: table.system.as_str(),
                source: table.source.to_string(),
                dice: table.dice.as_deref().map(str::to_owned),
                weighted,
                text_only: table.text_only,
                region: table.region.as_ref().map(|g| DraftRegion {
                    danger: g.danger,
                    forage: g.forage.clone(),
                    water: g.water,
                    encounter_chance: g.chance_text(),
                    places: g.places.clone(),
                    setting: g.setting.clone(),
                }),
            },
        },
    }
}

/// Whether a row's text holds words Foundry would read as its markup: an
/// inline roll or link (`[[…]]`), a document link (`@UUID[…]`,
/// `@Check[…]`) or a reference (`&Reference[…]`).
fn looks_like_markup(text: &str) -> bool {
    let b = text.as_bytes();
    text.contains("[[")
        || b.iter().enumerate().any(|(i, &c)| {
            (c == b'@' || c == b'&') && {
                let rest = &b[i + 1..];
                let word = rest.iter().take_while(|c| c.is_ascii_alphabetic()).count();
                word > 0 && rest.get(word) == Some(&b'[')
            }
        })
}

fn pretty(value: &impl Serialize) -> String {
    let mut s = Vec::new();
    // Through `&mut dyn Write`, as the crate writes all its JSON.
    serde_json::to_writer_pretty(&mut s as &mut dyn std::io::Write, value)
        .expect("documents serialize");
    s.push(b'\n');
    String::from_utf8(s).expect("JSON is UTF-8")
}

/// One table's document (a file of `--to`).
pub fn file(ex: &Export, table: &Table) -> String {
    pretty(&doc(ex, table))
}

/// Every table: one document, or an array of them.
pub fn stream(ex: &Export) -> String {
    let docs: Vec<Doc> = ex.tables.iter().map(|t| doc(ex, t)).collect();
    if docs.len() == 1 {
        pretty(&docs[0])
    } else {
        pretty(&docs)
    }
}

/// What an import took from a file: its tables, and counts of what was
/// converted (for the report).
#[derive(Debug, Default)]
pub struct Read {
    /// The tables read.
    pub drafts: Vec<Draft>,
    /// How many of each thing were converted (for the report).
    pub counts: BTreeMap<&'static str, usize>,
}

/// Lines of every `"key":` in a JSON text, in order (a key inside a
/// string has its quotes escaped, so it is never counted), found in one
/// line index of the text: linear in the text, however many keys.
pub fn key_lines(text: &str, key: &str) -> Vec<usize> {
    let needle = format!("\"{key}\"");
    let index = crate::content::LineIndex::new(text);
    let mut lines = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(&needle) {
        let at = from + at;
        from = at + needle.len();
        if text[from..].trim_start().starts_with(':') {
            lines.push(index.line(at));
        }
    }
    lines
}

fn str_at<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The documents of a Foundry export: one, or an array of them.
fn documents(value: &Value) -> Result<Vec<&Value>, String> {
    let docs: Vec<&Value> = match value {
        Value::Array(a) => a.iter().collect(),
        v => vec![v],
    };
    if docs.is_empty() {
        return Err("an empty array: there is no RollTable to import".into());
    }
    for (i, d) in docs.iter().enumerate() {
        if !d.get("results").is_some_and(Value::is_array) {
            return Err(format!(
                "document {} is not a RollTable: it has no `results` list",
                i + 1
            ));
        }
    }
    Ok(docs)
}

/// Ids for the tables of `docs`: the id tablewright wrote, else
/// `imported.<name>` (made unique), by position; and their Foundry ids.
fn planned_ids(
    docs: &[&Value],
    taken: &mut BTreeSet<String>,
) -> (Vec<String>, BTreeMap<String, String>) {
    let mut ids = Vec::new();
    let mut links = BTreeMap::new();
    for d in docs {
        let ours = d["flags"]["tablewright"]["id"]
            .as_str()
            .filter(|i| valid_id(i));
        let id = match ours {
            Some(i) => i.to_owned(),
            None => {
                let base = format!("imported.{}", super::draft::slug(str_at(d, "name")));
                let mut id = base.clone();
                let mut n = 2;
                while taken.contains(&id) {
                    id = format!("{base}-{n}");
                    n += 1;
                }
                id
            }
        };
        taken.insert(id.clone());
        if let Some(fid) = d.get("_id").and_then(Value::as_str) {
            links.insert(fid.to_owned(), id.clone());
        }
        ids.push(id);
    }
    (ids, links)
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().all(crate::content::template::is_id_char)
        && !id.starts_with('.')
        && !id.ends_with('.')
}

/// Read Foundry RollTables (`value`, parsed from `text` of `file`).
/// `taken`: ids already used in this import.
pub fn read(
    value: &Value,
    file: &str,
    text: &str,
    taken: &mut BTreeSet<String>,
) -> Result<Read, Vec<Diagnostic>> {
    let docs = documents(value).map_err(|m| {
        vec![Diagnostic::at(file, 1, 1, m).with_hint(
            "export a RollTable from Foundry (right-click it, Export Data) and import that file",
        )]
    })?;
    let lines = key_lines(text, "range");
    let (ids, links) = planned_ids(&docs, taken);
    let mut read = Read::default();
    let mut problems = Vec::new();
    let mut n = 0;
    for (doc, id) in docs.iter().zip(ids) {
        match table(doc, id, file, &lines, &mut n, &links, &mut read.counts) {
            Ok(d) => {
                problems.extend(d.check_rows(file));
                read.drafts.push(d);
            }
            Err(mut p) => problems.append(&mut p),
        }
    }
    if problems.is_empty() {
        Ok(read)
    } else {
        Err(problems)
    }
}

/// One result's row.
struct ResultRow {
    range: Option<(i64, i64)>,
    weight: Option<u64>,
    name: String,
    /// For a name taken from the text: the plain text and the roll
    /// (`1-5`), to make it distinct if other rows share it.
    derived: Option<(String, String)>,
    text: String,
    line: usize,
    flags: RowFlags,
}

#[allow(clippy::too_many_arguments)]
fn table(
    doc: &Value,
    id: String,
    file: &str,
    lines: &[usize],
    n: &mut usize,
    links: &BTreeMap<String, String>,
    counts: &mut BTreeMap<&'static str, usize>,
) -> Result<Draft, Vec<Diagnostic>> {
    let flags = &doc["flags"]["tablewright"];
    let reading = markup::Reading {
        ours: flags.is_object(),
        links,
    };
    let title = match str_at(doc, "name").trim() {
        "" => id.clone(),
        t => t.to_owned(),
    };
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for r in doc["results"].as_array().expect("checked") {
        let line = lines.get(*n).copied().unwrap_or(1);
        *n += 1;
        match result_row(r, line, reading, counts) {
            Ok(row) => rows.push(row),
            Err(m) => problems.push(
                Diagnostic::at(file, line, 1, format!("{title}: {m}"))
                    .with_hint("each result needs a `range` of two whole numbers, low to high"),
            ),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut rows = all_drawn(doc, rows, &title, counts);
    let mut names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
    let derived: Vec<_> = rows.iter().map(|r| r.derived.clone()).collect();
    super::distinct_names(&mut names, &derived);
    for (row, name) in rows.iter_mut().zip(names) {
        row.name = name;
    }
    let weighted = flags["weighted"].as_bool().unwrap_or(false);
    let dice = if weighted {
        None
    } else {
        Some(table_dice(doc, &rows).map_err(|m| {
            vec![
                Diagnostic::at(
                    file,
                    key_line(doc, file, lines, *n),
                    1,
                    format!("{title}: {m}"),
                )
                .with_hint("give the RollTable a formula such as 1d20 (or ranges from 1)"),
            ]
        })?)
    };
    let notes = markup::convert(str_at(doc, "description"), reading).text;
    Ok(Draft {
        id,
        title,
        system: flags["system"]
            .as_str()
            .and_then(|s| serde_json::from_value(Value::String(s.into())).ok())
            .unwrap_or(System::Any),
        source: flags["source"]
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| format!("Foundry VTT RollTable \"{}\"", str_at(doc, "name"))),
        dice,
        notes: (!notes.trim().is_empty()).then_some(notes),
        deck: doc.get("replacement").and_then(Value::as_bool) == Some(false),
        text_only: flags["text_only"].as_bool() == Some(true),
        region: serde_json::from_value(flags["region"].clone()).ok(),
        rows: rows.into_iter().map(|r| draft_row(r, weighted)).collect(),
    })
}

/// A table rolled `1` whose results all sit on 1: Foundry draws every
/// one of them each time, so it is one row holding them all, a line each.
fn all_drawn(
    doc: &Value,
    rows: Vec<ResultRow>,
    title: &str,
    counts: &mut BTreeMap<&'static str, usize>,
) -> Vec<ResultRow> {
    let on_one = rows.len() > 1 && rows.iter().all(|r| r.range == Some((1, 1)));
    if !on_one || str_at(doc, "formula").trim() != "1" {
        return rows;
    }
    *counts
        .entry(
            "results all on 1 with formula 1 → one row holding them all (Foundry draws every one)",
        )
        .or_default() += rows.len();
    let text: Vec<&str> = rows.iter().map(|r| r.text.as_str()).collect();
    let text = text.join("\n");
    let first = rows.into_iter().next().expect("more than one row");
    vec![ResultRow {
        name: title.to_owned(),
        derived: None,
        text,
        ..first
    }]
}

/// A result as a draft's row: its range, or its weight in a weighted
/// table (its range's width when it has none), and what our own flags
/// carried (tags, reroll, distinct, effects, stat block).
fn draft_row(r: ResultRow, weighted: bool) -> DraftRow {
    let (range, weight) = if weighted {
        (
            None,
            Some(
                r.weight
                    .unwrap_or(r.range.map_or(1, |(a, b)| (b - a + 1) as u64)),
            ),
        )
    } else {
        (r.range, None)
    };
    let mut row = DraftRow::plain(range, weight, r.name, r.text, r.line);
    row.entry.tags = r
        .flags
        .tags
        .into_iter()
        .map(crate::content::Text::Owned)
        .collect();
    row.entry.reroll = r.flags.reroll;
    row.entry.distinct = r.flags.distinct;
    row.entry.effects = r.flags.effects.into();
    row.entry.stats = r.flags.stats.map(Box::new).into();
    row
}

/// The line to point at for a table-wide problem: its last result's.
fn key_line(_doc: &Value, _file: &str, lines: &[usize], n: usize) -> usize {
    n.checked_sub(1)
        .and_then(|i| lines.get(i))
        .copied()
        .unwrap_or(1)
}

/// The die: tablewright's own (flags), the formula, or `d<highest>` over
/// ranges from 1 when there is no formula.
fn table_dice(doc: &Value, rows: &[ResultRow]) -> Result<String, String> {
    if let Some(d) = doc["flags"]["tablewright"]["dice"].as_str() {
        return Ok(d.to_owned());
    }
    let formula = str_at(doc, "formula").trim();
    if !formula.is_empty() {
        let tight: String = formula.chars().filter(|c| !c.is_whitespace()).collect();
        return [formula, tight.as_str()]
            .into_iter()
            .find(|f| crate::dice::parse(f).is_ok())
            .map(str::to_owned)
            .ok_or_else(|| format!("the formula `{formula}` is not dice tablewright reads"));
    }
    let low = rows.iter().filter_map(|r| r.range).map(|r| r.0).min();
    let high = rows.iter().filter_map(|r| r.range).map(|r| r.1).max();
    match (low, high) {
        (Some(1), Some(h)) if h > 1 => Ok(format!("d{h}")),
        _ => Err("there is no formula, and the ranges do not start at 1".into()),
    }
}

/// A result: its range and weight, its name and text (v13
/// `name`/`description`, or `text`), whatever its `type`.
fn result_row(
    r: &Value,
    line: usize,
    reading: markup::Reading,
    counts: &mut BTreeMap<&'static str, usize>,
) -> Result<ResultRow, String> {
    let bad = || {
        format!(
            "the range {} is not two whole numbers, low to high",
            r["range"]
        )
    };
    let range = match r.get("range") {
        None | Some(Value::Null) => return Err("a result without a `range`".into()),
        Some(Value::Array(pair)) => match pair.as_slice() {
            [a, b] => match (a.as_i64(), b.as_i64()) {
                (Some(a), Some(b)) if a <= b => (a, b),
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        },
        Some(_) => return Err(bad()),
    };
    let weight = r.get("weight").and_then(Value::as_u64).filter(|w| *w > 0);
    let linked = match &r["type"] {
        Value::Number(k) => k.as_u64() != Some(0),
        Value::String(k) => k != "text",
        _ => false,
    };
    if linked {
        *counts
            .entry("results naming a document → kept its name")
            .or_default() += 1;
    }
    let (name, desc, text) = (
        str_at(r, "name"),
        str_at(r, "description"),
        str_at(r, "text"),
    );
    let body = [desc, text, name]
        .into_iter()
        .find(|s| !s.trim().is_empty())
        .unwrap_or("");
    let converted = markup::convert(body, reading);
    let mut flags: RowFlags =
        serde_json::from_value(r["flags"]["tablewright"].clone()).unwrap_or_default();
    // The text as tablewright wrote it, unless the result was edited since
    // (then nothing of Foundry's markup was converted: it is words).
    let as_written = flags
        .text
        .take()
        .filter(|ours| markup::convert(&escape_html(ours), reading).text == converted.text);
    if as_written.is_none() {
        for (k, v) in &converted.counts {
            *counts.entry(k).or_default() += v;
        }
    }
    let label = if range.0 == range.1 {
        range.0.to_string()
    } else {
        format!("{}-{}", range.0, range.1)
    };
    let (name, derived) = if !name.trim().is_empty() && !std::ptr::eq(body, name) {
        (markup::convert(name, reading).plain.trim().to_owned(), None)
    } else {
        let name = super::derived_name(&converted.plain, &format!("Result {label}"));
        (name, Some((converted.plain.clone(), label)))
    };
    let text = if converted.text.trim().is_empty() {
        *counts
            .entry("results without text → \"(no text)\"")
            .or_default() += 1;
        "(no text)".to_owned()
    } else {
        converted.text
    };
    let text = as_written.unwrap_or(text);
    Ok(ResultRow {
        range: Some(range),
        weight,
        name,
        derived,
        text,
        line,
        flags,
    })
}
