//! How the parts of a trap hang together, read from the trap tables' tags
//! (the vocabulary is in the header comment of `content/gen/traps.toml`):
//! the generator picks only parts that fit, and `validate` refuses tables
//! where some terrain could not be given a trap that does.
//!
//! - **A terrain** ([`fits`]): a row fits a terrain its `terrain:` tags
//!   name; a row without `terrain:` tags fits every terrain of each place
//!   its `place:` tags name (a region is `wild` or `built`: see
//!   [`crate::content::region`]); a row with neither fits everywhere.
//! - **A trigger for an effect** ([`suits`]): the trigger carries `by:X`
//!   for every `touch:X` of the effect, and no `by:Y` for a `never:Y`.
//! - **A clue** ([`points`]): it shares a `mech:` with the effect, or all
//!   its `by:` tags are on the trigger (specific); it is `generic`, or
//!   carries neither `mech:` nor `by:` (a sign of any trap); otherwise it
//!   points at another trap.
//! - **A way to deal with it** ([`serves`]): a `gen.trap.disarm` row
//!   sharing a `mech:` with the effect, or whose `by:` tags are all on the
//!   trigger (specific), or `generic`, with no
//!   `place:` tag or the terrain's place; never a row that resets it
//!   (`do:reset`) for an effect tagged `once`.

use super::region::Region;

/// What sets a trap off (both systems).
pub const TRIGGERS: &str = "gen.trap.trigger";
/// What gives a trap away (both systems).
pub const CLUES: &str = "gen.trap.clue";
/// What a trap does: METTLE's table, then the Core Rules' (the same rows
/// by name, with the same coherence tags).
pub(crate) const EFFECTS: [&str; 2] = ["gen.trap.effect", "gen.trap.core.effect"];
/// How to find, disarm, bypass or reset a trap.
pub const DISARM: &str = "gen.trap.disarm";
/// The tag prefixes that say where a trap part fits and what it pairs
/// with, and whether it needs its keepers at hand: the two effect tables
/// must agree on them row by row.
pub const COHERENCE: [&str; 7] = [
    "mech:", "place:", "terrain:", "touch:", "never:", "once", "keepers",
];
/// What a trigger's `by:` tags (and an effect's `touch:` and `never:`)
/// can name: what the victim does, and where.
pub const KINDS: [&str; 16] = [
    "foot", "wire", "cross", "hand", "weight", "span", "ground", "stair", "water", "plank",
    "voice", "light", "wait", "watch", "room", "bed",
];
/// What a `gen.trap.disarm` row's `do:` tags can name.
pub const DOES: [&str; 4] = ["find", "disarm", "bypass", "reset"];
/// The bare tags an effect may carry besides its prefixed ones: `alarm`
/// (its roll does no damage), `once` (spent when it goes off), `keepers`
/// (it calls on whoever keeps it — lookouts round a camp — so it is set
/// only where foes who are people are at hand: [`KEEPERS`]).
pub const EFFECT_FLAGS: [&str; 3] = ["alarm", "once", "keepers"];

/// The tag of an effect that needs its keepers at hand ([`EFFECT_FLAGS`]).
pub const KEEPERS: &str = "keepers";

/// Whether a row with `tags` may be drawn for a trap with (`keepers`) or
/// without people at hand to keep it: a row tagged [`KEEPERS`] only with.
pub fn kept<S: AsRef<str>>(tags: &[S], keepers: bool) -> bool {
    keepers || !has(tags, KEEPERS)
}

/// The values of a row's tags with `prefix` (`mech:` → `darts`).
pub fn values<'a, S: AsRef<str>>(
    tags: &'a [S],
    prefix: &'a str,
) -> impl Iterator<Item = &'a str> + 'a {
    tags.iter()
        .filter_map(move |t| t.as_ref().strip_prefix(prefix))
}

fn has<S: AsRef<str>>(tags: &[S], tag: &str) -> bool {
    tags.iter().any(|t| t.as_ref() == tag)
}

/// Whether a row with `tags` fits `region`.
pub fn fits<S: AsRef<str>>(tags: &[S], region: &Region) -> bool {
    let mut terrains = values(tags, "terrain:").peekable();
    if terrains.peek().is_some() {
        return terrains.any(|t| t.eq_ignore_ascii_case(&region.name));
    }
    let mut places = values(tags, "place:").peekable();
    places.peek().is_none() || places.any(|p| p == region.place())
}

/// Whether a trigger with `trigger` tags can spring an effect with
/// `effect` tags: its `by:` covers every `touch:` and meets no `never:`.
pub fn suits<S: AsRef<str>, T: AsRef<str>>(effect: &[S], trigger: &[T]) -> bool {
    let by = |kind: &str| values(trigger, "by:").any(|b| b == kind);
    values(effect, "touch:").all(by) && !values(effect, "never:").any(by)
}

/// What a clue points at, for one effect and trigger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Points {
    /// At this trap: its mechanism or its trigger.
    Specific,
    /// At a trap of any kind.
    Generic,
    /// At another trap.
    Elsewhere,
}

/// What a clue with `clue` tags points at, set with `effect` and
/// `trigger`.
pub fn points<S: AsRef<str>, T: AsRef<str>, U: AsRef<str>>(
    clue: &[S],
    effect: &[T],
    trigger: &[U],
) -> Points {
    let shares_mech = values(clue, "mech:").any(|m| values(effect, "mech:").any(|e| e == m));
    let mut by = values(clue, "by:").peekable();
    let names_trigger = by.peek().is_some() && by.all(|b| values(trigger, "by:").any(|t| t == b));
    if shares_mech || names_trigger {
        Points::Specific
    } else if has(clue, "generic")
        || (values(clue, "mech:").next().is_none() && values(clue, "by:").next().is_none())
    {
        Points::Generic
    } else {
        Points::Elsewhere
    }
}

