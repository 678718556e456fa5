//! `gen <kind> --session SESSION --item N`: the item a session's pack
//! places at `<kind>/N`, exactly. A pack's items are drawn in the order
//! encounter, trap, npc, map, journey, voucher, injury, mutation, and an
//! item redraws where it would repeat what any item before it says — an
//! encounter's people or trap included — so the item depends on the
//! session's whole request, not only its own kind's. Here the session (or
//! bundle) gives that request: its seed (unless `--seed`), party, tables,
//! entries and `[rerolls]` (`--reroll K` sets the item's own count). The
//! item is printed as `gen` prints one: JSON or text.

use std::io::Write;
use std::path::Path;

use super::Config;
use super::generate::GenReport;
use super::prep::{Asked, sources};
use crate::cli::{Cli, Command, GenKind};
use crate::error::Error;
use crate::generators::Address;
use crate::generators::pack::{self, Pack};
use crate::terminal::items;

pub fn run(
    cfg: &Config,
    kind: &GenKind,
    n: usize,
    reroll: Option<u32>,
    path: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let name = kind_name(kind)?;
    refuse_own_options(kind, name)?;
    let mut src = sources(cfg, path, &Asked::default(), err)?;
    let address = format!("{name}/{n}");
    if let Some(flaw) = src.session.address_flaw(&address) {
        return Err(Error::Usage(format!("gen --session: {flaw}")));
    }
    let at = Address::parse(&address).expect("checked");
    match reroll {
        Some(0) => {
            src.session.rerolls.remove(&address);
        }
        Some(k) => {
            src.session.rerolls.insert(address.clone(), k);
        }
        None => {}
    }
    let pack = pack::generate(&src.library, &src.session.request(), &src.party, &src.seed)?;
    if cfg.json {
        let report = GenReport {
            seed: src.seed.as_str(),
            kind: name,
            items: pack.item_json(&at).into_iter().collect(),
        };
        return super::json(out, &report);
    }
    if let GenKind::Map {
        svg: true, players, ..
    } = kind
    {
        let map = pack.map.as_ref().expect("checked");
        let drawing = crate::handouts::drawings::chart::draw(map, *players);
        write!(out, "{}", crate::page::svg::document(&drawing))?;
        return Ok(());
    }
    write!(out, "{}", text(&pack, kind, at.index()))?;
    Ok(())
}

/// The pack kind a `gen` kind makes (foraging is no item of a pack).
fn kind_name(kind: &GenKind) -> Result<&'static str, Error> {
    Ok(match kind {
        GenKind::Encounter { .. } => "encounter",
        GenKind::Trap { .. } => "trap",
        GenKind::Npc { .. } => "npc",
        GenKind::Map { .. } => "map",
        GenKind::Journey { .. } => "journey",
        GenKind::Voucher { .. } => "voucher",
        GenKind::Injury { .. } => "injury",
        GenKind::Mutation { .. } => "mutation",
        GenKind::Forage { .. } => {
            return Err(Error::Usage(
                "gen forage --session: a pack holds no foraging (its kinds are encounter, trap, \
                 npc, map, journey, voucher, injury and mutation)"
                    .into(),
            ));
        }
    })
}

/// The session sets the item's request, so the kind's own request options
/// (`--terrain`, `--party`, …) are refused rather than ignored; how a map
/// is shown (`--svg`, `--players`) is not part of the request.
fn refuse_own_options(kind: &GenKind, name: &str) -> Result<(), Error> {
    let shown = match kind {
        GenKind::Map {
            stops,
            terrain,
            svg: _,
            players: _,
        } => format!(
            "{:?}",
            GenKind::Map {
                stops: *stops,
                terrain: terrain.clone(),
                svg: false,
                players: false,
            }
        ),
        other => format!("{other:?}"),
    };
    let bare = match Cli::try_parse_args(["tablewright", "gen", name]) {
        Ok(Cli {
            command: Command::Gen { kind, .. },
            ..
        }) => format!("{kind:?}"),
        _ => return Ok(()),
    };
    if shown == bare {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "gen {name} --session: the session sets the item's request (its terrain, system, party, \
         entries and rerolls); leave out the options of `gen {name}`"
    )))
}

/// The item's text, as `gen <kind>` prints it.
fn text(pack: &Pack, kind: &GenKind, i: usize) -> String {
    match kind {
        GenKind::Encounter { .. } => items::encounter(&pack.encounters[i]),
        GenKind::Trap { .. } => items::trap(&pack.traps[i]),
        GenKind::Npc { .. } => items::npc(&pack.npcs[i]),
        GenKind::Map { players, .. } => items::map(pack.map.as_ref().expect("checked"), *players),
        GenKind::Journey { .. } => items::journey(pack.journey.as_ref().expect("checked")),
        GenKind::Voucher { .. } => items::voucher(&pack.vouchers[i]),
        GenKind::Injury { .. } => items::injury(&pack.injuries[i]),
        GenKind::Mutation { .. } => items::mutation(&pack.mutations[i]),
        GenKind::Forage { .. } => unreachable!("refused by kind_name"),
    }
}
