//! The command line read once: [`read`] turns the parsed arguments
//! ([`Cli`]) into the [`Workspace`] (the global options) and a typed
//! [`Request`] per command, refusing every mistake the arguments show on
//! their own as a [`UsageError`] before anything is read or rolled. The
//! few mistakes that need a file read first (an address the session has no
//! item at, a `--terrain` the tables lack) are `UsageError`s too, raised
//! where the file is read.

mod check;

use std::path::{Path, PathBuf};

pub(crate) use check::Grid;
use check::check_request;

use crate::cli::{Cli, Command, GenKind, Global};
use crate::dice::ast::Pool;
use crate::error::{Error, UsageError};
use crate::generators::{forage, journey, map, trap, voucher};
use crate::input::session::MAX_REROLLS;
use crate::interop::Format;
use crate::pack::Asked;
use crate::rules::RulesSystem;
use crate::workspace::Workspace;

/// Most items one `gen` makes, and the highest `--item`.
pub(crate) const MAX_COUNT: usize = 1000;

/// Most items one `gen --jsonl` makes (streamed: memory stays bounded).
pub(crate) const MAX_JSONL_COUNT: usize = 1_000_000;

/// Most results one `table` rolls.
pub(crate) const MAX_TIMES: usize = 10_000;

/// One command, its arguments checked.
#[derive(Debug)]
pub enum Request {
    /// `roll EXPR...`.
    Roll { exprs: Vec<String> },
    /// `odds EXPR`.
    Odds { expr: String },
    /// `odds --table ID`.
    TableOdds { id: String },
    /// `check POOL --vs D ...`: the Check.
    Check(Pool),
    /// `check LOW-HIGH --vs LOW-HIGH ...` (either a range): the chance of
    /// success of every Check in the grid.
    CheckGrid(Grid),
    /// `tables [--terrains]`.
    Tables { terrains: bool },
    /// `table ID --times N [--tag TAG]`.
    Table {
        id: String,
        times: usize,
        tag: Option<String>,
    },
    /// `validate`.
    Validate,
    /// `init [DIR] [--system core]`.
    Init { dir: PathBuf, system: RulesSystem },
    /// `campaign [--json]`.
    Campaign,
    /// `prep [N|SESSION|BUNDLE [N]] [--only|--reroll ADDRESS] [--md
    /// FLAVOUR]`.
    Prep { what: PrepWhat, asked: Asked },
    /// `share [SESSION]`: `None` in a campaign is the whole campaign.
    Share { session: Option<PathBuf> },
    /// `verify [DIR]`: `None` in a campaign is every session's pack.
    Verify { dir: Option<PathBuf> },
    /// `record N`.
    Record { n: usize },
    /// `play [N|PACKDIR] [--port P] [--lan]`.
    Play(super::play::Asked),
    /// `gen <kind>`: items of a kind.
    Gen(Gen),
    /// `gen <kind> --item N --session SESSION`: one item of a session's
    /// pack.
    GenItem(SessionItem),
    /// `export ID... --format F [--to DIR]`.
    Export {
        ids: Vec<String>,
        format: Format,
        to: Option<PathBuf>,
    },
    /// `import FILE... [--to DIR] [--from F] [--skip-unsupported]`.
    Import {
        files: Vec<PathBuf>,
        to: PathBuf,
        from: Option<crate::interop::Reader>,
        skip: bool,
    },
    /// `completions SHELL`.
    Completions { shell: clap_complete::Shell },
    /// `templates [--to DIR]`.
    Templates { to: Option<PathBuf> },
    /// `manpage [--to DIR]`.
    Manpage { to: Option<PathBuf> },
}

/// What `prep` makes: a session file's or a bundle's pack (with a
/// campaign's bundle, session N's), or a campaign's session (`None`: the
/// next), or — outside a campaign, with no argument — `session.toml`'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrepWhat {
    File(PathBuf, Option<usize>),
    Session(Option<usize>),
}

/// Which items `gen` makes: the first `count`, or the one at `<kind>/N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Count(usize),
    Item(usize),
}

/// `gen <kind>`: the kind's request (files it names still to read), which
/// items, and `--reroll K` for `--item`.
#[derive(Debug)]
pub struct Gen {
    pub kind: Kind,
    pub which: Which,
    pub reroll: u32,
    /// `--jsonl`: one item a line, each written as it is made.
    pub jsonl: bool,
}

