//! Tables in other tools' formats, both ways. `export` writes tables for
//! Foundry VTT, Obsidian's Dice Roller, GitHub Markdown, as JSON, or as
//! Inspiration Pad Pro or Perchance generators; `import` reads Foundry
//! RollTables, `tablewright.tables/1` JSON, pasted Markdown or CSV tables
//! and the generator formats ([`Reader`]) into [`Draft`]s that become
//! table files.
//! Nothing here reads or writes a file: `app::interop` does, through
//! `input` and `output`.
//!
//! - [`json`]: the `tablewright.tables/1` schema (`tables --json`), out and
//!   back in.
//! - [`foundry`]: Foundry VTT RollTable documents (v10 to v13 shapes).
//! - `markup`: Foundry's text (HTML, entities, `[[/r …]]`, `@UUID[…]`,
//!   `&Reference[…]`) turned into a row's text.
//! - `obsidian`: roll tables with block ids for the Dice Roller plugin.
//! - `gfm`: plain `| d12 | result |` Markdown tables.
//! - [`pasted`]: Markdown or CSV tables with a die or weight column.
//! - [`draft`]: a table read from elsewhere, and its table file.
//! - `ipt`, `ipt_text`: Inspiration Pad Pro generator files;
//!   `ipt_export` writes them.
//! - `tablesmith`: TableSmith `.tab` files, their lines joined first
//!   (`tablesmith_lines`).
//! - `perchance`: Perchance generators, both ways.
//! - `dice_roller`: Obsidian notes with Dice Roller tables, read.
//! - `sheet`: what a generator-file reader reads a file into, and the
//!   bounds every reader keeps; [`assemble`] makes those files, given
//!   together, into drafts.

// A refusal is a `Diagnostic` (file, line, column, hint), made once per
// run when it is made at all: boxing it would only add noise.
#![allow(clippy::result_large_err)]

pub mod assemble;
mod assemble_links;
mod dice_roller;
pub mod draft;
pub mod foundry;
mod gfm;
mod ipt;
mod ipt_again;
mod ipt_article;
mod ipt_case;
mod ipt_export;
mod ipt_filter;
mod ipt_html;
mod ipt_once;
mod ipt_rows;
mod ipt_table;
mod ipt_text;
pub mod json;
mod markup;
mod obsidian;
pub mod pasted;
mod perchance;
mod scan;
mod sheet;
mod tablesmith;
mod tablesmith_lines;
mod tablesmith_mods;
mod tablesmith_vars;
mod totals;

use std::collections::BTreeMap;

pub use draft::{Draft, DraftRow, slug};

use crate::content::{Library, Table};
use crate::diagnostic::Diagnostic;

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Foundry VTT RollTable documents (JSON).
    Foundry,
    /// Markdown for Obsidian's Dice Roller, with block ids.
    Obsidian,
    /// GitHub Markdown tables.
    Gfm,
    /// The `tablewright.tables/1` JSON.
    Json,
    /// An Inspiration Pad Pro generator.
    Ipt,
    /// A Perchance generator.
    Perchance,
}

impl Format {
    /// The extension of a file in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Foundry | Format::Json => "json",
            Format::Obsidian | Format::Gfm => "md",
            Format::Ipt => "ipt",
            Format::Perchance => "perchance",
        }
    }
}

/// The generator formats `import` reads (`--from`, or by extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// Inspiration Pad Pro (`.ipt`).
    Ipt,
    /// TableSmith (`.tab`).
    TableSmith,
    /// Perchance generator text (`.perchance`).
    Perchance,
    /// Obsidian Dice Roller / Randomness Markdown.
    Obsidian,
}

/// The generator-file reader for `path`: `from` when given, else by its
/// extension (`None`: one of the table readers, by extension).
pub fn reader_for(path: &std::path::Path, from: Option<Reader>) -> Option<Reader> {
    from.or_else(|| {
        let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
        match ext.as_str() {
            "ipt" => Some(Reader::Ipt),
            "tab" => Some(Reader::TableSmith),
            "perchance" => Some(Reader::Perchance),
            _ => None,
        }
    })
}

