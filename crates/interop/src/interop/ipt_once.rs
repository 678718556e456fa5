//! IPP's `Set:` variables that roll one table once and are read more
//! than once in a roll (`Set: Rate=[@RainType]`, then `{$Rate}` in the
//! text and in the name of a call, `[@{$Rate}{$Minutes}]`). A roll in
//! place would roll again at each use; IPP gives the same value each
//! time. When every such value is a plain result of a table of the file,
//! the table is written out once for each combination of results, each
//! row weighing what its results weigh together (on `2d3`: 1, 2, 3, 2,
//! 1 ways), so every combination comes up exactly as often as in IPP and
//! reads as IPP writes it. A lookup its values name (`[#{$Minutes}
//! Durations]`) is the row it finds, written in place.
//!
//! Only a table the plain reading refused is written out so, only when no
//! table of the file its rows roll on sets one of its variables (IPP's
//! variables are the whole run's: such a table would change the value
//! between two uses), and only when that
//! leaves nothing refused and makes at most [`MAX_ROWS`] rows (and the
//! file's rows stay within [`sheet::MAX_ROWS`]); otherwise it is read
//! plainly again, and refused at its place. The work is bounded: every
//! combination's reading counts against [`MAX_WORK`], and so does each
//! die's odds, worked out once a table.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::rc::Rc;

use super::ipt_case;
use super::ipt_table::{Counts, Kind, Open, Step, closed};
use super::sheet::{self, Frag, Look, SrcRow, SrcTable};
use super::totals;

/// Most rows a table written out for its variables' results may have.
pub const MAX_ROWS: u128 = 256;

/// What all the tables of one file written out so may cost, over all
/// their combinations: a character read is 1, a die's odds worked out
/// [`WAYS_COST`]. So a file is read in time in proportion to its length.
const MAX_WORK: u128 = 8 << 20;

/// What working out one die's odds counts (at most about 200,000 sums,
/// [`totals::ways`]).
const WAYS_COST: u128 = 1 << 16;

/// What the weights of one table may add up to.
const MAX_WEIGHT: u128 = 1 << 53;

/// What the report says of each table written out so.
const COUNTED: &str = "tables whose `Set:` variables roll a table once and are read more than once written out with a row for each combination of results, weighted as IPP rolls them";

/// A table's results, each with the ways it comes up.
type Results = Rc<Vec<(String, u128)>>;

/// Tables to read again once the whole file is read, each with the place
/// it has among the file's tables, and the file's budgets so far.
pub struct Later {
    waiting: Vec<(usize, Open)>,
    pub budget: usize,
    pub made: usize,
    /// The variables each table of the file sets, by its place.
    sets: Vec<BTreeSet<String>>,
}

impl Later {
    pub fn new(budget: usize) -> Later {
        Later {
            waiting: Vec::new(),
            budget,
            made: 0,
            sets: Vec::new(),
        }
    }

    /// A table just read, at place `at`: one that has a variable of one
    /// call and was refused waits to be read again (the tables its
    /// reading made are let go, and the budgets they took given back).
    /// The table is handed back to stand in its place until then.
    pub fn keep(&mut self, mut o: Open, extra: &mut Vec<SrcTable>, at: usize) -> Open {
        self.sets.resize_with(at, BTreeSet::new);
        self.sets.push(o.named.clone());
        let (from, budget, made) = o.began;
        let waits = o.alone && !o.once.is_empty() && !o.table.refused.is_empty();
        if waits && extra.len() >= from {
            extra.truncate(from);
            let mut again = o.fresh(budget, made);
            again.steps = std::mem::take(&mut o.steps);
            again.once = std::mem::take(&mut o.once);
            (self.budget, self.made) = (budget, made);
            self.waiting.push((at, again));
        } else {
            (self.budget, self.made) = (o.budget, o.made);
        }
        o
    }