/// A `gen` kind's arguments, checked; the files they name (a character
/// sheet, a party, a saved map) are read when the items are made.
#[derive(Debug)]
pub enum Kind {
    Npc {
        system: RulesSystem,
        archetype: Option<String>,
        tier: Option<u8>,
        /// Checked against the tables' terrains when they are loaded.
        terrain: Option<String>,
        people: bool,
    },
    Injury {
        character: Option<PathBuf>,
        permanent: bool,
    },
    Mutation {
        character: Option<PathBuf>,
    },
    Forage(forage::Request),
    Trap {
        source: trap::Source,
        against: TrapOdds,
        /// Checked against the tables' terrains when they are loaded.
        terrain: Option<String>,
    },
    Voucher(voucher::Request),
    Encounter {
        terrain: String,
        system: RulesSystem,
        party: Option<String>,
        season: crate::generators::weather::Season,
    },
    Map {
        request: map::Request,
        players: bool,
        /// `--svg`: the map drawn, by its index (0-based).
        svg: Option<usize>,
    },
    Journey(JourneyArgs),
}

/// What a trap's odds are for.
#[derive(Debug)]
pub enum TrapOdds {
    /// METTLE: these POISE values.
    Poise(Vec<u32>),
    /// The party (a file or a pool summary; the default party without).
    Party(RulesSystem, Option<String>),
}

/// `gen journey`'s arguments.
#[derive(Debug)]
pub struct JourneyArgs {
    pub map: PathBuf,
    pub from: Option<String>,
    pub to: Option<String>,
    pub system: RulesSystem,
    pub party: Option<String>,
    pub route: journey::Route,
    pub rations: u32,
    pub water: u32,
    pub water_capacity: Option<u32>,
    pub kits: Vec<String>,
    pub twist: bool,
    /// The season of the journey's first day.
    pub season: crate::generators::weather::Season,
}

/// `gen <kind> --item N --session SESSION`.
#[derive(Debug, PartialEq, Eq)]
pub struct SessionItem {
    /// The pack kind (`encounter`, …).
    pub kind: &'static str,
    /// The item's number (1-based; checked against the session).
    pub n: usize,
    /// `--reroll K`: the item as rerolled K times.
    pub reroll: Option<u32>,
    pub session: PathBuf,
    /// `gen map --svg`, `--players`: how a map is shown.
    pub svg: bool,
    pub players: bool,
}

/// The workspace and the request the command line makes.
pub(crate) fn read(cli: &Cli) -> Result<(Workspace, Request), Error> {
    Ok((workspace(&cli.global), request(&cli.command)?))
}

/// The global options.
fn workspace(g: &Global) -> Workspace {
    Workspace {
        seed: g.seed.clone(),
        json: g.json,
        out: g.out.clone(),
        force: g.force,
        paper: g.paper.into(),
        ink_saver: g.ink_saver,
        content: g.content.clone(),
        templates: g.templates.clone(),
        campaign: None,
        campaign_templates: None,
        campaign_content: 0,
    }
}

fn request(command: &Command) -> Result<Request, Error> {
    Ok(match command {
        Command::Roll { exprs } => Request::Roll {
            exprs: exprs.clone(),
        },
        Command::Odds {
            expr: Some(expr), ..
        } => Request::Odds { expr: expr.clone() },
        Command::Odds {
            table: Some(id), ..
        } => Request::TableOdds { id: id.clone() },
        Command::Odds { .. } => return Err(UsageError::OddsNeedsInput.into()),
        Command::Check(args) => check_request(args)?,
        Command::Tables { terrains } => Request::Tables {
            terrains: *terrains,
        },
        Command::Table { id, times, tag } => table(id, *times, tag)?,
        Command::Validate => Request::Validate,
        Command::Init { dir, system } => Request::Init {
            dir: dir.clone(),
            system: (*system).into(),
        },
        Command::Campaign => Request::Campaign,
        Command::Prep {
            session,
            number,
            only,
            reroll,
            md,
        } => Request::Prep {
            what: prep_what(session.as_deref(), *number)?,
            asked: Asked {
                only: only.clone(),
                reroll: reroll.clone(),
                md: md.iter().map(|&m| m.into()).collect(),
            },
        },
        Command::Share { session } => Request::Share {
            session: session.clone(),
        },
        Command::Verify { dir } => Request::Verify { dir: dir.clone() },
        Command::Record { n } => Request::Record {
            n: session_number(*n)?,
        },
        Command::Play { what, port, lan } => Request::Play(super::play::asked(what, *port, *lan)?),
        Command::Gen {
            kind,
            count,
            item,
            reroll,
            session,
            jsonl,
        } => gen_request(kind, *count, *item, *reroll, session.as_deref(), *jsonl)?,
        Command::Export { ids, format, to } => Request::Export {
            ids: ids.clone(),
            format: (*format).into(),
            to: to.clone(),
        },
        Command::Import {
            files,
            to,
            from,
            skip_unsupported,
        } => Request::Import {
            files: files.clone(),
            to: to.clone(),
            from: from.map(Into::into),
            skip: *skip_unsupported,
        },
        Command::Completions { shell } => Request::Completions { shell: *shell },
        Command::Templates { to } => Request::Templates { to: to.clone() },
        Command::Manpage { to } => Request::Manpage { to: to.clone() },
    })
}

