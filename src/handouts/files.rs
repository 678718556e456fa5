//! A session pack as files: one Markdown file per item, named after its
//! address (`encounter-2.md`, `npc-3.md`, `voucher-1.md`), through the
//! templates; `pack.md` binding them, `pack.json`, and the drawings as
//! SVG. Item files carry the item's own share line (seed, address, reroll
//! count, version, tables); only the pack-wide files carry the pack's. Stat lines come from [`crate::wording::lines`], given to the
//! templates as values next to the items themselves: `encounter.md` gets
//! `foe_rows` (per foe: `stats`, `toughness`, `attack`) and `sporadics`;
//! `npc.md` gets `stats` (a table row), `weapons` and `callings`.
//!
//! Markdown flavours other than GFM ([`super::flavour`]) are made from
//! the same rendered handouts, into a folder per flavour.
//!
//! [`pack_md`]: the pieces of `pack.md` round its handouts;
//! [`flavour_parts`]: the flavours' stat blocks and roll tables.

mod flavour_parts;
mod pack_md;

use std::collections::BTreeMap;

use serde::Serialize;
use tera::Context;

use flavour_parts::{monster, roll_tables};
use pack_md::{contents, demote, in_code, summary};

use super::ShareLine;
use super::drawings::{chart, zones};
use super::flavour::{self, Combatant, Fight, Flavour, Item, Made, Sheet};
use super::{foes, run};
use crate::generators::encounter::Encounter;
use crate::generators::injury::Injury;
use crate::generators::journey::Journey;
use crate::generators::map::{Map, Reveal};
use crate::generators::mutation::Mutation;
use crate::generators::npc::Npc;
use crate::generators::session::{Pack, Returning};
use crate::generators::trap::Trap;
use crate::generators::voucher::Voucher;
use crate::generators::{Address, Rerolls, display_name};
use crate::handouts::markdown::{TemplateError, Templates, markdown};
use crate::page::svg;
use crate::wording::lines;
use crate::wording::markup::Markup;
use crate::wording::markup::escape_md;
use crate::wording::perils;

/// The files made so far, and the Markdown parts `pack.md` binds.
struct Files<'a> {
    templates: &'a Templates,
    share: &'a ShareLine,
    rerolls: &'a Rerolls,
    files: Vec<(String, Vec<u8>)>,
    parts: Vec<String>,
    /// The flavours asked for besides GFM.
    flavours: &'a [Flavour],
    /// Every sheet in `pack.md`'s order, for the flavours.
    sheets: Vec<Sheet>,
    /// The drawings by file name (Homebrewery inlines them).
    svgs: BTreeMap<String, String>,
    /// The PCs' names (Obsidian's Initiative Tracker blocks list them).
    players: Vec<String>,
}

