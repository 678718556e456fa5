//! Issue 38's must-show: a ten-session METTLE campaign and a six-session
//! Core campaign played through the real binary as a GM would — `init`,
//! plans, `prep`, each record written from `record N` with the mistakes a
//! GM makes (each refused at its file, line and column, then fixed) — and
//! what the issue promises asserted on them: the Twist that saves a PC, no
//! second Heal roll for a stable PC, a PC at 0 Mettle in no journey role
//! or fitting, one `prep --force` re-making every stale pack, the GM's
//! edited sheet kept by `--force`. Each campaign is played once (a
//! `OnceLock`) and shared; a test that changes it works on a copy.
//!
//! Then campaign memory: no repeated situation or NPC name (none named
//! like a PC), a journey encounter recorded by its address, a returning
//! NPC recorded by the address the sheet prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::common::{run_in, stderr, stdout, temp_dir};

// ----------------------------------------------------------------------
// The harness: a campaign folder, a command's answer, a record builder.
// ----------------------------------------------------------------------

/// What one command said.
#[derive(Debug, Clone)]
struct Said {
    args: String,
    code: Option<i32>,
    out: String,
    err: String,
}

impl Said {
    fn context(&self) -> String {
        format!(
            "`tablewright {}`: exit {:?}\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.args, self.code, self.err, self.out
        )
    }
}

/// A campaign folder, driven through the binary.
#[derive(Debug, Clone)]
struct Camp {
    dir: PathBuf,
}

impl Camp {
    /// `tablewright init camp ARGS…` in a fresh folder.
    fn init(label: &str, args: &[&str]) -> Camp {
        let base = temp_dir(label);
        let camp = Camp {
            dir: base.join("camp"),
        };
        let mut all = vec!["init", "camp"];
        all.extend(args);
        Camp { dir: base }.ok(&all);
        camp
    }

    /// The whole folder copied into a fresh one: for a test that changes
    /// it (the shared campaign stays as played).
    fn copy(&self, label: &str) -> Camp {
        let to = temp_dir(label).join("camp");
        copy_dir(&self.dir, &to);
        Camp { dir: to }
    }

    fn run(&self, args: &[&str]) -> Said {
        let o = run_in(&self.dir, args);
        Said {
            args: args.join(" "),
            code: o.status.code(),
            out: stdout(&o),
            err: stderr(&o),
        }
    }

    /// Run, expect success.
    #[track_caller]
    fn ok(&self, args: &[&str]) -> Said {
        let said = self.run(args);
        assert_eq!(said.code, Some(0), "expected success: {}", said.context());
        said
    }

    /// Run, expect exit 1 (the input refused) and no panic.
    #[track_caller]
    fn refused(&self, args: &[&str]) -> Said {
        let said = self.run(args);
        assert_eq!(said.code, Some(1), "expected a refusal: {}", said.context());
        assert!(!said.err.contains("panicked"), "{}", said.context());
        said
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    fn read(&self, rel: &str) -> String {
        let at = self.path(rel);
        std::fs::read_to_string(&at).unwrap_or_else(|e| panic!("{}: {e}", at.display()))
    }

    fn write(&self, rel: &str, text: &str) {
        let at = self.path(rel);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, text).unwrap();
    }

    /// Session `n`'s pack.json: its pack.
    fn pack(&self, n: usize) -> Value {
        let text = self.read(&format!("out/session-{n}/pack.json"));
        serde_json::from_str::<Value>(&text).unwrap()["pack"].clone()
    }

    /// Session `n`'s pack.md.
    fn pack_md(&self, n: usize) -> String {
        self.read(&format!("out/session-{n}/pack.md"))
    }

    /// `campaign --json`.
    fn ledger(&self) -> Value {
        serde_json::from_str(&self.ok(&["campaign", "--json"]).out).unwrap()
    }

    /// A plan of session `n`'s own.
    fn plan(&self, n: usize, text: &str) {
        self.write(&format!("sessions/{n}/plan.toml"), text);
    }

    /// `record N`, ready to be filled in.
    fn record(&self, n: usize) -> Record<'_> {
        self.ok(&["record", &n.to_string()]);
        let rel = format!("sessions/{n}/record.toml");
        Record {
            camp: self,
            text: self.read(&rel),
            prefilled: self.read(&rel),
            rel,
            n,
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The 1-based line and column (in characters) where `token` first
/// appears in `text`; with a `|` in it, of the place the `|` marks
/// (`heal_twist = |true`: the value).
fn line_col(text: &str, token: &str) -> (usize, usize) {
    let (before, after) = token.split_once('|').unwrap_or(("", token));
    let at = text
        .find(&format!("{before}{after}"))
        .unwrap_or_else(|| panic!("{token:?} not in {text}"))
        + before.len();
    let line = text[..at].matches('\n').count() + 1;
    let start = text[..at].rfind('\n').map_or(0, |s| s + 1);
    (line, text[start..at].chars().count() + 1)
}

/// One session's record as the GM fills it in, from the pre-filled
/// `record N`: keys replaced, PCs' entries edited, mistakes written and
/// refused, then `prep` for the next session.
struct Record<'a> {
    camp: &'a Camp,
    n: usize,
    rel: String,
    prefilled: String,
    text: String,
}

impl Record<'_> {
    /// The first line `key = …` (or the commented-out `# key = …`) made
    /// `key = value`.
    fn set(mut self, key: &str, value: &str) -> Self {
        self.text = set_key(&self.text, key, value);
        self
    }

    /// PC `name`'s `[[pc]]` entry with its keys set (added after `name`
    /// when the entry has no such line).
    fn pc(mut self, name: &str, keys: &[(&str, &str)]) -> Self {
        let start = self
            .text
            .find(&format!("name = \"{name}\""))
            .unwrap_or_else(|| panic!("no [[pc]] {name} in {}", self.text));
        let end = self.text[start..]
            .find("\n[[")
            .map_or(self.text.len(), |e| start + e);
        let mut block = self.text[start..end].to_owned();
        for (key, value) in keys {
            if block
                .lines()
                .any(|l| l.starts_with(&format!("{key} =")) || l.starts_with(&format!("# {key} =")))
            {
                block = set_key(&block, key, value);
            } else {
                let eol = block.find('\n').unwrap_or(block.len());
                block.insert_str(eol, &format!("\n{key} = {value}"));
            }
        }
        self.text = format!("{}{block}{}", &self.text[..start], &self.text[end..]);
        self
    }

    /// Text added at the end (a `[[pc]]` the pre-fill has not, a
    /// `[[joined]]`).
    fn append(mut self, more: &str) -> Self {
        self.text.push_str(more);
        self
    }