    /// Each waiting table read again: written out for its variables'
    /// results, or else plainly, in its place among `tables`. `rows`: the
    /// rows the file has of its own.
    pub fn read_again(
        self,
        tables: &mut [SrcTable],
        extra: &mut Vec<SrcTable>,
        counts: &mut Counts,
        rows: usize,
    ) {
        if self.waiting.is_empty() {
            return;
        }
        let mut index = BTreeMap::new();
        for (i, t) in tables.iter().enumerate() {
            index.entry(t.name.to_lowercase()).or_insert(i);
        }
        let mut again = Again {
            tables,
            index,
            sets: &self.sets,
            results: BTreeMap::new(),
            budget: self.budget,
            made: self.made,
            work: MAX_WORK,
            rows: sheet::MAX_ROWS.saturating_sub(rows),
        };
        let mut done = Vec::with_capacity(self.waiting.len());
        for (at, o) in &self.waiting {
            let table = match again.written_out(o, *at, extra) {
                Some((mut table, mut own)) => {
                    *counts.entry(COUNTED).or_default() += 1;
                    let base = extra.len();
                    let rows = table
                        .rows
                        .iter_mut()
                        .chain(own.iter_mut().flat_map(|t| &mut t.rows));
                    rows.for_each(|r| sheet::shift_locals(&mut r.text, base));
                    extra.append(&mut own);
                    table
                }
                None => {
                    let mut plain = o.fresh(again.budget, again.made);
                    for step in &o.steps {
                        plain.replay(step, extra);
                    }
                    (again.budget, again.made) = (plain.budget, plain.made);
                    closed(&mut Counts::new(), plain)
                }
            };
            done.push((*at, table));
        }
        for (at, table) in done {
            tables[at] = table;
        }
    }
}

/// What writing tables out works with: the file's tables by name, the
/// results worked out so far, and what is left of the budgets.
struct Again<'a> {
    tables: &'a [SrcTable],
    /// Each table's place by lowercase name (the first of a name).
    index: BTreeMap<String, usize>,
    sets: &'a [BTreeSet<String>],
    results: BTreeMap<String, Option<Results>>,
    budget: usize,
    made: usize,
    /// What is left of [`MAX_WORK`].
    work: u128,
    /// Rows the file may still have.
    rows: usize,
}

