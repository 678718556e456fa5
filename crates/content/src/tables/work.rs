//! What rolling may cost, counted and never timed: a command that asks
//! for many results is priced before any roll ([`Library::price`]: results
//! × the expected table rolls of one, worked out by
//! `content::validate::generation::expected_rolls` as the resolver rolls)
//! and refused past [`MAX_ROLLS_PER_COMMAND`]; one result's table rolls
//! (itself, sub-tables, roll-again rows) are counted as they are made
//! ([`Work`]) and refused past [`MAX_ROLLS_PER_RESULT`], so one result's
//! tree never outgrows that many nodes.

use super::RollError;
use crate::content::{Library, Table};

/// Table rolls one result may make: itself, its sub-tables and its
/// roll-again rows (the most a validated table makes without roll-again
/// rows, `content::validate::generation::MAX_WORST_ROLLS`). A result that
/// would make more is refused when the count passes it.
pub const MAX_ROLLS_PER_RESULT: u64 = 100_000;
/// Table rolls one command may make on average (results × the expected
/// rolls of one), priced before any roll.
pub const MAX_ROLLS_PER_COMMAND: f64 = 2_000_000.0;

impl Library {
    /// The table rolls `times` results of `id` make on average, refused
    /// past [`MAX_ROLLS_PER_COMMAND`] (before anything is rolled).
    pub fn price(&self, id: &str, times: usize) -> Result<f64, RollError> {
        self.table(id)?;
        let each = crate::content::validate::generation::expected_rolls(&self.tables, id);
        let total = times as f64 * each;
        if total > MAX_ROLLS_PER_COMMAND {
            return Err(RollError::TooMuchWork {
                id: id.to_owned(),
                times,
                total: total.min(u64::MAX as f64) as u64,
                most: (MAX_ROLLS_PER_COMMAND / each).floor() as u64,
            });
        }
        Ok(total)
    }
}

/// Table rolls made so far for one result, against its limit.
pub(super) struct Work {
    pub(super) rolls: u64,
    limit: u64,
}

impl Work {
    /// A fresh count for one result, limited to [`MAX_ROLLS_PER_RESULT`].
    pub(super) fn result() -> Self {
        Self::limited(MAX_ROLLS_PER_RESULT)
    }

    /// A fresh count limited to `limit` table rolls.
    pub(super) fn limited(limit: u64) -> Self {
        Work { rolls: 0, limit }
    }

    /// One more table roll (on `table`), refused past the limit.
    pub(super) fn count(&mut self, table: &Table) -> Result<(), RollError> {
        self.rolls += 1;
        if self.rolls > self.limit {
            return Err(RollError::TooBig {
                id: table.id.clone(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::SourceFile;
    use crate::seed::Seed;
    use crate::tables::{Filter, TableRoll};

    /// A d1000 table that rolls twice on 499 faces in 1000: 0.998 new rolls
    /// per roll, just under the 1 that `validate` refuses (issue 19,
    /// finding 10). `refs` sub-table rolls on every plain row.
    fn near_critical(refs: usize) -> Library {
        let text = format!(
            "[[table]]\nid = \"fx.crit\"\ntitle = \"Near-critical\"\nsystem = \"any\"\nsource = \"fixture\"\ndice = \"d1000\"\n\n\
             [[table.row]]\nroll = \"1-501\"\nname = \"Plain\"\ntext = \"plain {{d6}}{}\"\n\n\
             [[table.row]]\nroll = \"502-1000\"\nname = \"Twice\"\ntext = \"Roll twice.\"\nreroll = 2\n",
            " {table:gen.names.given}".repeat(refs)
        );
        let (library, problems) =
            Library::from_user_files(vec![SourceFile::new("crit.toml", text, 1)]);
        assert!(problems.is_empty(), "{problems:?}");
        library
    }

    /// Table rolls in a result's tree: itself, its sub-tables and its
    /// roll-again results.
    fn nodes(r: &TableRoll) -> u64 {
        1 + r.nested.iter().chain(&r.rerolls).map(nodes).sum::<u64>()
    }

    /// The price's expectation is the resolver's: the mean count of table
    /// rolls over 20,000 results lies within 5 standard errors of it.
    #[test]
    fn the_expected_rolls_are_what_rolling_makes() {
        for (library, id) in [
            (near_critical(0), "fx.crit"),
            (near_critical(1), "fx.crit"),
            (crate::content::test_library(), "core.mutation"),
        ] {
            let n = 20_000;
            let seed = Seed::new("expected-rolls").unwrap();
            let counts: Vec<f64> = library
                .roll_times(id, n, None, &seed)
                .unwrap()
                .iter()
                .map(|r| nodes(r) as f64)
                .collect();
            let mean = counts.iter().sum::<f64>() / n as f64;
            let var = counts.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let se = (var / n as f64).sqrt();
            let expected = library.price(id, 1).unwrap();
            assert!(
                (mean - expected).abs() < 5.0 * se + 1e-9,
                "{id}: mean {mean:.3} rolls, expected {expected:.3} (se {se:.3})"
            );
        }
    }

    /// A result is cut off when its count passes the limit: it never makes
    /// more than `limit + 1` table rolls, whatever its tree would have been.
    #[test]
    fn one_result_makes_at_most_its_limit_of_table_rolls() {
        let library = near_critical(0);
        let table = library.table("fx.crit").unwrap();
        let seed = Seed::new("limited").unwrap();
        let limit = 40;
        let (mut kept, mut cut) = (0, 0);
        for i in 0..5_000 {
            let mut stream = seed.stream(&format!("table/fx.crit/{i}"));
            let mut work = Work::limited(limit);
            match library.roll_filtered(table, &mut stream, &Filter::default(), 0, &mut work) {
                Ok((r, _)) => {
                    kept += 1;
                    assert_eq!(nodes(&r), work.rolls);
                    assert!(work.rolls <= limit);
                }
                Err(e) => {
                    cut += 1;
                    assert_eq!(
                        e,
                        RollError::TooBig {
                            id: "fx.crit".into()
                        }
                    );
                    assert_eq!(work.rolls, limit + 1);
                }
            }
        }
        assert!(kept > 1_000 && cut > 10, "{kept} kept, {cut} cut");
    }

    /// Past the command's limit nothing is rolled: the refusal comes from
    /// the price, before the first result.
    #[test]
    fn a_command_past_its_price_is_refused_before_any_roll() {
        let library = near_critical(1);
        let each = library.price("fx.crit", 1).unwrap();
        let most = (MAX_ROLLS_PER_COMMAND / each).floor() as usize;
        assert!(library.price("fx.crit", most).is_ok());
        let seed = Seed::new("priced").unwrap();
        let mut handed = 0;
        let refused = library.roll_each("fx.crit", most + 1, None, &seed, |_| {
            handed += 1;
            Ok::<(), RollError>(())
        });
        assert_eq!(handed, 0);
        match refused {
            Err(RollError::TooMuchWork { times, most: m, .. }) => {
                assert_eq!((times, m as usize), (most + 1, most));
            }
            other => panic!("{other:?}"),
        }
    }
}
