//! The run sheet's "Previously": a campaign's last session told in a
//! screenful ([`of`]) — where and on which day the session starts, each
//! PC's net change over the last session and how they stand now, deaths
//! and departures, funerals due, vouchers in hand, new injuries and
//! mutations with their effects — and the Heal Checks a group may roll at
//! the table ([`heal_checks`]). Pure: the ledger and the state in, lines
//! out. The rule-by-rule audit stays in `tablewright campaign`.

use super::ledger::Ledger;
use super::ledger::heal;
use super::state::{MettlePc, PcRules, PcState, Presence, State};
use crate::generators::checks::percent;

pub use crate::generators::recap::{HealDue, PcRecap, Recap};

/// "Previously" for session `n`, from the ledger of the sessions before it
/// and the state it starts from.
pub fn of(ledger: &Ledger, state: &State, n: usize) -> Recap {
    let before = (n > 1)
        .then(|| ledger.session(n as u32 - 1))
        .flatten()
        .and_then(|s| Some((s, s.before.as_ref()?)));
    let start = match &state.stop {
        Some(stop) => format!("Session {n} starts on day {} at {stop}.", state.day),
        None => format!("Session {n} starts on day {}.", state.day),
    };
    let mut recap = Recap {
        start,
        heal: heal_checks(state),
        ..Recap::default()
    };
    recap.vouchers = state
        .vouchers
        .iter()
        .map(|v| format!("{} ({}, session {})", v.serial, v.holder, v.issued_in))
        .collect();
    let mut held: Vec<(&str, usize)> = Vec::new();
    for v in &state.vouchers {
        match held.iter_mut().find(|(h, _)| *h == v.holder) {
            Some((_, n)) => *n += 1,
            None => held.push((&v.holder, 1)),
        }
    }
    recap.held = held.iter().map(|(h, n)| format!("{h} {n}")).collect();
    recap.losses = state
        .funerals_due
        .iter()
        .map(|f| {
            format!(
                "{}'s funeral: {}ʂ{}, due by the next full rest.",
                f.pc,
                f.cost,
                if f.remains { " (remains returned)" } else { "" }
            )
        })
        .collect();
    let then = before.map(|(s, then)| {
        recap.last = last_line(s.number, s.day_start, s.day_end, &then.stop, &state.stop);
        then
    });
    recap.purse = purse(then.map(|t| t.money), state.money);
    for pc in state.present() {
        let was = then.and_then(|t| t.pc(&pc.name)).filter(|p| p.is_present());
        recap.pcs.push(PcRecap {
            name: pc.name.clone(),
            change: match (then, was) {
                (None, _) => String::new(),
                (Some(_), None) => "joined".to_owned(),
                (Some(_), Some(w)) => {
                    let fell = before.map_or_else(Vec::new, |(s, _)| falls(&s.changes, &pc.name));
                    with_falls(change(w, pc), fell)
                }
            },
            now: now_line(pc, true),
            taken: taken(pc),
            level: match &pc.rules {
                PcRules::Mettle(m) => m.mettle,
                PcRules::Core(c) => c.health(),
            },
        });
    }
    if let Some(s) = before.map(|(s, _)| s.number) {
        losses_in(state, s, &mut recap.losses);
        let earlier: Vec<String> = state
            .pcs
            .iter()
            .filter(|p| p.gone_in.is_some_and(|k| k < s))
            .map(|p| {
                let how = if p.presence == Presence::Dead {
                    "died"
                } else {
                    "left"
                };
                format!("{} ({how} in session {})", p.name, p.gone_in.unwrap_or(0))
            })
            .collect();
        if !earlier.is_empty() {
            recap
                .losses
                .push(format!("Gone before: {}.", earlier.join(", ")));
        }
        recap.lasting = lasting_in(state, s);
    }
    recap
}

/// `Session 4: days 8–11, Ashford → Saltmere.`
fn last_line(
    k: u32,
    from: u32,
    to: Option<u32>,
    stop: &Option<String>,
    now: &Option<String>,
) -> String {
    let to = to.unwrap_or(from);
    let days = if to == from {
        format!("day {from}")
    } else {
        format!("days {from}–{to}")
    };
    let way = match (stop, now) {
        (Some(a), Some(b)) if a != b => format!(", {a} → {b}"),
        (_, Some(b)) => format!(", at {b}"),
        _ => String::new(),
    };
    format!("Session {k}: {days}{way}.")
}