/// Read one generator file (`file` as given, `stem` its name without
/// extension) into a `sheet::Sheet`: the one place each reader plugs in.
pub fn read_sheet(
    reader: Reader,
    file: &str,
    stem: &str,
    text: &str,
) -> Result<sheet::Sheet, Diagnostic> {
    match reader {
        Reader::Ipt => Ok(ipt::read(file, stem, text)),
        Reader::TableSmith => Ok(tablesmith::read(file, stem, text)),
        Reader::Perchance => Ok(perchance::read(file, stem, text)),
        Reader::Obsidian => dice_roller::read(file, stem, text),
    }
}

/// Tables exported together: those asked for, in order, and the library
/// they come from (for the titles of tables they roll on).
pub struct Export<'a> {
    /// The tables in effect.
    pub library: &'a Library,
    /// The tables to write, in order.
    pub tables: Vec<&'a Table>,
}

impl Export<'_> {
    /// Whether table `id` is exported with the others (a link to it can
    /// resolve).
    pub fn has(&self, id: &str) -> bool {
        self.tables.iter().any(|t| t.id == id)
    }

    /// The title of table `id` (its id when it is unknown).
    pub(crate) fn title_of<'b>(&'b self, id: &'b str) -> &'b str {
        self.library.get(id).map_or(id, |t| t.title.as_ref())
    }
}

/// Why a row that rolls on table `id`, which is not in the export, cannot
/// be written by a format whose files roll their tables themselves (IPP,
/// Perchance): the words "roll on …" in its place would leave the GM a
/// row that no longer rolls, so the table must come along.
pub(crate) fn not_exported(id: &str) -> String {
    format!("it rolls on {id}, which is not exported with it (add `{id}` to the ids)")
}

