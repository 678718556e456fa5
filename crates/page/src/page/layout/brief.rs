//! A card field given in full and in brief ([`Block::Brief`]): the forms
//! of a card's blocks the card layout tries, fullest first.

use super::cards::{BODY_MAX, Block, LAST_TYPE, MIN_TYPE, STEP};

/// The blocks a card is tried with, each with the largest and the
/// smallest body size: whole (brief fields in full, then in brief), then
/// without its closing note lines, then smaller, then without its brief
/// fields; and the blocks it carries on with when none fits.
pub(super) fn tries(blocks: &[Block]) -> (Vec<(Vec<Block>, f64, f64)>, Vec<Block>) {
    let [full, brief, bare] = forms(blocks);
    let notes = match brief.as_slice() {
        [.., Block::Label(_), Block::Notes] => 2,
        [.., Block::Notes] => 1,
        _ => 0,
    };
    let kept = brief[..brief.len() - notes].to_vec();
    let mut out = vec![(full.clone(), BODY_MAX, MIN_TYPE)];
    if full != brief {
        out.push((brief.clone(), BODY_MAX, MIN_TYPE));
    }
    if notes > 0 {
        out.push((kept.clone(), BODY_MAX, MIN_TYPE));
    }
    out.push((kept, MIN_TYPE - STEP, LAST_TYPE));
    if bare != brief {
        out.push((
            bare[..bare.len() - notes].to_vec(),
            MIN_TYPE - STEP,
            LAST_TYPE,
        ));
    }
    (out, bare)
}

/// The blocks with every brief field in full, in brief, and left out.
fn forms(blocks: &[Block]) -> [Vec<Block>; 3] {
    [0, 1, 2].map(|how| blocks.iter().filter_map(|b| printed(b, how)).collect())
}

/// A block as printed (`None`: left out): a [`Block::Brief`] as its full
/// field (`how` 0), its brief one (1) or not at all (2), any other as it
/// is.
fn printed(b: &Block, how: u8) -> Option<Block> {
    match (b, how) {
        (Block::Brief(label, full, _), 0) => Some(Block::Field(label.clone(), full.clone())),
        (Block::Brief(label, _, short), 1) => Some(Block::Field(label.clone(), short.clone())),
        (Block::Brief(..), _) => None,
        (other, _) => Some(other.clone()),
    }
}
