//! Foes grouped: an encounter's identical foes (same kind, grade, numbers
//! and CALLINGS) as one group, `Cultist ×8`. Made once here for every
//! output that groups them: the PDF encounter sheet and the Homebrewery
//! stat blocks.

use crate::generators::npc::{Npc, NpcRules};
use crate::wording::lines;
use crate::wording::markup::Markup;

/// Foes of one kind with the same numbers.
pub(super) struct Group<'a> {
    pub members: Vec<&'a Npc>,
}

impl Group<'_> {
    pub(super) fn first(&self) -> &Npc {
        self.members[0]
    }

    /// `Marsh leech ×8`, or one foe's name and kind.
    pub(super) fn title(&self) -> String {
        let n = self.first();
        if self.members.len() == 1 {
            lines::who(n)
        } else {
            format!("{} ×{}", base_name(n), self.members.len())
        }
    }

    /// Whether `other`'s foes have this group's numbers (stats, attack,
    /// toughness): only such groups may share a row of odds (they differ
    /// at most in CALLINGS).
    pub(super) fn same_numbers(&self, other: &Group) -> bool {
        numbers(self.first()) == numbers(other.first())
    }

    /// A short row label, the group's names: `Marsh leech 2, 4, 8`,
    /// `Agna Thatcher`, `Wendel Hartwell, Ash Kettle`.
    pub(super) fn short(&self) -> String {
        names(self)
    }
}

/// The kind of a foe, which numbered foes' names start with: `Marsh
/// leech` (for `Marsh leech 3`); named people are `Cult fanatic`s.
pub(super) fn base_name(n: &Npc) -> String {
    crate::generators::display_name(&n.archetype)
}

/// The foes grouped: same kind, same grade and the same numbers, in the
/// order they first appear.
pub(super) fn groups(foes: &[Npc]) -> Vec<Group<'_>> {
    let mut out: Vec<(String, Group)> = Vec::new();
    for n in foes {
        let key = format!("{}|{}|{}|{}", n.archetype, n.grade, numbers(n), callings(n));
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.members.push(n),
            None => out.push((key, Group { members: vec![n] })),
        }
    }
    out.into_iter().map(|(_, g)| g).collect()
}

/// A foe's numbers as printed: stats, attack and toughness.
fn numbers(n: &Npc) -> String {
    let line = lines::foe_line(n);
    format!("{}|{}|{}", line.stats, line.attack, line.toughness)
}

/// A foe's CALLINGS (METTLE) or skills and traits (Core Rules).
pub(super) fn callings(n: &Npc) -> String {
    match &n.rules {
        NpcRules::Mettle(m) => lines::callings(&m.block, Markup::Plain),
        NpcRules::Core(c) => c
            .sheet
            .skills
            .iter()
            .chain(&c.sheet.traits)
            .cloned()
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A group's names, numbered foes after the first by number: `Marsh
/// leech 3, 5, 6, 7`, or a run of three or more as `Marsh leech 1–8`.
pub(super) fn names(g: &Group) -> String {
    let base = base_name(g.first());
    let numbers: Vec<u32> = g
        .members
        .iter()
        .filter_map(|m| m.name.strip_prefix(&base)?.trim().parse().ok())
        .collect();
    let run = numbers.windows(2).all(|w| w[1] == w[0] + 1);
    if numbers.len() == g.members.len() && numbers.len() > 2 && run {
        return format!("{base} {}–{}", numbers[0], numbers[numbers.len() - 1]);
    }
    let names: Vec<&str> = g
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| match m.name.strip_prefix(&base).map(str::trim) {
            Some(k) if i > 0 && !k.is_empty() => k,
            _ => m.name.as_str(),
        })
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library;
    use crate::generators::encounter::{Pin, Request};
    use crate::generators::nth;
    use crate::rules::{Party, RulesSystem};
    use crate::seed::Seed;

    /// Every group, and every pair of groups said to share numbers, holds
    /// foes whose printed numbers are equal — over encounters of both
    /// systems where foes of one kind differ.
    #[test]
    fn a_group_holds_only_foes_with_equal_numbers() {
        let library = test_library();
        let seed = Seed::new("groups").unwrap();
        let mut split = 0;
        for i in 0..200 {
            let system = [RulesSystem::Mettle, RulesSystem::Core][i % 2];
            let summary = ["3,4,4,5", "10,12,9,11"][i % 2];
            let req = Request {
                terrain: "swamp".into(),
                system,
                party: Party::from_summary(summary, system).unwrap(),
                pin: Pin::default(),
                shun: Vec::new(),
                taken: Vec::new(),
                heard: Vec::new(),
                season: Default::default(),
            };
            let e = nth(&library, &req, &seed, i).unwrap();
            let gs = groups(&e.foes);
            for g in &gs {
                assert!(g.members.iter().all(|m| numbers(m) == numbers(g.first())));
            }
            for a in &gs {
                for b in &gs {
                    let kind = a.first().archetype == b.first().archetype;
                    if kind && numbers(a.first()) != numbers(b.first()) {
                        split += 1;
                        assert!(!a.same_numbers(b));
                    }
                }
            }
        }
        assert!(split > 0, "no kind had foes with different numbers");
    }
}
