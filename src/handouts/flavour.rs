//! Markdown flavours (`prep --md`): the same handouts for the place a GM
//! pastes them. `gfm` is the templates' own output and is never touched
//! here; every other flavour is made from it, in this one place, after the
//! templates ran (so a GM's template overrides carry into every flavour),
//! and goes into a folder named after the flavour (`homebrewery/pack.md`,
//! `obsidian/npc-1.md`).
//!
//! - `obsidian`: each handout's opening block gets a block id named after
//!   its address (`^npc-1`), the share line becomes a `> [!info]` callout
//!   and write-in lines a `> [!note]` one; images point back to the pack
//!   folder (`../map-1.svg`); `pack.md`, named `pack-<seed slug>.md` there
//!   so that links to it find it in a vault of many packs, gains roll tables
//!   (`^roll-npcs`, `^roll-encounters`, `^roll-stops`) that the Dice Roller
//!   plugin rolls on with `` `dice: [[pack-<slug>#^roll-npcs]]` ``. Block ids use only
//!   lowercase letters, digits and dashes and are unique in each file.
//! - `homebrewery` (V3): every sheet starts a page (`\page`), NPCs sit in
//!   `{{monster,frame …}}` stat blocks, an encounter's foes get one per
//!   group of identical foes (`## Cultist ×5`, grouped by
//!   `handouts::foes`), names in an H2 as Homebrewery's monster
//!   snippet has them, share and write-in lines go in `{{note …}}` boxes,
//!   and drawings are inlined as SVG so they show once pasted.

use std::collections::BTreeMap;

use crate::generators::display_name;
use crate::generators::session::Pack;
use crate::wording::markup::escape_md;

/// A Markdown flavour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flavour {
    /// GitHub Markdown: the templates' own output, in the pack folder.
    Gfm,
    Obsidian,
    Homebrewery,
}

impl Flavour {
    /// The flavour's name, and its folder's.
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Gfm => "gfm",
            Flavour::Obsidian => "obsidian",
            Flavour::Homebrewery => "homebrewery",
        }
    }

    /// The stem of the flavour's `pack.md`: `pack`, but in Obsidian
    /// `pack-<seed slug>` (the pack folder's name), so a vault holding
    /// several packs has one note of that name for links to resolve to
    /// (Obsidian and the Dice Roller plugin find a note by its name).
    pub fn pack_note(self, seed: &str) -> String {
        match self {
            Flavour::Obsidian => format!("pack-{}", crate::output::slug(seed)),
            _ => "pack".to_owned(),
        }
    }

    /// The flavours that have a folder of their own.
    pub const FOLDERS: [Flavour; 2] = [Flavour::Obsidian, Flavour::Homebrewery];
}

/// A foe or NPC as a stat block: its name, what it is, and its lines.
#[derive(Debug, Clone)]
pub(crate) struct Monster {
    pub name: String,
    /// `bandit captain, tier 2, person`.
    pub what: String,
    /// (label, value) lines: stats, Mettle or health, attack.
    pub lines: Vec<(String, String)>,
}

/// One sheet of a pack: a group heading (`## NPCs`) or an item's handout.
#[derive(Debug, Clone)]
pub(crate) enum Sheet {
    Group(String),
    Item(Item),
}

/// An item's handout as the templates made it, with what a flavour needs
/// beyond its text.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    /// The file's name (`npc-1.md`).
    pub name: String,
    /// The item's block id (`npc-1`).
    pub id: String,
    /// The GFM text.
    pub text: String,
    /// Heading levels down in `pack.md`, or `None` when `pack.md` leaves
    /// it out (the players' map).
    pub depth: Option<usize>,
    /// The item is an NPC: the whole handout is its stat block.
    pub npc: bool,
    /// Foes to give stat blocks (an encounter's).
    pub foes: Vec<Monster>,
    /// An encounter's fight for Obsidian's Initiative Tracker.
    pub fight: Option<Fight>,
}

