//! METTLE's Heal Check in downtime, one rule to a function: who is due
//! (at 0 Mettle or below, and not already stable unless hurt again), who
//! heals them, the Check rolled with its exact odds and — on a failure
//! with Edge — the Twist a player whose PC's life is at stake always calls
//! (Engine, Twists: the Edge dice rerolled; the price drawn from
//! `mettle.twists.heal`), a result made at the table and recorded
//! (`heal_edge`, `heal_twist`) taken as it is, and the rest a day's rest
//! at a time.

use super::{Change, Start, change, fate, record_stream, rule};
use crate::campaign::record::{PcRecord, RecordFile};
use crate::campaign::state::{MettlePc, PcRules, State, Taken};
use crate::diagnostic::Diagnostic;
use crate::dice::roll::PoolOutcome;
use crate::generators::checks;

/// What the Heal Checks after a session came to: who was tied up in them
/// (patients and healers: no Downtime Voucher), and the days of rest.
#[derive(Debug, Default)]
pub(super) struct Downtime {
    pub involved: Vec<usize>,
    pub days: u32,
}

/// A Heal Check's chance as the run sheet and the ledger print it: the
/// healer's pool against Difficulty 3, without and with a Twist.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HealOdds {
    pub pool: u32,
    pub plain: f64,
    pub with_twist: f64,
}

/// The exact odds that `pool` dice beat Difficulty 3 (no dice: none).
pub(crate) fn odds(pool: u32) -> HealOdds {
    let chance = |twist| {
        if pool == 0 {
            0.0
        } else {
            checks::chance(pool, rule::HEAL_DIFFICULTY, twist).unwrap_or(0.0)
        }
    };
    HealOdds {
        pool,
        plain: chance(false),
        with_twist: chance(true),
    }
}

/// Every PC at 0 or below in `present`, healed (or not) between session
/// `n` and the next.
pub(super) fn downtime(
    start: &Start,
    state: &mut State,
    n: u32,
    record: &RecordFile,
    present: &[usize],
    changes: &mut Vec<Change>,
) -> Downtime {
    let mut out = Downtime::default();
    for &k in present {
        let Some(m) = state.pcs[k].mettle() else {
            continue;
        };
        if m.mettle > 0 || !state.pcs[k].is_present() {
            continue;
        }
        let name = state.pcs[k].name.clone();
        let entry = record
            .record
            .pcs
            .iter()
            .find(|p| p.name.trim().eq_ignore_ascii_case(&name));
        out.involved.push(k);
        let hurt_again = entry.is_some_and(|e| e.damage > 0);
        if entry.and_then(|e| e.heal_edge).is_none() && m.stable && !hurt_again {
            still_stable(&name, m.mettle, changes);
            continue;
        }
        // Whoever heals — at the table or in downtime — is tied up in it
        // (no Downtime Voucher): the PC the record names, else the
        // ledger's own choice among the PCs the session started with (a
        // PC who joined in it, added to the record later too, never
        // changes who healed).
        let (h, hm) = session_healer(
            state,
            present,
            n,
            (k, m),
            entry.and_then(|e| e.healer.as_deref()),
        );
        if !out.involved.contains(&h) {
            out.involved.push(h);
        }
        let pool = healer_pool(hm);
        // The patient's block, carried through the Check and the rest and
        // put back after (a patient who dies keeps the one in the state).
        let mut patient = m.clone();
        let edge = match entry.and_then(|e| e.heal_edge) {
            Some(edge) => at_the_table(&name, edge, entry.is_some_and(|e| e.heal_twist), changes),
            None => match rolled(start, state, n, (k, &mut patient), (h, pool), changes) {
                Some(edge) => edge,
                None => {
                    out.days = out.days.max(1);
                    continue;
                }
            },
        };
        out.days = out.days.max(rest(&name, &mut patient, edge, changes));
        state.pcs[k].rules = PcRules::Mettle(patient);
    }
    out
}

/// Who heals the `patient` (PC `k` and their block) after session `n`:
/// the PC `named` by the record, else the standing PC with the best
/// CULTURE among those the session started with, else the patient alone.
fn session_healer<'s>(
    state: &'s State,
    present: &[usize],
    n: u32,
    patient: (usize, &'s MettlePc),
    named: Option<&str>,
) -> (usize, &'s MettlePc) {
    if named.is_some() {
        return healer(state, present, patient, named);
    }
    let started: Vec<usize> = present
        .iter()
        .copied()
        .filter(|&h| state.pcs[h].joined_in < n)
        .collect();
    healer(state, &started, patient, None)
}

