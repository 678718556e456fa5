//! Box arithmetic the map drawings share: the part of a segment inside an
//! axis-aligned box (the atlas's page areas in regions, the labels' boxes
//! in points).

/// The part (`t0`, `t1`, each from 0 at `a` to 1 at `b`) of the segment
/// `a`–`b` inside the box `[left, top, right, bottom]`, if any
/// (Liang–Barsky).
pub(crate) fn clip(
    [left, top, right, bottom]: [f64; 4],
    a: (f64, f64),
    b: (f64, f64),
) -> Option<(f64, f64)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [
        (-dx, a.0 - left),
        (dx, right - a.0),
        (-dy, a.1 - top),
        (dy, bottom - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t1 > t0).then_some((t0, t1))
}