/// An encounter as the Initiative Tracker plugin's `encounter` block
/// holds it: its name, every foe, and the party.
#[derive(Debug, Clone)]
pub(crate) struct Fight {
    /// `Encounter 1: Cultists at the well`.
    pub name: String,
    pub foes: Vec<Combatant>,
    /// The PCs' names (the tracker adds the players it knows by name).
    pub players: Vec<String>,
}

/// One foe in the tracker: its kind (`creature`, which the tracker looks
/// up in its bestiary), its name on the sheet and its hit points (Mettle
/// or health). Neither system has an armour class or an initiative
/// modifier (METTLE: the first attack called; Core: cards), so the block
/// gives neither.
#[derive(Debug, Clone)]
pub(crate) struct Combatant {
    pub creature: String,
    pub name: String,
    pub hp: i64,
}

/// A roll table for the obsidian `pack.md`: id, column heading, rows.
#[derive(Debug, Clone)]
pub(crate) struct RollTable {
    pub id: &'static str,
    pub title: &'static str,
    pub column: &'static str,
    pub rows: Vec<String>,
}

/// What every flavour is made from.
pub(crate) struct Made<'a> {
    pub sheets: &'a [Sheet],
    /// SVG drawings by file name.
    pub svgs: &'a BTreeMap<String, String>,
    pub tables: &'a [RollTable],
}

/// A flavour's item text (the file's and, `demote`d, `pack.md`'s).
pub(crate) fn item(flavour: Flavour, item: &Item, svgs: &BTreeMap<String, String>) -> String {
    match flavour {
        Flavour::Gfm => item.text.clone(),
        Flavour::Obsidian => obsidian_item(item),
        Flavour::Homebrewery => homebrewery_item(item, svgs),
    }
}

/// The parts a flavour's `pack.md` binds (in place of the GFM ones), each
/// item's text demoted `depth` levels by `demote`.
pub(crate) fn parts(
    flavour: Flavour,
    made: &Made,
    demote: impl Fn(&str, usize) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut after_group = false;
    for sheet in made.sheets {
        let (text, group) = match sheet {
            Sheet::Group(title) => (format!("## {title}\n"), true),
            Sheet::Item(i) => match i.depth {
                Some(d) => (
                    in_place(flavour, demote(&item(flavour, i, made.svgs), d)),
                    false,
                ),
                None => continue,
            },
        };
        let page = flavour == Flavour::Homebrewery && !after_group;
        out.push(match page {
            true => format!("\\page\n\n{text}"),
            false => text,
        });
        after_group = group;
    }
    out
}

/// An item's text after `pack.md` demoted its headings: Homebrewery's
/// stat blocks keep their own levels.
fn in_place(flavour: Flavour, text: String) -> String {
    match flavour {
        Flavour::Homebrewery => frame_headings(&text),
        _ => text,
    }
}

/// A flavour's `pack.md` from the one the template made with its parts;
/// `note`: its file's stem ([`Flavour::pack_note`]), which links name.
pub(crate) fn pack(flavour: Flavour, md: &str, tables: &[RollTable], note: &str) -> String {
    match flavour {
        Flavour::Gfm => md.to_owned(),
        Flavour::Obsidian => obsidian_pack(md, tables, note),
        Flavour::Homebrewery => boxes(md),
    }
}

/// A share line (`*Seed `…` · …*`), as the templates print it.
fn is_share(line: &str) -> bool {
    line.starts_with("*Seed ") && line.ends_with('*')
}

/// A line to write in by hand (`Notes: ____`, `Spent on: ____`).
fn is_write_in(line: &str) -> bool {
    line.contains(": ____") && !line.starts_with('|')
}

// ---- Obsidian ----

fn obsidian_item(item: &Item) -> String {
    let text = relink_images(&item.text, "../");
    let text = with_block_id(&text, &item.id);
    let text = match &item.fight {
        Some(f) => after_foes(&text, &format!("{}\n", encounter_block(f))),
        None => text,
    };
    callouts(&text)
}

