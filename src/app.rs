//! The commands: each turns parsed arguments into text or JSON on the given
//! writers. Randomness comes only from the seed's streams.

use std::io::Write;

use serde::Serialize;

use crate::cli::{CheckArgs, Cli, Command, GenKind, Global};
use crate::content::Library;
use crate::dice::ast::{Expr, Pool};
use crate::dice::{self, limits};
use crate::error::Error;
use crate::generators::npc::RulesSystem;
use crate::input::{character, party, read_map};
use crate::report;
use crate::seed::Seed;
use crate::tables::TableRoll;

/// Run one command. `out` receives the results, `err` the notes (the seed
/// that was chosen).
pub fn run(cli: &Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Error> {
    match &cli.command {
        Command::Roll { exprs } => roll(&cli.global, exprs, out, err),
        Command::Odds {
            expr: Some(expr), ..
        } => odds(&cli.global, expr, out),
        Command::Odds {
            table: Some(id), ..
        } => table_odds(&cli.global, id, out),
        Command::Odds { .. } => Err(Error::Usage(
            "odds: give an expression or --table ID".into(),
        )),
        Command::Check(args) => check(&cli.global, args, out, err),
        Command::Tables => tables(&cli.global, out),
        Command::Table { id, times, tag } => {
            table(&cli.global, id, *times, tag.as_deref(), out, err)
        }
        Command::Validate => validate(&cli.global, out),
        Command::Prep { session } => prep(&cli.global, session, out, err),
        Command::Gen { kind, count } => generate(&cli.global, kind, *count, out, err),
    }
}

#[derive(Serialize)]
struct GenReport<'a, T: Serialize> {
    seed: &'a str,
    kind: &'a str,
    items: Vec<T>,
}

fn emit<T: Serialize>(
    global: &Global,
    seed: &Seed,
    kind: &str,
    items: Vec<T>,
    text: impl Fn(&T) -> String,
    out: &mut dyn Write,
) -> Result<(), Error> {
    if global.json {
        return json(
            out,
            &GenReport {
                seed: seed.as_str(),
                kind,
                items,
            },
        );
    }
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write!(out, "{}", text(item))?;
    }
    Ok(())
}

