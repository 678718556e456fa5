//! The atlas pages of a map of more than [`ONE_PAGE`] stops (issue 30):
//! the overview (left out when one tile holds the whole region), a page
//! per detail tile, then the index. The GM's index is the key by number
//! (name, kind and terrain, page and square, hook), an alphabetical index
//! of stops (name → number, page and square) and the paths; the players'
//! is the alphabetical index alone, and their pages show no Difficulty.
//!
//! In a campaign (issue 30, the reveal) the players' atlas draws only the
//! stops the party has visited or heard of and the paths it has
//! travelled, prints only the detail pages that hold a stop it knows, and
//! indexes only those stops; the GM's draws the party's trail over the
//! map and lists it, session by session, after the key.
//!
//! Page numbers are the PDF's own (the footer's): the overview's page is
//! known when the section starts and every tile takes exactly one page.

use crate::generators::map::{Map, Reveal};
use crate::handouts::drawings::chart::View;
use crate::handouts::drawings::chart::atlas::{self, ONE_PAGE, Plan};
use crate::page::layout::Flow;

/// Type size of the headings of the atlas pages, the legend and tables.
const HEADING: f64 = 12.0;
const LEGEND: f64 = 8.0;
const TABLE: f64 = 7.5;
/// Type size of the GM's key, the atlas's longest text: the least the
/// atlas prints (issue 39: 300 stops' key in seven pages, not nine).
const KEY: f64 = 7.0;
/// The label of the ruled lines for notes under a drawing, where the
/// page has room for three or more.
const NOTES: &str = "Notes";
/// Room kept under each drawing for its two legend lines.
const LEGEND_ROOM: f64 = 2.0 * 1.2 * LEGEND + LEGEND * 0.8 + 10.0;

/// Whether a map prints as an atlas rather than one page.
pub(super) fn is_atlas(m: &Map) -> bool {
    m.stops.len() > ONE_PAGE
}

/// The room a tile or the overview has on a page of this paper: the
/// column width, and the height under a heading less the legend.
pub(crate) fn drawing_area(f: &Flow) -> (f64, f64) {
    let mut probe = f.probe();
    probe.new_page();
    probe.heading("Atlas", HEADING);
    // (Each drawing is 2 points wider and taller than its plan: its frame.)
    (
        probe.content_width() - 2.0,
        probe.room_left() - LEGEND_ROOM - 2.0,
    )
}

/// The atlas: overview, tiles, index.
pub(super) fn atlas_pages(f: &mut Flow, m: &Map, view: View) {
    let players = view.players;
    let plan = Plan::new(m, drawing_area(f));
    let who = if players { " (players)" } else { "" };
    f.section_sized(&format!("Atlas{who} · map/1"), HEADING);
    // The tiles printed: every one, but for the players in a campaign only
    // those whose part holds a stop the party knows.
    let tiles: Vec<usize> = (0..plan.count())
        .filter(|&k| {
            !players
                || view.reveal.is_none()
                || m.stops
                    .iter()
                    .any(|s| view.shows_stop(s.id) && plan.tile_of(s.x, s.y) == k)
        })
        .collect();
    // Printed page numbers count from 1: the section's page is the count.
    let first = f.page_count();
    let single = plan.count() == 1;
    let order = tiles.clone();
    let page_of = move |k: usize| {
        let n = order.iter().position(|&t| t == k).unwrap_or(k);
        if single { first + n } else { first + 1 + n }
    };
    let legend = legend_lines(view, m.core_chances());
    if !single {
        let o = atlas::overview(m, &plan, view, &page_of, &tiles);
        f.drawing_scaled(&o, 1.0, 1.0);
        f.para(
            &format!(
                "The whole region: stops by number, each detail page's part outlined with its \
                 page number. Squares are {} regions (about {} km) across: {} gives each stop's \
                 page and square.",
                atlas::SQUARE,
                atlas::SQUARE * 10.0,
                if players {
                    "the index"
                } else {
                    "the key and index"
                }
            ),
            LEGEND,
            false,
        );
        f.note_lines(NOTES, 3);
    }
    for &k in &tiles {
        let title = format!(
            "Atlas{who} p. {}: squares {}",
            page_of(k),
            plan.squares_of(k)
        );
        if single {
            // The section's own page.
        } else {
            f.new_page();
            f.heading(&title, HEADING);
        }
        let t = atlas::tile(m, &plan, k, view, &page_of);
        f.drawing_scaled(&t, 1.0, 1.0);
        for line in &legend {
            f.para(line, LEGEND, false);
        }
        f.note_lines(NOTES, 3);
    }
    index(f, m, &plan, &page_of, view);
}

