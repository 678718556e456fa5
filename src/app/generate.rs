//! `gen <kind>`: build the generator's request from the checked arguments
//! ([`super::request::Gen`]), reading any file they name,, then list items `1..=count` through the one
//! [`Generator`] interface — as JSON (`{seed, kind, items}`, each item with
//! its `address`) or as text, one item after another. `--item N` makes the
//! one item a session pack places at `<kind>/N`: the same streams, and for
//! kinds that never repeat in a pack (encounter, trap, npc, voucher) items
//! 1..N drawn with the pack's no-repeat rule; `--reroll K` makes it as
//! rerolled K times. A pack's item can also repeat what an item of an
//! earlier kind says (an encounter's people, an NPC): `--session` makes
//! the item from the session's whole request ([`super::pack_item`]).

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::request::{Gen, JourneyArgs, Kind, TrapOdds, Which};
use crate::content::Library;
use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::generators::{
    Address, Distinct, Generator, Placed, Rerolls, Said, encounter, injury, journey, make_distinct,
    make_many, make_nth, map, mutation, npc, trap,
};
use crate::input;
use crate::terminal::items;
use crate::workspace::Workspace;

/// `gen <kind>`: the kind's request made (every file it names read before
/// a seed is chosen: bad input rolls nothing), then its items listed.
pub(crate) fn run(
    ws: &Workspace,
    asked: &Gen,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let library = ws.library()?;
    let mut list = Listing {
        ws,
        library,
        which: asked.which,
        reroll: asked.reroll,
        jsonl: asked.jsonl,
        out,
        err,
    };
    match &asked.kind {
        Kind::Npc { .. } => list.show_distinct(&npc_request(library, &asked.kind)?, items::npc),
        Kind::Injury {
            character,
            permanent,
        } => list.show(&injury_request(character, *permanent)?, items::injury),
        Kind::Mutation { character } => list.show(&mutation_request(character)?, items::mutation),
        Kind::Forage(req) => list.show(req, items::forage),
        Kind::Trap {
            source,
            against,
            terrain,
        } => list.show_distinct(
            &trap_request(library, *source, against, terrain.as_deref())?,
            items::trap,
        ),
        Kind::Map {
            request,
            players,
            svg: None,
        } => list.show(request, |m| items::map(m, *players)),
        Kind::Map {
            request,
            players,
            svg: Some(index),
        } => draw_map(list, request, *index, *players),
        Kind::Voucher(req) => list.show_distinct(req, items::voucher),
        Kind::Journey(args) => list.show(&journey_request(args)?, items::journey),
        Kind::Encounter { .. } => {
            list.show_distinct(&encounter_request(&asked.kind)?, items::encounter)
        }
    }
}

/// `gen injury`: the character sheet, if any, read.
fn injury_request(character: &Option<PathBuf>, permanent: bool) -> Result<injury::Request, Error> {
    Ok(injury::Request {
        character: input::character(character.as_deref())?,
        permanent,
        name: None,
    })
}

/// `gen mutation`: the character sheet, if any, read.
fn mutation_request(character: &Option<PathBuf>) -> Result<mutation::Request, Error> {
    Ok(mutation::Request {
        character: input::character(character.as_deref())?,
    })
}

