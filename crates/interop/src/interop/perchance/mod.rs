//! Perchance generator text (`.perchance`, or `--from perchance`), read
//! into a [`Sheet`], and written by `export --format perchance` ([`write`]).
//!
//! A generator is read line by line into a tree ([`tree`]): an unindented
//! name opens a list, each level of indentation (a tab, or the two or
//! four spaces the list's first indented line uses) is a child of the line
//! above, `key = value` is a property and `$output = …` a list's output.
//! Then every list and sublist is a weighted table, as Perchance picks:
//! each item with its `^N` weight (1 when none; decimals made whole
//! numbers with the same ratios; weight 0 never comes up); a sublist is a
//! row `{table:…}` rolling on its own table, since Perchance picks the
//! sublist first and then one of its items; a list with `$output` is one
//! row, its output. Properties are not picked: an item with only
//! properties under it prints its own text (as on perchance.org), and a
//! property is reached by its path, `[list.item.property]`. A top-level
//! property is a table only when text refers to it or it is the
//! generator's entry (`$output`, else `output`): the rest are page
//! settings (`title`, `fontSize`…), left out and counted. An item's text is
//! read by [`text`].
//!
//! Everything is bounded by [`super::sheet`]'s limits, and each line and
//! each text is read once, so a file is read in time linear in its length.

mod evaluated;
mod steps;
mod text;
mod tree;
mod vars;
pub mod write;

use std::collections::BTreeMap;

use super::sheet::{self, Frag, Refusal, Sheet, SrcRow, SrcTable};
use tree::{Tree, Weight};

/// The first line of a file `export --format perchance` writes: each list
/// is then under a `// Title (id)` comment, and keeps that id.
pub const OWN_MARK: &str = "// Exported by tablewright";

/// The hint of every refusal of a construct Perchance's JavaScript runs.
pub const JS_HINT: &str = "tablewright carries lists, [list] references, {a|b} choices, {1-6} ranges and ^N weights: rewrite this with those, or import the rest with --skip-unsupported";

/// Top-level lists perchance.org shows on the generator's page, not in
/// what it generates (its template's `description` holds
/// `[this.joinItems(…)]`): left out unless text refers to them.
pub const PAGE_LISTS: &[&str] = &["title", "subtitle", "description"];

/// Most bytes of text all the rows made for variables (and the checks
/// of `joinLists` variables) may read, so a file is read in time linear
/// in its length.
const MAX_WORK: usize = 8_000_000;

/// Most weight one table's rows may add up to (weights scaled to whole
/// numbers stay exact below it).
const MAX_TOTAL: u128 = 1_000_000_000_000_000;

/// Read a Perchance generator.
pub fn read(file: &str, stem: &str, text: &str) -> Sheet {
    let tree = Tree::read(text);
    let stem = stem.strip_suffix(".perchance").unwrap_or(stem).to_owned();
    let mut maker = Maker::new(&tree, &stem);
    maker.assign();
    maker.fill();
    maker.fill_copies();
    let mut sheet = Sheet {
        file: file.to_owned(),
        stem,
        own_ids: tree.own,
        refused: tree.refused.clone(),
        ..Sheet::default()
    };
    let unread = maker.unread_properties();
    if unread > 0 {
        sheet.counts.insert(
            "top-level properties no text refers to (page settings) left out",
            unread,
        );
    }
    let page = maker.unread_page_lists();
    if page > 0 {
        sheet.counts.insert(
            "page lists (`description`…) no text refers to left out: perchance.org shows them beside the generator, not in its results",
            page,
        );
    }
    for (what, n) in std::mem::take(&mut maker.counts) {
        sheet.counts.insert(what, n);
    }
    sheet.tables = maker.tables;
    for t in &mut sheet.tables {
        t.refused.sort_by_key(|r| (r.line, r.column));
        t.refused.dedup();
    }
    // perchance.org shows its results as HTML: a tag is the words it
    // marks (a file `export` wrote holds none of its own).
    if !tree.own {
        let tags = super::ipt_html::plain(&mut sheet);
        if tags > 0 {
            let what = "HTML tags (`<p>`, `<b>`, `<a>`…) made plain text (`<p>`, `<br>` a new line): perchance.org shows them as its page's markup";
            *sheet.counts.entry(what).or_default() += tags;
        }
    }
    sheet
}

/// The tables of a generator, made list by list.
pub(super) struct Maker<'t> {
    pub tree: &'t Tree<'t>,
    stem: String,
    /// The table of each node that has one.
    pub table_of: BTreeMap<usize, usize>,
    pub tables: Vec<SrcTable>,
    /// Property tables made on demand, still to fill.
    pending: Vec<usize>,
    pub counts: BTreeMap<&'static str, usize>,
    /// The list whose `$output` is being read (`this` in it).
    pub this: Option<usize>,
    /// Items `[this.joinItems(…)]` has joined so far (bounded as rows).
    pub joined: usize,
    /// Whether a text with a variable is being filled in ([`vars`]): a
    /// second variable in it is not carried.
    pub in_var: bool,
    /// Bytes the rows made for variables have read so far (bounded).
    pub work: usize,
    /// Copies `[list.sentenceCase]` makes, filled once every list is
    /// ([`steps`]).
    pub copies: Vec<steps::Copy>,
    /// The table made for each `joinLists(…)` of these lists.
    pub joins: BTreeMap<Vec<usize>, usize>,
    /// Whether each variable `joinLists(…)` is set to is only ever set.
    pub set_only: BTreeMap<String, bool>,
}

