//! `campaign [--json]`: the campaign now — the day, the party's stop,
//! each PC as they are, the vouchers in hand with their serials, the
//! funerals owed, the NPCs met, the stops visited — and, session by
//! session, what changed and by which rule; then the packs made from an
//! older campaign state (an earlier record edited since they were
//! prepped). The JSON is the ledger itself with `stale_packs` (the
//! README's "The campaign ledger" lists every key).

use std::fmt::Write as _;
use std::io::Write;

use crate::campaign::ledger::SessionLedger;
use crate::campaign::state::{PcRules, Presence};
use crate::campaign::{Ledger, PcState};
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::pack::stale::Stale;
use crate::workspace::Workspace;

/// Print the ledger as text or JSON, with the packs made from an older
/// campaign state (JSON: `stale_packs`, each `session`, `folder`,
/// `changed`).
pub(crate) fn show(
    ledger: &Ledger,
    stale: &[Stale],
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Error> {
    if json {
        #[derive(serde::Serialize)]
        struct Shown<'a> {
            #[serde(flatten)]
            ledger: &'a Ledger,
            stale_packs: &'a [Stale],
        }
        return super::json(
            out,
            &Shown {
                ledger,
                stale_packs: stale,
            },
        );
    }
    out.write_all(text(ledger).as_bytes())?;
    out.write_all(stale_text(stale).as_bytes())?;
    Ok(())
}

/// The stale packs, each with what changed since it was made.
fn stale_text(stale: &[Stale]) -> String {
    if stale.is_empty() {
        return String::new();
    }
    let mut t = String::from(
        "\nStale packs (made from an older campaign state; `tablewright prep --force` makes them \
         again in order)\n",
    );
    for s in stale {
        let changed = crate::generators::join_and(&s.changed);
        let _ = writeln!(
            t,
            "  session {} ({}): {changed} changed since",
            s.session,
            s.folder.display()
        );
    }
    t
}

/// The ledger as the terminal shows it: the campaign now, then each
/// session with what changed.
pub(crate) fn text(ledger: &Ledger) -> String {
    let mut t = now_text(ledger);
    for s in &ledger.sessions {
        t.push('\n');
        session_text(&mut t, s);
    }
    t
}

/// The campaign now: the day and stop, the purse, the party, and what it
/// holds, owes and knows.
fn now_text(ledger: &Ledger) -> String {
    let now = &ledger.now;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "The campaign now ({}): session {} starts on day {}{}",
        ledger.system.label(),
        now.session,
        now.day,
        now.stop
            .as_ref()
            .map(|s| format!(", the party at {s}"))
            .unwrap_or_default()
    );
    let mut purse = format!("Money {}ʂ", now.money);
    if let Some(r) = now.rations {
        let _ = write!(purse, ", rations {r}");
    }
    if let Some(w) = now.water {
        let _ = write!(purse, ", water {w}");
    }
    let _ = writeln!(t, "{purse}");
    t.push_str("\nThe party\n");
    let width = now
        .pcs
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0);
    for pc in &now.pcs {
        let _ = writeln!(t, "  {:width$}  {}", pc.name, pc_line(pc));
    }
    if !now.vouchers.is_empty() {
        t.push_str("\nVouchers in hand\n");
        for v in &now.vouchers {
            let from = if v.downtime {
                format!("downtime after session {}", v.issued_in)
            } else {
                format!("session {}'s pack", v.issued_in)
            };
            let _ = writeln!(t, "  {}  {} ({from})", v.serial, v.holder);
        }
    }
    if !now.funerals_due.is_empty() {
        t.push_str("\nFunerals due by the next full rest\n");
        for f in &now.funerals_due {
            let _ = writeln!(
                t,
                "  {} (died in session {}): {}ʂ{}",
                f.pc,
                f.session,
                f.cost,
                if f.remains {
                    ", the remains brought back"
                } else {
                    ""
                }
            );
        }
    }
    if !now.npcs_met.is_empty() {
        t.push_str("\nNPCs met\n");
        for n in &now.npcs_met {
            let _ = writeln!(t, "  {} ({} of session {})", n.name, n.address, n.session);
        }
    }
    if !now.visited.is_empty() {
        let _ = writeln!(t, "\nStops visited: {}", now.visited.join(", "));
    }
    t
}