/// The two lines under each tile.
/// (`core`: the paths show the Core chance of an encounter a watch.)
fn legend_lines(view: View, core: bool) -> [String; 2] {
    let paths = match (view.players, core) {
        (true, _) => {
            "Nd: days on foot (two watches of travel a day); \"to N · p. P\": the path goes on to stop N on page P"
        }
        (false, false) => {
            "DN · Nd: Difficulty · days on foot; dashed: Daunting or worse, thin: Formidable or worse; \"to N · p. P\": on to stop N, page P"
        }
        (false, true) => {
            "x:y · Nd: chance of an encounter a watch · days on foot; dashed: 1:4 or likelier, thin: 1:3 or likelier; \"to N · p. P\": on to stop N, page P"
        }
    };
    let marks = match (view.players, view.reveal.is_some()) {
        (true, true) => {
            "Square mark: the party's stop; ring round a dot: where it is going; small ring: heard of, not yet visited. Only roads travelled are drawn. Tinted edge: the neighbouring page's part."
        }
        (false, true) => {
            "Square mark: the party's stop; ring round a dot: where it is going. Grey band: the party's trail; \"· s2 d9\": session 2 ended there, on day 9. Tinted edge: the neighbouring page's part."
        }
        _ => {
            "Square mark: the start; ring round a dot: the goal. Tinted edge: the neighbouring page's part, shown again."
        }
    };
    [paths.to_owned(), marks.to_owned()]
}

/// The index pages: for the GM the key by number (then, in a campaign,
/// the party's trail), then the index by name and the paths; for the
/// players the index by name (in a campaign, of the stops the party
/// knows).
fn index(f: &mut Flow, m: &Map, plan: &Plan, page_of: &dyn Fn(usize) -> usize, view: View) {
    let players = view.players;
    let place = |i: usize| {
        let s = &m.stops[i];
        format!(
            "p. {} {}",
            page_of(plan.tile_of(s.x, s.y)),
            plan.square(s.x, s.y)
        )
    };
    if !players {
        key(f, m, view, &place);
        if let Some(r) = view.trail() {
            trail_table(f, m, r, TABLE);
        }
    }
    let who = if players { " (players)" } else { "" };
    let title = format!("Index of stops{who} · map/1");
    if players {
        f.section(&title);
    } else {
        // Under the key's last rows when a quarter of the page is left.
        let quarter = page_room(f) / 4.0;
        f.section_here(&title, 16.0, quarter);
    }
    let mut by_name: Vec<usize> = (0..m.stops.len()).filter(|&i| view.shows_stop(i)).collect();
    by_name.sort_by(|&a, &b| {
        m.stops[a]
            .name
            .to_lowercase()
            .cmp(&m.stops[b].name.to_lowercase())
            .then(a.cmp(&b))
    });
    let cells: Vec<String> = by_name
        .iter()
        .map(|&i| {
            let heard = if view.heard(i) { " (heard)" } else { "" };
            format!("{} — {} · {}{heard}", m.stops[i].name, i + 1, place(i))
        })
        .collect();
    // Down the columns, as an index reads: as many columns as fit.
    index_table(f, "stop — number · page and square", &cells);
    if !players {
        // Without the ladder's word (the tiles' legend gives it): five
        // columns a page rather than three.
        let head = if m.core_chances() {
            "path · regions · days · chance"
        } else {
            "path · regions · days · D"
        };
        let cells: Vec<String> = m
            .paths
            .iter()
            .map(|p| {
                format!(
                    "{}–{} · {} · {} · {}",
                    p.a + 1,
                    p.b + 1,
                    p.regions,
                    p.days,
                    p.danger_label()
                )
            })
            .collect();
        index_table(f, head, &cells);
    }
}

