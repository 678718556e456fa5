//! Encounters on the way, from the leg's terrain table, in the journey's
//! system. A situation already used — in the pack (the request's `used`)
//! or earlier on this journey — is drawn again (up to
//! [`REDRAWS`] times, each from its own `redraw/<r>` address); a worse
//! encounter (a Twist's price) is the more threatening of two draws.

use super::super::encounter::{self, Encounter};
use super::super::map::Path;
use super::super::traits;
use super::trip::Trip;
use super::{Address, EncounterNote, GenError};
use crate::generators::weather::Season;
use crate::seed::Seed;

/// Most redraws to avoid a situation already used.
pub(super) const REDRAWS: usize = 12;

impl Trip<'_> {
    /// Draw an encounter at `at` on `path`, log it and keep it.
    pub(super) fn encounter(
        &mut self,
        at: &Address,
        path: &Path,
        worse: bool,
    ) -> Result<(), GenError> {
        let mut e = self.draw(at, &path.terrain, encounter::Pin::default())?;
        if worse {
            let other = self.draw(&at.only("worse"), &path.terrain, encounter::Pin::default())?;
            if other.threat.ratio > e.threat.ratio {
                e = other;
            }
        }
        self.clock.log(format!(
            "Encounter on the way{}: {} — {}{}",
            if worse { " (the worse of two)" } else { "" },
            e.situation.row,
            e.situation.text,
            if e.foes.is_empty() {
                String::new()
            } else {
                format!(" (threat: {})", e.threat.verdict)
            }
        ));
        let leg = format!(
            "{} → {}",
            self.stop(self.here).name,
            self.stop_name_of(path)
        );
        self.keep(e, leg);
        Ok(())
    }

    /// The foes lying in wait at `stop`, reached from `from` on leg `k`
    /// (an Ambushed Twist's price): one of the stop's terrain's ambush
    /// situations ([`encounter::ambushes`]), drawn at `leg/<k>/ambush`
    /// among those not met yet on the way or in the pack (all of them if
    /// every one was); in a terrain with none, the first of [`REDRAWS`]
    /// draws with foes, laid out as an ambush all the same. Logged and
    /// kept like an encounter on the way, so the pack prints it and the
    /// record takes it; `None` (the GM says who) only if nothing has foes.
    pub(super) fn ambush(
        &mut self,
        k: usize,
        (from, stop): (usize, usize),
    ) -> Result<Option<String>, GenError> {
        let at = self.at.child("leg", k).only("ambush");
        let Some(e) = self.waiting(&at, stop)? else {
            return Ok(None);
        };
        let line = if e.lies_in_wait() {
            format!(
                "{} — {} (threat: {})",
                e.situation.row,
                e.situation.text.trim_end(),
                e.threat.verdict
            )
        } else {
            format!(
                "{}, lying in wait: {} They strike first (threat: {}).",
                e.situation.row,
                e.situation.text.trim_end(),
                e.threat.verdict
            )
        };
        let leg = format!(
            "{} → {}, in ambush on arrival",
            self.stop(from).name,
            self.stop(stop).name
        );
        self.keep(e, leg);
        Ok(Some(line))
    }

    /// Who waits at `at`, on the way into `stop` ([`Trip::ambush`]): an
    /// ambush of its terrain that suits it ([`encounter::suits`]).
    fn waiting(&self, at: &Address, stop: usize) -> Result<Option<Encounter>, GenError> {
        let s = self.stop(stop);
        let terrain = s.terrain.as_str();
        let all = encounter::ambushes(self.library, terrain, Some((&s.kind, &s.name)))?;
        let fresh: Vec<&String> = all.iter().filter(|n| !self.used.contains(n)).collect();
        let names: Vec<&String> = if fresh.is_empty() {
            all.iter().collect()
        } else {
            fresh
        };
        if !names.is_empty() {
            let pick = at.stream(self.seed, "ambush").below(names.len() as u32) as usize;
            let pin = encounter::Pin {
                situation: Some(names[pick].clone()),
                ambush: true,
                ..encounter::Pin::default()
            };
            return self.draw(at, terrain, pin).map(Some);
        }
        for r in 0..REDRAWS {
            let pin = encounter::Pin {
                ambush: true,
                ..encounter::Pin::default()
            };
            let e = self.draw(&at.child("ambush", r), terrain, pin)?;
            if !e.foes.is_empty() {
                return Ok(Some(e));
            }
        }
        Ok(None)
    }

    /// Keep encounter `e`, met on `leg`: its situation is used.
    fn keep(&mut self, e: Encounter, leg: String) {
        self.used.push(e.situation.row.clone());
        self.encounters.push(EncounterNote {
            day: self.clock.day(),
            leg,
            name: e.situation.row.clone(),
            situation: e.situation.text.clone(),
            foes: e.foes.iter().map(|f| f.name.clone()).collect(),
            threat: e.threat.verdict.clone(),
            encounter: e,
        });
    }

    /// An encounter whose situation is not used yet, if one comes up, its
    /// people named apart from those met earlier on the way, with what is
    /// pinned of it.
    fn draw(
        &self,
        at: &Address,
        terrain: &str,
        pin: encounter::Pin,
    ) -> Result<Encounter, GenError> {
        let mut taken = self.req.taken.clone();
        let mut met = Vec::new();
        for e in &self.encounters {
            let people = e.encounter.foes.iter().chain(&e.encounter.others);
            for n in people {
                taken.push(n.name.clone());
                met.extend(n.traits.keys.iter().cloned());
            }
        }
        let heard = traits::also_heard(self.req.heard.clone(), met);
        draw_fresh(
            self.library,
            &encounter::Request {
                terrain: terrain.to_owned(),
                system: self.req.system,
                party: self.req.party.clone(),
                pin,
                shun: self.req.shun.clone(),
                taken,
                heard,
                season: Season::on(self.clock.day(), self.req.first_season),
            },
            self.seed,
            at,
            (&self.used, &self.req.remembered),
        )
    }
}

/// The encounter at `at`, or at `at/redraw/<r>` for the first `r` whose
/// situation is not in `used` (the last draw if every one is). With a
/// campaign's `remembered` situations, first the encounter at `at`, or at
/// `at/recall/<r>`, whose situation is in neither (each a whole new draw,
/// so the situations left keep their odds among themselves); when
/// [`super::super::DRAWS`] draws all repeat one, as without.
pub(super) fn draw_fresh(
    library: &crate::content::Library,
    req: &encounter::Request,
    seed: &Seed,
    at: &Address,
    (used, remembered): (&[String], &[String]),
) -> Result<Encounter, GenError> {
    use super::super::Generator;
    use super::super::memory::situation_key;
    if !remembered.is_empty() {
        for r in 0..super::super::DRAWS {
            let here = if r == 0 {
                at.clone()
            } else {
                at.child("recall", r)
            };
            let e = req.make(library, seed, &here)?;
            let key = situation_key(&e.situation.table, &e.situation.row);
            let met = remembered.contains(&key) || remembered.contains(&e.memory_key());
            if !used.contains(&e.situation.row) && !met {
                return Ok(e);
            }
        }
    }
    let mut e = req.make(library, seed, at)?;
    for r in 0..REDRAWS {
        if !used.contains(&e.situation.row) {
            break;
        }
        e = req.make(library, seed, &at.child("redraw", r))?;
    }
    Ok(e)
}
