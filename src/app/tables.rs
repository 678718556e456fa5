//! The table commands: `tables` (the list, with what overrides what),
//! `table` (roll with a trail of dice), `odds --table` and `validate`.

use std::io::Write;

use serde::Serialize;

use crate::content::{Contribution, Library, Origin, Region, Table};
use crate::error::Error;
use crate::rules::RulesSystem;
use crate::terminal;
use crate::workspace::Workspace;

pub(crate) fn list(ws: &Workspace, terrains: bool, out: &mut dyn Write) -> Result<(), Error> {
    // The columns are padded a character at a time: the list is made in
    // memory and written at once.
    let mut text = Vec::with_capacity(16 * 1024);
    list_into(ws, terrains, &mut text)?;
    Ok(out.write_all(&text)?)
}

fn list_into(ws: &Workspace, terrains: bool, out: &mut Vec<u8>) -> Result<(), Error> {
    let library = ws.library()?;
    if terrains {
        return list_terrains(ws, library, out);
    }
    if ws.json {
        let doc = crate::interop::json::document(library, library.tables.values());
        return super::json(out, &doc);
    }
    let overrides = |t: &Table| library.overridden_origin(&t.id);
    let id_w = library
        .tables
        .keys()
        .map(String::len)
        .max()
        .unwrap_or(2)
        .max(2);
    let title_w = library
        .tables
        .values()
        .map(|t| t.title.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 34);
    writeln!(
        out,
        "{:<id_w$}  {:<title_w$}  {:<7}  {:<6}  {:>4}  {:<10}  source",
        "id", "title", "dice", "system", "rows", "origin"
    )?;
    for t in library.tables.values() {
        let title: String = t.title.chars().take(title_w).collect();
        let dice = t.dice.clone().unwrap_or_else(|| "weights".into());
        let origin = if t.origin.layer == 0 {
            "built in"
        } else {
            "--content"
        };
        writeln!(
            out,
            "{:<id_w$}  {:<title_w$}  {:<7}  {:<6}  {:>4}  {:<10}  {}",
            t.id,
            title,
            dice,
            t.system.as_str(),
            t.rows.len(),
            origin,
            t.source
        )?;
        let from = format!("{}:{}", t.origin.file, t.origin.line);
        if let Some(was) = overrides(t) {
            writeln!(
                out,
                "{:<id_w$}  ↳ from {from} (overrides {}:{})",
                "", was.file, was.line
            )?;
        } else if t.origin.layer > 0 {
            writeln!(out, "{:<id_w$}  ↳ from {from}", "")?;
        }
        for c in &t.extended_by {
            writeln!(out, "{:<id_w$}  ↳ extended by {}", "", contribution(c))?;
        }
    }
    writeln!(
        out,
        "{} tables, content hash {}",
        library.tables.len(),
        &library.content_hash[..8]
    )?;
    Ok(())
}

/// `path:line: +2 rows (A, B), replaced C`.
fn contribution(c: &Contribution) -> String {
    let mut parts = Vec::new();
    if !c.added.is_empty() {
        parts.push(format!(
            "+{} row{} ({})",
            c.added.len(),
            if c.added.len() == 1 { "" } else { "s" },
            c.added.join(", ")
        ));
    }
    if !c.replaced.is_empty() {
        parts.push(format!("replaced {}", c.replaced.join(", ")));
    }
    if parts.is_empty() {
        parts.push("no rows".into());
    }
    format!("{}:{}: {}", c.file, c.line, parts.join("; "))
}

#[derive(Serialize)]
struct TerrainJson<'a> {
    #[serde(flatten)]
    region: &'a Region,
    origin: &'a Origin,
}

/// `tables --terrains`: every region, what the generators take from it
/// and where it came from.
fn list_terrains(ws: &Workspace, library: &Library, out: &mut Vec<u8>) -> Result<(), Error> {
    let rows: Vec<TerrainJson> = library
        .regions()
        .map(|r| TerrainJson {
            region: r,
            origin: &library.tables[&r.table].origin,
        })
        .collect();
    if ws.json {
        return super::json(out, &rows);
    }
    let name_w = rows
        .iter()
        .map(|r| r.region.name.len())
        .max()
        .unwrap_or(7)
        .max(7);
    writeln!(
        out,
        "{:<name_w$}  danger  {:<36}  {:<6}  {:<10}  origin",
        "terrain", "forage", "core", "places"
    )?;
    for r in &rows {
        let g = r.region;
        let mut forage = g.forage.join(", ");
        if g.water {
            forage.push_str(if forage.is_empty() {
                "water"
            } else {
                ", water"
            });
        }
        writeln!(
            out,
            "{:<name_w$}  {:>6}  {:<36}  {:<6}  {:<10}  {}:{}",
            g.name,
            g.danger,
            if forage.is_empty() {
                "nothing"
            } else {
                &forage
            },
            g.chance_text().unwrap_or_else(|| "by path".into()),
            g.places,
            r.origin.file,
            r.origin.line
        )?;
    }
    writeln!(
        out,
        "{} terrains (every gen.encounter.<name> table makes one; see the guide, Table format)",
        rows.len()
    )?;
    Ok(())
}

