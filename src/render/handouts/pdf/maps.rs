//! The map pages: the GM's map with its key, and the players' map.

use crate::generators::map::Map;
use crate::render::layout::Flow;
use crate::render::map;

/// The map drawing, then its paths (and for the GM, the stops' hooks).
pub(super) fn map_pages(f: &mut Flow, m: &Map, players: bool) {
    f.section(if players {
        "Point-crawl map (players)"
    } else {
        "Point-crawl map"
    });
    f.drawing(&map::draw(m, players));
    f.new_page();
    let rows: Vec<Vec<String>> = m
        .paths
        .iter()
        .map(|p| {
            let mut r = vec![
                format!("{} – {}", m.stops[p.a].name, m.stops[p.b].name),
                p.regions.to_string(),
                p.days.to_string(),
            ];
            if !players {
                r.push(format!("{} ({})", p.difficulty, p.difficulty_word));
            }
            r
        })
        .collect();
    if players {
        f.table(&["path", "regions", "days"], &rows, &[0.6, 0.2, 0.2], 9.0);
        return;
    }
    f.table(
        &["path", "regions", "days", "Difficulty"],
        &rows,
        &[0.5, 0.15, 0.15, 0.2],
        9.0,
    );
    for s in &m.stops {
        f.para(
            &format!("{} ({}, {}): {}", s.name, s.kind, s.terrain, s.hook),
            8.5,
            false,
        );
    }
}
