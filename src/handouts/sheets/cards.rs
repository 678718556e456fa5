//! The card sheets: NPC cards, trap cards, downtime vouchers and injury and
//! mutation slips, all poker-size on one 3 × 3 grid (see
//! [`crate::page::layout`]'s card grid), each carrying the seed and its
//! item's address (`npc/3`).

use super::ShareLine;
use crate::generators::npc::Npc;
use crate::generators::session::Pack;
use crate::generators::trap::Trap;
use crate::generators::voucher::Voucher;
use crate::generators::{Address, display_name};
use crate::handouts::markdown::Wording;
use crate::page::layout::{Block, Card, CardSet, Flow};
use crate::rules::core::Sheet;
use crate::wording::markup::Markup;
use crate::wording::{lines, perils};

/// Every card of the pack, NPCs first, then traps, vouchers and slips,
/// each kind under its own bookmark.
pub(super) fn card_sheets(f: &mut Flow, pack: &Pack, share: &ShareLine, w: &Wording) {
    f.card_sheets(&share.seed, &sets(pack, w));
}

/// The one card of the item at `address` on a sheet of its own (`None`
/// if the pack has no such card).
pub(super) fn one_card(
    f: &mut Flow,
    pack: &Pack,
    share: &ShareLine,
    w: &Wording,
    address: &str,
) -> Option<()> {
    let mut sets = sets(pack, w);
    for set in &mut sets {
        set.cards.retain(|c| c.address == address);
    }
    sets.iter()
        .any(|s| !s.cards.is_empty())
        .then(|| f.card_sheets(&share.seed, &sets))
}

/// Every card of the pack, by kind, in the GM's words.
fn sets(pack: &Pack, w: &Wording) -> [CardSet; 4] {
    [
        CardSet {
            title: w.npc.group.clone(),
            cards: numbered(&pack.npcs, "npc", |n, at| npc_card(n, at, w))
                .into_iter()
                .chain(returning(pack, w))
                .collect(),
        },
        CardSet {
            title: w.trap.group.clone(),
            cards: numbered(&pack.traps, "trap", |t, at| trap_card(t, at, w)),
        },
        CardSet {
            title: w.voucher.group.clone(),
            cards: numbered(&pack.vouchers, "voucher", |v, at| voucher_card(v, at, w))
                .into_iter()
                .chain(pack.campaign.iter().flat_map(|c| {
                    c.downtime_vouchers.iter().map(|v| {
                        // No item of the pack: `downtime` at the card's foot
                        // (short, beside the seed), the session above.
                        let mut card = voucher_card(v, "downtime".into(), w);
                        card.blocks.insert(
                            0,
                            Block::Label(crate::handouts::files::downtime_label(c.session)),
                        );
                        card
                    })
                }))
                .collect(),
        },
        CardSet {
            title: w.slip.group.clone(),
            cards: slips(pack, w),
        },
    ]
}

/// A downtime voucher: its serial, holder, what it does and a box for
/// when it is spent.
fn voucher_card(v: &Voucher, address: String, w: &Wording) -> Card {
    Card {
        title: w.voucher.title.clone(),
        subtitle: format!("{} {}", w.voucher.number, v.serial),
        address,
        blocks: vec![
            Block::Field(
                w.voucher.holder.clone(),
                if v.holder.is_empty() {
                    "____________________".into()
                } else {
                    v.holder.clone()
                },
            ),
            Block::Text(v.text.clone()),
            Block::Label(w.voucher.spent.clone()),
            Block::Notes,
        ],
    }
}

/// A campaign's NPCs brought back, their stat blocks as they were,
/// addressed where they were made (`npc/2 · s1`: the long form, `npc/2 of
/// session 1`, cut the card's seed short) and saying when the party met
/// them.
fn returning(pack: &Pack, w: &Wording) -> Vec<Card> {
    let Some(c) = &pack.campaign else {
        return Vec::new();
    };
    c.returning
        .iter()
        .map(|r| {
            let mut card = npc_card(&r.npc, format!("{} · s{}", r.address, r.session), w);
            let met = match r.met_in {
                Some(n) => format!("Met in session {n}."),
                None => format!("From session {}'s pack.", r.session),
            };
            card.blocks.insert(0, Block::Label(met));
            card
        })
        .collect()
}

/// A card for each item, addressed `kind/1`, `kind/2`, ….
fn numbered<T>(items: &[T], kind: &str, card: impl Fn(&T, String) -> Card) -> Vec<Card> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| card(item, Address::new(kind, i).to_string()))
        .collect()
}

