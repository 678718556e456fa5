//! METTLE Core (Engine): how a pool of d6 is read, the Difficulty ladder,
//! the Edge quality ladder and Teamwork.
//!
//! A die showing 1-3 adds its face to the Score; a die showing 4-6 adds one
//! Edge. A Check succeeds when the Score *beats* (is greater than) the
//! Difficulty.

use serde::Serialize;

/// A rung of the Difficulty ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rung {
    /// The Difficulty the Score must beat.
    pub difficulty: u32,
    /// The rung's name (`Routine`, `Daunting`, …).
    pub word: &'static str,
}

/// The Engine's Difficulty ladder.
pub const DIFFICULTY_LADDER: [Rung; 5] = [
    Rung {
        difficulty: 1,
        word: "Routine",
    },
    Rung {
        difficulty: 3,
        word: "Challenging",
    },
    Rung {
        difficulty: 6,
        word: "Daunting",
    },
    Rung {
        difficulty: 10,
        word: "Formidable",
    },
    Rung {
        difficulty: 15,
        word: "Nigh Impossible",
    },
];

/// The Engine's Edge quality ladder, indexed by Edge (5 and up: Legendary).
pub const EDGE_LADDER: [&str; 6] = ["OK", "Good", "Great", "Excellent", "Amazing", "Legendary"];

/// The quality word for an amount of Edge on a success.
pub(crate) fn edge_word(edge: u32) -> &'static str {
    EDGE_LADDER[(edge as usize).min(EDGE_LADDER.len() - 1)]
}

/// The ladder word for a Difficulty: the rung's own word, or the rung below
/// with the difference (`Challenging+1` for 4). Difficulty 0 is `none`
/// (hazards skip the Check and count Edge).
pub fn difficulty_word(difficulty: u32) -> String {
    match DIFFICULTY_LADDER
        .iter()
        .rev()
        .find(|r| r.difficulty <= difficulty)
    {
        None => "none".to_owned(),
        Some(r) if r.difficulty == difficulty => r.word.to_owned(),
        Some(r) => format!("{}+{}", r.word, difficulty - r.difficulty),
    }
}

/// Score and Edge of a set of faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Tally {
    /// The faces 1-3 added up.
    pub score: u32,
    /// How many faces showed 4-6.
    pub edge: u32,
}

/// Read faces: 1-3 add to Score, 4-6 count as Edge.
pub fn tally(faces: &[u32]) -> Tally {
    faces.iter().fold(Tally::default(), |t, &f| {
        if f <= 3 {
            Tally {
                score: t.score + f,
                ..t
            }
        } else {
            Tally {
                edge: t.edge + 1,
                ..t
            }
        }
    })
}

/// Teamwork: every pool lower than the highest gets +1D.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "rules of the seeds checked by tests; the campaign ledger (issue 29) applies them"
    )
)]
pub(crate) fn teamwork(pools: &[u32]) -> Vec<u32> {
    let highest = pools.iter().copied().max().unwrap_or(0);
    pools
        .iter()
        .map(|&p| if p < highest { p + 1 } else { p })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calling_names_a_weapon_as_the_lower_case_comparison_says() {
        let slow = |calling: &str, weapon: &str| {
            let name = calling.to_lowercase();
            weapon
                .to_lowercase()
                .split_whitespace()
                .any(|w| w.len() > 3 && name.contains(w))
        };
        let callings = [
            "Bowyer",
            "Swordsman",
            "Spear-dancer",
            "AXE",
            "Bogenschütze",
            "",
        ];
        let weapons = [
            "Long Bow",
            "longbow",
            "Sword",
            "SPEAR",
            "Hand axe",
            "Bogen",
            "bow",
            "Spear-dancer's pike",
        ];
        for c in callings {
            for w in weapons {
                assert_eq!(names_weapon(c, w), slow(c, w), "{c} / {w}");
            }
        }
        assert!(names_weapon("Swordsman", "Short SWORD"));
        assert!(!names_weapon("Bowyer", "Bow"), "three letters are too few");
    }

    #[test]
    fn engine_example_reading_the_dice() {
        // Engine, Checks: [4, 1, 3, 5, 2, 2] → Score 8, Edge 2.
        assert_eq!(tally(&[4, 1, 3, 5, 2, 2]), Tally { score: 8, edge: 2 });
    }

    #[test]
    fn engine_example_of_play() {
        // 3, 2, 2, 6 → Score 7 and 1 Edge.
        assert_eq!(tally(&[3, 2, 2, 6]), Tally { score: 7, edge: 1 });
        // 1, 2, 2, 5, 6 → Score 5, 2 Edge; rerolled Edge dice 3, 4 → Score 8, Edge 1.
        let first = tally(&[1, 2, 2, 5, 6]);
        assert_eq!(first, Tally { score: 5, edge: 2 });
        let reroll = tally(&[3, 4]);
        assert_eq!(first.score + reroll.score, 8);
        assert_eq!(reroll.edge, 1);
    }

    #[test]
    fn ladders() {
        assert_eq!(edge_word(0), "OK");
        assert_eq!(edge_word(2), "Great");
        assert_eq!(edge_word(5), "Legendary");
        assert_eq!(edge_word(9), "Legendary");
        assert_eq!(difficulty_word(0), "none");
        assert_eq!(difficulty_word(1), "Routine");
        assert_eq!(difficulty_word(3), "Challenging");
        assert_eq!(difficulty_word(4), "Challenging+1");
        assert_eq!(difficulty_word(15), "Nigh Impossible");
        assert_eq!(difficulty_word(20), "Nigh Impossible+5");
    }

    #[test]
    fn teamwork_lifts_every_pool_below_the_highest() {
        assert_eq!(teamwork(&[3, 5, 5, 2]), vec![4, 5, 5, 3]);
        assert_eq!(teamwork(&[4, 4]), vec![4, 4]);
        assert_eq!(teamwork(&[]), Vec::<u32>::new());
    }
}