/// One session of the ledger: its days and stops, the items met, and
/// every change with its rule.
fn session_text(t: &mut String, s: &SessionLedger) {
    if !s.recorded {
        let _ = writeln!(
            t,
            "Session {}: {}",
            s.number,
            if s.prepped {
                "prepped, not recorded yet"
            } else {
                "not prepped yet"
            }
        );
        return;
    }
    let place = match (&s.stop_start, &s.stop_end) {
        (Some(a), Some(b)) if a != b => format!(", {a} → {b}"),
        (_, Some(b)) => format!(", at {b}"),
        _ => String::new(),
    };
    let _ = writeln!(
        t,
        "Session {}: day {} → {}{place}",
        s.number,
        s.day_start,
        s.day_end.unwrap_or(s.day_start)
    );
    if !s.met.is_empty() {
        let _ = writeln!(t, "  met {}", s.met.join(", "));
    }
    for c in &s.changes {
        let _ = writeln!(t, "  {}: {}", c.who, c.what);
        let _ = writeln!(t, "      ({})", c.rule);
    }
}

/// One PC now, on a line.
fn pc_line(pc: &PcState) -> String {
    match pc.presence {
        Presence::Dead => return format!("died in session {}", pc.gone_in.unwrap_or(0)),
        Presence::Left => return format!("left in session {}", pc.gone_in.unwrap_or(0)),
        Presence::Present => {}
    }
    let mut line = String::new();
    match &pc.rules {
        PcRules::Mettle(m) => {
            let _ = write!(line, "Mettle {} of {}", m.mettle, m.max_mettle);
            if m.mettle <= 0 {
                line.push_str(" (sits out until healed)");
            }
            line.push_str(&crate::campaign::recap::mettle_marks(m));
        }
        PcRules::Core(c) => {
            let s = &c.sheet;
            let _ = write!(line, "health {} of {}", c.health(), s.max_health());
            for (name, now) in [("STR", s.STR), ("AGI", s.AGI), ("WIT", s.WIT)] {
                let base = c
                    .base
                    .each()
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or(now, |b| b.1);
                if now == base {
                    let _ = write!(line, ", {name} {now}");
                } else {
                    let _ = write!(line, ", {name} {now} (of {base} until a full rest)");
                }
            }
            let _ = write!(
                line,
                ", omens {} of {}, corruption {}",
                s.omens, s.max_omens, s.corruption
            );
            if !s.conditions.is_empty() {
                let _ = write!(line, "; {}", s.conditions.join(", "));
            }
            if !c.injuries.is_empty() {
                let names: Vec<String> = c
                    .injuries
                    .iter()
                    .map(|i| {
                        if i.permanent {
                            format!("{} (for good)", i.name)
                        } else {
                            i.name.clone()
                        }
                    })
                    .collect();
                let _ = write!(line, "; injuries: {}", names.join(", "));
            }
            if !c.mutations.is_empty() {
                let names: Vec<&str> = c.mutations.iter().map(|m| m.name.as_str()).collect();
                let _ = write!(line, "; mutations: {}", names.join(", "));
            }
        }
    }
    if pc.joined_in > 0 {
        let _ = write!(line, " (joined in session {})", pc.joined_in);
    }
    line
}

/// `campaign`: the ledger of the campaign the command runs in.
pub(crate) fn run(ws: &Workspace, out: &mut dyn Write) -> Result<(), Error> {
    let ledger = ledger_here(ws)?;
    let stale = crate::pack::stale::find(ws)?.packs;
    show(&ledger, &stale, ws.json, out)
}

