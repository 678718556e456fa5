//! Foundry's rich text made into a row's text: HTML tags dropped (a block
//! tag becomes a space) and entities decoded; `[[/r 1d4]]` and
//! `[[1d4]]` become inline dice `{1d4}` (`[[/r 1d4 * 10]]{…}` too, the
//! label kept around the dice when it repeats the formula);
//! `[[/damage 5d6 fire]]` the dice and the kind; `[[/save dex dc=15]]`
//! "DC 15 Dex"; `@UUID[…]{Label}` (and `@Actor[…]`, `@Compendium[…]`…) the
//! label, or the last part of the path; `@Check[fortitude|dc:20]` "DC 20
//! Fortitude"; `&Reference[poisoned]` "poisoned". Braces in the words are
//! written `{{`/`}}` so they stay words. What was converted or kept as
//! words is counted for the import's report.

use std::collections::BTreeMap;

/// A converted text: the row's text (tablewright's notation), the same
/// in plain words (dice as their formula, for a row's name), and counts of
/// what was converted.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Converted {
    pub text: String,
    pub plain: String,
    pub counts: BTreeMap<&'static str, usize>,
}

/// How a text is read.
#[derive(Debug, Clone, Copy)]
pub struct Reading<'a> {
    /// Written by tablewright (`flags.tablewright`): braces are already
    /// tablewright's notation, `[[/r X]]` is `{X}` as written, words are
    /// not re-spaced.
    pub ours: bool,
    /// Foundry ids of the tables read in the same import, with the ids
    /// they get: a `@UUID[RollTable.<id>]` link to one becomes
    /// `{table:<id>}`.
    pub links: &'a BTreeMap<String, String>,
}

/// Convert Foundry text.
pub fn convert(html: &str, reading: Reading) -> Converted {
    let mut out = Converted::default();
    let decoded = decode_entities(&strip_tags(html));
    let mut w = Writer {
        out: &mut out,
        ours: reading.ours,
    };
    enrichers(&decoded, reading, &mut w);
    if !reading.ours {
        out.text = squeeze(&out.text);
        out.plain = squeeze(&out.plain);
    }
    out
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct Writer<'a> {
    out: &'a mut Converted,
    ours: bool,
}

impl Writer<'_> {
    fn words(&mut self, s: &str) {
        self.out.plain.push_str(s);
        if self.ours {
            self.out.text.push_str(s);
        } else {
            self.out
                .text
                .push_str(&s.replace('{', "{{").replace('}', "}}"));
        }
    }
    fn dice(&mut self, expr: &str) {
        self.out.plain.push_str(expr);
        self.out.text.push_str(&format!("{{{expr}}}"));
    }
    fn table(&mut self, id: &str, label: &str) {
        self.out.plain.push_str(label);
        self.out.text.push_str(&format!("{{table:{id}}}"));
    }
    fn count(&mut self, what: &'static str) {
        *self.out.counts.entry(what).or_default() += 1;
    }
}

/// Tags out; a block tag (paragraph, line break, list item, cell…)
/// becomes a space. A `<` that opens no tag stays.
fn strip_tags(s: &str) -> String {
    const BLOCK: [&str; 16] = [
        "p",
        "br",
        "div",
        "li",
        "ul",
        "ol",
        "tr",
        "td",
        "th",
        "table",
        "h1",
        "h2",
        "h3",
        "h4",
        "hr",
        "blockquote",
    ];
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let is_tag = after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/' || c == '!');
        match (is_tag, after.find('>')) {
            (true, Some(end)) => {
                let name: String = after[..end]
                    .trim_start_matches('/')
                    .chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .collect::<String>()
                    .to_ascii_lowercase();
                if BLOCK.contains(&name.as_str()) {
                    out.push(' ');
                }
                rest = &after[end + 1..];
            }
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `&amp;`, `&lt;`, `&#39;`, `&#x2014;`, `&nbsp;` and the other common
/// named entities; an unknown one stays as written.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| entity(&after[..e]));
        match (end, decoded) {
            (Some(e), Some(c)) => {
                out.push(c);
                rest = &after[e + 1..];
            }
            _ => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character an entity's name stands for (`amp`, `#233`, `#xE9`),
/// never a control character but a new line or a tab.
pub(crate) fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code).filter(|c| !c.is_control() || *c == '\n' || *c == '\t');
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "times" => '×',
        "minus" => '−',
        "frac12" => '½',
        "frac14" => '¼',
        "deg" => '°',
        _ => return None,
    })
}

