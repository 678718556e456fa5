//! The card sheets: NPC cards, trap cards, downtime vouchers and injury and
//! mutation slips, to cut out.

use super::ShareLine;
use crate::generators::display_name;
use crate::generators::npc::Npc;
use crate::generators::pack::Pack;
use crate::generators::trap::Trap;
use crate::render::layout::{Card, Flow};
use crate::render::lines;
use crate::render::perils;

/// NPC cards to cut out, six to a page.
pub(super) fn npc_cards(f: &mut Flow, npcs: &[Npc]) {
    f.section("NPC cards");
    let cards: Vec<Card> = npcs
        .iter()
        .map(|n| Card {
            title: format!("{} — {}", n.name, display_name(&n.archetype)),
            body: format!("{}\n{}", n.concept, lines::card_stats(n)),
        })
        .collect();
    f.cards(&cards, 2, 3);
}

/// Trap cards to cut out, three to a page.
pub(super) fn trap_cards(f: &mut Flow, traps: &[Trap]) {
    f.section("Trap cards");
    let cards: Vec<Card> = traps
        .iter()
        .map(|t| Card {
            title: format!("Trap: {}", t.name),
            body: format!(
                "Trigger: {}\nClue: {}\nEffect: {}\n{}\n{}",
                t.trigger,
                t.clue,
                t.effect,
                perils::roll(t),
                perils::odds_short(t)
            ),
        })
        .collect();
    f.cards(&cards, 1, 3);
}

/// Downtime vouchers to cut out, eight to a page.
pub(super) fn vouchers(f: &mut Flow, pack: &Pack, share: &ShareLine) {
    f.section("Downtime vouchers");
    let cards: Vec<Card> = pack
        .vouchers
        .iter()
        .map(|v| Card {
            title: format!("DOWNTIME VOUCHER · No. {}", v.serial),
            body: format!(
                "For: {}\n{}\n{}",
                if v.holder.is_empty() {
                    "________________"
                } else {
                    &v.holder
                },
                v.text,
                share.plain()
            ),
        })
        .collect();
    f.cards(&cards, 2, 4);
}

/// Injury and mutation slips to cut out, eight to a page.
pub(super) fn slips(f: &mut Flow, pack: &Pack) {
    f.section("Injury and mutation slips");
    let injuries = pack.injuries.iter().map(|i| Card {
        title: format!(
            "Injury — {}{}",
            i.name,
            if i.permanent { " (permanent)" } else { "" }
        ),
        body: format!("{}\n{}", i.text, i.roll.trail_text()),
    });
    let mutations = pack.mutations.iter().map(|m| {
        let names: Vec<&str> = m.gained.iter().map(|g| g.name.as_str()).collect();
        let texts: Vec<&str> = m.gained.iter().map(|g| g.text.as_str()).collect();
        Card {
            title: format!("Mutation — {}", names.join(" + ")),
            body: texts.join("\n"),
        }
    });
    let cards: Vec<Card> = injuries.chain(mutations).collect();
    f.cards(&cards, 2, 4);
}