    /// Text taken out (a slip undone).
    fn remove(mut self, text: &str) -> Self {
        assert!(self.text.contains(text), "{text:?} not in {}", self.text);
        self.text = self.text.replacen(text, "", 1);
        self
    }

    /// The GM's slip: `from` written as `to`, refused as
    /// [`Record::refused_at`] says; then the fix (the record as it was
    /// before the slip).
    #[track_caller]
    fn mistake(mut self, from: &str, to: &str, at: &str, says: &[&str]) -> Self {
        assert!(self.text.contains(from), "{from:?} not in {}", self.text);
        let fixed = std::mem::take(&mut self.text);
        // The slip is in a line of its own, not in a comment.
        let i = fixed
            .find(&format!("\n{from}"))
            .map_or_else(|| fixed.find(from).unwrap(), |i| i + 1);
        self.text = format!("{}{to}{}", &fixed[..i], &fixed[i + from.len()..]);
        self = self.refused_at(at, says);
        self.text = fixed;
        self
    }

    /// The record as it is written, and `prep` refuses it at the file,
    /// line and column of `at` (its first place in the text), saying each
    /// of `says`, and makes nothing.
    #[track_caller]
    fn refused_at(self, at: &str, says: &[&str]) -> Self {
        let text = self.write();
        let said = self.camp.refused(&["prep"]);
        let (line, col) = line_col(&text, at);
        let place = format!("{}:{line}:{col}: ", self.rel);
        assert!(
            said.err.contains(&place),
            "session {}: {at:?} is not refused at {place}: {}",
            self.n,
            said.context()
        );
        for piece in says {
            assert!(
                said.err.contains(piece),
                "session {}: the refusal at {place} lacks {piece:?}: {}",
                self.n,
                said.context()
            );
        }
        let next = self.camp.path(&format!("out/session-{}", self.n + 1));
        assert!(
            !next.exists(),
            "session {}: a refused record still made {}",
            self.n,
            next.display()
        );
        self
    }

    /// The record written as it is now; its text.
    fn write(&self) -> String {
        self.camp.write(&self.rel, &self.text);
        self.text.clone()
    }

    /// The record written, then `prep` makes the next session.
    #[track_caller]
    fn played(self) -> Played {
        self.write();
        let prep = self.camp.ok(&["prep"]);
        Played {
            prefilled: self.prefilled,
            prep,
        }
    }

    /// The last record written, and `campaign` reads it.
    #[track_caller]
    fn recorded(self) -> Played {
        self.write();
        let prep = self.camp.ok(&["campaign"]);
        Played {
            prefilled: self.prefilled,
            prep,
        }
    }
}

/// Where the party ends a session: the journey's next stop, or where it
/// is when the pack has no journey.
fn onward(p: &Value) -> String {
    if legs(p).len() > 1 {
        next_stop(p)
    } else {
        p["campaign"]["stop"].to_string()
    }
}

/// The day a session ends on: three days after its pack's start.
fn end_day(p: &Value) -> String {
    (p["campaign"]["day"].as_u64().unwrap() + 3).to_string()
}

/// A session played: its record as `record N` pre-filled it, and what
/// the `prep` of the next session (for the last, `campaign`) said.
#[derive(Debug, Clone)]
struct Played {
    prefilled: String,
    prep: Said,
}

/// `text` with its first line `key = …` (or `# key = …`) replaced.
fn set_key(text: &str, key: &str, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(&format!("{key} =")))
        .or_else(|| {
            lines
                .iter()
                .position(|l| l.starts_with(&format!("# {key} =")))
        })
        .unwrap_or_else(|| panic!("no line {key} = … in {text}"));
    lines[at] = format!("{key} = {value}");
    lines.join("\n") + "\n"
}

/// The stops of a pack's journey, in order (none without a journey).
fn legs(p: &Value) -> Vec<String> {
    let Some(legs) = p["journey"]["legs"].as_array() else {
        return Vec::new();
    };
    let mut out = vec![legs[0]["from"].as_str().unwrap().to_owned()];
    out.extend(legs.iter().map(|l| l["to"].as_str().unwrap().to_owned()));
    out
}

/// The next stop of a pack's journey, where the party ends the session.
fn next_stop(p: &Value) -> String {
    let legs = legs(p);
    assert!(legs.len() > 1, "the pack has no journey: {}", p["journey"]);
    format!("\"{}\"", legs[1])
}