impl Files<'_> {
    /// A template context for a pack-wide file, with the pack's share line.
    fn ctx(&self) -> Context {
        let mut c = Context::new();
        c.insert_value("share", markdown(&format!("*{}*", self.share.text())));
        c.insert("w", &self.templates.wording);
        c
    }

    /// A template context for the item at `at`: its share line names the
    /// item and its reroll count, and the bundle not at all, so a reroll
    /// of one item leaves every other item's files as they were.
    fn item_ctx(&self, at: &Address) -> Context {
        let mut c = Context::new();
        let reroll = self.rerolls.of(at);
        c.insert_value(
            "share",
            markdown(&format!("*{}*", self.share.item(at, reroll))),
        );
        c.insert("plain_share", &self.share.item_plain(at, reroll));
        c.insert("address", &at.to_string());
        c.insert("w", &self.templates.wording);
        c
    }

    /// [`Self::item_ctx`] for a sheet that is no item of the pack: its
    /// share line carries `label` in place of an address.
    fn labelled_ctx(&self, label: &str, address: &str) -> Context {
        let mut c = Context::new();
        let share = self.share.labelled(label);
        c.insert_value("share", markdown(&format!("*{share}*")));
        c.insert("plain_share", &share);
        c.insert("address", address);
        c.insert("w", &self.templates.wording);
        c
    }

    /// Add a file; `part`: `pack.md` binds it too, `depth` heading levels
    /// down.
    fn add(&mut self, name: String, text: String, part: Option<usize>) {
        if let Some(stem) = name.strip_suffix(".md") {
            self.sheets.push(Sheet::Item(Item {
                id: stem.to_owned(),
                name: name.clone(),
                text: text.clone(),
                depth: part,
                npc: false,
                foes: Vec::new(),
                fight: None,
            }));
        } else if name.ends_with(".svg") {
            self.svgs.insert(name.clone(), text.clone());
        }
        if let Some(depth) = part {
            let mut md = text.clone();
            for _ in 0..depth {
                md = demote(&md);
            }
            self.parts.push(md);
        }
        self.files.push((name, text.into_bytes()));
    }

    /// Render `template` into the file `name`, which `pack.md` binds too.
    fn part(
        &mut self,
        template: &str,
        name: String,
        c: &Context,
        depth: usize,
    ) -> Result<(), TemplateError> {
        let md = self.templates.render(template, c)?;
        self.add(name, md, Some(depth));
        Ok(())
    }

    /// A heading in `pack.md` over a group of items (`## NPCs`); the
    /// title is escaped (a GM's words may hold Markdown's characters).
    fn group(&mut self, title: &str) {
        let title = escape_md(title);
        self.parts.push(format!("## {title}\n"));
        self.sheets.push(Sheet::Group(title));
    }

    /// The item sheet added last (to note what a flavour needs of it).
    fn last_item(&mut self) -> Option<&mut Item> {
        self.sheets.iter_mut().rev().find_map(|s| match s {
            Sheet::Item(i) => Some(i),
            Sheet::Group(_) => None,
        })
    }

    /// The pack's encounter at `at`: `encounter-N.md`, headed
    /// `Encounter N`.
    fn encounter(&mut self, at: &Address, e: &Encounter) -> Result<(), TemplateError> {
        let mut c = self.item_ctx(at);
        c.insert("number", &(at.index() + 1));
        let heading = format!(
            "{} {}",
            self.templates.wording.sheet.encounter,
            at.index() + 1
        );
        self.encounter_sheet(c, &heading, &at.file_stem(), e)
    }

    /// A pack's encounters on the way, a sheet each as the PDF has them
    /// (`journey-1-encounter-2.md`, headed `Encounter on the way, day 3`
    /// and labelled by its address, `journey/1/encounter/2`).
    fn way_encounters(&mut self, pack: &Pack) -> Result<(), TemplateError> {
        let notes = pack.journey.iter().flat_map(|j| &j.encounters);
        for (k, (note, (address, e))) in notes.zip(pack.journey_encounters()).enumerate() {
            let mut c = self.labelled_ctx(&address, &address);
            c.insert("number", &(k + 1));
            let heading = format!(
                "{} on the way, day {}",
                self.templates.wording.sheet.encounter, note.day
            );
            self.encounter_sheet(c, &heading, &address.replace('/', "-"), e)?;
        }
        Ok(())
    }

    /// An encounter's sheet, `<stem>.md` (and its zones, `<stem>-zones.svg`,
    /// when it has foes to fight; one without is a compact card).
    fn encounter_sheet(
        &mut self,
        mut c: Context,
        heading: &str,
        stem: &str,
        e: &Encounter,
    ) -> Result<(), TemplateError> {
        let zones_file = format!("{stem}-zones.svg");
        c.insert("e", e);
        c.insert("heading", heading);
        c.insert("trail", &e.situation.trail_text());
        c.insert("zones_file", &zones_file);
        // What a benny on a tile does, said once where a tile has one.
        let benny = e
            .terrain_cards
            .iter()
            .flat_map(|d| &d.tiles)
            .any(|t| t.benny);
        c.insert(
            "benny_rule",
            if benny {
                crate::handouts::drawings::zones::BENNY
            } else {
                ""
            },
        );
        let foes: Vec<lines::Foe> = e.foes.iter().map(lines::foe_cells).collect();
        c.insert_value("foe_rows", markdown(&foes));
        let others: Vec<lines::Foe> = e.others.iter().map(lines::foe_cells).collect();
        c.insert_value("other_rows", markdown(&others));
        c.insert("leader", &e.leader());
        c.insert("leader_label", e.leader_label());
        c.insert(
            "leader_kind",
            &e.leader().map(|l| display_name(&l.archetype)),
        );
        c.insert("sporadics", &lines::sporadics(e));
        c.insert("initiative", lines::initiative(e.system));
        c.insert("tile_rules", &lines::tile_rules(e));
        if let Some(t) = &e.trap {
            c.insert("trap_roll", &perils::roll(t));
        }
        if let Some(h) = &e.hazard {
            c.insert("hazard", &perils::hazard(h));
        }
        self.part("encounter.md", format!("{stem}.md"), &c, 1)?;
        let fight = (!e.foes.is_empty()).then(|| Fight {
            name: format!("{heading}: {}", e.situation.row),
            foes: e
                .foes
                .iter()
                .map(|f| Combatant {
                    creature: display_name(&f.archetype),
                    name: f.name.clone(),
                    hp: lines::foe_cells(f).toughness,
                })
                .collect(),
            players: self.players.clone(),
        });
        if let Some(item) = self.last_item() {
            item.foes = foes::groups(&e.foes).iter().map(monster).collect();
            item.fight = fight;
        }
        if !e.foes.is_empty() {
            let svg = svg::document(&zones::draw(e, zones::SVG_WIDTH));
            self.add(zones_file, svg, None);
        }
        Ok(())
    }

    fn npc(&mut self, at: &Address, n: &Npc) -> Result<(), TemplateError> {
        let c = self.item_ctx(at);
        self.npc_part(c, n, format!("{}.md", at.file_stem()))
    }

    /// An NPC of an earlier pack brought back by the plan's `bring_back`:
    /// the NPC template, named `returning-1.md`, `returning-2.md`, …, its
    /// share line labelled where the NPC was made and when the party met
    /// them (`npc/2 of session 1, met in session 1`), as its card says.
    fn returning(&mut self, i: usize, r: &Returning) -> Result<(), TemplateError> {
        let made = format!("{} of session {}", r.address, r.session);
        let label = match r.met_in {
            Some(n) => format!("{made}, met in session {n}"),
            None => format!("{made}, not yet met"),
        };
        let c = self.labelled_ctx(&label, &made);
        self.npc_part(c, &r.npc, format!("returning-{}.md", i + 1))
    }

    /// An NPC's sheet from the NPC template, with `c` holding its share
    /// line and address.
    fn npc_part(&mut self, mut c: Context, n: &Npc, name: String) -> Result<(), TemplateError> {
        c.insert("n", n);
        c.insert("kind", &display_name(&n.archetype));
        c.insert_value("stats", markdown(&lines::npc_row(n)));
        c.insert("track", &lines::foe_cells(n).toughness);
        if let Some(m) = n.rules.mettle() {
            c.insert_value(
                "weapons",
                markdown(&lines::weapons_ranged(&m.block, Markup::Markdown)),
            );
            c.insert_value(
                "callings",
                markdown(&lines::callings(&m.block, Markup::Markdown)),
            );
        }
        self.part("npc.md", name, &c, 2)?;
        if let Some(item) = self.last_item() {
            item.npc = true;
        }
        Ok(())
    }

    fn trap(&mut self, at: &Address, t: &Trap) -> Result<(), TemplateError> {
        let mut c = self.item_ctx(at);
        perils::trap_lines(t)
            .iter()
            .for_each(|(k, v)| c.insert(*k, v));
        self.part("trap.md", format!("{}.md", at.file_stem()), &c, 1)
    }

    /// The GM's map, then the players' (only the GM's goes in `pack.md`):
    /// `map-1.md`, `map-1.svg`, `map-1-players.md`, `map-1-players.svg`.
    /// In a campaign (`reveal`) the players' files hold only the stops the
    /// party knows and the paths it has travelled (their `m` too), and
    /// the GM's list the party's trail.
    fn map(&mut self, at: &Address, m: &Map, reveal: Option<&Reveal>) -> Result<(), TemplateError> {
        for players in [false, true] {
            let view = chart::View { players, reveal };
            let stem = match players {
                false => at.file_stem(),
                true => format!("{}-players", at.file_stem()),
            };
            let svg_name = format!("{stem}.svg");
            let mut c = self.item_ctx(at);
            let known = |i: usize| view.shows_stop(i);
            let name = |i: usize| known(i).then(|| m.stops[i].name.clone());
            let stops: Vec<serde_json::Value> = m
                .stops
                .iter()
                .filter(|s| known(s.id))
                .map(|s| {
                    let mut v = serde_json::to_value(s).expect("a stop serialises");
                    v["heard"] = view.heard(s.id).into();
                    v
                })
                .collect();
            let paths: Vec<serde_json::Value> = m
                .paths
                .iter()
                .enumerate()
                .filter(|&(k, _)| view.shows_path(k))
                .map(|(_, p)| {
                    let mut v = serde_json::to_value(p).expect("a path serialises");
                    v["from"] = m.stops[p.a].name.clone().into();
                    v["to"] = m.stops[p.b].name.clone().into();
                    v
                })
                .collect();
            if players && reveal.is_some() {
                c.insert("m", &known_part(m, view));
            } else {
                c.insert("m", m);
            }
            c.insert("stops", &stops);
            c.insert("paths", &paths);
            c.insert("core_chances", &m.core_chances());
            c.insert("start", &name(m.start));
            c.insert("goal", &name(m.goal));
            // In a campaign's pack: the party's stop and where it is going.
            let [start_word, goal_word] = chart::mark_words(view).map(capitalised);
            c.insert("start_word", &start_word);
            c.insert("goal_word", &goal_word);
            c.insert("trail", &trail_lines(m, view));
            c.insert("players", &players);
            c.insert("svg_file", &svg_name);
            let md = self.templates.render("map.md", &c)?;
            self.add(svg_name, svg::document(&chart::draw_view(m, view)), None);
            self.add(format!("{stem}.md"), md, (!players).then_some(1));
        }
        Ok(())
    }

    fn journey(&mut self, at: &Address, j: &Journey) -> Result<(), TemplateError> {
        let mut c = self.item_ctx(at);
        c.insert("j", j);
        self.part("journey.md", format!("{}.md", at.file_stem()), &c, 1)
    }

    fn voucher(&mut self, at: &Address, v: &Voucher) -> Result<(), TemplateError> {
        let mut c = self.item_ctx(at);
        c.insert("v", v);
        self.part("voucher.md", format!("{}.md", at.file_stem()), &c, 2)
    }

    /// A Downtime Voucher the ledger issued after session `session - 1`:
    /// the voucher template, named by its serial (`downtime-AC-0001.md`),
    /// its share line labelled, not addressed (it is no item of the pack).
    fn downtime_voucher(&mut self, v: &Voucher, session: usize) -> Result<(), TemplateError> {
        let label = downtime_label(session);
        let mut c = self.labelled_ctx(&label, &label);
        c.insert("v", v);
        self.part("voucher.md", format!("downtime-{}.md", v.serial), &c, 2)
    }

    fn injury(&mut self, at: &Address, i: &Injury) -> Result<(), TemplateError> {
        let mut c = self.item_ctx(at);
        c.insert("i", i);
        c.insert("trail", &i.roll.trail_text());
        self.part("injury.md", format!("{}.md", at.file_stem()), &c, 2)
    }

    fn mutation(&mut self, at: &Address, m: &Mutation) -> Result<(), TemplateError> {
        let mut c = self.item_ctx(at);
        c.insert("m", m);
        self.part("mutation.md", format!("{}.md", at.file_stem()), &c, 2)
    }

    /// `pack.md` (binding the parts) first, then `pack.json`, then the rest.
    fn finish(mut self, pack: &Pack) -> Result<Vec<(String, Vec<u8>)>, TemplateError> {
        let mut c = self.ctx();
        c.insert("title", &pack.title);
        // Inside a code span, where a backslash would show: the seed as it
        // is, a backtick (which would end the span) as `'`.
        c.insert_value("seed", markdown(&in_code(&self.share.seed)));
        c.insert("summary", &summary(pack));
        c.insert_value("parts", markdown(&self.parts));
        c.insert("system", pack.system.label());
        c.insert_value("contents", markdown(&contents(&self.parts)));
        // Plain: the template's escaping covers names and words alike.
        c.insert("party", &run::party(pack, Markup::Plain));
        let glance: Vec<String> = pack
            .encounters
            .iter()
            .enumerate()
            .map(|(i, e)| format!("{}. {}", i + 1, escape_md(&run::encounter_text(e))))
            .collect();
        c.insert_value("glance", markdown(&glance));
        c.insert_value("deadly", markdown(&run::deadly_traps_md(pack)));
        if let Some(j) = &pack.journey {
            c.insert_value("journey_line", markdown(&escape_md(&run::journey_line(j))));
        }
        c.insert("ladder", &run::ladder(pack));
        c.insert("campaign", &pack.campaign);
        let md = self.templates.render("pack.md", &c)?;
        self.files.insert(0, ("pack.md".into(), md.into_bytes()));
        let flavoured = self.flavoured(pack, &mut c)?;
        #[derive(Serialize)]
        struct PackJson<'a> {
            share: &'a ShareLine,
            pack: &'a Pack,
        }
        // Through `&mut dyn Write`, as every JSON of the crate is written:
        // each type's `Serialize` is then built once per formatter, not
        // once per writer (CONTRIBUTING.md, "Build time").
        let mut json = Vec::new();
        serde_json::to_writer_pretty(
            &mut json as &mut dyn std::io::Write,
            &PackJson {
                share: self.share,
                pack,
            },
        )
        .expect("a pack serializes");
        json.push(b'\n');
        self.files.insert(1, ("pack.json".into(), json));
        self.files.extend(flavoured);
        Ok(self.files)
    }

    /// Each flavour's folder: `pack.md` (the template again, with the
    /// flavour's parts; Obsidian's named `pack-<seed slug>.md`) and every
    /// item's Markdown file.
    fn flavoured(
        &self,
        pack: &Pack,
        c: &mut Context,
    ) -> Result<Vec<(String, Vec<u8>)>, TemplateError> {
        let tables = roll_tables(pack, &self.templates.wording);
        let made = Made {
            sheets: &self.sheets,
            svgs: &self.svgs,
            tables: &tables,
        };
        let mut out = Vec::new();
        for &f in Flavour::FOLDERS
            .iter()
            .filter(|f| self.flavours.contains(f))
        {
            let parts = flavour::parts(f, &made, |text, depth| {
                (0..depth).fold(text.to_owned(), |md, _| demote(&md))
            });
            c.insert_value("parts", markdown(&parts));
            c.insert_value("contents", markdown(&contents(&parts)));
            let md = self.templates.render("pack.md", c)?;
            let folder = f.name();
            let note = f.pack_note(&self.share.seed);
            out.push((
                format!("{folder}/{note}.md"),
                flavour::pack(f, &md, made.tables, &note).into_bytes(),
            ));
            for sheet in made.sheets {
                if let Sheet::Item(i) = sheet {
                    let text = flavour::item(f, i, made.svgs);
                    out.push((format!("{folder}/{}", i.name), text.into_bytes()));
                }
            }
        }
        Ok(out)
    }
}

