//! A session pack as files: one Markdown file per handout (through the
//! templates), `pack.md` binding them, `pack.json`, and the drawings as
//! SVG. Stat lines come from [`crate::render::lines`], given to the
//! templates as values next to the items themselves: `encounter.md` gets
//! `foe_rows` (per foe: `stats`, `toughness`, `attack`) and `sporadics`;
//! `npc.md` gets `stats` (a table row), `weapons` and `callings`.

use serde::Serialize;
use tera::Context;

use super::ShareLine;
use crate::generators::encounter::Encounter;
use crate::generators::journey::Journey;
use crate::generators::map::Map;
use crate::generators::npc::Npc;
use crate::generators::pack::Pack;
use crate::generators::trap::Trap;
use crate::generators::{count, display_name};
use crate::render::lines::{self, Markup};
use crate::render::markdown::{TemplateError, Templates, escape_md};
use crate::render::{map, perils, run, svg, zones};

/// The files made so far, and the Markdown parts `pack.md` binds.
struct Files<'a> {
    templates: &'a Templates,
    share: &'a ShareLine,
    files: Vec<(String, Vec<u8>)>,
    parts: Vec<String>,
}

impl Files<'_> {
    /// A template context with the share line in it.
    fn ctx(&self) -> Context {
        let mut c = Context::new();
        c.insert("share", &format!("*{}*", self.share.text()));
        c
    }

    /// Add a file; `part`: `pack.md` binds it too, one heading level down.
    fn add(&mut self, name: String, text: String, part: bool) {
        if part {
            self.parts.push(demote(&text));
        }
        self.files.push((name, text.into_bytes()));
    }

    /// Render `template` into the file `name`, which `pack.md` binds too.
    fn part(&mut self, template: &str, name: String, c: &Context) -> Result<(), TemplateError> {
        let md = self.templates.render(template, c)?;
        self.add(name, md, true);
        Ok(())
    }

    fn encounter(&mut self, number: usize, e: &Encounter) -> Result<(), TemplateError> {
        let zones_file = format!("encounter-{number}-zones.svg");
        let mut c = self.ctx();
        c.insert("e", e);
        c.insert("number", &number);
        c.insert("trail", &e.situation.trail_text());
        c.insert("zones_file", &zones_file);
        let foes: Vec<lines::Foe> = e.foes.iter().map(lines::foe_cells).collect();
        c.insert("foe_rows", &foes);
        c.insert("sporadics", &lines::sporadics(e));
        c.insert("initiative", lines::initiative(e.system));
        c.insert("tile_rules", &lines::tile_rules(e));
        if let Some(t) = &e.trap {
            c.insert("trap_roll", &perils::roll(t));
        }
        if let Some(h) = &e.hazard {
            c.insert("hazard", &perils::hazard(h));
        }
        self.part("encounter.md", format!("encounter-{number}.md"), &c)?;
        self.add(zones_file, svg(&zones::draw(e, zones::SVG_WIDTH)), false);
        Ok(())
    }

    fn npcs(&mut self, npcs: &[Npc]) -> Result<(), TemplateError> {
        let mut cards = String::from("# NPCs\n\n");
        for n in npcs {
            let mut c = self.ctx();
            c.insert("n", n);
            c.insert("kind", &display_name(&n.archetype));
            c.insert("stats", &lines::npc_row(n));
            c.insert("track", &lines::foe_cells(n).toughness);
            if let Some(m) = &n.mettle {
                c.insert(
                    "weapons",
                    &lines::weapons_ranged(&m.block, Markup::Markdown),
                );
                c.insert("callings", &lines::callings(&m.block, Markup::Markdown));
            }
            cards.push_str(&self.templates.render("npc.md", &c)?);
            cards.push_str("\n---\n\n");
        }
        cards.push_str(&format!("*{}*\n", self.share.text()));
        self.add("npcs.md".into(), cards, true);
        Ok(())
    }

    fn trap(&mut self, number: usize, t: &Trap) -> Result<(), TemplateError> {
        let mut c = self.ctx();
        c.insert("t", t);
        c.insert("roll", &perils::roll(t));
        c.insert("odds_head", &perils::odds_head(t));
        c.insert("odds_rows", &perils::odds_rows(t));
        self.part("trap.md", format!("trap-{number}.md"), &c)
    }

    /// The GM's map, then the players' (only the GM's goes in `pack.md`).
    fn map(&mut self, m: &Map) -> Result<(), TemplateError> {
        for players in [false, true] {
            let (svg_name, md_name) = if players {
                ("map-players.svg", "map-players.md")
            } else {
                ("map.svg", "map.md")
            };
            let mut c = self.ctx();
            c.insert("m", m);
            c.insert("players", &players);
            c.insert("svg_file", svg_name);
            let md = self.templates.render("map.md", &c)?;
            self.add(svg_name.into(), svg(&map::draw(m, players)), false);
            self.add(md_name.into(), md, !players);
        }
        Ok(())
    }

    fn journey(&mut self, j: &Journey) -> Result<(), TemplateError> {
        let mut c = self.ctx();
        c.insert("j", j);
        self.part("journey.md", "journey.md".into(), &c)
    }

    fn vouchers(&mut self, pack: &Pack) -> Result<(), TemplateError> {
        let mut c = self.ctx();
        c.insert("vouchers", &pack.vouchers);
        c.insert("plain_share", &self.share.plain());
        self.part("vouchers.md", "vouchers.md".into(), &c)
    }

    fn slips(&mut self, pack: &Pack) -> Result<(), TemplateError> {
        let mut c = self.ctx();
        c.insert("injuries", &pack.injuries);
        c.insert("mutations", &pack.mutations);
        let trails: Vec<String> = pack.injuries.iter().map(|i| i.roll.trail_text()).collect();
        c.insert("trails", &trails);
        self.part("slips.md", "slips.md".into(), &c)
    }

    /// `pack.md` (binding the parts) first, then `pack.json`, then the rest.
    fn finish(mut self, pack: &Pack) -> Result<Vec<(String, Vec<u8>)>, TemplateError> {
        let mut c = self.ctx();
        c.insert("title", &pack.title);
        c.insert("seed", &self.share.seed);
        c.insert("summary", &summary(pack));
        c.insert("parts", &self.parts);
        c.insert("system", pack.system.label());
        c.insert("contents", &contents(&self.parts));
        c.insert("party", &run::party(pack, Markup::Markdown));
        let glance: Vec<String> = pack
            .encounters
            .iter()
            .enumerate()
            .map(|(i, e)| escape_md(&run::encounter_line(i + 1, e)))
            .collect();
        c.insert("glance", &glance);
        if let Some(j) = &pack.journey {
            c.insert("journey_line", &escape_md(&run::journey_line(j)));
        }
        c.insert("ladder", &run::ladder(pack));
        let md = self.templates.render("pack.md", &c)?;
        self.files.insert(0, ("pack.md".into(), md.into_bytes()));
        #[derive(Serialize)]
        struct PackJson<'a> {
            share: &'a ShareLine,
            pack: &'a Pack,
        }
        let json = serde_json::to_string_pretty(&PackJson {
            share: self.share,
            pack,
        })
        .expect("a pack serializes")
            + "\n";
        self.files
            .insert(1, ("pack.json".into(), json.into_bytes()));
        Ok(self.files)
    }
}