/// The GM's key by number: each stop an entry (number, name, kind and
/// terrain, page and square, then its hook), two columns a page, reading
/// down each column — about half the pages of a table a stop a row.
fn key(f: &mut Flow, m: &Map, view: View, place: &dyn Fn(usize) -> String) {
    f.section("Atlas key · map/1");
    let cells: Vec<String> = super::map_rows::key_rows(m, view)
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let (name, what) = r[1].split_once('\n').unwrap_or((&r[1], ""));
            format!("{} {name} — {what} · {}\n{}", r[0], place(i), r[2])
        })
        .collect();
    let head = "# stop — kind, terrain · page and square; hook";
    let rows = in_measured_columns(&cells, 2, f, head, KEY);
    f.table(&[head, head], &rows, &[0.5, 0.5], KEY);
}

/// The room of a whole page of this paper, in points.
fn page_room(f: &Flow) -> f64 {
    let mut probe = f.probe();
    probe.new_page();
    probe.room_left()
}

/// Short cells under `head`, in as many equal columns as fit
/// ([`columns_for`]), reading down each.
fn index_table(f: &mut Flow, head: &str, cells: &[String]) {
    let n = columns_for(cells, head, f);
    f.table(
        &vec![head; n],
        &in_measured_columns(cells, n, f, head, TABLE),
        &vec![1.0 / n as f64; n],
        TABLE,
    );
}

/// How many columns of these cells a page holds side by side (3 to 5):
/// short cells, as the paths are, take more columns and fewer pages.
fn columns_for(cells: &[String], head: &str, f: &Flow) -> usize {
    let widest = cells
        .iter()
        .map(|c| f.text_width(c, TABLE, false))
        .chain([f.text_width(head, TABLE, true)])
        .fold(0.0, f64::max);
    ((f.content_width() / (widest + 8.0)).floor() as usize).clamp(3, 5)
}

/// Cells of differing heights laid out in `n` columns, reading down each
/// column a page at a time: each page takes as many cells as its room
/// holds when they are shared evenly between the columns. (The first page
/// has what is left under the heading; a later one a whole page under the
/// table's repeated header.)
fn in_measured_columns(
    cells: &[String],
    n: usize,
    f: &Flow,
    head: &str,
    size: f64,
) -> Vec<Vec<String>> {
    let width = f.content_width() / n as f64;
    let height = |c: &str| f.cell_height(c, width, size, false);
    let heights: Vec<f64> = cells.iter().map(|c| height(c)).collect();
    let head_h = height(head) + 3.0;
    let whole = page_room(f) - head_h;
    let first = f.room_left() - head_h;
    let mut room = if heights.first().is_some_and(|h| h + 3.0 > first) {
        whole
    } else {
        first
    };
    let (mut rows, mut at) = (Vec::new(), 0);
    while at < cells.len() {
        let take = most_that_fit(&heights[at..], n, room).max(1);
        rows.extend(down_columns(&cells[at..at + take], n));
        at += take;
        room = whole;
    }
    rows
}

/// The most of these cells (by height) whose rows, read down `n` columns,
/// fit in `room` points (each row its tallest cell and 3 points).
fn most_that_fit(heights: &[f64], n: usize, room: f64) -> usize {
    let mut best = 0;
    for k in 1..=heights.len() {
        let down = k.div_ceil(n);
        let used: f64 = (0..down)
            .map(|r| {
                (0..n)
                    .filter(|&c| c * down + r < k)
                    .map(|c| heights[c * down + r])
                    .fold(0.0, f64::max)
                    + 3.0
            })
            .sum();
        if used > room {
            break;
        }
        best = k;
    }
    best
}

/// Cells as rows of `n`, the first `ceil(len / n)` down the first column,
/// and so on.
fn down_columns(cells: &[String], n: usize) -> Vec<Vec<String>> {
    let down = cells.len().div_ceil(n);
    (0..down)
        .map(|r| {
            (0..n)
                .map(|c| cells.get(c * down + r).cloned().unwrap_or_default())
                .collect()
        })
        .collect()
}