/// The ledger of the campaign found walking up from the working folder:
/// each session's pack made again from the state it started from and
/// folded with its record ([`crate::pack::Sources::campaign_ledger`]).
fn ledger_here(ws: &Workspace) -> Result<Ledger, Error> {
    if ws.campaign.is_none() {
        return Err(Error::input(
            Diagnostic::message(
                "there is no campaign here: no campaign.toml in this folder or above it",
            )
            .with_hint("make one with `tablewright init DIR`, then run `campaign` inside it"),
        ));
    }
    crate::pack::Sources::campaign_ledger(ws)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::campaign::ledger::{IssuedVoucher, PackFacts, PackNpc, SessionInput, Start};
    use crate::campaign::{RecordFile, fold};
    use crate::rules::{Party, RulesSystem};
    use crate::seed::Seed;

    #[test]
    fn the_campaign_reads_as_its_state_then_each_session() {
        let library = crate::content::test_library();
        let start = Start {
            system: RulesSystem::Mettle,
            seed: Seed::new("salt-road").unwrap(),
            party: Party::from_summary("3,2,4", RulesSystem::Mettle).unwrap(),
            stop: Some("the Salt Gate".into()),
            map: None,
            money: 10,
            stock: None,
            library: &library,
        };
        let pack = PackFacts {
            items: vec!["encounter/1".into(), "npc/1".into()],
            vouchers: vec![IssuedVoucher {
                serial: "SA-1F0B-77C2".into(),
                holder: "PC 1".into(),
            }],
            npcs: vec![PackNpc {
                address: "npc/1".into(),
                name: "Mara Voss".into(),
            }],
            ..PackFacts::default()
        };
        let text = "session = 1\nday = 3\nstop = \"Dry Well\"\nmet = [\"encounter/1\"]\nnpcs_met = [\"npc/1\"]\nmoney = 5\n\
                    [[pc]]\nname = \"PC 2\"\ndamage = 6\nheal_edge = 1\n[[pc]]\nname = \"PC 1\"\nstatuses = [\"Surprised\", \"Afflicted\"]\n";
        let sessions = [
            SessionInput {
                number: 1,
                pack: Some(pack.clone()),
                record: Some(
                    RecordFile::from_text(Path::new("sessions/1/record.toml"), text.into())
                        .unwrap(),
                ),
            },
            SessionInput {
                number: 2,
                pack: Some(pack),
                record: None,
            },
        ];
        let ledger = fold(&start, &sessions).unwrap();
        assert_eq!(
            super::text(&ledger),
            "\
The campaign now (METTLE): session 2 starts on day 6, the party at Dry Well
Money 15ʂ

The party
  PC 1  Mettle 6 of 6; Afflicted
  PC 2  Mettle 4 of 4
  PC 3  Mettle 8 of 8

Vouchers in hand
  SA-1F0B-77C2  PC 1 (session 1's pack)
  SA-S1-PC1  PC 1 (downtime after session 1)

NPCs met
  Mara Voss (npc/1 of session 1)

Stops visited: the Salt Gate, Dry Well

Session 1: day 1 → 3, the Salt Gate → Dry Well
  met encounter/1
  party: day 1 → 3 (2 days)
      (record)
  party: travelled from the Salt Gate to Dry Well
      (record)
  party: met Mara Voss (npc/1 of session 1)
      (record)
  party: money 10ʂ → 15ʂ (+5ʂ)
      (record)
  PC 2: Mettle 4 → -2 (6 lost): at 0 or below
      (METTLE Engine: taking damage — Mettle lowered)
  PC 1: status: Surprised
      (record)
  PC 1: status: Afflicted
      (record)
  PC 1: Surprised clears: next Scene, they are no longer Surprised
      (METTLE Scenes: Status: Surprised)
  PC 2: Heal Check made at the table: success, Edge 1
      (METTLE Scenes: Heal — CULTURE vs 3 in downtime; each Edge restores a point of Mettle per day's rest; failure is death)
  PC 2: Mettle -2 → 1 after 3 days' rest (Edge 1: 1 a day)
      (METTLE Scenes: Heal — CULTURE vs 3 in downtime; each Edge restores a point of Mettle per day's rest; failure is death)
  party: downtime: 3 days (day 3 → 6)
      (METTLE Scenes: Downtime — a long Scene while the fallen heal)
  PC 1: took Downtime Voucher SA-S1-PC1
      (METTLE Scenes: Downtime — those not involved in a long Scene take a Downtime Voucher)
  PC 2: Mettle 1 → 4
      (METTLE Engine: Mettle — above zero, it refills when a new Scene starts)

Session 2: prepped, not recorded yet
"
        );
    }
}
