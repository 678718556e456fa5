//! The encounter's zone diagram as a [`Drawing`]: METTLE Quick Zones as
//! three boxes side by side (left flank, the middle, right flank), or ACS
//! range bands as a centre (Close) with two to four arms of Short, Medium
//! and Long boxes. Each zone lists who starts there (in one run of names,
//! numbered foes of one kind collapsed: `Marsh leech 1–8`) and the keys of
//! the terrain tiles (`T1 CLATTER`) and sporadics (`S1 Walls`) placed in
//! it; whole-field tiles go in a line underneath. [`keyed`] gives the same keys with the
//! tiles, so a sheet can print each tile's rules beside the diagram.
//! Boxes grow to hold their lines: text is never set below 8 pt.

use crate::generators::encounter::{Encounter, Placed, WHOLE_FIELD};
use crate::page::{Anchor, Drawing, Shape, text_width};

/// Width of the diagram in the Markdown pack's SVG files.
pub(crate) const SVG_WIDTH: f64 = 520.0;

/// Size of the lines inside a zone box (never shrunk).
const TEXT: f64 = 8.5;
/// Size of a zone box's title.
const TITLE: f64 = 9.0;
const LINE: f64 = TEXT * 1.25;
const PAD: f64 = 5.0;

fn label(x: f64, y: f64, size: f64, bold: bool, text: &str) -> Shape {
    Shape::Text {
        x,
        y,
        size,
        anchor: Anchor::Middle,
        bold,
        halo: false,
        text: text.to_owned(),
    }
}

/// Every tile (both sides' cards, in order) and sporadic with its key:
/// `T1`, `T2`, … and `S1`, `S2`, ….
pub(crate) fn keyed(e: &Encounter) -> Vec<(String, &Placed)> {
    let tiles = e.terrain_cards.iter().flat_map(|d| &d.tiles);
    let mut out: Vec<(String, &Placed)> = tiles
        .enumerate()
        .map(|(i, t)| (format!("T{}", i + 1), t))
        .collect();
    out.extend(
        e.sporadics
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("S{}", i + 1), s)),
    );
    out
}

/// Names that differ only by a trailing number, collapsed: `Marsh leech 1`
/// … `Marsh leech 8` → `Marsh leech 1–8`.
fn collapse(names: &[String]) -> Vec<String> {
    let mut out: Vec<(String, Vec<u32>)> = Vec::new();
    for n in names {
        let split = n
            .rsplit_once(' ')
            .and_then(|(base, k)| k.parse::<u32>().ok().map(|k| (base.to_owned(), k)));
        match split {
            Some((base, k)) => match out.iter_mut().find(|(b, ks)| *b == base && !ks.is_empty()) {
                Some((_, ks)) => ks.push(k),
                None => out.push((base, vec![k])),
            },
            None => out.push((n.clone(), Vec::new())),
        }
    }
    out.into_iter()
        .map(|(base, ks)| match ks.as_slice() {
            [] => base,
            [k] => format!("{base} {k}"),
            [a, .., b] => format!("{base} {a}–{b}"),
        })
        .collect()
}

/// What a benny on a tile means (the ACS rules), said wherever one is.
pub(crate) const BENNY: &str = "(benny): the tile starts with a benny; whoever ignores the tile for one action (it has no effect on that action) hands the benny to the other side";

/// Who starts in a zone (one run of names, `Viktor, Kirin, Marsh leech
/// 1–3, Bandit ×6`, wrapped to the box between names, never inside one)
/// and the keys of what lies in it, a line each.
fn contents(e: &Encounter, zone: &str) -> (Vec<String>, Vec<String>) {
    let starts = e
        .layout
        .zones
        .iter()
        .find(|z| z.name == zone)
        .map(|z| z.starts.clone())
        .unwrap_or_default();
    let names = collapse(&by_kind(e, &starts));
    let mut lines = Vec::new();
    for (key, p) in keyed(e) {
        if p.at == zone {
            let benny = if p.benny { " (benny)" } else { "" };
            lines.push(format!("{key} {}{benny}", p.name));
        }
    }
    (names, lines)
}

