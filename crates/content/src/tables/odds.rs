//! Exact odds of a table: the chance of each row per roll (from the exact
//! distribution of the table's die, or the weights), the chance of every
//! sub-table row reached through `{table:…}` (the product down the path),
//! and, for tables with "roll N times" rows, how many times each row turns
//! up in one result on average: with roll-again rows of chance `p_r` asking
//! for `N_r` rolls, one result makes `1 / (1 − Σ N_r·p_r)` plain draws in
//! expectation, so a row of chance `p` appears `p / (1 − Σ N_r·p_r)` times.

use serde::Serialize;

use super::{MAX_DEPTH, RollError};
use crate::content::template::{self};
use crate::content::{self, Library, Table};

/// Exact odds of every row of a table, and of the tables its rows roll on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableOdds {
    /// The table's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its dice, or `weights` for a weighted table.
    pub dice: String,
    /// Each row's odds, in table order.
    pub rows: Vec<RowOdds>,
    /// Average plain draws in one result (1 without roll-again rows); `None`
    /// when roll-again rows could go on forever on average.
    pub draws_per_result: Option<f64>,
}

/// One row's odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RowOdds {
    /// The row's roll or weight as its table writes it.
    pub label: String,
    /// The row's name.
    pub name: String,
    /// Chance per roll of this table.
    pub chance: f64,
    /// Chance per roll of the table at the top of the tree.
    pub overall: f64,
    /// Average appearances in one result of the top table (roll-again rows
    /// included); for a roll-again row, how often it is rolled.
    pub expected: f64,
    /// For a roll-again row, how many rolls it makes.
    pub reroll: Option<u32>,
    /// Sub-tables this row rolls on.
    pub sub: Vec<TableOdds>,
    /// Why a roll never lands on this row under the era in effect (its
    /// chance is 0 and the others share its part): `None` for a row that
    /// may be drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_drawn: Option<String>,
}

impl Library {
    /// Why `row` is not drawn under the era declared: its era tags.
    fn not_drawn(&self, row: &content::Row) -> String {
        let tags: Vec<String> = content::era::eras(row)
            .map(|e| format!("{}{e}", content::era::PREFIX))
            .collect();
        format!(
            "tagged {}; the era declared is `{}`",
            tags.join(", "),
            self.era.as_deref().unwrap_or_default()
        )
    }
}

/// Chance of each row of a table per roll.
pub fn row_chances(table: &Table) -> Vec<f64> {
    content::row_chances(&table.rows, table.dice_expr())
}

impl Library {
    /// Exact odds of every row of `id` and everything below it.
    pub fn table_odds(&self, id: &str) -> Result<TableOdds, RollError> {
        self.odds_at(self.table(id)?, 1.0, 1.0, 0)
    }

    fn odds_at(
        &self,
        table: &Table,
        overall: f64,
        factor: f64,
        depth: usize,
    ) -> Result<TableOdds, RollError> {
        if depth > MAX_DEPTH {
            return Err(RollError::TooDeep {
                id: table.id.clone(),
            });
        }
        if !table.rows.is_empty() && !table.rows.iter().any(|r| self.drawable(r)) {
            return Err(RollError::NoRowForEra {
                id: table.id.clone(),
                era: self.era.clone(),
            });
        }
        // The rows a roll may land on under the era in effect, as the
        // resolver draws them ([`Library::drawable`]).
        let chances = self.drawn_chances(table);
        let again = content::rerolls_per_roll(&table.rows, &chances);
        let draws = if again < 1.0 {
            Some(1.0 / (1.0 - again))
        } else {
            None
        };
        let here = factor * draws.unwrap_or(f64::INFINITY);
        let mut rows = Vec::with_capacity(table.rows.len());
        for (row, &p) in table.rows.iter().zip(&chances) {
            let mut sub = Vec::new();
            for (sub_id, _) in template::references(row.template()) {
                // Rows reached through a `{pick: …}` share its chance;
                // listing them under the row is what a GM reads.
                sub.push(self.odds_at(self.table(sub_id)?, overall * p, here * p, depth + 1)?);
            }
            rows.push(RowOdds {
                label: row.label(),
                name: row.entry.name.to_string(),
                chance: p,
                overall: overall * p,
                expected: here * p,
                reroll: row.entry.reroll,
                sub,
                not_drawn: (!self.drawable(row)).then(|| self.not_drawn(row)),
            });
        }
        Ok(TableOdds {
            id: table.id.clone(),
            title: table.title.to_string(),
            dice: table.dice.as_deref().unwrap_or("weights").to_owned(),
            rows,
            draws_per_result: draws,
        })
    }
}
