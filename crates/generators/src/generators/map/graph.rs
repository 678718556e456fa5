//! The paths between stops: the Gabriel graph (planar, and it holds the
//! minimum spanning tree) thinned to a spanning tree plus some loops; hops
//! from safety and road distances over the kept paths; segment crossings.

use super::Map;
use super::Stop;
use super::placement::dist;
use crate::seed::{DieSource, Stream};

/// Edges of the Gabriel graph: no third stop inside the circle on the edge.
/// (Squared distances are worked out once, as `dist(..).powi(2)` so every
/// comparison is the same arithmetic whatever the map's size.)
fn gabriel(stops: &[Stop]) -> Vec<(usize, usize)> {
    let n = stops.len();
    let mut sq = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            sq[i * n + j] = dist(&stops[i], &stops[j]).powi(2);
        }
    }
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let d = sq[i * n + j];
            let (row_i, row_j) = (&sq[i * n..(i + 1) * n], &sq[j * n..(j + 1) * n]);
            let blocked = (0..n).any(|k| k != i && k != j && row_i[k] + row_j[k] <= d);
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
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        next[a].push(b);
        next[b].push(a);
    }
    let mut queue = std::collections::VecDeque::new();
    for &s in safe {
        hops[s] = 0;
        queue.push_back(s);
    }
    while let Some(v) = queue.pop_front() {
        for &w in &next[v] {
            if hops[w] == u32::MAX {
                hops[w] = hops[v] + 1;
                queue.push_back(w);
            }
        }
    }
    hops
}

/// Shortest road distance (regions) from `from` to every stop: Dijkstra
/// with a binary heap over the paths' adjacency lists, O(E log V). Path
/// ends past the stops are skipped (a saved map's checks name them).
pub fn road_distances(map: &Map, from: usize) -> Vec<u32> {
    use std::cmp::Reverse;
    let n = map.stops.len();
    let mut next: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
    for p in map.paths.iter().filter(|p| p.a < n && p.b < n) {
        next[p.a].push((p.b, p.regions));
        next[p.b].push((p.a, p.regions));
    }
    let mut best = vec![u32::MAX; n];
    if from >= n {
        return best;
    }
    best[from] = 0;
    let mut heap = std::collections::BinaryHeap::from([Reverse((0u32, from))]);
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > best[v] {
            continue;
        }
        for &(w, len) in &next[v] {
            let through = d.saturating_add(len);
            if through < best[w] {
                best[w] = through;
                heap.push(Reverse((through, w)));
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
