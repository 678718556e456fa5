//! Who the situation puts on stage: the foe kinds it names (`foe:` tags),
//! how many of each (a kind counted with an inline roll, `{d3+1} poachers`,
//! comes that many times; a kind named as one, `the bog-horror`, once), the
//! balancing of the foes against the party, the same-named foes numbered
//! (`Wolf 1`, `Wolf 2`), and the non-hostile people (`npc:` tags).
//!
//! **Balancing.** When the situation gives no number, foes are added
//! (lowest tier first, never a second boss, at most eight) or taken away;
//! when it does, that many come, and the foes are made veteran
//! (harder-hitting) or green (easier to hurt) instead, up to three grades
//! each. The closest fit to the fair band is kept.

use super::super::npc::{self, Npc};
use super::super::{Address, GenError, Generator};
use super::Request;
use super::threat::{FAIR, Threat, distance, measure};
use crate::content::Library;
use crate::content::template::Segment;
use crate::rules::RulesSystem;
use crate::seed::Seed;
use crate::tables::{Step, TableRoll};

/// Most foes in one encounter.
pub const MAX_FOES: usize = 8;
/// Most adjustments made while fitting the foes to the party.
const MAX_STEPS: usize = 48;
/// Most grades a foe moves up or down.
const MAX_GRADE: i8 = 3;

/// Where the encounter's people come from: the request, the seed and the
/// encounter's address (foe `i` is `<at>/foe/<i>`, other `i` `<at>/other/<i>`).
pub(super) struct Cast<'a> {
    pub library: &'a Library,
    pub req: &'a Request,
    pub seed: &'a Seed,
    pub at: &'a Address,
}

impl Cast<'_> {
    /// An NPC of an archetype, at `<at>/<kind>/<index>`.
    fn npc(&self, archetype: &str, kind: &str, index: usize) -> Result<Npc, GenError> {
        let req = npc::Request {
            system: self.req.system,
            archetype: Some(archetype.to_owned()),
            tier: None,
            terrain: None,
            people_only: false,
        };
        req.make(self.library, self.seed, &self.at.child(kind, index))
    }

    fn tier(&self, archetype: &str) -> u8 {
        tier_of(self.library, self.req.system, archetype)
    }
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
        .and_then(|t| t.rows.iter().find(|r| r.entry.name == archetype))
        .map_or(1, npc::tier_of)
}

impl Cast<'_> {
    /// The situation's foes, balanced against the party and numbered.
    pub(super) fn foes(&self, situation: &TableRoll) -> Result<Vec<Npc>, GenError> {
        let table = situation.table.clone();
        let mut kinds = match self.req.pin.foes.is_empty() {
            true => tagged(&situation.tags, "foe:"),
            false => self.req.pin.foes.iter().map(String::as_str).collect(),
        };
        kinds.dedup();
        kinds.truncate(MAX_FOES);
        // A number rolled in the situation's text (`{d3+1} poachers`) fixes
        // how many of that kind there are.
        let row = self
            .library
            .table(&table)?
            .rows
            .iter()
            .find(|r| r.label() == situation.label);
        let counted = row.and_then(|r| counted_kind(&r.template, &kinds));
        let number = situation.trail.iter().find_map(|s| match s {
            Step::Dice { result, .. } => Some((*result).clamp(1, MAX_FOES as i64) as usize),
            _ => None,
        });
        let fixed = counted.zip(number);
        let single = singular_kinds(&situation.text, &kinds);
        let mut foes = choose_foes(self, &kinds, fixed, &single)?;
        number_alike(&mut foes);
        Ok(foes)
    }

    /// The non-hostile people the situation names (`npc:` tags).
    pub(super) fn others(&self, situation: &TableRoll) -> Result<Vec<Npc>, GenError> {
        tagged(&situation.tags, "npc:")
            .iter()
            .enumerate()
            .map(|(i, a)| self.npc(a, "other", i))
            .collect()
    }
}

/// The foe kind a situation counts with an inline roll: the kind named
/// right after the first `{dice}` of its text (`{d3+1} poachers`).
fn counted_kind<'a>(template: &[Segment], kinds: &[&'a str]) -> Option<&'a str> {
    let at = template
        .iter()
        .position(|s| matches!(s, Segment::Dice { .. }))?;
    let Some(Segment::Text { text }) = template.get(at + 1) else {
        return None;
    };
    let after = text.trim_start().to_lowercase();
    let word_at = |form: &str| {
        after.starts_with(form) && !after[form.len()..].starts_with(|c: char| c.is_alphabetic())
    };
    kinds
        .iter()
        .copied()
        .filter(|k| plural_forms(k).iter().any(|f| word_at(f)))
        .max_by_key(|k| k.len())
}