/// The part of a map the players know in a campaign, for a template's
/// `m`: the stops they know and the paths they have travelled, each
/// path's `a` and `b` counted in the stops kept (a stop's `id` is still
/// its number on the GM's map, less one); `start` and `goal` point at the
/// first stop kept when the party does not know them.
fn known_part(m: &Map, view: chart::View) -> Map {
    let kept: Vec<usize> = (0..m.stops.len()).filter(|&i| view.shows_stop(i)).collect();
    let at = |i: usize| kept.iter().position(|&k| k == i);
    Map {
        size: m.size,
        stops: kept.iter().map(|&i| m.stops[i].clone()).collect(),
        paths: m
            .paths
            .iter()
            .enumerate()
            .filter(|&(k, _)| view.shows_path(k))
            .filter_map(|(_, p)| {
                let mut p = p.clone();
                (p.a, p.b) = (at(p.a)?, at(p.b)?);
                Some(p)
            })
            .collect(),
        start: at(m.start).unwrap_or(0),
        goal: at(m.goal).unwrap_or(0),
    }
}

/// The GM's lines of the party's trail, a line a session (empty but on
/// the GM's map in a campaign).
fn trail_lines(m: &Map, view: chart::View) -> Vec<String> {
    let Some(r) = view.trail() else {
        return Vec::new();
    };
    r.trail
        .iter()
        .map(|step| {
            format!(
                "Session {}, {}: {}",
                step.session,
                step.days(),
                step.stop_labels(m).join(" → ")
            )
        })
        .collect()
}

