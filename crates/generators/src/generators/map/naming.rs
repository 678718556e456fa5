//! What each stop is: a terrain from the request, a point of interest from
//! `gen.poi` that fits it (its kind and hook), and a name no other stop has.
//!
//! No two stops of one map share a point of interest, so no description
//! repeats: each stop draws among the rows no earlier stop has taken, and
//! when its terrain has none left it draws its terrain again among those
//! that still have one.
//!
//! When every terrain of the map has used all its points of interest (a
//! map of more than about 40 stops), each further stop is **composed from
//! parts** for the terrain it drew: a site from `gen.place.site` (what
//! stands there, and its kind) and a trouble from `gen.place.trouble` (why
//! it matters), named by the site's pattern (`~ Mill`) around a place name
//! from the place-name tables. No two stops share a site and trouble
//! together, so no hook repeats; names are drawn again while another stop
//! has them. A map asking for more stops than its terrains have points of
//! interest and compositions is refused before anything is drawn. Maps
//! the points of interest can fill draw exactly as before the parts
//! existed.

use std::collections::BTreeSet;

use super::{GenError, Stop};
use crate::content::{Library, Region, Table};
use crate::seed::{DieSource, Stream};

/// The tables composed places draw their parts from.
pub(super) const SITES: &str = "gen.place.site";
pub(super) const TROUBLES: &str = "gen.place.trouble";
/// Where a site's name pattern takes the place name.
const STEM: &str = "~";

/// The `gen.poi` rows that fit a region: those tagged with its `places`
/// tag (its name unless it says otherwise); for a region with none of its
/// own (`validate` warns of it), the untagged places — the rows tagged
/// with no region's places (`all`: every region's tag) — or every row when
/// there are none of those either.
fn fitting(poi: &Table, region: &Region, all: &[String]) -> Vec<usize> {
    let rows = |keep: &dyn Fn(&[crate::content::Text]) -> bool| -> Vec<usize> {
        (0..poi.rows.len())
            .filter(|&i| keep(&poi.rows[i].entry.tags))
            .collect()
    };
    let tagged = rows(&|tags| tags.iter().any(|t| *t == region.places));
    if !tagged.is_empty() {
        return tagged;
    }
    let untagged = rows(&|tags| !tags.iter().any(|t| all.iter().any(|a| a == t)));
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

/// The parts of composed places, when the tables have both.
struct Parts<'a> {
    sites: &'a Table,
    troubles: &'a Table,
    /// Every region's `places` tag.
    all: Vec<String>,
}

