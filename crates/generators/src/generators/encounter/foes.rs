//! Who the situation puts on stage: the foe kinds it names (`foe:` tags),
//! how many of each as its text says ([`said`]: a number in front of a
//! kind, rolled `{d3+1} poachers` or written `two wolves`, brings that
//! many; a kind only ever named as one, `the bog-horror`, once; a kind
//! named in the plural without a number at least twice), the balancing of
//! the foes against the party, the same-named foes numbered (`Wolf 1`,
//! `Wolf 2`), the group's leader (the only foe that keeps its want,
//! secret, manner and look), and the non-hostile people (`npc:` tags).
//!
//! **Balancing.** Kinds the text leaves open are added (lowest tier first,
//! never a second boss, at most eight) or taken away; counted ones keep
//! their number, and the foes are made veteran (harder-hitting) or green
//! (easier to hurt) instead, up to three grades each. The closest fit to
//! the fair band is kept. The text always says what the sheet holds: a
//! pinned kind is named in place of the situation's, and a number the
//! sheet cannot hold (more than eight foes, a second boss) is rewritten.

use super::super::npc::{self, Npc, NpcRules};
use super::super::{Address, GenError, Generator};
use super::Request;
use super::said;
use super::threat::{FAIR, Gauge, Threat, distance};
use crate::content::Library;
use crate::rules::RulesSystem;
use crate::seed::Seed;
use crate::tables::TableRoll;

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
    /// An NPC of an archetype, at `<at>/<kind>/<index>`, named apart from
    /// the names taken and those of `made` (the encounter's people so far),
    /// with a concept none of them has while its archetype has others (four
    /// cultists are not four of the same villager).
    fn npc(
        &self,
        archetype: &str,
        (kind, index): (&str, usize),
        made: &[Npc],
        fits: &[String],
    ) -> Result<Npc, GenError> {
        let mut taken = self.req.taken.clone();
        taken.extend(made.iter().map(|n| n.name.clone()));
        let req = npc::Request {
            system: self.req.system,
            archetype: Some(archetype.to_owned()),
            tier: None,
            terrain: None,
            people_only: false,
            fits: fits.to_vec(),
            met: made
                .iter()
                .filter(|n| n.archetype == archetype)
                .map(|n| n.concept_key.clone())
                .collect(),
            shun: self.req.shunned(),
            taken,
            // The people already on stage count as heard, in a campaign
            // or not: no two in one scene want the same cure.
            heard: (self.req.heard.iter().cloned())
                .chain(made.iter().flat_map(|n| n.traits.keys.clone()))
                .collect(),
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
    /// The situation's foes, balanced against the party and numbered, and
    /// the situation's text made to say them: a pinned kind named in place
    /// of the situation's, a number the sheet could not hold rewritten.
    pub(super) fn foes(&self, situation: &mut TableRoll) -> Result<Vec<Npc>, GenError> {
        let mut named = tagged(&situation.tags, "foe:");
        named.dedup();
        named.truncate(MAX_FOES);
        let mut kinds = named.clone();
        if !self.req.pin.foes.is_empty() {
            kinds = self.req.pin.foes.iter().map(String::as_str).collect();
            kinds.dedup();
            kinds.truncate(MAX_FOES);
            // The situation's kinds in order become the pinned ones (the
            // last pinned kind takes any the pin has no kind for).
            let to: Vec<&str> = (0..named.len())
                .map(|i| kinds[i.min(kinds.len() - 1)])
                .collect();
            let found = said::mentions(&situation.text, &named);
            situation.text = said::renamed(&situation.text, &found, &to);
        }
        let found = said::mentions(&situation.text, &kinds);
        let fixed = self.fixed_counts(&kinds, &said::counts(&found, kinds.len()));
        // A kind named in the plural with no number comes at least twice.
        let first: Vec<usize> = said::open_plurals(&found, kinds.len())
            .iter()
            .zip(&fixed)
            .map(|(&many, n)| n.unwrap_or(if many { 2 } else { 1 }))
            .collect();
        let room = MAX_FOES.saturating_sub(fixed.iter().flatten().sum::<usize>());
        let first = fit_open(first, &fixed, room);
        let mut foes = choose_foes(self, &kinds, &fixed, &first)?;
        let on_sheet: Vec<usize> = kinds
            .iter()
            .map(|k| foes.iter().filter(|f| f.archetype == *k).count())
            .collect();
        situation.text = said::renumbered(&situation.text, &found, &kinds, &on_sheet);
        // The people it names agree with their numbers too.
        situation.text = said::agreed(&situation.text, &tagged(&situation.tags, "npc:"));
        number_alike(&mut foes);
        leader_only(&mut foes);
        Ok(foes)
    }

    /// How many of each kind come as the text says (`None`: as many as
    /// fit): never more than one boss of a kind, at least one, and room
    /// for one of every kind the text leaves open within [`MAX_FOES`]
    /// (the biggest counts give way first).
    fn fixed_counts(&self, kinds: &[&str], said: &[Option<usize>]) -> Vec<Option<usize>> {
        let mut fixed: Vec<Option<usize>> = kinds
            .iter()
            .zip(said)
            .map(|(k, n)| n.map(|n| if self.tier(k) >= 3 { 1 } else { n.max(1) }))
            .collect();
        loop {
            let total: usize = fixed.iter().map(|n| n.unwrap_or(1)).sum();
            if total <= MAX_FOES {
                return fixed;
            }
            let Some(biggest) = fixed
                .iter_mut()
                .flatten()
                .filter(|n| **n > 1)
                .max_by_key(|n| **n)
            else {
                return fixed;
            };
            *biggest -= 1;
        }
    }

    /// The non-hostile people the situation names (`npc:` tags).
    /// They are named apart from the foes and from each other, and their
    /// concepts are among those its `concept:` tags allow.
    pub(super) fn others(&self, situation: &TableRoll, foes: &[Npc]) -> Result<Vec<Npc>, GenError> {
        let mut made: Vec<Npc> = foes.to_vec();
        let fits: Vec<String> = tagged(&situation.tags, "concept:")
            .into_iter()
            .map(str::to_owned)
            .collect();
        for (i, a) in tagged(&situation.tags, "npc:").iter().enumerate() {
            let other = self.npc(a, ("other", i), &made, &fits)?;
            made.push(other);
        }
        Ok(made.split_off(foes.len()))
    }
}

/// Only the group's leader keeps the traits every NPC is drawn with
/// ([`super::super::traits`]): the foe of the highest tier that has them,
/// the first among equals (a goblin-chief over its goblins, the first of
/// three bandits). A pack of beasts has no leader to play.
fn leader_only(foes: &mut [Npc]) {
    let leader = foes
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.traits.is_empty())
        .max_by_key(|(i, f)| (f.tier, std::cmp::Reverse(*i)))
        .map(|(i, _)| i);
    for (i, f) in foes.iter_mut().enumerate() {
        if Some(i) != leader {
            f.traits = Default::default();
        }
    }
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
        match &mut f.rules {
            NpcRules::Mettle(m) => m.block.name = name.clone(),
            NpcRules::Core(c) => c.sheet.name = name.clone(),
        }
        f.name = name;
    }
}