/// `Purse: 120ʂ (−40ʂ).`
fn purse(then: Option<i64>, now: i64) -> String {
    match then {
        Some(t) if t != now => format!("Purse: {now}ʂ ({:+}ʂ).", now - t).replace('-', "−"),
        _ => format!("Purse: {now}ʂ."),
    }
}

/// A PC's net change from `was` to `now`, in one line.
/// What the last session's ledger says of a PC who fell: `fell to −2`,
/// then how the Heal Check went (`healed by Cress after a Twist: Arrogant
/// healer`), so a PC back on their feet by the next session is still
/// told of.
fn falls(changes: &[super::ledger::Change], name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for c in changes.iter().filter(|c| c.who == name) {
        if c.what.ends_with("at 0 or below") {
            if let Some(to) = c.what.split(" → ").nth(1) {
                let level = to.split(' ').next().unwrap_or(to);
                out.push(format!("fell to {}", level.replace('-', "−")));
            }
        } else if let Some(rest) = c.what.strip_prefix("Heal Check by ") {
            let healer = rest.split(':').next().unwrap_or(rest);
            let passed = c.what.ends_with("success");
            let twist = c
                .what
                .split_once("so a Twist (")
                .and_then(|(_, t)| t.split(':').next());
            out.push(match (passed, twist) {
                (true, Some(t)) => format!("healed by {healer} after a Twist ({t})"),
                (true, None) => format!("healed by {healer}"),
                (false, _) => format!("Heal by {healer} failed"),
            });
        } else if c.what.starts_with("stable, but no Edge")
            && let Some(last) = out.last_mut()
            && last.starts_with("healed by")
        {
            let by = last.trim_start_matches("healed by ");
            *last = format!("stable (Heal by {by} passed with no Edge)");
        }
    }
    out
}

/// A PC's net change with how they fell and were healed before it.
fn with_falls(change: String, fell: Vec<String>) -> String {
    match (fell.is_empty(), change.as_str()) {
        (true, _) => change,
        (false, "no change") => fell.join(", "),
        (false, _) => format!("{}; {change}", fell.join(", ")),
    }
}

fn change(was: &PcState, now: &PcState) -> String {
    let mut parts = Vec::new();
    let mut moved = |what: &str, a: i64, b: i64| {
        if a != b {
            parts.push(format!("{what} {} → {}", minus(a), minus(b)));
        }
    };
    let (gained, lost) = match (&was.rules, &now.rules) {
        (PcRules::Mettle(a), PcRules::Mettle(b)) => {
            moved("Mettle", a.mettle, b.mettle);
            moved("max Mettle", a.max_mettle, b.max_mettle);
            (&b.block.statuses, &a.block.statuses)
        }
        (PcRules::Core(a), PcRules::Core(b)) => {
            let (x, y) = (&a.sheet, &b.sheet);
            moved("health", x.current_health(), y.current_health());
            moved("STR", x.STR, y.STR);
            moved("AGI", x.AGI, y.AGI);
            moved("WIT", x.WIT, y.WIT);
            moved("omens", x.omens, y.omens);
            moved("max omens", x.max_omens, y.max_omens);
            moved("corruption", x.corruption, y.corruption);
            (&y.conditions, &x.conditions)
        }
        _ => return "no change".into(),
    };
    parts.extend(
        gained
            .iter()
            .filter(|s| !lost.contains(s))
            .map(|s| format!("+{s}")),
    );
    parts.extend(
        lost.iter()
            .filter(|s| !gained.contains(s))
            .map(|s| format!("−{s}")),
    );
    if parts.is_empty() {
        "no change".into()
    } else {
        parts.join(", ")
    }
}

/// How a PC stands now, in one line (with `sitting`, a METTLE PC at 0 or
/// below is said to sit out).
pub fn now_line(pc: &PcState, sitting: bool) -> String {
    match &pc.rules {
        PcRules::Mettle(m) => {
            let mut line = format!("Mettle {} of {}", shown(m.mettle, sitting), m.max_mettle);
            if sitting && m.mettle <= 0 {
                line.push_str(if m.stable {
                    " (stable; sits out until healed)"
                } else {
                    " (sits out until healed)"
                });
            }
            line.push_str(&mettle_marks(m));
            line
        }
        PcRules::Core(c) => {
            let s = &c.sheet;
            let mut line = format!(
                "health {} of {}, STR {} AGI {} WIT {}, omens {} of {}, corruption {}",
                s.current_health(),
                s.max_health(),
                s.STR,
                s.AGI,
                s.WIT,
                s.omens,
                s.max_omens,
                s.corruption
            );
            if !s.conditions.is_empty() {
                line.push_str(&format!("; {}", s.conditions.join(", ")));
            }
            let kept: Vec<&str> = c
                .injuries
                .iter()
                .chain(&c.mutations)
                .map(|t| t.name.as_str())
                .collect();
            if !kept.is_empty() {
                line.push_str(&format!("; {}", kept.join(", ")));
            }
            line
        }
    }
}

