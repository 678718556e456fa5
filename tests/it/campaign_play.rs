//! Issue 29: a campaign played for three sessions through the real binary,
//! in each system — `init`, `prep` (session 1), `record 1` filled in as a
//! GM would, `prep` (session 2, from the ledger's state), `record 2`,
//! `prep` (session 3) — each pack's campaign page and sheets asserted
//! against the rules with exact figures, every pack rebuilt byte for byte
//! by `prep N`, by `verify` and from the campaign's bundle.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{run_in, stderr, stdout, temp_dir};

/// Run in `dir`, expect success, return stdout.
pub(crate) fn ok_in(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Every file of a pack folder, by name (flavour folders aside).
fn pack_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Session `n`'s pack.json: its pack.
pub(crate) fn pack(camp: &Path, n: usize) -> Value {
    let text = std::fs::read_to_string(camp.join(format!("out/session-{n}/pack.json"))).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["pack"].clone()
}

/// The ledger's audit of the session before `n` (what its pack's
/// "Previously" sums up), a line a change with its rule, from `campaign
/// --json`.
fn audit(camp: &Path, n: usize) -> Vec<String> {
    let json: Value = serde_json::from_str(&ok_in(camp, &["campaign", "--json"])).unwrap();
    let Some(s) = json["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["number"] == n as u64 - 1)
    else {
        return Vec::new();
    };
    s["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}: {} ({})",
                c["who"].as_str().unwrap(),
                c["what"].as_str().unwrap(),
                c["rule"].as_str().unwrap()
            )
        })
        .collect()
}

