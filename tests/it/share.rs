//! Reproducing, rerolling and sharing single items (issue 16), through the
//! CLI: `--only` writes an item's files as the whole pack has them;
//! `--reroll` changes only the rerolled item's files (and the pack-wide
//! ones), records itself in the session file and is reproduced by a plain
//! `prep`; a bundle rebuilds the pack in an empty folder; `verify` passes
//! on a fresh pack and names a file changed by one byte; `gen --item`
//! gives the pack's item; and the packs of 20 seeds are pinned.

use std::collections::BTreeMap;
use std::hash::Hasher;
use std::path::Path;

use crate::common::{
    assert_golden, fixture, ok, ok_json, only_entry, run_in, stderr, stdout, temp_dir,
};

/// Every file of a pack folder: name → bytes (not the hidden manifest,
/// which is publication's bookkeeping).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// A folder holding the sample session (its party beside it) to edit.
fn project(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let session = std::fs::read_to_string(crate::common::sample_session())
        .unwrap()
        .replace("tests/fixtures/party-mettle.toml", "party.toml");
    std::fs::write(dir.join("session.toml"), session).unwrap();
    std::fs::copy(fixture("party-mettle.toml"), dir.join("party.toml")).unwrap();
    dir
}

fn prep_in(dir: &Path, extra: &[&str]) -> String {
    let mut a = vec!["prep", "session.toml", "--out", "out"];
    a.extend_from_slice(extra);
    let o = run_in(dir, &a);
    assert!(o.status.success(), "{a:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn only_writes_an_items_files_as_the_pack_has_them() {
    let base = temp_dir("share-only");
    let (all, one) = (base.join("all"), base.join("one"));
    ok(&[
        "prep",
        &crate::common::sample_session(),
        "--out",
        all.to_str().unwrap(),
    ]);
    let printed = ok(&[
        "prep",
        &crate::common::sample_session(),
        "--out",
        one.to_str().unwrap(),
        "--only",
        "encounter/2",
        "--only",
        "npc/3",
    ]);
    assert!(printed.contains("wrote 5 files"), "{printed}");
    let whole = files(&only_entry(&all));
    let only = files(&only_entry(&one));
    let names: Vec<&str> = only.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "encounter-2-zones.svg",
            "encounter-2.md",
            "encounter-2.pdf",
            "npc-3.md",
            "npc-3.pdf"
        ]
    );
    for (name, bytes) in &only {
        if name.ends_with(".pdf") {
            // A one-item PDF of its own, not part of the whole pack.
            assert!(
                bytes.starts_with(b"%PDF") && !whole.contains_key(name),
                "{name}"
            );
            continue;
        }
        assert_eq!(Some(bytes), whole.get(name), "{name}");
    }
    // The address is on the item's file and in the pack's JSON.
    let md = String::from_utf8(only["encounter-2.md"].clone()).unwrap();
    assert!(md.contains("Seed `goblin-night` · encounter/2 ·"), "{md}");
    let json: serde_json::Value = serde_json::from_slice(&whole["pack.json"]).unwrap();
    assert_eq!(json["pack"]["encounters"][1]["address"], "encounter/2");
    assert_eq!(json["pack"]["npcs"][2]["address"], "npc/3");
    assert_eq!(json["pack"]["map"]["address"], "map/1");
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_reroll_changes_only_its_item_records_itself_and_is_reproduced() {
    let dir = project("share-reroll");
    prep_in(&dir, &[]);
    let pack = only_entry(&dir.join("out"));
    let before = files(&pack);
    let printed = prep_in(&dir, &["--reroll", "encounter/1"]);
    assert!(
        printed.contains("rerolled encounter/1 (reroll 1"),
        "{printed}"
    );
    let after = files(&pack);
    let changed: Vec<&str> = after
        .iter()
        .filter(|(n, b)| before.get(*n) != Some(b))
        .map(|(n, _)| n.as_str())
        .collect();
    assert!(changed.contains(&"encounter-1.md"), "{changed:?}");
    // Items other than encounter/1 change only if the reroll made them
    // repeat (or stop repeating), and then prep names them.
    for name in &changed {
        let pack_wide = name.starts_with("pack.") || *name == "bundle.toml";
        let item = name.split('.').next().unwrap();
        let knock_on = item.split('-').take(2).collect::<Vec<_>>().join("/");
        assert!(
            pack_wide
                || name.starts_with("encounter-1")
                || printed.contains(&format!("{knock_on} changed too")),
            "{name} changed: {printed}"
        );
    }
    // Recorded in the session file, comments kept.
    let session = std::fs::read_to_string(dir.join("session.toml")).unwrap();
    assert!(
        session.contains("[rerolls]\n\"encounter/1\" = 1\n"),
        "{session}"
    );
    assert!(
        session.starts_with("# A sample METTLE session"),
        "{session}"
    );
    // A plain prep of the edited session gives the rerolled pack.
    let o = run_in(&dir, &["prep", "session.toml", "--out", "again"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&only_entry(&dir.join("again"))), after);
    // Twice: the count goes up, and the item changes again.
    prep_in(&dir, &["--reroll", "encounter/1"]);
    let session = std::fs::read_to_string(dir.join("session.toml")).unwrap();
    assert!(session.contains("\"encounter/1\" = 2"), "{session}");
    assert_ne!(files(&pack)["encounter-1.md"], after["encounter-1.md"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bundle_rebuilds_the_pack_in_an_empty_folder() {
    let dir = project("share-bundle");
    prep_in(&dir, &[]);
    let pack = files(&only_entry(&dir.join("out")));
    let o = run_in(&dir, &["share", "session.toml"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bundle = stdout(&o);
    assert_eq!(bundle.as_bytes(), &pack["bundle.toml"][..]);
    assert!(bundle.contains("[party]") && bundle.contains("name = \"party.toml\""));
    let empty = temp_dir("share-bundle-empty");
    std::fs::write(empty.join("bundle.toml"), &bundle).unwrap();
    let o = run_in(&empty, &["prep", "bundle.toml", "--out", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&only_entry(&empty.join("out"))), pack);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
}

/// A bundle carries the GM's own tables and templates: a pack made with
/// `--content` and `--templates` is rebuilt from the bundle alone.
#[test]
fn a_bundle_carries_the_gms_tables_and_templates() {
    let dir = temp_dir("share-bundle-own");
    let session =
        std::fs::read_to_string(format!("{}/session-core.toml", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .replace("tests/fixtures/party-core.toml", "party.toml");
    std::fs::write(dir.join("session.toml"), session).unwrap();
    std::fs::copy(fixture("party-core.toml"), dir.join("party.toml")).unwrap();
    std::fs::create_dir_all(dir.join("house")).unwrap();
    std::fs::copy(
        fixture("override/injury.toml"),
        dir.join("house/injury.toml"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("tpl")).unwrap();
    std::fs::write(
        dir.join("tpl/trap.md.tera"),
        "# Our trap: {{ t.name | md }}\n\n{{ t.effect }}\n\n{{ share }}\n",
    )
    .unwrap();
    let own = ["--content", "house", "--templates", "tpl"];
    prep_in(&dir, &own);
    let pack = files(&only_entry(&dir.join("out")));
    let injury = String::from_utf8(pack["injury-1.md"].clone()).unwrap();
    assert!(
        injury.contains("Bruised") || injury.contains("Winded"),
        "{injury}"
    );
    assert!(String::from_utf8_lossy(&pack["trap-1.md"]).starts_with("# Our trap: "));
    let mut args = vec!["share", "session.toml"];
    args.extend(own);
    let o = run_in(&dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let bundle = stdout(&o);
    assert!(bundle.contains("name = \"injury.toml\"") && bundle.contains("name = \"trap.md\""));
    let empty = temp_dir("share-bundle-own-empty");
    std::fs::write(empty.join("bundle.toml"), &bundle).unwrap();
    let o = run_in(&empty, &["prep", "bundle.toml", "--out", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&only_entry(&empty.join("out"))), pack);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
}

#[test]
fn verify_passes_a_fresh_pack_and_names_a_one_byte_change() {
    let out = temp_dir("share-verify");
    ok(&[
        "prep",
        &crate::common::sample_session(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let pack = only_entry(&out);
    let p = pack.to_str().unwrap();
    let said = ok(&["verify", p]);
    assert!(said.starts_with("ok: all 21 files"), "{said}");
    // A one-item PDF from `--only` is checked too.
    let session = crate::common::sample_session();
    let o = out.to_str().unwrap();
    ok(&["prep", &session, "--out", o, "--only", "trap/1", "--force"]);
    let said = ok(&["verify", p]);
    assert!(said.starts_with("ok: all 22 files"), "{said}");
    let mut pdf = std::fs::read(pack.join("trap-1.pdf")).unwrap();
    let last = pdf.len() - 10;
    pdf[last] ^= 1;
    std::fs::write(pack.join("trap-1.pdf"), &pdf).unwrap();
    let err = crate::common::fails(&["verify", p]);
    assert!(err.contains("trap-1.pdf differs"), "{err}");
    std::fs::remove_file(pack.join("trap-1.pdf")).unwrap();
    let file = pack.join("encounter-1.md");
    let mut bytes = std::fs::read(&file).unwrap();
    let i = bytes.iter().position(|b| *b == b'.').unwrap();
    bytes[i] = b',';
    std::fs::write(&file, &bytes).unwrap();
    let err = crate::common::fails(&["verify", p]);
    assert!(
        err.contains("1 file(s) in") && err.contains("encounter-1.md differs"),
        "{err}"
    );
    std::fs::remove_file(pack.join("npc-2.md")).unwrap();
    let err = crate::common::fails(&["verify", p]);
    assert!(err.contains("npc-2.md is missing"), "{err}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// A reroll that makes a later item draw again (or no longer), changes it
/// and names it; every other item's files stay as they were. Seeds are
/// tried until one shows a knock-on (NPCs redraw often: 12 from 19 kinds).
#[test]
fn a_reroll_names_the_later_items_it_changes() {
    let dir = temp_dir("share-knock-on");
    let mut found = 0;
    for i in 0..40 {
        let session =
            format!("seed = \"knock-{i}\"\nterrain = \"town\"\nparty = \"3,4,4,5\"\nnpcs = 12\n");
        std::fs::write(dir.join("session.toml"), session).unwrap();
        let _ = std::fs::remove_dir_all(dir.join("out"));
        prep_in(&dir, &[]);
        let pack = only_entry(&dir.join("out"));
        let before = files(&pack);
        let o = run_in(
            &dir,
            &[
                "--json",
                "prep",
                "session.toml",
                "--out",
                "out",
                "--reroll",
                "npc/1",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(report["rerolled"]["npc/1"], 1);
        let named: Vec<String> = report["changed_too"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().replace('/', "-") + ".md")
            .collect();
        let after = files(&pack);
        for (name, bytes) in &after {
            let changed = before.get(name) != Some(bytes);
            let expected = name == "npc-1.md"
                || name.starts_with("pack.")
                || name == "bundle.toml"
                || named.contains(name);
            assert_eq!(changed, expected, "knock-{i}: {name} (named: {named:?})");
        }
        found += usize::from(!named.is_empty());
        if found >= 1 {
            break;
        }
    }
    assert!(
        found > 0,
        "no seed showed a knock-on: the test tests nothing"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gen <kind> --item N` with the pack's request is the pack's `<kind>/N`.
#[test]
fn gen_item_is_the_packs_item() {
    let out = temp_dir("share-gen-item");
    ok(&[
        "prep",
        &crate::common::sample_session(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(only_entry(&out).join("pack.json")).unwrap();
    let pack: serde_json::Value = serde_json::from_str(&text).unwrap();
    let party = fixture("party-mettle.toml");
    let seed = ["--seed", "goblin-night"];
    let cases: [(&str, Vec<&str>, usize); 3] = [
        (
            "encounters",
            vec!["encounter", "--terrain", "swamp", "--party", &party],
            2,
        ),
        ("traps", vec!["trap", "--party", &party], 2),
        ("npcs", vec!["npc", "--terrain", "swamp", "--people"], 4),
    ];
    for (list, kind, n) in cases {
        for i in 1..=n {
            let item = i.to_string();
            let mut args = vec!["--json", "gen"];
            args.extend(&kind);
            args.extend(seed);
            args.extend(["--item", &item]);
            let got = &ok_json(&args)["items"][0];
            assert_eq!(got, &pack["pack"][list][i - 1], "{list} {i}");
        }
    }
    let map = ok_json(&[
        "--json",
        "gen",
        "map",
        "--stops",
        "10",
        "--terrain",
        "road,swamp,forest,ruins",
        "--seed",
        "goblin-night",
        "--item",
        "1",
    ]);
    assert_eq!(map["items"][0], pack["pack"]["map"]);
    // Core slips: the session-core pack's injury/1 and mutation/1.
    let core = temp_dir("share-gen-item-core");
    let session = format!("{}/session-core.toml", env!("CARGO_MANIFEST_DIR"));
    ok(&["prep", &session, "--out", core.to_str().unwrap()]);
    let text = std::fs::read_to_string(only_entry(&core).join("pack.json")).unwrap();
    let pack: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (kind, list) in [("injury", "injuries"), ("mutation", "mutations")] {
        let got = ok_json(&[
            "--json",
            "gen",
            kind,
            "--seed",
            "barrow-wight",
            "--item",
            "1",
        ]);
        assert_eq!(got["items"][0], pack["pack"][list][0], "{kind}");
    }
    std::fs::remove_dir_all(&core).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}

/// `[[encounter]]`, `[[trap]]` and `[[npc]]` entries are the first items
/// of their kind, each made as it says; the counts are the totals.
#[test]
fn session_entries_set_their_items() {
    let dir = temp_dir("share-entries");
    std::fs::write(
        dir.join("session.toml"),
        "title = \"Pins\"\nseed = \"pins\"\nterrain = \"swamp\"\nparty = \"3,4,4,5\"\nencounters = 3\n\n\
         [[encounter]]\nterrain = \"forest\"\nsituation = \"Wolves at the fire\"\n\n\
         [[encounter]]\nfoes = [\"bandit\", \"bandit-captain\"]\n\n\
         [[trap]]\nfrom = \"rules\"\n\n[[npc]]\narchetype = \"innkeeper\"\n",
    )
    .unwrap();
    prep_in(&dir, &[]);
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(only_entry(&dir.join("out")).join("pack.json")).unwrap(),
    )
    .unwrap();
    let pack = &json["pack"];
    let e = pack["encounters"].as_array().unwrap();
    assert_eq!(e.len(), 3);
    assert_eq!(e[0]["situation"]["row"], "Wolves at the fire");
    assert_eq!(e[0]["terrain"], "forest");
    assert_eq!(e[2]["terrain"], "swamp");
    for foe in e[1]["foes"].as_array().unwrap() {
        let kind = foe["archetype"].as_str().unwrap();
        assert!(["bandit", "bandit-captain"].contains(&kind), "{kind}");
    }
    assert_eq!(pack["traps"].as_array().unwrap().len(), 1);
    assert_eq!(pack["traps"][0]["from"], "rules");
    assert_eq!(pack["npcs"][0]["archetype"], "innkeeper");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A short, stable hash of a file's bytes.
fn digest(bytes: &[u8]) -> String {
    let mut h = rand_seeder::SipHasher::new();
    h.write(bytes);
    format!("{:016x}", h.finish())
}

/// The packs of 20 seeds (ten of each sample session), every file pinned
/// by its hash in tests/golden/packs.txt. A change here alters what a
/// shared seed makes: regenerate with `UPDATE_GOLDEN=1` only on purpose,
/// raise `FORMAT` and say so in CHANGELOG.md.
#[test]
fn the_packs_of_twenty_seeds_are_pinned() {
    let out = temp_dir("share-twenty");
    let root = env!("CARGO_MANIFEST_DIR");
    let mut lines = String::new();
    for session in ["session.toml", "session-core.toml"] {
        for i in 0..10 {
            let seed = format!("pinned-{i}");
            let folder = out.join(format!("{session}-{i}"));
            let path = format!("{root}/{session}");
            ok(&[
                "prep",
                &path,
                "--seed",
                &seed,
                "--out",
                folder.to_str().unwrap(),
            ]);
            for (name, bytes) in files(&only_entry(&folder)) {
                lines.push_str(&format!("{session} {seed} {name} {}\n", digest(&bytes)));
            }
        }
    }
    assert_golden(
        &format!("{root}/tests/golden/packs.txt"),
        &lines,
        "the pinned packs",
    );
    std::fs::remove_dir_all(&out).unwrap();
}