/// An NPC: name and archetype, concept, want, secret and manner, then (on
/// the back of a folded pair when one card cannot hold them) look, stat
/// block, weapons, CALLINGS or skills and traits, a Mettle or health track
/// and a note line.
fn npc_card(n: &Npc, address: String, w: &Wording) -> Card {
    let archetype = display_name(&n.archetype);
    let subtitle = if n.name == archetype {
        format!("tier {}", n.tier)
    } else {
        format!("{archetype} · tier {}", n.tier)
    };
    // Too long for one card, a person is a folded pair: who they are, what
    // they want and hide and how they talk on the front; what the party
    // sees and their numbers, for the scene itself, on the back.
    let (front, back): (Vec<_>, Vec<_>) = n
        .traits
        .lines()
        .into_iter()
        .partition(|(label, _)| matches!(*label, "Wants" | "Secret" | "Manner"));
    let field =
        |(label, text): (&str, &str)| Block::Field(w.npc.trait_label(label), text.to_owned());
    let mut blocks = vec![Block::Text(n.concept.clone())];
    blocks.extend(front.into_iter().map(field));
    blocks.push(Block::Break);
    blocks.extend(back.into_iter().map(field));
    if let Some(m) = n.rules.mettle() {
        let b = &m.block;
        let mut grid: Vec<(String, String)> = b
            .attributes()
            .iter()
            .map(|(name, v)| ((*name).to_owned(), v.to_string()))
            .collect();
        grid.push(("Soak".into(), m.soak.to_string()));
        grid.push(("Armor".into(), b.armor.to_string()));
        grid.push(("Speed".into(), b.speed.to_string()));
        blocks.push(Block::Grid(grid));
        let weapons: Vec<String> = b
            .weapons
            .iter()
            .map(|w| {
                let reach = if w.ranged { "ranged" } else { "melee" };
                format!("{}: DM {}, {reach}, {}D", w.name, w.dm, b.attack_pool(w))
            })
            .collect();
        // A weapon or a calling a line under its label: run in after the
        // label, a weapon's numbers broke over two lines (`melee,` / `2D`).
        blocks.push(Block::Label(w.npc.weapons.clone()));
        blocks.push(Block::Text(weapons.join("\n")));
        if !b.callings.is_empty() {
            let callings: Vec<String> = b
                .callings
                .iter()
                .map(|c| lines::calling(c, Markup::Plain))
                .collect();
            blocks.push(Block::Label(w.npc.callings.clone()));
            blocks.push(Block::Text(callings.join("\n")));
        }
        blocks.push(Block::Label(format!("Mettle {}", m.mettle)));
        blocks.push(Block::Track(m.mettle as usize));
    }
    if let Some(c) = n.rules.core() {
        let sh = &c.sheet;
        let grid = vec![
            ("STR".into(), sh.STR.to_string()),
            ("AGI".into(), sh.AGI.to_string()),
            ("WIT".into(), sh.WIT.to_string()),
            ("Armour".into(), sh.armour.to_string()),
            ("Omens".into(), sh.omens.to_string()),
        ];
        blocks.push(Block::Grid(grid));
        blocks.push(Block::Field(w.npc.attack.clone(), core_attack(sh)));
        for (label, words) in [(&w.npc.skills, &sh.skills), (&w.npc.traits, &sh.traits)] {
            if !words.is_empty() {
                blocks.push(Block::Field(label.clone(), words.join(", ")));
            }
        }
        blocks.push(Block::Label(format!("Health {}", c.max_health)));
        blocks.push(Block::Track(c.max_health.max(0) as usize));
    }
    blocks.push(Block::Label(w.npc.notes.clone()));
    blocks.push(Block::Notes);
    Card {
        title: n.name.clone(),
        subtitle,
        address,
        blocks,
    }
}