/// The open kinds' first numbers cut back to one each, last first, until
/// they fit in `room`.
fn fit_open(mut first: Vec<usize>, fixed: &[Option<usize>], room: usize) -> Vec<usize> {
    let open = |first: &[usize]| -> usize {
        first
            .iter()
            .zip(fixed)
            .filter(|(_, f)| f.is_none())
            .map(|(n, _)| n)
            .sum()
    };
    for k in (0..first.len()).rev() {
        if open(&first) <= room {
            break;
        }
        if fixed[k].is_none() {
            first[k] = 1;
        }
    }
    first
}

/// The foes the text counts, and one (two when it names them in the
/// plural) of each kind it leaves open: `first[k]` of kind `k`.
fn first_foes(cast: &Cast, kinds: &[&str], first: &[usize]) -> Result<Vec<Npc>, GenError> {
    let mut foes: Vec<Npc> = Vec::new();
    for (kind, n) in kinds.iter().zip(first) {
        for _ in 0..*n {
            let foe = cast.npc(kind, ("foe", foes.len()), &foes, &[])?;
            foes.push(foe);
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
                let foe = cast.npc(kind, ("foe", self.foes.len()), &self.foes, &[])?;
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
    fixed: &[Option<usize>],
    first: &[usize],
) -> Result<Vec<Npc>, GenError> {
    let foes = first_foes(cast, kinds, first)?;
    // More of a kind only when the text neither counts it nor names just one.
    let mut extras: Vec<&str> = kinds
        .iter()
        .zip(fixed)
        .filter(|(k, n)| n.is_none() && cast.tier(k) < 3)
        .map(|(k, _)| *k)
        .collect();
    extras.sort_by_key(|k| cast.tier(k));
    let gauge = Gauge::new(cast.req.system, &cast.req.party);
    let mut threat = gauge.threat(&foes)?;
    if foes.is_empty() {
        return Ok(foes);
    }
    // The closest fit so far: the foes being fitted (`None`), or a copy
    // made when a step moved away from them.
    let mut best: (Option<Vec<Npc>>, Threat) = (None, threat.clone());
    let mut fit = Fitting {
        base: foes.len(),
        foes,
        extras,
        added: 0,
        turn: 0,
    };
    for _ in 0..MAX_STEPS {
        if (FAIR.0..=FAIR.1).contains(&threat.ratio) {
            break;
        }
        let before = best.0.is_none().then(|| fit.foes.clone());
        if !fit.step(cast, &threat)? {
            break;
        }
        if let Some(kept) = before {
            best.0 = Some(kept);
        }
        threat = gauge.threat(&fit.foes)?;
        if better(&threat, &best.1) {
            best = (None, threat.clone());
        }
    }
    Ok(best.0.unwrap_or(fit.foes))
}
