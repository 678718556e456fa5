//! A card carried on at its [`Block::Break`] (an NPC: who they are on the
//! front, how they play and their numbers on the back of a folded pair).

use super::{BODY_MAX, Block, Card, MIN_TYPE, Placed, STEP, split, total};
use crate::page::layout::Flow;

impl Flow<'_> {
    /// A card carried on at its [`Block::Break`]: the blocks before it on
    /// the first card, at the largest size from [`BODY_MAX`] to
    /// [`MIN_TYPE`] that fits, the rest on a second. When each part fits
    /// one card the two are a folded pair (the second is the back, under
    /// the same title); otherwise a part too long for one card is split at
    /// [`MIN_TYPE`] onto "(cont.)" cards, so nothing goes under it. `None`
    /// without a break.
    pub(super) fn at_break<'c>(
        &self,
        card: &'c Card,
        room: impl Fn(bool) -> f64,
    ) -> Option<Vec<Placed<'c>>> {
        let k = card.blocks.iter().position(|b| *b == Block::Break)?;
        let (head, tail) = (&card.blocks[..k], &card.blocks[k + 1..]);
        if let (Some(front), Some(mut back)) = (
            self.fitted(card, head, false, room(false)),
            self.fitted(card, tail, false, room(false)),
        ) {
            back.back = true;
            return Some(vec![front, back]);
        }
        let mut out = Vec::new();
        for (blocks, first) in [(head, true), (tail, false)] {
            if let Some(one) = self.fitted(card, blocks, !first, room(!first)) {
                out.push(one);
                continue;
            }
            let rows = self.rows(blocks, MIN_TYPE);
            let parts = split(rows, MIN_TYPE, |cont| room(cont || !first));
            out.extend(parts.into_iter().enumerate().map(|(i, rows)| Placed {
                card,
                cont: i > 0 || !first,
                back: false,
                size: MIN_TYPE,
                rows,
            }));
        }
        Some(out)
    }

    /// `blocks` as one card body at the largest size from [`BODY_MAX`] to
    /// [`MIN_TYPE`] that fits in `room`: whole, or else without its
    /// closing note lines.
    fn fitted<'c>(
        &self,
        card: &'c Card,
        blocks: &[Block],
        cont: bool,
        room: f64,
    ) -> Option<Placed<'c>> {
        let notes = match blocks {
            [.., Block::Label(_), Block::Notes] => 2,
            [.., Block::Notes] => 1,
            _ => 0,
        };
        for blocks in [blocks, &blocks[..blocks.len() - notes]] {
            let mut size = BODY_MAX;
            while size >= MIN_TYPE - 1e-9 {
                let rows = self.rows(blocks, size);
                if total(&rows, size) <= room + 1e-6 {
                    return Some(Placed {
                        card,
                        cont,
                        back: false,
                        size,
                        rows,
                    });
                }
                size -= STEP;
            }
        }
        None
    }
}
