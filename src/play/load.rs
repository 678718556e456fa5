//! What a session in play starts from, read once: the pack made again
//! from its sources (as `record N` makes it), each PC as they start, the
//! items of the pack with their GM text and their players' side, the
//! vouchers in hand, the Heal Checks due and the map as the party knows it.

use crate::campaign::State;
use crate::content::Library;
use crate::generators::map::{Map, Reveal};
use crate::generators::session::{After, Pack};
use crate::rules::RulesSystem;
use crate::seed::Seed;
use crate::terminal::items;

/// A PC as they start the session.
#[derive(Debug, Clone)]
pub(crate) struct PcStart {
    pub name: String,
    /// `Mettle` or `health`.
    pub label: &'static str,
    pub now: i64,
    pub max: i64,
    pub statuses: Vec<String>,
    /// Core Rules: STR, AGI and WIT (a check is a save against one).
    pub abilities: Vec<(&'static str, i64)>,
    /// Core Rules: the omens the PC has at the start (METTLE: `None`).
    pub omens: Option<i64>,
}

/// An item of the pack the GM can mark met or push.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub address: String,
    pub kind: &'static str,
    pub title: String,
    pub odds: String,
    /// Everything the GM reads of it.
    pub text: String,
    /// What the players may be shown: a title and a text (allow-listed).
    pub players: (String, String),
    /// A voucher's serial (it is spent by it, not met).
    pub serial: Option<String>,
}

/// A Heal Check the table may roll: the patient (`None`: any PC who
/// falls), the healer and the dice against Difficulty 3.
#[derive(Debug, Clone)]
pub(crate) struct HealRow {
    pub patient: Option<String>,
    pub healer: String,
    pub pool: u32,
}

/// Everything the session in play starts from; never changes in play.
pub(crate) struct Fixed {
    pub title: String,
    pub session: usize,
    pub campaign: bool,
    pub system: RulesSystem,
    pub share: String,
    /// The session's seed: rolls in play draw under `<seed>/play/<k>`.
    pub seed: Seed,
    pub library: &'static Library,
    pub day: u32,
    pub stop: Option<String>,
    pub pcs: Vec<PcStart>,
    /// Vouchers in hand: serial and holder.
    pub vouchers: Vec<(String, String)>,
    pub items: Vec<Item>,
    pub heal: Vec<HealRow>,
    pub money: i64,
    /// The party's rations and units of water at the start (0 outside a
    /// campaign, which keeps none): see [`supplies`].
    pub rations: u32,
    pub water: u32,
    pub map: Option<Map>,
    /// What the party knows of the map at the start (`None`: outside a
    /// campaign the players see the whole players' map).
    pub reveal: Option<Reveal>,
    /// The record to pre-fill (a campaign's session).
    pub after: Option<After>,
    pub pack: Pack,
}

/// Each PC as the pack's party starts, at `levels` (name → Mettle or
/// health now; a PC not listed starts at the maximum).
pub(crate) fn pcs(pack: &Pack, levels: &[(String, i64)]) -> Vec<PcStart> {
    let now = |name: &str, max: i64| {
        levels
            .iter()
            .find(|(n, _)| n == name)
            .map_or(max, |(_, l)| *l)
    };
    let mut out: Vec<PcStart> = pack
        .party
        .mettle
        .iter()
        .map(|b| PcStart {
            name: b.name.clone(),
            label: "Mettle",
            now: now(&b.name, i64::from(b.mettle())),
            max: i64::from(b.mettle()),
            statuses: b.statuses.clone(),
            abilities: Vec::new(),
            omens: None,
        })
        .collect();
    out.extend(pack.party.core.iter().map(|s| PcStart {
        name: s.name.clone(),
        label: "health",
        now: now(&s.name, s.health.unwrap_or(s.STR)),
        max: s.STR,
        statuses: s.conditions.clone(),
        abilities: vec![("STR", s.STR), ("AGI", s.AGI), ("WIT", s.WIT)],
        omens: Some(s.omens),
    }));
    out
}