fn generate(
    global: &Global,
    kind: &GenKind,
    count: usize,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    use crate::generators::{encounter, forage, injury, journey, map, mutation, npc, trap};
    use crate::report::items;
    if !(1..=1000).contains(&count) {
        return Err(Error::Usage(format!(
            "gen: --count {count}: ask for 1 to 1000 items"
        )));
    }
    let library = library(global)?;
    // Read every input before choosing a seed: bad input rolls nothing.
    match kind {
        GenKind::Npc {
            system,
            archetype,
            tier,
        } => {
            let req = npc::Request {
                system: *system,
                archetype: archetype.clone(),
                tier: *tier,
            };
            let seed = seed(global, err)?;
            let items = (0..count)
                .map(|i| npc::generate(&library, &req, &seed, i))
                .collect::<Result<Vec<_>, _>>()?;
            emit(global, &seed, "npc", items, items::npc, out)
        }
        GenKind::Injury {
            character: c,
            permanent,
        } => {
            let req = injury::Request {
                character: character(c.as_deref())?,
                permanent: *permanent,
            };
            let seed = seed(global, err)?;
            let items = (0..count)
                .map(|i| injury::generate(&library, &req, &seed, i))
                .collect::<Result<Vec<_>, _>>()?;
            emit(global, &seed, "injury", items, items::injury, out)
        }
        GenKind::Mutation { character: c } => {
            let req = mutation::Request {
                character: character(c.as_deref())?,
            };
            let seed = seed(global, err)?;
            let items = (0..count)
                .map(|i| mutation::generate(&library, &req, &seed, i))
                .collect::<Result<Vec<_>, _>>()?;
            emit(global, &seed, "mutation", items, items::mutation, out)
        }
        GenKind::Forage {
            terrain,
            kits,
            water,
            wit,
            damage,
        } => {
            let req = forage::Request {
                terrain: terrain.clone(),
                kits: kits.clone(),
                water: *water,
                wit: *wit,
                damage: damage.clone(),
            };
            let seed = seed(global, err)?;
            let items = (0..count)
                .map(|i| forage::generate(&library, &req, &seed, i))
                .collect::<Result<Vec<_>, _>>()?;
            emit(global, &seed, "forage", items, items::forage, out)
        }
        GenKind::Trap { from, poise } => {
            let req = trap::Request {
                source: *from,
                poise: poise.clone(),
            };
            let seed = seed(global, err)?;
            let items = (0..count)
                .map(|i| trap::generate(&library, &req, &seed, i))
                .collect::<Result<Vec<_>, _>>()?;
            emit(global, &seed, "trap", items, items::trap, out)
        }
        GenKind::Map {
            stops,
            terrain,
            svg,
            players,
        } => {
            let req = map::Request {
                stops: *stops,
                terrains: terrain.clone(),
            };
            if *svg && count > 1 {
                return Err(Error::Usage(
                    "gen map --svg draws one map; leave out --count".into(),
                ));
            }
            let seed = seed(global, err)?;
            let items = (0..count)
                .map(|i| map::generate(&library, &req, &seed, i))
                .collect::<Result<Vec<_>, _>>()?;
            if *svg {
                write!(
                    out,
                    "{}",
                    crate::render::svg(&crate::render::map::draw(&items[0], *players))
                )?;
                return Ok(());
            }
            emit(
                global,
                &seed,
                "map",
                items,
                |m| items::map(m, *players),
                out,
            )
        }
        GenKind::Journey {
            map: path,
            from,
            to,
            party: p,
            route,
            rations,
            water,
            wit,
            kits,
            no_twist,
        } => {
            let map = read_map(path)?;
            let stop = |name: &Option<String>, default: usize| -> Result<usize, Error> {
                match name {
                    None => Ok(default),
                    Some(n) => map.stop_named(n).map(|s| s.id).ok_or_else(|| {
                        let names: Vec<&str> = map.stops.iter().map(|s| s.name.as_str()).collect();
                        let hint = crate::content::validate::closest(n, names.iter().copied())
                            .map(|c| format!("did you mean `{c}`?"))
                            .unwrap_or_else(|| format!("the stops are: {}", names.join(", ")));
                        Error::Usage(format!("the map has no stop `{n}`; {hint}"))
                    }),
                }
            };
            let req = journey::Request {
                from: stop(from, map.start)?,
                to: stop(to, map.goal)?,
                party: party(p.as_deref(), RulesSystem::Mettle)?,
                map,
                route: *route,
                rations: *rations,
                water: *water,
                wit: *wit,
                kits: kits.clone(),
                twist: !*no_twist,
            };
            let seed = seed(global, err)?;
            let items = (0..count)
                .map(|i| journey::generate(&library, &req, &seed, i))
                .collect::<Result<Vec<_>, _>>()?;
            emit(global, &seed, "journey", items, items::journey, out)
        }
        GenKind::Encounter {
            terrain,
            system,
            party: p,
        } => {
            let req = encounter::Request {
                terrain: terrain.clone(),
                system: *system,
                party: party(p.as_deref(), *system)?,
            };
            let seed = seed(global, err)?;
            let items = (0..count)
                .map(|i| encounter::generate(&library, &req, &seed, i))
                .collect::<Result<Vec<_>, _>>()?;
            emit(global, &seed, "encounter", items, items::encounter, out)
        }
    }
}

/// Load the built-in content and the user's folders; any problem stops the
/// command (run `validate` to see them all).
fn library(global: &Global) -> Result<Library, Error> {
    let (library, problems) = Library::load(&global.content);
    if problems.is_empty() {
        Ok(library)
    } else {
        Err(Error::Content(problems))
    }
}

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

