//! Encounters: a situation from the terrain's table (`gen.encounter.<terrain>`),
//! its foes with full stat blocks, the zones (METTLE Quick Zones, or ACS
//! range bands with two to four arms), terrain tiles from a shuffled
//! 54-card deck by the ACS card rule (as written in `acs.card_rule`), the
//! sporadics in play, any hazard or trap, who starts where, and the exact
//! odds that matter: each foe's attack against each PC and back.
//!
//! **Threat.** A fight is measured by how fast each side could fell the
//! other: the foes' expected damage per round against the party's total
//! Mettle (or health), over the party's expected damage per round against
//! the foes' total. Expected damage is exact (METTLE: the Check's odds by
//! Edge, DM + Edge − Soak; Core Rules: every attack lands — the chapter
//! gives no attack roll — exploding damage minus armour). A ratio of 0.35
//! to 0.7 is a fair fight (the party wins in about half to a third of the
//! rounds the foes would need). When the situation gives no number, foes
//! are added (lowest tier first, never a second boss, at most eight) or
//! taken away; when it does (`{d3+1} poachers`), that many come, and the
//! foes are made veteran (harder-hitting) or green (easier to hurt) instead,
//! up to three grades each. The closest fit to the band is kept.

use serde::Serialize;

use super::npc::{self, Npc};
use super::trap::{self, Trap};
use super::{Address, GenError, Generator};
use crate::content::{Library, Row};
use crate::dice::ast::{Expr, Pool, Roll, Scale, Term, TermKind};
use crate::dice::odds::{OddsDetail, roll_dist};
use crate::dice::{self};
use crate::rules::core_d20::Sheet;
use crate::rules::mettle::StatBlock;
use crate::rules::{Party, RulesSystem};
use crate::seed::{DieSource, Seed, Stream};
use crate::tables::TableRoll;

/// Terrains with an encounter table.
pub const TERRAINS: [&str; 7] = [
    "road",
    "forest",
    "swamp",
    "hills",
    "ruins",
    "underground",
    "town",
];

/// Lower and upper edges of a fair fight.
pub const FAIR: (f64, f64) = (0.35, 0.7);
/// Most foes in one encounter.
pub const MAX_FOES: usize = 8;

#[derive(Debug, Clone)]
pub struct Request {
    pub terrain: String,
    pub system: RulesSystem,
    pub party: Party,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Encounter {
    pub terrain: String,
    pub system: RulesSystem,
    pub situation: TableRoll,
    pub foes: Vec<Npc>,
    /// Non-hostile people the situation puts on stage.
    pub others: Vec<Npc>,
    pub layout: Layout,
    pub terrain_cards: Vec<SideDraw>,
    /// Which side lays the first tile.
    pub first_to_lay: String,
    pub sporadics: Vec<Placed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hazard: Option<HazardNote>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trap: Option<Trap>,
    pub odds: Vec<AttackOdds>,
    pub threat: Threat,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// `quick zones` or `acs bands`.
    pub kind: String,
    pub zones: Vec<Zone>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Zone {
    pub name: String,
    /// Who starts here.
    pub starts: Vec<String>,
}

/// One side's terrain cards and the tiles they became.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideDraw {
    pub side: String,
    pub cards: Vec<String>,
    pub tiles: Vec<Placed>,
    /// Bennies that could not sit on a tile (map-wide tiles) go to the side.
    pub bennies: u32,
    pub bonus: Option<String>,
}

/// A tile or sporadic and where it lies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placed {
    pub name: String,
    pub text: String,
    /// A zone name, or `whole field`.
    pub at: String,
    pub benny: bool,
    pub from: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HazardNote {
    pub hazard: String,
    /// (damage, chance) for one roll of the hazard (Difficulty 0).
    pub damage: Vec<(i64, f64)>,
    /// Chance a roll shows no Edge (an ongoing hazard ends).
    pub ends: f64,
}

/// One attacker against one defender, exactly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttackOdds {
    pub attacker: String,
    pub defender: String,
    /// METTLE: the Check, e.g. `4D vs 3`; Core: the damage roll vs armour.
    pub attack: String,
    /// METTLE: chance to hit; Core: 1 (attacks land).
    pub hit: f64,
    /// Expected damage per attack after Soak or armour.
    pub expected_damage: f64,
    /// Chance one attack fells the defender from full (METTLE: damage ≥
    /// Mettle; Core: critical damage or worse).
    pub fells: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Threat {
    pub party_toughness: f64,
    pub foe_toughness: f64,
    pub party_damage_per_round: f64,
    pub foe_damage_per_round: f64,
    /// (foe damage / party toughness) ÷ (party damage / foe toughness).
    pub ratio: f64,
    /// trivial, easy, fair, hard, deadly — or none without foes.
    pub verdict: String,
}

fn verdict(ratio: f64) -> &'static str {
    match ratio {
        r if r < 0.2 => "trivial",
        r if r < FAIR.0 => "easy",
        r if r <= FAIR.1 => "fair",
        r if r <= 1.0 => "hard",
        _ => "deadly",
    }
}

