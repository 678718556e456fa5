//! Issue 51: a ledger that does not drift. Each finding pinned through
//! the real binary: every journey address a pack prints is accepted by
//! the record check; one reachability rule for the journey, `play`'s
//! arrival and the record; supplies conserved to the unit; a smaller
//! party never dead-ends `prep`; serials derived from what they name.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{run_in, stderr, stdout, temp_dir};

/// A campaign folder driven through the binary.
pub(crate) struct Camp {
    pub dir: PathBuf,
}

impl Camp {
    /// `init camp` (METTLE) with the campaign seed `seed`.
    pub(crate) fn init(label: &str, seed: &str) -> Camp {
        let base = temp_dir(label);
        let o = run_in(&base, &["init", "camp"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let camp = Camp {
            dir: base.join("camp"),
        };
        let file = camp.read("campaign.toml").replacen(
            "seed = \"across-the-salt\"",
            &format!("seed = \"{seed}\""),
            1,
        );
        camp.write("campaign.toml", &file);
        camp
    }

    /// Run; the exit code, stdout and stderr.
    pub(crate) fn run(&self, args: &[&str]) -> (Option<i32>, String, String) {
        let o = run_in(&self.dir, args);
        (o.status.code(), stdout(&o), stderr(&o))
    }

    #[track_caller]
    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run(args);
        assert_eq!(code, Some(0), "`{}`: {err}\n{out}", args.join(" "));
        out
    }

    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub(crate) fn write(&self, rel: &str, text: &str) {
        let at = self.dir.join(rel);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, text).unwrap();
    }

    pub(crate) fn pack(&self, n: u32) -> Value {
        let text = self.read(&format!("out/session-{n}/pack.json"));
        serde_json::from_str::<Value>(&text).unwrap()["pack"].clone()
    }

    /// `record N`, then each `(key line start, new line)` replaced in it.
    pub(crate) fn record(&self, n: u32, edits: &[(&str, String)]) -> String {
        self.ok(&["record", &n.to_string(), "--force"]);
        let rel = format!("sessions/{n}/record.toml");
        let mut lines: Vec<String> = self.read(&rel).lines().map(str::to_owned).collect();
        for (start, new) in edits {
            match lines.iter().position(|l| l.starts_with(start)) {
                Some(i) => lines[i] = new.clone(),
                None => {
                    let first_pc = lines
                        .iter()
                        .position(|l| l == "[[pc]]")
                        .unwrap_or(lines.len());
                    lines.insert(first_pc, new.clone());
                }
            }
        }
        let text = lines.join("\n") + "\n";
        self.write(&rel, &text);
        text
    }
}

/// Every journey encounter address session `n`'s pack prints.
pub(crate) fn journey_addresses(pack: &Value) -> Vec<String> {
    let k = pack["journey"]["encounters"].as_array().map_or(0, Vec::len);
    (1..=k)
        .map(|i| format!("journey/1/encounter/{i}"))
        .collect()
}

pub(crate) fn toml_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|a| format!("\"{a}\"")).collect();
    format!("[{}]", quoted.join(", "))
}

// ----- Finding 1: every printed address is accepted -----

#[test]
fn every_journey_address_the_pack_prints_is_accepted_by_the_record_check() {
    // Seed "g": session 1 leaves 2 rations and 8 water. The pack of
    // session 2 is made with them; the check once made it again from the
    // campaign's starting supplies and another capacity, so its journey
    // met other encounters and refused the printed addresses.
    let camp = Camp::init("drift-addresses", "g");
    camp.ok(&["prep"]);
    camp.record(
        1,
        &[
            ("# rations =", "rations = 2".into()),
            ("# water =", "water = 8".into()),
        ],
    );
    camp.ok(&["prep"]);
    let met = journey_addresses(&camp.pack(2));
    assert!(!met.is_empty());
    let record = camp.record(2, &[("met =", format!("met = {}", toml_list(&met)))]);
    for a in &met {
        assert!(record.contains(&format!("#   {a}:")), "{record}");
    }
    let (code, _, err) = camp.run(&["campaign"]);
    assert_eq!(code, Some(0), "{err}");
}

/// The first line of session `n`'s journey log.
fn setting_out(pack: &Value) -> String {
    pack["journey"]["days"][0]["entries"][0]
        .as_str()
        .unwrap()
        .to_owned()
}

// ----- Finding 3: supplies conserved to the unit -----

#[test]
fn the_next_journey_starts_with_what_the_record_left_to_the_unit() {
    // 10 rations and 10 water for 3 PCs were "3 each" (9 and 9).
    let camp = Camp::init("drift-rounding", "across-the-salt");
    camp.ok(&["prep"]);
    camp.record(
        1,
        &[
            ("# rations =", "rations = 10".into()),
            ("# water =", "water = 10".into()),
        ],
    );
    camp.ok(&["prep"]);
    let line = setting_out(&camp.pack(2));
    assert!(
        line.contains("The party carries 10 rations and 10 units of water between them"),
        "{line}"
    );
    let first = &camp.pack(2)["journey"]["watches"][0];
    assert_eq!(first["rations"], 10, "{first}");
}

#[test]
fn a_pc_who_sits_out_takes_no_share_of_the_supplies_away() {
    // Ada at 0 Mettle or below sits out session 2: with 2 rations and 8
    // water the journey started with 1 and 4.
    let camp = Camp::init("drift-sitting-out", "across-the-salt");
    camp.ok(&["prep"]);
    let record = camp.record(
        1,
        &[
            ("# rations =", "rations = 2".into()),
            ("# water =", "water = 8".into()),
        ],
    );
    // Beaten to Mettle -2, healed at the table to stable without Edge.
    let record = record.replacen("damage = 0", "damage = 9\nheal_edge = 0", 1);
    camp.write("sessions/1/record.toml", &record);
    camp.ok(&["prep"]);
    let pack = camp.pack(2);
    let line = setting_out(&pack);
    assert!(
        line.contains("carries 2 rations and 8 units of water between them"),
        "{line}"
    );
    assert!(!line.contains("Ada leads"), "{line}");
}

// ----- Finding 2: a smaller party never dead-ends `prep` -----

#[test]
fn a_smaller_party_carries_what_its_skins_cannot_hold_as_load() {
    // water = 12 and a PC dead: 6 a PC for two PCs who hold 4 each
    // (party.toml's water_capacity) was "carry less or raise the
    // capacity", a dead end.
    let camp = Camp::init("drift-capacity", "across-the-salt");
    camp.ok(&["prep"]);
    let record = camp.record(
        1,
        &[
            ("# rations =", "rations = 6".into()),
            ("# water =", "water = 12".into()),
        ],
    );
    let record = record.replacen(
        "# fate = \"dead\"          # or \"left\" (the PC died or left)",
        "fate = \"dead\"",
        1,
    );
    camp.write("sessions/1/record.toml", &record);
    camp.ok(&["prep"]);
    let line = setting_out(&camp.pack(2));
    assert!(
        line.contains("12 units of water between them (room for 4 a PC; 4 units over what their skins hold, carried as load until drunk)"),
        "{line}"
    );
}