impl Again<'_> {
    /// The file's table of this name (in any case).
    fn table(&self, name: &str) -> Option<&SrcTable> {
        let i = self.index.get(&name.to_lowercase())?;
        self.tables.get(*i)
    }

    /// `o` written out for each combination of its variables' results,
    /// with the tables its rows need (numbered from 0); `None` when a
    /// value is not a plain result of a table of the file, the rows would
    /// be too many, the work too much, or a combination's reading
    /// refuses something. Budgets are taken only when it is written out.
    fn written_out(
        &mut self,
        o: &Open,
        at: usize,
        extra: &[SrcTable],
    ) -> Option<(SrcTable, Vec<SrcTable>)> {
        if o.kind == Kind::Dictionary {
            return None;
        }
        let all: String = o.steps.iter().map(|s| s.text().to_lowercase()).collect();
        let used = |name: &str| all.contains(&format!("{{${name}}}"));
        let vars: Vec<&(String, String)> = o.once.iter().filter(|(n, _)| used(n)).collect();
        let results: Vec<Results> = vars
            .iter()
            .map(|(_, t)| self.results_of(t))
            .collect::<Option<_>>()?;
        let rows = o
            .steps
            .iter()
            .filter(|s| matches!(s, Step::Row(..)))
            .count();
        let combos = results
            .iter()
            .try_fold(1u128, |n, r| n.checked_mul(r.len() as u128))?;
        let total = combos.checked_mul(rows as u128)?;
        if rows == 0 || total > MAX_ROWS || total > self.rows as u128 {
            return None;
        }
        let read: usize = o.steps.iter().map(|s| 1 + s.text().len()).sum();
        self.work = self.work.checked_sub(combos.checked_mul(read as u128)?)?;
        let (mut budget, mut made) = (self.budget, self.made);
        let (mut out, mut own) = (Vec::new(), Vec::new());
        let mut host = None;
        for pick in 0..combos {
            let (bound, ways) = combination(&vars, &results, pick);
            let mut one = o.fresh(budget, made);
            one.fixed = Rc::new(bound);
            for step in &o.steps {
                one.replay(step, &mut own);
            }
            (budget, made) = (one.budget, one.made);
            let t = closed(&mut Counts::new(), one);
            if !t.refused.is_empty() {
                return None;
            }
            out.extend(self.weighed(t, ways, &mut host)?);
        }
        self.settle_made(&mut out, &mut own);
        let names: BTreeSet<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
        if self.reach_sets(&out, &own, extra, (at, &names))? {
            return None;
        }
        let sum: u128 = out.iter().map(|r| u128::from(r.weight.unwrap_or(0))).sum();
        (sum <= MAX_WEIGHT).then_some(())?;
        reduce(&mut out);
        (self.budget, self.made) = (budget, made);
        self.rows -= out.len().min(self.rows);
        let table = SrcTable {
            name: o.table.name.clone(),
            title: o.table.title.clone(),
            line: o.table.line,
            rows: out,
            ..SrcTable::default()
        };
        Some((table, own))
    }

    /// Whether a table of the file that `rows` roll on (through `own`,
    /// the tables made for them, and on through the tables they roll)
    /// sets one of `names`; the table at `host` itself is passed over (a
    /// roll again of it starts afresh). Each piece looked at counts
    /// against the work (`None`: too much).
    fn reach_sets(
        &mut self,
        rows: &[SrcRow],
        own: &[SrcTable],
        extra: &[SrcTable],
        (host, names): (usize, &BTreeSet<&str>),
    ) -> Option<bool> {
        // Texts to look through: (pieces, whether `Local` means `own`).
        let mut queue: Vec<(&[Frag], bool)> = rows.iter().map(|r| (&r.text[..], true)).collect();
        let (mut seen, mut seen_extra) = (BTreeSet::from([host]), BTreeSet::new());
        let sets = |i: usize| {
            self.sets
                .get(i)
                .is_some_and(|s| s.iter().any(|n| names.contains(n.as_str())))
        };
        while let Some((text, in_own)) = queue.pop() {
            self.work = self.work.checked_sub(text.len() as u128 + 1)?;
            for f in text {
                match f {
                    Frag::Call {
                        file: None, table, ..
                    } => {
                        let Some(&i) = self.index.get(&table.to_lowercase()) else {
                            continue;
                        };
                        if !seen.insert(i) {
                            continue;
                        }
                        if sets(i) {
                            return Some(true);
                        }
                        queue.extend(self.tables[i].rows.iter().map(|r| (&r.text[..], false)));
                    }
                    Frag::Local(n) if in_own => {
                        if let Some(t) = own.get(*n) {
                            queue.extend(t.rows.iter().map(|r| (&r.text[..], true)));
                        }
                    }
                    Frag::Local(n) => {
                        if let Some(t) = extra.get(*n).filter(|_| seen_extra.insert(*n)) {
                            queue.extend(t.rows.iter().map(|r| (&r.text[..], false)));
                        }
                    }
                    Frag::Pick(options) => queue.extend(options.iter().map(|o| (&o[..], in_own))),
                    _ => {}
                }
            }
        }
        Some(false)
    }

    /// The results of table `name` of the file, each with the ways it
    /// comes up (worked out once a table); `None` unless each is plain
    /// words (no call, choice or dice) and the table is read whole.
    fn results_of(&mut self, name: &str) -> Option<Results> {
        let key = name.to_lowercase();
        if let Some(known) = self.results.get(&key) {
            return known.clone();
        }
        let found = self
            .table(name)
            .cloned()
            .and_then(|t| self.read_results(&t));
        let found = found.map(Rc::new);
        self.results.insert(key, found.clone());
        found
    }

    fn read_results(&mut self, t: &SrcTable) -> Option<Vec<(String, u128)>> {
        if !t.refused.is_empty() || t.cased.is_some() {
            return None;
        }
        let ways = match &t.dice {
            Some(d) => Some(self.ways(d)?),
            None => None,
        };
        let mut out = Vec::new();
        for r in &t.rows {
            let n = match (&ways, r.range) {
                (Some(w), Some((a, b))) => in_range(w, a, b),
                (Some(_), None) => return None,
                (None, _) => u128::from(r.weight?),
            };
            if n > 0 {
                out.push((plain(&r.text)?, n));
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The ways a die gives each total, counted against the work.
    fn ways(&mut self, dice: &str) -> Option<BTreeMap<i64, u128>> {
        self.work = self.work.checked_sub(WAYS_COST)?;
        totals::ways(dice)
    }

    /// The rows of one combination's table weighted by the ways it comes
    /// up (a Lookup table's rows by the ways its die lands in their
    /// range; `host` keeps that die's odds from one combination to the
    /// next).
    fn weighed(
        &mut self,
        t: SrcTable,
        ways: u128,
        host: &mut Option<BTreeMap<i64, u128>>,
    ) -> Option<Vec<SrcRow>> {
        if let (Some(d), None) = (&t.dice, &host) {
            *host = Some(self.ways(d)?);
        }
        let dice = host.as_ref().filter(|_| t.dice.is_some());
        let mut out = Vec::with_capacity(t.rows.len());
        for mut r in t.rows {
            let own = match (dice, r.range.take()) {
                (Some(w), Some((a, b))) => in_range(w, a, b),
                _ => u128::from(r.weight.unwrap_or(1)),
            };
            let w = own.checked_mul(ways).filter(|&w| w <= MAX_WEIGHT)?;
            r.weight = Some(u64::try_from(w).ok()?);
            if w > 0 {
                out.push(r);
            }
        }
        Some(out)
    }

    /// The tables made for the combinations' texts (`own`) settled:
    /// lookups by number or key (`[#30 Durations]`) written in place where
    /// they can be ([`Again::found_row`]), tables the same as an earlier
    /// one merged into it, and every call in `rows` and `own` numbered
    /// again. A made table only calls tables made before it, so one pass
    /// in order settles them all.
    fn settle_made(&self, rows: &mut [SrcRow], own: &mut Vec<SrcTable>) {
        let mut fates: Vec<Fate> = Vec::with_capacity(own.len());
        let mut kept: Vec<SrcTable> = Vec::new();
        let mut seen: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
        for mut t in own.drain(..) {
            if let Some(text) = self.found_row(&t) {
                fates.push(Fate::Inline(text));
                continue;
            }
            for r in &mut t.rows {
                r.text = replaced(&r.text, &fates);
            }
            let mut h = DefaultHasher::new();
            t.hash(&mut h);
            let same = seen.entry(h.finish()).or_default();
            match same.iter().find(|&&k| kept[k] == t) {
                Some(&k) => fates.push(Fate::Now(k)),
                None => {
                    same.push(kept.len());
                    fates.push(Fate::Now(kept.len()));
                    kept.push(t);
                }
            }
        }
        for r in rows {
            r.text = replaced(&r.text, &fates);
        }
        *own = kept;
    }

    /// The row a lookup table made for a text finds in the file, if it is
    /// one to write in place (it holds no table made for its own text).
    fn found_row(&self, t: &SrcTable) -> Option<Vec<Frag>> {
        let c = t.cased.as_ref()?;
        if !c.cases.is_empty() || !matches!(c.look, Some(Look::Number(_) | Look::Key(_))) {
            return None;
        }
        let o = self.table(&c.of)?;
        let i = ipt_case::row_for(o, c.look.as_ref()?, o.keyed).ok()?;
        let text = &o.rows[i].text;
        (o.refused.is_empty() && !makes(text)).then(|| text.clone())
    }
}

/// The ways `w` gives the totals from `a` to `b`.
fn in_range(w: &BTreeMap<i64, u128>, a: i64, b: i64) -> u128 {
    w.range(a..=b.max(a)).map(|(_, n)| n).sum()
}

/// The text of a row of plain words (`None` if it holds anything else,
/// or a character a call's or lookup's name would read otherwise).
fn plain(frags: &[Frag]) -> Option<String> {
    let mut out = String::new();
    for f in frags {
        match f {
            Frag::Words(w) => out.push_str(w),
            Frag::Space => out.push(' '),
            _ => return None,
        }
    }
    let odd = out.contains(['[', ']', '{', '}', '|', '$', '\\', '>', '\n']);
    (!odd).then_some(out)
}

/// Combination number `pick` (the first variable changing slowest): each
/// variable bound to its result, and the ways they come up together.
fn combination(
    vars: &[&(String, String)],
    results: &[Results],
    mut pick: u128,
) -> (Vec<(String, String)>, u128) {
    let mut bound = Vec::with_capacity(vars.len());
    let mut ways = 1u128;
    for (var, r) in vars.iter().zip(results).rev() {
        let n = r.len() as u128;
        let (text, w) = &r[(pick % n) as usize];
        pick /= n;
        ways = ways.saturating_mul(*w);
        bound.push((var.0.clone(), text.clone()));
    }
    bound.reverse();
    (bound, ways)
}

/// Weights divided by what they have in common.
fn reduce(rows: &mut [SrcRow]) {
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let g = rows.iter().filter_map(|r| r.weight).fold(0, gcd).max(1);
    for r in rows {
        r.weight = r.weight.map(|w| w / g);
    }
}

/// What becomes of a table made for a combination's texts.
enum Fate {
    /// A lookup that finds a row of the file holding no made table: that
    /// row's text, written in place.
    Inline(Vec<Frag>),
    /// Kept (or the same as one kept before it), by its new number.
    Now(usize),
}

/// Whether a text rolls a table made for it.
fn makes(text: &[Frag]) -> bool {
    text.iter().any(|f| match f {
        Frag::Local(_) => true,
        Frag::Pick(options) => options.iter().any(|o| makes(o)),
        _ => false,
    })
}

/// `text` with each made table it calls settled by its fate.
fn replaced(text: &[Frag], fates: &[Fate]) -> Vec<Frag> {
    let mut out = Vec::with_capacity(text.len());
    for f in text {
        match f {
            Frag::Local(n) => match fates.get(*n) {
                Some(Fate::Inline(row)) => out.extend(row.iter().cloned()),
                Some(Fate::Now(k)) => out.push(Frag::Local(*k)),
                None => out.push(f.clone()),
            },
            Frag::Pick(options) => out.push(Frag::Pick(
                options.iter().map(|o| replaced(o, fates)).collect(),
            )),
            other => out.push(other.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::ipt::read;
    use super::super::sheet::{Frag, Sheet};

    /// Every refusal of a file.
    fn refusals(s: &Sheet) -> Vec<String> {
        let all = s
            .refused
            .iter()
            .chain(s.tables.iter().flat_map(|t| &t.refused));
        all.map(|r| format!("{}:{}: {}", r.line, r.column, r.what))
            .collect()
    }

    /// A row's text with calls as `<table>` and made tables as `<#n>`.
    fn shown(text: &[Frag]) -> String {
        text.iter()
            .map(|f| match f {
                Frag::Words(w) => w.clone(),
                Frag::Call { table, .. } => format!("<{table}>"),
                Frag::Local(n) => format!("<#{n}>"),
                other => format!("{other:?}"),
            })
            .collect()
    }

    const RAIN: &str = "Table: Rain\n\
        Set: Rate=[@Rate]\n\
        Set: Long=[@Long]\n\
        Set: Gallons=[@{$Rate}{$Long}]\n\
        Set: Said=[#{$Long} Said]\n\
        A {$rate} rain for {$Said}: {$Gallons} gallons ({$rate}, {$long})\n\
        Table: Rate\nType: Lookup\nRoll: 2d3\n2-3:Light\n4-6:Heavy\n\
        Table: Long\n2:30\n1:60\n\
        Table: Said\nType: Dictionary\n30:half an hour\n60:an hour\n\
        Table: Light30\n2\nTable: Light60\n3\nTable: Heavy30\n5\nTable: Heavy60\n[|8|9]\n";

    #[test]
    fn a_value_read_twice_is_a_row_for_each_combination_weighted_as_ipp_rolls() {
        let s = read("f.ipt", "f", RAIN);
        assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
        let rain = &s.tables[0];
        let rows: Vec<(u64, String)> = rain
            .rows
            .iter()
            .map(|r| (r.weight.unwrap(), shown(&r.text)))
            .collect();
        // 2d3 lands on 2-3 in 3 ways of 9 and on 4-6 in 6; 30 weighs 2, 60 1:
        // 6, 3, 12 and 6, divided by 3.
        let want = [
            (
                2,
                "A Light rain for half an hour: <Light30> gallons (Light, 30)",
            ),
            (1, "A Light rain for an hour: <Light60> gallons (Light, 60)"),
            (
                4,
                "A Heavy rain for half an hour: <Heavy30> gallons (Heavy, 30)",
            ),
            (2, "A Heavy rain for an hour: <Heavy60> gallons (Heavy, 60)"),
        ];
        let want: Vec<(u64, String)> = want.iter().map(|(w, t)| (*w, (*t).to_owned())).collect();
        assert_eq!(rows, want);
        assert!(rain.dice.is_none());
        assert_eq!(s.counts.values().sum::<usize>(), 1, "{:?}", s.counts);
        // No table was made for the lookups: each is the row's text.
        assert!(!s.tables.iter().any(|t| t.synthetic), "{:?}", s.tables);
    }

    #[test]
    fn the_weights_are_the_results_ways_times_the_rows_own() {
        let s = read(
            "f.ipt",
            "f",
            "Table: M\nType: Lookup\nSet: c=[@C]\n1:{$c}-{$c}\n2-3:{$c}+{$c}\nTable: C\n3:red\nblue\n",
        );
        assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
        let rows: Vec<(u64, String)> = s.tables[0]
            .rows
            .iter()
            .map(|r| (r.weight.unwrap(), shown(&r.text)))
            .collect();
        let want = [
            (3, "red-red"),
            (6, "red+red"),
            (1, "blue-blue"),
            (2, "blue+blue"),
        ];
        let want: Vec<(u64, String)> = want.iter().map(|(w, t)| (*w, (*t).to_owned())).collect();
        assert_eq!(rows, want);
    }

    #[test]
    fn tables_made_for_each_combination_are_made_once() {
        let s = read(
            "f.ipt",
            "f",
            "Table: M\nSet: c=[@C]\n{$c} [|a||b] {$c}\nTable: C\nred\nblue\n",
        );
        assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
        let made: Vec<_> = s.tables.iter().filter(|t| t.synthetic).collect();
        assert_eq!(made.len(), 1, "{made:?}");
        let texts: Vec<String> = s.tables[0].rows.iter().map(|r| shown(&r.text)).collect();
        assert_eq!(texts, ["red <#2> red", "blue <#2> blue"]);
    }

    #[test]
    fn what_cannot_be_written_out_stays_refused_at_its_place() {
        let many = format!(
            "Table: M\nSet: a=[@A]\nSet: b=[@A]\n{{$a}}{{$a}}{{$b}}{{$b}}\nTable: A\n{}",
            (0..17).map(|i| format!("r{i}\n")).collect::<String>()
        );
        for (text, place) in [
            // A result that rolls on a table.
            (
                "Table: M\nSet: t=[@T]\n{$t} {$t}\nTable: T\n[@U]\nTable: U\nx\n",
                "3:6",
            ),
            // A table of another file.
            ("Use: other\nTable: M\nSet: t=[@T]\n{$t} {$t}\n", "4:6"),
            // More than 256 rows (17 × 17).
            (many.as_str(), "4:5"),
            // A Dictionary table keeps its keys.
            (
                "Table: M\nType: Dictionary\nSet: t=[@T]\nk:{$t} {$t}\nTable: T\nx\n",
                "4:8",
            ),
            // Set twice, or after a row: which value a use reads is not one.
            (
                "Table: M\nSet: t=[@T]\nSet: t=[@T]\n{$t} {$t}\nTable: T\nx\n",
                "4:6",
            ),
            ("Table: M\nx\nSet: t=[@T]\n{$t} {$t}\nTable: T\nx\n", "4:6"),
            // `Define:` is worked out again at each use.
            (
                "Table: M\nDefine: c=[@C]\n{$c} {$c}\nTable: C\nred\nblue\n",
                "3:6",
            ),
            // Read before it is set: IPP reads the value from before.
            (
                "Table: M\nSet: u={$t}!\nSet: t=[@T]\n{$u} {$t}\nTable: T\nred\nblue\n",
                "2:8",
            ),
            // A table it rolls on sets it too, and changes it between uses
            // (also through a choice's table and another table).
            (
                "Table: M\nSet: c=[@C]\n{$c} [@N] {$c}\nTable: N\nSet: c=[@C]\n{$c}\nTable: C\nred\nblue\n",
                "3:11",
            ),
            (
                "Table: M\nSet: c=[@C]\n{$c} [|[@O]||x] {$c}\nTable: O\n[@N]\nTable: N\nSet: c=[@C]\n{$c}\nTable: C\nred\nblue\n",
                "3:17",
            ),
            // A value's digits running into a name, or a key with a space.
            (
                "Table: M\nSet: n=[@N]\n{$n} [@{$n}Days]\nTable: N\n2\nTable: Days\nd\nTable: 2Days\nt\n",
                "3:6",
            ),
            (
                "Table: M\nSet: b=[@B]\n{$b}: [#{$b} D]\nTable: B\nvery long\nTable: D\nType: Dictionary\nvery long:x\n",
                "3:7",
            ),
            // Something else refused in the table (both are said).
            (
                "Table: M\nSet: t=[@T]\n{$t} {$t} [!T]\nTable: T\nx\n",
                "3:6",
            ),
        ] {
            let got = refusals(&read("f.ipt", "f", text));
            assert!(
                got.first()
                    .is_some_and(|r| r.starts_with(&format!("{place}: "))),
                "{text}: {got:?}"
            );
            if text.contains("[!T]") {
                assert!(got[1].starts_with("3:11: `[!T]`"), "{got:?}");
            }
        }
    }

    #[test]
    fn many_tables_made_for_the_combinations_are_merged_in_one_pass() {
        // 64 results, each row holding 64 choices of its own: 4,096
        // distinct tables, each made once.
        let choices: String = (0..64).map(|i| format!(" [|{{$c}}||{i}]")).collect();
        let results: String = (0..64).map(|i| format!("r{i}\n")).collect();
        let text = format!("Table: M\nSet: c=[@C]\n{{$c}}{choices}\nTable: C\n{results}");
        let s = read("f.ipt", "f", &text);
        assert!(refusals(&s).is_empty(), "{:?}", &refusals(&s)[..1]);
        assert_eq!(s.tables[0].rows.len(), 64);
        assert_eq!(s.tables.iter().filter(|t| t.synthetic).count(), 64 * 64);
    }

    #[test]
    fn the_rows_written_out_keep_the_file_within_its_rows() {
        let mut text = String::new();
        for i in 0..800 {
            text.push_str(&format!("Table: M{i}\nSet: c=[@C]\n{{$c}}{{$c}}\n"));
        }
        text.push_str("Table: C\n");
        text.extend((0..256).map(|i| format!("r{i}\n")));
        let s = read("f.ipt", "f", &text);
        let rows: usize = s.tables.iter().map(|t| t.rows.len()).sum();
        assert!(rows <= 200_000, "{rows}");
        let written = s.tables.iter().filter(|t| t.rows.len() == 256).count();
        // 200,000 less the file's 1,056 rows of its own leave room for 777
        // tables of 256 rows; `C` has 256 too.
        assert_eq!(written, 777 + 1);
        assert!(refusals(&s).iter().any(|r| r.contains("a second time")));
    }

    #[test]
    fn a_lookup_by_key_finds_a_dictionary_row() {
        let s = read(
            "f.ipt",
            "f",
            "Table: M\n[#mild Say] and [#7 Say]\nTable: Say\nType: Dictionary\nMild:soft\n7:seven\n",
        );
        assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
        let copies: Vec<String> = s
            .tables
            .iter()
            .filter(|t| t.synthetic)
            .map(|t| shown(&t.rows[0].text))
            .collect();
        assert_eq!(copies, ["soft", "seven"]);
        let s = read(
            "f.ipt",
            "f",
            "Table: M\n[#wild Say]\nTable: Say\nType: Dictionary\nmild:soft\n",
        );
        assert!(
            refusals(&s)[0].contains("has no row for wild"),
            "{:?}",
            refusals(&s)
        );
    }
}
