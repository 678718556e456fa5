//! `gen <kind>`: build the typed request from the arguments (reading any
//! file they name), then list items `1..=count` through the one
//! [`Generator`] interface — as JSON (`{seed, kind, items}`, each item with
//! its `address`) or as text, one item after another. `--item N` makes the
//! one item a session pack places at `<kind>/N`: the same streams, and for
//! kinds that never repeat in a pack (encounter, trap, npc, voucher) items
//! 1..N drawn with the pack's no-repeat rule; `--reroll K` makes it as
//! rerolled K times. A pack's item can also repeat what an item of an
//! earlier kind says (an encounter's people, an NPC): `--session` makes
//! the item from the session's whole request ([`super::pack_item`]).

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::Config;
use crate::cli::GenKind;
use crate::content::Library;
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::generators::{
    Address, Distinct, Generator, Placed, Rerolls, Said, encounter, forage, injury, journey,
    make_distinct, make_many, map, mutation, npc, trap, voucher,
};
use crate::input;
use crate::input::session::MAX_REROLLS;
use crate::rules::RulesSystem;
use crate::terminal::items;

/// Most items one `gen` makes, and the highest `--item`.
const MAX_COUNT: usize = 1000;

/// Which items to make: the first `count`, or the one at `<kind>/N`.
#[derive(Debug, Clone, Copy)]
pub enum Which {
    Count(usize),
    Item(usize),
}

/// What `--item N` may say besides the kind's options: how many times
/// the item was rerolled, and the session whose pack it is from.
#[derive(Debug, Default, Clone, Copy)]
pub struct ItemArgs<'a> {
    pub reroll: Option<u32>,
    pub session: Option<&'a Path>,
}

pub fn run(
    cfg: &Config,
    kind: &GenKind,
    which: Which,
    args: &ItemArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    check_item_args(which, args)?;
    if let (Which::Item(n), Some(path)) = (which, args.session) {
        return super::pack_item::run(cfg, kind, n, args.reroll, path, out, err);
    }
    match which {
        Which::Count(n) if !(1..=MAX_COUNT).contains(&n) => {
            return Err(Error::Usage(format!(
                "gen: --count {n}: ask for 1 to {MAX_COUNT} items"
            )));
        }
        Which::Item(n) if !(1..=MAX_COUNT).contains(&n) => {
            return Err(Error::Usage(format!(
                "gen: --item {n}: items are numbered from 1 to {MAX_COUNT}"
            )));
        }
        _ => {}
    }
    let library = cfg.library()?;
    let mut list = Listing {
        cfg,
        library: &library,
        which,
        reroll: args.reroll.unwrap_or(0),
        out,
        err,
    };
    // Every request is built (its files read) before a seed is chosen: bad
    // input rolls nothing.
    match kind {
        GenKind::Npc {
            system,
            archetype,
            tier,
            terrain,
            people,
        } => list.show_distinct(
            &npc::Request {
                system: (*system).into(),
                archetype: archetype.clone(),
                tier: *tier,
                terrain: terrain_arg(&library, terrain.as_deref())?,
                people_only: *people,
            },
            items::npc,
        ),
        GenKind::Injury {
            character,
            permanent,
        } => list.show(
            &injury::Request {
                character: input::character(character.as_deref())?,
                permanent: *permanent,
                name: None,
            },
            items::injury,
        ),
        GenKind::Mutation { character } => list.show(
            &mutation::Request {
                character: input::character(character.as_deref())?,
            },
            items::mutation,
        ),
        GenKind::Forage {
            terrain,
            kits,
            water,
            wit,
            damage,
        } => list.show(
            &forage::Request {
                terrain: terrain.clone(),
                kits: kits.clone(),
                water: *water,
                wit: *wit,
                damage: damage.clone(),
                mettle: None,
            },
            items::forage,
        ),
        GenKind::Trap {
            from,
            system,
            poise,
            party,
        } => list.show_distinct(
            &trap_request((*from).into(), (*system).into(), poise, party)?,
            items::trap,
        ),
        GenKind::Map { .. } => show_map(list, kind),
        GenKind::Voucher { holders } => {
            if holders.is_empty() {
                return Err(Error::Usage(
                    "gen voucher: name the holders, one voucher each: --holder Ada,Brannoc".into(),
                ));
            }
            list.show_distinct(
                &voucher::Request {
                    holders: holders.clone(),
                },
                items::voucher,
            )
        }
        GenKind::Journey { .. } => list.show(&journey_request(kind)?, items::journey),
        GenKind::Encounter {
            terrain,
            system,
            party,
        } => list.show_distinct(
            &encounter::Request {
                terrain: terrain.clone(),
                system: (*system).into(),
                party: input::party(party.as_deref(), (*system).into())?,
                pin: encounter::Pin::default(),
            },
            items::encounter,
        ),
    }
}