/// A METTLE PC's statuses (Hungry and Thirsty with their days) and
/// lasting prices, after `; ` (empty when none):
/// `; Hungry (2 days without food), Afflicted; Disfigured (session 3)`.
pub fn mettle_marks(m: &crate::campaign::state::MettlePc) -> String {
    let statuses: Vec<String> = m
        .block
        .statuses
        .iter()
        .map(|s| match s.as_str() {
            "Hungry" if m.hungry > 0 => format!("Hungry ({} without food)", days(m.hungry)),
            "Thirsty" if m.thirsty > 0 => {
                format!("Thirsty ({} without water)", days(m.thirsty))
            }
            _ => s.clone(),
        })
        .collect();
    let lasting: Vec<String> = m
        .lasting
        .iter()
        .map(|t| format!("{} (session {})", t.name, t.session))
        .collect();
    let mut out = String::new();
    for part in [statuses, lasting] {
        if !part.is_empty() {
            out.push_str("; ");
            out.push_str(&part.join(", "));
        }
    }
    out
}

/// `1 day`, `2 days`.
fn days(n: u32) -> String {
    if n == 1 {
        "1 day".into()
    } else {
        format!("{n} days")
    }
}

/// A number with a typographic minus.
fn minus(n: i64) -> String {
    n.to_string().replace('-', "−")
}

/// `n` as the recap prints it (a typographic minus) or as the record's
/// comments and `party_now` always have (`-2`).
fn shown(n: i64, recap: bool) -> String {
    if recap { minus(n) } else { n.to_string() }
}

/// Mettle or health below its maximum (all of it at 0 or below): the
/// boxes the track shows filled.
pub fn taken(pc: &PcState) -> usize {
    let (now, max) = match &pc.rules {
        PcRules::Mettle(m) => (m.mettle, m.max_mettle),
        PcRules::Core(c) => (c.health(), c.sheet.max_health()),
    };
    (max - now.max(0)).clamp(0, max.max(0)) as usize
}

/// Who died or left in session `k`.
fn losses_in(state: &State, k: u32, out: &mut Vec<String>) {
    for pc in state.pcs.iter().filter(|p| p.gone_in == Some(k)) {
        let what = match pc.presence {
            Presence::Dead => "died",
            Presence::Left => "left the party",
            Presence::Present => continue,
        };
        out.insert(0, format!("{} {what} in session {k}.", pc.name));
    }
}

/// The injuries and mutations taken in session `k` (or the downtime after
/// it), each with its effect.
fn lasting_in(state: &State, k: u32) -> Vec<String> {
    let mut out = Vec::new();
    for pc in state.present() {
        let c = match &pc.rules {
            PcRules::Mettle(m) => {
                for t in m.lasting.iter().filter(|t| t.session == k) {
                    out.push(format!(
                        "{} — {} ({}, for good): {}",
                        pc.name, t.name, t.from, t.text
                    ));
                }
                continue;
            }
            PcRules::Core(c) => c,
        };
        let kinds = [("injury", &c.injuries), ("mutation", &c.mutations)];
        for (kind, list) in kinds {
            for t in list.iter().filter(|t| t.session == k) {
                let lasts = if t.permanent { ", for good" } else { "" };
                out.push(format!(
                    "{} — {} ({kind}{lasts}): {}",
                    pc.name, t.name, t.text
                ));
            }
        }
    }
    out
}

