//! Who lies in wait at a map stop: the situations of a terrain that are
//! ambushes with foes, and of those the ones that suit a stop (`at:`
//! tags), for a journey's Ambushed Twist.

use super::zones;
use crate::content::{Library, Row};
use crate::generators::GenError;

/// The situations of `terrain` that are ambushes with foes (tagged
/// `ambush`, or saying that the foes lie in wait, circle or surround, and
/// with a `foe:` tag), by row name in table order: where a journey's
/// Ambushed Twist draws who waits at a stop. With the stop (its kind and
/// name), only those that suit it ([`suits`]) while any does.
pub fn ambushes(
    library: &Library,
    terrain: &str,
    stop: Option<(&str, &str)>,
) -> Result<Vec<String>, GenError> {
    let region = library.region(terrain).map_err(GenError::Request)?;
    let rows = &library.table(&region.table)?.rows;
    let foes = |r: &Row| r.entry.tags.iter().any(|t| t.starts_with("foe:"));
    let all: Vec<&Row> = rows
        .iter()
        .filter(|r| foes(r) && zones::lies_in_wait(&r.entry.text, &r.entry.tags))
        .collect();
    let fit: Vec<&Row> = all
        .iter()
        .copied()
        .filter(|r| stop.is_none_or(|(kind, name)| suits(&r.entry.tags, kind, name)))
        .collect();
    let pool = if fit.is_empty() { all } else { fit };
    Ok(pool.iter().map(|r| r.entry.name.to_string()).collect())
}

/// Whether a situation with `tags` suits a stop of `kind` named `name`:
/// it has no `at:` tag (it happens on any way in), or one names the kind
/// (`at:ruin`) or a part of the name (`at:gate` for Crowsgate or Lowgate
/// Gatehouse), case aside.
pub fn suits<T: AsRef<str>>(tags: &[T], kind: &str, name: &str) -> bool {
    let name = name.to_lowercase();
    let mut at = tags
        .iter()
        .filter_map(|t| t.as_ref().strip_prefix("at:"))
        .peekable();
    at.peek().is_none()
        || at.any(|a| a.eq_ignore_ascii_case(kind) || name.contains(&a.to_lowercase()))
}
