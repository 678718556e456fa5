//! The tool's stable hashes, one for each purpose. Every value they give
//! reaches what the tool writes (a stream's draws, a folder's name, a share
//! line, a pack's bytes), so each is fixed: the same on every platform, in
//! every Rust and crate version. Std's `Hash` and `DefaultHasher` are never
//! used for them (their output may change between releases).
//!
//! - **Seed derivation and ids:** [`Stable`], SipHash-2-4 with zero keys as
//!   `rand_seeder` implements it. A seed and a stream path become a
//!   stream's key ([`crate::seed`]); a text becomes a short id or
//!   fingerprint: a pack folder's slug tag, a Foundry document id, the
//!   tables' hash in every share line, a bundle's short hash ([`short`]).
//!   A hash here needs to spread well and never change, not to resist an
//!   attacker: a seed is chosen by the GM, and nothing is kept secret.
//! - **Content hash:** SHA-256 (`sha2`), in the top crate's
//!   `output::manifest`: a pack's manifest names every file by the hash of
//!   its bytes, and only a file that still hashes to it is replaced or
//!   removed. Here a collision would cost a GM's edit, so the hash is a
//!   cryptographic one.
//! - **Fingerprints kept for the bytes already written:** FNV-1a, 64 bits,
//!   [`fnv1a_64`], for the campaign state's digest that every campaign
//!   pack's `pack.json` carries (`start_digest`); FNV-1a, 128 bits, in the
//!   page crate (a PDF's `/ID` and its subset fonts' name tags: the page
//!   engine depends on no crate of the tool). Both would be [`Stable`] if
//!   written today; moving them changes the bytes of existing packs. The
//!   content crate's build script has its own FNV-1a 64 (a build script
//!   cannot use this crate): the stamp of the table files the compact form
//!   was made from, which never reaches output.

use rand_seeder::{SipHasher, SipRng};
use std::hash::Hasher;

/// SipHash-2-4 with zero keys: seed derivation, ids and fingerprints.
/// Write the parts, then [`Stable::finish`] (or [`Stable::into_rng`] for
/// a stream's key). A message made of several texts writes each one's
/// length first (`write_u64(len)`), so that `("ab", "c")` and `("a",
/// "bc")` differ.
#[derive(Debug, Clone, Default)]
pub struct Stable(SipHasher);

impl Stable {
    /// An empty hash.
    pub fn new() -> Stable {
        Stable(SipHasher::new())
    }

    /// The hash so far, stretched into a stream of bytes (a stream's key).
    pub fn into_rng(self) -> SipRng {
        self.0.into_rng()
    }
}

impl Hasher for Stable {
    fn finish(&self) -> u64 {
        self.0.finish()
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }
}

/// The [`Stable`] hash of `bytes` alone.
pub fn short(bytes: &[u8]) -> u64 {
    let mut h = Stable::new();
    h.write(bytes);
    h.finish()
}

/// FNV-1a, 64 bits, of `bytes`: the campaign state's digest (see the
/// module's doc: kept because packs already carry it).
pub fn fnv1a_64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values are part of every output: pinned, so that a change of
    /// crate or algorithm shows here first.
    #[test]
    fn the_hashes_give_the_values_packs_carry() {
        // The tag of the README's pack folder, `out/goblin-night-de4fb90cf7162e33/`.
        assert_eq!(short(b"goblin-night"), 0xde4f_b90c_f716_2e33);
        assert_ne!(short(b"goblin-night"), short(b"goblin-nighT"));
        // FNV-1a's published test vectors.
        assert_eq!(fnv1a_64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a_64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a_64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn stable_is_the_siphasher_it_wraps() {
        let mut a = Stable::new();
        let mut b = SipHasher::new();
        for part in [&b"seed"[..], b"encounter/1/foes"] {
            a.write_u64(part.len() as u64);
            a.write(part);
            b.write_u64(part.len() as u64);
            b.write(part);
        }
        assert_eq!(a.finish(), b.finish());
    }
}
