//! Entry points for the fuzz targets in `fuzz/` (a crate of its own, which
//! reaches the crate only through `pub` paths): each reads any text the
//! way a command reads that kind of file and checks what must hold of
//! whatever it accepts. Not part of the tool's interface.

use std::collections::BTreeSet;
use std::path::Path;

use crate::input::bundle;
use crate::interop::draft;
use crate::rules::RulesSystem;

/// A session file as `prep` reads one; one accepted must take a reroll
/// in place (its `[rerolls]` edited with the rest kept) and lose it again.
/// The edited file must read again, unless it asks to reroll an NPC the
/// session has none of — then the refusal must point at that reroll.
pub fn session(text: &str) {
    let path = Path::new("fuzz.toml");
    if crate::input::session_from_text(path, text).is_ok() {
        if let Ok(bumped) = bundle::with_rerolls(text, &["npc/1".to_owned()])
            && let Err(e) = crate::input::session_from_text(path, &bumped)
        {
            let message = e.to_string();
            assert!(
                message.contains("[rerolls] `npc/1`: the session asks for no npc items"),
                "a reroll made an accepted session file unreadable:\n{bumped}\n{message}"
            );
        }
        let _ = bundle::without_rerolls(text);
    }
}

/// The GM's own files: any text read as a session file, a party file in
/// both systems and a character sheet; accepted or explained, never a panic.
pub fn gm_files(text: &str) {
    let path = Path::new("fuzz.toml");
    let _ = crate::input::session_from_text(path, text);
    for system in [RulesSystem::Mettle, RulesSystem::Core] {
        let _ = crate::input::party_from_text(path, text, system);
    }
    let _ = crate::input::character_from_text(path, text);
}

/// A map saved by `gen map --json`: refused with a reason that names a line
/// and column, or accepted whole, then measured and drawn for both sides.
pub fn saved_map(text: &str) {
    let map = match crate::input::map_from_text(Path::new("fuzz.json"), text) {
        Ok(map) => map,
        Err(e) => {
            // Every refusal points at a line: `fuzz.json:LINE:COLUMN`.
            let shown = e.to_string();
            assert!(
                shown.contains("fuzz.json:") && !shown.contains("fuzz.json: "),
                "{shown}"
            );
            return;
        }
    };
    assert!(crate::generators::map::check(&map).is_empty());
    let _ = crate::generators::map::road_distances(&map, map.start);
    for players in [false, true] {
        let _ = crate::handouts::drawings::chart::draw(&map, players);
    }
}

/// A party file in both systems.
pub fn party(text: &str) {
    let path = Path::new("party.toml");
    for system in [RulesSystem::Mettle, RulesSystem::Core] {
        let _ = crate::input::party_from_text(path, text, system);
    }
}

/// A bundle as `prep` and `verify` read one; one accepted must be
/// written out and read back the same.
pub fn bundle(text: &str) {
    let path = Path::new("bundle.toml");
    if !bundle::is_bundle(text) {
        return;
    }
    if let Ok(b) = bundle::bundle_from_text(path, text) {
        let again =
            bundle::bundle_from_text(path, &b.to_text()).expect("a bundle written out reads back");
        // `paper` (format 1) is read and never written.
        assert_eq!(again.seed, b.seed);
        assert_eq!(again.session, b.session);
        assert_eq!(again.party, b.party);
        assert_eq!(again.content, b.content);
        assert_eq!(again.templates, b.templates);
        if let Some(s) = &b.session {
            let _ = crate::input::session_from_text(Path::new(&s.name), &s.text);
        }
    }
}

/// An importer: `import` reading a file named `name` (its extension
/// chooses the reader: `.json` Foundry or tablewright JSON, `.csv` and
/// `.tsv` CSV, else a Markdown table). What it reads must become a table
/// file that is TOML; every refusal names the file and a line.
pub fn import(name: &str, text: &str) {
    import_as(name, text, None);
}

/// An Obsidian note as `import --from obsidian` reads one, with the same
/// checks as [`import`].
pub fn import_obsidian(text: &str) {
    import_as("note.md", text, Some(crate::interop::Reader::Obsidian));
}

