//! A session's text read: the one reader of a session file
//! (`prep SESSION.toml`) and of a campaign's plan (`sessions/N/plan.toml`),
//! with one set of keys ([`Session`]) and one set of messages. A plan is a
//! session file read as [`Form::Plan`]: the campaign's keys (`title`,
//! `seed`, `system`, `party`, `[map]`, `content`, `templates`) are refused
//! in it, pointing at `campaign.toml`, and what they would say comes from
//! the campaign ([`Given`]); its own keys (`to`, `route`, `bring_back`)
//! are refused in a session file. Either way a key out of place is
//! serde's own "unknown field" at its line and column, with the keys the
//! form takes.

use std::ops::Range;
use std::path::Path;

use toml::de::DeTable;

use super::session::{MAX_REROLLS, MapRequest, Session, trap_source};
use super::{Step, clean_text, flaw_steps, not_valid, read_text};
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::generators::journey::Route;
use crate::generators::weather::Season;
use crate::rules::RulesSystem;

/// What a session text is read as.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Form<'a> {
    /// A session file of its own.
    File,
    /// A campaign's plan: the campaign gives what a plan leaves out.
    Plan(&'a Given),
}

/// What a campaign gives each of its plans: the keys a plan leaves to
/// `campaign.toml`.
#[derive(Debug, Clone)]
pub(crate) struct Given {
    /// The session's title (`"<campaign title>: session <N>"`).
    pub title: String,
    pub system: RulesSystem,
    /// The party file or pool summary.
    pub party: String,
    /// The region (`[map]`): its `journey` and `route` are the plan's.
    pub map: Option<MapRequest>,
    /// The season of the campaign's day 1.
    pub season: Option<Season>,
}

/// The keys a session file takes, in [`Session`]'s order (serde lists
/// them so; a test holds the two together).
const FILE_KEYS: [&str; 20] = [
    "title",
    "seed",
    "system",
    "terrain",
    "season",
    "party",
    "encounters",
    "traps",
    "npcs",
    "injuries",
    "mutations",
    "vouchers",
    "map",
    "rerolls",
    "encounter",
    "trap",
    "npc",
    "injury",
    "content",
    "templates",
];

/// The keys a campaign's plan takes, in [`Session`]'s order: a session
/// file's but the campaign's, and its own three.
const PLAN_KEYS: [&str; 15] = [
    "terrain",
    "encounters",
    "traps",
    "npcs",
    "injuries",
    "mutations",
    "vouchers",
    "rerolls",
    "encounter",
    "trap",
    "npc",
    "injury",
    "to",
    "route",
    "bring_back",
];

/// Keys of `campaign.toml` a GM might write in a plan.
const CAMPAIGN_KEYS: [&str; 10] = [
    "title",
    "seed",
    "system",
    "party",
    "content",
    "templates",
    "map",
    "start",
    "money",
    "season",
];

impl Form<'_> {
    /// The file as messages name it.
    fn what(&self) -> &'static str {
        match self {
            Form::File => "session file",
            Form::Plan(_) => "session plan",
        }
    }

    /// The keys this form takes.
    fn keys(&self) -> &'static [&'static str] {
        match self {
            Form::File => &FILE_KEYS,
            Form::Plan(_) => &PLAN_KEYS,
        }
    }
}

