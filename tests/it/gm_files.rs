//! Issue 38, items 4, 5 and 7 (`init --system core`), through the real
//! binary: a campaign never loses what the GM wrote in a pack (the pack's
//! own files replaced when its inputs change, the GM's edited sheet
//! refused by name and kept by `--force` with the new version beside it),
//! and an earlier record edited after later packs were made names itself
//! and every stale pack, which `prep --force` makes again in order.

use std::path::Path;

use crate::common::{run_in, stderr, stdout, temp_dir};

/// Run in `dir`, expect success, return (stdout, stderr).
fn ok_in(dir: &Path, args: &[&str]) -> (String, String) {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// Run in `dir`, expect exit 1, return stderr.
fn fails_in(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Append to a file.
fn append(path: &Path, text: &str) {
    let mut t = read(path);
    t.push_str(text);
    std::fs::write(path, t).unwrap();
}

/// A note on session 1's `npc-1.md`, then the plan changed so that the
/// sheet changes too: `prep` refuses naming the GM's sheet alone, changes
/// nothing; `prep --force` keeps the note and writes the new sheet beside
/// it as `npc-1.new.md`, naming both; the pack's own files are replaced
/// without `--force`; `verify` knows whose is whose.
#[test]
fn the_gms_note_on_a_sheet_survives_a_changed_plan_and_force() {
    let base = temp_dir("gm-files-note");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    let plan = camp.join("sessions/1/plan.toml");
    let pack = camp.join("out/session-1");
    ok_in(&camp, &["prep"]);
    // The plan changes while nobody wrote in the pack: the pack's own
    // files are replaced, no --force (a third encounter appears).
    let plan_text = read(&plan);
    std::fs::write(&plan, plan_text.replace("encounters = 2", "encounters = 3")).unwrap();
    let (out, err) = ok_in(&camp, &["prep"]);
    assert!(out.contains("encounter-3.md"), "{out}");
    assert!(
        err.contains("was made before the session plan (sessions/1/plan.toml) changed"),
        "{err}"
    );
    // The GM writes on the NPC's sheet; the plan then makes that NPC a
    // veteran, so its sheet changes.
    let sheet = pack.join("npc-1.md");
    append(&sheet, "\nMet at the ford; owes Ada a favour.\n");
    let noted = read(&sheet);
    append(&plan, "\n[[npc]]\ntier = 2\n");
    let before: Vec<_> = ["pack.md", "pack.json", "bundle.toml", "npc-2.md"]
        .iter()
        .map(|n| std::fs::read(pack.join(n)).unwrap())
        .collect();
    let err = fails_in(&camp, &["prep"]);
    assert!(
        err.contains("refusing to overwrite 1 file(s) that are not as the pack wrote them")
            && err.contains("npc-1.md"),
        "{err}"
    );
    // Only the GM's file: none of the pack's own.
    for own in [
        "pack.md",
        "pack.pdf",
        "pack.json",
        "bundle.toml",
        "npc-2.md",
    ] {
        assert!(!err.contains(own), "{own} named: {err}");
    }
    assert!(err.contains("To keep them, pass --force"), "{err}");
    // Nothing was written.
    assert_eq!(read(&sheet), noted);
    for (n, bytes) in ["pack.md", "pack.json", "bundle.toml", "npc-2.md"]
        .iter()
        .zip(&before)
    {
        assert_eq!(&std::fs::read(pack.join(n)).unwrap(), bytes, "{n}");
    }
    let (out, err) = ok_in(&camp, &["prep", "--force"]);
    assert_eq!(read(&sheet), noted, "the note survives --force");
    let new = read(&pack.join("npc-1.new.md"));
    assert!(new.contains("tier 2"), "{new}");
    assert!(!new.contains("owes Ada"), "{new}");
    assert!(out.contains("npc-1.new.md"), "{out}");
    assert!(
        err.contains(
            "kept npc-1.md: you edited it, so the pack's new version is beside it as npc-1.new.md"
        ),
        "{err}"
    );
    // The pack's own files did change.
    assert_ne!(std::fs::read(pack.join("bundle.toml")).unwrap(), before[2]);
    // A plain prep now has nothing to do and refuses nothing.
    let files_now = std::fs::read(pack.join("pack.json")).unwrap();
    ok_in(&camp, &["prep"]);
    assert_eq!(read(&sheet), noted);
    assert_eq!(std::fs::read(pack.join("pack.json")).unwrap(), files_now);
    let (out, _) = ok_in(&camp, &["verify"]);
    assert!(
        out.contains("(npc-1.md is yours, the pack's is npc-1.new.md)"),
        "{out}"
    );
    // The GM's note on a sheet whose pack version does not change stays
    // without --force.
    append(&pack.join("npc-2.md"), "\nSuspicious of strangers.\n");
    std::fs::write(
        &plan,
        read(&plan).replace("encounters = 3", "encounters = 2"),
    )
    .unwrap();
    let (_, err) = ok_in(&camp, &["prep"]);
    assert!(err.contains("left npc-2.md as you edited it"), "{err}");
    assert!(read(&pack.join("npc-2.md")).contains("Suspicious of strangers."));
    assert!(!pack.join("encounter-3.md").exists());
    std::fs::remove_dir_all(&base).unwrap();
}

/// `record N` filled in with the day only.
fn record_day(camp: &Path, n: usize) {
    ok_in(camp, &["record", &n.to_string()]);
    let path = camp.join(format!("sessions/{n}/record.toml"));
    let text = read(&path);
    let day = text
        .lines()
        .find(|l| l.starts_with("day ="))
        .unwrap()
        .to_owned();
    std::fs::write(&path, text.replace(&day, &format!("day = {}", 3 * n))).unwrap();
}

/// A campaign `camp` in `base` with sessions 1 to `n` recorded (the day
/// only) and session `n + 1` prepped.
fn recorded(base: &Path, n: usize) -> std::path::PathBuf {
    ok_in(base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    for k in 1..=n {
        record_day(&camp, k);
        ok_in(&camp, &["prep"]);
    }
    camp
}

/// Session 1's record's `money` changed: the line it is on.
fn change_money(camp: &Path) -> usize {
    let first = camp.join("sessions/1/record.toml");
    let text = read(&first);
    let money = text
        .lines()
        .find(|l| l.starts_with("money ="))
        .unwrap()
        .to_owned();
    std::fs::write(&first, text.replace(&money, "money = 5")).unwrap();
    text.lines().position(|l| l == money).unwrap() + 1
}

/// Sessions 1-3 recorded, session 4 prepped; then session 1's record
/// changes. `prep` and `prep 3` both name session 1's record (never the
/// record just before the first stale pack) and every stale pack; after
/// `prep 2` alone, `prep 3` still names session 1's record. `verify` and
/// `campaign` tell the stale packs from a damaged one; `prep --force`
/// makes every stale pack again in order, and `verify` is clean.
#[test]
fn an_edited_record_names_itself_and_force_remakes_every_stale_pack() {
    let base = temp_dir("gm-files-stale");
    let camp = recorded(&base, 3);
    let (out, _) = ok_in(&camp, &["verify"]);
    assert_eq!(out.matches("ok: all").count(), 4, "{out}");
    let line = change_money(&camp);
    // The refusal points at the line that changed.
    let blame = format!(
        "sessions/1/record.toml:{line}:1: session 1's record changed after session 2 was \
         prepped: the packs of sessions 2, 3 and 4 are made from an older campaign state"
    );
    for args in [&["prep"][..], &["prep", "3"]] {
        let err = fails_in(&camp, args);
        assert!(err.contains(&blame), "{args:?}: {err}");
        assert!(err.contains("run `tablewright prep --force`"), "{err}");
    }
    // `prep 2` has no stale pack before it: it is made again, and the
    // record that changed is still the one named for pack 3.
    ok_in(&camp, &["prep", "2"]);
    let err = fails_in(&camp, &["prep", "4"]);
    assert!(
        err.contains(
            "session 1's record changed after session 3 was prepped: the packs of sessions 3 \
             and 4 are made from an older campaign state"
        ),
        "{err}"
    );
    assert!(!err.contains("session 2's record"), "{err}");
    // A damaged pack besides: a sheet of session 1 removed.
    std::fs::remove_file(camp.join("out/session-1/npc-2.md")).unwrap();
    let o = run_in(&camp, &["verify"]);
    assert_eq!(o.status.code(), Some(1));
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(
        out.contains("ok: all ") && out.contains(" files in out/session-2 match"),
        "{out}"
    );
    assert!(
        err.contains("damaged: out/session-1: npc-2.md is missing"),
        "{err}"
    );
    for k in [3, 4] {
        assert!(
            err.contains(&format!(
                "stale: out/session-{k} was made from an older campaign state: session 1's \
                 record changed since session {k}'s pack was made"
            )),
            "{err}"
        );
    }
    assert!(!err.contains("stale: out/session-1"), "{err}");
    assert!(!err.contains("stale: out/session-2"), "{err}");
    let (ledger, _) = ok_in(&camp, &["campaign"]);
    assert!(
        ledger.contains(
            "Stale packs (made from an older campaign state; `tablewright prep --force` makes \
             them again in order)\n  session 3 (out/session-3): session 1's record changed since\n  \
             session 4 (out/session-4): session 1's record changed since\n"
        ),
        "{ledger}"
    );
    let (json, _) = ok_in(&camp, &["campaign", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["stale_packs"][0]["session"], 3, "{json}");
    assert_eq!(json["stale_packs"][1]["changed"][0], "session 1's record");
    // One command: both stale packs made again, in order.
    let (out, _) = ok_in(&camp, &["prep", "--force"]);
    let three = out
        .find("session 3's pack was made from an older campaign state (session 1's record changed since): making it again")
        .unwrap_or_else(|| panic!("{out}"));
    let four = out
        .find(" files to out/session-4")
        .unwrap_or_else(|| panic!("{out}"));
    assert!(three < four, "{out}");
    ok_in(&camp, &["prep", "1"]);
    let (out, _) = ok_in(&camp, &["verify"]);
    assert_eq!(out.matches("ok: all").count(), 4, "{out}");
    let (ledger, _) = ok_in(&camp, &["campaign"]);
    assert!(!ledger.contains("Stale packs"), "{ledger}");
    std::fs::remove_dir_all(&base).unwrap();
}

/// `init --system core`: a Core Rules campaign whose party and plan
/// validate and prep as they stand (sheets, a purse, an injury slip, no
/// vouchers); METTLE stays the default.
#[test]
fn init_system_core_starts_a_core_campaign_that_preps_as_it_stands() {
    let base = temp_dir("gm-files-core");
    let (out, _) = ok_in(&base, &["init", "camp", "--system", "core"]);
    assert!(
        out.starts_with("made a Core Rules campaign folder in camp:"),
        "{out}"
    );
    let camp = base.join("camp");
    assert!(read(&camp.join("campaign.toml")).contains("system = \"core\""));
    assert!(read(&camp.join("party.toml")).contains("[[core]]"));
    let (out, _) = ok_in(&camp, &["validate"]);
    assert!(
        out.contains("ok: the campaign's party and 1 session plan(s) check as `prep` reads them"),
        "{out}"
    );
    ok_in(&camp, &["prep"]);
    let json: serde_json::Value =
        serde_json::from_str(&read(&camp.join("out/session-1/pack.json"))).unwrap();
    let pack = &json["pack"];
    assert_eq!(pack["system"], "core", "{pack}");
    assert_eq!(pack["injuries"].as_array().unwrap().len(), 1);
    assert!(pack["vouchers"].as_array().is_none_or(|v| v.is_empty()));
    let party = pack["campaign"]["party_now"].as_array().unwrap();
    assert_eq!(party.len(), 3, "{pack}");
    assert!(
        party[0][1].as_str().unwrap().starts_with("health "),
        "{party:?}"
    );
    // The default stays METTLE.
    let (out, _) = ok_in(&base, &["init", "other"]);
    assert!(out.starts_with("made a METTLE campaign folder"), "{out}");
    assert!(read(&base.join("other/campaign.toml")).contains("system = \"mettle\""));
    std::fs::remove_dir_all(&base).unwrap();
}

/// `verify DIR` on a pack of the campaign says it is stale as `prep` says
/// it (what changed, at the record's first changed line, and `prep
/// --force`); a pack that is not stale is still ok.
#[test]
fn verify_of_one_stale_pack_says_so_as_prep_does() {
    let base = temp_dir("gm-files-verify-stale");
    let camp = recorded(&base, 1);
    let (out, _) = ok_in(&camp, &["verify", "out/session-2"]);
    assert!(out.contains("ok: all "), "{out}");
    let line = change_money(&camp);
    let blame = format!(
        "sessions/1/record.toml:{line}:1: session 1's record changed after session 2 was \
         prepped: the pack of session 2 is made from an older campaign state"
    );
    let err = fails_in(&camp, &["verify", "out/session-2"]);
    assert!(err.contains(&blame), "{err}");
    assert!(err.contains("run `tablewright prep --force`"), "{err}");
    let (out, _) = ok_in(&camp, &["verify", "out/session-1"]);
    assert!(out.contains("ok: all "), "{out}");
}

/// The guide's example of a stale refusal (Campaigns, "Fix the past in
/// one step") is what `prep` says when session 1's `day` changes after
/// session 4 was prepped: quoted from the guide, whole, so the example
/// stays true (the `day` line does not move with the party's size).
#[test]
fn the_guides_stale_refusal_is_what_prep_says() {
    let guide = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/campaigns.md"));
    let quoted: Vec<&str> = guide
        .lines()
        .skip_while(|l| !l.starts_with("error: sessions/1/record.toml:"))
        .take(2)
        .collect();
    assert_eq!(quoted.len(), 2, "the guide quotes the refusal and its hint");
    let base = temp_dir("gm-files-guide-stale");
    let camp = recorded(&base, 3);
    let first = camp.join("sessions/1/record.toml");
    std::fs::write(&first, read(&first).replace("day = 3", "day = 2")).unwrap();
    let err = fails_in(&camp, &["prep"]);
    for line in quoted {
        assert!(
            err.contains(line.trim()),
            "the guide's {line:?} is not in\n{err}"
        );
    }
}