/// Named foes of one kind, three or more, who all start in this zone, as
/// one entry: `Bandit ×6` (numbered foes keep their numbers, which the
/// sheet's tracks use: see [`collapse`]).
fn by_kind(e: &Encounter, starts: &[String]) -> Vec<String> {
    let kind_of = |name: &str| {
        e.foes
            .iter()
            .find(|n| n.name == name && !n.name.ends_with(|c: char| c.is_ascii_digit()))
            .map(|n| n.archetype.as_str())
    };
    let mut out: Vec<String> = Vec::new();
    for name in starts {
        let Some(kind) = kind_of(name) else {
            out.push(name.clone());
            continue;
        };
        let all = e.foes.iter().filter(|n| n.archetype == kind).count();
        let here = starts.iter().filter(|s| kind_of(s) == Some(kind)).count();
        if all < 3 || here < all {
            out.push(name.clone());
            continue;
        }
        let entry = format!("{} ×{all}", crate::generators::display_name(kind));
        if !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}

/// Whether `text` fits `width` at `size`: an estimate from the average
/// glyph width (generous for DejaVu Serif), or the real width where that is
/// more (a CJK or kana name, whose glyphs are a full em wide).
fn fits(text: &str, size: f64, width: f64) -> bool {
    let real = super::chart::fonts().width(text, size, false);
    (text_width(text, size) * 1.1).max(real) <= width
}

/// `text` broken into lines that fit `width` at `size`, between words.
fn wrap(text: &str, size: f64, width: f64) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    pack_lines(&words, " ", size, width)
}

/// Names run together (`Viktor, Η Ελένη, Bandit ×6`) and broken into lines
/// that fit `width` at `size` only after a comma: a name is never split,
/// and one wider than the box gets a line of its own.
fn wrap_names(names: &[String], size: f64, width: f64) -> Vec<String> {
    let last = names.len().saturating_sub(1);
    let items: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| if i < last { format!("{n},") } else { n.clone() })
        .collect();
    let items: Vec<&str> = items.iter().map(String::as_str).collect();
    pack_lines(&items, " ", size, width)
}

/// `items` joined by `sep` into as few lines as fit `width`, in order; an
/// item is never broken.
fn pack_lines(items: &[&str], sep: &str, size: f64, width: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for &word in items {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line}{sep}{word}")
        };
        if fits(&candidate, size, width) || line.is_empty() {
            line = candidate;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A zone's title and lines wrapped to a box `w` wide.
struct ZoneText {
    title: Vec<String>,
    lines: Vec<String>,
}

impl ZoneText {
    fn new(title: &str, (names, lines): &(Vec<String>, Vec<String>), w: f64) -> ZoneText {
        let inner = w - 2.0 * PAD;
        let mut wrapped = wrap_names(names, TEXT, inner);
        wrapped.extend(lines.iter().flat_map(|l| wrap(l, TEXT, inner)));
        ZoneText {
            title: wrap(title, TITLE, inner),
            lines: wrapped,
        }
    }

    /// Height the box needs for all its text.
    fn height(&self) -> f64 {
        PAD + self.title.len() as f64 * TITLE * 1.25 + 3.0 + self.lines.len() as f64 * LINE + PAD
    }
}

fn zone_box(shapes: &mut Vec<Shape>, (x, y): (f64, f64), (w, h): (f64, f64), text: &ZoneText) {
    shapes.push(Shape::Rect {
        x,
        y,
        w,
        h,
        filled: false,
        width: 1.0,
    });
    let mut base = y + PAD + TITLE;
    for t in &text.title {
        shapes.push(label(x + w / 2.0, base, TITLE, true, t));
        base += TITLE * 1.25;
    }
    base += 3.0;
    for l in &text.lines {
        shapes.push(label(x + w / 2.0, base, TEXT, false, l));
        base += LINE;
    }
}

/// Draw an encounter's zones, `width` points wide (drawn at that size, so
/// its text stays at its size).
pub(crate) fn draw(e: &Encounter, width: f64) -> Drawing {
    draw_styled(e, width, Style::default())
}

/// How a sheet short of room draws the diagram.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Style {
    /// Leave out the line explaining the keys (`T: terrain tile, …`).
    pub no_key: bool,
    /// Range-band rows only as tall as their text (else at least 44 pt,
    /// room to write in).
    pub compact: bool,
}

/// [`draw`] in a [`Style`].
pub(crate) fn draw_styled(e: &Encounter, width: f64, style: Style) -> Drawing {
    let mut shapes = Vec::new();
    let height = if e.layout.kind == "quick zones" {
        quick_zones(e, width, &mut shapes)
    } else {
        range_bands(e, width, style.compact, &mut shapes)
    };
    let height = footer(e, (width, height), !style.no_key, &mut shapes);
    Drawing {
        width,
        height,
        shapes,
    }
}