/// Every METTLE status a stat block may carry (the Engine's and the
/// Scenes' lists; `mettle.statuses` in the content holds the same names).
pub const STATUSES: [&str; 16] = [
    "Afflicted",
    "Blinded",
    "Burning",
    "Deafened",
    "Encumbered",
    "Fallen",
    "Fatigued",
    "Hungry",
    "Incapacitated",
    "Rattled",
    "Shaken",
    "Staggered",
    "Starving",
    "Suffocating",
    "Surprised",
    "Thirsty",
];

/// The five METTLE attributes, in sheet order.
pub const ATTRIBUTES: [&str; 5] = ["NATURE", "CULTURE", "POISE", "MOTIVE", "FRAME"];

/// Largest pool an attribute or CALLING may have on a stat block.
pub const MAX_POOL: u32 = 12;

/// A CALLING: a background or trade with its own pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calling {
    /// The CALLING's name as the sheet writes it.
    pub name: String,
    /// Its pool, in dice (at most [`MAX_POOL`]).
    pub dice: u32,
}

/// A weapon: its DM adds to Edge on a hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// The weapon's name.
    pub name: String,
    /// Damage Modifier: added to Edge on a hit.
    pub dm: u32,
    /// Ranged weapons attack with CULTURE, melee with NATURE.
    #[serde(default)]
    pub ranged: bool,
}

/// A METTLE stat block.
#[allow(non_snake_case)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatBlock {
    /// The name the block is shown under.
    pub name: String,
    /// NATURE, in dice (melee attacks).
    pub NATURE: u32,
    /// CULTURE, in dice (ranged attacks).
    pub CULTURE: u32,
    /// POISE, in dice.
    pub POISE: u32,
    /// MOTIVE, in dice (the base of Mettle).
    pub MOTIVE: u32,
    /// FRAME, in dice (adds to Soak).
    pub FRAME: u32,
    /// The CALLINGs, each with its own pool.
    #[serde(default)]
    pub callings: Vec<Calling>,
    /// Armor, added to FRAME for Soak.
    #[serde(default)]
    pub armor: u32,
    /// The weapons carried.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Zones a Move may cross in a Round (1: the free Charge).
    #[serde(default = "one")]
    pub speed: u32,
    /// Statuses the creature starts with (names from the rules' status list).
    #[serde(default)]
    pub statuses: Vec<String>,
}

fn one() -> u32 {
    1
}

