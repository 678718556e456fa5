//! How the journey's log is worded: a routine night in camp (every PC fed
//! from the packs and watered, nothing found or spoiled, nobody hungry,
//! thirsty or hurt by it) is one short line ([`CAMP`]), and whole days in
//! a row that hold nothing but such a night are folded into one entry
//! (`Days 3–5`: "Camp each night: everyone eats and drinks; …", with the
//! supplies left after the last). Anything else — a leg set out on, an
//! encounter, hunger, foraging, a Twist, a death — stays its own line on
//! its own day. Only the wording changes: the watches, the supplies at
//! the end of each day and the days taken are counted as before.

use super::Day;

/// How a routine night in camp begins; the supplies left follow.
pub(super) const CAMP: &str = "Camp for the night: everyone eats and drinks; ";
/// How days of routine nights in a row are told; the supplies left after
/// the last follow.
const CAMPS: &str = "Camp each night: everyone eats and drinks; ";

/// The log with each run of two or more days in a row that hold only a
/// routine night (`routine`: each such night's day and what followed
/// [`CAMP`]) folded into one [`Day`] running `through` the last.
pub(super) fn fold(days: Vec<Day>, routine: &[(u32, String)]) -> Vec<Day> {
    let only_routine = |d: &Day| {
        d.through.is_none()
            && matches!(d.entries.as_slice(), [line] if routine.iter().any(|(day, left)| {
                *day == d.day && line.strip_prefix(CAMP) == Some(left.as_str())
            }))
    };
    let mut out: Vec<Day> = Vec::new();
    let mut run: Vec<Day> = Vec::new();
    for d in days {
        let follows = run.last().is_none_or(|last| last.day + 1 == d.day);
        if !(only_routine(&d) && follows) {
            flush(&mut out, &mut run);
        }
        if only_routine(&d) {
            run.push(d);
        } else {
            out.push(d);
        }
    }
    flush(&mut out, &mut run);
    out
}

/// A run of routine days into `out`: one day as it is, more as one.
fn flush(out: &mut Vec<Day>, run: &mut Vec<Day>) {
    match run.as_slice() {
        [] => {}
        [_] => out.append(run),
        [first, .., last] => {
            let left = last.entries[0].strip_prefix(CAMP).unwrap_or_default();
            out.push(Day {
                day: first.day,
                through: Some(last.day),
                entries: vec![format!("{CAMPS}{left}")],
            });
            run.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(day: u32, entries: &[&str]) -> Day {
        Day {
            day,
            through: None,
            entries: entries.iter().map(|e| (*e).to_owned()).collect(),
        }
    }

    #[test]
    fn routine_nights_in_a_row_fold_and_anything_else_stays() {
        let camp = |left: &str| format!("{CAMP}{left}");
        let routine: Vec<(u32, String)> = (1..=7)
            .map(|d| (d, format!("{} rations left.", 20 - d)))
            .collect();
        let days = vec![
            day(1, &["Leg 1 sets out.", &camp("19 rations left.")]),
            day(2, &[&camp("18 rations left.")]),
            day(3, &[&camp("17 rations left.")]),
            day(4, &[&camp("16 rations left.")]),
            day(5, &["Encounter on the way.", &camp("15 rations left.")]),
            day(6, &[&camp("14 rations left.")]),
            day(
                7,
                &["Daily rest in camp: 3 of 4 eat (0 foraged), 4 drink; 0 rations left."],
            ),
        ];
        let folded = fold(days.clone(), &routine);
        let heads: Vec<(u32, Option<u32>)> = folded.iter().map(|d| (d.day, d.through)).collect();
        assert_eq!(
            heads,
            [(1, None), (2, Some(4)), (5, None), (6, None), (7, None)]
        );
        assert_eq!(
            folded[1].entries,
            [format!("{CAMPS}16 rations left.")],
            "the supplies after the last night"
        );
        assert_eq!(folded[0], days[0]);
        assert_eq!(folded[3], days[5], "one routine day alone stays as it is");
    }
}