/// The end (exclusive) of a bracketed run that starts at `s[0]` with
/// `open`, counting nested brackets.
fn matching(s: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(i + c.len_utf8());
            }
        }
    }
    None
}

/// A `{label}` right after an enricher, and the rest after it.
fn label(rest: &str) -> (Option<&str>, &str) {
    if rest.starts_with('{')
        && let Some(end) = matching(rest, '{', '}')
    {
        return (Some(&rest[1..end - 1]), &rest[end..]);
    }
    (None, rest)
}

fn enrichers(s: &str, reading: Reading, w: &mut Writer) {
    let mut rest = s;
    let mut words = String::new();
    while !rest.is_empty() {
        if let Some(consumed) = enricher(rest, reading, w, &mut words) {
            rest = &rest[consumed..];
            continue;
        }
        let c = rest.chars().next().expect("not empty");
        words.push(c);
        rest = &rest[c.len_utf8()..];
    }
    w.words(&words);
}

/// One enricher at the start of `s`: how many bytes it took, after the
/// words before it were written.
fn enricher(s: &str, reading: Reading, w: &mut Writer, words: &mut String) -> Option<usize> {
    if s.starts_with("[[") {
        let end = matching(s, '[', ']')?;
        if !s[..end].ends_with("]]") {
            return None;
        }
        let inner = &s[2..end - 2];
        let (lab, after) = label(&s[end..]);
        w.words(&std::mem::take(words));
        roll(inner, lab, reading, w);
        return Some(s.len() - after.len());
    }
    if let Some(r) = s.strip_prefix("&Reference[") {
        let end = matching(&s["&Reference".len()..], '[', ']')?;
        let inner = &r[..end - 2];
        let (lab, after) = label(&s["&Reference".len() + end..]);
        w.words(&std::mem::take(words));
        let shown = lab.map(str::to_owned).unwrap_or_else(|| reference(inner));
        w.words(&shown);
        w.count("&Reference[…] → its word");
        return Some(s.len() - after.len());
    }
    let kind: String = s
        .strip_prefix('@')?
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect();
    if kind.is_empty() || !s[1 + kind.len()..].starts_with('[') {
        return None;
    }
    let start = 1 + kind.len();
    let end = start + matching(&s[start..], '[', ']')?;
    let inner = &s[start + 1..end - 1];
    let (lab, after) = label(&s[end..]);
    w.words(&std::mem::take(words));
    link(&kind, inner, lab, reading, w);
    Some(s.len() - after.len())
}

/// `&Reference[poisoned]`, `&Reference[condition=prone apply=false]`.
fn reference(inner: &str) -> String {
    let first = inner.split_whitespace().next().unwrap_or(inner);
    first.rsplit('=').next().unwrap_or(first).to_owned()
}

/// The formula as tablewright reads it (as written, or without its
/// spaces), if it does.
fn dice(expr: &str) -> Option<String> {
    let e = expr.trim();
    if e.is_empty() || e.contains(['{', '}']) && !e.starts_with('{') {
        return None;
    }
    if crate::dice::parse(e).is_ok() {
        return Some(e.to_owned());
    }
    let tight: String = e.chars().filter(|c| !c.is_whitespace()).collect();
    crate::dice::parse(&tight).is_ok().then_some(tight)
}

