//! A Perchance generator's lines as a tree: node 0 stands for the file,
//! its children are the top-level lists and properties, and each line
//! indented one level below another is a child of it. What cannot be
//! read as Perchance reads it (indentation that is not whole levels, a
//! line too deep, a weight that is not a number) is refused here, in the
//! table of the list the line belongs to.

use std::collections::BTreeMap;

use crate::interop::sheet::{self, Refusal};

/// An item's `^` weight as written.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Weight {
    #[default]
    One,
    /// `^2.5`: whole part, fraction digits, their count.
    Num(u64, u64, u32),
}

/// A line of the generator.
#[derive(Debug, Default)]
pub struct Node {
    /// A list's name, an item's text, a property's key.
    pub name: String,
    /// An item's text or a property's value (as written).
    pub value: String,
    /// Where `value` starts in its line (bytes).
    pub at: usize,
    pub prop: bool,
    pub line: usize,
    pub weight: Weight,
    pub parent: usize,
    pub children: Vec<usize>,
    /// Refused in the table this node makes (a list), or in its parent's.
    pub refused: Vec<Refusal>,
    /// Id and title from the comment above a list `export` wrote.
    pub own: Option<(String, String)>,
    /// The roll a list `export` wrote for a sum of dice stands for.
    pub dice: Option<String>,
}

/// The tree of a generator.
pub struct Tree<'t> {
    pub lines: Vec<&'t str>,
    pub nodes: Vec<Node>,
    by_name: BTreeMap<(usize, String), usize>,
    /// Lines refused outside any list (they leave the lists alone).
    pub refused: Vec<Refusal>,
    /// The file is one `export` wrote.
    pub own: bool,
}

/// `ident` as Perchance names lists: a letter or `_`, then letters,
/// digits and `_`.
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The line without a `//` comment: one at the start or after a space or
/// tab (`https://` in a value is kept), an escaped character skipped.
fn uncommented(line: &str) -> &str {
    let b = line.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == b'/' && b[i + 1] == b'/' && (i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t') {
            return &line[..i];
        }
        i += 1;
    }
    line
}

/// `key = value` (`key` a name or `$output`): the key, and where the
/// value starts.
fn property(content: &str) -> Option<(&str, usize)> {
    let end = content
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_alphanumeric() || c == '_' || (c == '$' && i == 0)))
        .map_or(content.len(), |(i, _)| i);
    let key = &content[..end];
    if !(is_name(key) || key == "$output") {
        return None;
    }
    let rest = content[end..].trim_start();
    if !rest.starts_with('=') || rest.starts_with("==") {
        return None;
    }
    let value = rest[1..].trim_start();
    Some((key, content.len() - value.len()))
}

/// Where a line's text starts and how deep it is.
struct Indent {
    level: usize,
    lead: usize,
}

