//! The threat measure: each combatant's fighting numbers, the exact odds of
//! one attack (METTLE: the Check's odds by Edge, DM + Edge − Soak; Core
//! Rules: every attack lands — the chapter gives no attack roll — exploding
//! damage minus armour), both sides' expected damage per round against the
//! other's toughness, and the verdict on their ratio.

use serde::Serialize;

use super::super::GenError;
use super::super::npc::Npc;
use crate::dice::ast::{Expr, Pool, Roll, Scale, Term, TermKind};
use crate::dice::odds::{OddsDetail, roll_dist};
use crate::dice::{self};
use crate::rules::core::Sheet;
use crate::rules::mettle::StatBlock;
use crate::rules::{Party, RulesSystem};

/// Lower and upper edges of a fair fight.
pub const FAIR: (f64, f64) = (0.35, 0.7);

/// One attacker against one defender, exactly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttackOdds {
    /// Who attacks.
    pub attacker: String,
    /// Who is attacked.
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

/// How dangerous a fight is: each side's toughness and expected damage a
/// round, and the verdict on their ratio.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Threat {
    /// The party's toughness: Mettle (METTLE) or health (Core Rules), added up.
    pub party_toughness: f64,
    /// The foes' toughness, added up the same way.
    pub foe_toughness: f64,
    /// Expected damage the party deals in a round.
    pub party_damage_per_round: f64,
    /// Expected damage the foes deal in a round.
    pub foe_damage_per_round: f64,
    /// (foe damage / party toughness) ÷ (party damage / foe toughness).
    pub ratio: f64,
    /// trivial, easy, fair, hard, deadly — or none without foes.
    pub verdict: String,
}

impl Threat {
    /// The ratio as printed: two decimals, or `∞` where the party cannot
    /// hurt the foes at all (it deals 0 a round).
    pub fn ratio_said(&self) -> String {
        if self.ratio.is_finite() {
            format!("{:.2}", self.ratio)
        } else {
            "∞".to_owned()
        }
    }
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

/// How far a threat ratio is from the middle of the fair band.
pub(super) fn distance(ratio: f64) -> f64 {
    if !ratio.is_finite() || ratio <= 0.0 {
        return f64::INFINITY;
    }
    // The factor between the ratio and the band's middle (no `ln`, so the
    // choice is the same bits on every platform).
    let middle = (FAIR.0 * FAIR.1).sqrt();
    (ratio / middle).max(middle / ratio)
}

/// Combat numbers of one combatant (borrowing its name and damage die).
#[derive(Debug, Clone)]
struct Fighter<'a> {
    name: &'a str,
    toughness: f64,
    /// METTLE: (pool, DM) of the best attack; Core: damage die.
    pool: u32,
    dm: u32,
    damage: &'a str,
    poise: u32,
    soak: u32,
    armour: i64,
    health: i64,
}

fn mettle_fighter(b: &StatBlock) -> Fighter<'_> {
    let (pool, dm) = b
        .weapons
        .iter()
        .map(|w| (b.attack_pool(w), w.dm))
        .max()
        .unwrap_or((b.NATURE, 0));
    Fighter {
        name: &b.name,
        toughness: f64::from(b.mettle()),
        pool,
        dm,
        damage: "",
        poise: b.POISE,
        soak: b.soak(),
        armour: 0,
        health: 0,
    }
}

fn core_fighter(s: &Sheet) -> Fighter<'_> {
    Fighter {
        name: &s.name,
        toughness: s.current_health() as f64,
        pool: 0,
        dm: 0,
        damage: &s.damage,
        poise: 0,
        soak: 0,
        armour: s.armour,
        health: s.current_health(),
    }
}

fn request_error(e: impl std::fmt::Display) -> GenError {
    GenError::Request(e.to_string())
}

/// What one attack's odds depend on: the two fighters' numbers, not
/// their names.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Matchup {
    Mettle {
        pool: u32,
        dm: u32,
        poise: u32,
        soak: u32,
        toughness: u64,
    },
    Core {
        damage: String,
        armour: i64,
        health: i64,
    },
}

impl Matchup {
    fn of(system: RulesSystem, a: &Fighter, d: &Fighter) -> Matchup {
        match system {
            RulesSystem::Mettle => Matchup::Mettle {
                pool: a.pool,
                dm: a.dm,
                poise: d.poise,
                soak: d.soak,
                toughness: d.toughness.to_bits(),
            },
            RulesSystem::Core => Matchup::Core {
                damage: a.damage.to_owned(),
                armour: d.armour,
                health: d.health,
            },
        }
    }
}

/// One attack's odds as numbers, and the attack as printed.
#[derive(Clone)]
struct Known {
    attack: std::rc::Rc<str>,
    hit: f64,
    expected_damage: f64,
    fells: f64,
}

impl Known {
    fn named(&self, a: &Fighter, d: &Fighter) -> AttackOdds {
        AttackOdds {
            attacker: a.name.to_owned(),
            defender: d.name.to_owned(),
            attack: self.attack.to_string(),
            hit: self.hit,
            expected_damage: self.expected_damage,
            fells: self.fells,
        }
    }
}

/// Matchups whose odds are known, at most this many: fitting a threat
/// measures the same attackers against the same defenders again and again.
const MEMO_SIZE: usize = 4096;

thread_local! {
    /// The odds of each matchup worked out so far.
    static MEMO: std::cell::RefCell<std::collections::BTreeMap<Matchup, Known>> =
        const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
}