/// `[[…]]` with its label.
fn roll(inner: &str, lab: Option<&str>, reading: Reading, w: &mut Writer) {
    if reading.ours
        && let Some(expr) = inner.strip_prefix("/r ")
    {
        w.out.plain.push_str(expr.trim());
        w.out.text.push_str(&format!("{{{expr}}}"));
        return;
    }
    let t = inner.trim();
    let (command, args) = match t.strip_prefix('/') {
        Some(c) => c.split_once(char::is_whitespace).unwrap_or((c, "")),
        None => ("", t),
    };
    let command = command.to_ascii_lowercase();
    let args = args.split('#').next().unwrap_or("").trim();
    match command.as_str() {
        "" | "r" | "roll" | "gmr" | "gmroll" | "br" | "broll" | "blindroll" | "sr" | "selfroll"
        | "pr" | "publicroll" => match dice(args) {
            Some(expr) => dice_with_label(&expr, "", lab, w),
            None => {
                w.words(lab.unwrap_or(args));
                w.count("[[…]] rolls tablewright cannot roll → kept as words");
            }
        },
        "damage" | "heal" | "healing" => {
            let words: Vec<&str> = args
                .split_whitespace()
                .filter(|a| !a.contains('='))
                .collect();
            let split = (1..=words.len())
                .rev()
                .find_map(|n| dice(&words[..n].join(" ")).map(|e| (e, n)));
            match split {
                Some((expr, n)) => {
                    let kind = words[n..].join(" ");
                    dice_with_label(&expr, &kind, lab, w);
                }
                None => {
                    w.words(lab.unwrap_or(args));
                    w.count("[[…]] rolls tablewright cannot roll → kept as words");
                }
            }
        }
        "save" | "check" | "skill" | "tool" | "concentration" => {
            let shown = lab
                .map(str::to_owned)
                .unwrap_or_else(|| check(&command, args));
            w.words(&shown);
            w.count("[[/save]] and [[/check]] → words");
        }
        _ => {
            let plain: Vec<&str> = args
                .split_whitespace()
                .filter(|a| !a.contains('='))
                .collect();
            w.words(lab.unwrap_or(&plain.join(" ")));
            w.count("other [[/…]] commands → their words");
        }
    }
}

/// Dice `expr` (and words `kind` after them), with the label: when the
/// label repeats the formula, its words around it are kept.
fn dice_with_label(expr: &str, kind: &str, lab: Option<&str>, w: &mut Writer) {
    w.count("[[/r …]] → inline dice");
    let squeeze_all = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    if let Some(l) = lab {
        let at = find_formula(l, expr);
        match at {
            Some((a, b)) => {
                w.words(&l[..a]);
                w.dice(expr);
                w.words(&l[b..]);
            }
            None => {
                w.dice(expr);
                if !l.trim().is_empty() && squeeze_all(l) != squeeze_all(kind) {
                    w.words(&format!(" ({})", l.trim()));
                    w.count("labels of rolls → kept in brackets");
                }
            }
        }
        return;
    }
    w.dice(expr);
    if !kind.is_empty() {
        w.words(&format!(" {kind}"));
    }
}

/// Where the formula `expr` is written in `label`, spaces aside.
fn find_formula(label: &str, expr: &str) -> Option<(usize, usize)> {
    let want: Vec<char> = expr.chars().filter(|c| !c.is_whitespace()).collect();
    let idx: Vec<(usize, char)> = label.char_indices().collect();
    for start in 0..idx.len() {
        let (mut k, mut j) = (0, start);
        while j < idx.len() && k < want.len() {
            let c = idx[j].1;
            if c.is_whitespace() && k > 0 {
                j += 1;
                continue;
            }
            if !c.eq_ignore_ascii_case(&want[k]) {
                break;
            }
            k += 1;
            j += 1;
        }
        if k == want.len() {
            let end = idx.get(j).map_or(label.len(), |&(b, _)| b);
            return Some((idx[start].0, end));
        }
    }
    None
}