impl<'t> Tree<'t> {
    pub fn read(text: &'t str) -> Tree<'t> {
        let lines: Vec<&str> = text.lines().collect();
        let own = lines
            .first()
            .is_some_and(|l| l.starts_with(super::OWN_MARK));
        let mut tree = Tree {
            lines,
            nodes: vec![Node::default()],
            by_name: BTreeMap::new(),
            refused: Vec::new(),
            own,
        };
        let mut stack: Vec<usize> = Vec::new();
        let mut unit = None;
        let mut comment: Option<(String, String)> = None;
        let mut dice: Option<String> = None;
        for i in 0..tree.lines.len() {
            let (n, raw) = (i + 1, tree.lines[i]);
            if let Some(r) = sheet::too_long(n, raw) {
                tree.refused.push(r);
                continue;
            }
            if own && let Some(c) = raw.strip_prefix("// ") {
                comment = own_comment(c);
                dice = c.strip_prefix("dice: ").map(|d| d.trim().to_owned());
            }
            let body = uncommented(raw);
            if body.trim().is_empty() {
                continue;
            }
            if tree.nodes.len() > sheet::MAX_ROWS {
                let what = "more than 200,000 lists and items in one file";
                tree.refused
                    .push(Refusal::new(n, 1, what, "split the file"));
                break;
            }
            let Some(ind) = tree.indent(n, body, &mut unit, &stack) else {
                continue;
            };
            if ind.level == 0 {
                unit = None;
                let id = tree.top(n, body, comment.take());
                tree.nodes[id].dice = dice.take();
                stack = vec![id];
            } else if stack.is_empty() {
                tree.refused.push(Refusal::new(n, 1, "an indented line before any list", "indent an item one level (a tab or two spaces) under its list's name, or import the rest with --skip-unsupported"));
            } else {
                tree.nested(n, body, ind, &mut stack);
            }
        }
        tree.sublist_names();
        tree
    }

    /// A sublist's name must be a name (Perchance engines read items of
    /// other text with lines under them differently).
    fn sublist_names(&mut self) {
        for n in 1..self.nodes.len() {
            let p = &self.nodes[n];
            if p.parent != 0 && self.is_list(n) && !is_name(&p.name) {
                let what = format!(
                    "`{}`: items under an item whose text is not a name (Perchance engines read it differently)",
                    short(&p.name)
                );
                let r = Refusal::new(
                    p.line,
                    p.at + 1,
                    what,
                    "make the item a name of letters, digits and `_`, or import the rest with --skip-unsupported",
                );
                self.nodes[n].refused.push(r);
            }
        }
    }

    /// The line's level, or `None` when it cannot be read (refused).
    fn indent(
        &mut self,
        n: usize,
        body: &str,
        unit: &mut Option<usize>,
        stack: &[usize],
    ) -> Option<Indent> {
        let lead = body.len() - body.trim_start_matches([' ', '\t']).len();
        let tabs = body[..lead].matches('\t').count();
        let spaces = lead - tabs;
        if spaces > 0 && unit.is_none() {
            *unit = Some(if spaces >= 4 { 4 } else { 2 });
        }
        let u = unit.unwrap_or(2);
        if !spaces.is_multiple_of(u) {
            let r = Refusal::new(
                n,
                lead + 1,
                format!("{spaces} spaces before this line, not a whole number of levels of {u}"),
                "indent each level by one tab or the same number of spaces, or import the rest with --skip-unsupported",
            );
            self.refuse_in(stack.first().copied(), r);
            return None;
        }
        Some(Indent {
            level: tabs + spaces / u,
            lead,
        })
    }

    /// Refused in the table of `node`, or outside any table.
    fn refuse_in(&mut self, node: Option<usize>, r: Refusal) {
        match node {
            Some(n) => self.nodes[n].refused.push(r),
            None => self.refused.push(r),
        }
    }

    /// A top-level line: a list or a property.
    fn top(&mut self, n: usize, body: &str, own: Option<(String, String)>) -> usize {
        let content = body.trim_end();
        let mut node = Node {
            line: n,
            own,
            ..Node::default()
        };
        match property(content) {
            Some((key, at)) => {
                node.name = key.to_owned();
                node.value = content[at..].to_owned();
                node.at = at;
                node.prop = true;
            }
            None => {
                node.name = content.to_owned();
                if !(is_name(content) || content == "$output") {
                    node.refused.push(Refusal::new(n, 1, format!("`{}`: a list name that is not one word of letters, digits and `_`", short(content)), "name the list with one word (Perchance reads only its first), or import the rest with --skip-unsupported"));
                }
            }
        }
        let id = self.push(node, 0);
        if self.by_name.get(&(0, self.nodes[id].name.clone())) != Some(&id) {
            let what = format!(
                "a second list or property named `{}`",
                short(&self.nodes[id].name)
            );
            self.nodes[id].refused.push(Refusal::new(
                n,
                1,
                what,
                "give each list a name of its own, or import the rest with --skip-unsupported",
            ));
        }
        id
    }

    fn push(&mut self, node: Node, parent: usize) -> usize {
        let id = self.nodes.len();
        self.by_name
            .entry((parent, node.name.clone()))
            .or_insert(id);
        self.nodes.push(Node { parent, ..node });
        self.nodes[parent].children.push(id);
        id
    }

    /// An indented line: an item or property of the line above it.
    fn nested(&mut self, n: usize, body: &str, ind: Indent, stack: &mut Vec<usize>) {
        let top = stack[0];
        if ind.level > stack.len() {
            let r = Refusal::new(
                n,
                ind.lead + 1,
                "a line indented more than one level under the line above",
                "indent it one level under its list, or import the rest with --skip-unsupported",
            );
            self.nodes[top].refused.push(r);
            return;
        }
        if ind.level > sheet::MAX_DEPTH {
            let r = Refusal::new(
                n,
                1,
                "lists nested more than 16 levels deep",
                "move the deepest lists to lists of their own, or import the rest with --skip-unsupported",
            );
            self.nodes[top].refused.push(r);
            return;
        }
        stack.truncate(ind.level);
        let parent = stack[ind.level - 1];
        if self.nodes[parent].prop {
            let r = Refusal::new(
                n,
                ind.lead + 1,
                "a line indented under a property (`name = value`)",
                "a property holds one value: make it a list (its name alone on a line, its items under it), or import the rest with --skip-unsupported",
            );
            match self.nodes[parent].parent {
                0 => self.refused.push(r),
                p => self.nodes[p].refused.push(r),
            }
            return;
        }
        let content = body.trim_end();
        let mut node = Node {
            line: n,
            ..Node::default()
        };
        if let Some((key, at)) = property(&content[ind.lead..]) {
            node.name = key.to_owned();
            node.value = content[ind.lead + at..].to_owned();
            node.at = ind.lead + at;
            node.prop = true;
        } else {
            let (end, weight) = self.weight(n, content, ind.lead, parent);
            let text = &content[ind.lead..end];
            let trimmed = text.trim();
            node.at = ind.lead + (text.len() - text.trim_start().len());
            node.name = trimmed.to_owned();
            node.value = trimmed.to_owned();
            node.weight = weight;
        }
        let id = self.push(node, parent);
        stack.push(id);
    }

    /// Where an item's text ends, and its weight (`^N` after the text).
    fn weight(&mut self, n: usize, content: &str, from: usize, parent: usize) -> (usize, Weight) {
        let Some(at) = top_caret(content, from) else {
            return (content.len(), Weight::One);
        };
        let rest = content[at + 1..].trim();
        let column = sheet::column(content, at);
        let refuse = |what: &str| {
            Refusal::new(
                n,
                column,
                what.to_owned(),
                if what.starts_with("`^[") {
                    super::JS_HINT.to_owned()
                } else {
                    "write `\\^` for the character itself, or import the rest with --skip-unsupported".to_owned()
                },
            )
        };
        if rest.starts_with('[') {
            self.nodes[parent].refused.push(refuse(
                "`^[…]`: odds that change with a condition (dynamic odds)",
            ));
            return (at, Weight::One);
        }
        match number(rest) {
            Some(w) => (at, w),
            None => {
                self.nodes[parent].refused.push(refuse("a `^` that is not followed by a weight (a number of at most 9 digits and 6 decimals)"));
                (at, Weight::One)
            }
        }
    }

    /// Each child of `parent` by name.
    pub fn child(&self, parent: usize, name: &str) -> Option<usize> {
        self.by_name.get(&(parent, name.to_owned())).copied()
    }

    /// Whether node `n` makes a table: a top-level list, or an item with
    /// items (or an `$output`) under it. An item with only properties
    /// under it prints its own text, as on perchance.org.
    pub fn is_list(&self, n: usize) -> bool {
        let node = &self.nodes[n];
        n != 0
            && !node.prop
            && (node.parent == 0
                || node.children.iter().any(|&c| {
                    let c = &self.nodes[c];
                    !c.prop || c.name == "$output"
                }))
    }

    /// Its `$output` property.
    pub fn output_of(&self, n: usize) -> Option<usize> {
        self.nodes[n]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].prop && self.nodes[c].name == "$output")
    }

    /// What the generator prints: the top-level `$output`, else `output`.
    pub fn entry(&self) -> Option<usize> {
        self.child(0, "$output").or_else(|| self.child(0, "output"))
    }

    /// `list.sub.item`: the names from the top.
    pub fn path(&self, mut n: usize) -> String {
        let mut parts = Vec::new();
        while n != 0 {
            parts.push(self.nodes[n].name.as_str());
            n = self.nodes[n].parent;
        }
        parts.reverse();
        parts.join(".")
    }
}

/// The first `^` outside brackets and escapes, from byte `from` on.
fn top_caret(s: &str, from: usize) -> Option<usize> {
    let b = s.as_bytes();
    let (mut depth, mut i) = (0i64, from);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth -= 1,
            b'^' if depth <= 0 => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// A weight: digits, and perhaps `.` and decimals.
pub fn number(s: &str) -> Option<Weight> {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    let ok = match frac {
        None => digits(int),
        Some(f) => digits(f) && (int.is_empty() || digits(int)),
    };
    let frac = frac.unwrap_or("").trim_end_matches('0');
    if !ok || int.len() > 9 || frac.len() > 6 {
        return None;
    }
    let i: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let f: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    Some(Weight::Num(i, f, frac.len() as u32))
}

/// `Title (id)` above a list `export` wrote.
fn own_comment(c: &str) -> Option<(String, String)> {
    let (title, id) = c.trim_end().strip_suffix(')')?.rsplit_once(" (")?;
    id.chars()
        .all(crate::content::template::is_id_char)
        .then(|| (id.to_owned(), title.to_owned()))
}

/// At most 40 characters of a text, for a message.
pub fn short(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}