/// Combat numbers of one combatant.
#[derive(Debug, Clone)]
struct Fighter {
    name: String,
    toughness: f64,
    /// METTLE: (pool, DM) of the best attack; Core: damage die.
    pool: u32,
    dm: u32,
    damage: String,
    poise: u32,
    soak: u32,
    armour: i64,
    health: i64,
}

fn mettle_fighter(b: &StatBlock) -> Fighter {
    let (pool, dm) = b
        .weapons
        .iter()
        .map(|w| (b.attack_pool(w), w.dm))
        .max()
        .unwrap_or((b.NATURE, 0));
    Fighter {
        name: b.name.clone(),
        toughness: f64::from(b.mettle()),
        pool,
        dm,
        damage: String::new(),
        poise: b.POISE,
        soak: b.soak(),
        armour: 0,
        health: 0,
    }
}

fn core_fighter(s: &Sheet) -> Fighter {
    Fighter {
        name: s.name.clone(),
        toughness: s.current_health() as f64,
        pool: 0,
        dm: 0,
        damage: s.damage.clone(),
        poise: 0,
        soak: 0,
        armour: s.armour,
        health: s.current_health(),
    }
}

/// Exact odds of one attack.
fn attack_odds(system: RulesSystem, a: &Fighter, d: &Fighter) -> Result<AttackOdds, GenError> {
    match system {
        RulesSystem::Mettle => {
            let pool = Pool {
                dice: a.pool,
                extra: 0,
                bonus: a.dm,
                difficulty: Some(d.poise),
                raises: 0,
                twist: false,
                team: Vec::new(),
            };
            let text = Expr::Pool(Pool {
                bonus: 0,
                ..pool.clone()
            })
            .to_string();
            let odds =
                dice::odds(&Expr::Pool(pool)).map_err(|e| GenError::Request(e.to_string()))?;
            let OddsDetail::Check(c) = odds.detail else {
                unreachable!("a Check")
            };
            let mut expected = 0.0;
            let mut fells = 0.0;
            for r in &c.by_edge {
                let dealt = (f64::from(a.dm + r.edge) - f64::from(d.soak)).max(0.0);
                expected += r.chance * dealt;
                if dealt >= d.toughness && d.toughness > 0.0 {
                    fells += r.chance;
                }
            }
            Ok(AttackOdds {
                attacker: a.name.clone(),
                defender: d.name.clone(),
                attack: format!("{text} (DM {})", a.dm),
                hit: c.success,
                expected_damage: expected,
                fells,
            })
        }
        RulesSystem::Core => {
            let die = if a.damage.ends_with('!') {
                a.damage.clone()
            } else {
                format!("{}!", a.damage)
            };
            let Ok(Expr::Roll(r)) = dice::parse(&die) else {
                return Err(GenError::Request(format!(
                    "`{}` is not a damage die",
                    a.damage
                )));
            };
            let after = Roll {
                terms: r
                    .terms
                    .iter()
                    .cloned()
                    .chain([Term {
                        negative: true,
                        kind: TermKind::Const(d.armour.max(0) as u64),
                    }])
                    .collect(),
                scale: Scale::None,
                enhanced: 0,
                impaired: 0,
            };
            let dist = roll_dist(&after).map_err(|e| GenError::Request(e.to_string()))?;
            // Critical damage: half or more of the remaining health at once.
            let half = (d.health + 1) / 2;
            Ok(AttackOdds {
                attacker: a.name.clone(),
                defender: d.name.clone(),
                attack: format!("{die} − armour {}", d.armour),
                hit: 1.0,
                expected_damage: dist.mean() * dist.mass() + dist.tail * dist.max() as f64,
                fells: if d.health > 0 {
                    dist.at_least(half.max(1))
                } else {
                    1.0
                },
            })
        }
    }
}

fn fighters(system: RulesSystem, party: &Party, foes: &[Npc]) -> (Vec<Fighter>, Vec<Fighter>) {
    match system {
        RulesSystem::Mettle => (
            party.mettle.iter().map(mettle_fighter).collect(),
            foes.iter()
                .filter_map(|f| f.mettle.as_ref().map(|m| mettle_fighter(&m.block)))
                .collect(),
        ),
        RulesSystem::Core => (
            party.core.iter().map(core_fighter).collect(),
            foes.iter()
                .filter_map(|f| f.core.as_ref().map(|c| core_fighter(&c.sheet)))
                .collect(),
        ),
    }
}

