//! Issue 38, item 8: traps chosen and sized for the party they are made
//! for, each PC's exact odds printed with the trap, the run sheet's flag
//! for a trap that can kill a PC outright, and era tags (`era:<name>`) a
//! campaign declares, so a medieval campaign is never handed a claymore.

use serde_json::Value;

use crate::common::{Test, run_in, stderr, stdout};

/// `gen trap --json` items for a party, `count` of them on seed `seed`.
fn traps(party: &str, system: &str, count: usize, seed: &str) -> Vec<Value> {
    let n = count.to_string();
    let run = Test::new()
        .args([
            "--seed", seed, "--json", "gen", "trap", "--system", system, "--party", party,
            "--count", &n,
        ])
        .run()
        .succeeds();
    let json: Value = serde_json::from_str(&run.stdout()).unwrap();
    json["items"].as_array().unwrap().clone()
}

/// The pool of a METTLE hazard (`4D+3` → 4), or the rung of a Core
/// damage roll on the ladder (`d8!` → 3).
fn size(t: &Value) -> i64 {
    if let Some(h) = t["hazard"].as_str() {
        return h.split('D').next().unwrap().parse().unwrap();
    }
    let ladder = [
        "d4! impaired",
        "d4!",
        "d6!",
        "d8!",
        "d10!",
        "d12!",
        "d12! enhanced",
    ];
    let d = t["damage"].as_str().unwrap_or("");
    ladder.iter().position(|r| *r == d).map_or(-1, |i| i as i64)
}

/// The table's roll a trap was sized from (its own when not sized).
fn table_roll(t: &Value) -> Value {
    match &t["fit"]["table_roll"] {
        Value::Null if t["hazard"].is_null() => t["damage"].clone(),
        Value::Null => t["hazard"].clone(),
        roll => roll.clone(),
    }
}

#[test]
fn a_weak_party_gets_smaller_traps_than_a_strong_one() {
    for (system, weak, strong) in [
        ("mettle", "2,2,2", "6,6,6,6"),
        ("core", "6,6,6", "14,14,14,14"),
    ] {
        let weak = traps(weak, system, 60, "fitted");
        let strong = traps(strong, system, 60, "fitted");
        let (mut compared, mut smaller) = (0, 0);
        for (w, s) in weak.iter().zip(&strong) {
            // The same trap drawn for both (the first draw fitted both):
            // the weak party's is never the bigger.
            if table_roll(w) == table_roll(s) && w["trail"] == s["trail"] && size(w) >= 0 {
                compared += 1;
                assert!(size(w) <= size(s), "{system}: {w} vs {s}");
                if size(w) < size(s) {
                    smaller += 1;
                }
            }
            // Every trap says how it fits and gives each PC's odds.
            for t in [w, s] {
                let fit = &t["fit"];
                assert!(fit.is_object(), "{t}");
                let pcs = fit["pcs"].as_array().unwrap();
                assert!(pcs.is_empty() || pcs.len() >= 3, "{t}");
            }
        }
        assert!(
            compared >= 20,
            "{system}: only {compared} traps drawn alike"
        );
        assert!(
            smaller * 2 >= compared,
            "{system}: {smaller} of {compared} smaller"
        );
    }
}

#[test]
fn most_fitted_traps_land_in_the_fair_band() {
    for (system, party) in [("mettle", "3,4,4,5"), ("core", "9,10,12,11")] {
        let items = traps(party, system, 80, "band");
        let measured: Vec<&Value> = items
            .iter()
            .filter(|t| t["fit"]["measure"] != "none")
            .collect();
        let fair = measured
            .iter()
            .filter(|t| t["fit"]["verdict"] == "fair")
            .count();
        assert!(measured.len() >= 60, "{system}");
        assert!(
            fair * 10 >= measured.len() * 8,
            "{system}: {fair} of {}",
            measured.len()
        );
    }
}

#[test]
fn the_card_text_and_trap_file_print_each_pcs_odds() {
    let run = Test::new()
        .args([
            "--seed",
            "odds-line",
            "gen",
            "trap",
            "--party",
            "3,4,5",
            "--count",
            "6",
        ])
        .run()
        .succeeds();
    let out = run.stdout();
    assert!(
        out.contains("| PC (POISE) | hit | expected damage |"),
        "{out}"
    );
    for pc in ["| PC 1 (3) |", "| PC 2 (4) |", "| PC 3 (5) |"] {
        assert!(out.contains(pc), "{pc}: {out}");
    }
    assert!(out.contains("- Fit: "), "{out}");
}

