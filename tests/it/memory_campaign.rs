//! Issue 38, item 3: a campaign remembers what it used. A METTLE campaign
//! whose every encounter (the pack's and those on the way) comes from the
//! campaign's own five-row `saltflats` table, played for six sessions
//! through the real binary: no situation repeats while the table has
//! unused rows, `prep` says once that it is used up, no NPC card repeats a
//! name and none is named like a PC, a journey encounter is recorded met by
//! the address the After-the-session sheet prints (a wrong one refused at
//! its line and column, with the right address offered), and an NPC
//! brought back is recorded met by the address the sheet prints for them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{run_in, stderr, stdout, temp_dir};

/// Run in `dir`, expect success, return (stdout, stderr).
fn ok_in(dir: &Path, args: &[&str]) -> (String, String) {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// Run in `dir`, expect bad input (exit 1), return stderr.
fn refused_in(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stdout(&o));
    stderr(&o)
}

/// Session `n`'s pack.json: its pack.
fn pack(camp: &Path, n: usize) -> Value {
    let text = std::fs::read_to_string(camp.join(format!("out/session-{n}/pack.json"))).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["pack"].clone()
}

/// A fresh METTLE campaign whose map is all salt flats, so that every
/// encounter is drawn from the campaign's own table.
fn campaign(name: &str) -> PathBuf {
    let base = temp_dir(name);
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    let file = camp.join("campaign.toml");
    let text = std::fs::read_to_string(&file).unwrap().replace(
        "terrains = [\"saltflats\", \"road\", \"hills\"]",
        "terrains = [\"saltflats\"]",
    );
    assert!(text.contains("terrains = [\"saltflats\"]"), "{text}");
    std::fs::write(&file, text).unwrap();
    camp
}

