//! What each stop is: a terrain from the request, a point of interest from
//! `gen.poi` that fits it (its kind and hook), and a name no other stop has.
//!
//! No two stops of one map share a point of interest, so no description
//! repeats: each stop draws among the rows no earlier stop has taken, and
//! when its terrain has none left it draws its terrain again among those
//! that still have one. A map asking for more stops than its terrains have
//! points of interest is refused before anything is drawn.

use super::{GenError, Stop};
use crate::content::{Library, Region, Table};
use crate::seed::{DieSource, Stream};

/// The `gen.poi` rows that fit a region: those tagged with its `places`
/// tag (its name unless it says otherwise); for a region with none of its
/// own (`validate` warns of it), the untagged places — the rows tagged
/// with no region's places (`all`: every region's tag) — or every row when
/// there are none of those either.
fn fitting(poi: &Table, region: &Region, all: &[String]) -> Vec<usize> {
    let rows = |keep: &dyn Fn(&[String]) -> bool| -> Vec<usize> {
        (0..poi.rows.len())
            .filter(|&i| keep(&poi.rows[i].entry.tags))
            .collect()
    };
    let tagged = rows(&|tags| tags.contains(&region.places));
    if !tagged.is_empty() {
        return tagged;
    }
    let untagged = rows(&|tags| !tags.iter().any(|t| all.contains(t)));
    if untagged.is_empty() {
        (0..poi.rows.len()).collect()
    } else {
        untagged
    }
}

/// Every region's `places` tag.
fn place_tags(library: &Library) -> Vec<String> {
    library.regions().map(|r| r.places.clone()).collect()
}

/// How many different points of interest the terrains offer together.
fn offered(poi: &Table, terrains: &[Region], all: &[String]) -> usize {
    let mut rows: Vec<usize> = terrains.iter().flat_map(|t| fitting(poi, t, all)).collect();
    rows.sort_unstable();
    rows.dedup();
    rows.len()
}

/// Refuses a map of `stops` stops when its terrains have fewer points of
/// interest, so that no description need repeat.
pub(super) fn check_room(
    library: &Library,
    terrains: &[Region],
    stops: usize,
) -> Result<(), GenError> {
    let poi = library.table("gen.poi")?;
    let have = offered(poi, terrains, &place_tags(library));
    if stops > have {
        return Err(GenError::Request(format!(
            "a map of {stops} stops needs {stops} different points of interest, but `gen.poi` \
             has only {have} for {}; ask for at most {have} stops or more terrains, or add \
             rows to `gen.poi` with --content",
            names(terrains)
        )));
    }
    Ok(())
}

/// Stops at the points, each with its own point of interest.
pub(super) fn name_stops(
    library: &Library,
    terrains: &[Region],
    points: Vec<(f64, f64)>,
    ns: &mut Stream,
) -> Result<Vec<Stop>, GenError> {
    let poi = library.table("gen.poi")?;
    let mut taken = vec![false; poi.rows.len()];
    let all = place_tags(library);
    let mut names: Vec<String> = Vec::new();
    let mut stops = Vec::with_capacity(points.len());
    for (id, (x, y)) in points.into_iter().enumerate() {
        let (terrain, chosen) = draw_place(poi, terrains, &all, &taken, ns)?;
        taken[chosen] = true;
        let row = &poi.rows[chosen];
        let hook = library.resolve("gen.poi", chosen, ns)?.text;
        let kind = row
            .entry
            .tags
            .first()
            .cloned()
            .unwrap_or_else(|| "camp".into());
        let name = unique_name(library, &row.entry.name, id, &names, ns)?;
        names.push(name.clone());
        stops.push(Stop {
            id,
            name,
            kind,
            terrain,
            hook,
            x,
            y,
        });
    }
    Ok(stops)
}

/// A terrain, then a row not yet taken that fits it (weighted). When the
/// terrain drawn has no row left, the terrain is drawn again among those
/// that have.
fn draw_place(
    poi: &Table,
    terrains: &[Region],
    all: &[String],
    taken: &[bool],
    ns: &mut Stream,
) -> Result<(String, usize), GenError> {
    let free = |t: &Region| -> Vec<usize> {
        fitting(poi, t, all)
            .into_iter()
            .filter(|&i| !taken[i])
            .collect()
    };
    let mut terrain = &terrains[ns.die(terrains.len() as u32) as usize - 1];
    let mut rows = free(terrain);
    if rows.is_empty() {
        let open: Vec<&Region> = terrains.iter().filter(|t| !free(t).is_empty()).collect();
        if open.is_empty() {
            return Err(GenError::Request(format!(
                "`gen.poi` ran out of points of interest for {}; ask for fewer stops",
                names(terrains)
            )));
        }
        terrain = open[ns.die(open.len() as u32) as usize - 1];
        rows = free(terrain);
    }
    let weights: Vec<u64> = rows
        .iter()
        .map(|&i| poi.rows[i].entry.weight.unwrap_or(1))
        .collect();
    let pick = ns.pick_weighted(&weights).unwrap_or(0);
    Ok((terrain.name.clone(), rows[pick]))
}

/// The regions' names, as a list.
fn names(regions: &[Region]) -> String {
    regions
        .iter()
        .map(|r| r.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `name`, or while another stop has it a name from the place-name tables
/// (with the stop's number after twenty tries).
fn unique_name(
    library: &Library,
    name: &str,
    id: usize,
    used: &[String],
    ns: &mut Stream,
) -> Result<String, GenError> {
    let mut name = name.to_owned();
    let mut tries = 0;
    while used.contains(&name) {
        tries += 1;
        let prefix = library.roll_table("gen.names.place.prefix", ns)?;
        let suffix = library.roll_table("gen.names.place.suffix", ns)?;
        name = format!("{}{}", prefix.row, suffix.row);
        if tries > 20 {
            name = format!("{name} {id}");
        }
    }
    Ok(name)
}