/// The contents of `pack.md`: the heading each bound part starts with.
fn contents(parts: &[String]) -> Vec<String> {
    parts
        .iter()
        .filter_map(|p| p.lines().find_map(|l| l.strip_prefix("## ")))
        .map(str::to_owned)
        .collect()
}

/// A handout's Markdown one heading level down (`# Trap` → `## Trap`), so
/// `pack.md` keeps one H1, the pack's title.
fn demote(md: &str) -> String {
    let mut out = String::with_capacity(md.len() + 16);
    for line in md.split_inclusive('\n') {
        let hashes = line.bytes().take_while(|b| *b == b'#').count();
        if (1..6).contains(&hashes) && line[hashes..].starts_with(' ') {
            out.push('#');
        }
        out.push_str(line);
    }
    out
}

/// What a pack holds, in one line: `2 encounters, 1 trap, 4 NPCs, a map
/// and a journey, 2 downtime vouchers`; parts it has none of are left out.
fn summary(pack: &Pack) -> String {
    let slips = pack.injuries.len() + pack.mutations.len();
    let mut parts: Vec<String> = [
        (pack.encounters.len(), "encounter", "encounters"),
        (pack.traps.len(), "trap", "traps"),
        (pack.npcs.len(), "NPC", "NPCs"),
    ]
    .iter()
    .filter(|(n, ..)| *n > 0)
    .map(|(n, one, many)| count(*n, one, many))
    .collect();
    match (&pack.map, &pack.journey) {
        (Some(_), Some(_)) => parts.push("a map and a journey".into()),
        (Some(_), None) => parts.push("a map".into()),
        _ => {}
    }
    for (n, one, many) in [
        (pack.vouchers.len(), "downtime voucher", "downtime vouchers"),
        (slips, "slip", "slips"),
    ] {
        if n > 0 {
            parts.push(count(n, one, many));
        }
    }
    if parts.is_empty() {
        return "nothing asked for".into();
    }
    parts.join(", ")
}

/// Every file of a pack: (name, bytes), in a fixed order.
pub fn pack_files(
    pack: &Pack,
    templates: &Templates,
    share: &ShareLine,
) -> Result<Vec<(String, Vec<u8>)>, TemplateError> {
    let mut f = Files {
        templates,
        share,
        files: Vec::new(),
        parts: Vec::new(),
    };
    for (i, e) in pack.encounters.iter().enumerate() {
        f.encounter(i + 1, e)?;
    }
    if !pack.npcs.is_empty() {
        f.npcs(&pack.npcs)?;
    }
    for (i, t) in pack.traps.iter().enumerate() {
        f.trap(i + 1, t)?;
    }
    if let Some(m) = &pack.map {
        f.map(m)?;
    }
    if let Some(j) = &pack.journey {
        f.journey(j)?;
    }
    if !pack.vouchers.is_empty() {
        f.vouchers(pack)?;
    }
    if !pack.injuries.is_empty() || !pack.mutations.is_empty() {
        f.slips(pack)?;
    }
    f.finish(pack)
}
