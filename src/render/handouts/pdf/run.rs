//! The run sheet (page 1): title, seed and share line, and the contents.

use super::ShareLine;
use crate::generators::pack::Pack;
use crate::render::layout::Flow;

/// The title, the share line and the contents.
pub(super) fn cover(f: &mut Flow, pack: &Pack, share: &ShareLine) {
    f.section(&pack.title);
    f.para(&format!("Session pack — seed {}", share.seed), 11.0, true);
    f.para(&share.plain(), 9.0, false);
    let mut contents = Vec::new();
    for (i, e) in pack.encounters.iter().enumerate() {
        contents.push(format!(
            "Encounter {}: {} ({})",
            i + 1,
            e.situation.row,
            e.threat.verdict
        ));
    }
    if !pack.npcs.is_empty() {
        contents.push(format!("NPC cards ({})", pack.npcs.len()));
    }
    if !pack.traps.is_empty() {
        contents.push(format!("Trap cards ({})", pack.traps.len()));
    }
    if pack.map.is_some() {
        contents.push("Point-crawl map (GM and players)".into());
    }
    if pack.journey.is_some() {
        contents.push("Journey log".into());
    }
    if !pack.vouchers.is_empty() {
        contents.push(format!("Downtime vouchers ({})", pack.vouchers.len()));
    }
    if !pack.injuries.is_empty() || !pack.mutations.is_empty() {
        contents.push("Injury and mutation slips".into());
    }
    f.gap(8.0);
    f.heading("Contents", 12.0);
    for c in contents {
        f.para(&format!("• {c}"), 10.0, false);
    }
}