/// `--reroll` and `--session` name one item: they need `--item`, and a
/// reroll count is bounded as in a session's `[rerolls]`.
fn check_item_args(which: Which, args: &ItemArgs) -> Result<(), Error> {
    if let Which::Count(_) = which {
        for (given, flag) in [
            (args.reroll.is_some(), "--reroll"),
            (args.session.is_some(), "--session"),
        ] {
            if given {
                return Err(Error::Usage(format!(
                    "gen: {flag} is about one item: give --item N too (`gen encounter --item 2 \
                     {flag} ...`)"
                )));
            }
        }
    }
    match args.reroll {
        Some(k) if k > MAX_REROLLS => Err(Error::Usage(format!(
            "gen: --reroll {k}: an item is rerolled at most {MAX_REROLLS} times"
        ))),
        _ => Ok(()),
    }
}

/// `gen npc --terrain`: one of the terrains (regions) in effect, in any
/// case.
fn terrain_arg(library: &Library, terrain: Option<&str>) -> Result<Option<String>, Error> {
    terrain
        .map(|t| {
            library
                .region(t)
                .map(|r| r.name.clone())
                .map_err(|e| Error::Usage(format!("gen npc: --terrain {t}: {e}")))
        })
        .transpose()
}

/// The trap `gen trap` asks for: METTLE odds against `--poise` (or the
/// party's POISE), Core Rules odds for the party's ability scores.
fn trap_request(
    source: trap::Source,
    system: RulesSystem,
    poise: &Option<Vec<u32>>,
    party: &Option<String>,
) -> Result<trap::Request, Error> {
    if system == RulesSystem::Core {
        if poise.is_some() {
            return Err(Error::Usage(
                "gen trap: --poise is METTLE's; a Core Rules trap's odds are for the party's \
                 STR, AGI and WIT (give --party)"
                    .into(),
            ));
        }
        if source == trap::Source::Rules {
            return Err(Error::Usage(
                "gen trap: --from rules: the Core Rules have no traps of their own; Core traps \
                 are built from parts (--from parts or any)"
                    .into(),
            ));
        }
    }
    let against = match (system, poise, party) {
        (_, Some(_), Some(_)) => {
            return Err(Error::Usage(
                "gen trap: give --poise or --party, not both".into(),
            ));
        }
        (RulesSystem::Mettle, Some(p), None) => trap::Against::Poise(p.clone()),
        (RulesSystem::Mettle, None, None) => trap::Against::Poise((1..=6).collect()),
        (system, _, party) => {
            let party = input::party(party.as_deref(), system)?;
            trap::Request::for_party(system, &party).against
        }
    };
    Ok(trap::Request { source, against })
}

/// What every listing needs: the options, the tables, how many, and where
/// results and notes go.
struct Listing<'a> {
    cfg: &'a Config,
    library: &'a Library,
    which: Which,
    /// `--reroll K`: the `--item` as rerolled K times.
    reroll: u32,
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

/// `gen --json`: the seed, the kind and the items, each placed.
#[derive(Serialize)]
pub(super) struct GenReport<'a, T: Serialize> {
    pub seed: &'a str,
    pub kind: &'a str,
    pub items: Vec<T>,
}

