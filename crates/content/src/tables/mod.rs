//! The resolver: rolling on checked tables. Ranged rows by the table's die,
//! weighted rows by our weighted pick; inline `{d4}`, `{table:ID}` and
//! `{pick: …}` resolved in order; "roll N times" rows (with or without
//! repeats); tag filters and decks by rejection, which keeps the odds of
//! the remaining rows exact. Every result keeps its trail
//! (`core.mutation d12 = 9 → core.mutation.body d20 = 14 → pick d6 = 3`).
//!
//! [`odds`] gives the exact chance of every row, sub-tables and roll-again
//! rows included.
//!
//! `work`: rolling is bounded by count, never by time — a command is
//! priced before any roll ([`Library::price`], at most
//! [`MAX_ROLLS_PER_COMMAND`]) and one result makes at most
//! [`MAX_ROLLS_PER_RESULT`] table rolls; [`Library::roll_each`] hands the
//! results over one at a time, so a caller keeps only what it prints.

pub mod odds;
mod work;

use std::fmt;

use serde::Serialize;

use crate::content::template::Segment;
use crate::content::validate::generation::MAX_REROLL_DEPTH;
use crate::content::{Effect, Library, Row, Stats, Table};
use crate::dice;
use crate::seed::{DieSource, Stream};
use work::Work;
pub use work::{MAX_ROLLS_PER_COMMAND, MAX_ROLLS_PER_RESULT};

/// Deepest nesting of sub-tables (`validate` refuses chains of more than
/// `content::validate::MAX_REFERENCE_DEPTH`, so this is a guard).
pub const MAX_DEPTH: usize = 24;
/// Attempts a filter or deck may reject before giving up.
const MAX_REJECTS: usize = 10_000;
/// Why a table could not be rolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollError {
    /// No table in effect has the id.
    UnknownTable {
        /// The id asked for.
        id: String,
        /// A close id, to offer.
        suggestion: Option<String>,
    },
    /// A filter by tag left no row.
    NoRowWithTag {
        /// The table.
        id: String,
        /// The tag asked for.
        tag: String,
        /// The tags the table's rows do carry.
        tags: Vec<String>,
    },
    /// A deck table asked for more draws than it has rows.
    DeckEmpty {
        /// The table.
        id: String,
        /// How many rows the deck has.
        rows: usize,
    },
    /// Every row is tagged for eras other than the one declared.
    NoRowForEra {
        /// The table.
        id: String,
        /// The era declared, if any.
        era: Option<String>,
    },
    /// Sub-tables nested past [`MAX_DEPTH`].
    TooDeep {
        /// The table rolled at the top.
        id: String,
    },
    /// One result passed [`MAX_ROLLS_PER_RESULT`].
    TooBig {
        /// The table rolled at the top.
        id: String,
    },
    /// `times` results would make about `total` table rolls, past
    /// [`MAX_ROLLS_PER_COMMAND`]; `most` results would fit.
    TooMuchWork {
        /// The table asked for.
        id: String,
        /// The results asked for.
        times: usize,
        /// The table rolls they would make, estimated.
        total: u64,
        /// The most results that fit.
        most: u64,
    },
}

impl fmt::Display for RollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollError::UnknownTable { id, suggestion } => {
                write!(f, "there is no table `{id}`")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean `{s}`?"),
                    None => write!(f, "; `tablewright tables` lists them"),
                }
            }
            RollError::NoRowWithTag { id, tag, tags } => {
                write!(f, "no row of `{id}` has the tag `{tag}`")?;
                if tags.is_empty() {
                    write!(f, "; this table has no tags")
                } else {
                    write!(f, "; its tags are: {}", tags.join(", "))
                }
            }
            RollError::DeckEmpty { id, rows } => write!(
                f,
                "`{id}` is a deck of {rows} rows and every one has been drawn; ask for {rows} or fewer"
            ),
            RollError::NoRowForEra { id, era } => write!(
                f,
                "every row of `{id}` is tagged for another era ({}), so nothing can be drawn \
                 from it; leave a row untagged or declare one of its eras (`era = \"...\"` in \
                 campaign.toml)",
                era.as_deref()
                    .map_or("no era is declared".to_owned(), |e| format!(
                        "the era declared is `{e}`"
                    ))
            ),
            RollError::TooDeep { id } => write!(
                f,
                "rolling `{id}` nested more than {MAX_DEPTH} tables deep; check its roll-again rows"
            ),
            RollError::TooBig { id } => write!(
                f,
                "one result of `{id}` made more than {MAX_ROLLS_PER_RESULT} table rolls (sub-tables and roll-again rows), so it was stopped; make its roll-again rows rarer or its rows refer to fewer tables"
            ),
            RollError::TooMuchWork {
                id,
                times,
                total,
                most,
            } => write!(
                f,
                "{times} results of `{id}` would make about {total} table rolls ({:.1} per result on average, with sub-tables and roll-again rows); the most one command makes is {MAX_ROLLS_PER_COMMAND:.0}, so nothing was rolled; ask for at most {most} results",
                *total as f64 / (*times).max(1) as f64
            ),
        }
    }
}

