//! Seeds and random streams: the determinism contract.
//!
//! A seed is any short UTF-8 text a GM can share. [`Seed::stream`] turns the
//! seed plus a stream path (`"encounter/3/foes"`) into an independent
//! [`Stream`]: the pair is hashed with [`crate::hash::Stable`], a portable
//! SipHash-2-4 (length-prefixed bytes, never std's `Hash`), the hash is stretched into a
//! 32-byte key, and that key seeds rand's `ChaCha8Rng`. Because every item
//! draws from its own path, adding or removing an item never changes another.
//!
//! All sampling that reaches output is implemented here, on top of the raw
//! `next_u32`/`next_u64` words, so that a rand upgrade can never change it:
//! [`Stream::die`] (unbiased, Lemire's multiply-and-reject), [`Stream::below`],
//! [`Stream::pick_weighted`] and [`Stream::shuffle`] (Fisher-Yates).
//!
//! The only non-deterministic code in the crate is [`Seed::fresh`], which
//! picks a seed when the user gave none; callers print it so the run can be
//! reproduced.

use std::fmt;

use rand::rngs::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::hash::Hasher;

use crate::hash::Stable;

/// Longest seed text accepted, in characters.
pub const MAX_SEED_CHARS: usize = 200;

/// Domain tag mixed into every stream so that our streams never coincide
/// with another program's use of the same hash. Changing it changes every
/// output: it is part of the compatibility promise.
const DOMAIN: &[u8] = b"tablewright/stream/v1";

/// A validated seed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    text: String,
}

/// Why a seed text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeedError {
    /// The seed text is empty.
    Empty,
    /// The seed text is longer than [`MAX_SEED_CHARS`].
    TooLong {
        /// Its length, in characters.
        chars: usize,
    },
    /// The seed text holds a control character.
    Control {
        /// Where, as a 0-based character index.
        index: usize,
    },
}

impl fmt::Display for SeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeedError::Empty => write!(
                f,
                "the seed is empty; give a word or phrase, e.g. --seed goblin-night"
            ),
            SeedError::TooLong { chars } => write!(
                f,
                "the seed is {chars} characters long; keep it to {MAX_SEED_CHARS} or fewer so it fits on a handout"
            ),
            SeedError::Control { index } => write!(
                f,
                "the seed has a control character at position {}; use printable text only",
                index + 1
            ),
        }
    }
}

impl std::error::Error for SeedError {}

impl Seed {
    /// Accept a seed text: 1 to [`MAX_SEED_CHARS`] printable characters.
    pub fn new(text: &str) -> Result<Seed, SeedError> {
        if text.is_empty() {
            return Err(SeedError::Empty);
        }
        if let Some(index) = text.chars().position(char::is_control) {
            return Err(SeedError::Control { index });
        }
        let chars = text.chars().count();
        if chars > MAX_SEED_CHARS {
            return Err(SeedError::TooLong { chars });
        }
        Ok(Seed {
            text: text.to_owned(),
        })
    }

    /// Pick a new, easy-to-share seed such as `amber-lantern-4821`.
    ///
    /// This is the one place that uses entropy (std's per-process random
    /// hash keys): the chosen seed is printed by the caller, so the run it
    /// starts is still reproducible.
    pub fn fresh() -> Seed {
        use std::hash::BuildHasher;
        let entropy = std::collections::hash_map::RandomState::new().hash_one(std::process::id());
        let mut stream = Stream::from_key_material(&entropy.to_le_bytes(), b"fresh");
        const ADJECTIVES: [&str; 16] = [
            "amber", "ashen", "brass", "crimson", "dusky", "gilded", "hollow", "iron", "mossy",
            "pale", "quiet", "rusty", "salt", "silver", "thorny", "wild",
        ];
        const NOUNS: [&str; 16] = [
            "lantern", "goblin", "barrow", "crow", "ford", "hound", "kettle", "marsh", "oak",
            "raven", "shrine", "spire", "tollgate", "wyrm", "well", "wagon",
        ];
        let adjective = ADJECTIVES[stream.below(16) as usize];
        let noun = NOUNS[stream.below(16) as usize];
        let number = 1000 + stream.below(9000);
        Seed {
            text: format!("{adjective}-{noun}-{number}"),
        }
    }