/// Every item of the pack, in the order of its addresses, then the
/// encounters on the way, then NPCs brought back.
pub(crate) fn items(pack: &Pack) -> Vec<Item> {
    let mut out = Vec::new();
    for at in pack.addresses() {
        let i = at.index();
        let address = at.to_string();
        let item = match at.kind() {
            "encounter" => encounter(address, "encounter", &pack.encounters[i]),
            "trap" => {
                let t = &pack.traps[i];
                Item {
                    address,
                    kind: "trap",
                    title: t.name.clone(),
                    odds: crate::wording::perils::odds_short(t),
                    text: items::trap(t),
                    // Its name says its mechanism: the players see a trap.
                    players: ("A trap".into(), String::new()),
                    serial: None,
                }
            }
            "npc" => npc(address, &pack.npcs[i]),
            "voucher" => {
                let v = &pack.vouchers[i];
                Item {
                    address,
                    kind: "voucher",
                    title: format!("{} ({})", v.serial, v.holder),
                    odds: String::new(),
                    text: items::voucher(v),
                    players: (
                        format!("Downtime Voucher {}", v.serial),
                        format!("{}: {}", v.holder, v.text),
                    ),
                    serial: Some(v.serial.clone()),
                }
            }
            "injury" => slip(
                address,
                "injury",
                &pack.injuries[i].name,
                items::injury(&pack.injuries[i]),
            ),
            "mutation" => {
                let m = &pack.mutations[i];
                let names: Vec<&str> = m.gained.iter().map(|g| g.name.as_str()).collect();
                slip(address, "mutation", &names.join(", "), items::mutation(m))
            }
            _ => continue,
        };
        out.push(item);
    }
    for (address, e) in pack.journey_encounters() {
        out.push(encounter(address, "journey encounter", e));
    }
    if let Some(c) = &pack.campaign {
        for r in &c.returning {
            out.push(npc(
                format!("{} of session {}", r.address, r.session),
                &r.npc,
            ));
        }
    }
    out
}

pub(super) fn encounter(
    address: String,
    kind: &'static str,
    e: &crate::generators::encounter::Encounter,
) -> Item {
    let foes: Vec<&str> = e.foes.iter().map(|f| f.name.as_str()).collect();
    let facing = match foes.is_empty() {
        true => String::new(),
        false => format!("Facing: {}", foes.join(", ")),
    };
    Item {
        address,
        kind,
        title: e.situation.row.clone(),
        odds: format!("Threat: {}", e.threat.verdict),
        text: items::encounter(e),
        players: ("Encounter".into(), facing),
        serial: None,
    }
}

fn npc(address: String, n: &crate::generators::npc::Npc) -> Item {
    Item {
        address,
        kind: "npc",
        title: n.name.clone(),
        odds: String::new(),
        text: items::npc(n),
        players: (n.name.clone(), String::new()),
        serial: None,
    }
}

fn slip(address: String, kind: &'static str, name: &str, text: String) -> Item {
    Item {
        address,
        kind,
        title: name.to_owned(),
        odds: String::new(),
        text,
        players: (name.to_owned(), String::new()),
        serial: None,
    }
}

/// The party's rations and units of water at the start of a campaign's
/// session: as the last record said them, or, before any record has,
/// what each of the `pcs` PCs sets out with — the plan's or
/// `campaign.toml`'s `[map]` `rations` and `water`, 3 each when neither
/// says (the journey's larder starts from the same).
pub(crate) fn supplies(each: (u32, u32), state: &State, pcs: usize) -> (u32, u32) {
    let party = |n: u32| n.saturating_mul(pcs as u32);
    (
        state.rations.unwrap_or_else(|| party(each.0)),
        state.water.unwrap_or_else(|| party(each.1)),
    )
}

/// The campaign's rations and water a PC, from the session's `[map]`
/// (else the session file's default).
pub(crate) fn supplies_each(src: &crate::pack::Sources) -> (u32, u32) {
    src.session.map.as_ref().map_or(
        (
            crate::input::session::default_supply(),
            crate::input::session::default_supply(),
        ),
        |m| (m.rations, m.water),
    )
}

/// The Heal Checks due at the start (METTLE, a campaign's state): for
/// each, who heals and the healer's dice.
pub(crate) fn heal_rows(state: &State) -> Vec<HealRow> {
    use crate::campaign::ledger::heal;
    crate::campaign::recap::heal_checks(state)
        .into_iter()
        .filter_map(|h| {
            let healer = state.pcs.iter().find(|p| p.name == h.healer)?;
            let pool = heal::healer_pool(healer.mettle()?).2;
            Some(HealRow {
                patient: h.patient,
                healer: h.healer,
                pool,
            })
        })
        .collect()
}
