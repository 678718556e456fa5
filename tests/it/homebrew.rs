//! The GM's own content: a campaign with a region of its own and an
//! archetype added to the built-in ones (encounters in both systems, a map
//! and a journey across the region, a pack), `tables` showing where things
//! came from, `init`, one invalid fixture per problem class `validate`
//! proves generation against, and the property: every fixture folder that
//! validates generates.

use std::path::{Path, PathBuf};

use tablewright::content::Library;
use tablewright::generators::{
    encounter, forage, injury, journey, map, mutation, npc, nth, session, trap, voucher,
};
use tablewright::handouts::markdown::Templates;
use tablewright::handouts::{self, FORMAT, ShareLine};
use tablewright::handouts::{Fonts, Paper};
use tablewright::seed::Seed;
use tablewright::{Party, RulesSystem};

use crate::common::{
    Test, fails, fixture, ok, ok_json, run, run_in, sample_session, stderr, stdout, temp_dir,
};

fn campaign() -> String {
    fixture("campaign/content")
}

#[test]
fn a_new_region_makes_encounters_in_both_systems_in_any_case() {
    let content = campaign();
    for system in ["mettle", "core"] {
        let json = ok_json(&[
            "gen",
            "encounter",
            "--terrain",
            "SaltFlats",
            "--system",
            system,
            "--content",
            &content,
            "--seed",
            "salt",
            "--count",
            "6",
            "--json",
        ]);
        let items = json["items"].as_array().expect("items");
        assert_eq!(items.len(), 6);
        for e in items {
            assert_eq!(e["terrain"], "saltflats", "{e}");
            assert_eq!(e["situation"]["table"], "gen.encounter.saltflats");
        }
    }
    // Six seeds bring the region's own archetype, from the extension.
    let out = ok(&[
        "gen",
        "encounter",
        "--terrain",
        "saltflats",
        "--content",
        &content,
        "--seed",
        "wight",
        "--count",
        "12",
    ]);
    assert!(
        out.to_lowercase().contains("salt-wight") || out.contains("Salt wight"),
        "{out}"
    );
}

#[test]
fn a_map_and_a_journey_cross_the_new_region() {
    let content = campaign();
    let dir = temp_dir("homebrew-map");
    let map = ok(&[
        "gen",
        "map",
        "--terrain",
        "saltflats,road",
        "--stops",
        "8",
        "--content",
        &content,
        "--seed",
        "salt",
        "--json",
    ]);
    let parsed: serde_json::Value = serde_json::from_str(&map).unwrap();
    let stops = parsed["items"][0]["stops"].as_array().unwrap();
    let salt: Vec<&serde_json::Value> = stops
        .iter()
        .filter(|s| s["terrain"] == "saltflats")
        .collect();
    assert!(!salt.is_empty(), "{map}");
    // Stops in the salt flats come from the region's own places.
    for s in &salt {
        let name = s["name"].as_str().unwrap();
        assert!(
            ["Brinewell", "The White Kiln", "Glass Pan", "Cutters' Rest"]
                .iter()
                .any(|n| name.starts_with(n))
                || s["kind"] != "",
            "{s}"
        );
    }
    let map_file = dir.join("map.json");
    std::fs::write(
        &map_file,
        serde_json::to_string(&parsed["items"][0]).unwrap(),
    )
    .unwrap();
    let map_file = map_file.display().to_string();
    for (system, party) in [("mettle", "3,4,4,5"), ("core", "10,11,12,13")] {
        let j = ok_json(&[
            "gen",
            "journey",
            "--map",
            &map_file,
            "--system",
            system,
            "--party",
            party,
            "--content",
            &content,
            "--seed",
            "salt",
            "--json",
        ]);
        let legs = j["items"][0]["legs"].as_array().unwrap();
        assert!(!legs.is_empty(), "{j}");
        if system == "core" {
            // A leg in the salt flats uses the region's own chance.
            for leg in legs.iter().filter(|l| l["terrain"] == "saltflats") {
                assert_eq!(leg["encounter_chance"], "1:6", "{leg}");
            }
        }
    }
}