/// The party's trail as a table, a row a session: its days and the stops
/// passed, by number and name (the GM's map in a campaign).
pub(super) fn trail_table(f: &mut Flow, m: &Map, r: &Reveal, size: f64) {
    if r.trail.is_empty() {
        return;
    }
    let rows: Vec<Vec<String>> = r
        .trail
        .iter()
        .map(|step| {
            let stops = step.stop_labels(m);
            let walked = if stops.len() == 1 {
                format!("stayed at {}", stops[0])
            } else {
                stops.join(" → ")
            };
            vec![format!("session {}", step.session), step.days(), walked]
        })
        .collect();
    f.table(
        &["the party's trail", "days", "stops passed"],
        &rows,
        &[0.14, 0.12, 0.74],
        size,
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::generators::map::Request;
    use crate::generators::nth;
    use crate::page::pdf::{self, Fonts, Paper};
    use crate::seed::Seed;
    use lopdf::{Document, Object};

    /// A box on a PDF page (y up): left, bottom, right, top.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Ink(f64, f64, f64, f64);

    impl Ink {
        fn overlaps(&self, o: &Ink) -> bool {
            self.0 < o.2 && o.0 < self.2 && self.1 < o.3 && o.1 < self.3
        }
    }

    /// One PDF page read back: each text run (its box from the embedded
    /// font's advance widths, its size, its glyphs) and each stop mark (a
    /// closed shape of curves, or a small stroked and filled square).
    #[derive(Debug, Default)]
    pub(crate) struct ReadPage {
        pub texts: Vec<(Ink, f64, Vec<u16>)>,
        pub marks: Vec<Ink>,
    }

    /// Advance widths (thousandths of an em) by glyph id, per font
    /// resource name, from each Type0 font's `/W` array.
    /// A font resource's name and its glyphs' advance widths.
    type Advances = (Vec<u8>, Vec<(u16, f64)>);

    fn widths(doc: &Document, page: lopdf::ObjectId) -> Vec<Advances> {
        let mut out = Vec::new();
        for (name, font) in doc.get_page_fonts(page).unwrap() {
            let desc = font.get(b"DescendantFonts").unwrap().as_array().unwrap();
            let cid = match &desc[0] {
                Object::Reference(r) => doc.get_dictionary(*r).unwrap(),
                Object::Dictionary(d) => d,
                other => panic!("{other:?}"),
            };
            let w = cid.get(b"W").unwrap().as_array().unwrap();
            let num = |o: &Object| {
                o.as_float()
                    .map(f64::from)
                    .or_else(|_| o.as_i64().map(|i| i as f64))
                    .unwrap()
            };
            let mut list = Vec::new();
            let mut i = 0;
            while i < w.len() {
                let first = num(&w[i]) as u16;
                match &w[i + 1] {
                    Object::Array(ws) => {
                        for (k, v) in ws.iter().enumerate() {
                            list.push((first + k as u16, num(v)));
                        }
                        i += 2;
                    }
                    last => {
                        let (last, v) = (num(last) as u16, num(&w[i + 2]));
                        for g in first..=last {
                            list.push((g, v));
                        }
                        i += 3;
                    }
                }
            }
            out.push((name, list));
        }
        out
    }

    /// Every page of a PDF read back.
    pub(crate) fn read_pdf(bytes: &[u8]) -> Vec<ReadPage> {
        let doc = Document::load_mem(bytes).unwrap();
        let mut pages = Vec::new();
        for (_, id) in doc.get_pages() {
            let fonts = widths(&doc, id);
            let content = lopdf::content::Content::decode(&doc.get_page_content(id)).unwrap();
            let mut page = ReadPage::default();
            let (mut font, mut size, mut at) = (Vec::new(), 0.0, (0.0, 0.0));
            let mut points: Vec<(f64, f64)> = Vec::new();
            let (mut curved, mut rect) = (false, None);
            let f = |o: &Object| -> f64 {
                o.as_float()
                    .map(f64::from)
                    .or_else(|_| o.as_i64().map(|i| i as f64))
                    .unwrap()
            };
            for op in &content.operations {
                let a = &op.operands;
                match op.operator.as_str() {
                    "Tf" => {
                        font = a[0].as_name().unwrap().to_vec();
                        size = f(&a[1]);
                    }
                    "Tm" => at = (f(&a[4]), f(&a[5])),
                    "Tj" => {
                        let bytes = a[0].as_str().unwrap();
                        let glyphs: Vec<u16> = bytes
                            .chunks(2)
                            .map(|c| u16::from_be_bytes([c[0], c[1]]))
                            .collect();
                        let table = &fonts.iter().find(|(n, _)| *n == font).unwrap().1;
                        let advance: f64 = glyphs
                            .iter()
                            .map(|g| table.iter().find(|(k, _)| k == g).map_or(1000.0, |w| w.1))
                            .sum();
                        let w = advance / 1000.0 * size;
                        // The ink of the line: descenders to cap height.
                        let ink = Ink(at.0, at.1 - 0.22 * size, at.0 + w, at.1 + 0.74 * size);
                        page.texts.push((ink, size, glyphs));
                    }
                    "m" => {
                        points = vec![(f(&a[0]), f(&a[1]))];
                        (curved, rect) = (false, None);
                    }
                    "c" => {
                        curved = true;
                        points.extend(a.chunks(2).map(|p| (f(&p[0]), f(&p[1]))));
                    }
                    "l" => points.push((f(&a[0]), f(&a[1]))),
                    "re" => {
                        let (x, y, w, h) = (f(&a[0]), f(&a[1]), f(&a[2]), f(&a[3]));
                        rect = Some(Ink(x, y, x + w, y + h));
                        curved = false;
                    }
                    // Filled and stroked: a ring or dot (curves) or the
                    // start's square; halos and tints are filled only.
                    "b" | "B" | "b*" | "B*" => {
                        if curved {
                            let xs = points.iter().map(|p| p.0);
                            let ys = points.iter().map(|p| p.1);
                            page.marks.push(Ink(
                                xs.clone().fold(f64::MAX, f64::min),
                                ys.clone().fold(f64::MAX, f64::min),
                                xs.fold(f64::MIN, f64::max),
                                ys.fold(f64::MIN, f64::max),
                            ));
                        } else if let Some(r) = rect.filter(|r| r.2 - r.0 < 14.0) {
                            page.marks.push(r);
                        }
                        (curved, rect) = (false, None);
                    }
                    _ => {}
                }
            }
            pages.push(page);
        }
        pages
    }

    /// The atlas of a map alone as a PDF, with the number of its drawing
    /// pages (overview and tiles, before the key or index).
    fn atlas_pdf(m: &Map, players: bool, paper: Paper, fonts: &Fonts) -> (Vec<u8>, usize) {
        let mut f = Flow::new(fonts, paper, "seed test · atlas".into(), false);
        atlas_pages(&mut f, m, View::plain(players));
        let (pages, sections) = f.finish();
        let drawn = sections[1].first_page;
        (
            pdf::document("atlas", paper, &pages, &sections, fonts),
            drawn,
        )
    }

    /// What is wrong with the labels of an atlas's drawing pages, read
    /// from its PDF: texts overlapping texts or stop marks, and the
    /// smallest type size on any page.
    fn label_faults(pages: &[ReadPage], drawn: usize) -> (Vec<String>, f64, usize) {
        let mut bad = Vec::new();
        let mut least = f64::MAX;
        let mut labels = 0;
        for (n, page) in pages.iter().enumerate() {
            for (_, size, _) in &page.texts {
                least = least.min(*size);
            }
            if n >= drawn {
                continue;
            }
            labels += page.texts.len();
            for (k, (a, _, ga)) in page.texts.iter().enumerate() {
                for (b, _, gb) in &page.texts[k + 1..] {
                    if a.overlaps(b) {
                        bad.push(format!(
                            "page {}: text {ga:?} on {gb:?} ({a:?} {b:?})",
                            n + 1
                        ));
                    }
                }
                for m in &page.marks {
                    if a.overlaps(m) {
                        bad.push(format!("page {}: text {ga:?} on a stop {m:?}", n + 1));
                    }
                }
            }
        }
        (bad, least, labels)
    }

    /// The measure can fail: a page drawn with a label on another, a label
    /// on a stop's dot and a 6 pt label is read back with all three found
    /// (the clash of two labels counted once).
    #[test]
    fn the_label_measure_finds_overlaps_and_small_type() {
        use crate::page::{Anchor, Drawing, Shape};
        let fonts = Fonts::load();
        let text = |x: f64, y: f64, size: f64, t: &str| Shape::Text {
            x,
            y,
            size,
            anchor: Anchor::Middle,
            bold: false,
            halo: true,
            text: t.into(),
        };
        let drawing = Drawing {
            width: 300.0,
            height: 200.0,
            shapes: vec![
                text(60.0, 40.0, 7.5, "Ashwick Mill"),
                text(66.0, 43.0, 7.0, "D3 · 1d"),
                Shape::Circle {
                    cx: 200.0,
                    cy: 100.0,
                    r: 3.0,
                    filled: true,
                    width: 0.5,
                },
                text(200.0, 102.0, 7.5, "Kettleby"),
                text(100.0, 160.0, 6.0, "to 9 · p. 3"),
            ],
        };
        let mut f = Flow::new(&fonts, Paper::A4, "seed test".into(), false);
        f.drawing_scaled(&drawing, 1.0, 1.0);
        let (pages, sections) = f.finish();
        let bytes = pdf::document("faults", Paper::A4, &pages, &sections, &fonts);
        let (faults, least, labels) = label_faults(&read_pdf(&bytes), 1);
        assert!(labels >= 5, "five labels and the foot's: {labels}");
        assert_eq!(faults.len(), 2, "{faults:#?}");
        assert!(
            faults.iter().any(|f| f.contains("on a stop")),
            "{faults:#?}"
        );
        assert!(least <= 6.0, "{least}");
    }

    /// Issue 30: over 50 seeds each of regions of 100 and 300 stops, the
    /// GM's and the players' atlas on A4 (and on letter for ten seeds of
    /// each): no text overlaps another or a stop, measured from the PDF's
    /// own text positions, sizes and font widths; no text under 7 pt; at
    /// most 40 pages for the GM's and the players' atlas of 300 stops
    /// together (issue 39: it was 49 on A4 and 50 on letter).
    ///
    /// The seeds are split over four tests so that the test harness can
    /// run them side by side; together they are one 30-second test.
    fn atlas_labels_in(stops: usize, seeds: std::ops::Range<usize>) {
        let library = crate::content::test_library();
        let fonts = Fonts::load();
        let mut bad = Vec::new();
        let (mut least, mut most_pages, mut labels) = (f64::MAX, 0, 0);
        let req = Request {
            stops,
            terrains: Vec::new(),
        };
        for i in seeds {
            let seed = Seed::new(&format!("atlas-{i}")).unwrap();
            let m = nth(&library, &req, &seed, 0).unwrap();
            let papers: &[Paper] = if i < 10 {
                &[Paper::A4, Paper::Letter]
            } else {
                &[Paper::A4]
            };
            for &paper in papers {
                let mut both = 0;
                for players in [false, true] {
                    let (bytes, drawn) = atlas_pdf(&m, players, paper, &fonts);
                    let pages = read_pdf(&bytes);
                    both += pages.len();
                    let (faults, small, n) = label_faults(&pages, drawn);
                    least = least.min(small);
                    labels += n;
                    bad.extend(faults.into_iter().map(|f| {
                        format!("{stops} stops, seed {i}, {paper:?}, players {players}: {f}")
                    }));
                }
                // The GM's and the players' atlas printed together.
                most_pages = most_pages.max(both);
            }
        }
        eprintln!("{labels} texts on drawing pages, least size {least}, most pages {most_pages}");
        assert!(labels > 0, "no text was read back");
        assert!(
            bad.is_empty(),
            "{} overlaps: {:#?}",
            bad.len(),
            &bad[..bad.len().min(30)]
        );
        assert!(least >= 7.0, "a text of {least} pt");
        assert!(
            most_pages <= 40,
            "{most_pages} pages for the GM's and players' atlas of {stops} stops"
        );
    }

    #[test]
    fn atlas_labels_never_overlap_and_never_shrink_below_7_pt_100_stops() {
        atlas_labels_in(100, 0..50);
    }

    #[test]
    fn atlas_labels_never_overlap_and_never_shrink_below_7_pt_300_stops_first() {
        atlas_labels_in(300, 0..12);
    }

    #[test]
    fn atlas_labels_never_overlap_and_never_shrink_below_7_pt_300_stops_second() {
        atlas_labels_in(300, 12..26);
    }

    #[test]
    fn atlas_labels_never_overlap_and_never_shrink_below_7_pt_300_stops_third() {
        atlas_labels_in(300, 26..50);
    }
}