    /// The seed `<this seed>/<path>` (a campaign's seed for one session,
    /// `<campaign seed>/session/3`, or for one roll of a record). Derived,
    /// never typed, so not held to [`MAX_SEED_CHARS`].
    pub fn join(&self, path: &str) -> Seed {
        Seed {
            text: format!("{}/{path}", self.text),
        }
    }

    /// The seed text as given (or as derived by [`Seed::join`]).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The independent stream for `path` under this seed. The empty path is
    /// the root stream.
    pub fn stream(&self, path: &str) -> Stream {
        Stream::from_key_material(self.text.as_bytes(), path.as_bytes())
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Anything that can throw a die. [`Stream`] is the real one; tests use
/// scripted sources to replay the rules' worked examples face by face.
pub trait DieSource {
    /// One die with `sides` faces (≥ 1): a number in `1..=sides`.
    fn die(&mut self, sides: u32) -> u32;
}

impl DieSource for Stream {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        self.below(sides) + 1
    }
}

/// A deterministic source of dice rolls, picks and shuffles.
#[derive(Debug)]
pub struct Stream {
    rng: ChaCha8Rng,
}

impl Stream {
    fn from_key_material(seed: &[u8], path: &[u8]) -> Stream {
        let mut hasher = Stable::new();
        for part in [DOMAIN, seed, path] {
            hasher.write_u64(part.len() as u64);
            hasher.write(part);
        }
        let mut key = [0u8; 32];
        hasher.into_rng().fill_bytes(&mut key);
        Stream {
            rng: ChaCha8Rng::from_seed(key),
        }
    }

    /// A raw 32-bit word.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// A raw 64-bit word.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniform integer in `0..n` (`n` ≥ 1), without bias: Lemire's
    /// multiply-shift with rejection of the short zone.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }

    /// A uniform integer in `0..n` for 64-bit ranges, same method on 128-bit
    /// products.
    pub fn below_u64(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        let mut low = m as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
                low = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// Index of an entry chosen with chance proportional to its weight.
    /// Returns `None` when the weights are empty or all zero.
    pub fn pick_weighted(&mut self, weights: &[u64]) -> Option<usize> {
        let total = weights
            .iter()
            .try_fold(0u64, |sum, &w| sum.checked_add(w))
            .expect("total weight overflows u64");
        if total == 0 {
            return None;
        }
        let mut target = self.below_u64(total);
        for (index, &weight) in weights.iter().enumerate() {
            if target < weight {
                return Some(index);
            }
            target -= weight;
        }
        unreachable!("target is below the total weight")
    }

    /// Shuffle in place (Fisher-Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below_u64(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(seed: &str, sides: u32, count: usize) -> Vec<u32> {
        let mut stream = Seed::new(seed).unwrap().stream("");
        (0..count).map(|_| stream.die(sides)).collect()
    }

    // Reference vectors: these results are a promise to every group that
    // shared a seed. They must never change.
    #[test]
    fn goblin_night_reference_d6() {
        assert_eq!(first("goblin-night", 6, 20), GOBLIN_D6);
    }

    #[test]
    fn goblin_night_reference_d20() {
        assert_eq!(first("goblin-night", 20, 20), GOBLIN_D20);
    }

    #[test]
    fn goblin_night_reference_d100() {
        assert_eq!(first("goblin-night", 100, 20), GOBLIN_D100);
    }

    const GOBLIN_D6: [u32; 20] = [5, 1, 6, 3, 2, 6, 5, 3, 4, 6, 5, 2, 3, 3, 4, 6, 3, 5, 2, 2];
    const GOBLIN_D20: [u32; 20] = [
        15, 1, 18, 9, 5, 19, 16, 8, 12, 17, 14, 4, 7, 10, 12, 18, 9, 15, 4, 5,
    ];
    const GOBLIN_D100: [u32; 20] = [
        72, 3, 90, 45, 23, 91, 80, 39, 57, 85, 68, 19, 34, 46, 60, 89, 45, 75, 18, 23,
    ];