impl Listing<'_> {
    /// Make the items and print them: JSON, or each item's text with a
    /// blank line between. `--item N` is item N on its own streams.
    fn show<G: Generator>(
        &mut self,
        req: &G,
        text: impl Fn(&G::Item) -> String,
    ) -> Result<(), Error> {
        let seed = self.cfg.roll_seed(self.err)?;
        let none = Rerolls::default();
        let (first, items) = match self.which {
            Which::Count(n) => (0, make_many(req, self.library, &seed, n, &none)?),
            Which::Item(n) => {
                let at = Address::new(G::KIND, n - 1).rerolled(self.reroll);
                (n - 1, vec![req.make(self.library, &seed, &at)?])
            }
        };
        self.print::<G>(&seed, first, items, text)
    }

    /// As [`Self::show`], but `--item N` draws items 1..N with the pack's
    /// no-repeat rule, so item N is the pack's `<kind>/N`.
    fn show_distinct<G: Generator + Clone>(
        &mut self,
        req: &G,
        text: impl Fn(&G::Item) -> String,
    ) -> Result<(), Error>
    where
        G::Item: Distinct,
    {
        let Which::Item(n) = self.which else {
            return self.show(req, text);
        };
        let seed = self.cfg.roll_seed(self.err)?;
        let mut rerolls = Rerolls::default();
        if self.reroll > 0 {
            let at = Address::new(G::KIND, n - 1).to_string();
            rerolls.0.insert(at, self.reroll);
        }
        let reqs = vec![req.clone(); n];
        let mut all = make_distinct(&reqs, self.library, &seed, &mut Said::default(), &rerolls)?;
        let item = all.pop().expect("n >= 1 items");
        self.print::<G>(&seed, n - 1, vec![item], text)
    }

    /// Print items whose first is item `first` (0-based) of its kind.
    fn print<G: Generator>(
        &mut self,
        seed: &crate::seed::Seed,
        first: usize,
        items: Vec<G::Item>,
        text: impl Fn(&G::Item) -> String,
    ) -> Result<(), Error> {
        if self.cfg.json {
            let items = items
                .into_iter()
                .enumerate()
                .map(|(i, item)| Placed {
                    address: Address::new(G::KIND, first + i).to_string(),
                    reroll: match self.which {
                        Which::Item(_) => self.reroll,
                        Which::Count(_) => 0,
                    },
                    item,
                })
                .collect();
            let report = GenReport {
                seed: seed.as_str(),
                kind: G::KIND,
                items,
            };
            return super::json(self.out, &report);
        }
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                writeln!(self.out)?;
            }
            write!(self.out, "{}", text(item))?;
        }
        Ok(())
    }
}

/// `gen map`: listed like the others, or one map drawn as SVG.
fn show_map(mut list: Listing, kind: &GenKind) -> Result<(), Error> {
    let GenKind::Map {
        stops,
        terrain,
        svg,
        players,
    } = kind
    else {
        unreachable!("called for maps only")
    };
    let req = map::Request {
        stops: *stops,
        terrains: terrain.clone(),
    };
    if !*svg {
        return list.show(&req, |m| items::map(m, *players));
    }
    let index = match list.which {
        Which::Count(1) => 0,
        Which::Item(n) => n - 1,
        Which::Count(_) => {
            return Err(Error::Usage(
                "gen map --svg draws one map; leave out --count".into(),
            ));
        }
    };
    let seed = list.cfg.roll_seed(list.err)?;
    let at = Address::new(map::Request::KIND, index).rerolled(list.reroll);
    let made = req.make(list.library, &seed, &at)?;
    let drawing = crate::handouts::drawings::chart::draw(&made, *players);
    write!(list.out, "{}", crate::page::svg::document(&drawing))?;
    Ok(())
}

/// `gen journey`: the saved map, the stops named, the party and its water.
fn journey_request(kind: &GenKind) -> Result<journey::Request, Error> {
    let GenKind::Journey {
        map: path,
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
    } = kind
    else {
        unreachable!("called for journeys only")
    };
    let Some(path) = path else {
        return Err(Error::Usage(
            "gen journey: give --map FILE (a map saved with `gen map --json > map.json`), or \
             --session SESSION.toml --item 1 for a session pack's journey"
                .into(),
        ));
    };
    let map = input::read_map(path)?;
    let system: RulesSystem = (*system).into();
    let mut party = input::party(party.as_deref(), system)?;
    if let Some(c) = water_capacity {
        if !(1..=journey::MAX_SUPPLY).contains(c) {
            return Err(Error::input(
                Diagnostic::message(format!(
                    "--water-capacity {c}: each PC carries 1 to {} units of water",
                    journey::MAX_SUPPLY
                ))
                .with_hint("give how many units of water each PC can carry, such as 4"),
            ));
        }
        party.water_capacity = Some(*c);
    }
    Ok(journey::Request {
        from: stop(&map, from.as_deref(), map.start)?,
        to: stop(&map, to.as_deref(), map.goal)?,
        capacity: journey::Request::capacity_for(&party, *water),
        party,
        system,
        map,
        route: (*route).into(),
        rations: *rations,
        water: *water,
        kits: kits.clone(),
        twist: !*no_twist,
        used: Vec::new(),
    })
}

/// The stop a `--from`/`--to` names (by its name), or the default.
fn stop(map: &map::Map, name: Option<&str>, default: usize) -> Result<usize, Error> {
    let Some(n) = name else { return Ok(default) };
    if let Some(s) = map.stop_named(n) {
        return Ok(s.id);
    }
    let names: Vec<&str> = map.stops.iter().map(|s| s.name.as_str()).collect();
    let suggestion = crate::content::validate::closest(n, names.iter().copied());
    let d = Diagnostic::message(format!("the map has no stop `{n}`"));
    Err(Error::input(match suggestion {
        Some(c) => d.with_suggestion(Some(c.to_owned())),
        None => d.with_hint(format!("the stops are: {}", names.join(", "))),
    }))
}
