//! A card field given in full and in brief ([`Block::Brief`]): the forms
//! of a card's blocks the card layout tries, fullest first.

/// A piece of a card's content.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A small bold section label (`WEAPONS`), kept with what follows.
    Label(String),
    /// Body text; `'\n'` breaks a line.
    Text(String),
    /// A run-in label and its text (`TRIGGER a tripwire across …`).
    Field(String, String),
    /// A field whose text is given in full and in brief: in full when the
    /// card fits at `MIN_TYPE` or larger with it, else in brief; left
    /// out when even the brief would carry the card onto a second one.
    Brief(String, String, String),
    /// A small table: its first row is the header (bold); columns as wide
    /// as their widest cell.
    Table(Vec<Vec<String>>),
    /// Label and value pairs (`NATURE`, `3`) in two or three columns.
    Grid(Vec<(String, String)>),
    /// A row of tick boxes, one per point (Mettle, health).
    Track(usize),
    /// Ruled lines to write on, filling the space left (at least one).
    Notes,
    /// Where a card too long for one carries on: nothing on a card that
    /// fits whole; else the blocks before it make the front of a folded
    /// pair and the rest its back, each at the largest size that fits it,
    /// when both fit (an NPC: who they are, then their numbers).
    Break,
}

/// A form of a card's blocks with the largest and the smallest body size
/// it is tried at.
pub(super) type Try = (Vec<Block>, f64, f64);

/// The blocks a card is tried with, each with the largest and the
/// smallest body size: whole (brief fields in full, then in brief), then
/// without its closing note lines, then smaller, then without its brief
/// fields; and the blocks it carries on with when none fits.
pub(super) fn tries(
    blocks: &[Block],
    [largest, least, step, last]: [f64; 4],
) -> (Vec<Try>, Vec<Block>) {
    let [full, brief, bare] = forms(blocks);
    let notes = match brief.as_slice() {
        [.., Block::Label(_), Block::Notes] => 2,
        [.., Block::Notes] => 1,
        _ => 0,
    };
    let kept = brief[..brief.len() - notes].to_vec();
    let mut out = vec![(full.clone(), largest, least)];
    if full != brief {
        out.push((brief.clone(), largest, least));
    }
    if notes > 0 {
        out.push((kept.clone(), largest, least));
    }
    out.push((kept, least - step, last));
    if bare != brief {
        out.push((bare[..bare.len() - notes].to_vec(), least - step, last));
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