/// Every file of a pack: (name, bytes), in a fixed order. Each item's
/// files are named after its address (`encounter-2.md`,
/// `encounter-2-zones.svg`, `npc-3.md`; see [`item_of`]); `pack.md` and
/// `pack.json` are the pack-wide ones.
pub fn pack_files(
    pack: &Pack,
    templates: &Templates,
    share: &ShareLine,
) -> Result<Vec<(String, Vec<u8>)>, TemplateError> {
    pack_files_in(pack, templates, share, &[])
}

/// [`pack_files`], and after them each of `flavours`' folder of Markdown
/// (`homebrewery/pack.md`, `homebrewery/npc-1.md`, …; GFM is the pack's
/// own Markdown and has no folder).
pub fn pack_files_in(
    pack: &Pack,
    templates: &Templates,
    share: &ShareLine,
    flavours: &[Flavour],
) -> Result<Vec<(String, Vec<u8>)>, TemplateError> {
    let mut f = Files {
        templates,
        share,
        rerolls: &pack.rerolls,
        files: Vec::new(),
        parts: Vec::new(),
        flavours,
        sheets: Vec::new(),
        svgs: BTreeMap::new(),
        players: run::party(pack, Markup::Plain)
            .into_iter()
            .map(|p| p.name)
            .collect(),
    };
    let at = Address::new;
    for (i, e) in pack.encounters.iter().enumerate() {
        f.encounter(&at("encounter", i), e)?;
    }
    let returning = pack.campaign.as_ref().map_or(&[][..], |c| &c.returning[..]);
    if !pack.npcs.is_empty() || !returning.is_empty() {
        f.group("NPCs");
    }
    for (i, n) in pack.npcs.iter().enumerate() {
        f.npc(&at("npc", i), n)?;
    }
    for (i, r) in returning.iter().enumerate() {
        f.returning(i, r)?;
    }
    for (i, t) in pack.traps.iter().enumerate() {
        f.trap(&at("trap", i), t)?;
    }
    if let Some(m) = &pack.map {
        let reveal = pack.campaign.as_ref().and_then(|c| c.reveal.as_ref());
        f.map(&at("map", 0), m, reveal)?;
    }
    if let Some(j) = &pack.journey {
        f.journey(&at("journey", 0), j)?;
        f.way_encounters(pack)?;
    }
    let downtime = pack
        .campaign
        .as_ref()
        .map_or(&[][..], |c| &c.downtime_vouchers[..]);
    if !pack.vouchers.is_empty() || !downtime.is_empty() {
        f.group(&templates.wording.voucher.group);
    }
    for (i, v) in pack.vouchers.iter().enumerate() {
        f.voucher(&at("voucher", i), v)?;
    }
    for v in downtime {
        let session = pack.campaign.as_ref().map_or(0, |c| c.session);
        f.downtime_voucher(v, session)?;
    }
    if !pack.injuries.is_empty() || !pack.mutations.is_empty() {
        f.group(&templates.wording.slip.group);
    }
    for (i, x) in pack.injuries.iter().enumerate() {
        f.injury(&at("injury", i), x)?;
    }
    for (i, m) in pack.mutations.iter().enumerate() {
        f.mutation(&at("mutation", i), m)?;
    }
    f.finish(pack)
}

/// What a campaign's Downtime Voucher says in place of an address: the
/// session after which the ledger issued it.
pub(crate) fn downtime_label(session: usize) -> String {
    format!("downtime after session {}", session.saturating_sub(1))
}

/// The item a handout file belongs to, read from its name
/// (`encounter-2-zones.svg` → `encounter/2`); `None` for the pack-wide
/// files (`pack.md`, `pack.pdf`, `pack.json`, `bundle.toml`).
pub fn item_of(name: &str) -> Option<Address> {
    // A flavour's copy (`homebrewery/npc-1.md`) belongs to the same item.
    let name = name.rsplit('/').next()?;
    let stem = name.split('.').next()?;
    let mut parts = stem.splitn(3, '-');
    let (kind, n) = (parts.next()?, parts.next()?);
    Address::parse(&format!("{kind}/{n}"))
}

/// `word` with its first letter a capital.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