/// What a `gen.trap.disarm` row with `disarm` tags does for an effect with
/// `effect` tags, sprung by a trigger with `trigger` tags (none for a
/// rules trap), set in a `place`: `Specific` (its mechanism, or a way past
/// its kind of trigger: every `by:` of the row on the trigger, as silence
/// for a spoken word), `Generic` or `Elsewhere` (another mechanism or
/// trigger, or another kind of place, or a way to reset a trap that cannot
/// be set again).
pub fn serves<S: AsRef<str>, T: AsRef<str>, U: AsRef<str>>(
    disarm: &[S],
    effect: &[T],
    trigger: &[U],
    place: &str,
) -> Points {
    let mut places = values(disarm, "place:").peekable();
    if places.peek().is_some() && !places.any(|p| p == place) {
        return Points::Elsewhere;
    }
    if has(effect, "once") && has(disarm, "do:reset") {
        return Points::Elsewhere;
    }
    let mut by = values(disarm, "by:").peekable();
    let for_trigger = by.peek().is_some() && by.all(|b| values(trigger, "by:").any(|t| t == b));
    if for_trigger || values(disarm, "mech:").any(|m| values(effect, "mech:").any(|e| e == m)) {
        Points::Specific
    } else if has(disarm, "generic") {
        Points::Generic
    } else {
        Points::Elsewhere
    }
}

/// A row's coherence tags ([`COHERENCE`]), sorted: what the two effect
/// tables must agree on.
pub fn coherence<S: AsRef<str>>(tags: &[S]) -> Vec<&str> {
    let mut out: Vec<&str> = tags
        .iter()
        .map(AsRef::as_ref)
        .filter(|t| COHERENCE.iter().any(|p| t.starts_with(p)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(name: &str, place: &str) -> Region {
        Region {
            setting: if place == "wild" { "wild" } else { "indoor" }.into(),
            ..Region::defaults(&format!("gen.encounter.{name}"))
        }
    }

    #[test]
    fn a_row_fits_its_terrains_else_its_places() {
        let forest = region("forest", "wild");
        let ruins = region("ruins", "built");
        let roof = ["mech:rockfall", "place:built", "terrain:ruins"];
        assert!(fits(&roof, &ruins));
        assert!(!fits(&roof, &region("town", "built")));
        assert!(!fits(&roof, &forest));
        assert!(fits(&["place:wild"], &forest));
        assert!(!fits(&["place:wild"], &ruins));
        assert!(fits(&["place:wild", "place:built"], &ruins));
        assert!(fits::<&str>(&[], &forest));
        assert!(fits(&["terrain:Forest"], &forest));
    }

    #[test]
    fn a_trigger_suits_the_touch_and_never_of_its_effect() {
        let needle = ["mech:needle", "touch:hand"];
        assert!(suits(&needle, &["by:hand"]));
        assert!(!suits(&needle, &["by:foot", "by:ground"]));
        let pit = ["mech:pit", "touch:ground"];
        assert!(suits(&pit, &["by:foot", "by:ground"]));
        assert!(!suits(&pit, &["by:foot", "by:water"]));
        let alarm = ["mech:alarm", "never:watch"];
        assert!(!suits(&alarm, &["by:watch"]));
        assert!(suits(&alarm, &["by:wire"]));
    }

    #[test]
    fn a_clue_points_at_its_mechanism_its_trigger_or_anything() {
        let darts = ["mech:darts"];
        let plate = ["by:foot", "by:ground"];
        assert_eq!(points(&["mech:darts"], &darts, &plate), Points::Specific);
        assert_eq!(points(&["by:ground"], &darts, &plate), Points::Specific);
        assert_eq!(points(&["generic"], &darts, &plate), Points::Generic);
        assert_eq!(points(&["place:built"], &darts, &plate), Points::Generic);
        assert_eq!(points(&["mech:gas"], &darts, &plate), Points::Elsewhere);
        assert_eq!(points(&["by:hand"], &darts, &plate), Points::Elsewhere);
        assert_eq!(
            points(&["by:ground", "by:water"], &darts, &plate),
            Points::Elsewhere
        );
    }

    #[test]
    fn a_disarm_row_serves_its_mechanism_in_its_place() {
        let pit = ["mech:pit", "touch:ground"];
        let plate = ["by:foot", "by:ground"];
        assert_eq!(
            serves(&["mech:pit"], &pit, &plate, "wild"),
            Points::Specific
        );
        assert_eq!(
            serves(&["mech:pit", "place:built"], &pit, &plate, "wild"),
            Points::Elsewhere
        );
        assert_eq!(serves(&["generic"], &pit, &plate, "built"), Points::Generic);
        assert_eq!(
            serves(&["mech:gas"], &pit, &plate, "built"),
            Points::Elsewhere
        );
        let block = ["mech:deadfall", "once"];
        let reset = ["generic", "do:bypass", "do:reset"];
        assert_eq!(serves(&reset, &pit, &plate, "built"), Points::Generic);
        assert_eq!(serves(&reset, &block, &plate, "built"), Points::Elsewhere);
        // A way past its kind of trigger: silence for a spoken word.
        let (hush, voice) = (["by:voice", "do:bypass"], ["by:voice", "by:room"]);
        assert_eq!(serves(&hush, &pit, &voice, "built"), Points::Specific);
        assert_eq!(serves(&hush, &pit, &plate, "built"), Points::Elsewhere);
        assert_eq!(
            serves(&hush, &pit, &[] as &[&str], "built"),
            Points::Elsewhere
        );
    }
}
