//! A card carried on at its [`Block::Break`] (an NPC: who they are on the
//! first card, their numbers on the "(cont.)" card).

use super::{BODY_MAX, Block, Card, MIN_TYPE, Placed, STEP, split, total};
use crate::page::layout::Flow;

impl Flow<'_> {
    /// A card carried on at its [`Block::Break`]: the blocks before it on
    /// the first card, at the largest size from [`BODY_MAX`] to
    /// [`MIN_TYPE`] that fits, the rest on "(cont.)" cards (one at the
    /// largest size that fits it, else split at [`MIN_TYPE`]); `None`
    /// without a break or when the first part does not fit one card.
    pub(super) fn at_break<'c>(
        &self,
        card: &'c Card,
        room: impl Fn(bool) -> f64,
    ) -> Option<Vec<Placed<'c>>> {
        let k = card.blocks.iter().position(|b| *b == Block::Break)?;
        let (head, tail) = (&card.blocks[..k], &card.blocks[k + 1..]);
        let mut out = vec![self.fitted(card, head, false, room(false))?];
        match self.fitted(card, tail, true, room(true)) {
            Some(one) => out.push(one),
            None => {
                let rows = self.rows(tail, MIN_TYPE);
                out.extend(
                    split(rows, MIN_TYPE, |_| room(true))
                        .into_iter()
                        .map(|rows| Placed {
                            card,
                            cont: true,
                            size: MIN_TYPE,
                            rows,
                        }),
                );
            }
        }
        Some(out)
    }

    /// `blocks` as one card body at the largest size from [`BODY_MAX`] to
    /// [`MIN_TYPE`] that fits in `room`.
    fn fitted<'c>(
        &self,
        card: &'c Card,
        blocks: &[Block],
        cont: bool,
        room: f64,
    ) -> Option<Placed<'c>> {
        let mut size = BODY_MAX;
        while size >= MIN_TYPE - 1e-9 {
            let rows = self.rows(blocks, size);
            if total(&rows, size) <= room + 1e-6 {
                return Some(Placed {
                    card,
                    cont,
                    size,
                    rows,
                });
            }
            size -= STEP;
        }
        None
    }
}
