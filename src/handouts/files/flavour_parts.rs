//! What the flavours' pack files are made of beyond the handouts: an
//! encounter's foe groups as stat blocks ([`monster`]) and the tables a
//! GM may roll on at the table ([`roll_tables`]).

use super::super::flavour::{Monster, RollTable};
use super::super::foes;
use crate::generators::display_name;
use crate::generators::npc::NpcRules;
use crate::generators::session::Pack;
use crate::wording::lines;
use crate::wording::markup::escape_md;

/// A group of an encounter's identical foes as one stat block: `Cultist
/// ×8` with their shared numbers, then a track to tick per foe.
pub(super) fn monster(g: &foes::Group) -> Monster {
    let n = g.first();
    let cells = lines::foe_cells(n);
    let track = match n.rules {
        NpcRules::Mettle(_) => "Mettle",
        NpcRules::Core(_) => "Health",
    };
    let boxes = "☐".repeat(usize::try_from(cells.toughness).unwrap_or(0));
    let mut lines = vec![
        ("Stats".into(), cells.stats.clone()),
        ("Attack".into(), cells.attack.clone()),
    ];
    if g.members.len() == 1 {
        lines.push((track.into(), format!("{} {boxes}", cells.toughness)));
    } else {
        lines.push((track.into(), format!("{} each", cells.toughness)));
        lines.extend(
            g.members
                .iter()
                .map(|m| (escape_md(&m.name), boxes.clone())),
        );
    }
    Monster {
        name: escape_md(&match g.members.len() {
            1 => n.name.clone(),
            _ => g.title(),
        }),
        what: format!(
            "{}, tier {}",
            escape_md(&display_name(&n.archetype)),
            n.tier
        ),
        lines,
    }
}

/// What a GM may roll on at the table: which NPC turns up, which
/// encounter comes next, which stop the rumour points to.
pub(super) fn roll_tables(pack: &Pack, w: &crate::handouts::markdown::Wording) -> Vec<RollTable> {
    let npcs = pack
        .npcs
        .iter()
        .map(|n| escape_md(&format!("{} — {}", n.name, display_name(&n.archetype))))
        .collect();
    let encounters = pack
        .encounters
        .iter()
        .enumerate()
        .map(|(i, e)| {
            escape_md(&format!(
                "{} {}: {}",
                w.sheet.encounter,
                i + 1,
                e.situation.row
            ))
        })
        .collect();
    let stops = pack.map.as_ref().map_or_else(Vec::new, |m| {
        m.stops.iter().map(|s| escape_md(&s.name)).collect()
    });
    vec![
        RollTable {
            id: "roll-npcs",
            title: "Who turns up",
            column: "NPC",
            rows: npcs,
        },
        RollTable {
            id: "roll-encounters",
            title: "What happens next",
            column: "encounter",
            rows: encounters,
        },
        RollTable {
            id: "roll-stops",
            title: "Where the rumour points",
            column: "stop",
            rows: stops,
        },
    ]
}