/// `gen encounter`: the party (a file or a pool summary) read.
fn encounter_request(kind: &Kind) -> Result<encounter::Request, Error> {
    let Kind::Encounter {
        terrain,
        system,
        party,
        season,
    } = kind
    else {
        unreachable!("called for encounters only")
    };
    Ok(encounter::Request {
        terrain: terrain.clone(),
        system: *system,
        party: input::party(party.as_deref(), *system)?,
        pin: encounter::Pin::default(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
        season: *season,
    })
}

/// `gen npc`: its `--terrain` one of the terrains (regions) in effect, in
/// any case.
fn npc_request(library: &Library, kind: &Kind) -> Result<npc::Request, Error> {
    let Kind::Npc {
        system,
        archetype,
        tier,
        terrain,
        people,
    } = kind
    else {
        unreachable!("called for NPCs only")
    };
    let terrain = terrain
        .as_deref()
        .map(|t| {
            library
                .region(t)
                .map(|r| r.name.clone())
                .map_err(|e| UsageError::NpcTerrain {
                    terrain: t.to_owned(),
                    why: e.to_string(),
                })
        })
        .transpose()?;
    Ok(npc::Request {
        system: *system,
        archetype: archetype.clone(),
        tier: *tier,
        terrain,
        people_only: *people,
        fits: Vec::new(),
        met: Vec::new(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
    })
}

/// The trap `gen trap` asks for: METTLE odds against POISE values, or the
/// odds for a party (its file read here); in `--terrain`, checked here.
fn trap_request(
    library: &Library,
    source: trap::Source,
    against: &TrapOdds,
    terrain: Option<&str>,
) -> Result<trap::Request, Error> {
    let terrain = terrain
        .map(|t| {
            library
                .region(t)
                .map(|r| r.name.clone())
                .map_err(|why| UsageError::TrapTerrain {
                    terrain: t.to_owned(),
                    why,
                })
        })
        .transpose()?;
    Ok(match against {
        TrapOdds::Poise(p) => trap::Request {
            source,
            against: trap::Against::Poise(p.clone()),
            party: None,
            terrain,
            // `gen trap`: a trap of its own, with nobody to keep it.
            keepers: false,
        },
        TrapOdds::Party(system, party) => {
            let party = input::party(party.as_deref(), *system)?;
            trap::Request {
                source,
                terrain,
                ..trap::Request::for_party(*system, &party)
            }
        }
    })
}

/// What every listing needs: the options, the tables, how many, and where
/// results and notes go.
struct Listing<'a> {
    ws: &'a Workspace,
    library: &'a Library,
    which: Which,
    /// `--reroll K`: the `--item` as rerolled K times.
    reroll: u32,
    /// `--jsonl`: one item a line, written as it is made.
    jsonl: bool,
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
        let seed = self.ws.roll_seed(self.err)?;
        let none = Rerolls::default();
        if let (true, Which::Count(n)) = (self.jsonl, self.which) {
            return self.stream(req, &seed, n);
        }
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
        let seed = self.ws.roll_seed(self.err)?;
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

    /// `--count N --jsonl`: items `1..=N` made and written one at a time,
    /// each a line of JSON as `--json` lists it; nothing is kept, so memory
    /// stays that of one item whatever N.
    fn stream<G: Generator>(
        &mut self,
        req: &G,
        seed: &crate::seed::Seed,
        count: usize,
    ) -> Result<(), Error> {
        let none = Rerolls::default();
        let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut *self.out);
        for i in 0..count {
            let item = make_nth(req, self.library, seed, i, &none)?;
            let placed = Placed {
                address: Address::new(G::KIND, i).to_string(),
                reroll: 0,
                item,
            };
            serde_json::to_writer(&mut out as &mut dyn Write, &placed)
                .map_err(std::io::Error::from)?;
            out.write_all(b"\n")?;
        }
        out.flush()?;
        Ok(())
    }

    /// Print items whose first is item `first` (0-based) of its kind.
    fn print<G: Generator>(
        &mut self,
        seed: &crate::seed::Seed,
        first: usize,
        items: Vec<G::Item>,
        text: impl Fn(&G::Item) -> String,
    ) -> Result<(), Error> {
        if self.jsonl {
            for (i, item) in items.into_iter().enumerate() {
                let placed = Placed {
                    address: Address::new(G::KIND, first + i).to_string(),
                    reroll: self.reroll,
                    item,
                };
                serde_json::to_writer(&mut *self.out, &placed).map_err(std::io::Error::from)?;
                writeln!(self.out)?;
            }
            return Ok(());
        }
        if self.ws.json {
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

/// `gen map --svg`: the map at `index` drawn as SVG.
fn draw_map(list: Listing, req: &map::Request, index: usize, players: bool) -> Result<(), Error> {
    let seed = list.ws.roll_seed(list.err)?;
    let at = Address::new(map::Request::KIND, index).rerolled(list.reroll);
    let made = req.make(list.library, &seed, &at)?;
    let drawing = crate::handouts::drawings::chart::draw(&made, players);
    write!(list.out, "{}", crate::page::svg::document(&drawing))?;
    Ok(())
}

/// `gen journey`: the saved map, the stops named, the party and its water.
fn journey_request(args: &JourneyArgs) -> Result<journey::Request, Error> {
    let map = input::read_map(&args.map)?;
    let system = args.system;
    let mut party = input::party(args.party.as_deref(), system)?;
    if let Some(c) = &args.water_capacity {
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
        from: stop(&map, args.from.as_deref(), map.start)?,
        to: stop(&map, args.to.as_deref(), map.goal)?,
        capacity: journey::Request::capacity_for(&party, args.water),
        party,
        system,
        map,
        route: args.route,
        rations: args.rations,
        water: args.water,
        kits: args.kits.clone(),
        twist: args.twist,
        used: Vec::new(),
        remembered: Vec::new(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
        pool: None,
        first_day: 1,
        first_season: args.season,
        fasting: Vec::new(),
        visits: Default::default(),
        helped: Vec::new(),
        hearsay: Default::default(),
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