/// `constitution dc=15` as "DC 15 Constitution".
fn check(command: &str, args: &str) -> String {
    let mut dc = None;
    let mut names = Vec::new();
    for a in args.split_whitespace() {
        match a.split_once('=') {
            Some(("dc", v)) => dc = Some(v.to_owned()),
            Some(_) => {}
            None => names.push(capital(a)),
        }
    }
    if command == "concentration" {
        names.push("Concentration".into());
    }
    match dc {
        Some(dc) => format!("DC {dc} {}", names.join(" ")).trim_end().to_owned(),
        None => names.join(" "),
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// `@Kind[inner]{label}`.
fn link(kind: &str, inner: &str, lab: Option<&str>, reading: Reading, w: &mut Writer) {
    let target = inner.rsplit('.').next().unwrap_or(inner);
    if kind == "UUID"
        && inner.starts_with("RollTable.")
        && let Some(id) = reading.links.get(target)
    {
        w.table(id, lab.unwrap_or(target));
        w.count("links to tables read with it → {table:…}");
        return;
    }
    match kind {
        "Check" => {
            let mut parts = inner.split('|');
            let what = capital(parts.next().unwrap_or("").trim());
            let dc = parts.find_map(|p| p.trim().strip_prefix("dc:").map(str::to_owned));
            let shown = match (lab, dc) {
                (Some(l), _) => l.to_owned(),
                (None, Some(dc)) => format!("DC {dc} {what}"),
                (None, None) => what,
            };
            w.words(&shown);
            w.count("@Check[…] → words");
        }
        "Damage" => {
            let formula = inner.split('[').next().unwrap_or("");
            let kinds: Vec<&str> = inner
                .split('[')
                .skip(1)
                .map(|k| k.trim_end_matches(']').trim())
                .filter(|k| !k.is_empty())
                .collect();
            match (lab, dice(formula.trim_matches(['(', ')']))) {
                (None, Some(expr)) => dice_with_label(&expr, &kinds.join(" "), None, w),
                (l, _) => {
                    w.words(l.unwrap_or(inner));
                    w.count("@Damage[…] → words");
                }
            }
        }
        "Template" => {
            w.words(lab.unwrap_or(&inner.replace(['|', ':'], " ")));
            w.count("@Template[…] → words");
        }
        _ => {
            w.words(lab.unwrap_or(target));
            w.count("document links → their names");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(html: &str) -> String {
        let links = BTreeMap::new();
        convert(
            html,
            Reading {
                ours: false,
                links: &links,
            },
        )
        .text
    }

    #[test]
    fn foundry_markup_becomes_plain_words_and_inline_dice() {
        assert_eq!(
            read("<p>[[/r 1d4]] @UUID[Compendium.pf2e.x.Actor.Bandit]{Bandits} (Moderate 2)</p>"),
            "{1d4} Bandits (Moderate 2)"
        );
        assert_eq!(
            read("1 @UUID[Compendium.pf2e.pathfinder-bestiary-2.Actor.Witchfire] (Moderate 7)"),
            "1 Witchfire (Moderate 7)"
        );
        assert_eq!(
            read("[[/r 1d4 * 10]]{1d4 × 10 gold}"),
            "{1d4*10} (1d4 × 10 gold)"
        );
        assert_eq!(
            read("for [[/r 1d4 #rounds]]{1d4 rounds}"),
            "for {1d4} rounds"
        );
        assert_eq!(read("[[1d6 + 6]] shriekers"), "{1d6 + 6} shriekers");
        assert_eq!(
            read("take [[/damage 5d6 poison]] damage and become &amp;Reference[poisoned]"),
            "take {5d6} poison damage and become poisoned"
        );
        assert_eq!(
            read("a [[/save constitution dc=15]] saving throw"),
            "a DC 15 Constitution saving throw"
        );
        assert_eq!(
            read("gains [[/healing 5d6 temp]]{5d6 temporary hit points}"),
            "gains {5d6} temporary hit points"
        );
        assert_eq!(
            read("A &lt;b&gt; &amp; {odd} &#8212; <em>x</em>"),
            "A <b> & {{odd}} — x"
        );
        assert_eq!(read("@Check[fortitude|dc:20|basic]"), "DC 20 Fortitude");
    }

    #[test]
    fn links_to_tables_read_together_become_references() {
        let links = BTreeMap::from([("abcdefghijklmnop".to_owned(), "x.y".to_owned())]);
        let c = convert(
            "see @UUID[RollTable.abcdefghijklmnop]{Y}",
            Reading {
                ours: true,
                links: &links,
            },
        );
        assert_eq!(c.text, "see {table:x.y}");
        let c = convert(
            "[[/r  {3d6,3d6}kh1]] {pick: a | b}",
            Reading {
                ours: true,
                links: &links,
            },
        );
        assert_eq!(c.text, "{ {3d6,3d6}kh1} {pick: a | b}");
    }
}
