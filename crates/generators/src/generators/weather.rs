//! The weather an encounter meets: a row of the season's table
//! (`gen.weather.<season>`) tagged with the encounter's terrain, or,
//! under a roof of rock (a region whose `setting` is `indoor`), a row of
//! `gen.weather.underground`, where there is no sky and no season; none
//! when no row fits (a GM's own region gets weather by extending a
//! season's table with rows tagged with its name).
//!
//! The season is the season of the day: a campaign's calendar starts on
//! the first day of its first season (`season` in `campaign.toml`, spring
//! if none is given) and a season lasts 91 days ([`Season::on`]); a session
//! of its own starts on day 1, in its file's `season` (spring if none), and
//! `gen encounter --season` asks for one.

use serde::{Deserialize, Serialize};

use super::GenError;
use crate::content::{Library, Region};
use crate::rules::RulesSystem;
use crate::seed::Stream;
use crate::tables::TableRoll;

/// A season of the year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Season {
    /// Spring (the default).
    #[default]
    Spring,
    /// Summer.
    Summer,
    /// Autumn.
    Autumn,
    /// Winter.
    Winter,
}

/// Days in a season of the campaign's calendar.
pub(crate) const SEASON_DAYS: u32 = 91;

/// Conditions below ground, whatever the season.
pub(crate) const UNDERGROUND: &str = "gen.weather.underground";

impl Season {
    /// Every season, in the order of the year.
    pub(crate) const ALL: [Season; 4] = [
        Season::Spring,
        Season::Summer,
        Season::Autumn,
        Season::Winter,
    ];

    /// The season of `day` (day 1 is the first day of spring).
    pub fn of_day(day: u32) -> Season {
        Season::on(day, Season::Spring)
    }

    /// The season of `day` in a calendar whose day 1 is the first day of
    /// `first`.
    pub fn on(day: u32, first: Season) -> Season {
        let start = Season::ALL.iter().position(|s| *s == first).unwrap_or(0) as u32;
        let k = (start + (day.max(1) - 1) / SEASON_DAYS) % 4;
        Season::ALL[k as usize]
    }

    /// Its name, lowercase (`autumn`).
    pub fn name(self) -> &'static str {
        match self {
            Season::Spring => "spring",
            Season::Summer => "summer",
            Season::Autumn => "autumn",
            Season::Winter => "winter",
        }
    }

    /// A season by its name, in any case.
    pub fn parse(name: &str) -> Option<Season> {
        Season::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Its weather table.
    pub fn table(self) -> String {
        format!("gen.weather.{}", self.name())
    }
}

/// The weather in `region` in `season` for an encounter in `system`, a
/// weighted pick on `s` among the rows that fit and carry every tag the
/// situation `needs` (its `weather:` tags), its text without the other
/// system's rule ([`for_system`]); none without the table or a row.
pub fn weather(
    library: &Library,
    region: &Region,
    (season, system): (Season, RulesSystem),
    needs: &[&str],
    s: &mut Stream,
) -> Result<Option<TableRoll>, GenError> {
    let Some((id, rows)) = fitting(library, region, season, needs) else {
        return Ok(None);
    };
    let table = library.table(&id)?;
    let weights: Vec<u64> = rows
        .iter()
        .map(|&i| table.rows[i].entry.weight.unwrap_or(1).max(1))
        .collect();
    let Some(k) = s.pick_weighted(&weights) else {
        return Ok(None);
    };
    let mut roll = library.resolve(&id, rows[k], s)?;
    roll.text = for_system(&roll.text, system);
    Ok(Some(roll))
}

/// The weather table for `region` in `season` and the rows of it that
/// fit and carry every tag in `needs`; `None` without the table.
fn fitting(
    library: &Library,
    region: &Region,
    season: Season,
    needs: &[&str],
) -> Option<(String, Vec<usize>)> {
    let (id, any_row) = if region.outdoor() {
        (season.table(), false)
    } else {
        (UNDERGROUND.to_owned(), true)
    };
    let table = library.get(&id)?;
    let has = |r: &crate::content::Row, tag: &str| {
        r.entry.tags.iter().any(|t| t.eq_ignore_ascii_case(tag))
    };
    let rows = (0..table.rows.len())
        .filter(|&i| {
            let r = &table.rows[i];
            library.drawable(r)
                && needs.iter().all(|n| has(r, n))
                && (any_row || has(r, &region.name))
        })
        .collect();
    Some((id, rows))
}

/// Whether the weather of `region` in `season` can be what a situation
/// `needs` (its `weather:` tags): true without needs, or without a weather
/// table to ask.
pub fn can_be(library: &Library, region: &Region, season: Season, needs: &[&str]) -> bool {
    needs.is_empty()
        || fitting(library, region, season, needs).is_none_or(|(_, rows)| !rows.is_empty())
}

/// The labels a weather row's rules start with, by system.
const LABELS: [(&str, RulesSystem); 2] = [
    ("METTLE: ", RulesSystem::Mettle),
    ("Core Rules: ", RulesSystem::Core),
];

/// A weather text without the part labelled for the other system (a row
/// says what it does in each: `… METTLE: … Core Rules: …`).
pub fn for_system(text: &str, system: RulesSystem) -> String {
    let mut starts: Vec<(usize, RulesSystem)> = LABELS
        .iter()
        .filter_map(|(label, sys)| text.find(label).map(|i| (i, *sys)))
        .collect();
    starts.sort_by_key(|(i, _)| *i);
    let mut out = String::new();
    let mut from = 0;
    for (k, &(at, sys)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(text.len(), |(i, _)| *i);
        if sys != system {
            out.push_str(&text[from..at]);
            from = end;
        }
    }
    out.push_str(&text[from..]);
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calendar_turns_every_ninety_one_days() {
        assert_eq!(Season::of_day(0), Season::Spring);
        assert_eq!(Season::of_day(1), Season::Spring);
        assert_eq!(Season::of_day(91), Season::Spring);
        assert_eq!(Season::of_day(92), Season::Summer);
        assert_eq!(Season::of_day(274), Season::Winter);
        assert_eq!(Season::of_day(365), Season::Spring);
        // A calendar that starts in autumn: winter after 91 days, then
        // spring, summer, and autumn again after a year.
        assert_eq!(Season::on(1, Season::Autumn), Season::Autumn);
        assert_eq!(Season::on(92, Season::Autumn), Season::Winter);
        assert_eq!(Season::on(183, Season::Autumn), Season::Spring);
        assert_eq!(Season::on(274, Season::Autumn), Season::Summer);
        assert_eq!(Season::on(365, Season::Autumn), Season::Autumn);
        assert_eq!(Season::parse(" Autumn"), Some(Season::Autumn));
        assert_eq!(Season::parse("fall"), None);
    }

    #[test]
    fn each_system_reads_its_own_rule() {
        let text = "Rain. METTLE: Fatigued. Core Rules: no good sleep.";
        assert_eq!(
            for_system(text, RulesSystem::Mettle),
            "Rain. METTLE: Fatigued."
        );
        assert_eq!(
            for_system(text, RulesSystem::Core),
            "Rain. Core Rules: no good sleep."
        );
        let only = "Mud. METTLE: a Move Check.";
        assert_eq!(for_system(only, RulesSystem::Core), "Mud.");
        assert_eq!(for_system("Blossom.", RulesSystem::Core), "Blossom.");
    }
}