/// `prep`'s first argument: a number is a campaign's session (unless a
/// file has that name); a number after a file is a campaign bundle's
/// session. Whether there is a campaign is known once the working folder
/// is looked at ([`PrepWhat::Session`] outside one is refused there).
fn prep_what(first: Option<&Path>, number: Option<usize>) -> Result<PrepWhat, UsageError> {
    let number = number.map(session_number).transpose()?;
    let Some(first) = first else {
        return Ok(PrepWhat::Session(None));
    };
    let as_number = first.to_str().and_then(|t| t.parse::<usize>().ok());
    match as_number {
        Some(n) if !first.exists() => {
            if number.is_some() {
                return Err(UsageError::NumberWithoutCampaign);
            }
            Ok(PrepWhat::Session(Some(session_number(n)?)))
        }
        _ => Ok(PrepWhat::File(first.to_owned(), number)),
    }
}

/// A session number, checked to be on the scale.
fn session_number(n: usize) -> Result<usize, UsageError> {
    if (1..=crate::campaign::folder::MAX_SESSIONS).contains(&n) {
        Ok(n)
    } else {
        Err(UsageError::SessionNumber { n })
    }
}

fn table(id: &str, times: usize, tag: &Option<String>) -> Result<Request, UsageError> {
    if !(1..=MAX_TIMES).contains(&times) {
        return Err(UsageError::TableTimes { times });
    }
    Ok(Request::Table {
        id: id.to_owned(),
        times,
        tag: tag.clone(),
    })
}

/// `gen`: `--reroll` and `--session` name one item (they need `--item`,
/// and a reroll count is bounded as in a session's `[rerolls]`); with
/// `--session` the item comes from the session's pack, else the kind's
/// own arguments make the request.
fn gen_request(
    kind: &GenKind,
    count: usize,
    item: Option<usize>,
    reroll: Option<u32>,
    session: Option<&Path>,
    jsonl: bool,
) -> Result<Request, UsageError> {
    let max_count = if jsonl { MAX_JSONL_COUNT } else { MAX_COUNT };
    if item.is_none() {
        for (given, flag) in [
            (reroll.is_some(), "--reroll"),
            (session.is_some(), "--session"),
        ] {
            if given {
                return Err(UsageError::WithoutItem { flag });
            }
        }
    }
    if let Some(k) = reroll.filter(|&k| k > MAX_REROLLS) {
        return Err(UsageError::TooManyRerolls { reroll: k });
    }
    if let (Some(n), Some(path)) = (item, session) {
        return session_item(kind, n, reroll, path).map(Request::GenItem);
    }
    let which = match item {
        Some(n) if !(1..=MAX_COUNT).contains(&n) => {
            return Err(UsageError::GenItem {
                item: n,
                max: MAX_COUNT,
            });
        }
        Some(n) => Which::Item(n),
        None if !(1..=max_count).contains(&count) => {
            return Err(UsageError::GenCount {
                count,
                max: max_count,
            });
        }
        None => Which::Count(count),
    };
    Ok(Request::Gen(Gen {
        kind: gen_kind(kind, which)?,
        which,
        reroll: reroll.unwrap_or(0),
        jsonl,
    }))
}

/// A `gen` kind's arguments, checked.
fn gen_kind(kind: &GenKind, which: Which) -> Result<Kind, UsageError> {
    Ok(match kind.clone() {
        GenKind::Npc {
            system,
            archetype,
            tier,
            terrain,
            people,
        } => Kind::Npc {
            system: system.into(),
            archetype,
            tier,
            terrain,
            people,
        },
        GenKind::Injury {
            character,
            permanent,
        } => Kind::Injury {
            character,
            permanent,
        },
        GenKind::Mutation { character } => Kind::Mutation { character },
        GenKind::Forage {
            terrain,
            kits,
            water,
            wit,
            damage,
        } => Kind::Forage(forage::Request {
            terrain,
            kits,
            water,
            wit,
            damage,
            mettle: None,
        }),
        GenKind::Trap {
            from,
            system,
            poise,
            party,
            terrain,
        } => trap_kind(from.into(), system.into(), poise, party, terrain)?,
        GenKind::Voucher { holders } if holders.is_empty() => {
            return Err(UsageError::VoucherHolders);
        }
        GenKind::Voucher { holders } => Kind::Voucher(voucher::Request { holders }),
        GenKind::Encounter {
            terrain,
            system,
            party,
            season,
        } => Kind::Encounter {
            terrain,
            system: system.into(),
            party,
            season: season.into(),
        },
        GenKind::Map {
            stops,
            terrain,
            svg,
            players,
        } => Kind::Map {
            request: map::Request {
                stops,
                terrains: terrain,
            },
            players,
            svg: svg.then(|| map_index(which)).transpose()?,
        },
        GenKind::Journey { .. } => Kind::Journey(journey_args(kind)?),
    })
}

