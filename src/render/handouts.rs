//! The handouts of a session pack as files: one Markdown file per handout,
//! `pack.md` binding them, `pack.json`, and the map drawing as SVG. Pure:
//! this returns (file name, bytes) pairs; [`crate::output`] writes them.

use serde::Serialize;
use tera::Context;

use super::markdown::{TemplateError, Templates};
use crate::generators::display_name;
use crate::generators::pack::Pack;

/// What every handout carries so a table can reproduce it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareLine {
    pub seed: String,
    pub options: String,
    pub version: String,
    pub content: String,
}

impl ShareLine {
    pub fn text(&self) -> String {
        format!(
            "Seed `{}` · {} · tablewright {} · tables {}",
            self.seed, self.options, self.version, self.content
        )
    }

    /// Without Markdown, for vouchers and PDF footers.
    pub fn plain(&self) -> String {
        format!(
            "seed {} · {} · tablewright {} · tables {}",
            self.seed, self.options, self.version, self.content
        )
    }
}

fn ctx(share: &ShareLine) -> Context {
    let mut c = Context::new();
    c.insert("share", &format!("*{}*", share.text()));
    c
}

/// Every file of a pack: (name, bytes), in a fixed order.
pub fn pack_files(
    pack: &Pack,
    templates: &Templates,
    share: &ShareLine,
) -> Result<Vec<(String, Vec<u8>)>, TemplateError> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for (i, e) in pack.encounters.iter().enumerate() {
        let mut c = ctx(share);
        c.insert("e", e);
        c.insert("number", &(i + 1));
        c.insert("trail", &e.situation.trail_text());
        let md = templates.render("encounter.md", &c)?;
        files.push((format!("encounter-{}.md", i + 1), md.clone().into_bytes()));
        parts.push(md);
    }
    if !pack.npcs.is_empty() {
        let mut cards = String::from("## NPC cards\n\n");
        for n in &pack.npcs {
            let mut c = ctx(share);
            c.insert("n", n);
            c.insert("kind", &display_name(&n.archetype));
            cards.push_str(&templates.render("npc.md", &c)?);
            cards.push_str("\n---\n\n");
        }
        cards.push_str(&format!("*{}*\n", share.text()));
        files.push(("npcs.md".into(), cards.clone().into_bytes()));
        parts.push(cards);
    }
    for (i, t) in pack.traps.iter().enumerate() {
        let mut c = ctx(share);
        c.insert("t", t);
        let md = templates.render("trap.md", &c)?;
        files.push((format!("trap-{}.md", i + 1), md.clone().into_bytes()));
        parts.push(md);
    }
    if let Some(m) = &pack.map {
        for players in [false, true] {
            let svg = super::svg(&super::map::draw(m, players));
            let svg_name = if players {
                "map-players.svg"
            } else {
                "map.svg"
            };
            let mut c = ctx(share);
            c.insert("m", m);
            c.insert("players", &players);
            c.insert("svg_file", svg_name);
            let md = templates.render("map.md", &c)?;
            let md_name = if players { "map-players.md" } else { "map.md" };
            files.push((svg_name.into(), svg.into_bytes()));
            files.push((md_name.into(), md.clone().into_bytes()));
            if !players {
                parts.push(md);
            }
        }
    }
    if let Some(j) = &pack.journey {
        let mut c = ctx(share);
        c.insert("j", j);
        let md = templates.render("journey.md", &c)?;
        files.push(("journey.md".into(), md.clone().into_bytes()));
        parts.push(md);
    }
    if !pack.vouchers.is_empty() {
        let mut c = ctx(share);
        c.insert("vouchers", &pack.vouchers);
        c.insert("plain_share", &share.plain());
        let md = templates.render("vouchers.md", &c)?;
        files.push(("vouchers.md".into(), md.clone().into_bytes()));
        parts.push(md);
    }
    if !pack.injuries.is_empty() || !pack.mutations.is_empty() {
        let mut c = ctx(share);
        c.insert("injuries", &pack.injuries);
        c.insert("mutations", &pack.mutations);
        let trails: Vec<String> = pack.injuries.iter().map(|i| i.roll.trail_text()).collect();
        c.insert("trails", &trails);
        let md = templates.render("slips.md", &c)?;
        files.push(("slips.md".into(), md.clone().into_bytes()));
        parts.push(md);
    }
    let mut c = ctx(share);
    c.insert("title", &pack.title);
    c.insert("seed", &share.seed);
    c.insert("encounters_count", &pack.encounters.len());
    c.insert("traps_count", &pack.traps.len());
    c.insert("npcs_count", &pack.npcs.len());
    c.insert("vouchers_count", &pack.vouchers.len());
    c.insert("has_map", &pack.map.is_some());
    c.insert("parts", &parts);
    let md = templates.render("pack.md", &c)?;
    files.insert(0, ("pack.md".into(), md.into_bytes()));
    #[derive(Serialize)]
    struct PackJson<'a> {
        share: &'a ShareLine,
        pack: &'a Pack,
    }
    let json =
        serde_json::to_string_pretty(&PackJson { share, pack }).expect("a pack serializes") + "\n";
    files.insert(1, ("pack.json".into(), json.into_bytes()));
    Ok(files)
}