impl StatBlock {
    /// The five attributes and their pools, in sheet order.
    pub fn attributes(&self) -> [(&'static str, u32); 5] {
        [
            ("NATURE", self.NATURE),
            ("CULTURE", self.CULTURE),
            ("POISE", self.POISE),
            ("MOTIVE", self.MOTIVE),
            ("FRAME", self.FRAME),
        ]
    }

    /// The pool of the attribute named `name` (upper case), if it is one.
    pub fn attribute(&self, name: &str) -> Option<u32> {
        self.attributes()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }

    /// Mettle = MOTIVE + the highest attribute other than FRAME.
    pub fn mettle(&self) -> u32 {
        self.MOTIVE
            + self
                .NATURE
                .max(self.CULTURE)
                .max(self.POISE)
                .max(self.MOTIVE)
    }

    /// Soak = FRAME + Armor.
    pub fn soak(&self) -> u32 {
        self.FRAME + self.armor
    }

    /// The pool a weapon attacks with: NATURE for melee, CULTURE for
    /// ranged, or a CALLING that names the weapon if it is larger.
    pub fn attack_pool(&self, weapon: &Weapon) -> u32 {
        let base = if weapon.ranged {
            self.CULTURE
        } else {
            self.NATURE
        };
        self.callings
            .iter()
            .filter(|c| names_weapon(&c.name, &weapon.name))
            .map(|c| c.dice)
            .fold(base, u32::max)
    }
}

/// Whether a CALLING's name holds a word of the weapon's name longer than
/// three bytes, letter case aside (ASCII names, the usual case, compared
/// without making lower-case copies).
fn names_weapon(calling: &str, weapon: &str) -> bool {
    if !(calling.is_ascii() && weapon.is_ascii()) {
        let name = calling.to_lowercase();
        return weapon
            .to_lowercase()
            .split_whitespace()
            .any(|w| w.len() > 3 && name.contains(w));
    }
    let name = calling.as_bytes();
    weapon.split_ascii_whitespace().any(|w| {
        w.len() > 3
            && name
                .windows(w.len())
                .any(|at| at.eq_ignore_ascii_case(w.as_bytes()))
    })
}

/// Everything that makes a stat block illegal under the rules core.
pub fn check_block(b: &StatBlock) -> Vec<String> {
    super::messages(block_flaws(b))
}

/// [`check_block`], with the field each problem sits in.
pub fn block_flaws(b: &StatBlock) -> Vec<super::Flaw> {
    use super::Flaw;
    let mut out = Vec::new();
    for (name, v) in b.attributes() {
        if !(1..=MAX_POOL).contains(&v) {
            out.push(Flaw::at(
                name,
                format!("{name} {v} is outside 1-{MAX_POOL}"),
            ));
        }
    }
    for (i, c) in b.callings.iter().enumerate() {
        if c.name.trim().is_empty() || !(1..=MAX_POOL).contains(&c.dice) {
            out.push(Flaw::item(
                "callings",
                i,
                format!(
                    "CALLING `{}` {}D is not a named pool of 1-{MAX_POOL}",
                    c.name, c.dice
                ),
            ));
        }
    }
    if b.armor > 6 {
        out.push(Flaw::at(
            "armor",
            format!("Armor {} is more than 6", b.armor),
        ));
    }
    for (i, w) in b.weapons.iter().enumerate() {
        if w.dm > 10 {
            out.push(Flaw::item(
                "weapons",
                i,
                format!("weapon `{}` DM {} is more than 10", w.name, w.dm),
            ));
        }
    }
    if !(1..=10).contains(&b.speed) {
        out.push(Flaw::at(
            "speed",
            format!("Speed {} is outside 1-10", b.speed),
        ));
    }
    for (i, s) in b.statuses.iter().enumerate() {
        if !STATUSES.contains(&s.as_str()) {
            out.push(Flaw::item(
                "statuses",
                i,
                format!("`{s}` is not a METTLE status"),
            ));
        }
    }
    out
}

#[cfg(test)]
mod block_tests {
    use super::*;

    fn viktor() -> StatBlock {
        StatBlock {
            name: "Viktor".into(),
            NATURE: 3,
            CULTURE: 2,
            POISE: 2,
            MOTIVE: 4,
            FRAME: 5,
            callings: vec![Calling {
                name: "Itinerant Gambler".into(),
                dice: 5,
            }],
            armor: 1,
            weapons: vec![Weapon {
                name: "sabre".into(),
                dm: 2,
                ranged: false,
            }],
            speed: 1,
            statuses: vec![],
        }
    }

    #[test]
    fn derived_values() {
        let v = viktor();
        // FRAME 5 is the highest, but Mettle ignores FRAME: MOTIVE 4 + 4.
        assert_eq!(v.mettle(), 8);
        assert_eq!(v.soak(), 6);
        assert!(check_block(&v).is_empty());
    }

    #[test]
    fn illegal_blocks_are_caught() {
        let mut v = viktor();
        v.POISE = 0;
        v.statuses.push("Sleepy".into());
        v.speed = 0;
        let problems = check_block(&v);
        assert_eq!(problems.len(), 3, "{problems:?}");
    }
}