impl<'t> Maker<'t> {
    fn new(tree: &'t Tree<'t>, stem: &str) -> Self {
        Maker {
            tree,
            stem: stem.to_owned(),
            table_of: BTreeMap::new(),
            tables: Vec::new(),
            pending: Vec::new(),
            counts: BTreeMap::new(),
            this: None,
            joined: 0,
            in_var: false,
            work: 0,
            copies: Vec::new(),
            joins: BTreeMap::new(),
            set_only: BTreeMap::new(),
        }
    }

    pub(super) fn count(&mut self, what: &'static str) {
        *self.counts.entry(what).or_default() += 1;
    }

    /// A table for node `n` (its rows filled later).
    fn open(&mut self, n: usize) -> usize {
        let node = &self.tree.nodes[n];
        let path = self.tree.path(n);
        let (name, title) = match &node.own {
            Some((id, title)) if self.tree.own => (id.clone(), Some(title.clone())),
            _ if self.tree.own => (
                format!(
                    "imported.{}.{}",
                    super::draft::slug(&self.stem),
                    super::draft::slug(&path)
                ),
                Some(path.clone()),
            ),
            _ => (path, None),
        };
        self.tables.push(SrcTable {
            name,
            title,
            line: node.line,
            ..SrcTable::default()
        });
        let t = self.tables.len() - 1;
        self.table_of.insert(n, t);
        t
    }

    /// Every list and sublist gets its table, in the file's order, and
    /// the generator's entry if it is a property.
    fn assign(&mut self) {
        let mut stack: Vec<usize> = self.tree.nodes[0].children.iter().rev().copied().collect();
        while let Some(n) = stack.pop() {
            if self.tables.len() >= sheet::MAX_TABLES {
                break;
            }
            let node = &self.tree.nodes[n];
            // A file `export` wrote: its `$output` only rolls the first
            // list, and a sum of dice's list is read back as the roll.
            let own_entry = self.tree.own && node.prop && node.own.is_none();
            let entry = Some(n) == self.tree.entry() && !own_entry;
            if self.is_page_list(n) && !entry {
                continue;
            }
            if (self.tree.is_list(n) && node.dice.is_none()) || entry {
                self.open(n);
            }
            stack.extend(self.tree.nodes[n].children.iter().rev());
        }
    }

    /// The table of node `n` (a list, or a property referred to), made now
    /// if it has none.
    pub(super) fn table_for(&mut self, n: usize) -> Option<usize> {
        if let Some(&t) = self.table_of.get(&n) {
            return Some(t);
        }
        if self.tables.len() >= sheet::MAX_TABLES {
            return None;
        }
        let t = self.open(n);
        self.pending.push(n);
        Some(t)
    }

    /// The name of a table made for a choice on line `line`.
    pub(super) fn extra_name(&self, line: usize) -> String {
        self.extra_name_for(&format!("choice on line {line}"))
    }

    /// The name of a table the reader makes, from what it is for.
    pub(super) fn extra_name_for(&self, name: &str) -> String {
        if self.tree.own {
            format!(
                "imported.{}.{}",
                super::draft::slug(&self.stem),
                super::draft::slug(name)
            )
        } else {
            name.to_owned()
        }
    }

    /// A table the reader makes for an inline choice; its place.
    pub(super) fn extra(&mut self, table: SrcTable) -> Option<usize> {
        if self.tables.len() >= sheet::MAX_TABLES {
            return None;
        }
        self.tables.push(table);
        Some(self.tables.len() - 1)
    }

    fn fill(&mut self) {
        let made: Vec<(usize, usize)> = self.table_of.iter().map(|(&n, &t)| (n, t)).collect();
        for (n, t) in made {
            self.rows(n, t);
        }
        while let Some(n) = self.pending.pop() {
            let t = self.table_of[&n];
            self.rows(n, t);
        }
    }

    /// The rows of node `n`'s table `t`.
    fn rows(&mut self, n: usize, t: usize) {
        let tree = self.tree;
        let node = &tree.nodes[n];
        let mut refused = node.refused.clone();
        let mut rows = Vec::new();
        if let Some(o) = tree.output_of(n).or(node.prop.then_some(n)) {
            let src = &tree.nodes[o];
            self.this = (o != n).then_some(n);
            let (frags, mut r) = convert(self, src.line, src.at, &src.value);
            self.this = None;
            refused.append(&mut r);
            rows.push(row(None, frags, src.line));
        } else {
            self.children(n, &mut rows, &mut refused);
        }
        let table = &mut self.tables[t];
        table.rows = rows;
        table.refused.append(&mut refused);
    }

    /// A list's children as weighted rows.
    fn children(&mut self, n: usize, rows: &mut Vec<SrcRow>, refused: &mut Vec<Refusal>) {
        let kids = self.kids(n);
        self.item_rows(n, &kids, rows, refused);
    }