/// A session text read as `form` (not yet checked: [`check`]): its keys
/// typed, every key in its place, no control characters; a plan's with
/// what the campaign gives.
pub(crate) fn read(path: &Path, text: &str, form: Form) -> Result<Session, Error> {
    let what = form.what();
    let problem = |(span, message): (Range<usize>, String)| {
        let e = count_or_list_hint(not_valid(path, text, what, span, &message), text);
        match form {
            Form::File => e,
            Form::Plan(_) => campaign_key_hint(e),
        }
    };
    let parsed: Result<Session, toml::de::Error> = toml::from_str(text);
    let mut session = match parsed {
        Ok(session) => session,
        Err(e) => {
            let at = e.span().unwrap_or(0..0);
            return Err(problem(
                misplaced_before(text, &form, &at).unwrap_or((at, e.message().to_owned())),
            ));
        }
    };
    if let Some(p) = misplaced_before(text, &form, &(text.len()..text.len())) {
        return Err(problem(p));
    }
    if let Form::File = form
        && let Err(e) = toml::from_str::<PartyGiven>(text)
    {
        return Err(problem((e.span().unwrap_or(0..0), e.message().to_owned())));
    }
    clean_text(path, text, what)?;
    if let Form::Plan(given) = form {
        session.title.clone_from(&given.title);
        session.system = given.system;
        session.party.clone_from(&given.party);
        session.season = given.season;
        session.map = given.map.clone().map(|m| MapRequest {
            journey: session.to.is_some(),
            route: session.route.unwrap_or(Route::Safest),
            ..m
        });
    }
    Ok(session)
}

/// A session file names its party: read alone, the other keys ignored,
/// for serde's own "missing field" at serde's own place.
#[derive(serde::Deserialize)]
struct PartyGiven {
    #[allow(dead_code)]
    party: serde::de::IgnoredAny,
}

/// The first key out of place for `form` that serde would meet before the
/// problem at `at` (keys are met in the table's order), as serde says it:
/// `unknown field `seed`, expected one of …` at the key.
fn misplaced_before(text: &str, form: &Form, at: &Range<usize>) -> Option<(Range<usize>, String)> {
    let table = DeTable::parse(text).ok()?;
    let keys = form.keys();
    for (key, value) in table.get_ref() {
        let (k, v) = (key.span(), value.span());
        if !keys.contains(&key.get_ref().as_ref()) {
            let message = <serde::de::value::Error as serde::de::Error>::unknown_field(
                key.get_ref().as_ref(),
                keys,
            );
            return Some((k, message.to_string()));
        }
        if k.start <= at.start && at.start < v.end.max(k.end) {
            return None;
        }
    }
    None
}

/// A key of `campaign.toml` written in a plan: say where it goes; a `to`
/// that is no stop: say how to write one.
fn campaign_key_hint(e: Error) -> Error {
    let Error::Input(mut report) = e else {
        return e;
    };
    if let [d] = report.diagnostics.as_mut_slice() {
        if d.message.contains("expected a stop's name") {
            d.hint = Some(
                "write a stop of the campaign map by name (`to = \"Brinewell\"`) or number \
                 (`to = 3`), or `to = \"goal\"`"
                    .into(),
            );
        }
        for key in CAMPAIGN_KEYS {
            if d.message.contains(&format!("unknown field `{key}`")) {
                d.suggestion = None;
                d.hint = Some(format!(
                    "`{key}` is the campaign's, not a session's: set it in campaign.toml (a plan \
                     says only what to prep)"
                ));
            }
        }
    }
    Error::Input(report)
}