impl<'a> Parts<'a> {
    fn of(library: &'a Library) -> Option<Parts<'a>> {
        Some(Parts {
            sites: library.get(SITES).filter(|t| !t.rows.is_empty())?,
            troubles: library.get(TROUBLES).filter(|t| !t.rows.is_empty())?,
            all: place_tags(library),
        })
    }

    /// The sites that suit a region, as [`fitting`] finds points of
    /// interest.
    fn sites(&self, region: &Region) -> Vec<usize> {
        fitting(self.sites, region, &self.all)
    }

    /// The troubles that suit a region: untagged ones, and those tagged
    /// with its `places` tag.
    fn troubles(&self, region: &Region) -> Vec<usize> {
        (0..self.troubles.rows.len())
            .filter(|&i| {
                let tags = &self.troubles.rows[i].entry.tags;
                tags.is_empty() || tags.iter().any(|t| *t == region.places)
            })
            .collect()
    }

    /// Every (site, trouble) pair the terrains offer together.
    fn pairs(&self, terrains: &[Region]) -> BTreeSet<(usize, usize)> {
        let mut all = BTreeSet::new();
        for t in terrains {
            let troubles = self.troubles(t);
            for s in self.sites(t) {
                all.extend(troubles.iter().map(|&k| (s, k)));
            }
        }
        all
    }
}

/// Refuses a map of `stops` stops when its terrains have fewer points of
/// interest and composed places, so that no description need repeat.
pub(super) fn check_room(
    library: &Library,
    terrains: &[Region],
    stops: usize,
) -> Result<(), GenError> {
    let poi = library.table("gen.poi")?;
    let composed = Parts::of(library).map_or(0, |p| p.pairs(terrains).len());
    let have = offered(poi, terrains, &place_tags(library)) + composed;
    if stops > have {
        return Err(GenError::Request(format!(
            "a map of {stops} stops needs {stops} different places, but `gen.poi`, \
             `{SITES}` and `{TROUBLES}` make only {have} for {}; ask for at most {have} \
             stops or more terrains, or add rows to those tables with --content",
            names_of(terrains)
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
    let parts = Parts::of(library);
    let mut taken = vec![false; poi.rows.len()];
    let all = place_tags(library);
    let mut used = BTreeSet::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut stops = Vec::with_capacity(points.len());
    for (id, (x, y)) in points.into_iter().enumerate() {
        let all_taken = terrains
            .iter()
            .all(|t| fitting(poi, t, &all).iter().all(|&i| taken[i]));
        if let (true, Some(parts)) = (all_taken, &parts) {
            let stop = compose(library, parts, terrains, &mut used, &names, ns, (id, x, y))?;
            names.insert(stop.name.clone());
            stops.push(stop);
            continue;
        }
        let (terrain, chosen) = draw_place(poi, terrains, &all, &taken, ns)?;
        taken[chosen] = true;
        let row = &poi.rows[chosen];
        let hook = library.resolve("gen.poi", chosen, ns)?.text;
        let kind = row
            .entry
            .tags
            .first()
            .map_or_else(|| "camp".into(), |t| t.to_string());
        let name = unique_name(library, &row.entry.name, id, &names, ns)?;
        names.insert(name.clone());
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
                names_of(terrains)
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

/// A stop composed from parts for a terrain drawn from the map's: a site
/// that suits it with a trouble no earlier stop has had with that site,
/// named after the site's pattern. When the terrain drawn has no pair
/// left, the terrain is drawn again among those that have.
fn compose(
    library: &Library,
    parts: &Parts,
    terrains: &[Region],
    used: &mut BTreeSet<(usize, usize)>,
    names: &BTreeSet<String>,
    ns: &mut Stream,
    (id, x, y): (usize, f64, f64),
) -> Result<Stop, GenError> {
    // For each site of a terrain, the troubles still free with it.
    let free = |t: &Region| -> Vec<(usize, Vec<usize>)> {
        let troubles = parts.troubles(t);
        parts
            .sites(t)
            .into_iter()
            .map(|s| {
                let open = troubles
                    .iter()
                    .copied()
                    .filter(|&k| !used.contains(&(s, k)))
                    .collect::<Vec<_>>();
                (s, open)
            })
            .filter(|(_, open)| !open.is_empty())
            .collect()
    };
    let mut terrain = &terrains[ns.die(terrains.len() as u32) as usize - 1];
    let mut options = free(terrain);
    if options.is_empty() {
        let open: Vec<&Region> = terrains.iter().filter(|t| !free(t).is_empty()).collect();
        if open.is_empty() {
            return Err(GenError::Request(format!(
                "`{SITES}` and `{TROUBLES}` ran out of places for {}; ask for fewer stops",
                names_of(terrains)
            )));
        }
        terrain = open[ns.die(open.len() as u32) as usize - 1];
        options = free(terrain);
    }
    let weights: Vec<u64> = options
        .iter()
        .map(|(s, _)| parts.sites.rows[*s].entry.weight.unwrap_or(1))
        .collect();
    let (site, troubles) = &options[ns.pick_weighted(&weights).unwrap_or(0)];
    let trouble = troubles[ns.die(troubles.len() as u32) as usize - 1];
    used.insert((*site, trouble));
    let row = &parts.sites.rows[*site];
    let what = library.resolve(SITES, *site, ns)?.text;
    let why = library.resolve(TROUBLES, trouble, ns)?.text;
    let kind = row
        .entry
        .tags
        .first()
        .map_or_else(|| "camp".into(), |t| t.to_string());
    let mut name = String::new();
    for tries in 0.. {
        let prefix = library.roll_table("gen.names.place.prefix", ns)?;
        let suffix = library.roll_table("gen.names.place.suffix", ns)?;
        let stem = stem(&prefix.row, &suffix.row);
        name = if row.entry.name.contains(STEM) {
            row.entry.name.replacen(STEM, &stem, 1)
        } else {
            format!("{stem} {}", row.entry.name)
        };
        if tries >= 20 {
            name = format!("{name} {}", id + 1);
        }
        if !names.contains(&name) {
            break;
        }
    }
    Ok(Stop {
        id,
        name,
        kind,
        terrain: terrain.name.clone(),
        hook: format!("{what}; {why}"),
        x,
        y,
    })
}

/// The regions' names, as a list.
fn names_of(regions: &[Region]) -> String {
    regions
        .iter()
        .map(|r| r.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A place name's stem: a prefix and a suffix joined, without three of
/// one letter in a row ("Mill" and "ley" make "Milley", not "Millley").
fn stem(prefix: &str, suffix: &str) -> String {
    let mut tail = prefix.chars().rev();
    let doubled = match (tail.next(), tail.next()) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(&b).then_some(a),
        _ => None,
    };
    let suffix = match (doubled, suffix.chars().next()) {
        (Some(a), Some(c)) if a.eq_ignore_ascii_case(&c) => &suffix[c.len_utf8()..],
        _ => suffix,
    };
    format!("{prefix}{suffix}")
}

/// `name`, or while another stop has it a name from the place-name tables
/// (with the stop's number after twenty tries).
fn unique_name(
    library: &Library,
    name: &str,
    id: usize,
    used: &BTreeSet<String>,
    ns: &mut Stream,
) -> Result<String, GenError> {
    let mut name = name.to_owned();
    let mut tries = 0;
    while used.contains(&name) {
        tries += 1;
        let prefix = library.roll_table("gen.names.place.prefix", ns)?;
        let suffix = library.roll_table("gen.names.place.suffix", ns)?;
        name = stem(&prefix.row, &suffix.row);
        if tries > 20 {
            name = format!("{name} {id}");
        }
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::stem;
    use crate::content::Library;

    /// Whether `s` holds one letter three times in a row.
    fn tripled(s: &str) -> bool {
        let c: Vec<char> = s.chars().map(|c| c.to_ascii_lowercase()).collect();
        c.windows(3).any(|w| w[0] == w[1] && w[1] == w[2])
    }

    #[test]
    fn a_stem_never_holds_one_letter_three_times_in_a_row() {
        assert_eq!(stem("Mill", "ley"), "Milley");
        assert_eq!(stem("Ash", "ford"), "Ashford");
        let (library, _) = Library::load(&[]);
        let rows = |id: &str| -> Vec<String> {
            let t = library.get(id).expect(id);
            t.rows.iter().map(|r| r.entry.text.to_string()).collect()
        };
        let (prefixes, suffixes) = (
            rows("gen.names.place.prefix"),
            rows("gen.names.place.suffix"),
        );
        let mut joined_with_a_cut = 0;
        for p in &prefixes {
            for s in &suffixes {
                let name = stem(p, s);
                assert!(!tripled(&name), "{p} + {s} = {name}");
                if !tripled(&format!("{p}{s}")) {
                    assert_eq!(name, format!("{p}{s}"), "joined as written");
                } else {
                    joined_with_a_cut += 1;
                }
            }
        }
        // The built-in parts do meet so (Mill + ley, among others).
        assert!(joined_with_a_cut > 0);
    }
}