    /// The items of list `n` (its children that are not properties).
    pub(super) fn kids(&self, n: usize) -> Vec<usize> {
        let tree = self.tree;
        tree.nodes[n]
            .children
            .iter()
            .copied()
            .filter(|&c| !tree.nodes[c].prop)
            .collect()
    }

    /// Items `kids` as weighted rows of one table, their weights taken
    /// together; refused at list `n` (whose name messages give).
    pub(super) fn item_rows(
        &mut self,
        n: usize,
        kids: &[usize],
        rows: &mut Vec<SrcRow>,
        refused: &mut Vec<Refusal>,
    ) {
        let tree = self.tree;
        let node = &tree.nodes[n];
        let weights: Vec<&Weight> = kids.iter().map(|&c| &tree.nodes[c].weight).collect();
        let Some(whole) = whole(&weights) else {
            refused.push(Refusal::new(
                node.line,
                1,
                format!(
                    "the weights of `{}` add up to more than tablewright keeps exactly",
                    node.name
                ),
                "use smaller weights, or import the rest with --skip-unsupported",
            ));
            return;
        };
        for (&c, w) in kids.iter().zip(whole) {
            let child = &tree.nodes[c];
            let frags = if tree.is_list(c) {
                match self.table_for(c) {
                    Some(t) => vec![Frag::Local(t)],
                    None => Vec::new(),
                }
            } else {
                let (f, mut r) = convert(self, child.line, child.at, &child.value);
                refused.append(&mut r);
                f
            };
            match w {
                Some(w) => {
                    let mut r = row(Some(w), frags, child.line);
                    r.name = tree.is_list(c).then(|| child.name.clone());
                    rows.push(r);
                }
                None => self.count("items of weight 0 (they never come up) left out"),
            }
        }
        if rows.is_empty() && refused.is_empty() {
            let what = if kids.is_empty() {
                format!("the list `{}` has no items", node.name)
            } else {
                format!(
                    "every item of `{}` has weight 0 (Perchance engines differ on what comes up then)",
                    node.name
                )
            };
            refused.push(Refusal::new(
                node.line,
                node.at + 1,
                what,
                "give it an item that can come up, or import the rest with --skip-unsupported",
            ));
        }
    }

    /// A top-level list of [`PAGE_LISTS`] (its items are read only when
    /// text refers to it).
    fn is_page_list(&self, n: usize) -> bool {
        let node = &self.tree.nodes[n];
        !self.tree.own && node.parent == 0 && !node.prop && PAGE_LISTS.contains(&node.name.as_str())
    }

    /// Page lists no text refers to.
    fn unread_page_lists(&self) -> usize {
        self.tree.nodes[0]
            .children
            .iter()
            .filter(|&&c| self.is_page_list(c) && !self.table_of.contains_key(&c))
            .count()
    }

    /// Top-level properties no text refers to and not the entry.
    fn unread_properties(&self) -> usize {
        self.tree.nodes[0]
            .children
            .iter()
            .filter(|&&c| self.tree.nodes[c].prop && !self.table_of.contains_key(&c))
            .count()
    }
}

fn row(weight: Option<u64>, text: Vec<Frag>, line: usize) -> SrcRow {
    SrcRow {
        range: None,
        weight: Some(weight.unwrap_or(1)),
        text,
        name: None,
        line,
    }
}

/// Weights made whole numbers with the same ratios (`^0.5`, `^1`, `^2`
/// are 1, 2, 4), `None` for a weight of 0; `None` for all when their sum
/// is too large to keep exactly.
pub fn whole(weights: &[&Weight]) -> Option<Vec<Option<u64>>> {
    let scale = weights
        .iter()
        .map(|w| match w {
            Weight::Num(_, _, s) => *s,
            Weight::One => 0,
        })
        .max()
        .unwrap_or(0);
    let raw: Vec<u128> = weights
        .iter()
        .map(|w| match w {
            Weight::Num(i, f, s) => {
                u128::from(*i) * 10u128.pow(scale) + u128::from(*f) * 10u128.pow(scale - s)
            }
            Weight::One => 10u128.pow(scale),
        })
        .collect();
    let g = raw.iter().fold(0u128, |a, &b| gcd(a, b)).max(1);
    let mut total = 0u128;
    for w in &raw {
        total = total.saturating_add(w / g);
    }
    if total > MAX_TOTAL {
        return None;
    }
    Some(
        raw.iter()
            .map(|&w| (w > 0).then(|| (w / g) as u64))
            .collect(),
    )
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Read `text`, which starts at byte `at` of line `line`: its pieces, and
/// what in it is refused; a set-once variable in it carried as a table
/// ([`vars::expand`]), the rest read by [`text::plain`].
fn convert(m: &mut Maker, line: usize, at: usize, text: &str) -> (Vec<Frag>, Vec<Refusal>) {
    match vars::expand(m, line, at, text) {
        Some(expanded) => expanded,
        None => text::plain(m, line, at, text),
    }
}

#[cfg(test)]
mod tests;