/// What is wrong with the `[[encounter]]`, `[[trap]]`, `[[npc]]` and
/// `[[injury]]` entries that needs no tables: more entries than the count, unknown
/// terrains and trap sources, tiers off the scale.
fn entry_flaws(session: &Session, path: &Path, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut flaw = |steps: &[Step], message: String| {
        out.push(super::pointed(path, text, steps, message));
    };
    for (key, list, count, n) in [
        (
            "encounters",
            "encounter",
            session.encounters,
            session.encounter_entries.len(),
        ),
        ("traps", "trap", session.traps, session.trap_entries.len()),
        ("npcs", "npc", session.npcs, session.npc_entries.len()),
        (
            "injuries",
            "injury",
            session.injuries,
            session.injury_entries.len(),
        ),
    ] {
        if count != 0 && count < n {
            flaw(
                &[Step::Key(key)],
                format!(
                    "{key} = {count}, but there are {n} [[{list}]] entries: the count is the \
                     total (the entries are {list}/1 to {list}/{n}); raise it or leave it out"
                ),
            );
        }
    }
    // [[encounter]] terrains are regions of the tables: see
    // `session_terrains`.
    for (i, t) in session.trap_entries.iter().enumerate() {
        let steps = [Step::Key("trap"), Step::Index(i), Step::Key("from")];
        match t.from.as_deref() {
            Some(f) if trap_source(f).is_none() => flaw(
                &steps,
                format!(
                    "[[trap]] {}: from = \"{f}\": a trap comes from rules, parts or any",
                    i + 1
                ),
            ),
            Some("rules") if session.system == RulesSystem::Core => flaw(
                &steps,
                format!(
                    "[[trap]] {}: the Core Rules have no traps of their own; Core traps are \
                     built from parts (from = \"parts\" or \"any\")",
                    i + 1
                ),
            ),
            _ => {}
        }
    }
    for (i, n) in session.npc_entries.iter().enumerate() {
        if let Some(t) = n.tier
            && !(1..=3).contains(&t)
        {
            flaw(
                &[Step::Key("npc"), Step::Index(i), Step::Key("tier")],
                format!(
                    "[[npc]] {}: tier {t}: tiers are 1 (minion), 2 (veteran) and 3 (boss)",
                    i + 1
                ),
            );
        }
    }
    out
}

/// The session's counts (`encounters = 2`) and their lists of entries
/// (`[[encounter]]`), by the keys a session file writes them under.
/// Each with its word in a message.
const COUNTED: [(&str, &str, &str); 4] = [
    ("encounters", "encounter", "encounter"),
    ("traps", "trap", "trap"),
    ("npcs", "npc", "NPC"),
    ("injuries", "injury", "injury slip"),
];

/// A type error at a count written as a list of entries, or at a list of
/// entries written as a count, gets a hint naming the other key.
pub(crate) fn count_or_list_hint(e: Error, text: &str) -> Error {
    let Error::Input(mut report) = e else {
        return e;
    };
    if let [d] = report.diagnostics.as_mut_slice()
        && d.message.contains("invalid type")
        && let Some((key, value)) = text
            .lines()
            .nth(d.line.saturating_sub(1))
            .and_then(|l| l.split_once('='))
    {
        let value = value.split('#').next().unwrap_or(value).trim();
        let key = key.trim();
        for (count, list, word) in COUNTED {
            if key == list {
                d.hint = Some(format!(
                    "for a number of {word}s, write `{count} = {value}`; a `[[{list}]]` table sets up one {word}"
                ));
            } else if key == count {
                d.hint = Some(format!(
                    "`{count}` is a number; to set up one {word}, write a `[[{list}]]` table for it"
                ));
            }
        }
    }
    Error::Input(report)
}

/// The `[rerolls]` entries that name no item of the session, or count
/// past [`MAX_REROLLS`], pointed at.
fn reroll_flaws(session: &Session, path: &Path, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (address, times) in &session.rerolls {
        let steps = [Step::Key("rerolls"), Step::Key(address)];
        let flaw = session.address_flaw(address).or_else(|| {
            (*times > MAX_REROLLS).then(|| {
                format!("`{address}` = {times}: an item is rerolled at most {MAX_REROLLS} times")
            })
        });
        if let Some(message) = flaw {
            out.push(super::pointed(
                path,
                text,
                &steps,
                format!("[rerolls] {message}"),
            ));
        }
    }
    out
}

/// A session file, read and checked. Returns the text too, for the party.
pub(crate) fn session(path: &Path) -> Result<(Session, String), Error> {
    let text = read_text(path, "session file")?;
    let session = session_from_text(path, &text)?;
    Ok((session, text))
}

/// A session file's text, checked ([`session`] without the reading).
pub(crate) fn session_from_text(path: &Path, text: &str) -> Result<Session, Error> {
    let session = read(path, text, Form::File)?;
    check(&session, path, text)?;
    Ok(session)
}