/// Everything in one text, for stdout (a format that cannot carry a
/// table says which and why).
pub fn stream(ex: &Export, format: Format) -> Result<String, Diagnostic> {
    Ok(match format {
        Format::Json => json::to_text(&json::document(ex.library, ex.tables.iter().copied())),
        Format::Foundry => foundry::stream(ex),
        Format::Obsidian => obsidian::note(ex, &ex.tables, false),
        Format::Ipt => ipt_export::file(ex, &ex.tables, false)?,
        Format::Perchance => perchance::write::generator(&ex.tables)?,
        Format::Gfm => ex
            .tables
            .iter()
            .map(|t| gfm::table(t))
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

/// One file per table (`<id>.<ext>`), for `--to DIR`.
pub fn files(ex: &Export, format: Format) -> Result<Vec<(String, Vec<u8>)>, Diagnostic> {
    ex.tables
        .iter()
        .map(|t| {
            let text = match format {
                Format::Json => json::to_text(&json::document(ex.library, [*t])),
                Format::Foundry => foundry::file(ex, t),
                Format::Obsidian => obsidian::note(ex, &[*t], true),
                Format::Gfm => gfm::table(t),
                Format::Ipt => ipt_export::file(ex, &[*t], true)?,
                Format::Perchance => perchance::write::file(ex, t)?,
            };
            Ok((
                format!("{}.{}", file_stem(&t.id), format.extension()),
                text.into_bytes(),
            ))
        })
        .collect()
}

/// The file name of table `id`, without extension: its id (ids are
/// lowercase letters, digits, `_`, `.` and `-`).
pub fn file_stem(id: &str) -> String {
    id.to_owned()
}

/// Each row's range: its own, or (weighted tables) one after another from
/// 1, as wide as its weight.
pub fn ranges(table: &Table) -> Vec<(i64, i64)> {
    let mut next = 1i64;
    table
        .rows
        .iter()
        .map(|r| match (r.entry.range, r.entry.weight) {
            (Some(range), _) => range,
            (None, w) => {
                let w = w.unwrap_or(1) as i64;
                let range = (next, next + w - 1);
                next += w;
                range
            }
        })
        .collect()
}

/// The formula that picks a row, as other dice rollers write it: `1d12`,
/// `2d6`, `1d6*10+1d6` for a d66; `1dN` over the weights of a weighted
/// table.
pub fn formula(table: &Table) -> String {
    match table.dice.as_deref() {
        Some(d) => common_dice(d),
        None => {
            let total: u64 = table.rows.iter().map(|r| r.entry.weight.unwrap_or(1)).sum();
            format!("1d{total}")
        }
    }
}

/// A table die in the notation most rollers share.
fn common_dice(dice: &str) -> String {
    let d = dice.trim();
    if d.eq_ignore_ascii_case("d66") {
        return "1d6*10+1d6".into();
    }
    if d.starts_with(['d', 'D']) {
        return format!("1{d}");
    }
    d.to_owned()
}

/// A piece of a row's raw text: plain words (with `{{`/`}}` as written)
/// or one `{…}` placeholder, with what is inside its braces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    Plain(&'a str),
    Braced(&'a str),
}

/// Split a row's raw text into plain runs and placeholders, without
/// reading them (a validated row always splits cleanly; an unclosed brace
/// is left as plain text).
pub(crate) fn pieces(text: &str) -> Vec<Piece<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut plain) = (0, 0);
    while i < bytes.len() {
        let doubled = bytes.get(i + 1) == Some(&bytes[i]);
        if (bytes[i] == b'{' || bytes[i] == b'}') && doubled {
            i += 2;
            continue;
        }
        if bytes[i] != b'{' {
            i += 1;
            continue;
        }
        let mut depth = 0usize;
        let end = (i..bytes.len()).find(|&j| {
            match bytes[j] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            depth == 0
        });
        let Some(end) = end else { break };
        if plain < i {
            out.push(Piece::Plain(&text[plain..i]));
        }
        out.push(Piece::Braced(&text[i + 1..end]));
        i = end + 1;
        plain = i;
    }
    if plain < text.len() {
        out.push(Piece::Plain(&text[plain..]));
    }
    out
}

/// Block ids for tables, unique and well formed (lowercase letters,
/// digits and single dashes): `core.injury` is `core-injury`; a clash
/// gets `-2`, `-3`…
pub fn block_ids<'a>(ids: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, String> {
    let mut taken = std::collections::BTreeSet::new();
    let mut out = BTreeMap::new();
    for id in ids {
        let mut base = String::new();
        for c in id.chars().flat_map(char::to_lowercase) {
            if c.is_ascii_alphanumeric() {
                base.push(c);
            } else if !base.is_empty() && !base.ends_with('-') {
                base.push('-');
            }
        }
        let base = base.trim_end_matches('-');
        let base = if base.is_empty() { "table" } else { base }.to_owned();
        let mut candidate = base.clone();
        let mut n = 2;
        while !taken.insert(candidate.clone()) {
            candidate = format!("{base}-{n}");
            n += 1;
        }
        out.insert(id.to_owned(), candidate);
    }
    out
}

/// A short name for a row that has none: the first words of its text
/// (at most 40 characters), or `fallback`. A point between digits
/// (`1.5 hours`) does not end the words.
pub(crate) fn derived_name(plain: &str, fallback: &str) -> String {
    let first = sentences(plain, false).into_iter().next().unwrap_or("");
    let name = short_words(first);
    if name.is_empty() {
        fallback.to_owned()
    } else {
        name
    }
}