    #[test]
    fn streams_are_independent_of_each_other() {
        let seed = Seed::new("goblin-night").unwrap();
        let a: Vec<u32> = (0..8)
            .scan(seed.stream("encounter/1"), |s, _| Some(s.next_u32()))
            .collect();
        let b: Vec<u32> = (0..8)
            .scan(seed.stream("encounter/2"), |s, _| Some(s.next_u32()))
            .collect();
        let a_again: Vec<u32> = (0..8)
            .scan(seed.stream("encounter/1"), |s, _| Some(s.next_u32()))
            .collect();
        assert_ne!(a, b);
        assert_eq!(a, a_again);
    }

    #[test]
    fn length_prefix_keeps_seed_and_path_apart() {
        // "ab" + "c" must not collide with "a" + "bc".
        let mut x = Seed::new("ab").unwrap().stream("c");
        let mut y = Seed::new("a").unwrap().stream("bc");
        assert_ne!(x.next_u64(), y.next_u64());
    }

    #[test]
    fn seed_validation() {
        assert_eq!(Seed::new(""), Err(SeedError::Empty));
        assert_eq!(Seed::new("a\u{7}b"), Err(SeedError::Control { index: 1 }));
        assert_eq!(
            Seed::new(&"x".repeat(MAX_SEED_CHARS + 1)),
            Err(SeedError::TooLong {
                chars: MAX_SEED_CHARS + 1
            })
        );
        assert!(Seed::new("ʂhilling night ✦").is_ok());
        let fresh = Seed::fresh();
        assert!(Seed::new(fresh.as_str()).is_ok());
        assert_eq!(fresh.as_str().split('-').count(), 3);
    }

    #[test]
    fn die_covers_every_face_and_nothing_else() {
        let mut stream = Seed::new("faces").unwrap().stream("");
        for sides in [1u32, 2, 3, 6, 7, 20, 100, 1_000_000] {
            for _ in 0..2000 {
                let face = stream.die(sides);
                assert!((1..=sides).contains(&face), "d{sides} gave {face}");
            }
        }
        let mut seen = [false; 6];
        for _ in 0..200 {
            seen[stream.die(6) as usize - 1] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn weighted_pick_respects_zero_weights_and_proportions() {
        let mut stream = Seed::new("weights").unwrap().stream("");
        assert_eq!(stream.pick_weighted(&[]), None);
        assert_eq!(stream.pick_weighted(&[0, 0]), None);
        let mut counts = [0u32; 3];
        let n = 60_000;
        for _ in 0..n {
            counts[stream.pick_weighted(&[1, 0, 2]).unwrap()] += 1;
        }
        assert_eq!(counts[1], 0);
        // Binomial p = 1/3: sd = sqrt(n p q) ≈ 115; allow 5 sd.
        let expected = f64::from(n) / 3.0;
        let sd = (f64::from(n) * (1.0 / 3.0) * (2.0 / 3.0)).sqrt();
        assert!(
            (f64::from(counts[0]) - expected).abs() < 5.0 * sd,
            "{counts:?}"
        );
    }

    #[test]
    fn shuffle_is_a_permutation_and_uniform_on_three() {
        let mut stream = Seed::new("shuffle").unwrap().stream("");
        let mut deck: Vec<u32> = (0..54).collect();
        stream.shuffle(&mut deck);
        let mut sorted = deck.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..54).collect::<Vec<_>>());
        assert_ne!(deck, sorted);
        // All 6 orders of three items, each ~1/6.
        let n = 60_000u32;
        let mut counts = std::collections::BTreeMap::new();
        for _ in 0..n {
            let mut three = [0u8, 1, 2];
            stream.shuffle(&mut three);
            *counts.entry(three).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 6);
        let p = 1.0 / 6.0;
        let sd = (f64::from(n) * p * (1.0 - p)).sqrt();
        for (&order, &c) in &counts {
            assert!(
                (f64::from(c) - f64::from(n) * p).abs() < 5.0 * sd,
                "{order:?}: {c}"
            );
        }
    }
}