/// The serials of a pack's own vouchers, with their holders.
fn vouchers(p: &Value) -> Vec<(String, String)> {
    p["vouchers"]
        .as_array()
        .map(|v| {
            v.iter()
                .map(|v| {
                    (
                        v["serial"].as_str().unwrap().to_owned(),
                        v["holder"].as_str().unwrap().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The vouchers in hand now, with their holders.
fn in_hand(ledger: &Value) -> Vec<(String, String)> {
    ledger["now"]["vouchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["serial"].as_str().unwrap().to_owned(),
                v["holder"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Session `n`'s changes in the ledger, as `who: what`.
fn changes(ledger: &Value, n: usize) -> Vec<String> {
    ledger["sessions"][n - 1]["changes"]
        .as_array()
        .unwrap_or_else(|| panic!("session {n} has no changes: {ledger}"))
        .iter()
        .map(|c| {
            format!(
                "{}: {}",
                c["who"].as_str().unwrap(),
                c["what"].as_str().unwrap()
            )
        })
        .collect()
}

/// The build of a shared campaign: played once, or the message of why
/// it could not be (every test then fails with it, rather than playing
/// it again).
fn shared<T>(cell: &'static OnceLock<Result<T, String>>, play: fn() -> T) -> &'static T {
    let built = cell.get_or_init(|| {
        std::panic::catch_unwind(play).map_err(|e| {
            e.downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default()
        })
    });
    match built {
        Ok(t) => t,
        Err(why) => panic!("the campaign could not be played: {why}"),
    }
}

// ----------------------------------------------------------------------
// The METTLE campaign: ten sessions.
// ----------------------------------------------------------------------

/// The METTLE campaign's seed. Found by trying `salt-road-1`, `-2`, … in
/// order with this campaign's session 2 (Brannoc down to -2, Cress's 4D
/// Heal Check vs 3 in downtime): 1, 2, 5 and 6 pass without a Twist, 3
/// and 4 fail with Edge and fail again after the Twist (he dies), and 7
/// is the first whose check fails with Edge and whose Twist saves him.
const METTLE_SEED: &str = "salt-road-7";

/// The METTLE campaign as played: `played[k]` is session `k + 1`'s
/// record and the `prep` after it; `prep1` the first `prep`.
struct Mettle {
    camp: Camp,
    prep1: Said,
    played: Vec<Played>,
    ledger: Value,
}

fn mettle() -> &'static Mettle {
    static CELL: OnceLock<Result<Mettle, String>> = OnceLock::new();
    shared(&CELL, play_mettle)
}

/// Ten sessions, each a day or a few, the party on the move; what each
/// session's record says is in its comment.
fn play_mettle() -> Mettle {
    let camp = Camp::init("long-mettle", &[]);
    let toml = camp.read("campaign.toml");
    camp.write(
        "campaign.toml",
        &toml.replacen(
            "seed = \"across-the-salt\"",
            &format!("seed = \"{METTLE_SEED}\""),
            1,
        ),
    );
    let prep1 = camp.ok(&["prep"]);
    let mut played = Vec::new();

    // 1: Ada takes 5, Cress is Afflicted; Ada spends her voucher. The
    // GM misspells Brannoc.
    let p = camp.pack(1);
    let v1 = vouchers(&p);
    played.push(
        camp.record(1)
            .set("day", &end_day(&p))
            .set("stop", &next_stop(&p))
            .set("met", "[\"encounter/1\"]")
            .set("npcs_met", "[\"npc/2\"]")
            .set("vouchers_spent", &format!("[\"{}\"]", v1[0].0))
            .set("money", "30")
            .pc("Ada", &[("damage", "5")])
            .pc("Cress", &[("statuses", "[\"Afflicted\"]")])
            .mistake(
                "name = \"Brannoc\"",
                "name = \"Brannok\"",
                "\"Brannok\"",
                &["Brannok is not in the party", "did you mean `Brannoc`?"],
            )
            .played(),
    );

    // 2: Brannoc falls to -2; the Heal Check in downtime (Cress, 4D vs 3)
    // fails with Edge and the Twist saves him. The GM first writes Ada's
    // voucher, spent in session 1, as spent again.
    let p = camp.pack(2);
    played.push(
        camp.record(2)
            .set("day", &end_day(&p))
            .set("stop", &next_stop(&p))
            .set("vouchers_spent", &format!("[\"{}\"]", v1[1].0))
            .pc("Brannoc", &[("damage", "9")])
            .mistake(
                &format!("[\"{}\"]", v1[1].0),
                &format!("[\"{}\"]", v1[0].0),
                &format!("\"{}\"", v1[0].0),
                &[&v1[0].0],
            )
            .played(),
    );

    // 3: Ada falls to -3 and is made stable at the table (a Heal with no
    // Edge); Cress's Affliction is cured. The GM first writes the map's
    // start as the stop (two sessions back) and forgets the day.
    // Session 4 gets a plan of its own: back toward the start, vouchers
    // for Ada (at -3 by then: none) and Cress.
    camp.plan(
        4,
        "terrain = \"saltflats\"\nencounters = 2\ntraps = 1\nnpcs = 2\nvouchers = [\"Ada\", \"Cress\"]\nto = 1\n",
    );
    let p = camp.pack(3);
    let home = format!("\"{}\"", p["map"]["stops"][0]["name"].as_str().unwrap());
    played.push(
        camp.record(3)
            .set("stop", &home)
            .refused_at(
                &home,
                &[
                    &format!(
                        "the party could not have reached {}",
                        home.trim_matches('"')
                    ),
                    "fix `stop`, or `day`",
                ],
            )
            .set("stop", &next_stop(&p))
            .set("day", &end_day(&p))
            .pc("Ada", &[("damage", "10"), ("heal_edge", "0")])
            .pc("Cress", &[("cured", "[\"Afflicted\"]")])
            .played(),
    );

    // 4: Ada, stable, is not hurt; Brannoc takes 2 — the GM first
    // misspells `damage`.
    let p = camp.pack(4);
    played.push(
        camp.record(4)
            .set("day", &end_day(&p))
            .set("stop", &next_stop(&p))
            .pc("Brannoc", &[("damage", "2")])
            .mistake(
                "damage = 2",
                "damgae = 2",
                "damgae",
                &["unknown field `damgae`", "did you mean `damage`?"],
            )
            .played(),
    );

    // 5: Ada, still stable and not hurt again, is healed at the table
    // (Edge 2). The GM first misspells the stop.
    let p = camp.pack(5);
    let stop5 = next_stop(&p);
    let typo = stop5.replacen(|c: char| c.is_ascii_lowercase(), "", 1);
    played.push(
        camp.record(5)
            .set("day", &end_day(&p))
            .set("stop", &stop5)
            .pc("Ada", &[("heal_edge", "2")])
            .mistake(
                &format!("stop = {stop5}"),
                &format!("stop = {typo}"),
                &typo,
                &[
                    "the campaign map has no stop",
                    &format!("did you mean `{}`?", stop5.trim_matches('"')),
                ],
            )
            .played(),
    );

    // 6: (the plan of session 4, its vouchers not issued again) Ada
    // spends a Downtime Voucher — the GM first writes a digit wrong, then
    // the serial in lower case; Brannoc takes 3.
    // Session 7 gets a plan of its own: to the goal, a voucher for
    // Cress, and the NPC met in session 1 brought back.
    camp.plan(
        7,
        "terrain = \"saltflats\"\nencounters = 2\ntraps = 1\nnpcs = 2\nvouchers = [\"Cress\"]\nto = \"goal\"\nbring_back = [\"npc/2 of session 1\"]\n",
    );
    let p = camp.pack(6);
    let ledger = camp.ledger();
    let ada = in_hand(&ledger)
        .into_iter()
        .find(|(s, h)| h == "Ada" && s.split('-').nth(1).is_some_and(|p| p.starts_with('S')))
        .unwrap_or_else(|| {
            panic!(
                "Ada holds no Downtime Voucher: {}",
                ledger["now"]["vouchers"]
            )
        });
    let wrong = format!(
        "{}{}",
        &ada.0[..ada.0.len() - 1],
        if ada.0.ends_with('X') { 'Y' } else { 'X' }
    );
    played.push(
        camp.record(6)
            .set("day", &end_day(&p))
            .set("stop", &next_stop(&p))
            .set("vouchers_spent", &format!("[\"{}\"]", ada.0.to_lowercase()))
            .pc("Brannoc", &[("damage", "3")])
            .mistake(
                &ada.0.to_lowercase(),
                &wrong,
                &format!("\"{wrong}\""),
                &[
                    &format!("voucher {wrong} was never held"),
                    &format!("did you mean `{}`?", ada.0),
                ],
            )
            .played(),
    );

    // 7: Cress falls to -4 and is healed at the table after a Twist —
    // the GM first forgets the Edge.
    let p = camp.pack(7);
    played.push(
        camp.record(7)
            .set("day", &end_day(&p))
            .set("stop", &next_stop(&p))
            .pc(
                "Cress",
                &[("damage", "12"), ("heal_edge", "1"), ("heal_twist", "true")],
            )
            .mistake(
                "heal_edge = 1\n",
                "",
                "heal_twist = |true",
                &["heal_twist = true, but Cress has no `heal_edge`"],
            )
            .played(),
    );

    // 8: Ada takes 2; the purse and the supplies counted.
    let p = camp.pack(8);
    played.push(
        camp.record(8)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .set("money", "-10")
            .set("rations", "6")
            .set("water", "4")
            .pc("Ada", &[("damage", "2")])
            .played(),
    );

    // 9: Brannoc falls to -1: a Heal Check in downtime, as the dice fall.
    let p = camp.pack(9);
    played.push(
        camp.record(9)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .pc("Brannoc", &[("damage", "8")])
            .played(),
    );

    // 10: Cress takes 1.
    let p = camp.pack(10);
    played.push(
        camp.record(10)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .pc("Cress", &[("damage", "1")])
            .recorded(),
    );
    let ledger = camp.ledger();
    Mettle {
        camp,
        prep1,
        played,
        ledger,
    }
}

/// Whether `pc` acts in a pack: leads its journey, stands in an
/// encounter's zones or is counted in an encounter's or trap's odds.
fn acts_in(p: &Value, pc: &str) -> Vec<String> {
    let mut found = Vec::new();
    if p["journey"]["lead"] == pc {
        found.push("leads the journey".to_owned());
    }
    for e in p["encounters"].as_array().unwrap() {
        let at = e["address"].as_str().unwrap();
        let zones = e["layout"]["zones"].as_array().map_or(&[][..], |z| z);
        if zones
            .iter()
            .any(|z| z["starts"].as_array().unwrap().iter().any(|s| s == pc))
        {
            found.push(format!("stands in {at}'s zones"));
        }
        let odds = e["odds"].as_array().unwrap();
        if odds
            .iter()
            .any(|o| o["attacker"] == pc || o["defender"] == pc)
        {
            found.push(format!("is in {at}'s odds"));
        }
    }
    for t in p["traps"].as_array().unwrap() {
        if t["odds"].to_string().contains(&format!("\"{pc}\"")) {
            found.push(format!("is in {}'s odds", t["address"]));
        }
    }
    found
}

#[test]
fn mettle_ten_sessions_are_played_with_every_slip_refused_then_fixed() {
    let m = mettle();
    let sessions = m.ledger["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 10, "{}", m.ledger["sessions"]);
    for s in sessions {
        assert_eq!(s["prepped"], true, "{s}");
        assert_eq!(s["recorded"], true, "{s}");
    }
    assert_eq!(m.ledger["now"]["session"], 11);
    let last = m.camp.pack(10)["campaign"]["day"].as_u64().unwrap();
    assert!(m.ledger["now"]["day"].as_u64().unwrap() >= last + 3);
    assert_eq!(m.played.len(), 10);
    // The party's money: 30 gained in session 1, 10 spent in session 8.
    assert_eq!(m.ledger["now"]["money"], 20);
    // 6 rations left in session 8, unless the party stocked up in a
    // settlement since (each ration in a ledger line).
    let stocked = (8..=10).any(|n| {
        changes(&m.ledger, n)
            .iter()
            .any(|c| c.starts_with("party: rations ") && c.contains(" stocked at "))
    });
    assert!(
        m.ledger["now"]["rations"] == 6 || stocked,
        "{}",
        m.ledger["now"]
    );
    assert!(
        m.prep1.out.contains("out/session-1"),
        "{}",
        m.prep1.context()
    );
}

/// Session 2: Brannoc at -2; Cress's Heal Check (4D vs 3) fails with
/// Edge, the Twist rerolls the Edge dice and he lives — without it he
/// would have died.
#[test]
fn mettle_the_twist_on_a_failed_heal_with_edge_saves_brannoc() {
    let m = mettle();
    let two = changes(&m.ledger, 2);
    let check = two
        .iter()
        .find(|c| c.starts_with("Brannoc: Heal Check by Cress: 4D vs 3"))
        .unwrap_or_else(|| panic!("no Heal Check for Brannoc after session 2: {two:#?}"));
    assert!(
        check.contains("55.32% to live (86.33% with a Twist)"),
        "{check}"
    );
    let (first, twist) = check
        .split_once(": failure with Edge, so a Twist (")
        .unwrap_or_else(|| panic!("the first roll is no failure with Edge: {check}"));
    assert!(first.contains(", Edge "), "{first}");
    assert!(
        twist.contains(") rerolls the Edge dice [") && twist.ends_with(": success"),
        "the Twist did not save him: {check}"
    );
    assert!(
        !two.iter().any(|c| c.starts_with("Brannoc: died")),
        "{two:#?}"
    );
    let rule = m.ledger["sessions"][1]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["what"]
                .as_str()
                .unwrap()
                .starts_with("Heal Check by Cress")
        })
        .unwrap()["rule"]
        .clone();
    assert!(rule.to_string().contains("Twists"), "{rule}");
    // He lives: back on his feet in session 3's pack, and in the party at
    // the end.
    let p3 = m.camp.pack(3);
    let now = p3["campaign"]["party_now"].to_string();
    // On his feet, with the Twist's lasting price.
    assert!(
        now.contains("\"Brannoc\",\"Mettle 7 of 7; Disfigured (session 2)\""),
        "{now}"
    );
    let brannoc = m.ledger["now"]["pcs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|pc| pc["name"] == "Brannoc")
        .unwrap();
    assert_ne!(brannoc["gone_in"], 2, "{brannoc}");
    // The rule-by-rule audit, Twist and all, is `campaign`'s (the pack's
    // "Previously" is a one-screen recap).
    let audit = m.camp.ok(&["campaign"]).out;
    assert!(
        audit.contains("so a Twist ("),
        "the audit lacks the Twist: {audit}"
    );
}

/// Session 3: Ada falls to -3 and is made stable at the table (no Edge).
/// After session 4, where nothing hurt her, no Heal Check is rolled for
/// her; session 5's record heals her at the table.
#[test]
fn mettle_a_stable_pc_gets_no_second_heal_roll() {
    let m = mettle();
    let three = changes(&m.ledger, 3);
    for line in [
        "Ada: Mettle 7 → -3 (10 lost): at 0 or below",
        "Ada: Heal Check made at the table: success, Edge 0",
        "Ada: stable, but no Edge: Mettle stays at -3 until healed",
    ] {
        assert!(three.iter().any(|c| c == line), "{line} not in {three:#?}");
    }
    let four = changes(&m.ledger, 4);
    assert!(
        four.iter()
            .any(|c| c == "Ada: stable at -3 and not hurt again: no new Heal Check"),
        "{four:#?}"
    );
    assert!(
        !four.iter().any(|c| c.starts_with("Ada: Heal Check")),
        "a second Heal Check for Ada: {four:#?}"
    );
    assert!(
        !four.iter().any(|c| c.starts_with("Ada: died")),
        "{four:#?}"
    );
    let p5 = m.camp.pack(5);
    assert!(
        p5["campaign"]["party_now"]
            .to_string()
            .contains("\"Ada\",\"Mettle -3 of 7\""),
        "{}",
        p5["campaign"]["party_now"]
    );
    let five = changes(&m.ledger, 5);
    for line in [
        "Ada: Heal Check made at the table: success, Edge 2",
        "Ada: Mettle -3 → 1 after 2 days' rest (Edge 2: 2 a day)",
    ] {
        assert!(five.iter().any(|c| c == line), "{line} not in {five:#?}");
    }
}

/// Ada at -3 in the packs of sessions 4 and 5: no journey role, no
/// place in any encounter's zones or odds or any trap's odds, no voucher
/// though session 4's plan names her; still on the run sheet. In session
/// 3's pack, before she fell, she acts.
#[test]
fn mettle_a_pc_at_zero_sits_out_journey_roles_and_fitting() {
    let m = mettle();
    assert!(
        !acts_in(&m.camp.pack(3), "Ada").is_empty(),
        "Ada acts in no part of session 3's pack: the check below proves nothing"
    );
    for n in [4, 5] {
        let p = m.camp.pack(n);
        assert!(
            p["campaign"]["party_now"]
                .to_string()
                .contains("\"Ada\",\"Mettle -3 of 7\""),
            "session {n}: {}",
            p["campaign"]["party_now"]
        );
        assert_eq!(acts_in(&p, "Ada"), Vec::<String>::new(), "session {n}");
        assert!(
            p["journey"]["lead"].is_string(),
            "session {n} has no journey"
        );
        for pc in ["Brannoc", "Cress"] {
            assert!(
                !acts_in(&p, pc).is_empty(),
                "session {n}: {pc} does nothing"
            );
        }
        let md = m.camp.pack_md(n);
        assert!(!md.contains("Lead: Ada"), "session {n}'s pack.md");
        assert!(
            !md.lines()
                .any(|l| l.starts_with("| Ada | ") && l.contains('%')),
            "session {n}'s pack.md has odds for Ada"
        );
        // Her track shows the Mettle she has lost, all of it filled.
        assert!(
            md.contains("Mettle −3 of 7: ☒☒☒☒☒☒☒\n"),
            "session {n}'s run sheet"
        );
    }
    // Session 4's own plan names vouchers for Ada and Cress: Cress's only.
    let holders: Vec<String> = vouchers(&m.camp.pack(4)).into_iter().map(|v| v.1).collect();
    assert_eq!(holders, ["Cress"]);
    assert!(
        m.played[2].prep.err.contains(
            "note: no voucher for Ada: the plan names them, but they are at 0 Mettle or below"
        ),
        "{}",
        m.played[2].prep.context()
    );
}

/// A plan's vouchers are for the session whose plan names them: sessions
/// 5 and 6 take session 4's plan and issue none, session 8 takes session
/// 7's and issues none.
#[test]
fn mettle_an_inherited_plan_issues_no_vouchers_again() {
    let m = mettle();
    for (n, own) in [(4, 1), (5, 0), (6, 0), (7, 1), (8, 0), (9, 0), (10, 0)] {
        assert_eq!(vouchers(&m.camp.pack(n)).len(), own, "session {n}");
    }
}

/// Session 1's record edited after sessions 2-10 were prepped: `prep`
/// names it and every stale pack; `verify` and `campaign` list them;
/// one `prep --force` makes them again in order (then the next
/// session's); `verify` is clean and `campaign` lists none.
#[test]
fn mettle_one_prep_force_remakes_every_stale_pack_then_verify_is_clean() {
    let camp = mettle().camp.copy("long-mettle-stale");
    let rel = "sessions/1/record.toml";
    let text = camp.read(rel);
    let edited = set_key(&text, "money", "25");
    camp.write(rel, &edited);
    // (The refusal points at the line that changed.)
    let (line, col) = line_col(&edited, "|money = 25");
    let blame = format!(
        "{rel}:{line}:{col}: session 1's record changed after session 2 was prepped: the packs \
         of sessions 2, 3, 4, 5, 6, 7, 8, 9 and 10 are made from an older campaign state"
    );
    let said = camp.refused(&["prep"]);
    assert!(said.err.contains(&blame), "{}", said.context());
    let said = camp.run(&["verify"]);
    assert_eq!(said.code, Some(1), "{}", said.context());
    for k in 2..=10 {
        assert!(
            said.err.contains(&format!(
                "stale: out/session-{k} was made from an older campaign state"
            )),
            "session {k}: {}",
            said.context()
        );
    }
    assert!(!said.err.contains("damaged:"), "{}", said.context());
    let listed = camp.ok(&["campaign"]).out;
    assert!(listed.contains("Stale packs"), "{listed}");
    let remade = camp.ok(&["prep", "--force"]);
    let mut last = 0;
    for k in 2..=10 {
        let at = remade
            .out
            .find(&format!(
                "session {k}'s pack was made from an older campaign state (session 1's record \
                 changed since): making it again"
            ))
            .unwrap_or_else(|| panic!("session {k} not made again: {}", remade.context()));
        assert!(
            at > last || k == 2,
            "session {k} out of order: {}",
            remade.context()
        );
        last = at;
    }
    assert!(camp.path("out/session-11/pack.json").exists());
    let verified = camp.ok(&["verify"]);
    assert_eq!(
        verified.out.matches("ok: all").count(),
        11,
        "{}",
        verified.context()
    );
    assert!(!verified.err.contains("stale"), "{}", verified.context());
    let listed = camp.ok(&["campaign"]).out;
    assert!(!listed.contains("Stale packs"), "{listed}");
    let json = camp.ledger();
    assert_eq!(json["now"]["money"], 15, "the edit counts");
    assert!(
        json["stale_packs"].as_array().is_none_or(|s| s.is_empty()),
        "{}",
        json["stale_packs"]
    );
}

// ----------------------------------------------------------------------
// The Core campaign: six sessions.
// ----------------------------------------------------------------------

/// The Core campaign as played (`init --system core`, its own seed).
struct Core {
    camp: Camp,
    played: Vec<Played>,
    ledger: Value,
}

fn core() -> &'static Core {
    static CELL: OnceLock<Result<Core, String>> = OnceLock::new();
    shared(&CELL, play_core)
}

/// A sheet for a PC who joins in session 5.
const ODA: &str = "\n[[joined]]\nname = \"Oda\"\nSTR = 10\nAGI = 11\nWIT = 9\narmour = 1\ndamage = \"d6\"\nomens = 2\nmax_omens = 2\n";

/// Six sessions: hurt, injured, an omen spent, two deaths and their
/// funerals, corruption, a PC who joins; what each record says is in its
/// comment.
fn play_core() -> Core {
    let camp = Camp::init("long-core", &["--system", "core"]);
    camp.ok(&["prep"]);
    let mut played = Vec::new();

    // 1: Ada takes 3 and the pack's injury slip and spends an omen; Cress
    // is frightened; 200ʂ found. The GM first writes 3 omens spent (she
    // has 2).
    let p = camp.pack(1);
    played.push(
        camp.record(1)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .set("met", "[\"encounter/1\", \"trap/1\"]")
            .set("money", "200")
            .pc(
                "Ada",
                &[
                    ("damage", "3"),
                    ("injuries", "[\"injury/1\"]"),
                    ("omens", "1"),
                ],
            )
            .pc("Cress", &[("conditions", "[\"frightened\"]")])
            .mistake(
                "omens = 1",
                "omens = 3",
                "omens = |3",
                &["omens = 3, but Ada has 2 omens of 2 at the start of session 1"],
            )
            .played(),
    );

    // 2: Brannoc dies; his remains are brought back. The GM first writes
    // the fate as "died".
    let p = camp.pack(2);
    played.push(
        camp.record(2)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .pc("Brannoc", &[("fate", "\"dead\""), ("remains", "true")])
            .mistake(
                "fate = \"dead\"",
                "fate = \"died\"",
                "fate = |\"died\"",
                &[
                    "unknown variant `died`, expected `dead` or `left`",
                    "did you mean `dead`?",
                ],
            )
            .played(),
    );

    // 3: 300ʂ found. The GM first writes an entry for Brannoc, who died
    // in session 2. Session 4 gets a plan of its own: to the first stop of
    // the map that is not where session 3 ends.
    let p = camp.pack(3);
    let here = onward(&p);
    let there = p["map"]["stops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .find(|s| here.trim_matches('"') != *s)
        .unwrap();
    camp.plan(
        4,
        &format!("terrain = \"saltflats\"\nencounters = 2\ntraps = 1\nnpcs = 3\ninjuries = 1\nto = \"{there}\"\n"),
    );
    played.push(
        camp.record(3)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .set("money", "300")
            .append("\n[[pc]]\nname = \"Brannoc\"\ndamage = 2\n")
            .refused_at(
                "name = |\"Brannoc\"",
                &["Brannoc is not in the party: they died in session 2"],
            )
            .remove("\n[[pc]]\nname = \"Brannoc\"\ndamage = 2\n")
            .played(),
    );

    // 4: Cress gains 2 corruption: the soulblight check. The GM first
    // gives her a METTLE key.
    let p = camp.pack(4);
    played.push(
        camp.record(4)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .pc("Cress", &[("corruption", "2")])
            .mistake(
                "corruption = 2",
                "corruption = 2\nheal_edge = 1",
                "heal_edge = |1",
                &[
                    "`heal_edge` is not a key of the Core Rules records",
                    "remove the line",
                ],
            )
            .played(),
    );

    // 5: Oda joins; Ada takes 2.
    let p = camp.pack(5);
    played.push(
        camp.record(5)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .pc("Ada", &[("damage", "2")])
            .append(ODA)
            .played(),
    );

    // 6: Ada dies; her remains are left behind.
    let p = camp.pack(6);
    played.push(
        camp.record(6)
            .set("day", &end_day(&p))
            .set("stop", &onward(&p))
            .pc("Ada", &[("fate", "\"dead\"")])
            .recorded(),
    );
    let ledger = camp.ledger();
    Core {
        camp,
        played,
        ledger,
    }
}

#[test]
fn core_six_sessions_are_played_with_every_slip_refused_then_fixed() {
    let c = core();
    let sessions = c.ledger["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 6, "{}", c.ledger["sessions"]);
    assert!(
        sessions.iter().all(|s| s["recorded"] == true),
        "{sessions:?}"
    );
    assert_eq!(c.played.len(), 6);
    let pcs: Vec<(String, String)> = c.ledger["now"]["pcs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pc| {
            (
                pc["name"].as_str().unwrap().to_owned(),
                pc["presence"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want = [
        ("Ada", "dead"),
        ("Brannoc", "dead"),
        ("Cress", "present"),
        ("Oda", "present"),
    ];
    assert_eq!(
        pcs,
        want.map(|(n, p)| (n.to_owned(), p.to_owned())),
        "{pcs:?}"
    );
}

/// Two deaths by the rules: Brannoc's funeral (remains brought back:
/// half of 512ʂ) paid at the next full rest; Ada's (512ʂ) due, the party
/// in the wild. The dead act in no later pack; an omen spent comes off
/// the sheet until the full rest.
#[test]
fn core_deaths_funerals_and_omens_by_the_rules() {
    let c = core();
    let has = |n: usize, line: &str| {
        let all = changes(&c.ledger, n);
        assert!(
            all.iter().any(|c| c == line),
            "session {n}: {line} not in {all:#?}"
        );
    };
    has(1, "Ada: omens 2 → 1 (1 omen spent in play)");
    has(2, "Brannoc: died");
    has(
        2,
        "party: a funeral for Brannoc is due by the next full rest: 256ʂ (512ʂ halved: the remains were brought back)",
    );
    assert!(
        changes(&c.ledger, 3)
            .iter()
            .any(|l| l.starts_with("party: paid 256ʂ for Brannoc's funeral")),
        "{:#?}",
        changes(&c.ledger, 3)
    );
    has(6, "Ada: died");
    has(
        6,
        "party: a funeral for Ada is due by the next full rest: 512ʂ",
    );
    // Session 6 ends in the wild: no full rest, so Ada's funeral is
    // still due (and nobody's omens are lost for it yet).
    let due = &c.ledger["now"]["funerals_due"];
    assert_eq!(due.as_array().map(Vec::len), Some(1), "{due}");
    assert_eq!(
        (
            &due[0]["pc"],
            &due[0]["session"],
            &due[0]["remains"],
            &due[0]["cost"]
        ),
        (&"Ada".into(), &6.into(), &false.into(), &512.into()),
        "{due}"
    );
    assert!(!changes(&c.ledger, 6).iter().any(|l| l.contains("unpaid")));
    // Brannoc acted while alive, and in no pack after his death.
    assert!(!acts_in(&c.camp.pack(1), "Brannoc").is_empty());
    for n in 3..=6 {
        let p = c.camp.pack(n);
        assert_eq!(acts_in(&p, "Brannoc"), Vec::<String>::new(), "session {n}");
        assert!(
            !p["campaign"]["party_now"].to_string().contains("Brannoc"),
            "session {n}"
        );
    }
    // Oda, who joined in session 5, is in session 6's party.
    assert!(
        c.camp.pack(6)["campaign"]["party_now"]
            .to_string()
            .contains("\"Oda\"")
    );
}

/// Session 6 unplayed again (its record set aside): the GM writes a
/// note on its `npc-1.md`, then gives the session a plan of its own that
/// changes that NPC. `prep` refuses naming the GM's sheet alone; `prep
/// --force` keeps it and writes the pack's version beside it as
/// `npc-1.new.md`; `verify` knows whose is whose.
#[test]
fn core_the_gms_edited_sheet_is_kept_by_force() {
    let camp = core().camp.copy("long-core-gm-file");
    std::fs::remove_file(camp.path("sessions/6/record.toml")).unwrap();
    let sheet = "out/session-6/npc-1.md";
    let noted = format!(
        "{}\nOwes Cress a favour since the ford.\n",
        camp.read(sheet)
    );
    camp.write(sheet, &noted);
    let plan = format!("{}\n[[npc]]\ntier = 2\n", camp.read("sessions/4/plan.toml"));
    camp.plan(6, &plan);
    let said = camp.refused(&["prep"]);
    assert!(
        said.err.contains("refusing to overwrite 1 file(s)") && said.err.contains("npc-1.md"),
        "{}",
        said.context()
    );
    for own in [
        "pack.md",
        "pack.pdf",
        "pack.json",
        "bundle.toml",
        "npc-2.md",
    ] {
        assert!(!said.err.contains(own), "{own} named: {}", said.context());
    }
    assert_eq!(camp.read(sheet), noted, "a refused prep wrote the sheet");
    let said = camp.ok(&["prep", "--force"]);
    assert_eq!(camp.read(sheet), noted, "--force lost the GM's note");
    let new = camp.read("out/session-6/npc-1.new.md");
    assert!(
        new.contains("tier 2") && !new.contains("Owes Cress"),
        "{new}"
    );
    assert!(
        said.err.contains(
            "kept npc-1.md: you edited it, so the pack's new version is beside it as npc-1.new.md"
        ),
        "{}",
        said.context()
    );
    let said = camp.ok(&["verify"]);
    assert!(
        said.out
            .contains("(npc-1.md is yours, the pack's is npc-1.new.md)"),
        "{}",
        said.context()
    );
    assert_eq!(said.out.matches("ok: all").count(), 6, "{}", said.context());
}

// ----------------------------------------------------------------------
// Campaign memory, journey encounters by address, returning NPCs.
// ----------------------------------------------------------------------

/// Every table's row count in the campaign (`tables --json`).
fn row_counts(camp: &Camp) -> BTreeMap<String, u64> {
    let json: Value = serde_json::from_str(&camp.ok(&["tables", "--json"]).out).unwrap();
    json["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["id"].as_str().unwrap().to_owned(),
                t["rows"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// The campaign's memory, over packs 1 to `last`: a situation (an
/// encounter's, a journey encounter's, a trap's) comes again only once
/// every row of its table has been used (a table the pack does not name:
/// never); no name — an NPC card's, a person on stage's, a named foe's —
/// comes twice; none shares a PC's name. The
/// list of what breaks it.
fn forgotten(camp: &Camp, last: usize, pcs: &[&str]) -> Vec<String> {
    let rows = row_counts(camp);
    let mut used: BTreeMap<String, Vec<(String, usize)>> = BTreeMap::new();
    let mut names: Vec<(String, usize)> = Vec::new();
    let mut foes: Vec<(String, usize)> = Vec::new();
    let mut broken = Vec::new();
    let mut draw = |table: String, row: String, n: usize, broken: &mut Vec<String>| {
        let seen = used.entry(table.clone()).or_default();
        let all = rows.get(&table).copied();
        let distinct: std::collections::BTreeSet<&String> = seen.iter().map(|(r, _)| r).collect();
        if let Some((_, first)) = seen.iter().find(|(r, _)| *r == row)
            && all.is_none_or(|all| (distinct.len() as u64) < all)
        {
            let of = all.map_or_else(|| "its".to_owned(), |all| format!("its {all}"));
            broken.push(format!(
                "{table}: {row} in session {first} and again in {n}, with {} of {of} rows used",
                distinct.len()
            ));
        }
        seen.push((row, n));
    };
    for n in 1..=last {
        let p = camp.pack(n);
        for e in p["encounters"].as_array().unwrap() {
            let s = &e["situation"];
            draw(
                s["table"].as_str().unwrap().into(),
                s["row"].as_str().unwrap().into(),
                n,
                &mut broken,
            );
            // Named foes are names like any other: never twice.
            for who in e["foes"].as_array().unwrap() {
                names.extend(personal_name(who).map(|s| (s, n)));
                foes.extend(who["name"].as_str().map(|s| (s.to_owned(), n)));
            }
            for who in e["others"].as_array().unwrap() {
                names.extend(who["name"].as_str().map(|s| (s.to_owned(), n)));
            }
        }
        for e in p["journey"]["encounters"].as_array().map_or(&[][..], |v| v) {
            // Met on the way: the whole encounter, as the pack's are.
            let e = if e["encounter"].is_object() {
                &e["encounter"]
            } else {
                e
            };
            let (table, row) = match e["situation"]["table"].as_str() {
                Some(t) => (
                    t.to_owned(),
                    e["situation"]["row"].as_str().unwrap().to_owned(),
                ),
                None => (
                    "journey encounters".to_owned(),
                    e["name"].as_str().unwrap().to_owned(),
                ),
            };
            draw(table, row, n, &mut broken);
            for who in e["foes"].as_array().unwrap() {
                names.extend(personal_name(who).map(|s| (s, n)));
            }
            for who in e["others"].as_array().map_or(&[][..], |v| v) {
                names.extend(who["name"].as_str().map(|s| (s.to_owned(), n)));
            }
            for who in e["foes"].as_array().unwrap() {
                foes.extend(
                    who.as_str()
                        .or(who["name"].as_str())
                        .map(|s| (s.to_owned(), n)),
                );
            }
        }
        for t in p["traps"].as_array().unwrap() {
            draw(
                "traps".into(),
                t["name"].as_str().unwrap().into(),
                n,
                &mut broken,
            );
        }
        for npc in p["npcs"].as_array().unwrap() {
            names.push((npc["name"].as_str().unwrap().to_owned(), n));
        }
    }
    // Numbered foes ("Goblin 3") are no names.
    names.retain(|(name, _)| !name.chars().any(|c| c.is_ascii_digit()));
    for (i, (name, n)) in names.iter().enumerate() {
        if let Some((_, first)) = names[..i].iter().find(|(m, _)| m == name) {
            broken.push(format!(
                "the name {name} in session {first} and again in {n}"
            ));
        }
    }
    for (name, n) in names.iter().chain(&foes) {
        if let Some(pc) = pcs
            .iter()
            .find(|pc| name.split(' ').any(|w| w.eq_ignore_ascii_case(pc)))
        {
            broken.push(format!("{name} in session {n} is named like the PC {pc}"));
        }
    }
    broken
}

/// A foe's personal name: a person's (a beast or monster goes by its
/// kind, `Goblin 3`, and is no name).
fn personal_name(foe: &Value) -> Option<String> {
    let name = foe["name"].as_str()?;
    let kind = foe["archetype"].as_str()?.replace('-', " ");
    (!name.to_lowercase().starts_with(&kind.to_lowercase())).then(|| name.to_owned())
}

#[test]
fn mettle_no_situation_or_npc_name_repeats_while_its_table_has_unused_rows() {
    let m = mettle();
    let broken = forgotten(&m.camp, 10, &["Ada", "Brannoc", "Cress"]);
    assert_eq!(broken, Vec::<String>::new());
}

#[test]
fn core_no_situation_or_npc_name_repeats_while_its_table_has_unused_rows() {
    let c = core();
    let broken = forgotten(&c.camp, 6, &["Ada", "Brannoc", "Cress", "Oda"]);
    assert_eq!(broken, Vec::<String>::new());
}

/// The last session of the ten whose journey ran into something on the
/// way: its number, the encounter, and its address (the pack's own, else
/// the issue's form `journey/1/encounter/<k>`).
fn journey_encounter(m: &Mettle) -> (usize, Value, String) {
    (1..=10)
        .rev()
        .find_map(|n| {
            let p = m.camp.pack(n);
            let e = p["journey"]["encounters"].as_array()?.first()?.clone();
            let address = e["address"].as_str().map_or_else(
                || format!("{}/encounter/1", p["journey"]["address"].as_str().unwrap()),
                str::to_owned,
            );
            Some((n, e, address))
        })
        .expect("no journey of the ten ran into anything on the way")
}

/// A journey encounter is an item like the others: a stat block, a box
/// on the After-the-session sheet and a line in `record N` by its
/// address, and recordable as met.
#[test]
fn mettle_a_journey_encounter_is_recorded_by_its_address() {
    let m = mettle();
    let (n, encounter, address) = journey_encounter(m);
    let foe = &encounter["encounter"]["foes"][0];
    assert!(
        foe.is_object(),
        "session {n}'s journey encounter has no stat block: {encounter}"
    );
    let md = m.camp.pack_md(n);
    let after = &md[md
        .find("After the session")
        .expect("no After-the-session sheet")..];
    assert!(
        after.contains(&address),
        "session {n}'s After-the-session sheet lacks {address}"
    );
    assert!(
        m.played[n - 1]
            .prefilled
            .contains(&format!("#   {address}: ")),
        "record {n} lacks {address}: {}",
        m.played[n - 1].prefilled
    );
    let camp = m.camp.copy("long-mettle-journey-met");
    let rel = format!("sessions/{n}/record.toml");
    camp.write(
        &rel,
        &set_key(&camp.read(&rel), "met", &format!("[\"{address}\"]")),
    );
    camp.ok(&["prep", "--force"]);
    let ledger = camp.ledger();
    let met = &ledger["sessions"][n - 1]["met"];
    assert!(met.to_string().contains(&format!("\"{address}\"")), "{met}");
}

/// The NPC of session 1 brought back in session 7 is listed on session
/// 7's sheet and record by an address (`npc/2 of session 1`); writing that
/// address in `npcs_met` records them as met again in session 7.
#[test]
fn mettle_a_returning_npc_is_recorded_as_met_by_the_address_the_sheet_prints() {
    let m = mettle();
    let prefilled = &m.played[6].prefilled;
    let (address, name) = prefilled
        .lines()
        .filter_map(|l| l.strip_prefix("#   "))
        .find_map(|l| {
            l.split_once(": ")
                .filter(|(a, _)| a.ends_with(" of session 1"))
        })
        .unwrap_or_else(|| panic!("record 7 lists no NPC of session 1: {prefilled}"));
    let md = m.camp.pack_md(7);
    let after = &md[md
        .find("After the session")
        .expect("no After-the-session sheet")..];
    assert!(after.contains(address), "session 7's sheet lacks {address}");
    let camp = m.camp.copy("long-mettle-returning-met");
    let rel = "sessions/7/record.toml";
    camp.write(
        rel,
        &set_key(&camp.read(rel), "npcs_met", &format!("[\"{address}\"]")),
    );
    camp.ok(&["prep", "--force"]);
    let ledger = camp.ledger();
    let met = ledger["now"]["npcs_met"].as_array().unwrap();
    assert!(
        met.iter().any(|e| e["name"] == name),
        "{name} not among the NPCs met: {met:?}"
    );
    let said = changes(&ledger, 7);
    assert!(
        said.iter()
            .any(|c| c.contains(&format!("met {name}")) && c.contains(address)),
        "session 7 does not say {name} was met: {said:#?}"
    );
}

/// A record that names an item its pack has not, written after later
/// packs were made: `prep --force` refuses it at its line and prints no
/// results (it used to say it was making a stale pack again first), and
/// leaves the stale packs as they were.
#[test]
fn mettle_prep_force_with_a_bad_record_prints_nothing_and_makes_nothing() {
    let camp = mettle().camp.copy("long-mettle-force-refused");
    let rel = "sessions/7/record.toml";
    let text = set_key(&camp.read(rel), "npcs_met", "[\"npc/9\"]");
    camp.write(rel, &text);
    let before = camp.read("out/session-8/pack.json");
    let said = camp.refused(&["prep", "--force"]);
    let (line, col) = line_col(&text, "npcs_met = [|\"npc/9\"]");
    assert!(
        said.err.contains(&format!(
            "{rel}:{line}:{col}: the pack of session 7 has no item `npc/9`"
        )),
        "{}",
        said.context()
    );
    assert_eq!(
        said.out,
        "",
        "a refused prep printed results: {}",
        said.context()
    );
    assert_eq!(camp.read("out/session-8/pack.json"), before);
}