/// A Heal made at the table and recorded: the ledger rolls nothing.
fn at_the_table(name: &str, edge: u32, twist: bool, changes: &mut Vec<Change>) -> u32 {
    let how = if twist { " after a Twist" } else { "" };
    changes.push(change(
        name,
        format!("Heal Check made at the table: success{how}, Edge {edge}"),
        rule::HEAL,
    ));
    edge
}

/// A stable PC not hurt since: not rolled for again.
fn still_stable(name: &str, mettle: i64, changes: &mut Vec<Change>) {
    changes.push(change(
        name,
        format!("stable at {mettle} and not hurt again: no new Heal Check"),
        rule::HEAL_STABLE,
    ));
}

/// Mettle back a day's rest at a time at Edge points a day (no Edge:
/// stable, not recovering) for `name`, whose block is `m`; the days it
/// takes.
fn rest(name: &str, m: &mut MettlePc, edge: u32, changes: &mut Vec<Change>) -> u32 {
    let now = m.mettle;
    match rule::recovery_days(now, edge) {
        Some(days) => {
            let after = now + i64::from(edge) * i64::from(days);
            changes.push(change(
                name,
                format!(
                    "Mettle {now} → {after} after {} rest (Edge {edge}: {edge} a day)",
                    if days == 1 {
                        "1 day's".to_owned()
                    } else {
                        format!("{days} days'")
                    }
                ),
                rule::HEAL,
            ));
            m.mettle = after;
            m.stable = false;
            days
        }
        None => {
            changes.push(change(
                name,
                format!("stable, but no Edge: Mettle stays at {now} until healed"),
                rule::METTLE_STAYS,
            ));
            m.stable = true;
            1
        }
    }
}

/// The Heal Check of PC `k` (their block: a lasting price goes on it) by
/// PC `h` with their [`healer_pool`], rolled under
/// `record/<n>/<pc>/heal/0` (the Twist's price under
/// `.../heal-twist/0`): the Edge on a success; `None` when the patient
/// died.
fn rolled(
    start: &Start,
    state: &mut State,
    n: u32,
    (k, patient): (usize, &mut MettlePc),
    (h, (culture, penalty, pool)): (usize, (u32, u32, u32)),
    changes: &mut Vec<Change>,
) -> Option<u32> {
    let name = state.pcs[k].name.clone();
    let by = if h == k {
        format!("{name} alone")
    } else {
        state.pcs[h].name.clone()
    };
    let mut dice = record_stream(&start.seed, n, &name, "heal", 0);
    let o = checks::roll(pool, rule::HEAL_DIFFICULTY, true, &mut dice);
    let penalty_words = if penalty > 0 {
        format!(" (CULTURE {culture} − {penalty} for negative Mettle)")
    } else {
        String::new()
    };
    let price = o.twist.as_ref().map(|_| twist_price(start, n, &name));
    let words = price.as_ref().map(|p| p.words.clone());
    changes.push(change(
        &name,
        format!(
            "Heal Check by {by}: {pool}D{penalty_words} vs 3, {} — {}",
            odds_words(odds(pool)),
            outcome_words(&o, words.as_deref())
        ),
        if price.is_some() {
            rule::HEAL_TWIST
        } else {
            rule::HEAL
        },
    ));
    if o.success == Some(true) {
        if let Some(p) = price.filter(|p| p.lasting) {
            lasting(&name, patient, n, p, changes);
        }
        return Some(o.edge);
    }
    fate::die(
        start,
        state,
        k,
        n,
        false,
        "died: the Heal Check failed",
        rule::HEAL,
        changes,
    );
    None
}

/// A healer's Heal pool from their block `hm`: (CULTURE, penalty, dice).
/// A Staggered healer (themselves, or another at 0 or below) suffers a
/// die penalty equal to negative Mettle.
pub(crate) fn healer_pool(hm: &MettlePc) -> (u32, u32, u32) {
    let culture = hm.block.CULTURE;
    let penalty = u32::try_from((-hm.mettle).max(0)).unwrap_or(u32::MAX);
    (culture, penalty, culture.saturating_sub(penalty))
}

/// `55.25% to live (86.11% with a Twist)`.
pub(crate) fn odds_words(o: HealOdds) -> String {
    format!(
        "{} to live ({} with a Twist)",
        checks::percent(o.plain),
        checks::percent(o.with_twist)
    )
}