/// `table ID --times N` (1 to 10000, checked by [`super::request`]):
/// priced before any roll, rolled one result at a
/// time into bounded output (`capped`).
pub(crate) fn roll(
    ws: &Workspace,
    id: &str,
    times: usize,
    tag: Option<&str>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let library = ws.library()?;
    library.price(id, times)?;
    let seed = ws.roll_seed(err)?;
    let ask = super::capped::Ask {
        library,
        id,
        times,
        tag,
        seed: &seed,
    };
    super::capped::print(&ask, ws.json, out)
}

pub(crate) fn table_odds(ws: &Workspace, id: &str, out: &mut dyn Write) -> Result<(), Error> {
    let library = ws.library()?;
    let odds = library.table_odds(id)?;
    if ws.json {
        return super::json(out, &odds);
    }
    write!(out, "{}", terminal::table_odds_text(&odds))?;
    Ok(())
}

#[derive(Serialize)]
struct ValidateReport<'a> {
    tables: usize,
    problems: Vec<crate::content::ProblemJson<'a>>,
    /// What works but is worth knowing (a region with no places of its
    /// own).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<crate::content::ProblemJson<'a>>,
}

/// The GM's templates, when a folder is in effect (`--templates`, the
/// session's `templates`, or `templates/` here): each must be named like a
/// template and render a pack of each system made from
/// the tables, so a field a template names that the pack lacks is caught
/// here rather than at `prep`.
fn check_templates(ws: &Workspace, library: &Library) -> Result<(), Error> {
    let Some(dir) = ws.templates_dir() else {
        return Ok(());
    };
    let templates = ws.templates()?;
    for system in [RulesSystem::Mettle, RulesSystem::Core] {
        let (req, party) = sample_pack(library, system)?;
        let seed = crate::seed::Seed::new("validate-templates")?;
        let pack = crate::generators::session::generate(library, &req, &party, &seed)?;
        let share = crate::handouts::ShareLine {
            seed: seed.as_str().to_owned(),
            options: "validate".into(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            format: crate::handouts::FORMAT,
            content: library.content_hash[..8].to_owned(),
            bundle: String::new(),
        };
        crate::handouts::pack_files(&pack, &templates, &share).map_err(|e| {
            crate::handouts::markdown::TemplateError(format!(
                "{e} (templates in {}, a {} pack)",
                dir.display(),
                system.label()
            ))
        })?;
    }
    Ok(())
}

/// A pack with every kind of handout in `system`, for trying templates.
fn sample_pack(
    library: &Library,
    system: RulesSystem,
) -> Result<(crate::generators::session::Request, crate::rules::Party), Error> {
    use crate::generators::{journey, session};
    let core = system == RulesSystem::Core;
    let summary = if core { "10,11,12" } else { "3,4,4" };
    let party = crate::rules::Party::from_summary(summary, system)
        .map_err(crate::generators::GenError::Request)?;
    let terrain = library
        .region_names()
        .first()
        .map_or("road", |r| r)
        .to_owned();
    let req = session::Request {
        title: "Template check".into(),
        system,
        terrain,
        encounters: 1,
        traps: 1,
        npcs: 1,
        injuries: usize::from(core),
        mutations: usize::from(core),
        vouchers: if core { vec![] } else { vec!["A".into()] },
        map: Some(session::MapPlan {
            stops: 4,
            terrains: vec![],
            journey: true,
            route: journey::Route::Safest,
            rations: 3,
            water: 3,
            kits: vec![],
            fixed: None,
        }),
        first_season: Default::default(),
        rerolls: crate::generators::Rerolls::default(),
        entries: session::Entries::default(),
    };
    Ok((req, party))
}

pub(crate) fn validate(ws: &Workspace, out: &mut dyn Write) -> Result<(), Error> {
    // A `session.toml` where the command runs (as `prep` would read it):
    // its `content` folders are validated too, its `templates` tried.
    let local = ws.local_session()?;
    let ws = &match &local {
        Some(l) => {
            let (first, templates) = crate::input::session_folders(&l.path, &l.text, &l.session)?;
            ws.with_session_folders(&first, templates)
        }
        None => ws.clone(),
    };
    let (mut library, problems) = ws.load_library();
    let era_warnings = ws.era_warnings(&library);
    library.warnings.extend(era_warnings);
    if problems.is_empty() {
        if let Some(l) = &local {
            crate::input::session_terrains(&l.path, &l.text, &l.session, &library)?;
        }
        check_templates(ws, &library)?;
    }
    // In a campaign, its party and plans as `prep` reads them: validate
    // passes no plan that `prep` refuses.
    let plans = match &ws.campaign {
        Some(_) if problems.is_empty() => Some(crate::pack::Sources::check_campaign(ws)?),
        _ => None,
    };
    if ws.json {
        super::json(
            out,
            &ValidateReport {
                tables: library.tables.len(),
                problems: problems.iter().map(Into::into).collect(),
                warnings: library.warnings.iter().map(Into::into).collect(),
            },
        )?;
    } else if problems.is_empty() {
        for w in &library.warnings {
            writeln!(out, "warning: {w}")?;
        }
        writeln!(
            out,
            "ok: {} tables, no problems (content hash {})",
            library.tables.len(),
            &library.content_hash[..8]
        )?;
        if let Some(n) = plans {
            writeln!(
                out,
                "ok: the campaign's party and {n} session plan(s) check as `prep` reads them"
            )?;
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Content(problems))
    }
}