#[test]
fn the_campaign_folder_preps_a_pack_from_its_session_file() {
    let dir = temp_dir("homebrew-campaign");
    let session = fixture("campaign/session.toml");
    let out = run_in(
        &dir,
        &[
            "prep",
            &session,
            "--out",
            &dir.join("out").display().to_string(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let pack = std::fs::read_to_string(crate::common::only_entry(&dir.join("out")).join("pack.md"))
        .unwrap();
    assert!(pack.contains("saltflats"), "{pack}");
}

#[test]
fn tables_show_origins_extensions_and_terrains() {
    let content = campaign();
    let out = ok(&["tables", "--content", &content]);
    let npc = out
        .lines()
        .skip_while(|l| !l.starts_with("gen.npc.core "))
        .nth(1)
        .unwrap();
    assert!(
        npc.contains("extended by")
            && npc.contains("archetypes.toml")
            && npc.contains("+1 row (salt-wight)"),
        "{out}"
    );
    let terrains = ok(&["tables", "--terrains", "--content", &content]);
    let salt = terrains
        .lines()
        .find(|l| l.starts_with("saltflats "))
        .unwrap();
    assert!(
        salt.contains("1:6") && salt.contains("saltflats.toml"),
        "{terrains}"
    );
    assert!(
        terrains
            .lines()
            .any(|l| l.starts_with("road ") && l.contains("built in"))
    );
    // --json: every table whole, rows with their tags and where they came from.
    let json = ok_json(&["tables", "--json", "--content", &content]);
    assert_eq!(json["format"], "tablewright.tables/1");
    let tables = json["tables"].as_array().unwrap();
    let core = tables.iter().find(|t| t["id"] == "gen.npc.core").unwrap();
    let wight = core["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "salt-wight")
        .unwrap();
    assert!(wight["from"].as_str().unwrap().ends_with("archetypes.toml"));
    assert_eq!(wight["tags"][1], "tier:2");
    assert!(core["notes"].is_string());
    assert_eq!(core["extended_by"][0]["added"][0], "salt-wight");
    let salt = tables
        .iter()
        .find(|t| t["id"] == "gen.encounter.saltflats")
        .unwrap();
    assert_eq!(salt["region"]["danger"], 2);
}

#[test]
fn init_makes_a_folder_that_validates_and_preps() {
    let dir = temp_dir("homebrew-init");
    let made = run_in(&dir, &["init", "camp"]);
    assert!(made.status.success(), "{}", stderr(&made));
    let camp = dir.join("camp");
    for f in [
        "campaign.toml",
        "party.toml",
        "content/saltflats.toml",
        "content/archetypes.toml",
        "templates/README.md",
        "sessions/1/plan.toml",
    ] {
        assert!(camp.join(f).is_file(), "{f}");
    }
    let v = run_in(&camp, &["validate"]);
    assert!(v.status.success(), "{}", stderr(&v));
    assert!(stdout(&v).starts_with("ok: "), "{}", stdout(&v));
    let p = run_in(&camp, &["prep"]);
    assert!(p.status.success(), "{}", stderr(&p));
    assert!(camp.join("out/session-1/pack.pdf").is_file());
    // A second init refuses to overwrite, and writes nothing.
    let again = run_in(&dir, &["init", "camp"]);
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("campaign.toml"),
        "{}",
        stderr(&again)
    );
}

/// Inside a fresh campaign folder, from any folder below it, every command
/// reads the campaign's own tables: its region is a terrain, its table
/// rolls, its archetype is drawn; a table that is not there names the
/// folders read.
#[test]
fn every_command_inside_a_campaign_uses_its_content() {
    let dir = temp_dir("homebrew-inside");
    let made = run_in(&dir, &["init", "camp"]);
    assert!(made.status.success(), "{}", stderr(&made));
    let deep = dir.join("camp/sessions/1");
    let t = run_in(&deep, &["tables", "--terrains"]);
    assert!(stdout(&t).contains("saltflats"), "{}", stdout(&t));
    let roll = run_in(&deep, &["table", "gen.encounter.saltflats", "--seed", "s"]);
    assert!(roll.status.success(), "{}", stderr(&roll));
    let npc = run_in(
        &deep,
        &["gen", "npc", "--archetype", "salt-wight", "--seed", "s"],
    );
    assert!(npc.status.success(), "{}", stderr(&npc));
    assert!(stdout(&npc).contains("Salt wight"), "{}", stdout(&npc));
    let missing = run_in(&deep, &["table", "gen.encounter.saltflat", "--seed", "s"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing).contains("(tables read: the built-in tables, ../../content/)"),
        "{}",
        stderr(&missing)
    );
    let archetype = run_in(
        &deep,
        &["gen", "npc", "--archetype", "salt-wite", "--seed", "s"],
    );
    assert!(
        stderr(&archetype).contains("no archetype `salt-wite`")
            && stderr(&archetype).contains("(tables read: the built-in tables, ../../content/)"),
        "{}",
        stderr(&archetype)
    );
    // Outside the campaign, its tables are not read.
    let outside = run_in(&dir, &["table", "gen.encounter.saltflats", "--seed", "s"]);
    assert_eq!(outside.status.code(), Some(1), "{}", stdout(&outside));
    assert!(stderr(&outside).contains("(tables read: the built-in tables)"));
}

/// A region with no places of its own validates with a warning, rolls and
/// preps; only a map's stops there fall back to the untagged places.
#[test]
fn a_region_without_places_warns_and_works() {
    let folder = fixture("region_places");
    let v = run(&["validate", "--content", &folder]);
    assert!(v.status.success(), "{}", stderr(&v));
    let out = stdout(&v);
    assert!(
        out.contains("warning: ")
            && out.contains("tables.toml:3:1: [gen.encounter.saltflats] region `saltflats` has no places of its own")
            && out.contains("drawn from the untagged places"),
        "{out}"
    );
    assert!(out.contains("ok: "), "{out}");
    let roll = run(&[
        "table",
        "gen.encounter.saltflats",
        "--content",
        &folder,
        "--seed",
        "s",
    ]);
    assert!(roll.status.success(), "{}", stderr(&roll));
    let map = ok_json(&[
        "gen",
        "map",
        "--stops",
        "5",
        "--terrain",
        "saltflats",
        "--terrain",
        "road",
        "--seed",
        "s",
        "--content",
        &folder,
        "--json",
    ]);
    // `gen --json` prints `{seed, kind, items: [...]}`.
    let map = &map["items"][0];
    let stops = map["stops"].as_array().unwrap().clone();
    let salt: Vec<&serde_json::Value> = stops
        .iter()
        .filter(|s| s["terrain"] == "saltflats")
        .collect();
    assert!(!salt.is_empty(), "{stops:?}");
    // Places drawn for a region without its own: named and with a hook.
    for s in salt {
        assert!(s["name"].as_str().is_some_and(|n| !n.is_empty()), "{s}");
        assert!(s["hook"].as_str().is_some_and(|h| !h.is_empty()), "{s}");
    }
}

/// Problems `validate` reports for an invalid fixture folder.
fn problems(name: &str) -> String {
    let dir = fixture(&format!("invalid/{name}"));
    fails(&["validate", "--content", &dir]).replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), "")
}

/// `validate` proves what generation follows: the invalid fixture `name`
/// is refused with `expected` and a hint.
fn assert_proved(name: &str, expected: &str) {
    let got = problems(name);
    assert!(
        got.contains(expected),
        "{name}:\n{got}\n--- expected:\n{expected}"
    );
    assert!(got.contains("hint:"), "{name}: {got}");
}

/// One `#[test]` per fixture: `test: "fixture" => "message"`.
macro_rules! proved {
    ($($test:ident: $name:literal => $expected:expr,)*) => {
        $(
            #[test]
            fn $test() {
                assert_proved($name, $expected);
            }
        )*
    };
}

proved! {
    validate_proves_foe_tag: "foe_tag" => "tests/fixtures/invalid/foe_tag/tables.toml:5:1: [gen.encounter.road] row `Grey shadows` is tagged `foe:salt-wihgt`, but `gen.npc.mettle` has no archetype `salt-wihgt`",
    validate_proves_one_system: "one_system" => "tests/fixtures/invalid/one_system/tables.toml:5:1: [gen.npc.core] archetype `salt-wight` is in `gen.npc.core` but not in `gen.npc.mettle`",
    validate_proves_bomb: "bomb" => "tests/fixtures/invalid/bomb/tables.toml:3:1: [fx.b01] one roll on this table makes 1.5e8 table rolls on average and up to 1.5e8 at worst",
    validate_proves_deep: "deep" => "tests/fixtures/invalid/deep/tables.toml:3:1: [fx.d01] a roll on this table follows 13 references deep (fx.d01 → fx.d02 →",
}

#[test]
fn a_typod_foe_tag_gets_a_did_you_mean() {
    assert!(
        problems("foe_tag").contains("did you mean `salt-wight`?")
            || problems("foe_tag").contains("hint: ")
    );
}

/// Every folder under tests/fixtures (at any depth) holding `.toml` files.
fn fixture_folders() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        if entries
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "toml"))
        {
            out.push(dir.to_owned());
        }
        for p in entries.iter().filter(|p| p.is_dir()) {
            walk(p, out);
        }
    }
    let mut out = Vec::new();
    walk(Path::new(&fixture("")), &mut out);
    out
}