/// A kind's name and the ways its plural may be written (`wolf`, `wolfs`,
/// `wolfes`, `wolves`).
fn plural_forms(kind: &str) -> Vec<String> {
    let one = kind.replace('-', " ");
    let mut forms = vec![one.clone(), format!("{one}s"), format!("{one}es")];
    if let Some(stem) = one.strip_suffix('f') {
        forms.push(format!("{stem}ves"));
    }
    if let Some(stem) = one.strip_suffix('y') {
        forms.push(format!("{stem}ies"));
    }
    forms
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

/// One foe of each kind the situation names, or the counted number of the
/// counted kind (never a counted boss, and room left for the other kinds).
fn first_foes(
    cast: &Cast,
    kinds: &[&str],
    fixed: Option<(&str, usize)>,
) -> Result<Vec<Npc>, GenError> {
    let mut foes: Vec<Npc> = Vec::new();
    for kind in kinds {
        let n = match fixed {
            Some((counted, n)) if counted == *kind && cast.tier(kind) < 3 => {
                n.min((MAX_FOES + 1).saturating_sub(kinds.len()).max(1))
            }
            _ => 1,
        };
        for _ in 0..n {
            foes.push(cast.npc(kind, "foe", foes.len())?);
        }
    }
    Ok(foes)
}

/// The foes as they are being fitted to the party.
struct Fitting<'a> {
    foes: Vec<Npc>,
    /// How many the situation itself brought (never taken away).
    base: usize,
    /// Kinds that may come again, lowest tier first.
    extras: Vec<&'a str>,
    /// Extras added so far (which extra comes next).
    added: usize,
    /// The foe to regrade next.
    turn: usize,
}

impl Fitting<'_> {
    /// One step towards the fair band: a foe more or fewer, or one foe
    /// regraded. False when nothing could change.
    fn step(&mut self, cast: &Cast, threat: &Threat) -> Result<bool, GenError> {
        let too_easy = threat.ratio < FAIR.0;
        let foes_can_hurt = threat.foe_damage_per_round > 0.0;
        Ok(
            if too_easy && foes_can_hurt && !self.extras.is_empty() && self.foes.len() < MAX_FOES {
                let kind = self.extras[self.added % self.extras.len()];
                self.added += 1;
                let foe = cast.npc(kind, "foe", self.foes.len())?;
                self.foes.push(foe);
                true
            } else if !too_easy && self.foes.len() > self.base {
                self.foes.pop();
                self.added = self.added.saturating_sub(1);
                true
            } else {
                self.regrade_one(too_easy)
            },
        )
    }

    /// Regrade one foe, in turn, within the grade limit.
    fn regrade_one(&mut self, up: bool) -> bool {
        let n = self.foes.len();
        for k in 0..n {
            let f = &mut self.foes[(self.turn + k) % n];
            let room = if up {
                f.grade < MAX_GRADE
            } else {
                f.grade > -MAX_GRADE
            };
            if room && npc::regrade(f, up) {
                self.turn = (self.turn + k + 1) % n;
                return true;
            }
        }
        false
    }
}

/// Closer to the fair band wins; among hopeless fits (the party cannot hurt
/// the foes), the one where the party hurts them most and they hurt the
/// party least.
fn better(t: &Threat, than: &Threat) -> bool {
    let key = |t: &Threat| {
        (
            distance(t.ratio),
            -t.party_damage_per_round,
            t.foe_damage_per_round,
        )
    };
    key(t).partial_cmp(&key(than)) == Some(std::cmp::Ordering::Less)
}

/// The foes, scaled to the party: one of each kind the situation names,
/// then — until the threat is fair — more foes (lowest tier first, never a
/// second boss, at most eight) or veteran grades when more foes cannot
/// help; fewer foes or green grades when it is too hard. The closest fit
/// seen is kept.
fn choose_foes(
    cast: &Cast,
    kinds: &[&str],
    fixed: Option<(&str, usize)>,
    single: &[&str],
) -> Result<Vec<Npc>, GenError> {
    let foes = first_foes(cast, kinds, fixed)?;
    // More of a kind only when the text neither counts it nor names just one.
    let mut extras: Vec<&str> = kinds
        .iter()
        .copied()
        .filter(|k| cast.tier(k) < 3)
        .filter(|k| fixed.is_none_or(|(counted, _)| counted != *k))
        .filter(|k| !single.contains(k))
        .collect();
    extras.sort_by_key(|k| cast.tier(k));
    let (system, party) = (cast.req.system, &cast.req.party);
    let (_, mut threat) = measure(system, party, &foes)?;
    if foes.is_empty() {
        return Ok(foes);
    }
    let mut best = (foes.clone(), threat.clone());
    let mut fit = Fitting {
        base: foes.len(),
        foes,
        extras,
        added: 0,
        turn: 0,
    };
    for _ in 0..MAX_STEPS {
        if (FAIR.0..=FAIR.1).contains(&threat.ratio) || !fit.step(cast, &threat)? {
            break;
        }
        threat = measure(system, party, &fit.foes)?.1;
        if better(&threat, &best.1) {
            best = (fit.foes.clone(), threat.clone());
        }
    }
    Ok(best.0)
}