/// An Initiative Tracker `encounter` block (the plugin reads it with
/// Obsidian's `parseYaml`, after splitting its text at every `---`): the
/// encounter's name, each foe as `- 1: {"creature": …, "name": …, "hp":
/// …}` (the plugin's `{number: {creature, name, hp}}` form, so a name may
/// hold a comma) and the party under `players`. Strings are written as
/// JSON, which YAML reads as double-quoted scalars.
fn encounter_block(f: &Fight) -> String {
    let mut out = String::from("```encounter\n");
    out.push_str(&format!("name: {}\n", yaml_str(&f.name)));
    if !f.players.is_empty() {
        out.push_str("players:\n");
        for p in &f.players {
            out.push_str(&format!("  - {}\n", yaml_str(p)));
        }
    }
    out.push_str("creatures:\n");
    for c in &f.foes {
        out.push_str(&format!(
            "  - 1: {{\"creature\": {}, \"name\": {}, \"hp\": {}}}\n",
            yaml_str(&c.creature),
            yaml_str(&c.name),
            c.hp
        ));
    }
    out.push_str("```\n");
    out
}

/// A string as a YAML double-quoted scalar (JSON's escapes), with no
/// `---` left in it: the plugin splits the block there before parsing.
fn yaml_str(s: &str) -> String {
    let mut q = serde_json::to_string(s).expect("a string serializes");
    while q.contains("---") {
        q = q.replace("---", "-\\u002d-");
    }
    q
}

/// `block` after an encounter's foes (before its next `## ` section).
fn after_foes(text: &str, block: &str) -> String {
    let Some(foes_at) = text.find("## Foes\n") else {
        return format!("{text}\n{block}");
    };
    let next = text[foes_at + 1..]
        .find("\n## ")
        .map_or(text.len(), |n| foes_at + 1 + n + 1);
    format!("{}{block}{}", &text[..next], &text[next..])
}

/// `![x](file.svg)` → `![x](PREFIXfile.svg)`.
fn relink_images(text: &str, prefix: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| match image_of(line) {
            Some((alt, file)) => format!("![{alt}]({prefix}{file})\n"),
            None => line.to_owned(),
        })
        .collect()
}

/// A line that is only a Markdown image of a local SVG: (alt, file).
fn image_of(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_end().strip_prefix("![")?;
    let (alt, rest) = rest.split_once("](")?;
    let file = rest.strip_suffix(')')?;
    (file.ends_with(".svg") && !file.contains(['/', ' '])).then_some((alt, file))
}

/// The block id on the first block after the handout's heading: at the
/// end of a paragraph's last line, or on a line of its own after a list,
/// table or quote.
fn with_block_id(text: &str, id: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i)
    else {
        return format!("{text}\n^{id}\n");
    };
    let end = lines[start..]
        .iter()
        .position(|l| l.trim().is_empty())
        .map_or(lines.len(), |n| start + n);
    let structured = lines[start].starts_with(['|', '-', '>', '#', '!']);
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    if structured {
        out.insert(end, format!("\n^{id}"));
    } else {
        out[end - 1] = format!("{} ^{id}", out[end - 1]);
    }
    let mut joined = out.join("\n");
    if text.ends_with('\n') {
        joined.push('\n');
    }
    joined
}

/// Share lines into `> [!info]` callouts, write-in lines into `> [!note]`.
fn callouts(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let bare = line.trim_end();
            if is_share(bare) {
                format!("> [!info] Share line\n> {bare}\n")
            } else if is_write_in(bare) {
                format!("> [!note] {bare}\n")
            } else {
                line.to_owned()
            }
        })
        .collect()
}

fn obsidian_pack(md: &str, tables: &[RollTable], note: &str) -> String {
    let md = callouts(md);
    let tables: Vec<&RollTable> = tables.iter().filter(|t| !t.rows.is_empty()).collect();
    if tables.is_empty() {
        return md;
    }
    let mut block = String::from("### Roll tables\n\n");
    for t in tables {
        let n = t.rows.len();
        block.push_str(&format!(
            "**{}** · `dice: [[{note}#^{}]]`\n\n",
            t.title, t.id
        ));
        // `dice: 1dN` heads a lookup table, which the Dice Roller rolls
        // on and answers with the row's second cell alone.
        block.push_str(&format!("| dice: 1d{n} | {} |\n|---|---|\n", t.column));
        for (i, row) in t.rows.iter().enumerate() {
            block.push_str(&format!("| {} | {row} |\n", i + 1));
        }
        block.push_str(&format!("\n^{}\n\n", t.id));
    }
    // Before the run sheet's notes, so the tables sit with the run sheet.
    match md.find("### Notes\n") {
        Some(at) => format!("{}{block}{}", &md[..at], &md[at..]),
        None => format!("{md}\n{block}"),
    }
}