/// Odds both ways and the threat they add up to.
fn measure(
    system: RulesSystem,
    party: &Party,
    foes: &[Npc],
) -> Result<(Vec<AttackOdds>, Threat), GenError> {
    let (pcs, enemies) = fighters(system, party, foes);
    let mut odds = Vec::new();
    let mut foe_dpr = 0.0;
    for f in &enemies {
        let mut sum = 0.0;
        for p in &pcs {
            let o = attack_odds(system, f, p)?;
            sum += o.expected_damage;
            odds.push(o);
        }
        foe_dpr += sum / pcs.len() as f64;
    }
    let mut party_dpr = 0.0;
    for p in &pcs {
        let mut sum = 0.0;
        for f in &enemies {
            let o = attack_odds(system, p, f)?;
            sum += o.expected_damage;
            odds.push(o);
        }
        if !enemies.is_empty() {
            party_dpr += sum / enemies.len() as f64;
        }
    }
    // `+ 0.0` turns the empty sum's −0 into 0.
    let party_tough: f64 = pcs.iter().map(|p| p.toughness).sum::<f64>() + 0.0;
    let foe_tough: f64 = enemies.iter().map(|f| f.toughness).sum::<f64>() + 0.0;
    let ratio = if enemies.is_empty() || foe_dpr <= 0.0 {
        // Foes that cannot hurt the party are no threat, whatever else.
        0.0
    } else if party_dpr <= 0.0 {
        f64::INFINITY
    } else {
        (foe_dpr / party_tough.max(1.0)) / (party_dpr / foe_tough.max(1.0))
    };
    let threat = Threat {
        party_toughness: party_tough,
        foe_toughness: foe_tough,
        party_damage_per_round: party_dpr,
        foe_damage_per_round: foe_dpr,
        ratio,
        verdict: if enemies.is_empty() {
            "none".into()
        } else {
            verdict(ratio).into()
        },
    };
    Ok((odds, threat))
}

fn tagged<'a>(row_tags: &'a [String], prefix: &str) -> Vec<&'a str> {
    row_tags
        .iter()
        .filter_map(|t| t.strip_prefix(prefix))
        .collect()
}

fn tier_of(library: &Library, system: RulesSystem, archetype: &str) -> u8 {
    library
        .get(npc::table_for(system))
        .and_then(|t| t.rows.iter().find(|r| r.name == archetype))
        .and_then(|r| {
            r.tags
                .iter()
                .find_map(|t| t.strip_prefix("tier:")?.parse().ok())
        })
        .unwrap_or(1)
}

/// The foe kind a situation counts with an inline roll: the kind named
/// right after the first `{dice}` of its text (`{d3+1} poachers`).
fn counted_kind<'a>(
    template: &[crate::content::template::Segment],
    kinds: &[&'a str],
) -> Option<&'a str> {
    use crate::content::template::Segment;
    let at = template
        .iter()
        .position(|s| matches!(s, Segment::Dice { .. }))?;
    let Some(Segment::Text { text }) = template.get(at + 1) else {
        return None;
    };
    let after = text.trim_start().to_lowercase();
    let names = |kind: &str| {
        let one = kind.replace('-', " ");
        let mut forms = vec![one.clone(), format!("{one}s"), format!("{one}es")];
        if let Some(stem) = one.strip_suffix('f') {
            forms.push(format!("{stem}ves"));
        }
        if let Some(stem) = one.strip_suffix('y') {
            forms.push(format!("{stem}ies"));
        }
        forms
    };
    let word_at = |form: &str| {
        after.starts_with(form) && !after[form.len()..].starts_with(|c: char| c.is_alphabetic())
    };
    kinds
        .iter()
        .copied()
        .filter(|k| names(k).iter().any(|f| word_at(f)))
        .max_by_key(|k| k.len())
}

/// Kinds the text names as one (`A rat-swarm boils out…`, `the
/// bog-horror`): exactly one of those comes.
fn singular_kinds<'a>(text: &str, kinds: &[&'a str]) -> Vec<&'a str> {
    let lower = text.to_lowercase().replace('-', " ");
    kinds
        .iter()
        .copied()
        .filter(|k| {
            let name = k.replace('-', " ");
            ["a ", "an ", "the ", "one "].iter().any(|article| {
                let phrase = format!("{article}{name}");
                lower.match_indices(&phrase).any(|(at, _)| {
                    let before_ok = at == 0 || !lower[..at].ends_with(|c: char| c.is_alphabetic());
                    let after = &lower[at + phrase.len()..];
                    before_ok && !after.starts_with(|c: char| c.is_alphabetic())
                })
            })
        })
        .collect()
}