fn import_as(name: &str, text: &str, from: Option<crate::interop::Reader>) {
    let path = Path::new(name);
    let mut taken = BTreeSet::new();
    match super::interop::read_one(path, text, &mut taken, from) {
        Ok(read) => {
            let toml = draft::to_toml(&read.drafts, name);
            if let Err(e) = toml.parse::<toml::Table>() {
                panic!("an import wrote a table file that is not TOML: {e}\n{toml}");
            }
        }
        Err(problems) => {
            assert!(!problems.is_empty(), "a refusal with no problem");
            for p in problems {
                assert!(p.line >= 1, "a refusal without a line: {p:?}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// The generator-file readers on stable Rust: the project's fixtures,
    /// each with a character taken out or one of the formats' marks put in
    /// at every place, go through [`super::import`] (a refusal must name a
    /// line; what is read must be TOML) — never a panic.
    /// The formats' marks, put in at every place of a text.
    const MARKS: [char; 26] = [
        '[', ']', '{', '}', '|', '@', '!', '#', ':', ';', '%', '_', '<', '>', '-', '\n', '&', '\\',
        '/', ',', '^', '\t', '=', '$', '`', '.',
    ];

    /// `text` with a character taken out or one of [`MARKS`] put in at
    /// every place, each through [`super::import`] as file `ext` (or as an
    /// Obsidian note): how many runs.
    fn mangle(text: &str, ext: &str) -> usize {
        let run = |t: &str| match ext {
            "obsidian" => super::import_obsidian(t),
            _ => super::import(ext, t),
        };
        let mut runs = 0;
        for (at, c) in text.char_indices() {
            run(&format!("{}{}", &text[..at], &text[at + c.len_utf8()..]));
            runs += 1;
            for m in MARKS {
                run(&format!("{}{m}{}", &text[..at], &text[at..]));
                runs += 1;
            }
        }
        runs
    }

    /// The generator-file readers on stable Rust: the project's fixtures,
    /// each with a character taken out or one of the formats' marks put in
    /// at every place, go through [`super::import`] (a refusal must name a
    /// line; what is read must be TOML) — never a panic.
    #[test]
    fn mangled_generator_files_are_refused_or_read_never_a_panic() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/generators/");
        let mut runs = 0;
        for (name, ext) in [
            ("every.ipt", "g.ipt"),
            ("inns.ipt", "g.ipt"),
            // Variables read more than once, and lookups by key.
            ("once.ipt", "g.ipt"),
            ("every.tab", "g.tab"),
            ("town.tab", "g.tab"),
            // HTML tags and character references (TableSmith's page).
            ("text/markup.tab", "g.tab"),
            ("every.perchance", "g.perchance"),
            ("unsupported.perchance", "g.perchance"),
            ("shrine.md", "obsidian"),
        ] {
            let text = std::fs::read_to_string(format!("{dir}{name}")).unwrap();
            runs += mangle(&text, ext);
        }
        assert!(runs > 10_000, "{runs}");
    }

    /// Issue 53's last two constructs, mangled the same way: a Lookup
    /// table from 2 without `Roll:` (an empty row below), and a Perchance
    /// variable set to an item's evaluated words (a row per outcome).
    #[test]
    fn mangled_lookups_from_two_and_evaluated_items_never_panic() {
        let ipt = "Table: M\nSet: d=[#{1d8+1d12} W]\nIt is {$d}.\nTable: W\nType: Lookup\n2-3:bad\n4:[|bad|good]\n5-20:good\n";
        let perchance = "fruit\n  {10-12} {red|green} apples ^2\n  a pear\n    size = big\noutput\n  [f = fruit.selectOne.evaluateItem]?! [f] is [f]!\n";
        let runs = mangle(ipt, "g.ipt") + mangle(perchance, "g.perchance");
        assert!(runs > 5_000, "{runs}");
    }

    /// The fuzzer's first find (fuzz/artifacts, 2026-11-26): a session
    /// with no NPCs, rerolled at `npc/1`, is refused at the reroll — a
    /// refusal, not a file the edit broke.
    #[test]
    fn a_reroll_of_an_npc_the_session_lacks_is_refused_at_the_reroll() {
        let text = "title = \"T\"\nseed = \"s\"\nsystem = \"mettle\"\n\
                    terrain = \"swamp\"\nparty = \"3,4,4,5\"\nencounters = 2\n";
        let path = std::path::Path::new("s.toml");
        assert!(crate::input::session_from_text(path, text).is_ok());
        super::session(text);
        let with_npc = format!("{text}npcs = 2\n");
        super::session(&with_npc);
        let bumped = crate::input::bundle::with_rerolls(&with_npc, &["npc/1".to_owned()])
            .expect("a reroll edits the file");
        let session =
            crate::input::session_from_text(path, &bumped).expect("the edited file reads");
        assert_eq!(session.rerolls.get("npc/1"), Some(&1));
    }
}