// ---- Homebrewery ----

fn homebrewery_item(item: &Item, svgs: &BTreeMap<String, String>) -> String {
    let text = inline_svgs(&item.text, svgs);
    let text = match item.foes.is_empty() {
        true => text,
        false => with_foe_blocks(&text, &item.foes),
    };
    let text = boxes(&text);
    let text = match item.npc {
        true => monster_frame(&text),
        false => text,
    };
    frame_headings(&text)
}

/// Headings inside `{{monster` frames at the levels Homebrewery's own
/// monster snippet uses: the creature's name `##`, any section under it
/// (`### Actions` there) `###`, wherever the frame sits.
fn frame_headings(text: &str) -> String {
    let mut depth = 0usize;
    // The depth a frame opened at, and whether its name was set.
    let mut frame: Option<(usize, bool)> = None;
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end();
        if bare.starts_with("{{") {
            depth += 1;
            if frame.is_none() && bare.starts_with("{{monster") {
                frame = Some((depth, false));
            }
        } else if bare == "}}" {
            if frame.is_some_and(|(d, _)| d == depth) {
                frame = None;
            }
            depth = depth.saturating_sub(1);
        }
        let hashes = line.bytes().take_while(|b| *b == b'#').count();
        match frame.as_mut() {
            Some((_, named)) if hashes > 0 && line[hashes..].starts_with(' ') => {
                out.push_str(if *named { "###" } else { "##" });
                out.push_str(&line[hashes..]);
                *named = true;
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// Images of the pack's SVG drawings replaced by the drawing itself, on
/// one line (a blank line would end Markdown's HTML block).
fn inline_svgs(text: &str, svgs: &BTreeMap<String, String>) -> String {
    text.split_inclusive('\n')
        .map(|line| match image_of(line).and_then(|(_, f)| svgs.get(f)) {
            Some(svg) => {
                let one: Vec<&str> = svg
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect();
                format!("{}\n", one.join(" "))
            }
            None => line.to_owned(),
        })
        .collect()
}

/// Share and write-in lines in `{{note …}}` boxes; a line already in one
/// (an item's, in `pack.md`) stays as it is.
fn boxes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut boxed = false;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end();
        if !boxed && (is_share(bare) || is_write_in(bare)) {
            out.push_str(&format!("{{{{note\n{bare}\n}}}}\n"));
        } else {
            out.push_str(line);
        }
        boxed = bare == "{{note";
    }
    out
}

/// An NPC's handout inside a monster frame; its share line (in its note
/// box) stays below the frame.
fn monster_frame(text: &str) -> String {
    let body = text.trim_end();
    let (block, tail) = match body.rfind("{{note\n*Seed ") {
        Some(at) => (&body[..at], &body[at..]),
        None => (body, ""),
    };
    let mut out = format!("{{{{monster,frame\n{}\n}}}}\n", block.trim_end());
    if !tail.is_empty() {
        out.push('\n');
        out.push_str(tail);
        out.push('\n');
    }
    out
}

/// A stat block per foe, after the foes' table (before the next section).
fn with_foe_blocks(text: &str, foes: &[Monster]) -> String {
    let blocks: String = foes.iter().map(monster_block).collect();
    after_foes(text, &blocks)
}

/// One foe's `{{monster,frame …}}` block.
fn monster_block(m: &Monster) -> String {
    let mut out = format!("{{{{monster,frame\n## {}\n*{}*\n___\n", m.name, m.what);
    for (label, value) in &m.lines {
        out.push_str(&format!("**{label}** :: {value}\n"));
    }
    out.push_str("}}\n\n");
    out
}

/// What a GM may roll on at the table: which NPC turns up, which
/// encounter comes next, which stop the rumour points to.
pub(super) fn roll_tables(pack: &Pack, w: &crate::handouts::markdown::Wording) -> Vec<RollTable> {
    let npcs = pack
        .npcs
        .iter()
        .map(|n| escape_md(&format!("{} — {}", n.name, display_name(&n.archetype))))
        .collect();
    let encounters = pack
        .encounters
        .iter()
        .enumerate()
        .map(|(i, e)| {
            escape_md(&format!(
                "{} {}: {}",
                w.sheet.encounter,
                i + 1,
                e.situation.row
            ))
        })
        .collect();
    let stops = pack.map.as_ref().map_or_else(Vec::new, |m| {
        m.stops.iter().map(|s| escape_md(&s.name)).collect()
    });
    vec![
        RollTable {
            id: "roll-npcs",
            title: "Who turns up",
            column: "NPC",
            rows: npcs,
        },
        RollTable {
            id: "roll-encounters",
            title: "What happens next",
            column: "encounter",
            rows: encounters,
        },
        RollTable {
            id: "roll-stops",
            title: "Where the rumour points",
            column: "stop",
            rows: stops,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npc() -> Item {
        Item {
            name: "npc-1.md".into(),
            id: "npc-1".into(),
            text: "# Ada (tier 1)\n\nA smuggler.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nNotes: ____\n\n*Seed `s` · npc/1*\n".into(),
            depth: Some(2),
            npc: true,
            foes: vec![],
            fight: None,
        }
    }

    #[test]
    fn obsidian_ids_go_on_the_first_block() {
        let text = item(Flavour::Obsidian, &npc(), &BTreeMap::new());
        assert!(text.contains("A smuggler. ^npc-1\n"), "{text}");
        assert!(text.contains("> [!note] Notes: ____"), "{text}");
        assert!(text.contains("> [!info] Share line\n> *Seed"), "{text}");
        let mut list = npc();
        list.text = "# T\n\n- a\n- b\n\nrest\n".into();
        let text = item(Flavour::Obsidian, &list, &BTreeMap::new());
        assert!(text.contains("- b\n\n^npc-1\n\nrest"), "{text}");
    }

    #[test]
    fn homebrewery_frames_npcs_and_inlines_drawings() {
        let text = item(Flavour::Homebrewery, &npc(), &BTreeMap::new());
        assert!(text.starts_with("{{monster,frame\n## Ada"), "{text}");
        assert!(
            text.ends_with("}}\n\n{{note\n*Seed `s` · npc/1*\n}}\n"),
            "{text}"
        );
        let mut map = npc();
        map.npc = false;
        map.text = "# Map\n\n![map](map-1.svg)\n".into();
        let svgs = BTreeMap::from([(
            "map-1.svg".to_owned(),
            "<svg>\n<line/>\n\n</svg>\n".to_owned(),
        )]);
        let text = item(Flavour::Homebrewery, &map, &svgs);
        assert_eq!(text, "# Map\n\n<svg> <line/> </svg>\n");
    }

    #[test]
    fn frames_name_the_creature_in_an_h2_and_notes_box_once() {
        let text = "## Foes\n\n{{monster,frame\n#### Cultist ×2\n##### Actions\n}}\n#### After\n";
        assert_eq!(
            frame_headings(text),
            "## Foes\n\n{{monster,frame\n## Cultist ×2\n### Actions\n}}\n#### After\n"
        );
        let boxed = boxes("Notes: ____\n");
        assert_eq!(boxed, "{{note\nNotes: ____\n}}\n");
        assert_eq!(boxes(&boxed), boxed, "a boxed line is boxed once");
        let foes = [Monster {
            name: "Cultist ×2".into(),
            what: "Cultist, tier 1".into(),
            lines: vec![("Mettle".into(), "4 each".into())],
        }];
        let block = with_foe_blocks("# E\n\n## Foes\n\n| a |\n\n## Zones\n", &foes);
        assert!(
            block.contains("| a |\n\n{{monster,frame\n## Cultist ×2\n*Cultist, tier 1*\n___\n**Mettle** :: 4 each\n}}\n\n## Zones"),
            "{block}"
        );
    }
}