/// Foes that share a name (three wolves) become `Wolf 1`, `Wolf 2`, …
fn number_alike(foes: &mut [Npc]) {
    let names: Vec<String> = foes.iter().map(|f| f.name.clone()).collect();
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    for f in foes.iter_mut() {
        if names.iter().filter(|n| **n == f.name).count() < 2 {
            continue;
        }
        let k = seen.entry(f.name.clone()).or_insert(0);
        *k += 1;
        let name = format!("{} {k}", f.name);
        if let Some(m) = f.mettle.as_mut() {
            m.block.name = name.clone();
        }
        if let Some(c) = f.core.as_mut() {
            c.sheet.name = name.clone();
        }
        f.name = name;
    }
}

/// How far a threat ratio is from the middle of the fair band.
fn distance(ratio: f64) -> f64 {
    if !ratio.is_finite() || ratio <= 0.0 {
        return f64::INFINITY;
    }
    // The factor between the ratio and the band's middle (no `ln`, so the
    // choice is the same bits on every platform).
    let middle = (FAIR.0 * FAIR.1).sqrt();
    (ratio / middle).max(middle / ratio)
}

/// Most adjustments made while fitting the foes to the party.
const MAX_STEPS: usize = 48;
/// Most grades a foe moves up or down.
const MAX_GRADE: i8 = 3;

/// The foes, scaled to the party: one of each kind the situation names,
/// then — until the threat is fair — more foes (lowest tier first, never a
/// second boss, at most eight) or veteran grades when more foes cannot
/// help; fewer foes or green grades when it is too hard. The closest fit
/// seen is kept.
fn choose_foes(
    library: &Library,
    req: &Request,
    seed: &Seed,
    at: &Address,
    kinds: &[&str],
    fixed: Option<(&str, usize)>,
    single: &[&str],
) -> Result<(Vec<Npc>, Vec<AttackOdds>, Threat), GenError> {
    let make = |archetype: &str, n: usize| {
        npc::make(
            library,
            &npc::Request {
                system: req.system,
                archetype: Some(archetype.to_owned()),
                tier: None,
            },
            seed,
            &at.child("foe", n),
        )
    };
    let mut foes: Vec<Npc> = Vec::new();
    for kind in kinds {
        let n = match fixed {
            Some((counted, n)) if counted == *kind && tier_of(library, req.system, kind) < 3 => {
                n.min((MAX_FOES + 1).saturating_sub(kinds.len()).max(1))
            }
            _ => 1,
        };
        for _ in 0..n {
            foes.push(make(kind, foes.len())?);
        }
    }
    let base = foes.len();
    // More of a kind only when the text neither counts it nor names just one.
    let mut extras: Vec<&str> = kinds
        .iter()
        .copied()
        .filter(|k| tier_of(library, req.system, k) < 3)
        .filter(|k| fixed.is_none_or(|(counted, _)| counted != *k))
        .filter(|k| !single.contains(k))
        .collect();
    extras.sort_by_key(|k| tier_of(library, req.system, k));
    let (odds, threat) = measure(req.system, &req.party, &foes)?;
    if foes.is_empty() {
        return Ok((foes, odds, threat));
    }
    let mut best = (foes.clone(), odds, threat.clone());
    let mut threat = threat;
    let mut added = 0usize;
    let mut turn = 0usize;
    for _ in 0..MAX_STEPS {
        if (FAIR.0..=FAIR.1).contains(&threat.ratio) {
            break;
        }
        let too_easy = threat.ratio < FAIR.0;
        let foes_can_hurt = threat.foe_damage_per_round > 0.0;
        let changed = if too_easy && foes_can_hurt && !extras.is_empty() && foes.len() < MAX_FOES {
            let kind = extras[added % extras.len()];
            added += 1;
            foes.push(make(kind, foes.len())?);
            true
        } else if !too_easy && foes.len() > base {
            foes.pop();
            added = added.saturating_sub(1);
            true
        } else {
            // Regrade one foe, in turn, within the grade limit.
            let n = foes.len();
            let mut done = false;
            for k in 0..n {
                let f = &mut foes[(turn + k) % n];
                let room = if too_easy {
                    f.grade < MAX_GRADE
                } else {
                    f.grade > -MAX_GRADE
                };
                if room && npc::regrade(f, too_easy) {
                    turn = (turn + k + 1) % n;
                    done = true;
                    break;
                }
            }
            done
        };
        if !changed {
            break;
        }
        let (o, t) = measure(req.system, &req.party, &foes)?;
        threat = t.clone();
        // Closer to the fair band wins; among hopeless fits (the party
        // cannot hurt the foes), the one where the party hurts them most and
        // they hurt the party least.
        let key = |t: &Threat| {
            (
                distance(t.ratio),
                -t.party_damage_per_round,
                t.foe_damage_per_round,
            )
        };
        if key(&t).partial_cmp(&key(&best.2)) == Some(std::cmp::Ordering::Less) {
            best = (foes.clone(), o, t);
        }
    }
    Ok(best)
}