impl std::error::Error for RollError {}

/// One step of a result's trail.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// A table's die (or weighted pick, with `dice` = "weights").
    Table {
        /// The table rolled.
        id: String,
        /// Its dice, or `weights`.
        dice: String,
        /// What the dice showed, or the 1-based row drawn by weight.
        result: i64,
    },
    /// An inline roll in the text.
    Dice {
        /// The notation as written.
        expr: String,
        /// The roll's total.
        result: i64,
    },
    /// A `{pick: …}`: option `chosen` of `of`.
    Pick {
        /// How many options there were.
        of: usize,
        /// The option taken, from 1.
        chosen: usize,
    },
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Table { id, dice, result } => write!(f, "{id} {dice} = {result}"),
            Step::Dice { expr, result } => write!(f, "{expr} = {result}"),
            Step::Pick { of, chosen } => write!(f, "pick d{of} = {chosen}"),
        }
    }
}

/// A rolled table result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRoll {
    /// The id of the table rolled.
    pub table: String,
    /// Its title.
    pub title: String,
    /// The die result (ranged tables) or the 1-based row drawn (weighted).
    pub result: i64,
    /// The name of the row drawn.
    pub row: String,
    /// The row's roll or weight as its table writes it (`13-14`, `w2`).
    pub label: String,
    /// The row's text with every placeholder resolved.
    pub text: String,
    /// The row's tags.
    pub tags: Vec<String>,
    /// The row's effects.
    pub effects: Vec<Effect>,
    /// The row's stats, for an archetype.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
    /// Sub-table results, in text order.
    pub nested: Vec<TableRoll>,
    /// The N results of a "roll N times" row.
    pub rerolls: Vec<TableRoll>,
    /// Every die on the way here, in order.
    pub trail: Vec<Step>,
}

impl TableRoll {
    /// `d12 = 9 → core.mutation.body d20 = 14 → pick d6 = 3`.
    pub fn trail_text(&self) -> String {
        self.trail
            .iter()
            .map(Step::to_string)
            .collect::<Vec<_>>()
            .join(" → ")
    }

    /// The final rows, expanding "roll N times" results.
    pub fn leaves(&self) -> Vec<&TableRoll> {
        if self.rerolls.is_empty() {
            vec![self]
        } else {
            self.rerolls.iter().flat_map(TableRoll::leaves).collect()
        }
    }
}

/// Options for one roll.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only rows with this tag (top level only).
    pub tag: Option<String>,
    /// Row indices already drawn from a deck table.
    pub drawn: Vec<usize>,
}

impl Library {
    /// Find a table, or say which id was probably meant.
    pub fn table(&self, id: &str) -> Result<&Table, RollError> {
        self.get(id).ok_or_else(|| RollError::UnknownTable {
            id: id.to_owned(),
            suggestion: crate::content::validate::closest(
                id,
                self.tables.keys().map(String::as_str),
            )
            .map(str::to_owned),
        })
    }

    /// Roll `times` results on a table, each on its own stream
    /// (`table/<id>/<i>`), so asking for more never changes the first ones.
    /// Deck tables draw without replacement across the results.
    pub fn roll_times(
        &self,
        id: &str,
        times: usize,
        tag: Option<&str>,
        seed: &crate::seed::Seed,
    ) -> Result<Vec<TableRoll>, RollError> {
        let mut out = Vec::with_capacity(times.min(1 << 16));
        self.roll_each(id, times, tag, seed, |r| {
            out.push(r);
            Ok::<(), RollError>(())
        })?;
        Ok(out)
    }

