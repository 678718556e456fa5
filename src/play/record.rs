//! The record a played session's log fills in (`record N`): the record
//! `record N` pre-fills from the pack ([`crate::campaign::prefill`]),
//! with the log's marks as its values — the day and stop the party ended
//! at, items and NPCs met, vouchers spent, money and supplies, each PC's
//! damage, statuses gained and ended, and a Heal Check made at the table
//! (`heal_edge`, `heal_twist`; a failed one is `fate = "dead"`); Core
//! Rules: the injuries and mutations each PC took, omens spent and
//! corruption gained. The
//! caller checks it as a hand-written record is checked before writing.

use std::fmt::Write as _;

use super::Play;
use super::marks::PcMarks;
use crate::campaign::prefill::{kv, quoted, record_text};
use crate::rules::RulesSystem;

/// A TOML list of strings.
fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| quoted(s)).collect();
    format!("[{}]", quoted.join(", "))
}

/// `key = value` with the comment the pre-filled `line` had.
fn with_comment(key: &str, value: &str, line: &str) -> String {
    // A key written commented out (`# rations = 4   # …`): its comment
    // is the one after the value, not the key itself.
    let body = line.strip_prefix("# ").unwrap_or(line);
    let comment = body.find("# ").map_or("", |i| &body[i + 2..]);
    let mut t = String::new();
    kv(&mut t, key, value, comment);
    t.trim_end().to_owned()
}

/// The record of `play`'s session with its log's marks (`None` outside a
/// campaign).
pub(crate) fn text(play: &Play) -> Option<String> {
    let after = play.fixed.after.as_ref()?;
    let marks = &play.marks;
    let (day, stop) = marks.day_stop(play);
    let mut out = String::new();
    let mut pc: Option<usize> = None;
    for line in record_text(after).lines() {
        let key = line.split(" = ").next().unwrap_or_default();
        let new = match (pc, key) {
            (None, "day") => {
                let mut l = with_comment("day", &day.to_string(), line);
                if after.stop.is_none()
                    && let Some(s) = &stop
                {
                    let _ = write!(l, "\nstop = {}", quoted(s));
                }
                l
            }
            (None, "stop") => {
                with_comment("stop", &quoted(stop.as_deref().unwrap_or_default()), line)
            }
            (None, _) if line.starts_with("#   ") && line.ends_with(" (not met)") => {
                met_or_not(line, &marks.met)
            }
            (None, "met") => format!("met = {}", list(&marks.met)),
            (None, "npcs_met") => format!("npcs_met = {}", list(&marks.npcs_met)),
            (None, "vouchers_spent") => format!("vouchers_spent = {}", list(&marks.spent)),
            (None, "money") => with_comment("money", &marks.money.to_string(), line),
            (None, "# rations") => supply(line, "rations", play.fixed.rations, marks.rations),
            (None, "# water") => supply(line, "water", play.fixed.water, marks.water),
            (_, "name") => {
                pc = play
                    .fixed
                    .pcs
                    .iter()
                    .position(|p| line.starts_with(&format!("name = {}", quoted(&p.name))));
                line.to_owned()
            }
            (Some(i), _) => pc_line(play.fixed.system, &marks.pcs[i], key, line),
            _ => line.to_owned(),
        };
        out.push_str(&new);
        out.push('\n');
    }
    Some(out)
}

/// `#   encounter/1: Crust-walkers (not met)`, said `(met)` when the log
/// marked it met.
fn met_or_not(line: &str, met: &[String]) -> String {
    let at = line[4..].split(':').next().unwrap_or_default();
    if met.iter().any(|m| m == at) {
        format!("{} (met)", line.trim_end_matches(" (not met)"))
    } else {
        line.to_owned()
    }
}

/// Rations or water: the pre-filled comment, or the value left when the
/// log changed it.
fn supply(line: &str, key: &str, start: u32, change: i64) -> String {
    match change {
        0 => line.to_owned(),
        _ => with_comment(key, &(i64::from(start) + change).to_string(), line),
    }
}