/// A card of the 54-card deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Card {
    /// 0..4 for clubs, spades, diamonds, hearts; 4 for a joker.
    suit: usize,
    /// 2..=14 (ace high); 15 for a joker.
    rank: u32,
}

const SUITS: [(&str, &str); 4] = [
    ("clubs", "♣"),
    ("spades", "♠"),
    ("diamonds", "♦"),
    ("hearts", "♥"),
];

impl Card {
    fn label(self) -> String {
        if self.suit == 4 {
            return "Joker".into();
        }
        let rank = match self.rank {
            11 => "J".into(),
            12 => "Q".into(),
            13 => "K".into(),
            14 => "A".into(),
            n => n.to_string(),
        };
        format!("{rank}{}", SUITS[self.suit].1)
    }

    fn wild(self) -> bool {
        (11..=13).contains(&self.rank) || self.suit == 4
    }

    fn level(self) -> Option<&'static str> {
        match self.rank {
            2..=5 => Some("minor"),
            6..=9 => Some("medium"),
            10 | 14 => Some("major"),
            _ => None,
        }
    }
}

fn deck() -> Vec<Card> {
    let mut d: Vec<Card> = (0..4)
        .flat_map(|suit| (2..=14).map(move |rank| Card { suit, rank }))
        .collect();
    d.push(Card { suit: 4, rank: 15 });
    d.push(Card { suit: 4, rank: 15 });
    d
}

const LEVELS: [&str; 3] = ["minor", "medium", "major"];

fn tiles_for<'a>(
    library: &'a Library,
    suit: &str,
    level: &str,
    field: Option<&str>,
) -> Vec<&'a Row> {
    let Some(t) = library.get("acs.tiles") else {
        return Vec::new();
    };
    let has = |r: &Row, tag: &str| r.tags.iter().any(|x| x == tag);
    let fits = |r: &&Row| has(r, suit) && (has(r, level) || has(r, "any-level"));
    match field {
        Some(f) => t.rows.iter().filter(fits).filter(|r| has(r, f)).collect(),
        None => {
            let spot: Vec<&Row> = t
                .rows
                .iter()
                .filter(fits)
                .filter(|r| !has(r, "field-2") && !has(r, "field-3"))
                .collect();
            if spot.is_empty() {
                t.rows.iter().filter(fits).collect()
            } else {
                spot
            }
        }
    }
}

fn pick<'a, T>(items: &'a [T], s: &mut Stream) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[s.die(items.len() as u32) as usize - 1])
}