/// The pieces of `text` between stops (`.` `;` `:` `!` `?`, a new line,
/// and with `commas` a comma), trimmed, the empty ones left out. A point
/// between digits (`1.5 hours`) is not a stop.
fn sentences(text: &str, commas: bool) -> Vec<&str> {
    let bytes = text.as_bytes();
    let digit = |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_some_and(u8::is_ascii_digit);
    let stop = |i: usize, c: char| match c {
        '.' => !(digit(i.checked_sub(1)) && digit(Some(i + 1))),
        ',' => commas,
        ';' | ':' | '!' | '?' | '\n' => true,
        _ => false,
    };
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if stop(i, c) {
            out.push(&text[start..i]);
            start = i + 1;
        }
    }
    out.push(&text[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// The first whole words of `text` within 40 characters, without a
/// dangling comma, bracket or dash. A choice too long for the room left
/// keeps the options that fit (`benefactor/patron`); where words were cut
/// off, the small words that only lead into them go too (`toward the`).
fn short_words(text: &str) -> String {
    let mut name = String::new();
    let mut cut = false;
    for word in text.split_whitespace() {
        let room = 39usize.saturating_sub(name.chars().count());
        let piece = if word.chars().count() <= room {
            Some(word)
        } else {
            cut = true;
            options_within(word, room)
        };
        let Some(piece) = piece else { break };
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(piece);
        if cut {
            break;
        }
    }
    if let Some(open) = first_unclosed(&name) {
        name.truncate(open);
        cut = true;
    }
    let name = trim_dangling(&name);
    if cut { without_lead_ins(name) } else { name }.to_owned()
}

/// The first options of a choice written `a/b/c` that fit in `room`
/// characters, if one does.
fn options_within(word: &str, room: usize) -> Option<&str> {
    word.match_indices('/')
        .map(|(i, _)| &word[..i])
        .rfind(|p| !p.is_empty() && p.chars().count() <= room)
}

/// `name` without a comma, bracket, dash, slash or space at either end.
fn trim_dangling(name: &str) -> &str {
    name.trim_matches(|c: char| matches!(c, ',' | '(' | '-' | '/') || c.is_whitespace())
}

/// Words that lead into what follows them: a name cut after one reads as
/// a fragment (`grudge against the`).
const LEAD_INS: [&str; 47] = [
    "a", "about", "against", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "each", "every", "for", "from", "had", "has", "have", "her", "his", "if", "in", "into", "is",
    "its", "my", "nor", "of", "on", "onto", "or", "our", "some", "than", "that", "the", "their",
    "this", "to", "toward", "towards", "was", "were", "with", "your",
];

/// A cut name without the lead-in words at its end (one word is always
/// kept).
fn without_lead_ins(mut name: &str) -> &str {
    while let Some((before, last)) = name.rsplit_once(' ') {
        let word = last
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        if !LEAD_INS.contains(&word.as_str()) {
            break;
        }
        name = trim_dangling(before);
    }
    name
}

/// Where a name is cut so that no bracket is left open: the first `(`
/// with no `)` to close it that has words before it (a name that opens
/// with brackets loses them when it is trimmed), or `None`.
fn first_unclosed(name: &str) -> Option<usize> {
    let mut open = Vec::new();
    for (i, c) in name.char_indices() {
        match c {
            '(' => open.push(i),
            ')' => drop(open.pop()),
            _ => {}
        }
    }
    let words_before = |&i: &usize| {
        !name[..i]
            .trim_matches(|c: char| c == '(' || c.is_whitespace())
            .is_empty()
    };
    open.into_iter().find(words_before)
}

/// Names made distinct where they were taken from the rows' text
/// (`derived[i]`: the row's plain text and its roll; `None` for a name the
/// table gave, which is left alone). A name several rows share is taken
/// from more of the text (`Golem: Clay`), and if still shared, given the
/// roll (`Golem (1-5)`).
pub(crate) fn distinct_names(names: &mut [String], derived: &[Option<(String, String)>]) {
    for pass in 0..2 {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for n in names.iter() {
            *seen.entry(n.clone()).or_default() += 1;
        }
        for (name, d) in names.iter_mut().zip(derived) {
            let Some((plain, roll)) = d else { continue };
            if seen[name.as_str()] < 2 {
                continue;
            }
            *name = match pass {
                0 => longer_name(plain).unwrap_or_else(|| name.clone()),
                _ => format!("{name} ({roll})"),
            };
        }
    }
}

/// A name from the first two pieces of a text (`Golem:Clay ,Time:30 days`
/// gives `Golem: Clay`), when it has two.
fn longer_name(plain: &str) -> Option<String> {
    let pieces = sentences(plain, true);
    let (first, second) = (pieces.first()?, pieces.get(1)?);
    Some(short_words(&format!("{first}: {second}"))).filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests;
