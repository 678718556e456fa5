//! Issue 50: an NPC's traits fit who they are, read as a GM reads them.
//! Over a thousand NPCs a system, each trait is judged by its words (not
//! by the tags that make the generator pick it): only an innkeeper
//! polishes the cup and waters the ale, only a pilgrim wears the badge,
//! a pale one that lives in the dark does not fear it, a drowned one has
//! no costly hat; the dead and the monsters take no trait of a village
//! life.

use super::npc::{self, Npc};
use super::nth;
use crate::rules::RulesSystem;
use crate::seed::Seed;

/// A phrase of a trait, the archetypes it fits (empty: any) and the
/// archetypes or kinds it never fits.
struct Judged {
    phrase: &'static str,
    only: &'static [&'static str],
    never: &'static [&'static str],
}

const JUDGED: [Judged; 10] = [
    Judged {
        phrase: "polishes the same clean cup",
        only: &["innkeeper"],
        never: &[],
    },
    Judged {
        phrase: "waters the ale",
        only: &["innkeeper"],
        never: &[],
    },
    Judged {
        phrase: "pilgrim",
        only: &["pilgrim"],
        never: &[],
    },
    Judged {
        phrase: "living depends on the river",
        only: &["eel-fisher", "ferryman"],
        never: &[],
    },
    Judged {
        phrase: "stealing small things from guests",
        only: &["innkeeper"],
        never: &[],
    },
    Judged {
        phrase: "terrified of the dark",
        only: &[],
        never: &["pale-one", "pale-elder", "monster", "undead", "spirit"],
    },
    Judged {
        phrase: "costly hat",
        only: &[],
        never: &["undead", "spirit"],
    },
    Judged {
        phrase: "guard over the harvest",
        only: &["farmer"],
        never: &[],
    },
    Judged {
        phrase: "talks to their animal",
        only: &[],
        never: &["noble", "village-priest", "physician", "monster", "undead"],
    },
    Judged {
        phrase: "long claws",
        only: &[],
        never: &[
            "spirit",
            "drowned-one",
            "barrow-wight",
            "grave-knight",
            "woodwose",
            "ogre",
            "briar-queen",
        ],
    },
];

/// What a GM would call wrong with the traits of `n`.
fn misfit(n: &Npc) -> Option<String> {
    for (label, text) in n.traits.lines() {
        for j in JUDGED.iter().filter(|j| text.contains(j.phrase)) {
            let who = [n.archetype.as_str(), n.kind.as_str()];
            let outside = !j.only.is_empty() && !j.only.contains(&who[0]);
            if outside || who.iter().any(|w| j.never.contains(w)) {
                return Some(format!("{} ({}) {label}: {text}", n.archetype, n.kind));
            }
        }
    }
    None
}

/// 2,000 NPCs a system (all archetypes, then people only): none with a
/// trait that fits another archetype.
#[test]
fn a_thousand_npcs_a_system_have_traits_that_fit_them() {
    let library = crate::content::test_library();
    let seed = Seed::new("who-fits").unwrap();
    let mut bad = Vec::new();
    let mut all = 0;
    for system in [RulesSystem::Mettle, RulesSystem::Core] {
        for people_only in [false, true] {
            let req = npc::Request {
                system,
                archetype: None,
                tier: None,
                terrain: None,
                people_only,
                fits: Vec::new(),
                shun: Vec::new(),
                taken: Vec::new(),
                heard: Vec::new(),
                met: Vec::new(),
            };
            for i in 0..1_000 {
                let n = nth(&library, &req, &seed, i).unwrap();
                all += 1;
                bad.extend(misfit(&n));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {all} NPCs with a trait that fits another: {:?}",
        bad.len(),
        &bad[..bad.len().min(10)]
    );
}

/// Every archetype drawn 60 times: the judged traits still fit.
#[test]
fn every_archetype_draws_only_traits_that_fit_it() {
    let library = crate::content::test_library();
    let seed = Seed::new("who-each").unwrap();
    let rows = &library.table("gen.npc.mettle").unwrap().rows;
    let mut bad = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let req = npc::Request {
            system: RulesSystem::Mettle,
            archetype: Some(row.entry.name.to_string()),
            tier: None,
            terrain: None,
            people_only: false,
            fits: Vec::new(),
            shun: Vec::new(),
            taken: Vec::new(),
            heard: Vec::new(),
            met: Vec::new(),
        };
        for i in k * 60..(k + 1) * 60 {
            bad.extend(misfit(&nth(&library, &req, &seed, i).unwrap()));
        }
    }
    assert!(
        bad.is_empty(),
        "{} misfits: {:?}",
        bad.len(),
        &bad[..bad.len().min(10)]
    );
}