    /// [`Library::roll_times`], priced first ([`Library::price`]) and handed
    /// to `each` one result at a time, so memory holds one result's tree,
    /// not all of them.
    pub fn roll_each<E: From<RollError>>(
        &self,
        id: &str,
        times: usize,
        tag: Option<&str>,
        seed: &crate::seed::Seed,
        mut each: impl FnMut(TableRoll) -> Result<(), E>,
    ) -> Result<(), E> {
        self.price(id, times)?;
        let table = self.table(id)?;
        let mut filter = Filter {
            tag: tag.map(str::to_owned),
            drawn: Vec::new(),
        };
        for i in 0..times {
            let mut stream = seed.stream(&format!("table/{id}/{i}"));
            let mut work = Work::result();
            let (roll, index) = self.roll_filtered(table, &mut stream, &filter, 0, &mut work)?;
            if table.deck {
                filter.drawn.push(index);
            }
            each(roll)?;
        }
        Ok(())
    }

    /// Resolve a chosen row's placeholders as if it had been rolled (for
    /// callers that pick rows themselves, e.g. by a filter of their own).
    pub fn resolve(
        &self,
        id: &str,
        index: usize,
        stream: &mut Stream,
    ) -> Result<TableRoll, RollError> {
        let table = self.table(id)?;
        let mut work = Work::result();
        self.resolve_row(table, index, index as i64 + 1, stream, (0, 0), &mut work)
    }

    /// One roll on a table.
    pub fn roll_table(&self, id: &str, stream: &mut Stream) -> Result<TableRoll, RollError> {
        let table = self.table(id)?;
        let mut work = Work::result();
        Ok(self
            .roll_filtered(table, stream, &Filter::default(), 0, &mut work)?
            .0)
    }

    fn roll_filtered(
        &self,
        table: &Table,
        stream: &mut Stream,
        filter: &Filter,
        depth: usize,
        work: &mut Work,
    ) -> Result<(TableRoll, usize), RollError> {
        if depth > MAX_DEPTH {
            return Err(RollError::TooDeep {
                id: table.id.clone(),
            });
        }
        let allowed = |i: usize, row: &Row| {
            self.drawable(row)
                && filter
                    .tag
                    .as_ref()
                    .is_none_or(|t| row.entry.tags.iter().any(|x| x == t))
                && !filter.drawn.contains(&i)
        };
        if let Some(tag) = &filter.tag
            && !table
                .rows
                .iter()
                .any(|r| r.entry.tags.iter().any(|x| x == tag))
        {
            let mut tags: Vec<String> = table
                .rows
                .iter()
                .flat_map(|r| r.entry.tags.iter().map(|t| t.to_string()))
                .collect();
            tags.sort();
            tags.dedup();
            return Err(RollError::NoRowWithTag {
                id: table.id.clone(),
                tag: tag.clone(),
                tags,
            });
        }
        if !table.rows.iter().any(|r| self.drawable(r)) {
            return Err(RollError::NoRowForEra {
                id: table.id.clone(),
                era: self.era.clone(),
            });
        }
        if !table.rows.iter().enumerate().any(|(i, r)| allowed(i, r)) {
            return Err(RollError::DeckEmpty {
                id: table.id.clone(),
                rows: table.rows.len(),
            });
        }
        // Weighted tables draw among the allowed rows directly (exact, and
        // no rare tag can run out of tries); dice tables reject and reroll,
        // which keeps the allowed rows' odds in proportion.
        if table.dice_expr().is_none() {
            let index = stream
                .pick_weighted(&weights(table, allowed))
                .expect("an allowed row exists");
            let roll =
                self.resolve_row(table, index, index as i64 + 1, stream, (depth, 0), work)?;
            return Ok((roll, index));
        }
        for _ in 0..MAX_REJECTS {
            let (index, result) = self.draw(table, stream);
            if allowed(index, &table.rows[index]) {
                let roll = self.resolve_row(table, index, result, stream, (depth, 0), work)?;
                return Ok((roll, index));
            }
        }
        Err(RollError::DeckEmpty {
            id: table.id.clone(),
            rows: table.rows.len(),
        })
    }