/// Exact odds of one attack, handed to `use_odds` (worked out once per
/// matchup: the odds are the same numbers whenever the fighters' numbers
/// are). Fitting a cast reads the numbers only; the odds rows are named
/// for the cast chosen.
fn with_attack_odds<T>(
    system: RulesSystem,
    a: &Fighter,
    d: &Fighter,
    mut use_odds: impl FnMut(&Known) -> T,
) -> Result<T, GenError> {
    let key = Matchup::of(system, a, d);
    if let Some(out) = MEMO.with(|m| m.borrow().get(&key).map(&mut use_odds)) {
        return Ok(out);
    }
    let odds = match system {
        RulesSystem::Mettle => mettle_attack(a, d),
        RulesSystem::Core => core_attack(a, d),
    }?;
    let out = use_odds(&odds);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_SIZE {
            m.clear();
        }
        m.insert(key, odds);
    });
    Ok(out)
}

/// METTLE: the attack pool vs the defender's POISE, DM + Edge − Soak.
fn mettle_attack(a: &Fighter, d: &Fighter) -> Result<Known, GenError> {
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
    let odds = dice::odds(&Expr::Pool(pool)).map_err(request_error)?;
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
    Ok(Known {
        attack: format!("{text} (DM {})", a.dm).into(),
        hit: c.success,
        expected_damage: expected,
        fells,
    })
}

/// Core Rules: the attack lands; exploding damage minus armour.
fn core_attack(a: &Fighter, d: &Fighter) -> Result<Known, GenError> {
    let die = if a.damage.ends_with('!') {
        a.damage.to_owned()
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
    let dist = roll_dist(&after).map_err(request_error)?;
    // Critical damage: half or more of the remaining health at once.
    let half = (d.health + 1) / 2;
    Ok(Known {
        attack: format!("{die} − armour {}", d.armour).into(),
        hit: 1.0,
        expected_damage: dist.mean() * dist.mass() + dist.tail * dist.max() as f64,
        fells: if d.health > 0 {
            dist.at_least(half.max(1))
        } else {
            1.0
        },
    })
}

fn party_fighters(system: RulesSystem, party: &Party) -> Vec<Fighter<'_>> {
    match system {
        RulesSystem::Mettle => party.mettle.iter().map(mettle_fighter).collect(),
        RulesSystem::Core => party.core.iter().map(core_fighter).collect(),
    }
}

fn foe_fighters(system: RulesSystem, foes: &[Npc]) -> Vec<Fighter<'_>> {
    match system {
        RulesSystem::Mettle => foes
            .iter()
            .filter_map(|f| f.rules.mettle().map(|m| mettle_fighter(&m.block)))
            .collect(),
        RulesSystem::Core => foes
            .iter()
            .filter_map(|f| f.rules.core().map(|c| core_fighter(&c.sheet)))
            .collect(),
    }
}

/// The attackers' expected damage per round: each attacker's mean over
/// the defenders, summed (0 without defenders). Each attack's odds go to
/// `each`, attacker by attacker, defender by defender.
fn side_damage(
    system: RulesSystem,
    attackers: &[Fighter],
    defenders: &[Fighter],
    each: &mut dyn FnMut(&Fighter, &Fighter, &Known),
) -> Result<f64, GenError> {
    let mut per_round = 0.0;
    for a in attackers {
        let mut sum = 0.0;
        for d in defenders {
            sum += with_attack_odds(system, a, d, |o| {
                each(a, d, o);
                o.expected_damage
            })?;
        }
        if !defenders.is_empty() {
            per_round += sum / defenders.len() as f64;
        }
    }
    Ok(per_round)
}

/// Measures casts of foes against one party, the party's fighting numbers
/// worked out once (fitting a cast measures many casts and keeps one).
pub(super) struct Gauge<'a> {
    system: RulesSystem,
    pcs: Vec<Fighter<'a>>,
}

impl<'a> Gauge<'a> {
    pub(super) fn new(system: RulesSystem, party: &'a Party) -> Gauge<'a> {
        Gauge {
            system,
            pcs: party_fighters(system, party),
        }
    }

    /// The threat of `foes` to the party, without the odds rows.
    pub(super) fn threat(&self, foes: &[Npc]) -> Result<Threat, GenError> {
        let enemies = foe_fighters(self.system, foes);
        weigh(self.system, &self.pcs, &enemies, &mut |_, _, _| {})
    }

    /// Odds both ways, named, and the threat they add up to.
    pub(super) fn measure(&self, foes: &[Npc]) -> Result<(Vec<AttackOdds>, Threat), GenError> {
        let enemies = foe_fighters(self.system, foes);
        let mut odds = Vec::new();
        let threat = weigh(self.system, &self.pcs, &enemies, &mut |a, d, o| {
            odds.push(o.named(a, d))
        })?;
        Ok((odds, threat))
    }
}

/// Both sides' damage per round and the threat they add up to, each
/// attack's odds (foes' attacks first) going to `each`.
fn weigh(
    system: RulesSystem,
    pcs: &[Fighter],
    enemies: &[Fighter],
    each: &mut dyn FnMut(&Fighter, &Fighter, &Known),
) -> Result<Threat, GenError> {
    let foe_dpr = side_damage(system, enemies, pcs, each)?;
    let party_dpr = side_damage(system, pcs, enemies, each)?;
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
    Ok(Threat {
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
    })
}
