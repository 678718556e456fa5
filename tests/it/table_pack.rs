//! Issue 38, item 6 (and the run sheet's part of item 1), through the
//! real binary: a campaign's pack reads as a pack for the table. Its
//! "Previously" is a recap that fits the run sheet's first page for a
//! party of five after five eventful sessions, on A4 and on letter; the
//! tracks show damage already taken; the Heal Checks due print with their
//! odds, and a Heal made at the table and recorded is rolled by nobody;
//! an encounter without foes is a compact card; no page holds only a
//! spill-over; the After-the-session sheet has a place for every key of a
//! record; a journey dropped because the party is already there says so.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tablewright::campaign::record::{Fate, PcRecord, Record};

use crate::common::{run_in, stderr, stdout, temp_dir};

/// Run in `dir`, expect success, return stdout.
fn ok_in(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Session `n`'s pack.json: its pack.
fn pack(camp: &Path, n: usize) -> Value {
    let text = read(&camp.join(format!("out/session-{n}/pack.json")));
    serde_json::from_str::<Value>(&text).unwrap()["pack"].clone()
}

/// Two more PCs for `init`'s party of three: a party of five.
const TWO_MORE: &str = "\n[[mettle]]\nname = \"Dorran\"\nNATURE = 3\nCULTURE = 3\nPOISE = 3\n\
MOTIVE = 3\nFRAME = 3\ncallings = [{ name = \"Drover\", dice = 4 }]\n\
weapons = [{ name = \"club\", dm = 2 }]\n\n[[mettle]]\nname = \"Elspeth\"\nNATURE = 2\n\
CULTURE = 3\nPOISE = 3\nMOTIVE = 3\nFRAME = 2\ncallings = [{ name = \"Scribe\", dice = 4 }]\n\
weapons = [{ name = \"knife\", dm = 1 }]\n";

/// A METTLE campaign from `init` (a party of three, or five with
/// `five`), its seed replaced by `seed` when given.
fn campaign(label: &str, five: bool, seed: Option<&str>) -> (PathBuf, PathBuf) {
    let base = temp_dir(label);
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    if five {
        let party = camp.join("party.toml");
        std::fs::write(&party, read(&party) + TWO_MORE).unwrap();
        let plan = camp.join("sessions/1/plan.toml");
        let text = read(&plan).replace(
            "vouchers = [\"Ada\", \"Brannoc\", \"Cress\"]",
            "vouchers = [\"Ada\", \"Brannoc\", \"Cress\", \"Dorran\", \"Elspeth\"]",
        );
        std::fs::write(&plan, text).unwrap();
    }
    if let Some(seed) = seed {
        let file = camp.join("campaign.toml");
        let text = read(&file).replace("seed = \"across-the-salt\"", &format!("seed = \"{seed}\""));
        std::fs::write(&file, text).unwrap();
    }
    (base, camp)
}

/// `(current, maximum)` of a start line `Mettle 3 of 7; Afflicted`.
fn mettle_of(line: &str) -> (i64, i64) {
    let rest = line.strip_prefix("Mettle ").unwrap();
    let (now, rest) = rest.split_once(" of ").unwrap();
    let max: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (now.parse().unwrap(), max.parse().unwrap())
}

/// Session `k`'s record, eventful: two days on, one leg of the planned
/// journey walked, every encounter met, a voucher spent, money gained or
/// spent, and every PC hurt or given a status (or one cured); a PC whose
/// damage takes them to 0 or below gets a Heal made at the table
/// (`heal_edge = 2`), so nobody dies and the ledger rolls no Heal.
fn eventful_record(camp: &Path, k: usize) {
    let p = pack(camp, k);
    let c = &p["campaign"];
    let after = &c["after"];
    let mut out = vec![
        format!("session = {k}"),
        format!("day = {}", c["day"].as_u64().unwrap() + 2),
        format!("money = {}", if k % 2 == 1 { 30 } else { -10 }),
    ];
    let legs = after["legs"].as_array().unwrap();
    if legs.len() > 1 {
        out.push(format!("stop = {}", legs[1]));
    }
    let met: Vec<String> = (1..=p["encounters"].as_array().unwrap().len())
        .map(|i| format!("\"encounter/{i}\""))
        .collect();
    out.push(format!("met = [{}]", met.join(", ")));
    if let Some(v) = after["vouchers"].as_array().unwrap().first() {
        out.push(format!("vouchers_spent = [{}]", v[0]));
    }
    for (i, pc) in after["pcs"].as_array().unwrap().iter().enumerate() {
        let (name, start) = (pc[0].as_str().unwrap(), pc[1].as_str().unwrap());
        let (now, _) = mettle_of(start);
        let damage = [2, 3, 9, 1, 4][(i + k) % 5];
        out.push(format!("[[pc]]\nname = \"{name}\"\ndamage = {damage}"));
        if now - damage <= 0 {
            out.push("heal_edge = 2".into());
        }
        match (start.contains("Afflicted"), (i + k) % 3) {
            (false, 0) => out.push("statuses = [\"Afflicted\"]".into()),
            (true, 1) => out.push("cured = [\"Afflicted\"]".into()),
            _ => {}
        }
    }
    let dir = camp.join(format!("sessions/{k}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("record.toml"), out.join("\n") + "\n").unwrap();
}

/// The pages of a PDF's text (`None` without poppler-utils).
fn pages(pdf: &Path) -> Option<Vec<String>> {
    let text = crate::pdf::text_of(pdf)?;
    Some(text.split('\u{c}').map(str::to_owned).collect())
}

/// Whitespace folded to single spaces (pdftotext breaks lines where the
/// page does).
fn folded(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A party of five played for five eventful sessions, then session 6
/// prepped on A4 and on letter: "Previously" — each PC's change and
/// state, the start, vouchers, Heal Checks — sits on the run sheet's
/// first page with the ladder, and the first encounter starts page 2.
/// Session 2's and session 6's packs hold no page with only a spill-over
/// (the run sheet's last track or ladder, the GM map's trail).
#[test]
fn previously_fits_the_first_page_for_five_after_five_eventful_sessions() {
    let (base, camp) = campaign("table-pack-five", true, None);
    for k in 1..=5 {
        ok_in(&camp, &["prep"]);
        eventful_record(&camp, k);
    }
    ok_in(&camp, &["prep"]);
    ok_in(&camp, &["prep", "6", "--paper", "letter"]);
    ok_in(&camp, &["prep", "2", "--paper", "letter"]);
    let p6 = pack(&camp, 6);
    let recap = &p6["campaign"]["recap"];
    let pcs = recap["pcs"].as_array().unwrap();
    assert_eq!(pcs.len(), 5, "{recap}");
    // Eventful: most of the party changed over session 5.
    let changed: Vec<&Value> = pcs.iter().filter(|p| p["change"] != "no change").collect();
    assert!(changed.len() >= 3, "{recap:#}");
    // The ledger's audit stays in `campaign`, not in the pack: no line
    // cites a rule (the lines kept for older templates are the recap's).
    let old_lines = p6["campaign"]["previously"].as_array().unwrap();
    assert!(!old_lines.is_empty());
    for line in old_lines {
        let line = line.as_str().unwrap();
        assert!(
            !line.contains("(METTLE") && !line.contains("(record"),
            "{line}"
        );
    }
    let md = read(&camp.join("out/session-6/pack.md"));
    for pc in pcs {
        let name = pc["name"].as_str().unwrap();
        assert!(md.contains(&format!("- **{name}**: ")), "{name}: {md}");
    }
    for paper in ["pack.pdf", "pack-letter.pdf"] {
        let Some(pages) = pages(&camp.join("out/session-6").join(paper)) else {
            continue;
        };
        let first = folded(&pages[0]);
        assert!(first.contains("Previously"), "{paper}: {first}");
        assert!(
            first.contains("Session 6 starts on day"),
            "{paper}: {first}"
        );
        assert!(first.contains("Heal Checks"), "{paper}: {first}");
        assert!(first.contains("Initiative ladder"), "{paper}: {first}");
        for pc in &changed {
            let line = format!("Last session: {}", pc["change"].as_str().unwrap());
            assert!(
                first.contains(&line),
                "{paper}: {line} not on page 1: {first}"
            );
        }
        // Vouchers in hand: by serial, or (many) counted by holder.
        let vouchers = recap["vouchers"].as_array().unwrap();
        if vouchers.len() > 6 {
            let held: Vec<&str> = recap["held"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_str().unwrap())
                .collect();
            let line = format!("Vouchers in hand: {} ({};", vouchers.len(), held.join(", "));
            assert!(first.contains(&line), "{paper}: {line}: {first}");
        } else {
            for v in vouchers {
                assert!(first.contains(v.as_str().unwrap()), "{paper}: {v}: {first}");
            }
        }
        assert!(
            pages[1].trim_start().starts_with("Encounter 1:"),
            "{paper}: page 2 is not the first encounter: {}",
            pages[1]
        );
    }
    for (n, paper) in [
        (2, "pack.pdf"),
        (2, "pack-letter.pdf"),
        (6, "pack.pdf"),
        (6, "pack-letter.pdf"),
    ] {
        no_spill_over_pages(&camp.join(format!("out/session-{n}")).join(paper));
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// No page of `pdf` holds only the tail of the page before: every page
/// but a section's first has more than a footer and a few lines, and the
/// GM map (whose trail grows every session) keeps to one page.
fn no_spill_over_pages(pdf: &Path) {
    let Some(pages) = pages(pdf) else {
        return;
    };
    let starts = |i: usize, title: &str| {
        pages
            .get(i)
            .is_some_and(|p| p.trim_start().starts_with(title))
    };
    let map = (0..pages.len())
        .find(|&i| starts(i, "Point-crawl map · map/1"))
        .expect("a GM map");
    assert!(
        starts(map + 1, "Point-crawl map (players)"),
        "{}: the GM map runs onto a second page: {}",
        pdf.display(),
        pages[map + 1]
    );
    for (i, page) in pages.iter().enumerate() {
        let lines: Vec<&str> = page.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.is_empty() {
            continue; // after the last page
        }
        // A footer (the share line) and at least five more lines.
        assert!(
            lines.len() > 5,
            "{} page {}: only a spill-over: {page}",
            pdf.display(),
            i + 1
        );
    }
}

/// The keys a record may hold, at its top level and in `[[pc]]`, from a
/// record with every one of them given. Every field is named (no
/// `..Default::default()`), so a key added to the record fails to compile
/// here until it is added, and then this test until the sheet has it.
fn record_keys() -> (Vec<String>, Vec<String>) {
    let pc = PcRecord {
        name: "Ada".into(),
        damage: 1,
        conditions: vec!["frightened".into()],
        injuries: vec!["roll".into()],
        mutations: vec!["roll".into()],
        corruption: 1,
        omens: 1,
        lowered: [("STR".to_owned(), 1)].into_iter().collect(),
        statuses: vec!["Afflicted".into()],
        hungry: Some(1),
        thirsty: Some(1),
        cured: vec!["Afflicted".into()],
        heal_edge: Some(1),
        heal_twist: true,
        healer: Some("Cress".into()),
        fate: Some(Fate::Dead),
        remains: true,
    };
    let record = Record {
        session: 1,
        day: 1,
        stop: Some("Ashford".into()),
        settlement: Some(true),
        full_rest: Some(false),
        met: vec!["encounter/1".into()],
        npcs_met: vec!["npc/1".into()],
        vouchers_spent: vec!["AC-0001".into()],
        money: 1,
        rations: Some(1),
        water: Some(1),
        helped: vec!["Ashford".into()],
        slain: vec!["encounter/1".into()],
        pcs: vec![pc],
        joined: vec![toml::Table::new()],
    };
    let json = serde_json::to_value(&record).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    (keys(&json), keys(&json["pc"][0]))
}

/// Whether an After sheet's text gives `key` a place: the key in
/// parentheses or backticks after its label (`Mettle lost (damage)`),
/// `key =` (`session = 2`), or a table's `[[key]]`.
fn has_place(text: &str, key: &str) -> bool {
    [
        format!("({key}"),
        format!(" {key})"),
        format!("`{key}`"),
        format!("`{key} "),
        format!("{key} ="),
        format!("[[{key}]]"),
    ]
    .iter()
    .any(|p| text.contains(p.as_str()))
}

/// The After-the-session part of a pack's Markdown and (with poppler)
/// PDF text.
fn after_texts(dir: &Path) -> Vec<(String, String)> {
    let md = read(&dir.join("pack.md"));
    let at = md
        .find("## After the session")
        .expect("an After the session sheet");
    let mut out = vec![("pack.md".to_owned(), md[at..].to_owned())];
    if let Some(pages) = pages(&dir.join("pack.pdf")) {
        let text: String = pages
            .iter()
            .skip_while(|p| !p.trim_start().starts_with("After the session"))
            .cloned()
            .collect();
        assert!(!text.is_empty(), "no After the session page");
        out.push(("pack.pdf".to_owned(), folded(&text)));
    }
    out
}

/// Every key of a record has a place on the After-the-session sheet of
/// the system it belongs to, in pack.md and pack.pdf: together the METTLE
/// and Core sheets hold every key, and each holds those both systems use.
#[test]
fn every_record_key_has_a_place_on_the_after_sheet() {
    let (top, pc) = record_keys();
    // The keys only one system's records take (the ledger refuses them in
    // the other).
    let mettle_only = [
        "hungry",
        "thirsty",
        "vouchers_spent",
        "statuses",
        "heal_edge",
        "heal_twist",
        "healer",
    ];
    let core_only = [
        "full_rest",
        "conditions",
        "injuries",
        "mutations",
        "corruption",
        "omens",
        "lowered",
        "remains",
    ];
    let base = temp_dir("table-pack-keys");
    ok_in(&base, &["init", "mettle"]);
    ok_in(&base, &["init", "core", "--system", "core"]);
    for (folder, skip) in [("mettle", &core_only[..]), ("core", &mettle_only[..])] {
        let camp = base.join(folder);
        ok_in(&camp, &["prep"]);
        for (file, text) in after_texts(&camp.join("out/session-1")) {
            for key in top.iter().chain(&pc) {
                if skip.contains(&key.as_str()) {
                    continue;
                }
                assert!(
                    has_place(&text, key),
                    "{folder} {file}: no place for `{key}` on the After sheet:\n{text}"
                );
            }
        }
    }
    // Every key is one system's or both.
    assert!(top.len() + pc.len() >= 28, "{top:?} {pc:?}");
    std::fs::remove_dir_all(&base).unwrap();
}

/// Session 1 of `init`'s campaign: Ada falls to Mettle −2 and a Heal made
/// at the table leaves her stable with no Edge. Session 2's run sheet
/// shows her track all filled (Markdown ☒, the PDF's label) and her Heal
/// Check due — healer, dice against Difficulty 3, odds with and without
/// the Twist — and the ledger rolled nothing for her.
#[test]
fn damage_taken_fills_the_track_and_the_heal_check_due_prints() {
    let (base, camp) = campaign("table-pack-track", false, None);
    ok_in(&camp, &["prep"]);
    let record = "session = 1\nday = 2\n\n[[pc]]\nname = \"Ada\"\ndamage = 9\nheal_edge = 0\n";
    std::fs::write(camp.join("sessions/1/record.toml"), record).unwrap();
    ok_in(&camp, &["prep"]);
    let p2 = pack(&camp, 2);
    let ada = p2["campaign"]["recap"]["pcs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Ada")
        .unwrap()
        .clone();
    // Mettle 7 − 9 = −2: every box of seven lost.
    assert_eq!(ada["level"], -2, "{ada}");
    assert_eq!(ada["taken"], 7, "{ada}");
    let md = read(&camp.join("out/session-2/pack.md"));
    assert!(md.contains("Mettle −2 of 7: ☒☒☒☒☒☒☒\n"), "{md}");
    // The others are whole: no box filled.
    assert!(md.contains("Mettle 8: ☐☐☐☐☐☐☐☐\n"), "{md}");
    // Cress, the standing PC with the largest CULTURE (4), heals her.
    let due = "Ada (Mettle −2, stable): by Cress, 4D vs 3 — 55.32% to live (86.33% with a Twist)";
    assert!(md.contains(due), "{md}");
    if let Some(pages) = pages(&camp.join("out/session-2/pack.pdf")) {
        let first = folded(&pages[0]);
        assert!(first.contains("Mettle −2 of 7"), "{first}");
        assert!(first.contains(due), "{first}");
        assert!(first.contains("record heal_edge"), "{first}");
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// Ada's changes in session 1's ledger, from `campaign --json`.
fn changes_of(camp: &Path, who: &str) -> Vec<String> {
    let json: Value = serde_json::from_str(&ok_in(camp, &["campaign", "--json"])).unwrap();
    json["sessions"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["who"] == who)
        .map(|c| c["what"].as_str().unwrap().to_owned())
        .collect()
}

/// A record that gives a Heal's result (`heal_edge`, `heal_twist`) means
/// the ledger rolls nothing: the change names the Heal made at the table,
/// no Heal Check is rolled, and two campaigns whose seeds differ (so
/// would roll differently) fold the same record to the same changes.
#[test]
fn a_recorded_heal_result_means_the_ledger_rolls_nothing() {
    let record = "session = 1\nday = 2\n\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\n\
                  heal_edge = 1\nheal_twist = true\n";
    let mut seen = Vec::new();
    for seed in ["across-the-salt", "another-salt"] {
        let (base, camp) = campaign(&format!("table-pack-heal-{seed}"), false, Some(seed));
        ok_in(&camp, &["prep"]);
        std::fs::write(camp.join("sessions/1/record.toml"), record).unwrap();
        let changes = changes_of(&camp, "Brannoc");
        assert!(
            changes.contains(&"Heal Check made at the table: success after a Twist, Edge 1".into()),
            "{changes:#?}"
        );
        assert!(
            !changes.iter().any(|c| c.starts_with("Heal Check by")),
            "{changes:#?}"
        );
        // Mettle −2 back above zero at Edge 1 a day: three days.
        assert!(
            changes
                .iter()
                .any(|c| c.starts_with("Mettle -2 → 1 after 3 days' rest")),
            "{changes:#?}"
        );
        seen.push(changes);
        std::fs::remove_dir_all(&base).unwrap();
    }
    assert_eq!(seen[0], seen[1]);
    // Left out, the ledger rolls it (and says so): the record decides.
    let (base, camp) = campaign("table-pack-heal-rolled", false, None);
    ok_in(&camp, &["prep"]);
    let rolled = "session = 1\nday = 2\n\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\n";
    std::fs::write(camp.join("sessions/1/record.toml"), rolled).unwrap();
    let changes = changes_of(&camp, "Brannoc");
    assert!(
        changes.iter().any(|c| c.starts_with("Heal Check by Cress")),
        "{changes:#?}"
    );
    std::fs::remove_dir_all(&base).unwrap();
}

/// Session 1 of `init`'s campaign has a trader and no foes: a compact card
/// (its situation, who is on stage, a line for what came of it), no zones,
/// no odds grid, no initiative.
#[test]
fn an_encounter_without_foes_is_a_compact_card() {
    let (base, camp) = campaign("table-pack-card", false, None);
    ok_in(&camp, &["prep"]);
    let p1 = pack(&camp, 1);
    let k = p1["encounters"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["foes"].as_array().unwrap().is_empty())
        .expect("session 1 has an encounter without foes");
    let title = format!(
        "Encounter {}: {}",
        k + 1,
        p1["encounters"][k]["situation"]["row"].as_str().unwrap()
    );
    if let Some(pages) = pages(&camp.join("out/session-1/pack.pdf")) {
        let page = pages
            .iter()
            .find(|p| p.trim_start().starts_with(&title))
            .unwrap_or_else(|| panic!("no page has {title}"));
        let at = page.find(&title).unwrap();
        // The card runs from its title to the next section (or the notes).
        let card = &page[at..];
        let card = &card[..card.find("Notes").unwrap_or(card.len())];
        assert!(card.contains("no foes"), "{card}");
        assert!(card.contains("What came of it"), "{card}");
        for battle in [
            "Zones (",
            "Odds of one attack",
            "Terrain cards",
            "Initiative:",
        ] {
            assert!(!card.contains(battle), "{battle} on the card: {card}");
        }
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// A plan whose `to` is where the party already is: no journey, and the
/// run sheet (PDF and Markdown) and pack.json say why.
#[test]
fn a_journey_dropped_because_the_party_is_there_says_so() {
    let (base, camp) = campaign("table-pack-there", false, None);
    ok_in(&camp, &["prep"]);
    let stop = pack(&camp, 1)["campaign"]["stop"]
        .as_str()
        .unwrap()
        .to_owned();
    // Session 1 ends where it began; session 2's plan heads there.
    std::fs::write(
        camp.join("sessions/1/record.toml"),
        "session = 1\nday = 2\n",
    )
    .unwrap();
    let plan = read(&camp.join("sessions/1/plan.toml"))
        .replace("to = \"goal\"", &format!("to = \"{stop}\""));
    std::fs::create_dir_all(camp.join("sessions/2")).unwrap();
    std::fs::write(camp.join("sessions/2/plan.toml"), plan).unwrap();
    ok_in(&camp, &["prep"]);
    let p2 = pack(&camp, 2);
    assert!(p2["journey"].is_null(), "{}", p2["journey"]);
    let note = p2["campaign"]["journey_note"].as_str().unwrap().to_owned();
    assert!(
        note.starts_with(&format!(
            "No journey this session: the party is already at {stop}"
        )),
        "{note}"
    );
    assert!(note.contains("sessions/2/plan.toml"), "{note}");
    let md = read(&camp.join("out/session-2/pack.md"));
    assert!(
        md.contains("No journey this session: the party is already at"),
        "{md}"
    );
    if let Some(pages) = pages(&camp.join("out/session-2/pack.pdf")) {
        assert!(folded(&pages[0]).contains(&note), "{}", pages[0]);
    }
    // A plan that goes somewhere gets no note.
    assert!(pack(&camp, 1)["campaign"].get("journey_note").is_none());
    std::fs::remove_dir_all(&base).unwrap();
}