    /// Throw the table's die (or weighted pick): (row index, result shown).
    fn draw(&self, table: &Table, stream: &mut Stream) -> (usize, i64) {
        match table.dice_expr() {
            Some(roll) => {
                let v = roll.total(stream);
                let index = table
                    .rows
                    .iter()
                    .position(|r| r.entry.range.is_some_and(|(a, b)| (a..=b).contains(&v)))
                    .expect("validated tables cover their die");
                (index, v)
            }
            None => {
                let index = stream
                    .pick_weighted(&weights(table, |_, _| true))
                    .expect("validated weights are positive");
                (index, index as i64 + 1)
            }
        }
    }

    /// Row `index` of `table`, at `depth` references and `nest` roll-again
    /// rows deep.
    fn resolve_row(
        &self,
        table: &Table,
        index: usize,
        result: i64,
        stream: &mut Stream,
        (depth, nest): (usize, usize),
        work: &mut Work,
    ) -> Result<TableRoll, RollError> {
        work.count(table)?;
        let row = &table.rows[index];
        let mut trail = vec![Step::Table {
            id: table.id.clone(),
            dice: table.dice.as_deref().unwrap_or("weights").to_owned(),
            result,
        }];
        let mut nested = Vec::new();
        let mut rerolls = Vec::new();
        let mut text = String::new();
        self.render(
            row.template(),
            stream,
            depth,
            &mut text,
            (&mut trail, &mut nested),
            work,
        )?;
        if row.entry.reroll.is_some() {
            rerolls = self.roll_again(table, row, stream, (depth, nest), &mut trail, work)?;
            let parts: Vec<String> = rerolls
                .iter()
                .map(|r| format!("{}: {}", r.row, r.text))
                .collect();
            text = format!("{text} → {}", parts.join(" + "));
        }
        Ok(TableRoll {
            table: table.id.clone(),
            title: table.title.to_string(),
            result,
            row: row.entry.name.to_string(),
            label: row.label(),
            text,
            tags: row.entry.tags.iter().map(|t| t.to_string()).collect(),
            effects: row.entry.effects.to_vec(),
            stats: row.entry.stats.as_deref().cloned(),
            nested,
            rerolls,
            trail,
        })
    }

    /// The `n` results of a "roll N times" row, each drawn afresh from
    /// the same table (a `distinct` row never repeats a plain row); their
    /// dice join `trail`.
    fn roll_again(
        &self,
        table: &Table,
        row: &Row,
        stream: &mut Stream,
        (depth, nest): (usize, usize),
        trail: &mut Vec<Step>,
        work: &mut Work,
    ) -> Result<Vec<TableRoll>, RollError> {
        let n = row.entry.reroll.unwrap_or(0);
        let mut rerolls = Vec::new();
        let mut taken: Vec<usize> = Vec::new();
        let mut attempts = 0;
        while rerolls.len() < n as usize {
            attempts += 1;
            if attempts > MAX_REJECTS {
                return Err(RollError::TooDeep {
                    id: table.id.clone(),
                });
            }
            let (i, v) = self.draw(table, stream);
            let again = &table.rows[i];
            if !self.drawable(again) {
                continue;
            }
            if row.entry.distinct && again.entry.reroll.is_none() && taken.contains(&i) {
                continue;
            }
            if nest + 1 > MAX_REROLL_DEPTH && again.entry.reroll.is_some() {
                continue;
            }
            let r = self.resolve_row(table, i, v, stream, (depth, nest + 1), work)?;
            if again.entry.reroll.is_none() {
                taken.push(i);
            }
            trail.extend(r.trail.iter().cloned());
            rerolls.push(r);
        }
        Ok(rerolls)
    }

