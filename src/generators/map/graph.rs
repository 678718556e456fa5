//! The paths between stops: the Gabriel graph (planar, and it holds the
//! minimum spanning tree) thinned to a spanning tree plus some loops; hops
//! from safety and road distances over the kept paths; segment crossings.

use super::Map;
use super::Stop;
use super::placement::dist;
use crate::seed::{DieSource, Stream};

/// Edges of the Gabriel graph: no third stop inside the circle on the edge.
fn gabriel(stops: &[Stop]) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for i in 0..stops.len() {
        for j in i + 1..stops.len() {
            let d = dist(&stops[i], &stops[j]).powi(2);
            let blocked = (0..stops.len()).any(|k| {
                k != i
                    && k != j
                    && dist(&stops[i], &stops[k]).powi(2) + dist(&stops[j], &stops[k]).powi(2) <= d
            });
            if !blocked {
                edges.push((i, j));
            }
        }
    }
    edges
}

/// Edges shortest first (ties by index).
fn by_length(stops: &[Stop], edges: &mut [(usize, usize)]) {
    edges.sort_by(|a, b| {
        dist(&stops[a.0], &stops[a.1])
            .total_cmp(&dist(&stops[b.0], &stops[b.1]))
            .then(a.cmp(b))
    });
}

/// Kruskal's minimum spanning tree over the given edges (ties by index).
fn spanning_tree(stops: &[Stop], edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut sorted = edges.to_vec();
    by_length(stops, &mut sorted);
    let mut parent: Vec<usize> = (0..stops.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut tree = Vec::new();
    for (a, b) in sorted {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra] = rb;
            tree.push((a, b));
        }
    }
    tree
}

/// The paths kept, sorted: the Gabriel graph's spanning tree, each other
/// edge with chance 1/2, and the shortest dropped ones back until there are
/// two loops.
pub(super) fn thin(stops: &[Stop], es: &mut Stream) -> Vec<(usize, usize)> {
    let all = gabriel(stops);
    let tree = spanning_tree(stops, &all);
    let mut kept: Vec<(usize, usize)> = tree.clone();
    let mut dropped = Vec::new();
    for e in all.iter().filter(|e| !tree.contains(e)) {
        if es.die(2) == 1 {
            kept.push(*e);
        } else {
            dropped.push(*e);
        }
    }
    by_length(stops, &mut dropped);
    let mut dropped = dropped.into_iter();
    while kept.len() < stops.len() + 1 {
        match dropped.next() {
            Some(e) => kept.push(e),
            None => break,
        }
    }
    kept.sort();
    kept
}

/// Hops from the nearest safe stop, for every stop (breadth first).
pub(super) fn hops_from_safety(n: usize, edges: &[(usize, usize)], safe: &[usize]) -> Vec<u32> {
    let mut hops = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    for &s in safe {
        hops[s] = 0;
        queue.push_back(s);
    }
    while let Some(v) = queue.pop_front() {
        for &(a, b) in edges {
            let w = if a == v {
                b
            } else if b == v {
                a
            } else {
                continue;
            };
            if hops[w] == u32::MAX {
                hops[w] = hops[v] + 1;
                queue.push_back(w);
            }
        }
    }
    hops
}

/// Shortest road distance (regions) from `from` to every stop.
pub fn road_distances(map: &Map, from: usize) -> Vec<u32> {
    let mut best = vec![u32::MAX; map.stops.len()];
    let mut done = vec![false; map.stops.len()];
    best[from] = 0;
    for _ in 0..map.stops.len() {
        let Some(v) = (0..map.stops.len())
            .filter(|&i| !done[i] && best[i] != u32::MAX)
            .min_by_key(|&i| (best[i], i))
        else {
            break;
        };
        done[v] = true;
        for (p, w) in map.neighbours(v) {
            let d = best[v] + map.paths[p].regions;
            if d < best[w] {
                best[w] = d;
            }
        }
    }
    best
}

/// Segments ab and cd cross at a point inside both (not at shared ends).
pub(super) fn crosses(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let orient = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let (d1, d2) = (orient(a, b, c), orient(a, b, d));
    let (d3, d4) = (orient(c, d, a), orient(c, d, b));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}