/// The rows of the campaign's situation table, by name.
fn saltflats_rows(camp: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(camp.join("content/saltflats.toml")).unwrap();
    let doc: toml::Value = toml::from_str(&text).unwrap();
    let table = doc["table"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"].as_str() == Some("gen.encounter.saltflats"))
        .expect("the campaign's encounter table");
    table["row"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Every situation a pack used, in order: its encounters', then those
/// on the way.
fn situations(p: &Value) -> Vec<String> {
    let mut out: Vec<String> = p["encounters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["situation"]["row"].as_str().unwrap().to_owned())
        .collect();
    if let Some(j) = p["journey"].as_object() {
        out.extend(j["encounters"].as_array().unwrap().iter().map(|e| {
            e["encounter"]["situation"]["row"]
                .as_str()
                .unwrap()
                .to_owned()
        }));
    }
    out
}

/// Every personal name in a pack: NPC cards, people on stage, foes (on the
/// way too).
fn names(p: &Value) -> Vec<String> {
    let mut encounters: Vec<&Value> = p["encounters"].as_array().unwrap().iter().collect();
    if let Some(j) = p["journey"].as_object() {
        encounters.extend(
            j["encounters"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| &e["encounter"]),
        );
    }
    let people = encounters.iter().flat_map(|e| {
        e["foes"]
            .as_array()
            .unwrap()
            .iter()
            .chain(e["others"].as_array().unwrap())
    });
    p["npcs"]
        .as_array()
        .unwrap()
        .iter()
        .chain(people)
        .map(|n| n["name"].as_str().unwrap().to_owned())
        .collect()
}

/// `record N` written, its lines starting with each key replaced.
fn record(camp: &Path, n: usize, edits: &[(&str, String)]) -> PathBuf {
    ok_in(camp, &["record", &n.to_string(), "--force"]);
    let path = camp.join(format!("sessions/{n}/record.toml"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for (start, new) in edits {
        let at = lines
            .iter()
            .position(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line starts with {start:?} in\n{text}"));
        lines[at] = new.clone();
    }
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// The day a pack's session starts on.
fn day(p: &Value) -> u64 {
    p["campaign"]["day"].as_u64().unwrap()
}

#[test]
fn six_sessions_repeat_no_situation_while_rows_remain_and_say_once_when_used_up() {
    let camp = campaign("memory-six");
    let rows = saltflats_rows(&camp);
    assert_eq!(rows.len(), 5, "{rows:?}");
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut cards: BTreeSet<String> = BTreeSet::new();
    let mut notes = Vec::new();
    let mut repeats_allowed = 0;
    for n in 1..=6 {
        let (_, err) = ok_in(&camp, &["prep"]);
        notes.extend(
            err.lines()
                .filter(|l| l.contains("gen.encounter.saltflats"))
                .map(|l| (n, l.to_owned())),
        );
        let p = pack(&camp, n);
        let used = situations(&p);
        let mut this: BTreeSet<String> = BTreeSet::new();
        for s in &used {
            assert!(rows.contains(s), "session {n}: {s} is not a saltflats row");
            this.insert(s.clone());
        }
        // A repeat of an earlier pack's situation only once every row is
        // used, counting this pack's own.
        let all: BTreeSet<String> = seen.union(&this).cloned().collect();
        for s in &used {
            if seen.contains(s) {
                assert_eq!(
                    all, rows,
                    "session {n} repeats {s} while the table has unused rows (used: {seen:?})"
                );
                repeats_allowed += 1;
            }
        }
        seen.extend(this);
        // No NPC card repeats an earlier pack's name, and no person in the
        // pack is named like a PC, by given or family name.
        for card in p["npcs"].as_array().unwrap() {
            let name = card["name"].as_str().unwrap().to_owned();
            assert!(cards.insert(name.clone()), "session {n} repeats NPC {name}");
        }
        for name in names(&p) {
            for word in name.split(' ') {
                assert!(
                    !["Ada", "Brannoc", "Cress"].contains(&word),
                    "session {n}: {name} is named like a PC"
                );
            }
        }
        record(&camp, n, &[("day =", format!("day = {}", day(&p) + 1))]);
    }
    assert_eq!(seen, rows, "six sessions use every row");
    assert!(
        repeats_allowed > 0,
        "the table never ran out: the test tests nothing"
    );
    assert_eq!(notes.len(), 1, "said once: {notes:?}");
    assert!(notes[0].1.contains("may repeat"), "{notes:?}");
    // The same note, and the same packs, when session 2 is made again.
    let (_, again) = ok_in(&camp, &["prep", &notes[0].0.to_string()]);
    assert!(again.contains("gen.encounter.saltflats"), "{again}");
    let (verified, _) = ok_in(&camp, &["verify"]);
    assert_eq!(verified.matches("ok: all").count(), 6, "{verified}");
}

#[test]
fn a_journey_encounter_is_an_item_recorded_by_its_address() {
    let camp = campaign("memory-journey");
    ok_in(&camp, &["prep"]);
    let p = pack(&camp, 1);
    let on_the_way = p["journey"]["encounters"].as_array().unwrap();
    assert!(!on_the_way.is_empty(), "session 1 meets nothing on the way");
    let first = &on_the_way[0]["encounter"];
    assert!(
        first["layout"]["zones"]
            .as_array()
            .is_some_and(|z| !z.is_empty())
    );
    assert!(first["threat"]["verdict"].is_string());
    // The After-the-session sheet lists it by address, as `record` does.
    let after = &p["campaign"]["after"]["items"];
    let listed: Vec<&str> = after
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i[0].as_str().unwrap())
        .collect();
    assert!(listed.contains(&"journey/1/encounter/1"), "{listed:?}");
    let pdf = std::fs::read(camp.join("out/session-1/pack.pdf")).unwrap();
    assert!(pdf.len() > 1000);
    // A wrong address is refused at its place, the right one offered.
    let path = record(
        &camp,
        1,
        &[
            ("day =", "day = 2".into()),
            ("met =", "met = [\"journey/1/encounter/9\"]".into()),
        ],
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text.lines().position(|l| l.starts_with("met =")).unwrap() + 1;
    let err = refused_in(&camp, &["prep"]);
    assert!(
        err.contains(&format!("sessions/1/record.toml:{line}:8:"))
            && err.contains("no item `journey/1/encounter/9`"),
        "{err}"
    );
    assert!(
        err.contains("did you mean `journey/1/encounter/1`?"),
        "{err}"
    );
    record(
        &camp,
        1,
        &[
            ("day =", "day = 2".into()),
            ("met =", "met = [\"journey/1/encounter/1\"]".into()),
        ],
    );
    ok_in(&camp, &["prep"]);
    let (json, _) = ok_in(&camp, &["campaign", "--json"]);
    let ledger: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        ledger["sessions"][0]["met"],
        serde_json::json!(["journey/1/encounter/1"])
    );
}

#[test]
fn a_returning_npc_is_recorded_met_by_the_address_the_sheet_prints() {
    let camp = campaign("memory-returning");
    ok_in(&camp, &["prep"]);
    let rook = pack(&camp, 1)["npcs"][1]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    record(&camp, 1, &[("day =", "day = 2".into())]);
    let plan = std::fs::read_to_string(camp.join("sessions/1/plan.toml")).unwrap();
    std::fs::create_dir_all(camp.join("sessions/2")).unwrap();
    std::fs::write(
        camp.join("sessions/2/plan.toml"),
        format!("{plan}\nbring_back = [\"npc/2 of session 1\"]\n"),
    )
    .unwrap();
    ok_in(&camp, &["prep"]);
    let address = "npc/2 of session 1";
    let p2 = pack(&camp, 2);
    let printed: Vec<(String, String)> = p2["campaign"]["after"]["npcs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e[0].as_str().unwrap().into(), e[1].as_str().unwrap().into()))
        .collect();
    assert!(
        printed.contains(&(address.into(), rook.clone())),
        "{printed:?}"
    );
    // A wrong session is refused, and the hint offers the printed address
    // (not `npc/2`, the session's own second NPC).
    let path = record(
        &camp,
        2,
        &[
            ("day =", "day = 3".into()),
            ("npcs_met =", "npcs_met = [\"npc/2 of session 3\"]".into()),
        ],
    );
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains(&format!("#   {address}: {rook}"))
    );
    let err = refused_in(&camp, &["prep"]);
    assert!(err.contains("sessions/2/record.toml:"), "{err}");
    assert!(err.contains(&format!("did you mean `{address}`?")), "{err}");
    record(
        &camp,
        2,
        &[
            ("day =", "day = 3".into()),
            ("npcs_met =", format!("npcs_met = [\"{address}\"]")),
        ],
    );
    ok_in(&camp, &["prep"]);
    let (json, _) = ok_in(&camp, &["campaign", "--json"]);
    let ledger: Value = serde_json::from_str(&json).unwrap();
    let met = ledger["now"]["npcs_met"].as_array().unwrap();
    assert!(
        met.iter()
            .any(|m| m["name"] == rook.as_str() && m["address"] == "npc/2" && m["session"] == 1),
        "{met:?}"
    );
    let changes = ledger["sessions"][1]["changes"].to_string();
    assert!(
        changes.contains(&format!("met {rook}, brought back")),
        "{changes}"
    );
}

/// The "They reach" lines of session `n`'s journey log.
fn reach_lines(p: &Value) -> Vec<String> {
    p["journey"]["days"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["entries"].as_array().unwrap().iter())
        .filter_map(|e| e.as_str().filter(|l| l.starts_with("They reach ")))
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_stop_the_party_comes_back_to_says_what_moved_on_not_its_hook_again() {
    let camp = campaign("memory-since");
    let mut hooks: BTreeSet<String> = BTreeSet::new();
    let mut since: Vec<String> = Vec::new();
    let mut comebacks = 0;
    // Issue 50: session 1's record says the party dealt with the trouble
    // where it arrived; coming back there tells what came of it.
    let mut helped: Option<String> = None;
    let mut helped_comebacks = 0;
    for n in 1..=4 {
        // There and back: the goal, then the map's start, then the goal.
        let to = if n % 2 == 1 { "goal" } else { "1" };
        std::fs::create_dir_all(camp.join(format!("sessions/{n}"))).unwrap();
        let plan = std::fs::read_to_string(camp.join("sessions/1/plan.toml")).unwrap();
        let plan = plan.replace("to = \"goal\"", &format!("to = \"{to}\""));
        std::fs::write(camp.join(format!("sessions/{n}/plan.toml")), plan).unwrap();
        ok_in(&camp, &["prep", &n.to_string()]);
        let p = pack(&camp, n);
        for line in reach_lines(&p) {
            let ignored = line.split_once(". Since they were last here, ");
            let dealt = line.split_once(". Since they dealt with its trouble, ");
            if let Some(h) = &helped {
                let here = line.starts_with(&format!("They reach {h} ("));
                assert_eq!(
                    dealt.is_some(),
                    here && ignored.is_none() && line.contains(". Since "),
                    "{line}"
                );
                helped_comebacks += usize::from(dealt.is_some());
            }
            match ignored.or(dealt) {
                Some((_, text)) => {
                    comebacks += 1;
                    since.push(text.to_owned());
                }
                None => {
                    if let Some((_, hook)) = line.split_once("): ") {
                        assert!(
                            hooks.insert(hook.to_owned()),
                            "session {n} tells a hook again: {line}"
                        );
                    }
                }
            }
        }
        let arrived = p["journey"]["to"].as_str().unwrap().to_owned();
        let last = p["journey"]["days"].as_array().unwrap().last().unwrap()["day"]
            .as_u64()
            .unwrap();
        let mut keys = vec![
            ("day =", format!("day = {}", last + 1)),
            ("stop =", format!("stop = \"{arrived}\"")),
        ];
        if n == 1 {
            keys.push(("# helped =", format!("helped = [\"{arrived}\"]")));
            helped = Some(arrived.clone());
        }
        record(&camp, n, &keys);
    }
    assert!(
        helped_comebacks >= 1,
        "the party never came back to where it helped"
    );
    assert!(
        comebacks >= 4,
        "the party came back to only {comebacks} stops"
    );
    let mut unique = since.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        since.len(),
        "a development told twice: {since:?}"
    );
    let (verified, _) = ok_in(&camp, &["verify"]);
    assert_eq!(verified.matches("ok: all").count(), 4, "{verified}");
}

/// The people of a pack who could die, as a record's `slain` names them:
/// the address of each encounter (on the way too) whose foes have a named
/// leader who is a person, and of each NPC card.
fn mortals(p: &Value) -> Vec<String> {
    let mut encounters: Vec<(String, &Value)> = p["encounters"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, e)| (format!("encounter/{}", i + 1), e))
        .collect();
    if let Some(j) = p["journey"].as_object() {
        encounters.extend(
            j["encounters"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .map(|(k, e)| (format!("journey/1/encounter/{}", k + 1), &e["encounter"])),
        );
    }
    let led = |e: &Value| {
        e["foes"].as_array().unwrap().iter().any(|f| {
            f.get("want").is_some() && ["human", "townsfolk"].contains(&f["kind"].as_str().unwrap())
        })
    };
    let cards = (1..=p["npcs"].as_array().unwrap().len()).map(|i| format!("npc/{i}"));
    encounters
        .into_iter()
        .filter(|(_, e)| led(e))
        .map(|(at, _)| at)
        .chain(cards)
        .collect()
}

/// Issue 50: the people a record says died (`slain`) never come back.
/// A name the campaign says the party met before is a person's: a beast
/// or monster goes by its kind and a number (`Wolf 1`), which any pack
/// may use again without a note. The starter campaign's wolves and salt
/// wights come back by session 3.
#[test]
fn only_peoples_names_are_said_to_come_again() {
    let camp = campaign("memory-labels");
    let (mut repeats, mut labels) = (0, BTreeMap::<String, usize>::new());
    for n in 1..=6 {
        let (_, err) = ok_in(&camp, &["prep"]);
        assert!(
            !err.contains("names the party met before"),
            "session {n}: {err}"
        );
        let p = pack(&camp, n);
        let on_stage: Vec<&Value> = p["encounters"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|e| {
                e["foes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .chain(e["others"].as_array().unwrap())
            })
            .collect();
        let person = |f: &Value| ["human", "townsfolk"].contains(&f["kind"].as_str().unwrap());
        let people: BTreeSet<String> = on_stage
            .iter()
            .filter(|f| person(f))
            .map(|f| f["name"].as_str().unwrap().to_owned())
            .collect();
        let here: BTreeSet<String> = on_stage
            .iter()
            .filter(|f| !person(f))
            .map(|f| f["name"].as_str().unwrap().to_owned())
            .collect();
        for l in here {
            *labels.entry(l).or_default() += 1;
        }
        for r in p["campaign"]["repeats"].as_array().into_iter().flatten() {
            if r["what"] == "name" && r["address"].as_str().unwrap().starts_with("encounter/") {
                repeats += 1;
                assert!(
                    people.contains(r["text"].as_str().unwrap()),
                    "session {n}: {r}"
                );
            }
        }
        record(&camp, n, &[("day =", format!("day = {}", day(&p) + 1))]);
    }
    eprintln!("people's names said to come again: {repeats}");
    // The test shows something: a beast's label came in two sessions.
    assert!(labels.values().any(|&k| k >= 2), "{labels:?}");
}

/// Ten sessions through the binary; the records of the odd ones list
/// every person of their packs as slain (by address), the even ones
/// nobody: people come back into later encounters, and never one who
/// died; `campaign --json` lists the dead.
#[test]
fn the_people_a_record_says_died_never_come_back() {
    let base = temp_dir("memory-slain");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    // A seed whose ten sessions bring people back (one encounter in five
    // does, once anyone can come: the starter seed's draws never do).
    let file = std::fs::read_to_string(camp.join("campaign.toml")).unwrap();
    let file = file.replacen("seed = \"across-the-salt\"", "seed = \"third\"", 1);
    assert!(file.contains("seed = \"third\""), "{file}");
    std::fs::write(camp.join("campaign.toml"), file).unwrap();
    let (mut dead, mut back) = (BTreeSet::new(), 0);
    for n in 1..=10 {
        if n > 1 {
            std::fs::create_dir_all(camp.join(format!("sessions/{n}"))).unwrap();
            let plan = std::fs::read_to_string(camp.join("sessions/1/plan.toml")).unwrap();
            std::fs::write(camp.join(format!("sessions/{n}/plan.toml")), plan).unwrap();
        }
        ok_in(&camp, &["prep", &n.to_string()]);
        let p = pack(&camp, n);
        for e in p["encounters"].as_array().unwrap() {
            if let Some(r) = e.get("returning") {
                let name = r["name"].as_str().unwrap();
                assert!(!dead.contains(name), "session {n}: {name} died, yet: {r}");
                back += 1;
            }
        }
        let mut keys = vec![("day =", format!("day = {}", day(&p) + 1))];
        if n % 2 == 1 {
            let slain = mortals(&p);
            let named: Vec<String> = slain.iter().map(|a| format!("{a:?}")).collect();
            keys.push(("slain =", format!("slain = [{}]", named.join(", "))));
            dead.extend(people_named(&p, &slain));
        }
        record(&camp, n, &keys);
    }
    assert!(dead.len() >= 8, "only {} died: {dead:?}", dead.len());
    assert!(back >= 1, "nobody came back: the test shows nothing");
    let (out, _) = ok_in(&camp, &["campaign", "--json"]);
    let ledger: Value = serde_json::from_str(&out).unwrap();
    let listed: BTreeSet<String> = ledger["now"]["slain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(listed, dead);
}

/// The names of the people at `addresses` of a pack (an encounter's: its
/// leader who is a person).
fn people_named(p: &Value, addresses: &[String]) -> Vec<String> {
    let leader = |e: &Value| {
        e["foes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f.get("want").is_some())
            .map(|f| f["name"].as_str().unwrap().to_owned())
    };
    addresses
        .iter()
        .filter_map(|a| {
            if let Some(i) = a.strip_prefix("npc/") {
                let i: usize = i.parse().unwrap();
                return Some(p["npcs"][i - 1]["name"].as_str().unwrap().to_owned());
            }
            if let Some(k) = a.strip_prefix("journey/1/encounter/") {
                let k: usize = k.parse().unwrap();
                return leader(&p["journey"]["encounters"][k - 1]["encounter"]);
            }
            let i: usize = a.strip_prefix("encounter/").unwrap().parse().unwrap();
            leader(&p["encounters"][i - 1])
        })
        .collect()
}
