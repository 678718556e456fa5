//! Downtime vouchers: one per named holder, each with a serial drawn from
//! the seed so that no two vouchers of a pack share one and a copied
//! voucher shows up. A rerolled voucher (`prep --reroll voucher/2`) keeps
//! its holder and draws a new serial from its own streams; a serial that
//! repeats one of a lower voucher is drawn again ([`super::Distinct`]).

use serde::Serialize;

use super::{Address, GenError, Generator};
use crate::content::Library;
use crate::seed::Seed;

/// A Downtime Voucher: a card a player hands in for one helpful thing
/// their character did off stage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Voucher {
    /// The PC who holds it.
    pub holder: String,
    /// A serial drawn from the seed: no two vouchers of a pack share one,
    /// and a copied voucher shows up.
    pub serial: String,
    /// What it says.
    pub text: String,
}

/// What every voucher says.
pub const VOUCHER_TEXT: &str = "While the others were busy with a long task, this character was up to something useful. \
Hand this in during play to reveal one helpful thing they did back then — a purchase, a contact, \
a preparation, an upgrade — if the Guide agrees it fits. One use.";

/// The holders, one voucher each, in order.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The PCs' names.
    pub holders: Vec<String>,
}

impl Generator for Request {
    const KIND: &'static str = "voucher";
    type Item = Voucher;

    fn make(&self, _: &Library, seed: &Seed, at: &Address) -> Result<Voucher, GenError> {
        let holder = self
            .holders
            .get(at.index())
            .ok_or_else(|| GenError::Request(format!("there is no holder for voucher {at}")))?;
        // The first draw at a plain address is the pack's serial series, as
        // it always was; a rerolled or redrawn voucher draws its own.
        let serial = if at.is_plain() {
            serial(seed, at.index())
        } else {
            let mut s = at.stream(seed, "serial");
            format!(
                "{}-{:04X}-{:04X}",
                prefix(seed),
                s.below(0x10000),
                s.below(0x10000)
            )
        };
        Ok(Voucher {
            holder: holder.clone(),
            serial,
            text: VOUCHER_TEXT.into(),
        })
    }
}

impl super::Distinct for Voucher {
    /// No two vouchers of a pack share a serial.
    fn keys(&self) -> Vec<String> {
        vec![format!("serial: {}", self.serial)]
    }
}

/// The serials' prefix: the seed's first two letters or digits, in
/// capitals (`TW` if it has none). A campaign's Downtime Vouchers use
/// the campaign seed's (`campaign::ledger`).
pub fn prefix(seed: &Seed) -> String {
    let prefix: String = seed
        .as_str()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(2)
        .collect::<String>()
        .to_uppercase();
    if prefix.is_empty() {
        "TW".into()
    } else {
        prefix
    }
}

/// The serial of voucher `index`: serials are drawn in turn from one
/// stream (`gen/pack/vouchers/serials`), each redrawn until it differs
/// from every earlier one, so voucher `i` depends only on the seed and the
/// vouchers before it.
fn serial(seed: &Seed, index: usize) -> String {
    let mut s = seed.stream("gen/pack/vouchers/serials");
    let prefix = prefix(seed);
    let mut serials: Vec<String> = Vec::new();
    while serials.len() <= index {
        let candidate = format!("{prefix}-{:04X}-{:04X}", s.below(0x10000), s.below(0x10000));
        if !serials.contains(&candidate) {
            serials.push(candidate);
        }
    }
    serials.swap_remove(index)
}