fn tables(global: &Global, out: &mut dyn Write) -> Result<(), Error> {
    let library = library(global)?;
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
    if global.json {
        return json(out, &listing);
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

fn table(
    global: &Global,
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
    let library = library(global)?;
    library.table(id)?;
    let seed = seed(global, err)?;
    let results = library.roll_times(id, times, tag, &seed)?;
    if global.json {
        return json(
            out,
            &TableReport {
                seed: seed.as_str(),
                table: id,
                results,
            },
        );
    }
    for r in &results {
        writeln!(out, "{}", report::table_roll_text(r))?;
    }
    Ok(())
}

fn table_odds(global: &Global, id: &str, out: &mut dyn Write) -> Result<(), Error> {
    let library = library(global)?;
    let odds = library.table_odds(id)?;
    if global.json {
        return json(out, &odds);
    }
    write!(out, "{}", report::table_odds_text(&odds))?;
    Ok(())
}

#[derive(Serialize)]
struct ValidateReport {
    tables: usize,
    problems: Vec<crate::content::Problem>,
}

fn validate(global: &Global, out: &mut dyn Write) -> Result<(), Error> {
    let (library, problems) = Library::load(&global.content);
    if global.json {
        json(
            out,
            &ValidateReport {
                tables: library.tables.len(),
                problems: problems.clone(),
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

/// The seed to use: the user's, or a fresh one announced on `err`.
fn seed(global: &Global, err: &mut dyn Write) -> Result<Seed, Error> {
    match &global.seed {
        Some(text) => Ok(Seed::new(text)?),
        None => {
            let seed = Seed::fresh();
            writeln!(
                err,
                "seed: {seed} (add --seed {seed} to roll the same again)"
            )?;
            Ok(seed)
        }
    }
}

fn json(out: &mut dyn Write, value: &impl Serialize) -> Result<(), Error> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

#[derive(Serialize)]
struct RollReport<'a> {
    seed: &'a str,
    rolls: Vec<dice::Rolled>,
}

fn roll(
    global: &Global,
    exprs: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    // Read everything before rolling anything: one typo rolls nothing.
    let parsed = exprs
        .iter()
        .map(|e| dice::parse(e))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = seed(global, err)?;
    let rolls: Vec<dice::Rolled> = parsed
        .iter()
        .enumerate()
        .map(|(i, e)| dice::roll(e, &mut seed.stream(&format!("roll/{i}"))))
        .collect();
    if global.json {
        return json(
            out,
            &RollReport {
                seed: seed.as_str(),
                rolls,
            },
        );
    }
    for r in &rolls {
        writeln!(out, "{}", report::rolled_text(r))?;
    }
    Ok(())
}

fn odds(global: &Global, expr: &str, out: &mut dyn Write) -> Result<(), Error> {
    let parsed = dice::parse(expr)?;
    let odds = dice::odds(&parsed)?;
    if global.json {
        return json(out, &odds);
    }
    write!(out, "{}", report::odds_text(&odds))?;
    Ok(())
}

/// Build the pool a `check` command describes.
pub fn check_pool(args: &CheckArgs) -> Result<Pool, Error> {
    let text = args.pool.trim();
    let digits = text.strip_suffix(['D', 'd']).unwrap_or(text);
    let dice: u32 = digits
        .parse()
        .ok()
        .filter(|&n: &u32| u64::from(n) <= limits::MAX_POOL)
        .ok_or_else(|| {
            Error::Usage(format!(
                "check: `{}` is not a pool size; give a number of dice from 0 to {}, e.g. `check 5 --vs 3`",
                args.pool,
                limits::MAX_POOL
            ))
        })?;
    // The Difficulty reads like the notation's `vs` (numbers or ladder words).
    let vs = match dice::parse(&format!("0D vs {}", args.vs))? {
        Expr::Pool(p) if p.raises == 0 && !p.twist && p.team.is_empty() => {
            p.difficulty.expect("parsed a Difficulty")
        }
        _ => {
            return Err(Error::Usage(format!(
                "check --vs `{}`: give only a Difficulty (a number or a ladder word); raises, Twists and teammates have their own flags",
                args.vs
            )));
        }
    };
    if u64::from(args.bonus_dice.max(args.penalty_dice)) > limits::MAX_POOL
        || u64::from(args.dm) > limits::MAX_BONUS
    {
        return Err(Error::Usage(format!("check: {}", limits::HINT)));
    }
    let pool = Pool {
        dice,
        extra: args.bonus_dice as i32 - args.penalty_dice as i32,
        bonus: args.dm,
        difficulty: Some(vs),
        raises: args.raise,
        twist: args.twist,
        team: args.team.clone(),
    };
    if pool.team.len() > limits::MAX_CONTESTANTS
        || pool.team.iter().any(|&t| u64::from(t) > limits::MAX_POOL)
    {
        return Err(Error::Usage(format!(
            "check --team: at most {} teammates with pools up to {}",
            limits::MAX_CONTESTANTS,
            limits::MAX_POOL
        )));
    }
    if u64::from(pool.effective_dice()) > limits::MAX_POOL {
        return Err(Error::Usage(format!(
            "check: {} dice in all; {}",
            pool.effective_dice(),
            limits::HINT
        )));
    }
    if pool.raises > pool.effective_dice() {
        return Err(Error::Usage(format!(
            "check: cannot raise {} dice from a pool of {}; raised dice come out of the pool",
            pool.raises,
            pool.effective_dice()
        )));
    }
    Ok(pool)
}

#[derive(Serialize)]
struct CheckReport<'a> {
    seed: &'a str,
    expr: String,
    chance: f64,
    #[serde(flatten)]
    rolled: dice::Rolled,
}

fn check(
    global: &Global,
    args: &CheckArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let pool = check_pool(args)?;
    let expr = Expr::Pool(pool.clone());
    let chance = match dice::odds(&expr)?.detail {
        dice::odds::OddsDetail::Check(c) => c.success,
        _ => unreachable!("a pool with a Difficulty is a Check"),
    };
    let seed = seed(global, err)?;
    let rolled = dice::roll(&expr, &mut seed.stream("check"));
    if global.json {
        return json(
            out,
            &CheckReport {
                seed: seed.as_str(),
                expr: expr.to_string(),
                chance,
                rolled,
            },
        );
    }
    let twist = if pool.twist {
        ", taking a Twist on a failure"
    } else {
        ""
    };
    let team = if pool.teamwork_bonus() > 0 {
        " (+1D Teamwork)"
    } else {
        ""
    };
    writeln!(
        out,
        "Check {expr}{team}: chance of success {} ({:.4}){twist}",
        report::percent(chance),
        chance
    )?;
    writeln!(out, "{}", report::rolled_text(&rolled))?;
    Ok(())
}

/// `prep`: read the session file and its party, generate the pack, render
/// every handout, write them all (or nothing) into OUT/<seed slug>/.
fn prep(
    global: &Global,
    path: &std::path::Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    use crate::generators::pack;
    use crate::render::handouts::{self, ShareLine};
    let (session, text) = crate::input::session(path)?;
    let library = library(global)?;
    // `--templates DIR`, else a `templates/` folder where the command runs.
    let local = std::path::Path::new("templates");
    let template_dir = global
        .templates
        .as_deref()
        .or_else(|| local.is_dir().then_some(local));
    let templates = crate::render::markdown::Templates::load(template_dir)?;
    // A party file is read relative to the session file.
    let origin = crate::input::Origin { path, text: &text };
    let party = crate::input::session_party(&origin, &session.party, session.system)?;
    let seed = match (&global.seed, &session.seed) {
        (Some(s), _) => Seed::new(s)?,
        (None, Some(s)) => Seed::new(s)?,
        (None, None) => {
            let s = Seed::fresh();
            writeln!(
                err,
                "seed: {s} (add --seed {s} to make the same pack again)"
            )?;
            s
        }
    };
    let pack = pack::generate(&library, &session, &party, &seed)?;
    let share = ShareLine {
        seed: seed.as_str().to_owned(),
        options: format!(
            "{} · {} · {}",
            session.title,
            match session.system {
                RulesSystem::Mettle => "METTLE",
                RulesSystem::Core => "Core Rules",
            },
            session.terrain
        ),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        content: library.content_hash[..8].to_owned(),
    };
    let mut files = handouts::pack_files(&pack, &templates, &share)?;
    let paper = match global.paper {
        crate::cli::PaperSize::A4 => crate::render::pdf::Paper::A4,
        crate::cli::PaperSize::Letter => crate::render::pdf::Paper::Letter,
    };
    let fonts = crate::render::pdf::Fonts::load();
    let pdf = handouts::pack_pdf(&pack, &share, paper, global.ink_saver, &fonts);
    files.insert(1, ("pack.pdf".into(), pdf));
    let dir = global.out.join(crate::output::slug(seed.as_str()));
    let written = crate::output::write_set(&dir, &files, global.force)?;
    if global.json {
        let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        return json(out, &names);
    }
    writeln!(out, "wrote {} files to {}:", written.len(), dir.display())?;
    for p in &written {
        writeln!(
            out,
            "  {}",
            p.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        )?;
    }
    Ok(())
}