/// `dice [4, 4, 5, 6], Score 0, Edge 4: failure with Edge, so a Twist
/// (Lost a part: …) rerolls the Edge dice [1, 2, 5, 6] → Score 3, Edge
/// 2: failure`.
fn outcome_words(o: &PoolOutcome, price: Option<&str>) -> String {
    let verdict = |ok: bool| if ok { "success" } else { "failure" };
    let first = format!(
        "dice {:?}, Score {}, Edge {}",
        o.dice, o.first.score, o.first.edge
    );
    match (&o.twist, price) {
        (Some(t), Some(price)) => format!(
            "{first}: failure with Edge, so a Twist ({price}) rerolls the Edge dice {:?} → Score {}, Edge {}: {}",
            t.rerolled,
            t.score,
            t.edge,
            verdict(o.success == Some(true))
        ),
        _ => format!("{first}: {}", verdict(o.success == Some(true))),
    }
}

/// A Heal Twist's price: its row, its words in the ledger line
/// (`Disfigured: They live, but …`) and whether it lasts (a row tagged
/// `lasting`).
struct Price {
    row: String,
    text: String,
    words: String,
    lasting: bool,
}

/// The Heal Twist's price, drawn from `mettle.twists.heal` (tables
/// without it: the Engine's default Twist, Delay).
fn twist_price(start: &Start, n: u32, name: &str) -> Price {
    let mut s = record_stream(&start.seed, n, name, "heal-twist", 0);
    match start.library.roll_table(TWIST_TABLE, &mut s) {
        Ok(t) => Price {
            words: format!("{}: {}", t.row, t.text),
            lasting: t.tags.iter().any(|g| g == LASTING_TAG),
            row: t.row,
            text: t.text,
        },
        Err(_) => Price {
            row: "Delay".into(),
            text: "the patient loses their next Action".into(),
            words: "Delay: the patient loses their next Action".into(),
            lasting: false,
        },
    }
}

/// The tag of a Heal Twist row whose price stays on the patient.
pub(crate) const LASTING_TAG: &str = "lasting";

/// A lasting price kept on the patient `name` (`Disfigured`, on their
/// block `m`), for good.
fn lasting(name: &str, m: &mut MettlePc, n: u32, p: Price, changes: &mut Vec<Change>) {
    changes.push(change(
        name,
        format!("{} for good (the Heal Twist's price)", p.row),
        rule::LASTING,
    ));
    m.lasting.push(Taken {
        name: p.row,
        text: p.text,
        session: n,
        from: "Heal Twist".into(),
        permanent: true,
    });
}

/// The table the Heal Twist's price is drawn from.
pub(crate) const TWIST_TABLE: &str = "mettle.twists.heal";

/// Who makes the Heal Check of the `patient` (PC `k` and their block),
/// with the healer's block: the METTLE PC the record names, else the
/// standing PC (Mettle above zero) with the largest CULTURE (the first in
/// party order on a tie), else the patient alone.
pub(crate) fn healer<'s>(
    state: &'s State,
    present: &[usize],
    patient: (usize, &'s MettlePc),
    named: Option<&str>,
) -> (usize, &'s MettlePc) {
    let blocks = present
        .iter()
        .filter_map(|&h| Some((h, state.pcs[h].mettle()?)));
    if let Some(name) = named
        && let Some(found) = blocks
            .clone()
            .find(|&(h, _)| state.pcs[h].name.eq_ignore_ascii_case(name.trim()))
    {
        return found;
    }
    blocks
        .filter(|&(h, m)| h != patient.0 && m.mettle > 0)
        .fold(
            None,
            |best: Option<(usize, &MettlePc)>, (h, m)| match best {
                Some(b) if b.1.block.CULTURE >= m.block.CULTURE => Some(b),
                _ => Some((h, m)),
            },
        )
        .unwrap_or(patient)
}

/// `heal_twist` says how a Heal made at the table went, so it needs the
/// `heal_edge` of that Heal.
pub(super) fn record_problems(record: &RecordFile, i: usize, pc: &PcRecord) -> Vec<Diagnostic> {
    if pc.heal_twist && pc.heal_edge.is_none() {
        return vec![
            record
                .at_pc(
                    i,
                    "heal_twist",
                    None,
                    format!(
                        "heal_twist = true, but {} has no `heal_edge`: a Twist is part of a Heal made at the table",
                        pc.name
                    ),
                )
                .with_hint(
                    "add the Heal's Edge after the Twist (`heal_edge = 0` or more), or leave \
                     `heal_twist` out for the ledger to roll the Heal",
                ),
        ];
    }
    Vec::new()
}