/// A session's keys checked, each flaw pointed at in `text` (the session
/// file's, or a campaign plan's: the keys are the same).
pub(crate) fn check(session: &Session, path: &Path, text: &str) -> Result<(), Error> {
    let mut diagnostics: Vec<_> = session
        .request()
        .flaws()
        .into_iter()
        .map(|(table, f)| {
            let prefix: Vec<Step> = table.map(Step::Key).into_iter().collect();
            super::pointed(path, text, &flaw_steps(&prefix, &f), f.message)
        })
        .collect();
    diagnostics.extend(reroll_flaws(session, path, text));
    // The file's seed is checked here, where its line is known (a bad
    // `--seed` is reported as such by the command).
    if let Some(Err(e)) = session.seed.as_deref().map(crate::seed::Seed::new) {
        diagnostics.push(super::pointed(
            path,
            text,
            &[Step::Key("seed")],
            e.to_string(),
        ));
    }
    diagnostics.extend(entry_flaws(session, path, text));
    if !diagnostics.is_empty() {
        return Err(Error::Input(Report {
            headline: Some("the session file asks for what a pack cannot give:".into()),
            diagnostics,
            closing: Some(
                "hint: fix the lines above (the guide's chapter The files a GM writes lists every session key) and run again"
                    .into(),
            ),
        }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde lists [`Session`]'s keys in its "unknown field" message: the
    /// forms' key lists are those keys, each form's in that order.
    #[test]
    fn the_forms_keys_are_the_sessions() {
        let e = toml::from_str::<Session>("zzz = 1\n").unwrap_err();
        let all: Vec<&str> = e.message().split('`').skip(3).step_by(2).collect();
        assert_eq!(all.len(), 23, "{}", e.message());
        for keys in [&FILE_KEYS[..], &PLAN_KEYS[..]] {
            let mut rest = all.iter();
            for k in keys {
                assert!(rest.any(|a| a == k), "{k} out of order in {all:?}");
            }
        }
        for k in all {
            assert!(FILE_KEYS.contains(&k) || PLAN_KEYS.contains(&k), "{k}");
        }
    }

    #[test]
    fn a_key_out_of_place_is_refused_as_serde_would() {
        let path = Path::new("sessions/1/plan.toml");
        let given = Given {
            title: "T: session 1".into(),
            system: RulesSystem::Mettle,
            party: "party.toml".into(),
            map: None,
            season: None,
        };
        let plan = "terrain = \"road\"\nencounters = 1\nseed = \"mine\"\n";
        let e = read(path, plan, Form::Plan(&given))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "sessions/1/plan.toml:3:1: the session plan is not valid: unknown field `seed`, \
                 expected one of `terrain`,"
            ),
            "{e}"
        );
        assert!(e.contains("`seed` is the campaign's"), "{e}");
        // A type error before the key out of place is met first.
        let plan = "encounters = \"two\"\nseed = \"mine\"\n";
        let e = read(path, plan, Form::Plan(&given))
            .unwrap_err()
            .to_string();
        assert!(e.contains("plan.toml:1:14"), "{e}");
        // A plan's own key in a session file.
        let file = "party = \"3,4\"\nto = \"goal\"\n";
        let e = read(Path::new("s.toml"), file, Form::File)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("s.toml:2:1: the session file is not valid: unknown field `to`"),
            "{e}"
        );
        // A session file without a party; a plan takes the campaign's.
        let e = read(Path::new("s.toml"), "encounters = 1\n", Form::File).unwrap_err();
        assert!(e.to_string().contains("missing field `party`"), "{e}");
        let s = read(path, "encounters = 1\nto = 3\n", Form::Plan(&given)).unwrap();
        assert_eq!(
            (s.party.as_str(), s.to.as_deref()),
            ("party.toml", Some("3"))
        );
    }
}