/// METTLE Quick Zones: three boxes side by side, as tall as the fullest.
/// Returns the height used.
fn quick_zones(e: &Encounter, width: f64, shapes: &mut Vec<Shape>) -> f64 {
    let gap = 12.0;
    let w = (width - 2.0 * gap) / 3.0;
    let names = ["Left flank", "The middle", "Right flank"];
    let texts: Vec<ZoneText> = names
        .iter()
        .map(|n| ZoneText::new(n, &contents(e, n), w))
        .collect();
    let h = texts.iter().map(ZoneText::height).fold(60.0, f64::max);
    for (i, t) in texts.iter().enumerate() {
        let x = i as f64 * (w + gap);
        zone_box(shapes, (x, 0.0), (w, h), t);
        if i > 0 {
            let mid = h / 2.0;
            shapes.push(Shape::line((x - gap, mid), (x, mid), 1.0, false));
        }
    }
    h
}

/// ACS range bands: the centre, with each arm as a row of Short, Medium and
/// Long boxes to its right. Returns the height used.
fn range_bands(e: &Encounter, width: f64, compact: bool, shapes: &mut Vec<Shape>) -> f64 {
    let arms: Vec<u32> = (1..=4)
        .filter(|a| {
            e.layout
                .zones
                .iter()
                .any(|z| z.name.starts_with(&format!("Arm {a}:")))
        })
        .collect();
    let gap = 10.0;
    let (row_gap, min_h) = if compact { (6.0, 0.0) } else { (gap, 44.0) };
    let w = (width - 3.0 * gap) / 4.0;
    let bands = ["Short", "Medium", "Long"];
    let rows: Vec<Vec<ZoneText>> = arms
        .iter()
        .map(|arm| {
            bands
                .iter()
                .map(|band| {
                    let name = format!("Arm {arm}: {band}");
                    ZoneText::new(&name, &contents(e, &name), w)
                })
                .collect()
        })
        .collect();
    let row_h: Vec<f64> = rows
        .iter()
        .map(|r| r.iter().map(ZoneText::height).fold(min_h, f64::max))
        .collect();
    let centre_name = "Close: the centre";
    let centre = ZoneText::new(centre_name, &contents(e, centre_name), w);
    let mut total: f64 = row_h.iter().sum::<f64>() + row_gap * (row_h.len().max(1) - 1) as f64;
    total = total.max(centre.height());
    zone_box(shapes, (0.0, 0.0), (w, total), &centre);
    let mut y = 0.0;
    for (r, texts) in rows.iter().enumerate() {
        let h = row_h[r];
        for (b, t) in texts.iter().enumerate() {
            let x = (b + 1) as f64 * (w + gap);
            zone_box(shapes, (x, y), (w, h), t);
        }
        let mid = y + h / 2.0;
        shapes.push(Shape::line((w, mid), (w + gap, mid), 1.0, false));
        y += h + row_gap;
    }
    total
}

/// Under the zones: the whole-field tiles and the key. Returns the
/// drawing's full height.
fn footer(
    e: &Encounter,
    (width, height): (f64, f64),
    explain: bool,
    shapes: &mut Vec<Shape>,
) -> f64 {
    let field: Vec<String> = keyed(e)
        .into_iter()
        .filter(|(_, p)| p.at == WHOLE_FIELD)
        .map(|(k, p)| format!("{k} {}", p.name))
        .collect();
    let mut y = height + 4.0;
    let mut parts = Vec::new();
    if !field.is_empty() {
        parts.push(format!("Whole field: {}", field.join(", ")));
    }
    if explain {
        parts.push("T: terrain tile, S: sporadic".into());
    }
    if keyed(e).iter().any(|(_, p)| p.benny) {
        parts.push(BENNY.into());
    }
    let line = parts.join(" · ");
    for l in wrap(&line, TEXT, width) {
        y += LINE;
        shapes.push(Shape::Text {
            x: 0.0,
            y,
            size: TEXT,
            anchor: Anchor::Start,
            bold: false,
            halo: false,
            text: l,
        });
    }
    y + 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names_collapse_to_a_range() {
        let names: Vec<String> = ["Viktor", "Marsh leech 1", "Marsh leech 2", "Marsh leech 3"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(collapse(&names), ["Viktor", "Marsh leech 1–3"]);
        let one = vec!["Wolf 2".to_owned()];
        assert_eq!(collapse(&one), ["Wolf 2"]);
    }
}
