//! How a big region is cut into atlas pages: the grid [`SQUARE`]s and
//! their names ("C4"), the detail tiles (a block of whole squares each,
//! shared out evenly, with [`OVERLAP`] round its core) and the scales of
//! the tiles and the overview.

use super::{BAND, LEAST_SCALE, OVERLAP, PAD, SQUARE};
use crate::generators::map::Map;
use crate::handouts::drawings::chart::geom;

/// A rectangle of the region, in regions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Area {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Area {
    pub(crate) fn holds(&self, x: f64, y: f64) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }

    /// The part (`t0`, `t1`) of the segment `a`–`b` inside the area, if
    /// any.
    pub(crate) fn clip(&self, a: (f64, f64), b: (f64, f64)) -> Option<(f64, f64)> {
        geom::clip([self.x0, self.y0, self.x1, self.y1], a, b)
    }
}

/// How the region is cut into pages.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    /// Grid squares along each side of the region.
    pub squares: usize,
    /// Squares in the largest tile's core (the first's): across, down.
    pub per_tile: (usize, usize),
    /// Tiles: across, down.
    pub tiles: (usize, usize),
    /// Scale of the tiles, points a region.
    pub scale: f64,
    /// Scale of the overview, points a region.
    pub overview_scale: f64,
}

impl Plan {
    /// The plan for a map whose pages have `area` (width, height in
    /// points) for a drawing.
    pub(crate) fn new(map: &Map, (w, h): (f64, f64)) -> Plan {
        let squares = ((map.size / SQUARE).ceil() as usize).max(1);
        let fit = |room: f64| {
            let most = ((room - BAND - 2.0 * PAD) / LEAST_SCALE - 2.0 * OVERLAP) / SQUARE;
            (most.floor() as usize).max(1)
        };
        let (most_x, most_y) = (fit(w), fit(h));
        let (nx, ny) = (squares.div_ceil(most_x), squares.div_ceil(most_y));
        let per_tile = (squares.div_ceil(nx), squares.div_ceil(ny));
        let span = |n: usize| n as f64 * SQUARE + 2.0 * OVERLAP;
        let scale = ((w - BAND - 2.0 * PAD) / span(per_tile.0))
            .min((h - BAND - 2.0 * PAD) / span(per_tile.1));
        let side = squares as f64 * SQUARE;
        Plan {
            squares,
            per_tile,
            tiles: (nx, ny),
            scale,
            overview_scale: ((w.min(h) - BAND - 2.0 * PAD) / side).max(1.0),
        }
    }

    /// How many detail tiles.
    pub(crate) fn count(&self) -> usize {
        self.tiles.0 * self.tiles.1
    }

    /// The first square of tile column (or row) `c` of `n`: the squares
    /// shared out as evenly as whole squares go, the larger tiles first.
    pub(super) fn first_square(&self, c: usize, n: usize) -> usize {
        let (each, more) = (self.squares / n, self.squares % n);
        c * each + c.min(more)
    }

    /// Tile `k`'s core (tiles run west to east, then north to south).
    pub(crate) fn core(&self, k: usize) -> Area {
        let (c, r) = (k % self.tiles.0, k / self.tiles.0);
        let side = self.squares as f64 * SQUARE;
        let at = |i: usize, n: usize| (self.first_square(i, n) as f64 * SQUARE).min(side);
        Area {
            x0: at(c, self.tiles.0),
            y0: at(r, self.tiles.1),
            x1: at(c + 1, self.tiles.0),
            y1: at(r + 1, self.tiles.1),
        }
    }

    /// What tile `k` shows: its core with the overlap round it, within
    /// the region.
    pub(crate) fn shown(&self, k: usize) -> Area {
        let core = self.core(k);
        let side = self.squares as f64 * SQUARE;
        Area {
            x0: (core.x0 - OVERLAP).max(0.0),
            y0: (core.y0 - OVERLAP).max(0.0),
            x1: (core.x1 + OVERLAP).min(side),
            y1: (core.y1 + OVERLAP).min(side),
        }
    }

    /// The tile whose core holds a point.
    pub(crate) fn tile_of(&self, x: f64, y: f64) -> usize {
        let col = |v: f64, n: usize| {
            let square = (v / SQUARE).floor().max(0.0) as usize;
            (1..n)
                .filter(|&c| self.first_square(c, n) <= square)
                .count()
        };
        col(y, self.tiles.1) * self.tiles.0 + col(x, self.tiles.0)
    }

    /// The grid square of a point: "C4".
    pub(crate) fn square(&self, x: f64, y: f64) -> String {
        let at = |v: f64| ((v / SQUARE).floor().max(0.0) as usize).min(self.squares - 1);
        format!("{}{}", column(at(x)), at(y) + 1)
    }

    /// The squares of tile `k`'s core, as "A1–D6".
    pub(crate) fn squares_of(&self, k: usize) -> String {
        let core = self.core(k);
        let e = 1e-9;
        format!(
            "{}–{}",
            self.square(core.x0 + e, core.y0 + e),
            self.square(core.x1 - e, core.y1 - e)
        )
    }
}

/// A grid column's letter: A … Z, then AA, AB …
pub(super) fn column(i: usize) -> String {
    let letter = |n: usize| char::from(b'A' + (n % 26) as u8);
    if i < 26 {
        letter(i).to_string()
    } else {
        format!("{}{}", letter(i / 26 - 1), letter(i))
    }
}