/// A session file with `traps` traps for `party`.
fn session(party: &str, traps: usize) -> String {
    format!(
        "title = \"Traps\"\nseed = \"deadly\"\nparty = \"{party}\"\nterrain = \"ruins\"\n\
         encounters = 0\ntraps = {traps}\nnpcs = 0\n"
    )
}

#[test]
fn the_run_sheet_flags_exactly_the_traps_that_can_kill() {
    let mut flagged = 0;
    let mut quiet = 0;
    for party in ["1,1,2", "2,3,3", "5,6,6"] {
        let t = Test::new().file("session.toml", session(party, 8));
        t.run_with(&["prep", "session.toml", "--out", "out"])
            .succeeds();
        let dir = crate::common::only_entry(&t.path().join("out"));
        let md = std::fs::read_to_string(dir.join("pack.md")).unwrap();
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("pack.json")).unwrap()).unwrap();
        for (i, trap) in json["pack"]["traps"].as_array().unwrap().iter().enumerate() {
            let at = format!("trap/{} {}", i + 1, trap["name"].as_str().unwrap());
            let can_kill: Vec<&Value> = trap["fit"]["pcs"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["kills"].as_f64().unwrap() > 0.0)
                .collect();
            let line = md
                .lines()
                .find(|l| l.contains(&at) && l.contains("Deadly trap"));
            match (can_kill.is_empty(), line) {
                (true, None) => quiet += 1,
                (false, Some(line)) => {
                    flagged += 1;
                    for p in can_kill {
                        let name = p["pc"].as_str().unwrap();
                        assert!(line.contains(name), "{line} misses {name}");
                    }
                }
                (empty, line) => panic!("{at}: can kill: {}; line {line:?}", !empty),
            }
        }
    }
    assert!(
        flagged >= 3 && quiet >= 3,
        "{flagged} flagged, {quiet} quiet"
    );
}

/// A campaign folder made by `init`, its `campaign.toml` given `extra`
/// lines at the top, and `files` written in it.
fn campaign(extra: &str, files: &[(&str, &str)]) -> Test {
    let t = Test::named("camp");
    t.run_with(&["init", "camp"]).succeeds();
    let path = t.path().join("camp/campaign.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{extra}{text}")).unwrap();
    for (name, text) in files {
        t.write(&format!("camp/{name}"), text);
    }
    t
}