/// A trap: trigger, clue, effect, its roll (in the trap's system) and its
/// odds for each value the item carries (POISE, or the save's ability).
fn trap_card(t: &Trap, address: String, w: &Wording) -> Card {
    // The trap as rolled, without its fit: the card's roll line leaves
    // out how it was sized (trap-N.md says it), so it stays one line.
    let plain = Trap {
        fit: None,
        ..t.clone()
    };
    let mut blocks = vec![
        Block::Field(w.trap.trigger.clone(), t.trigger.clone()),
        Block::Field(w.trap.clue.clone(), t.clue.clone()),
        Block::Field(w.trap.effect.clone(), t.effect.clone()),
    ];
    // Too long for one card at 8 pt, the trap is a folded pair: what the
    // party meets on the front, how it is undone and its odds on the back.
    blocks.push(Block::Break);
    if let Some(d) = &t.disarm {
        // The method's name alone when its whole text would shrink the card.
        let name = d.split_once(": ").map_or(d.as_str(), |(n, _)| n);
        blocks.push(Block::Brief(
            w.trap.disarm.clone(),
            d.clone(),
            name.to_owned(),
        ));
    }
    blocks.push(Block::Field(w.trap.roll.clone(), perils::roll(&plain)));
    // A card holds a row per PC for a METTLE party of three at most; a
    // bigger party's odds, and a Core trap's (its saves' rows are longer),
    // go by value, as for no party (trap-N.md has every PC).
    let per_pc = |f: &crate::generators::trap::Fit| {
        f.pcs.len() <= 3 && t.system == crate::rules::party::RulesSystem::Mettle
    };
    let t = if t.fit.as_ref().is_some_and(|f| !per_pc(f)) {
        &plain
    } else {
        t
    };
    if !t.odds.is_empty() {
        // The odds head names the value and the chance in the trap's own
        // system (POISE and hit, or the save's ability and failing it).
        let [by, chance, _] = perils::odds_head(t);
        let rows: Vec<Vec<String>> = perils::odds_rows(t)
            .into_iter()
            .map(|r| r.to_vec())
            .collect();
        // A mean damage the same on every row is said once, not in a
        // column (a card's table then stays on its card).
        let same = rows.windows(2).all(|w| w[0][2] == w[1][2]);
        if same && rows.len() > 1 {
            let damage = match rows[0][2].as_str() {
                "—" | "-" | "–" => "none".to_owned(),
                d => d.to_owned(),
            };
            // The chances then run on in one field: `STR 8: 60% · 9: 55%`.
            let chances: Vec<String> = rows
                .iter()
                .enumerate()
                .map(|(i, r)| match i {
                    0 if t.fit.is_none() => format!("{by} {}: {}", r[0], r[1]),
                    _ => format!("{}: {}", r[0], r[1]),
                })
                .collect();
            blocks.push(Block::Field(chance, chances.join(" · ")));
            blocks.push(Block::Field(w.trap.mean_damage.clone(), damage));
        } else {
            // Fitted: each PC's expected damage, in a short head.
            let damage = if t.fit.is_some() {
                "exp. damage"
            } else {
                "mean damage"
            };
            let head = vec![by, chance, damage.to_owned()];
            blocks.push(Block::Table(std::iter::once(head).chain(rows).collect()));
        }
    }
    Card {
        title: t.name.clone(),
        // Where it is set rides on the kind line, so no card grows a line:
        // `Trap · Set in: ruins`.
        subtitle: format!("{} · {}: {}", w.trap.kind, w.trap.set_in, t.terrain),
        address,
        blocks,
    }
}

/// A Core Rules attack: the weapon and its damage die, which explodes
/// (`belt knife: d4!`).
fn core_attack(sh: &Sheet) -> String {
    let weapon = sh.weapon.as_deref().unwrap_or("weapon");
    let bang = if sh.damage.ends_with('!') { "" } else { "!" };
    format!("{weapon}: {}{bang} damage", sh.damage)
}

/// Injury slips (`injury/1`) and mutation slips (`mutation/1`): what the
/// player keeps, with room to write it down. The roll's trail stays on the
/// GM's side (`pack.md`, `injury-1.md`); the footer's seed and address
/// make the slip again.
fn slips(pack: &Pack, w: &Wording) -> Vec<Card> {
    let injuries = numbered(&pack.injuries, "injury", |i, address| Card {
        title: i.name.clone(),
        subtitle: if i.permanent {
            format!("{} · {}", w.slip.injury, w.slip.permanent)
        } else {
            w.slip.injury.clone()
        },
        address,
        blocks: vec![
            Block::Text(i.text.clone()),
            Block::Label(w.slip.given.clone()),
            Block::Notes,
        ],
    });
    let mutations = numbered(&pack.mutations, "mutation", |m, address| {
        let names: Vec<&str> = m.gained.iter().map(|g| g.name.as_str()).collect();
        let mut blocks = Vec::new();
        for g in &m.gained {
            if m.gained.len() > 1 {
                blocks.push(Block::Field(g.name.clone(), g.text.clone()));
            } else {
                blocks.push(Block::Text(g.text.clone()));
            }
        }
        blocks.push(Block::Label(w.slip.given.clone()));
        blocks.push(Block::Notes);
        Card {
            title: names.join(" + "),
            subtitle: w.slip.mutation.clone(),
            address,
            blocks,
        }
    });
    injuries.into_iter().chain(mutations).collect()
}
