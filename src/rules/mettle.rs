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
    pub difficulty: u32,
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
pub fn edge_word(edge: u32) -> &'static str {
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
    pub score: u32,
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

/// Whether a face counts as Edge.
pub fn is_edge(face: u32) -> bool {
    face >= 4
}

/// Teamwork: every pool lower than the highest gets +1D.
pub fn teamwork(pools: &[u32]) -> Vec<u32> {
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