/// Turn one side's cards into tiles, by the card rule in `acs.card_rule`.
fn play_cards(
    library: &Library,
    side: &str,
    cards: &[Card],
    zones: &[String],
    s: &mut Stream,
) -> SideDraw {
    let mut tiles = Vec::new();
    let mut bennies = 0;
    // Jokers join the largest suit group (or a suit of the player's choice).
    let mut suit_of: Vec<usize> = cards.iter().map(|c| c.suit).collect();
    for (i, c) in cards.iter().enumerate() {
        if c.suit == 4 {
            let mut counts = [0usize; 4];
            for (j, other) in cards.iter().enumerate() {
                if j != i && other.suit < 4 {
                    counts[other.suit] += 1;
                }
            }
            let best = (0..4)
                .max_by_key(|&k| (counts[k], std::cmp::Reverse(k)))
                .unwrap_or(0);
            suit_of[i] = if counts[best] > 0 {
                best
            } else {
                s.die(4) as usize - 1
            };
        }
    }
    for (suit, (suit_name, _)) in SUITS.iter().enumerate() {
        let group: Vec<Card> = cards
            .iter()
            .zip(&suit_of)
            .filter(|(_, s2)| **s2 == suit)
            .map(|(c, _)| *c)
            .collect();
        if group.is_empty() {
            continue;
        }
        let labels: Vec<String> = group.iter().map(|c| c.label()).collect();
        if group.len() >= 2 {
            // A whole-field tile: the highest card sets the strength.
            let highest = group.iter().max_by_key(|c| c.rank).copied().expect("group");
            let level = highest
                .level()
                .unwrap_or_else(|| LEVELS[s.die(3) as usize - 1]);
            let field = if group.len() == 2 {
                "field-2"
            } else {
                "field-3"
            };
            bennies += group.iter().filter(|c| c.wild()).count() as u32;
            if let Some(tile) = pick(&tiles_for(library, suit_name, level, Some(field)), s) {
                tiles.push(Placed {
                    name: tile.name.clone(),
                    text: tile.text.clone(),
                    at: "whole field".into(),
                    benny: false,
                    from: labels.join(" + "),
                });
            }
        } else {
            let card = group[0];
            let level = card
                .level()
                .unwrap_or_else(|| LEVELS[s.die(3) as usize - 1]);
            if let Some(tile) = pick(&tiles_for(library, suit_name, level, None), s) {
                let at = pick(zones, s).cloned().unwrap_or_default();
                tiles.push(Placed {
                    name: tile.name.clone(),
                    text: tile.text.clone(),
                    at,
                    benny: card.wild(),
                    from: labels.join(" + "),
                });
            }
        }
    }
    // Pairs, triples and straights among the natural cards.
    let mut ranks: Vec<u32> = cards.iter().filter(|c| !c.wild()).map(|c| c.rank).collect();
    ranks.sort_unstable();
    let most_alike = ranks
        .iter()
        .map(|r| ranks.iter().filter(|x| *x == r).count())
        .max()
        .unwrap_or(0);
    let straight = ranks.len() >= 3
        && ranks
            .windows(3)
            .any(|w| w[1] == w[0] + 1 && w[2] == w[1] + 1)
        || (ranks.contains(&14) && ranks.contains(&2) && ranks.contains(&3));
    let spot: Vec<usize> = tiles
        .iter()
        .enumerate()
        .filter(|(_, t)| t.at != "whole field")
        .map(|(i, _)| i)
        .collect();
    let bonus = if most_alike >= 3 {
        for &i in &spot {
            tiles[i].benny = true;
        }
        Some("triple: every tile starts with a benny".into())
    } else if most_alike == 2 {
        if let Some(&i) = spot.first() {
            tiles[i].benny = true;
        } else {
            bennies += 1;
        }
        Some("pair: one tile starts with a benny".into())
    } else if straight {
        Some("straight: this side decides who lays the first tile".into())
    } else {
        None
    };
    SideDraw {
        side: side.into(),
        cards: cards.iter().map(|c| c.label()).collect(),
        tiles,
        bennies,
        bonus,
    }
}

fn layout(system: RulesSystem, party: &[String], foes: &[Npc], s: &mut Stream) -> Layout {
    let ranged = |n: &Npc| match &n.mettle {
        Some(m) => m.block.weapons.iter().all(|w| w.ranged),
        None => n
            .core
            .as_ref()
            .and_then(|c| c.sheet.weapon.as_ref())
            .is_some_and(|w| {
                ["bow", "sling", "crossbow"]
                    .iter()
                    .any(|r| w.to_lowercase().contains(r))
            }),
    };
    let (melee, shooters): (Vec<&Npc>, Vec<&Npc>) = foes.iter().partition(|f| !ranged(f));
    let names = |v: &[&Npc]| v.iter().map(|n| n.name.clone()).collect::<Vec<_>>();
    match system {
        RulesSystem::Mettle => Layout {
            kind: "quick zones".into(),
            zones: vec![
                Zone {
                    name: "Left flank".into(),
                    starts: party.to_vec(),
                },
                Zone {
                    name: "The middle".into(),
                    starts: names(&melee),
                },
                Zone {
                    name: "Right flank".into(),
                    starts: names(&shooters),
                },
            ],
        },
        RulesSystem::Core => {
            let arms = 2 + s.die(3) - 1; // two to four arms
            let mut zones = vec![Zone {
                name: "Close (the centre)".into(),
                starts: names(&melee),
            }];
            for arm in 1..=arms {
                for band in ["Short", "Medium (−2)", "Long (−4)"] {
                    let starts = match (arm, band) {
                        (1, "Medium (−2)") => party.to_vec(),
                        (2, "Short") => names(&shooters),
                        _ => Vec::new(),
                    };
                    zones.push(Zone {
                        name: format!("Arm {arm}: {band}"),
                        starts,
                    });
                }
            }
            Layout {
                kind: "acs bands".into(),
                zones,
            }
        }
    }
}

impl Generator for Request {
    const KIND: &'static str = "encounter";
    type Item = Encounter;

    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Encounter, GenError> {
        make(library, self, seed, at)
    }
}