/// Every fixture folder that validates, with its library; the campaign's
/// content and the override folder among them.
fn valid_folders() -> Vec<(PathBuf, Library)> {
    let mut valid = Vec::new();
    for dir in fixture_folders() {
        let (library, problems) = Library::load(std::slice::from_ref(&dir));
        if problems.is_empty() {
            valid.push((dir, library));
        }
    }
    let names: Vec<String> = valid.iter().map(|(d, _)| d.display().to_string()).collect();
    assert!(
        names.iter().any(|n| n.ends_with("campaign/content")),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n.ends_with("override")), "{names:?}");
    valid
}

/// The property `validate` promises: for every fixture folder that
/// validates, 1,000 seeds of every generator succeed (this test), and
/// 1,000 seeds of a whole pack (alternating the two systems), rendered as
/// `prep` renders it (the next). Two tests, so that they run side by side.
#[test]
fn every_fixture_folder_that_validates_generates_for_a_thousand_seeds() {
    for (dir, library) in &valid_folders() {
        generate_everything(dir, library);
    }
}

#[test]
fn every_fixture_folder_that_validates_makes_a_thousand_packs() {
    for (dir, library) in &valid_folders() {
        make_packs(dir, library);
    }
}

/// The library's region names.
fn regions(library: &Library) -> Vec<String> {
    library
        .region_names()
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// The built-in parties of the property tests: a METTLE one and a Core one.
fn parties() -> [(RulesSystem, Party); 2] {
    [
        (
            RulesSystem::Mettle,
            Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap(),
        ),
        (
            RulesSystem::Core,
            Party::from_summary("10,11,12,13", RulesSystem::Core).unwrap(),
        ),
    ]
}

fn generate_everything(dir: &Path, library: &Library) {
    let regions = regions(library);
    let parties = parties();
    let fail = |what: &str, i: usize, e: &dyn std::fmt::Display| -> ! {
        panic!("{}: {what} #{i} failed: {e}", dir.display())
    };
    for i in 0..1000 {
        let seed = Seed::new(&format!("property-{i}")).unwrap();
        let (system, party) = &parties[i % 2];
        let region = &regions[(i / 2) % regions.len()];
        let e = encounter::Request {
            terrain: region.clone(),
            system: *system,
            party: party.clone(),
            pin: Default::default(),
            shun: Vec::new(),
            taken: Vec::new(),
            heard: Vec::new(),
            season: Default::default(),
        };
        nth(library, &e, &seed, i).unwrap_or_else(|e| fail("encounter", i, &e));
        let n = npc::Request {
            system: *system,
            archetype: None,
            tier: None,
            terrain: Some(region.clone()),
            people_only: i % 3 == 0,
            fits: Vec::new(),
            met: Vec::new(),
            shun: Vec::new(),
            taken: Vec::new(),
            heard: Vec::new(),
        };
        nth(library, &n, &seed, i).unwrap_or_else(|e| fail("npc", i, &e));
        let t = trap::Request::for_party(*system, party);
        nth(library, &t, &seed, i).unwrap_or_else(|e| fail("trap", i, &e));
        let f = forage::Request {
            terrain: region.clone(),
            ..forage::Request::default()
        };
        nth(library, &f, &seed, i).unwrap_or_else(|e| fail("forage", i, &e));
        nth(
            library,
            &injury::Request {
                character: None,
                permanent: i % 2 == 0,
                name: None,
            },
            &seed,
            i,
        )
        .unwrap_or_else(|e| fail("injury", i, &e));
        nth(library, &mutation::Request { character: None }, &seed, i)
            .unwrap_or_else(|e| fail("mutation", i, &e));
        nth(
            library,
            &voucher::Request {
                holders: vec!["A".into()],
            },
            &seed,
            0,
        )
        .unwrap_or_else(|e| fail("voucher", i, &e));
        let m = map::Request {
            stops: 6,
            terrains: vec![region.clone(), regions[(i / 2 + 1) % regions.len()].clone()],
        };
        let made = nth(library, &m, &seed, 0).unwrap_or_else(|e| fail("map", i, &e));
        let j = journey::Request {
            first_season: Default::default(),
            from: made.start,
            to: made.goal,
            map: made,
            party: party.clone(),
            system: *system,
            route: journey::Route::Safest,
            rations: 3,
            water: 3,
            capacity: 3,
            kits: vec![],
            twist: true,
            used: vec![],
            remembered: Vec::new(),
            shun: Vec::new(),
            taken: Vec::new(),
            heard: Vec::new(),
            pool: None,
            first_day: 1,
            fasting: Vec::new(),
            visits: Default::default(),
            helped: Vec::new(),
            hearsay: Default::default(),
        };
        nth(library, &j, &seed, 0).unwrap_or_else(|e| fail("journey", i, &e));
    }
}

/// 1,000 packs made from `library` and rendered as `prep` renders them.
fn make_packs(dir: &Path, library: &Library) {
    let regions = regions(library);
    let parties = parties();
    let fail = |what: &str, i: usize, e: &dyn std::fmt::Display| -> ! {
        panic!("{}: {what} #{i} failed: {e}", dir.display())
    };
    let templates = Templates::load(None).expect("the built-in templates load");
    let fonts = Fonts::load();
    for i in 0..1000 {
        let seed = Seed::new(&format!("property-pack-{i}")).unwrap();
        let (system, party) = &parties[i % 2];
        let req = session::Request {
            first_season: Default::default(),
            title: "Property".into(),
            system: *system,
            terrain: regions[i % regions.len()].clone(),
            encounters: 2,
            traps: 1,
            npcs: 2,
            injuries: usize::from(*system == RulesSystem::Core),
            mutations: usize::from(*system == RulesSystem::Core),
            vouchers: if *system == RulesSystem::Mettle {
                vec!["A".into()]
            } else {
                vec![]
            },
            map: Some(session::MapPlan {
                stops: 6,
                terrains: vec![],
                journey: true,
                route: journey::Route::Safest,
                rations: 3,
                water: 3,
                kits: vec![],
                fixed: None,
            }),
            rerolls: Default::default(),
            entries: Default::default(),
        };
        let made =
            session::generate(library, &req, party, &seed).unwrap_or_else(|e| fail("pack", i, &e));
        render_pack(&made, i, &templates, &fonts).unwrap_or_else(|e| fail("pack rendering", i, &e));
    }
}

/// What `prep` does after generating: every Markdown and SVG handout with
/// the built-in templates, and (for every 20th pack, the PDF being the
/// slow part in a test build) the PDF; the PDF must be one. The built-in
/// templates and the fonts are loaded once for all the packs, as `prep`
/// loads them once for its pack.
fn render_pack(
    made: &session::Pack,
    i: usize,
    templates: &Templates,
    fonts: &Fonts,
) -> Result<(), String> {
    let share = ShareLine {
        seed: format!("property-pack-{i}"),
        options: String::new(),
        version: "test".into(),
        format: FORMAT,
        content: "0000".into(),
        bundle: "0000".into(),
    };
    let files = handouts::pack_files(made, templates, &share).map_err(|e| e.to_string())?;
    if !files
        .iter()
        .any(|(name, bytes)| name == "pack.md" && !bytes.is_empty())
    {
        return Err("no pack.md".into());
    }
    if i.is_multiple_of(20) {
        let pdf = handouts::pack_pdf(
            made,
            &share,
            Paper::A4,
            false,
            fonts,
            &handouts::markdown::Wording::builtin(),
        );
        if !pdf.starts_with(b"%PDF-") {
            return Err("the PDF does not start with %PDF-".into());
        }
    }
    Ok(())
}

#[test]
fn each_command_lists_only_the_global_flags_it_uses() {
    let gen_help = ok(&["gen", "npc", "--help"]);
    for unused in ["--templates", "--paper", "--ink-saver", "--force", "--out"] {
        assert!(
            !gen_help.contains(unused),
            "{unused} in gen help:\n{gen_help}"
        );
    }
    for used in ["--seed", "--json", "--content", "--count"] {
        assert!(gen_help.contains(used), "{used} missing:\n{gen_help}");
    }
    let prep_help = ok(&["prep", "--help"]);
    for used in ["--templates", "--paper", "--ink-saver", "--force", "--out"] {
        assert!(prep_help.contains(used), "{used} missing:\n{prep_help}");
    }
    // Global flags are still accepted before or after the subcommand.
    let before = ok(&["--seed", "x", "gen", "npc"]);
    let after = ok(&["gen", "npc", "--seed", "x"]);
    assert_eq!(before, after);
}

#[test]
fn messages_name_what_was_meant() {
    // A shell-split expression: quote it.
    let err = fails(&["roll", "--seed", "s", "2d6", "+", "1"]);
    assert!(
        err.contains("quote it whole: tablewright roll \"2d6 + 1\""),
        "{err}"
    );
    // A Core party without --system core.
    let err = fails(&[
        "gen",
        "encounter",
        "--party",
        &fixture("party-core.toml"),
        "--seed",
        "s",
    ]);
    assert!(err.contains("add --system core"), "{err}");
    // One `expr` key in check --json.
    let out = ok(&["check", "5", "--vs", "3", "--json", "--seed", "s"]);
    assert_eq!(out.matches("\"expr\"").count(), 1, "{out}");
    // A terrain in any case; a near miss is named.
    let err = fails(&["gen", "encounter", "--terrain", "hils", "--seed", "s"]);
    assert!(err.contains("did you mean `hills`?"), "{err}");
    ok(&["gen", "forage", "--terrain", "Hills", "--seed", "s"]);
    // A template file named like no template is refused, naming them.
    let dir = temp_dir("homebrew-templates");
    std::fs::write(dir.join("npcs.md.tera"), "{{ n.name }}").unwrap();
    let err = fails(&["validate", "--templates", &dir.display().to_string()]);
    assert!(
        err.contains("`npcs.md.tera` replaces no built-in template"),
        "{err}"
    );
    assert!(err.contains("did you mean `npc.md.tera`?"), "{err}");
    std::fs::remove_file(dir.join("npcs.md.tera")).unwrap();
    // A template that names a field no pack has fails validate.
    std::fs::write(dir.join("trap.md.tera"), "{{ t.nonsense.deeper }}").unwrap();
    let err = fails(&["validate", "--templates", &dir.display().to_string()]);
    assert!(err.contains("trap.md"), "{err}");
}

/// `templates` lists the built-ins; `templates --to DIR` writes them out;
/// a copy left as it is changes nothing, an edited one changes the pack.
#[test]
fn templates_written_out_override_only_once_edited() {
    let t = Test::new();
    let listed = t.run_with(&["templates"]).succeeds().stdout();
    for name in ["pack.md.tera", "npc.md.tera", "wording.toml.tera"] {
        assert!(listed.lines().any(|l| l == name), "{listed}");
    }
    t.run_with(&["templates", "--to", "tpl"]).succeeds();
    let copy = t.read("tpl/npc.md.tera");
    let builtin = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/npc.md.tera"),
    )
    .unwrap();
    assert_eq!(copy, builtin, "the copy is the built-in template");
    // Again: the same bytes are no conflict.
    t.run_with(&["templates", "--to", "tpl"]).succeeds();
    let session = sample_session();
    let base = ["--seed", "tpl-test", "--out"];
    let plain = t
        .run_with(&[&["prep", session.as_str()][..], &base, &["plain"]].concat())
        .succeeds();
    drop(plain);
    t.run_with(
        &[
            &["prep", session.as_str()][..],
            &base,
            &["copied", "--templates", "tpl"],
        ]
        .concat(),
    )
    .succeeds();
    let bundle = |out: &str| {
        let dir = std::fs::read_dir(t.path().join(out))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        std::fs::read_to_string(dir.join("bundle.toml")).unwrap()
    };
    assert_eq!(
        bundle("plain"),
        bundle("copied"),
        "an untouched copy is no override"
    );
    // Edited, it is one; rewriting the built-ins over it needs --force.
    std::fs::write(
        t.path().join("tpl/npc.md.tera"),
        format!("{copy}\nEDITED\n"),
    )
    .unwrap();
    t.run_with(&["templates", "--to", "tpl"])
        .fails(1)
        .stderr_has("--force");
    t.run_with(
        &[
            &["prep", session.as_str()][..],
            &base,
            &["edited", "--templates", "tpl"],
        ]
        .concat(),
    )
    .succeeds();
    assert_ne!(
        bundle("plain"),
        bundle("edited"),
        "an edited copy is an override"
    );
}

/// A bare `templates/` folder where a command runs is not read: template
/// folders are named (`--templates`, a session's `templates` key).
#[test]
fn a_bare_templates_folder_is_not_read() {
    let t = Test::new().file("templates/npc.md.tera", "{{ nonsense(\n");
    let session = sample_session();
    t.run_with(&[
        "prep",
        session.as_str(),
        "--seed",
        "bare",
        "--only",
        "npc/1",
    ])
    .succeeds();
}
