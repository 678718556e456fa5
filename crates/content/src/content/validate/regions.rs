//! A region's properties (`[table.region]` of a `gen.encounter.<region>`
//! table): each key checked, the defaults filled in (see
//! [`crate::content::region`]).

use toml::Spanned;

use super::Spot;
use crate::content::region::{self, FORAGE, MAX_DANGER, PREFIX, Region};
use crate::content::schema::RegionRaw;
use crate::diagnostic::Diagnostic;

/// The region of table `id`: `None` for a table that is not a region
/// (where `[table.region]` is a problem); `base` is what an extension's
/// keys change (the extended table's region).
pub(super) fn compile(
    spot: Spot,
    id: &str,
    raw: Option<&Spanned<RegionRaw>>,
    base: Option<Region>,
    problems: &mut Vec<Diagnostic>,
) -> Option<Region> {
    let is_region = id.starts_with(PREFIX) && id.len() > PREFIX.len();
    if !is_region {
        if let Some(raw) = raw {
            problems.push(spot.at(
                raw.span().start,
                1,
                format!("`{id}` is not a region, so it takes no [table.region]"),
                format!("only `{PREFIX}<region>` tables make regions; remove [table.region]"),
            ));
        }
        return None;
    }
    let mut region = base.unwrap_or_else(|| Region::defaults(id));
    let Some(raw) = raw else {
        return Some(region);
    };
    let raw = raw.get_ref();
    if let Some(d) = &raw.danger {
        match u32::try_from(*d.get_ref()) {
            Ok(v) if v <= MAX_DANGER => region.danger = v,
            _ => problems.push(spot.at(
                d.span().start,
                spot.width(d.span()),
                format!("danger = {}: a region's danger is 0 to {MAX_DANGER}", d.get_ref()),
                "rungs of the Difficulty ladder the land adds: 0 road or town, 1 forest or hills, 2 swamp or ruins, 3 underground",
            )),
        }
    }
    if let Some(f) = &raw.forage {
        for item in f.get_ref() {
            if !FORAGE.contains(&item.as_str()) {
                problems.push(
                    spot.at(
                        f.span().start,
                        spot.width(f.span()),
                        format!("forage: unknown find `{item}`"),
                        format!("a region offers any of {}", FORAGE.join(", ")),
                    )
                    .with_suggestion(super::suggest(item, FORAGE.iter().copied())),
                );
            }
        }
        region.forage = FORAGE
            .iter()
            .filter(|k| f.get_ref().iter().any(|i| i == *k))
            .map(|k| (*k).to_owned())
            .collect();
    }
    if let Some(w) = raw.water {
        region.water = w;
    }
    if let Some(c) = &raw.encounter_chance {
        match region::parse_chance(c.get_ref()) {
            Some(v) => region.encounter_chance = Some(v),
            None => problems.push(spot.at(
                c.span().start,
                spot.width(c.span()),
                format!("encounter_chance = \"{}\" is not an x:y chance", c.get_ref()),
                "write it like \"1:6\" (1 ≤ x < y ≤ 100): the chance of an encounter each travelling watch",
            )),
        }
    }
    if let Some(p) = &raw.places {
        let tag = p.get_ref().trim();
        if tag.is_empty() {
            problems.push(spot.at(
                p.span().start,
                spot.width(p.span()),
                "places is empty",
                "name the `gen.poi` tag the region's stops are drawn from",
            ));
        } else {
            region.places = tag.to_owned();
        }
    }
    if let Some(p) = &raw.place {
        match region::PLACES.iter().find(|k| **k == p.get_ref().trim()) {
            Some(k) => region.place = (*k).to_owned(),
            None => problems.push(
                spot.at(
                    p.span().start,
                    spot.width(p.span()),
                    format!("place = \"{}\": a region's place is wild or built", p.get_ref()),
                    "the trap rows tagged place:wild fit the open land (road, forest, swamp, hills), place:built walls, floors and doors (ruins, underground, town)",
                )
                .with_suggestion(super::suggest(p.get_ref(), region::PLACES.iter().copied())),
            ),
        }
    }
    Some(region)
}