/// The encounter at `at` for a request.
pub fn make(
    library: &Library,
    req: &Request,
    seed: &Seed,
    at: &Address,
) -> Result<Encounter, GenError> {
    if !TERRAINS.contains(&req.terrain.as_str()) {
        return Err(GenError::Request(format!(
            "unknown terrain `{}`; choose one of {}",
            req.terrain,
            TERRAINS.join(", ")
        )));
    }
    req.party.check(req.system).map_err(GenError::Request)?;
    let mut s = at.stream(seed, "situation");
    let situation = library.roll_table(&format!("gen.encounter.{}", req.terrain), &mut s)?;
    let mut kinds = tagged(&situation.tags, "foe:");
    kinds.dedup();
    kinds.truncate(MAX_FOES);
    // A number rolled in the situation's text (`{d3+1} poachers`) fixes how
    // many of that kind there are.
    let row = library
        .table(&format!("gen.encounter.{}", req.terrain))?
        .rows
        .iter()
        .find(|r| r.label() == situation.label);
    let counted = row.and_then(|r| counted_kind(&r.template, &kinds));
    let number = situation.trail.iter().find_map(|s| match s {
        crate::tables::Step::Dice { result, .. } => {
            Some((*result).clamp(1, MAX_FOES as i64) as usize)
        }
        _ => None,
    });
    let fixed = counted.zip(number);
    let single = singular_kinds(&situation.text, &kinds);
    let (mut foes, _, _) = choose_foes(library, req, seed, at, &kinds, fixed, &single)?;
    number_alike(&mut foes);
    let (odds, threat) = measure(req.system, &req.party, &foes)?;
    let others = tagged(&situation.tags, "npc:")
        .iter()
        .enumerate()
        .map(|(i, a)| {
            npc::make(
                library,
                &npc::Request {
                    system: req.system,
                    archetype: Some((*a).to_owned()),
                    tier: None,
                },
                seed,
                &at.child("other", i),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let party_names: Vec<String> = match req.system {
        RulesSystem::Mettle => req.party.mettle.iter().map(|b| b.name.clone()).collect(),
        RulesSystem::Core => req.party.core.iter().map(|c| c.name.clone()).collect(),
    };
    let mut ls = at.stream(seed, "layout");
    let layout = layout(req.system, &party_names, &foes, &mut ls);
    let zone_names: Vec<String> = layout.zones.iter().map(|z| z.name.clone()).collect();
    // Terrain: a shuffled 54-card deck, three cards a side.
    let mut cs = at.stream(seed, "cards");
    let mut cards = deck();
    cs.shuffle(&mut cards);
    let party_side = play_cards(library, "party", &cards[0..3], &zone_names, &mut cs);
    let foe_side = play_cards(library, "foes", &cards[3..6], &zone_names, &mut cs);
    let straight_side = [&party_side, &foe_side].into_iter().find(|d| {
        d.bonus
            .as_deref()
            .is_some_and(|b| b.starts_with("straight"))
    });
    let first_to_lay = match straight_side {
        Some(d) => format!("{} (their straight lets them choose)", d.side),
        None if !foes.is_empty() => "foes (they hold the centre)".into(),
        None => "party".into(),
    };
    // Sporadics in play: one to three, placed in zones.
    let mut ss = at.stream(seed, "sporadics");
    let mut sporadics = Vec::new();
    if let Some(table) = library.get("acs.sporadics") {
        let mut rows: Vec<&Row> = table.rows.iter().collect();
        ss.shuffle(&mut rows);
        let n = ss.die(3) as usize;
        for r in rows.into_iter().take(n) {
            sporadics.push(Placed {
                name: r.name.clone(),
                text: r.text.clone(),
                at: pick(&zone_names, &mut ss).cloned().unwrap_or_default(),
                benny: false,
                from: "acs.sporadics".into(),
            });
        }
    }
    let hazard = situation
        .effects
        .iter()
        .find_map(|e| e.hazard.clone())
        .map(|h| hazard_note(&h))
        .transpose()?;
    // A trap lies in wait one time in six.
    let mut ts = at.stream(seed, "trap");
    let trap = if ts.die(6) == 1 {
        let poise: Vec<u32> = match req.system {
            RulesSystem::Mettle => req.party.mettle.iter().map(|b| b.POISE).collect(),
            RulesSystem::Core => (1..=6).collect(),
        };
        Some(trap::make(
            library,
            &trap::Request {
                source: trap::Source::Any,
                poise,
            },
            seed,
            &at.only("trap"),
        )?)
    } else {
        None
    };
    Ok(Encounter {
        terrain: req.terrain.clone(),
        system: req.system,
        situation,
        foes,
        others,
        layout,
        terrain_cards: vec![party_side, foe_side],
        first_to_lay,
        sporadics,
        hazard,
        trap,
        odds,
        threat,
    })
}

fn hazard_note(h: &str) -> Result<HazardNote, GenError> {
    let expr = dice::parse(h).map_err(|e| GenError::Request(e.to_string()))?;
    let odds = dice::odds(&expr).map_err(|e| GenError::Request(e.to_string()))?;
    let OddsDetail::Hazard(o) = odds.detail else {
        return Err(GenError::Request(format!("`{h}` is not a hazard")));
    };
    Ok(HazardNote {
        hazard: h.to_owned(),
        damage: o.damage.table.iter().map(|r| (r.value, r.chance)).collect(),
        ends: o.ends,
    })
}

/// What the rules core refuses in an encounter.
pub fn check(e: &Encounter) -> Vec<String> {
    let mut out = Vec::new();
    for f in e.foes.iter().chain(&e.others) {
        out.extend(
            npc::check(f)
                .into_iter()
                .map(|p| format!("{}: {p}", f.name)),
        );
    }
    if e.foes.len() > MAX_FOES {
        out.push(format!("{} foes (at most {MAX_FOES})", e.foes.len()));
    }
    if e.foes.iter().filter(|f| f.tier == 3).count() > 1 {
        out.push("more than one boss".into());
    }
    let arms = e
        .layout
        .zones
        .iter()
        .filter(|z| z.name.ends_with(": Short"))
        .count();
    if e.layout.kind == "acs bands" && !(2..=4).contains(&arms) {
        out.push(format!("{arms} arms (two to four)"));
    }
    for d in &e.terrain_cards {
        if d.cards.len() != 3 {
            out.push(format!("{} drew {} cards", d.side, d.cards.len()));
        }
    }
    let mut all: Vec<&String> = e.terrain_cards.iter().flat_map(|d| &d.cards).collect();
    all.retain(|c| *c != "Joker");
    let n = all.len();
    all.sort();
    all.dedup();
    if all.len() != n {
        out.push("the same card was drawn twice".into());
    }
    for o in &e.odds {
        if !(0.0..=1.0 + 1e-9).contains(&o.hit)
            || !(0.0..=1.0 + 1e-9).contains(&o.fells)
            || o.expected_damage < 0.0
        {
            out.push(format!(
                "odds of {} against {} are not chances",
                o.attacker, o.defender
            ));
        }
    }
    for z in &e.layout.zones {
        for who in &z.starts {
            if e.layout
                .zones
                .iter()
                .filter(|z2| z2.starts.contains(who))
                .count()
                != 1
                && !who.is_empty()
            {
                out.push(format!("{who} starts in more than one zone"));
            }
        }
    }
    if let Some(t) = &e.trap {
        out.extend(trap::check(t));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::nth;

    fn library() -> Library {
        crate::content::test_library()
    }

    #[test]
    fn ten_thousand_encounters_are_legal() {
        let library = library();
        let seed = Seed::new("encounters").unwrap();
        let mut fair = 0;
        let mut fights = 0;
        for i in 0..10_000 {
            let system = if i % 2 == 0 {
                RulesSystem::Mettle
            } else {
                RulesSystem::Core
            };
            let summary = ["3,3,4,4", "2,3", "5,5,5,6", "4"][i % 4];
            let summary = if system == RulesSystem::Core {
                ["10,11,12,9", "8,9", "13,14,15,12", "11"][i % 4]
            } else {
                summary
            };
            let req = Request {
                terrain: TERRAINS[i % TERRAINS.len()].into(),
                system,
                party: Party::from_summary(summary, system).unwrap(),
            };
            let e = nth(&library, &req, &seed, i).unwrap();
            let problems = check(&e);
            assert!(problems.is_empty(), "#{i}: {problems:?}");
            if !e.foes.is_empty() {
                fights += 1;
                if e.threat.verdict == "fair" || e.threat.verdict == "hard" {
                    fair += 1;
                }
            }
        }
        // Most fights land in the fair-to-hard band.
        assert!(fair * 10 >= fights * 6, "{fair} of {fights}");
    }

    #[test]
    fn card_rule_worked_examples() {
        let library = library();
        let zones = vec!["Left flank".to_owned()];
        let mut s = Seed::new("cards").unwrap().stream("");
        // 5♦ + 8♦ → Medium Rain over the whole field.
        let d = play_cards(
            &library,
            "party",
            &[Card { suit: 2, rank: 5 }, Card { suit: 2, rank: 8 }],
            &zones,
            &mut s,
        );
        assert_eq!(d.tiles.len(), 1);
        assert_eq!(d.tiles[0].name, "RAIN, moderate");
        assert_eq!(d.tiles[0].at, "whole field");
        // K♠ → any spade tile, starting with a benny.
        for i in 0..20 {
            let mut s = Seed::new("king").unwrap().stream(&i.to_string());
            let d = play_cards(
                &library,
                "foes",
                &[Card { suit: 1, rank: 13 }],
                &zones,
                &mut s,
            );
            let t = &d.tiles[0];
            assert!(t.benny, "{t:?}");
            let row = library
                .get("acs.tiles")
                .unwrap()
                .rows
                .iter()
                .find(|r| r.name == t.name)
                .unwrap();
            assert!(row.tags.iter().any(|x| x == "spades"), "{}", t.name);
        }
    }
}