/// A PC's line on the party as it starts.
fn now_of(p: &Value, name: &str) -> String {
    p["campaign"]["party_now"]
        .as_array()
        .unwrap()
        .iter()
        .find(|pc| pc[0] == name)
        .unwrap_or_else(|| panic!("{name} is not in the party: {p}"))[1]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The stops of a pack's journey, in order.
fn legs(p: &Value) -> Vec<String> {
    let legs = p["journey"]["legs"].as_array().unwrap();
    let mut out = vec![legs[0]["from"].as_str().unwrap().to_owned()];
    out.extend(legs.iter().map(|l| l["to"].as_str().unwrap().to_owned()));
    out
}

/// `record N` written, then its keys replaced as the GM fills it in:
/// each `(line start, new line)` replaces the first line starting so.
fn record(camp: &Path, n: usize, edits: &[(&str, String)]) -> PathBuf {
    ok_in(camp, &["record", &n.to_string()]);
    let path = camp.join(format!("sessions/{n}/record.toml"));
    let mut lines: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    for (start, new) in edits {
        let at = lines
            .iter()
            .position(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line starts with {start:?}"));
        lines[at] = new.clone();
    }
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// The `[[pc]]` block of `name` in a record, with its keys replaced.
fn pc_edits(text: &str, name: &str, keys: &[(&str, &str)]) -> String {
    let start = text.find(&format!("name = \"{name}\"")).unwrap();
    let end = text[start..]
        .find("[[pc]]")
        .map_or(text.len(), |e| start + e);
    let mut block = text[start..end].to_owned();
    for (key, value) in keys {
        let line = block
            .lines()
            .find(|l| l.starts_with(&format!("{key} =")))
            .unwrap_or_else(|| panic!("no {key} for {name}"))
            .to_owned();
        block = block.replace(&line, &format!("{key} = {value}"));
    }
    format!("{}{block}{}", &text[..start], &text[end..])
}

/// Edit a record's `[[pc]]` entries in place.
fn edit_pcs(path: &Path, pcs: &[(&str, &[(&str, &str)])]) {
    let mut text = std::fs::read_to_string(path).unwrap();
    for (name, keys) in pcs {
        text = pc_edits(&text, name, keys);
    }
    std::fs::write(path, text).unwrap();
}

/// Every session's pack rebuilt byte for byte: `prep N` again, `verify`
/// in the campaign, and `prep BUNDLE N` from `share`'s bundle in an
/// empty folder.
fn rebuilt_byte_for_byte(base: &Path, camp: &Path, sessions: usize) {
    let before: Vec<_> = (1..=sessions)
        .map(|n| pack_files(&camp.join(format!("out/session-{n}"))))
        .collect();
    for n in 1..=sessions {
        ok_in(camp, &["prep", &n.to_string()]);
        assert_eq!(
            pack_files(&camp.join(format!("out/session-{n}"))),
            before[n - 1],
            "prep {n} again"
        );
    }
    let verified = ok_in(camp, &["verify"]);
    assert_eq!(verified.matches("ok: all").count(), sessions, "{verified}");
    let bundle = ok_in(camp, &["share"]);
    let elsewhere = base.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("campaign-bundle.toml"), &bundle).unwrap();
    for n in 1..=sessions {
        ok_in(
            &elsewhere,
            &["prep", "campaign-bundle.toml", &n.to_string()],
        );
        assert_eq!(
            pack_files(&elsewhere.join(format!("out/session-{n}"))),
            before[n - 1],
            "session {n} from the campaign's bundle"
        );
    }
}

#[test]
fn a_mettle_campaign_of_three_sessions() {
    let base = temp_dir("campaign-mettle");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");

    // Session 1: the party as it started, at the map's start.
    ok_in(&camp, &["prep"]);
    let p1 = pack(&camp, 1);
    let c1 = &p1["campaign"];
    assert_eq!(c1["session"], 1);
    assert_eq!(c1["day"], 1);
    assert_eq!(now_of(&p1, "Ada"), "Mettle 7 of 7");
    assert_eq!(now_of(&p1, "Cress"), "Mettle 8 of 8");
    assert!(audit(&camp, 1).is_empty());
    let legs1 = legs(&p1);
    assert_eq!(c1["stop"], legs1[0].as_str());
    let serials1: Vec<String> = p1["vouchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["serial"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(serials1.len(), 3);
    // The record pre-filled from the pack, and the pack's "After the
    // session" sheet with the same lines.
    let path = record(
        &camp,
        1,
        &[
            ("day =", "day = 5".into()),
            ("stop =", format!("stop = \"{}\"", legs1[1])),
            ("met =", "met = [\"encounter/1\"]".into()),
            ("npcs_met =", "npcs_met = [\"npc/2\"]".into()),
            (
                "vouchers_spent =",
                format!("vouchers_spent = [\"{}\"]", serials1[0]),
            ),
        ],
    );
    let prefilled = std::fs::read_to_string(&path).unwrap();
    assert!(prefilled.contains("#   encounter/1: "), "{prefilled}");
    assert!(prefilled.contains(&format!("#   {} (Ada)", serials1[0])));
    edit_pcs(
        &path,
        &[
            ("Ada", &[("damage", "5")]),
            ("Cress", &[("statuses", "[\"Afflicted\"]")]),
        ],
    );
    // A record is never overwritten without --force.
    let again = run_in(&camp, &["record", "1"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("record.toml"), "{}", stderr(&again));

    // Session 2: the next (the first without a record), from the ledger.
    let said = run_in(&camp, &["prep"]);
    assert!(said.status.success(), "{}", stderr(&said));
    assert!(
        stderr(&said).contains("session 2 has no plan of its own, so it takes session 1's"),
        "{}",
        stderr(&said)
    );
    let p2 = pack(&camp, 2);
    let c2 = &p2["campaign"];
    assert_eq!(c2["session"], 2);
    assert_eq!(c2["day"], 5);
    assert_eq!(c2["stop"], legs1[1].as_str());
    // Its journey counts the campaign's days: it sets out on day 5.
    assert_eq!(p2["journey"]["days"][0]["day"], 5);
    let journey2 = std::fs::read_to_string(camp.join("out/session-2/journey-1.md")).unwrap();
    assert!(journey2.contains("**Day 5**"), "{journey2}");
    assert!(!journey2.contains("**Day 1**"), "{journey2}");
    assert_eq!(p2["journey"]["from"], legs1[1].as_str());
    // Mettle above zero refills for the new session.
    assert_eq!(now_of(&p2, "Ada"), "Mettle 7 of 7");
    let prev2 = audit(&camp, 2);
    for line in [
        "Ada: Mettle 7 → 2 (5 lost) (METTLE Engine: taking damage — Mettle lowered)",
        "Ada: Mettle 2 → 7 (METTLE Engine: Mettle — above zero, it refills when a new Scene starts)",
    ] {
        assert!(prev2.iter().any(|l| l == line), "{line} not in {prev2:#?}");
    }
    assert!(
        prev2
            .iter()
            .any(|l| l.contains(&serials1[0]) && l.contains("spent in play, then retired")),
        "{prev2:#?}"
    );
    // The spent voucher retired; the others carry with their serials.
    let held: Vec<(String, String)> = c2["vouchers_in_hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v[0].as_str().unwrap().into(), v[1].as_str().unwrap().into()))
        .collect();
    assert_eq!(
        held,
        [
            (serials1[1].clone(), "Brannoc".to_owned()),
            (serials1[2].clone(), "Cress".to_owned())
        ]
    );
    // Session 2's draws are its own: not session 1's.
    assert_ne!(p2["encounters"], p1["encounters"]);

    // Session 2's record: Brannoc falls (Mettle 7 − 9 = −2 stays until
    // healed: the Heal Check in downtime), and spends the voucher he has
    // carried since session 1.
    let legs2 = legs(&p2);
    let path = record(
        &camp,
        2,
        &[
            ("day =", "day = 9".into()),
            ("stop =", format!("stop = \"{}\"", legs2[1])),
            (
                "vouchers_spent =",
                format!("vouchers_spent = [\"{}\"]", serials1[1]),
            ),
        ],
    );
    edit_pcs(&path, &[("Brannoc", &[("damage", "9")])]);

    // Session 3.
    let said = run_in(&camp, &["prep"]);
    assert!(said.status.success(), "{}", stderr(&said));
    let p3 = pack(&camp, 3);
    // Session 3 takes session 1's plan: its vouchers were for session 1,
    // so it issues none (session 2, which took it too, issued none).
    assert_eq!(p3["vouchers"], serde_json::json!([]), "{}", p3["vouchers"]);
    assert_eq!(p2["vouchers"], serde_json::json!([]), "{}", p2["vouchers"]);
    let c3 = &p3["campaign"];
    assert_eq!(c3["session"], 3);
    assert_eq!(c3["stop"], legs2[1].as_str());
    let prev3 = audit(&camp, 3);
    // Mettle 7 − 9 = −2: at 0 or below it stays until healed; the Heal
    // Check in downtime (Cress's CULTURE 4: 4D vs 3) fails on this seed
    // with Edge, so the Twist rerolls the Edge dice — and fails again; a
    // failed Heal is death: his unspent voucher goes with him, and
    // the others take Downtime Vouchers, serials naming session and holder (AC-S2-ADA).
    for line in [
        "Brannoc: Mettle 7 → -2 (9 lost): at 0 or below (METTLE Engine: taking damage — Mettle lowered)",
        "Brannoc: Heal Check by Cress: 4D vs 3, 55.32% to live (86.33% with a Twist) — dice [1, 4, 5, 5], Score 1, Edge 3: failure with Edge, so a Twist (Disfigured: They live, but the patient carries a lasting mark: a bad scar, a twisted feature, something people will notice.) rerolls the Edge dice [6, 1, 5] → Score 2, Edge 2: failure (METTLE Scenes: Heal, and Engine: Twists — a failure with Edge calls a Twist: the Edge dice rerolled, the price from the Heal Twists)",
        "Brannoc: died: the Heal Check failed (METTLE Scenes: Heal — CULTURE vs 3 in downtime; each Edge restores a point of Mettle per day's rest; failure is death)",
        "Ada: took Downtime Voucher AC-S2-ADA (METTLE Scenes: Downtime — those not involved in a long Scene take a Downtime Voucher)",
    ] {
        assert!(prev3.iter().any(|l| l == line), "{line} not in {prev3:#?}");
    }
    let held3: Vec<String> = c3["vouchers_in_hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v[0].as_str().unwrap().to_owned())
        .collect();
    assert!(!held3.contains(&serials1[0]) && !held3.contains(&serials1[1]));
    assert!(held3.contains(&serials1[2]), "{held3:?}");
    assert_eq!(now_of(&p3, "Ada"), "Mettle 7 of 7");
    // The Downtime Voucher the ledger issued after session 2 prints in
    // session 3's pack as a card, like the pack's own: a Markdown handout
    // named by its serial, a part of pack.md, and a card in pack.pdf.
    // Session 2's pack had none to print (no downtime after session 1).
    assert_eq!(
        c3["downtime_vouchers"],
        serde_json::json!([{
            "holder": "Ada",
            "serial": "AC-S2-ADA",
            "text": p1["vouchers"][0]["text"].clone(),
        }])
    );
    assert!(c2.get("downtime_vouchers").is_none(), "{c2}");
    let names2 = pack_files(&camp.join("out/session-2"));
    assert!(
        !names2.keys().any(|n| n.starts_with("downtime-")),
        "{names2:?}"
    );
    let card = std::fs::read_to_string(camp.join("out/session-3/downtime-AC-S2-ADA.md")).unwrap();
    assert!(
        card.starts_with("# Downtime voucher No. AC-S2-ADA\n"),
        "{card}"
    );
    assert!(card.contains("Ada"), "{card}");
    assert!(card.contains("· downtime after session 2 ·"), "{card}");
    let names3 = pack_files(&camp.join("out/session-3"));
    assert!(names3.contains_key("downtime-AC-S2-ADA.md"), "{names3:?}");
    let md3 = std::fs::read_to_string(camp.join("out/session-3/pack.md")).unwrap();
    assert!(md3.contains("Downtime voucher No. AC-S2-ADA"), "{md3}");

    // The pack prints it: Previously on the run sheet, After the session
    // last.
    let pdf = camp.join("out/session-3/pack.pdf");
    if let Some(text) = crate::pdf::text_of(&pdf) {
        assert!(text.contains("Previously"), "{text}");
        assert!(text.contains("After the session"), "{text}");
        assert!(text.contains(&serials1[2]), "{text}");
        // The card's label prints in capitals.
        assert!(text.contains("DOWNTIME AFTER SESSION 2"), "{text}");
        assert!(text.contains("No. AC-S2-ADA"), "{text}");
    }
    rebuilt_byte_for_byte(&base, &camp, 3);
    std::fs::remove_dir_all(&base).unwrap();
}

const CORE_PARTY: &str = "[[core]]\nname = \"Sybilla\"\nSTR = 8\nAGI = 10\nWIT = 12\narmour = 1\ndamage = \"d6\"\nomens = 2\nmax_omens = 2\n\n\
[[core]]\nname = \"Theobald\"\nSTR = 9\nAGI = 6\nWIT = 11\narmour = 2\ndamage = \"d8\"\nomens = 2\nmax_omens = 2\n";

#[test]
fn a_core_campaign_of_three_sessions() {
    let base = temp_dir("campaign-core");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    let campaign = std::fs::read_to_string(camp.join("campaign.toml"))
        .unwrap()
        .replace("system = \"mettle\" ", "system = \"core\"   ")
        .replace("seed = \"across-the-salt\"", "seed = \"core-salt\"")
        .replace(
            "party = \"party.toml\"",
            "party = \"party.toml\"\nmoney = 300",
        );
    std::fs::write(camp.join("campaign.toml"), campaign).unwrap();
    std::fs::write(camp.join("party.toml"), CORE_PARTY).unwrap();
    std::fs::write(
        camp.join("sessions/1/plan.toml"),
        "terrain = \"saltflats\"\nencounters = 1\ntraps = 1\nnpcs = 2\ninjuries = 1\nto = \"goal\"\n",
    )
    .unwrap();
    ok_in(&camp, &["prep"]);
    let p1 = pack(&camp, 1);
    assert_eq!(
        now_of(&p1, "Sybilla"),
        "health 8 of 8, STR 8 AGI 10 WIT 12, omens 2 of 2, corruption 0"
    );
    let injury = p1["injuries"][0]["name"].as_str().unwrap().to_owned();
    // The party moves to a settlement on the map (a full rest is taken
    // only there).
    let stops = p1["map"]["stops"].as_array().unwrap();
    let here = p1["campaign"]["stop"].as_str().unwrap();
    let settlement = stops
        .iter()
        .filter(|s| s["kind"] == "village" || s["kind"] == "town")
        .map(|s| s["name"].as_str().unwrap())
        .find(|s| *s != here)
        .unwrap_or(here)
        .to_owned();
    let path = record(
        &camp,
        1,
        &[
            ("day =", "day = 10".into()),
            ("stop =", format!("stop = \"{settlement}\"")),
            ("met =", "met = [\"encounter/1\", \"trap/1\"]".into()),
        ],
    );
    // The record and the After-the-session sheet have a place for the
    // omens spent.
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("\nomens = 0 ")
    );
    let md1 = std::fs::read_to_string(camp.join("out/session-1/pack.md")).unwrap();
    assert!(md1.contains("omens spent"), "{md1}");
    edit_pcs(
        &path,
        &[
            (
                "Sybilla",
                &[
                    ("damage", "3"),
                    ("injuries", "[\"injury/1\"]"),
                    ("corruption", "2"),
                    ("omens", "1"),
                ],
            ),
            ("Theobald", &[("conditions", "[\"frightened\"]")]),
        ],
    );
    ok_in(&camp, &["prep"]);
    let p2 = pack(&camp, 2);
    let prev2 = audit(&camp, 2);
    // The full rest: a week in a settlement, 32ʂ a PC plus 16ʂ for the
    // condition it clears: 2 × 32 + 16 = 80ʂ, from 300ʂ.
    assert!(
        prev2
            .iter()
            .any(|l| l.contains("full rest: 48ʂ (32ʂ + 16ʂ × 1 condition)")),
        "{prev2:#?}"
    );
    assert!(
        prev2.iter().any(|l| l.contains(&format!(
            "a week of full rest at {settlement}: 80ʂ (money 300ʂ → 220ʂ), day 10 → 17"
        ))),
        "{prev2:#?}"
    );
    // The soulblight check for the corruption gained.
    assert!(
        prev2
            .iter()
            .any(|l| l.starts_with("Sybilla: corruption 0 + 2 = 2; soulblight check d12 = ")),
        "{prev2:#?}"
    );
    assert!(prev2.iter().any(|l| l.contains(&injury)), "{prev2:#?}");
    // The omen spent in play, and the full rest that brings it back.
    assert!(
        prev2.iter().any(
            |l| l.starts_with("Sybilla: omens 2 → 1 (1 omen spent in play) (Core Rules: omens")
        ),
        "{prev2:#?}"
    );
    assert!(
        prev2
            .iter()
            .any(|l| l.starts_with("Sybilla: ") && l.contains("health 5 → 8, omens 1 → 2")),
        "{prev2:#?}"
    );
    // The session's damage is health lost, not critical damage.
    assert!(
        prev2
            .iter()
            .any(|l| l.starts_with("Sybilla: health 8 → 5 (3 damage over the session)")),
        "{prev2:#?}"
    );
    assert_eq!(p2["campaign"]["day"], 17);
    assert_eq!(p2["campaign"]["stop"], settlement.as_str());
    // Health back to its maximum after the full rest; the condition gone.
    assert!(
        now_of(&p2, "Theobald").starts_with("health 9 of 9"),
        "{}",
        now_of(&p2, "Theobald")
    );
    assert!(!now_of(&p2, "Theobald").contains("frightened"));

    // Session 2's record: in the wild, Theobald hurt; no full rest.
    let legs2 = legs(&p2);
    let path = record(
        &camp,
        2,
        &[
            ("day =", "day = 30".into()),
            ("stop =", format!("stop = \"{}\"", legs2[1])),
        ],
    );
    edit_pcs(&path, &[("Theobald", &[("damage", "4")])]);
    ok_in(&camp, &["prep"]);
    let p3 = pack(&camp, 3);
    assert_eq!(p3["campaign"]["day"], 30);
    assert_eq!(p3["journey"]["from"], legs2[1].as_str());
    let kind = stops
        .iter()
        .find(|s| s["name"] == legs2[1].as_str())
        .unwrap()["kind"]
        .clone();
    if kind != "village" && kind != "town" {
        assert!(
            now_of(&p3, "Theobald").starts_with("health 5 of 9"),
            "{}",
            now_of(&p3, "Theobald")
        );
        assert!(
            audit(&camp, 3).iter().any(|l| l.contains("no full rest")),
            "{:#?}",
            audit(&camp, 3)
        );
    }
    rebuilt_byte_for_byte(&base, &camp, 3);
    std::fs::remove_dir_all(&base).unwrap();
}

/// A pack made before its plan (or `campaign.toml`) changed says so: a
/// plain `prep` makes its own files again and names what changed; a
/// reroll lists it under `inputs_changed` (the plan's own `[rerolls]`
/// aside).
#[test]
fn a_changed_plan_is_named_as_what_the_pack_was_made_before() {
    let base = temp_dir("campaign-stale-plan");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let plan = camp.join("sessions/1/plan.toml");
    let text = std::fs::read_to_string(&plan).unwrap();
    std::fs::write(&plan, text.replace("encounters = 2", "encounters = 3")).unwrap();
    let o = run_in(&camp, &["prep"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "note: the pack in out/session-1 was made before the session plan (sessions/1/plan.toml) changed: its own files are made again"
        ),
        "{}",
        stderr(&o)
    );
    // campaign.toml and the plan, named together.
    let campaign = camp.join("campaign.toml");
    let c = std::fs::read_to_string(&campaign).unwrap();
    std::fs::write(&campaign, c.replace("Across the Salt", "Over the Salt")).unwrap();
    let plan_now = std::fs::read_to_string(&plan).unwrap();
    std::fs::write(&plan, plan_now.replace("encounters = 3", "encounters = 2")).unwrap();
    let o = run_in(&camp, &["prep"]);
    assert!(
        stderr(&o).contains(
            "made before the campaign file (campaign.toml) and the session plan (sessions/1/plan.toml) changed"
        ),
        "{}",
        stderr(&o)
    );
    std::fs::write(&campaign, c).unwrap();
    let json = ok_in(&camp, &["prep", "--reroll", "npc/1", "--json"]);
    let report: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        report["inputs_changed"],
        serde_json::json!(["the campaign file (campaign.toml)"]),
        "{json}"
    );
    // The reroll recorded in the plan is no change of the plan: a second
    // reroll names nothing.
    let json = ok_in(&camp, &["prep", "--reroll", "npc/1", "--json"]);
    let report: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["inputs_changed"], serde_json::json!([]), "{json}");
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn an_npc_brought_back_prints_in_the_markdown_as_on_the_card() {
    let base = temp_dir("campaign-bring-back");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let name = pack(&camp, 1)["npcs"][0]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    record(&camp, 1, &[]);
    let plan = std::fs::read_to_string(camp.join("sessions/1/plan.toml")).unwrap();
    std::fs::create_dir_all(camp.join("sessions/2")).unwrap();
    std::fs::write(
        camp.join("sessions/2/plan.toml"),
        format!("{plan}\nbring_back = [\"npc/1 of session 1\"]\n"),
    )
    .unwrap();
    ok_in(&camp, &["prep"]);
    let out = camp.join("out/session-2");
    let sheet = std::fs::read_to_string(out.join("returning-1.md")).unwrap();
    assert!(sheet.contains(&format!("# {name}")), "{sheet}");
    assert!(sheet.contains("npc/1 of session 1, not yet met"), "{sheet}");
    let whole = std::fs::read_to_string(out.join("pack.md")).unwrap();
    assert!(whole.contains(&format!("## {name}")), "{whole}");
    assert!(stdout(&run_in(&camp, &["verify"])).contains("match"));
    std::fs::remove_dir_all(&base).unwrap();
}

/// The texts of an SVG document, unescaped as far as stop names need.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..t.find("</text>")?];
            Some(body.replace("&amp;", "&").replace("&#39;", "'"))
        })
        .collect()
}

/// Issue 30, the reveal: a campaign over a region of 40 stops (an atlas)
/// played for three sessions. Session 3's players' atlas (the PDF's
/// players' pages), map (its SVG) and Markdown show exactly the stops the
/// records say the party visited, those it heard of (the far ends of the
/// roads out of a stop it visited, and where it sets out for) and the
/// paths it travelled, with the GM's numbers; nothing of the rest. The
/// GM's show the whole map and the trail, session by session.
#[test]
fn the_players_atlas_shows_exactly_the_stops_visited_and_heard_of_and_the_paths_travelled() {
    let base = temp_dir("campaign-reveal");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    let toml = camp.join("campaign.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let bigger = text.replacen("\nstops = 8\n", "\nstops = 40\n", 1);
    assert_ne!(bigger, text, "{text}");
    std::fs::write(&toml, bigger).unwrap();

    ok_in(&camp, &["prep"]);
    let legs1 = legs(&pack(&camp, 1));
    assert!(legs1.len() > 3, "{legs1:?}");
    record(
        &camp,
        1,
        &[
            ("day =", "day = 4".into()),
            ("stop =", format!("stop = \"{}\"", legs1[2])),
        ],
    );
    ok_in(&camp, &["prep"]);
    let legs2 = legs(&pack(&camp, 2));
    assert!(legs2.len() > 3, "{legs2:?}");
    record(
        &camp,
        2,
        &[
            ("day =", "day = 9".into()),
            ("stop =", format!("stop = \"{}\"", legs2[3])),
        ],
    );
    ok_in(&camp, &["prep"]);
    let p3 = pack(&camp, 3);

    // What the records say, worked out here from the map alone.
    let map = &p3["map"];
    let names: Vec<String> = map["stops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names.len(), 40);
    let id = |name: &str| names.iter().position(|n| n == name).unwrap();
    let ends: Vec<(usize, usize)> = map["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["a"].as_u64().unwrap() as usize,
                p["b"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    let walked: Vec<usize> = legs1[..=2]
        .iter()
        .chain(&legs2[1..=3])
        .map(|n| id(n))
        .collect();
    let mut visited: Vec<usize> = Vec::new();
    for &s in &walked {
        if !visited.contains(&s) {
            visited.push(s);
        }
    }
    let mut travelled: Vec<usize> = Vec::new();
    for w in walked.windows(2) {
        let p = ends
            .iter()
            .position(|&(a, b)| (a, b) == (w[0], w[1]) || (b, a) == (w[0], w[1]))
            .unwrap();
        if !travelled.contains(&p) {
            travelled.push(p);
        }
    }
    let heading = id(legs(&p3).last().unwrap());
    let mut heard: Vec<usize> = ends
        .iter()
        .filter_map(
            |&(a, b)| match (visited.contains(&a), visited.contains(&b)) {
                (true, false) => Some(b),
                (false, true) => Some(a),
                _ => None,
            },
        )
        .chain([heading])
        .filter(|s| !visited.contains(s))
        .collect();
    heard.sort();
    heard.dedup();
    let known = |s: usize| visited.contains(&s) || heard.contains(&s);
    assert!(heard.len() >= 3 && 40 - visited.len() - heard.len() >= 10);

    // The pack says the same.
    let reveal = &p3["campaign"]["reveal"];
    assert_eq!(reveal["visited"], serde_json::json!(visited));
    assert_eq!(reveal["heard"], serde_json::json!(heard));
    assert_eq!(reveal["travelled"], serde_json::json!(travelled));
    assert_eq!(
        reveal["trail"],
        serde_json::json!([
            {"session": 1, "day_start": 1, "day_end": 4, "stops": walked[..3]},
            {"session": 2, "day_start": 4, "day_end": 9, "stops": walked[2..]},
        ])
    );

    let out = camp.join("out/session-3");
    // A name of an unknown stop found in a text is a leak, unless it is
    // part of a known stop's name.
    let leaks = |what: &str, text: &str| {
        for (s, name) in names.iter().enumerate() {
            let inside_known = names
                .iter()
                .enumerate()
                .any(|(k, n)| known(k) && k != s && n.contains(name.as_str()));
            if !known(s) && !inside_known {
                assert!(
                    !text.contains(name.as_str()),
                    "{what} shows {} {name}",
                    s + 1
                );
            }
        }
    };

    // The players' SVG: a label for every known stop, by the GM's number;
    // a line for each path travelled and for nothing else.
    let svg = std::fs::read_to_string(out.join("map-1-players.svg")).unwrap();
    let texts = svg_texts(&svg);
    for (s, name) in names.iter().enumerate() {
        let label = format!("{} {name}", s + 1);
        assert_eq!(texts.contains(&label), known(s), "{label} in {texts:#?}");
    }
    assert_eq!(svg.matches("<line").count(), travelled.len(), "{svg}");
    leaks("map-1-players.svg", &svg);
    // The GM's SVG: every stop and path, and the trail's band under each
    // path travelled.
    let gm_svg = std::fs::read_to_string(out.join("map-1.svg")).unwrap();
    assert!(svg_texts(&gm_svg).contains(&format!("1 {}", names[0])));
    assert_eq!(gm_svg.matches("stroke-linecap").count(), travelled.len());

    // `gen map --item 1 --session` over the campaign's bundle (its next
    // session, 3) prints the players' map as the pack has it.
    let bundle = ok_in(&camp, &["share"]);
    std::fs::write(base.join("campaign-bundle.toml"), &bundle).unwrap();
    let b = base.join("campaign-bundle.toml");
    let b = b.to_str().unwrap();
    let item = ["gen", "map", "--item", "1", "--session", b, "--players"];
    assert_eq!(ok_in(&base, &[&item[..], &["--svg"]].concat()), svg);
    let listed = ok_in(&base, &item);
    for (s, name) in names.iter().enumerate() {
        let row = format!("\n| {} | {name}", s + 1);
        assert_eq!(listed.contains(&row), known(s), "{row} in {listed}");
    }
    leaks("gen map --players", &listed);

    // The players' Markdown: a row for each known stop (those heard of
    // said so), a row for each path travelled.
    let md = std::fs::read_to_string(out.join("map-1-players.md")).unwrap();
    for (s, name) in names.iter().enumerate() {
        let row = format!("\n| {} | {name}", s + 1);
        assert_eq!(md.contains(&row), known(s), "{row} in {md}");
        if heard.contains(&s) {
            assert!(md.contains(&format!("{row} (heard of) |")), "{md}");
        }
    }
    assert_eq!(md.matches(" – ").count(), travelled.len(), "{md}");
    leaks("map-1-players.md", &md);
    // The GM's Markdown lists the trail.
    let gm_md = std::fs::read_to_string(out.join("map-1.md")).unwrap();
    // Both name the party's stop and where it is going as such.
    for text in [&md, &gm_md] {
        assert!(
            text.contains("Party: **") && text.contains("Going to: **"),
            "{text}"
        );
        assert!(!text.contains("Start: **"), "{text}");
    }
    let first = format!(
        "- Session 1, days 1–4: {} {} → {} {} → {} {}",
        walked[0] + 1,
        names[walked[0]],
        walked[1] + 1,
        names[walked[1]],
        walked[2] + 1,
        names[walked[2]]
    );
    assert!(gm_md.contains(&first), "{first} not in {gm_md}");

    // The PDF: the players' atlas pages (from the players' overview to
    // their index) index exactly the known stops, and name no other.
    let pdf = out.join("pack.pdf");
    if let Some(text) = crate::pdf::text_of(&pdf) {
        let pages: Vec<&str> = text.split('\u{c}').collect();
        // (A section's page starts with its title; the run sheet's
        // contents name them all.)
        let page_of = |title: &str| {
            pages
                .iter()
                .position(|p| p.trim_start().starts_with(title))
                .unwrap_or_else(|| panic!("no page starts with {title}"))
        };
        let (gm_from, from, to) = (
            page_of("Atlas · map/1"),
            page_of("Atlas (players) · map/1"),
            page_of("Index of stops (players) · map/1"),
        );
        let players = pages[from..=to]
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for (s, name) in names.iter().enumerate() {
            let entry = format!("{name} — {} · p.", s + 1);
            assert_eq!(players.contains(&entry), known(s), "{entry} in {players}");
        }
        leaks("the players' atlas", &players);
        assert!(players.contains("small ring: heard of"), "{players}");
        // The GM's atlas: every stop, and the trail listed and marked.
        let gm = pages[gm_from..from]
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for (s, name) in names.iter().enumerate() {
            assert!(gm.contains(&format!("{name} — {} · p.", s + 1)), "{name}");
        }
        assert!(gm.contains("the party's trail"), "{gm}");
        assert!(gm.contains("session 2 days 4–9"), "{gm}");
        assert!(gm.contains("· s1 d4") && gm.contains("· s2 d9"), "{gm}");
        // The key marks the party's stop and where it is going as the
        // legend does, not as a map's start and goal.
        assert!(gm.contains("(party)") && gm.contains("(going to)"), "{gm}");
        assert!(!gm.contains("(start)") && !gm.contains("(goal)"), "{gm}");
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// A PC at 0 Mettle or below sits out the next pack: no journey role, no
/// place in the encounters' fitting and zones, no voucher; still on the
/// run sheet.
#[test]
fn a_pc_at_zero_mettle_sits_out_the_next_pack() {
    let base = temp_dir("campaign-sits-out");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let p1 = pack(&camp, 1);
    let acts = |p: &Value| {
        p["encounters"].to_string().contains("Brannoc")
            || p["journey"].to_string().contains("Brannoc")
    };
    assert!(acts(&p1), "Brannoc acts in session 1's pack");
    let legs1 = legs(&p1);
    let path = record(
        &camp,
        1,
        &[
            ("day =", "day = 5".into()),
            ("stop =", format!("stop = \"{}\"", legs1[1])),
        ],
    );
    // Brannoc falls and is made stable at the table, with no Edge.
    edit_pcs(&path, &[("Brannoc", &[("damage", "9\nheal_edge = 0")])]);
    // Session 2 has a plan of its own naming a voucher for him.
    std::fs::create_dir_all(camp.join("sessions/2")).unwrap();
    std::fs::write(
        camp.join("sessions/2/plan.toml"),
        "to = \"goal\"\nencounters = 2\nvouchers = [\"Ada\", \"Brannoc\"]\n",
    )
    .unwrap();
    let said = run_in(&camp, &["prep"]);
    assert!(said.status.success(), "{}", stderr(&said));
    assert!(
        stderr(&said).contains(
            "note: no voucher for Brannoc: the plan names them, but they are at 0 Mettle or below"
        ),
        "{}",
        stderr(&said)
    );
    let p2 = pack(&camp, 2);
    assert_eq!(now_of(&p2, "Brannoc"), "Mettle -2 of 7");
    assert!(!acts(&p2), "Brannoc acts in session 2's pack: {p2}");
    assert!(
        p2["party"].to_string().contains("Brannoc"),
        "{}",
        p2["party"]
    );
    let holders: Vec<&str> = p2["vouchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["holder"].as_str().unwrap())
        .collect();
    assert_eq!(holders, ["Ada"]);
    std::fs::remove_dir_all(&base).unwrap();
}