/// `gen map --svg` draws one map: the first, or the `--item`.
fn map_index(which: Which) -> Result<usize, UsageError> {
    match which {
        Which::Count(1) => Ok(0),
        Which::Item(n) => Ok(n - 1),
        Which::Count(_) => Err(UsageError::MapSvgCount),
    }
}

/// `gen trap`: METTLE odds against `--poise` (or the party's POISE), Core
/// Rules odds for the party's ability scores.
fn trap_kind(
    source: trap::Source,
    system: RulesSystem,
    poise: Option<Vec<u32>>,
    party: Option<String>,
    terrain: Option<String>,
) -> Result<Kind, UsageError> {
    if system == RulesSystem::Core {
        if poise.is_some() {
            return Err(UsageError::CorePoise);
        }
        if source == trap::Source::Rules {
            return Err(UsageError::CoreRulesTraps);
        }
    }
    let against = match (system, poise, party) {
        (_, Some(_), Some(_)) => return Err(UsageError::PoiseAndParty),
        (RulesSystem::Mettle, Some(p), None) => TrapOdds::Poise(p),
        (RulesSystem::Mettle, None, None) => TrapOdds::Poise((1..=6).collect()),
        (system, _, party) => TrapOdds::Party(system, party),
    };
    Ok(Kind::Trap {
        source,
        against,
        terrain,
    })
}

/// `gen journey`: a saved map is required.
fn journey_args(kind: &GenKind) -> Result<JourneyArgs, UsageError> {
    let GenKind::Journey {
        map,
        from,
        to,
        system,
        party,
        route,
        rations,
        water,
        water_capacity,
        kits,
        no_twist,
        season,
    } = kind.clone()
    else {
        unreachable!("called for journeys only")
    };
    Ok(JourneyArgs {
        map: map.ok_or(UsageError::JourneyMap)?,
        from,
        to,
        system: system.into(),
        party,
        route: route.into(),
        rations,
        water,
        water_capacity,
        kits,
        twist: !no_twist,
        season: season.into(),
    })
}

/// `gen <kind> --session S --item N`: the pack kind (foraging is no item
/// of a pack), with the kind's own request options refused rather than
/// ignored — the session sets the item's request; how a map is shown
/// (`--svg`, `--players`) is not part of it.
fn session_item(
    kind: &GenKind,
    n: usize,
    reroll: Option<u32>,
    session: &Path,
) -> Result<SessionItem, UsageError> {
    let name = match kind {
        GenKind::Encounter { .. } => "encounter",
        GenKind::Trap { .. } => "trap",
        GenKind::Npc { .. } => "npc",
        GenKind::Map { .. } => "map",
        GenKind::Journey { .. } => "journey",
        GenKind::Voucher { .. } => "voucher",
        GenKind::Injury { .. } => "injury",
        GenKind::Mutation { .. } => "mutation",
        GenKind::Forage { .. } => return Err(UsageError::SessionForage),
    };
    let (svg, players) = match kind {
        GenKind::Map { svg, players, .. } => (*svg, *players),
        _ => (false, false),
    };
    if !has_defaults(kind, name) {
        return Err(UsageError::SessionOptions { kind: name });
    }
    Ok(SessionItem {
        kind: name,
        n,
        reroll,
        session: session.to_owned(),
        svg,
        players,
    })
}

/// Whether `kind` has every request option at its default (a map's
/// `--svg` and `--players` aside), as a bare `gen <name>` parses.
fn has_defaults(kind: &GenKind, name: &str) -> bool {
    let shown = match kind.clone() {
        GenKind::Map { stops, terrain, .. } => GenKind::Map {
            stops,
            terrain,
            svg: false,
            players: false,
        },
        other => other,
    };
    match Cli::try_parse_args(["tablewright", "gen", name]) {
        Ok(Cli {
            command: Command::Gen { kind, .. },
            ..
        }) => format!("{shown:?}") == format!("{kind:?}"),
        _ => true,
    }
}

#[cfg(test)]
mod tests;