    fn render(
        &self,
        segments: &[Segment],
        stream: &mut Stream,
        depth: usize,
        text: &mut String,
        (trail, nested): (&mut Vec<Step>, &mut Vec<TableRoll>),
        work: &mut Work,
    ) -> Result<(), RollError> {
        for s in segments {
            match s {
                Segment::Text { text: t } => text.push_str(t),
                Segment::Dice { expr, parsed } => {
                    let v = dice::roll(parsed, stream).value();
                    trail.push(Step::Dice {
                        expr: expr.clone(),
                        result: v,
                    });
                    text.push_str(&v.to_string());
                }
                Segment::Table { id, .. } => {
                    let sub = self.table(id)?;
                    let (r, _) =
                        self.roll_filtered(sub, stream, &Filter::default(), depth + 1, work)?;
                    trail.extend(r.trail.iter().cloned());
                    if sub.text_only {
                        text.push_str(&r.text);
                    } else {
                        text.push_str(&format!("{}: {}", r.row, r.text));
                    }
                    nested.push(r);
                }
                Segment::Pick { options } => {
                    let chosen = stream.die(options.len() as u32) as usize;
                    trail.push(Step::Pick {
                        of: options.len(),
                        chosen,
                    });
                    self.render(
                        &options[chosen - 1],
                        stream,
                        depth,
                        text,
                        (&mut *trail, &mut *nested),
                        work,
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// Each row's weight, or 0 for a row that is not `allowed`.
fn weights(table: &Table, allowed: impl Fn(usize, &Row) -> bool) -> Vec<u64> {
    table
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if allowed(i, r) {
                r.entry.weight.unwrap_or(0)
            } else {
                0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::odds::row_chances;
    use super::*;
    use crate::seed::Seed;

    fn builtin() -> Library {
        crate::content::test_library()
    }

    /// Chi-square of first-draw row counts against the exact chances
    /// (critical value at p ≈ 1e-6 by Wilson–Hilferty).
    fn check_frequencies(library: &Library, id: &str, tag: Option<&str>) {
        let table = library.table(id).unwrap();
        let mut chances = row_chances(table);
        if let Some(tag) = tag {
            // A filter keeps the other rows' odds in proportion.
            for (c, row) in chances.iter_mut().zip(&table.rows) {
                if !row.entry.tags.iter().any(|t| t == tag) {
                    *c = 0.0;
                }
            }
            let total: f64 = chances.iter().sum();
            chances.iter_mut().for_each(|c| *c /= total);
        }
        let n = 40_000u32;
        let seed = Seed::new("table-statistics").unwrap();
        let mut counts: BTreeMap<String, u32> = BTreeMap::new();
        let results = library.roll_times(id, n as usize, tag, &seed).unwrap();
        for r in &results {
            *counts.entry(format!("{}|{}", r.label, r.row)).or_default() += 1;
        }
        let mut chi = 0.0;
        let mut bins = 0;
        for (row, &p) in table.rows.iter().zip(&chances) {
            let key = format!("{}|{}", row.label(), row.entry.name);
            let observed = f64::from(counts.get(&key).copied().unwrap_or(0));
            if p == 0.0 {
                assert_eq!(
                    observed,
                    0.0,
                    "{id}: row {} drawn despite the filter",
                    row.label()
                );
                continue;
            }
            let expected = p * f64::from(n);
            chi += (observed - expected).powi(2) / expected;
            bins += 1;
        }
        let df = f64::from(bins - 1);
        let critical = df * (1.0 - 2.0 / (9.0 * df) + 4.753 * (2.0 / (9.0 * df)).sqrt()).powi(3);
        assert!(chi < critical, "{id}: chi-square {chi:.1} ≥ {critical:.1}");
    }

    #[test]
    fn ranged_weighted_and_filtered_draws_follow_the_exact_odds() {
        let library = builtin();
        check_frequencies(&library, "core.mutation", None);
        check_frequencies(&library, "core.mutation.abilities", None);
        check_frequencies(&library, "gen.npc.core", None);
        check_frequencies(&library, "gen.poi", Some("swamp"));
    }

    #[test]
    fn roll_twice_always_ends_in_plain_rows() {
        let library = builtin();
        let seed = Seed::new("roll-twice").unwrap();
        let results = library
            .roll_times("core.mutation", 3000, None, &seed)
            .unwrap();
        let mut twice = 0;
        for r in &results {
            let leaves = r.leaves();
            assert!(
                leaves
                    .iter()
                    .all(|l| l.rerolls.is_empty() && l.row != "Roll twice")
            );
            if r.label == "12" {
                twice += 1;
                assert!(leaves.len() >= 2, "{r:?}");
            }
        }
        assert!(twice > 0);
    }

    #[test]
    fn the_trail_names_every_die() {
        let library = builtin();
        let seed = Seed::new("trail").unwrap();
        let r = &library.roll_times("core.injury", 12, None, &seed).unwrap();
        for roll in r {
            let trail = roll.trail_text();
            assert!(
                trail.starts_with(&format!("core.injury d12 = {}", roll.result)),
                "{trail}"
            );
            if roll.text.contains("drops") || roll.label == "3" {
                assert!(trail.contains("d4 = "), "{trail}");
            }
        }
    }

    /// Each row's share of `n` rolls of `id` is within 4.5 standard errors
    /// of the chance `odds --table` prints (`sqrt(p(1 - p)/n)`: a false
    /// alarm under one in 100,000 a row), and the rows rolled are exactly
    /// those the odds give a chance.
    fn rolled_as_the_odds_say(library: &Library, id: &str, n: usize, seed: &str) {
        let odds = library.table_odds(id).unwrap();
        let seed = Seed::new(seed).unwrap();
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for r in library.roll_times(id, n, None, &seed).unwrap() {
            *counts.entry(r.row).or_default() += 1;
        }
        let era = library.era.as_deref().unwrap_or("none");
        for row in &odds.rows {
            let seen = counts.get(&row.name).copied().unwrap_or(0);
            let share = seen as f64 / n as f64;
            let sd = (row.chance * (1.0 - row.chance) / n as f64).sqrt();
            assert!(
                (share - row.chance).abs() <= 4.5 * sd,
                "{id}, era {era}: `{}` rolled {seen} of {n} ({share:.4}), odds say {:.4}",
                row.name,
                row.chance
            );
            assert_eq!(
                seen > 0,
                row.chance > 0.0,
                "{id}, era {era}: `{}` rolled {seen} times at odds {}",
                row.name,
                row.chance
            );
        }
        let listed: Vec<&str> = odds.rows.iter().map(|r| r.name.as_str()).collect();
        assert!(counts.keys().all(|k| listed.contains(&k.as_str())));
    }

    #[test]
    fn every_row_is_rolled_at_its_odds_with_no_era_and_with_one() {
        let mut library = builtin();
        let id = "mettle.traps";
        let mine = "Anti-personnel mine";
        let chance = |library: &Library| {
            let odds = library.table_odds(id).unwrap();
            odds.rows.iter().find(|r| r.name == mine).unwrap().chance
        };
        // No era declared: every row, the mine among them (1 in 5).
        assert!((chance(&library) - 0.2).abs() < 1e-12);
        rolled_as_the_odds_say(&library, id, 1_500, "era-none");
        // An era: the untagged rows and that era's.
        library.era = Some("medieval".into());
        assert_eq!(chance(&library), 0.0);
        let odds = library.table_odds(id).unwrap();
        assert!(
            odds.rows
                .iter()
                .all(|r| r.name == mine || (r.chance - 0.25).abs() < 1e-12)
        );
        rolled_as_the_odds_say(&library, id, 1_500, "era-medieval");
        library.era = Some("modern".into());
        assert!((chance(&library) - 0.2).abs() < 1e-12);
        rolled_as_the_odds_say(&library, id, 1_500, "era-modern");
    }

    #[test]
    fn a_table_with_no_row_of_the_era_is_refused_by_roll_and_odds_alike() {
        let mut library = builtin();
        let mut table = library.table("mettle.traps").unwrap().clone();
        table.rows.truncate(1);
        table.id = "test.mines".into();
        library.tables.insert(table.id.clone(), table);
        assert!(library.table_odds("test.mines").is_ok());
        library.era = Some("medieval".into());
        let seed = Seed::new("x").unwrap();
        let rolled = library
            .roll_times("test.mines", 1, None, &seed)
            .unwrap_err();
        let odds = library.table_odds("test.mines").unwrap_err();
        assert!(matches!(rolled, RollError::NoRowForEra { .. }), "{rolled}");
        assert_eq!(rolled, odds);
    }
}