/// Rules traps drawn in a campaign folder (in `terrain`, or one drawn for
/// each trap): their names.
fn rules_traps(t: &Test, terrain: Option<&str>) -> Vec<String> {
    let mut args = vec![
        "--seed", "eras", "gen", "trap", "--from", "rules", "--count", "300",
    ];
    if let Some(terrain) = terrain {
        args.extend(["--terrain", terrain]);
    }
    let o = run_in(&t.path().join("camp"), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .filter_map(|l| l.strip_prefix("### Trap: "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_medieval_campaign_is_never_handed_a_claymore() {
    let medieval = rules_traps(&campaign("era = \"medieval\"\n", &[]), None);
    assert_eq!(medieval.len(), 300);
    assert!(!medieval.iter().any(|n| n == "Anti-personnel mine"));
    // Rows without an era fit every era: over terrains wild and built,
    // the other four all come.
    for name in ["Flooding room", "Pitfall", "Scything blade", "Tripwire"] {
        assert!(medieval.iter().any(|n| n == name), "{name}");
    }
    // No era declared: every row that fits the place. Underground (built)
    // has four, the mine among them, so a quarter of the time, as in a
    // modern campaign (300 draws at 1/4: mean 75, sd 7.5; five sd either
    // way).
    for extra in ["", "era = \"modern\"\n"] {
        let drawn = rules_traps(&campaign(extra, &[]), Some("underground"));
        assert!(
            !drawn.iter().any(|n| n == "Tripwire"),
            "{extra:?}: a tripwire round a camp underground"
        );
        let mines = drawn.iter().filter(|n| *n == "Anti-personnel mine").count();
        assert!((38..=112).contains(&mines), "{extra:?}: {mines}");
    }
}

/// `odds --table` in a campaign folder (its era in effect).
fn trap_odds(t: &Test) -> String {
    let o = run_in(&t.path().join("camp"), &["odds", "--table", "mettle.traps"]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn odds_print_the_rows_a_roll_lands_on_with_no_era_and_with_one() {
    let none = trap_odds(&campaign("", &[]));
    assert!(
        none.lines()
            .any(|l| l.contains("20.00%") && l.ends_with("Anti-personnel mine")),
        "{none}"
    );
    let medieval = trap_odds(&campaign("era = \"medieval\"\n", &[]));
    let mine = medieval
        .lines()
        .find(|l| l.ends_with("Anti-personnel mine"))
        .unwrap();
    assert!(
        mine.contains("not drawn (tagged era:modern; the era declared is `medieval`)"),
        "{medieval}"
    );
    for name in ["Flooding room", "Pitfall", "Scything blade", "Tripwire"] {
        assert!(
            medieval
                .lines()
                .any(|l| l.contains("25.00%") && l.ends_with(name)),
            "{name}: {medieval}"
        );
    }
}

/// A table of four weighted rows, two of them tagged for eras.
const ERA_TABLE: &str = "[[table]]\nid = \"my.weapons\"\ntitle = \"Weapons\"\nsystem = \"any\"\n\
source = \"mine\"\n\n[[table.row]]\nweight = 1\nname = \"Sword\"\ntext = \"A sword.\"\n\n\
[[table.row]]\nweight = 1\nname = \"Bow\"\ntext = \"A bow.\"\n\n[[table.row]]\nweight = 1\n\
name = \"Musket\"\ntext = \"A musket.\"\ntags = [\"era:early-modern\", \"era:modern\"]\n\n\
[[table.row]]\nweight = 1\nname = \"Rifle\"\ntext = \"A rifle.\"\ntags = [\"era:modern\"]\n";

fn drawn(t: &Test) -> Vec<String> {
    let o = run_in(
        &t.path().join("camp"),
        &["--seed", "w", "table", "my.weapons", "--times", "400"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(str::to_owned).collect()
}

#[test]
fn era_tags_on_a_fixture_table_draw_only_the_declared_eras() {
    let files = [("content/weapons.toml", ERA_TABLE)];
    let count = |lines: &[String], name: &str| lines.iter().filter(|l| l.contains(name)).count();
    let medieval = drawn(&campaign("era = \"medieval\"\n", &files));
    assert_eq!(count(&medieval, "Musket") + count(&medieval, "Rifle"), 0);
    assert!(count(&medieval, "Sword") > 150 && count(&medieval, "Bow") > 150);
    let early = drawn(&campaign("era = \"early-modern\"\n", &files));
    assert_eq!(count(&early, "Rifle"), 0);
    assert!(count(&early, "Musket") > 90, "{}", count(&early, "Musket"));
    let modern = drawn(&campaign("era = \"modern\"\n", &files));
    assert!(count(&modern, "Musket") > 60 && count(&modern, "Rifle") > 60);
}

#[test]
fn a_bad_era_tag_is_refused_at_its_line() {
    for bad in ["era:Modern", "eras:modern", "era:"] {
        let table = ERA_TABLE.replace("era:modern\"]\n", &format!("{bad}\"]\n"));
        let t = campaign("", &[("content/weapons.toml", &table)]);
        let o = run_in(&t.path().join("camp"), &["validate"]);
        assert_eq!(o.status.code(), Some(1), "{bad}");
        let err = stderr(&o);
        assert!(err.contains("weapons.toml:17:1"), "{bad}: {err}");
        assert!(
            err.contains("era:<name>") || err.contains("era:modern"),
            "{err}"
        );
    }
}

#[test]
fn a_campaign_era_that_is_no_name_is_refused_at_its_line() {
    let t = campaign("era = \"Middle Ages\"\n", &[]);
    let o = run_in(&t.path().join("camp"), &["validate"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("campaign.toml:1"), "{err}");
    assert!(
        err.contains("era = \"Middle Ages\" is not an era's name"),
        "{err}"
    );
    assert!(err.contains("era = \"medieval\""), "{err}");
}

#[test]
fn a_campaign_era_no_table_names_is_a_warning() {
    let t = campaign("era = \"medival\"\n", &[]);
    let o = run_in(&t.path().join("camp"), &["validate"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("warning: "), "{out}");
    assert!(out.contains("campaign.toml:1"), "{out}");
    assert!(
        out.contains("no table row is tagged `era:medival`"),
        "{out}"
    );
    assert!(out.contains("modern"), "{out}");
}

#[test]
fn a_table_with_nothing_for_the_era_is_named() {
    let table = "[[table]]\nid = \"my.guns\"\ntitle = \"Guns\"\nsystem = \"any\"\nsource = \"m\"\n\n\
[[table.row]]\nweight = 1\nname = \"Rifle\"\ntext = \"A rifle.\"\ntags = [\"era:modern\"]\n";
    let t = campaign(
        "era = \"medieval\"\n",
        &[
            ("content/guns.toml", table),
            ("content/weapons.toml", ERA_TABLE),
        ],
    );
    let camp = t.path().join("camp");
    let o = run_in(&camp, &["validate"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("guns.toml:2: every row of `my.guns`"), "{out}");
    let o = run_in(&camp, &["table", "my.guns"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("every row of `my.guns` is tagged for another era"),
        "{err}"
    );
    assert!(err.contains("`medieval`"), "{err}");
}