/// METTLE: a Heal Check for each PC at 0 or below now (stable: they are
/// rolled for again only if hurt again, or healed at the table), and who
/// heals a PC who falls this session — the dice against Difficulty 3 and
/// the exact odds, plain and with the Twist. Core: none.
pub fn heal_checks(state: &State) -> Vec<HealDue> {
    let present: Vec<usize> = (0..state.pcs.len())
        .filter(|&k| state.pcs[k].is_present() && state.pcs[k].mettle().is_some())
        .collect();
    let mut out = Vec::new();
    for &k in &present {
        let Some(m) = state.pcs[k].mettle().filter(|m| m.mettle <= 0) else {
            continue;
        };
        let h = heal::healer(state, &present, (k, m), None);
        let patient = state.pcs[k].name.clone();
        let line = format!(
            "{patient} (Mettle {}{}): {}",
            minus(m.mettle),
            if m.stable { ", stable" } else { "" },
            heal_words(state, k, h)
        );
        out.push(HealDue {
            patient: Some(patient),
            healer: state.pcs[h.0].name.clone(),
            line,
        });
    }
    // Who heals a PC who falls: the standing PC with the largest CULTURE
    // (and who heals that one).
    let standing: Vec<(usize, &MettlePc)> = present
        .iter()
        .filter_map(|&k| Some((k, state.pcs[k].mettle().filter(|m| m.mettle > 0)?)))
        .collect();
    let first = standing
        .iter()
        .copied()
        .find(|&(k, m)| heal::healer(state, &present, (k, m), None).0 != k)
        .map(|patient| heal::healer(state, &present, patient, None));
    if let Some(h) = first {
        for (patient, healer) in [
            (None, h),
            (Some(h.0), heal::healer(state, &present, h, None)),
        ] {
            let who = match patient {
                None => "Any PC who falls".to_owned(),
                Some(p) => format!("{} if they fall", state.pcs[p].name),
            };
            let line = format!(
                "{who}: {}",
                heal_words(state, patient.unwrap_or(usize::MAX), healer)
            );
            out.push(HealDue {
                patient: patient.map(|p| state.pcs[p].name.clone()),
                healer: state.pcs[healer.0].name.clone(),
                line,
            });
        }
    }
    out
}

/// `by Cress, 4D vs 3 — 55.25% to live (86.11% with a Twist)`: PC `h`,
/// with their block `hm`, heals PC `patient`.
fn heal_words(state: &State, patient: usize, (h, hm): (usize, &MettlePc)) -> String {
    let (culture, penalty, pool) = heal::healer_pool(hm);
    let by = if h == patient {
        "alone".to_owned()
    } else {
        format!("by {}", state.pcs[h].name)
    };
    let less = if penalty > 0 {
        format!(" (CULTURE {culture} − {penalty})")
    } else {
        String::new()
    };
    let o = heal::odds(pool);
    format!(
        "{by}, {pool}D{less} vs 3 — {} to live ({} with a Twist)",
        percent(o.plain),
        percent(o.with_twist)
    )
}

#[cfg(test)]
mod tests {
    use super::super::ledger::Change;
    use super::*;

    fn said(who: &str, what: &str) -> Change {
        Change {
            who: who.into(),
            what: what.into(),
            rule: String::new(),
        }
    }

    /// A PC who fell and was healed between sessions is told of in the
    /// recap, though their Mettle is back where it began; a stable PC and
    /// a failed Heal are told as such; another PC's lines are not theirs.
    #[test]
    fn a_fall_and_its_heal_are_told_even_when_nothing_changed_in_the_end() {
        let changes = [
            said("Ada", "Mettle 7 → -2 (9 lost): at 0 or below"),
            said("Brannoc", "Mettle 7 → 4 (3 lost)"),
            said(
                "Ada",
                "Heal Check by Cress: 4D vs 3, 55.32% to live (86.33% with a Twist) — dice [4, 6, 6, 4], \
                 Score 0, Edge 4: failure with Edge, so a Twist (Arrogant healer: tempers fray.) rerolls \
                 the Edge dice [6, 2, 2, 3] → Score 7, Edge 1: success",
            ),
            said("Cress", "Mettle 8 → 0 (8 lost): at 0 or below"),
            said(
                "Cress",
                "Heal Check by Ada: 3D vs 3 — dice [1, 2, 6], Score 3, Edge 0: success",
            ),
            said(
                "Cress",
                "stable, but no Edge: Mettle stays at 0 until healed",
            ),
        ];
        let ada = falls(&changes, "Ada");
        assert_eq!(
            ada,
            [
                "fell to −2",
                "healed by Cress after a Twist (Arrogant healer)"
            ]
        );
        assert_eq!(
            with_falls("no change".into(), ada),
            "fell to −2, healed by Cress after a Twist (Arrogant healer)"
        );
        assert_eq!(falls(&changes, "Brannoc"), Vec::<String>::new());
        assert_eq!(
            falls(&changes, "Cress"),
            ["fell to 0", "stable (Heal by Ada passed with no Edge)"]
        );
        let failed = [said(
            "Bo",
            "Heal Check by Ada: 2D vs 3 — Score 1, Edge 0: failure",
        )];
        assert_eq!(falls(&failed, "Bo"), ["Heal by Ada failed"]);
        assert_eq!(
            with_falls("Mettle 7 → 5".into(), vec!["fell to −1".into()]),
            "fell to −1; Mettle 7 → 5"
        );
    }
}