/// A line of a PC's table with their marks.
fn pc_line(system: RulesSystem, m: &PcMarks, key: &str, line: &str) -> String {
    let gained = if system == RulesSystem::Mettle {
        "statuses"
    } else {
        "conditions"
    };
    match key {
        "damage" => with_comment("damage", &m.damage.to_string(), line),
        k if k == gained => {
            let mut l = with_comment(gained, &list(&m.gained), line);
            if !m.cured.is_empty() {
                let _ = write!(l, "\ncured = {}", list(&m.cured));
            }
            if let Some(h) = m.healed.as_ref().filter(|h| h.passed) {
                let _ = write!(l, "\nheal_edge = {}", h.edge);
                if h.twist {
                    l.push_str("\nheal_twist = true");
                }
            }
            l
        }
        "injuries" if !m.injuries.is_empty() => with_comment(key, &list(&m.injuries), line),
        "mutations" if !m.mutations.is_empty() => with_comment(key, &list(&m.mutations), line),
        "corruption" if m.corruption != 0 => with_comment(key, &m.corruption.to_string(), line),
        "omens" if m.omens != 0 => with_comment(key, &m.omens.to_string(), line),
        "# fate" if m.healed.as_ref().is_some_and(|h| !h.passed) => {
            with_comment("fate", "\"dead\"", "# the Heal Check at the table failed")
        }
        _ => line.to_owned(),
    }
}

/// What `record N` did with a played session's log.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Written {
    /// The record was written (new, or over the unedited pre-fill).
    Record,
    /// The record already says what the log says: nothing written.
    Same,
    /// The record was edited by hand: the log's record went beside it.
    Beside(std::path::PathBuf),
}

/// `record N` for a session with a play log at `log`: its record made
/// from the log, checked as a hand-written one, and written at `path` —
/// never over a record edited by hand (refused, naming the first line
/// that differs; with `force` the log's record goes beside it).
pub(crate) fn write_played(
    ws: &crate::workspace::Workspace,
    fixed: super::Fixed,
    log: &std::path::Path,
    path: &std::path::Path,
) -> Result<Written, crate::error::Error> {
    use crate::diagnostic::Diagnostic;
    use crate::error::Error;
    let n = fixed.session;
    let after = fixed.after.clone().expect("a campaign's session");
    let text = crate::input::read_text(log, "play log")?;
    let play = Play::replay(fixed, &text).map_err(|e| super::log_error(log, e))?;
    let record = self::text(&play).expect("a campaign's session");
    crate::pack::Sources::check_record(ws, n, &record)?;
    if !path.exists() {
        crate::output::write_file(path, record.as_bytes())?;
        return Ok(Written::Record);
    }
    let now = crate::input::read_text(path, "session record")?;
    if now == record {
        return Ok(Written::Same);
    }
    // The pre-fill as `record N` wrote it before play holds no hand edit.
    if now == record_text(&after) {
        crate::output::write_file(path, record.as_bytes())?;
        return Ok(Written::Record);
    }
    let (line, theirs, ours) = first_difference(&now, &record);
    if ws.force {
        let beside = path.with_file_name("record.played.toml");
        crate::output::write_file(&beside, record.as_bytes())?;
        return Ok(Written::Beside(beside));
    }
    Err(Error::input(
        Diagnostic::at(
            path.display().to_string(),
            line,
            1,
            format!(
                "this record was edited by hand, and the play log ({}) says otherwise here: the \
                 record has `{theirs}`, the log makes `{ours}`; it is not overwritten",
                log.display()
            ),
        )
        .with_hint(
            "keep your record and leave the log out of it (nothing more to do), or run `record \
             N --force` to write the log's record beside it as record.played.toml and merge the \
             two by hand",
        ),
    ))
}

/// The first line (from 1) where `a` and `b` differ, with each one's.
fn first_difference(a: &str, b: &str) -> (usize, String, String) {
    let (mut la, mut lb) = (a.lines(), b.lines());
    let mut i = 0;
    loop {
        i += 1;
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return (i, String::new(), String::new()),
            (x, y) => {
                return (
                    i,
                    x.unwrap_or("(the end)").to_owned(),
                    y.unwrap_or("(the end)").to_owned(),
                );
            }
        }
    }
}

#[cfg(test)]
mod comment_tests {
    use super::*;

    #[test]
    fn a_commented_key_keeps_only_its_own_comment() {
        let line = "# rations = 4            # the party's rations left (left out: as before)";
        assert_eq!(
            with_comment("rations", "6", line),
            "rations = 6              # the party's rations left (left out: as before)"
        );
    }

    #[test]
    fn an_item_marked_met_is_not_said_not_met() {
        let met = vec!["journey/1/encounter/2".to_owned()];
        assert_eq!(
            met_or_not("#   journey/1/encounter/2: Driven stag (not met)", &met),
            "#   journey/1/encounter/2: Driven stag (met)"
        );
        assert_eq!(
            met_or_not("#   encounter/1: Crust-walkers (not met)", &met),
            "#   encounter/1: Crust-walkers (not met)"
        );
    }
}
