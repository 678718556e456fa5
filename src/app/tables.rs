//! The table commands: `tables` (the list, with what overrides what),
//! `table` (roll with a trail of dice), `odds --table` and `validate`.

use std::io::Write;

use serde::Serialize;

use super::Config;
use crate::content::Library;
use crate::error::Error;
use crate::render::text;
use crate::tables::TableRoll;

#[derive(Serialize)]
struct TableListing<'a> {
    id: &'a str,
    title: &'a str,
    dice: String,
    system: &'a str,
    source: &'a str,
    rows: usize,
    from: String,
    overrides: Option<String>,
}

pub fn list(cfg: &Config, out: &mut dyn Write) -> Result<(), Error> {
    let library = cfg.library()?;
    let listing: Vec<TableListing> = library
        .tables
        .values()
        .map(|t| TableListing {
            id: &t.id,
            title: &t.title,
            dice: t.dice.clone().unwrap_or_else(|| "weights".into()),
            system: t.system.as_str(),
            source: &t.source,
            rows: t.rows.len(),
            from: format!("{}:{}", t.origin.file, t.origin.line),
            overrides: library
                .overridden
                .iter()
                .rev()
                .find(|o| o.id == t.id)
                .map(|o| format!("{}:{}", o.was.file, o.was.line)),
        })
        .collect();
    if cfg.json {
        return super::json(out, &listing);
    }
    let id_w = listing.iter().map(|l| l.id.len()).max().unwrap_or(2).max(2);
    let title_w = listing
        .iter()
        .map(|l| l.title.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 34);
    writeln!(
        out,
        "{:<id_w$}  {:<title_w$}  {:<7}  {:<6}  {:>4}  source",
        "id", "title", "dice", "system", "rows"
    )?;
    for l in &listing {
        let title: String = l.title.chars().take(title_w).collect();
        writeln!(
            out,
            "{:<id_w$}  {:<title_w$}  {:<7}  {:<6}  {:>4}  {}",
            l.id, title, l.dice, l.system, l.rows, l.source
        )?;
        if let Some(was) = &l.overrides {
            writeln!(out, "{:<id_w$}  ↳ from {} (overrides {was})", "", l.from)?;
        }
    }
    writeln!(
        out,
        "{} tables, content hash {}",
        listing.len(),
        &library.content_hash[..8]
    )?;
    Ok(())
}

#[derive(Serialize)]
struct TableReport<'a> {
    seed: &'a str,
    table: &'a str,
    results: Vec<TableRoll>,
}

pub fn roll(
    cfg: &Config,
    id: &str,
    times: usize,
    tag: Option<&str>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    if !(1..=10_000).contains(&times) {
        return Err(Error::Usage(format!(
            "table: --times {times}: ask for 1 to 10000 results"
        )));
    }
    let library = cfg.library()?;
    library.table(id)?;
    let seed = cfg.roll_seed(err)?;
    let results = library.roll_times(id, times, tag, &seed)?;
    if cfg.json {
        return super::json(
            out,
            &TableReport {
                seed: seed.as_str(),
                table: id,
                results,
            },
        );
    }
    for r in &results {
        writeln!(out, "{}", text::table_roll_text(r))?;
    }
    Ok(())
}

pub fn table_odds(cfg: &Config, id: &str, out: &mut dyn Write) -> Result<(), Error> {
    let library = cfg.library()?;
    let odds = library.table_odds(id)?;
    if cfg.json {
        return super::json(out, &odds);
    }
    write!(out, "{}", text::table_odds_text(&odds))?;
    Ok(())
}

#[derive(Serialize)]
struct ValidateReport<'a> {
    tables: usize,
    problems: Vec<crate::content::ProblemJson<'a>>,
}

pub fn validate(cfg: &Config, out: &mut dyn Write) -> Result<(), Error> {
    let (library, problems) = Library::load(&cfg.content);
    if cfg.json {
        super::json(
            out,
            &ValidateReport {
                tables: library.tables.len(),
                problems: problems.iter().map(Into::into).collect(),
            },
        )?;
    } else if problems.is_empty() {
        writeln!(
            out,
            "ok: {} tables, no problems (content hash {})",
            library.tables.len(),
            &library.content_hash[..8]
        )?;
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Content(problems))
    }
}
