//! The bad-input suite: every class of mistake a GM can make, run through
//! the real binary in a fresh folder. Each case pins the message the GM
//! reads (file, line and column where there are some, and what to do), the
//! exit code, that nothing reached stdout, that nothing panicked, and that
//! not a byte in the folder changed — no handout, no half-written file, no
//! empty output folder.
//!
//! Most cases run `prep`, the one command that writes files, so that
//! "nothing was written" means something; dice cases run `roll`.
//!
//! The cases are data ([`cases`], built by the constructors below); each
//! is its own `#[test]`, named after its class in [`each_case!`], run in a
//! folder of its own by [`check`], so one failing case hides no other and
//! names itself. A case without a test, or a test without a case, fails
//! `every_case_has_its_own_test`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{Run, TempDir, Test, fixture, only_entry, prep_args};

/// A session that would write a full pack if nothing were wrong.
const SESSION: &str = "title = \"Bad input\"\nseed = \"bad-input\"\nsystem = \"mettle\"\n\
terrain = \"swamp\"\nparty = \"3,4,4,5\"\nencounters = 1\nnpcs = 1\n";

/// A METTLE party with one stat block out of bounds (CULTURE at line 6).
const GIANT_PARTY: &str = "[[mettle]]\nname = \"Kirin\"\nNATURE = 2\nCULTURE = 3\nPOISE = 5\nMOTIVE = 3\nFRAME = 2\n\n\
[[mettle]]\nname = \"Viktor\"\nNATURE = 3\nCULTURE = 40\nPOISE = 2\nMOTIVE = 4\nFRAME = 5\narmor = 9\n";

struct Case {
    class: &'static str,
    /// Files to put in the folder first (path, bytes).
    files: Vec<(&'static str, Vec<u8>)>,
    /// Commands run first that must succeed (to make existing files).
    before: Vec<Vec<OsString>>,
    /// Last touches to the folder before the run (after `before`).
    prepare: Option<fn(&Path)>,
    /// Files written last, after `before` and `prepare` (a record edited
    /// after the commands that made the campaign's packs).
    after: Vec<(&'static str, Vec<u8>)>,
    args: Vec<OsString>,
    code: i32,
    /// Every piece must appear in stderr.
    expect: Vec<String>,
}

fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// `prep session.toml --out out` with extra arguments.
fn prep(extra: &[&str]) -> Vec<OsString> {
    prep_args("session.toml", "out", extra)
}

fn session_with(party: &str) -> Vec<u8> {
    SESSION
        .replace("party = \"3,4,4,5\"", &format!("party = \"{party}\""))
        .into_bytes()
}

/// A fixture file's bytes, to copy into a case's folder.
fn fs_party(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

/// The one thing a content case must say besides its problems.
const VALIDATE_AGAIN: &str = "fix them and run `tablewright validate` again";

/// A case run in a folder holding only the session, that must exit with 1.
fn refusal(class: &'static str, args: Vec<OsString>, expect: &[&str]) -> Case {
    Case {
        class,
        files: vec![("session.toml", SESSION.into())],
        before: vec![],
        prepare: None,
        after: vec![],
        args,
        code: 1,
        expect: strings(expect),
    }
}

/// A content case: `prep` with a fixture folder from tests/fixtures/invalid.
fn content(class: &'static str, folder: &str, expect: &[&str]) -> Case {
    let folder = fixture(&format!("invalid/{folder}"));
    let mut case = refusal(class, prep(&["--content", &folder]), expect);
    case.expect.push(VALIDATE_AGAIN.into());
    case
}

/// A content case from a table written into the folder (`tables/t.toml`).
fn table(class: &'static str, toml: &str, expect: &[&str]) -> Case {
    let mut case = refusal(class, prep(&["--content", "tables"]), expect);
    case.files.push(("tables/t.toml", toml.as_bytes().to_vec()));
    case.expect.push(VALIDATE_AGAIN.into());
    case
}

fn roll(class: &'static str, expr: &str, expect: &[&str]) -> Case {
    refusal(class, args(&["roll", "--seed", "s", expr]), expect)
}

/// `prep` in a folder holding `files`.
fn session_case(class: &'static str, files: Vec<(&'static str, Vec<u8>)>, expect: &[&str]) -> Case {
    Case {
        files,
        ..refusal(class, prep(&[]), expect)
    }
}

/// A table file that extends trap effect table `id` with one row.
fn trap_effect(id: &str, name: &str, tags: &str, effect: &str) -> String {
    format!(
        "[[table]]\nextends = \"{id}\"\n\n[[table.row]]\nweight = 1\nname = \"{name}\"\ntext = \"It goes off.\"\ntags = [\"{tags}\", \"place:built\"]\neffects = [{effect}]\n\n"
    )
}

const TABLE_HEAD: &str =
    "[[table]]\nid = \"fx.t\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\n";

/// A saved map (as `gen map --json` writes it) with `start` and `paths` as
/// given: four stops in a square, a stop or path a line (line 1 `{`, lines
/// 3-6 the stops, paths from line 8, `start` and `goal` on the last two
/// lines before `}`).
fn saved_map(start: usize, paths: &str) -> Vec<u8> {
    let stop = |id: usize, x: u32, y: u32| {
        format!(
            "{{\"id\":{id},\"name\":\"S{id}\",\"kind\":\"camp\",\"terrain\":\"road\",\"hook\":\"\",\"x\":{x}.0,\"y\":{y}.0}}"
        )
    };
    let stops = [stop(0, 1, 1), stop(1, 5, 1), stop(2, 5, 5), stop(3, 1, 5)].join(",\n");
    format!("{{\n\"size\":6.0,\"stops\":[\n{stops}\n],\"paths\":[\n{paths}\n],\n\"start\":{start},\n\"goal\":2\n}}")
        .into_bytes()
}

/// Paths around the square of [`saved_map`], each 4 regions long, joined
/// a line each.
fn saved_ring() -> String {
    [(0, 1), (1, 2), (2, 3), (3, 0)]
        .map(|(a, b)| saved_path(a, b, 4))
        .join(",\n")
}

/// A path of a saved map from `a` to `b`, `regions` long.
fn saved_path(a: usize, b: usize, regions: u32) -> String {
    let watches = regions.div_ceil(2);
    format!(
        "{{\"a\":{a},\"b\":{b},\"regions\":{regions},\"watches\":{watches},\"days\":{},\"terrain\":\"road\",\"difficulty\":1,\"difficulty_word\":\"Easy\"}}",
        watches.div_ceil(2)
    )
}

/// `gen journey` on a saved map in the case folder.
fn journey_case(class: &'static str, map: Vec<u8>, expect: &[&str]) -> Case {
    let mut case = refusal(
        class,
        args(&["gen", "journey", "--map", "map.json", "--seed", "s"]),
        expect,
    );
    case.files.push(("map.json", map));
    case
}

fn cases() -> Vec<Case> {
    let mut cases = vec![
        // Malformed TOML: in a table file and in the session file.
        content(
            "malformed table TOML",
            "malformed",
            &["malformed/tables.toml:3:23: this is not valid TOML"],
        ),
        session_case(
            "malformed session TOML",
            vec![("session.toml", b"title = \"Bad\nparty = \"3,4\"\n".to_vec())],
            &["session.toml:1:", "the session file is not valid"],
        ),
        // Unknown keys, with a suggestion.
        content(
            "unknown table key",
            "unknown_key",
            &[
                "unknown_key/tables.toml:10:1: unknown key `nmae` in a [[table.row]]\n    nmae = \"Typo\"\n    ^^^^\n",
                "hint: did you mean `name`?",
            ],
        ),
        session_case(
            "session season misspelled",
            vec![(
                "session.toml",
                format!("{SESSION}season = \"wintr\"\n").into_bytes(),
            )],
            &[
                "session.toml:8:10: the session file is not valid: unknown variant `wintr`",
                "hint: did you mean `winter`?",
            ],
        ),
        session_case(
            "unknown session key",
            vec![(
                "session.toml",
                format!("{SESSION}encountres = 2\n").into_bytes(),
            )],
            &["session.toml:8:1:", "`encountres`", "encounters"],
        ),
        // Tables whose rows do not fit their die.
        content(
            "gap",
            "gap",
            &[
                "gap/tables.toml:2:6: [fx.gap] no row covers 3-4",
                "hint: add rows for these results, or widen a neighbour's range",
            ],
        ),
        content(
            "overlap",
            "overlap",
            &["overlap/tables.toml:14:8: [fx.overlap] row `3-6` overlaps row `1-4` on 3-4"],
        ),
        content(
            "outside",
            "outside",
            &["outside/tables.toml:14:8: [fx.outside] row `13-14` falls outside d12 (1-12)"],
        ),
        content(
            "zero weight",
            "weight",
            &["weight/tables.toml:8:10: [fx.weight] weight 0 is not positive"],
        ),
        table(
            "negative weight",
            &format!("{TABLE_HEAD}\n[[table.row]]\nweight = -3\nname = \"A\"\ntext = \"a\"\n"),
            &[
                "tables/t.toml:8:10: [fx.t] weight -3 is not positive\n    weight = -3\n             ^^\n",
            ],
        ),
        table(
            "dice typo in a table's die",
            &format!(
                "{TABLE_HEAD}dice = \"2d6q\"\n\n[[table.row]]\nroll = \"1-12\"\nname = \"A\"\ntext = \"a\"\n"
            ),
            &[
                "tables/t.toml:6:12: [fx.t] dice `2d6q`: `q` is not a modifier of a die\n    dice = \"2d6q\"\n               ^\n",
                "hint: after a die: `!` `!!`",
            ],
        ),
        // References.
        content(
            "unknown reference",
            "reference",
            &[
                "reference/tables.toml:11:22: [fx.reference] row `Typo` refers to `{table:core.mutaton}`, which does not exist",
                "hint: did you mean `core.mutation`?",
            ],
        ),
        content(
            "reference cycle",
            "cycle",
            &["[fx.a] tables refer to each other in a loop: fx.a → fx.b → fx.a"],
        ),
        // Roll-again rows that never end.
        content(
            "roll again forever",
            "rollagain",
            &["[fx.rollagain] every row says to roll again, so a roll never ends"],
        ),
        content(
            "roll again breeds",
            "breeding",
            &["[fx.breeding] roll-again rows ask for 5.00 new rolls per roll on average"],
        ),
        // Dice typos: on the command line (with a caret) and in a table.
        roll(
            "dice typo",
            "2d6q4",
            &[
                "cannot read `2d6q4` (column 4): `q` is not a modifier of a die",
                "\n       ^",
                "hint:",
            ],
        ),
        content(
            "dice typo in a table",
            "dice",
            &[
                "dice/tables.toml:11:18: [fx.dice] `{2d6q}`: `q` is not a modifier of a die\n    text = \"Lose {2d6q} mettle.\"\n                     ^\n",
            ],
        ),
        // Peers' notation this one refuses: named, with what to write.
        roll(
            "explode once",
            "2d6xo",
            &[
                "(column 4): explode once (`xo`) is not supported",
                "hint: write `!!` to explode on every maximum",
            ],
        ),
        roll(
            "math function",
            "floor(2d6/2)",
            &[
                "(column 1): the math function `floor(…)` is not supported",
                "hint: halving here rounds up",
            ],
        ),
        roll(
            "power operator",
            "2d6^2",
            &["(column 4): powers (`^`) is not supported"],
        ),
        roll(
            "reroll forever",
            "d6r<=6",
            &["every face of `d6r<=6` is rerolled, so it would reroll forever"],
        ),
        roll(
            "explode forever",
            "d6!>=1",
            &["every throw of `d6!>=1` explodes, so it would explode forever"],
        ),
        roll(
            "drop every die",
            "2d6dl2",
            &["cannot drop 2 of 2 dice", "hint: drop between 1 and 1"],
        ),
        roll(
            "failures without successes",
            "5d10f1",
            &["failures are counted against successes: write the success first"],
        ),
        roll(
            "open group",
            "{2d6,3d6",
            &["expected `,` or `}` in a group, found the end"],
        ),
        refusal(
            "odds of a huge unlike group keeping several, priced up front",
            args(&["odds", "{20d10,19d10,18d10,17d10}kh3"]),
            &["exact odds would need about", "steps for this Roll; that is past the limit for exact odds"],
        ),
        // Absurd dice.
        roll(
            "absurd dice count",
            "1000000d1000000",
            &[
                "(column 1): 1000000 dice is too many; the limit is 10000",
                "hint: the limits are 10,000 dice per Roll",
            ],
        ),
        roll(
            "absurd die",
            "d0",
            &[
                "(column 2): a die needs at least one side",
                "hint: e.g. `d6`",
            ],
        ),
        roll(
            "absurd number",
            "999999999999999999999d6",
            &[
                "999999999999999999999 dice is too many",
                "hint: the limits are",
            ],
        ),
        table(
            "absurd dice in a table",
            &format!(
                "{TABLE_HEAD}\n[[table.row]]\nweight = 1\nname = \"A\"\ntext = \"{{1000000d1000000}} gold\"\n"
            ),
            &[
                "tables/t.toml:10:",
                "1000000 dice is too many",
                "\n    text = \"{1000000d1000000} gold\"\n             ^^^^^^^\n",
            ],
        ),
        // Tables that would leave a Core pack without its own words: a
        // tile with no Core rule, a Core trap effect with no save, a METTLE
        // hazard with no Core reading.
        table(
            "tile without a rule in a system",
            "[[table]]\nid = \"gen.tile_rules.core\"\ntitle = \"T\"\nsystem = \"core\"\nsource = \"fixture\"\n\n[[table.row]]\nweight = 1\nname = \"PIT\"\ntext = \"A hole: AGI save or fall.\"\n",
            &[
                "tables/t.toml:7:1: [gen.tile_rules.core] no rule for `RAIN, light` (acs.tiles), which an encounter can lay",
                "no rule for `Falling debris` (acs.sporadics)",
                "hint: add a [[table.row]] named `RAIN, light` with its rule in this system's terms",
            ],
        ),
        table(
            "Core trap effect without a save",
            "[[table]]\nid = \"gen.trap.core.effect\"\ntitle = \"T\"\nsystem = \"core\"\nsource = \"fixture\"\n\n[[table.row]]\nweight = 1\nname = \"Darts\"\ntext = \"Darts fly.\"\neffects = [{ damage = \"d6!\" }]\n",
            &[
                "tables/t.toml:7:1: [gen.trap.core.effect] Core trap effect `Darts` names no save",
                "hint: add an effect with `save = \"AGI\"`",
            ],
        ),
        table(
            "METTLE hazard without a Core reading",
            "[[table]]\nid = \"gen.encounter.swamp\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\n\n[[table.row]]\nweight = 1\nname = \"Mire\"\ntext = \"Sucking mud.\"\neffects = [{ hazard = \"3D+2\" }]\n",
            &[
                "tables/t.toml:7:1: [gen.encounter.swamp] row `Mire` has a METTLE hazard but no Core Rules reading",
                "hint: add an effect such as `{ save = \"AGI\", damage = \"d8!\" }`",
            ],
        ),
        // Traps that cannot hang together (issue 50).
        table(
            "trap effect whose mechanism no clue shows",
            &format!(
                "{}{}",
                trap_effect("gen.trap.effect", "Lava jet", "mech:lava", "{ hazard = \"3D\", vs = \"POISE\" }"),
                trap_effect("gen.trap.core.effect", "Lava jet", "mech:lava", "{ save = \"AGI\", damage = \"d6!\" }"),
            ),
            &[
                "tables/t.toml:4:1: [gen.trap.effect] no clue points at mech:lava of trap effect `Lava jet` in ruins, town, underground",
                "hint: add a row tagged `mech:lava` to gen.trap.clue that fits those terrains",
            ],
        ),
        table(
            "trap effect no trigger can spring",
            &format!(
                "{}{}",
                trap_effect("gen.trap.effect", "Tongue needle", "mech:needle\", \"touch:tongue", "{ hazard = \"3D\", vs = \"POISE\" }"),
                trap_effect("gen.trap.core.effect", "Tongue needle", "mech:needle\", \"touch:tongue", "{ save = \"AGI\", damage = \"d6!\" }"),
            ),
            &[
                "tables/t.toml:4:1: [gen.trap.effect] no trigger can spring trap effect `Tongue needle` in ruins, town, underground",
                "hint: a trigger there must carry by:<kind> for each of its touch: tags (tongue)",
            ],
        ),
        table(
            "trap effects of the two systems differ",
            &format!(
                "{}{}",
                trap_effect("gen.trap.effect", "Lava jet", "mech:fire", "{ hazard = \"3D\", vs = \"POISE\" }"),
                trap_effect("gen.trap.core.effect", "Darts", "mech:darts\", \"place:wild", "{ save = \"AGI\", damage = \"d6!\" }"),
            ),
            &[
                "tables/t.toml:4:1: [gen.trap.effect] trap effect `Lava jet` is in `gen.trap.effect` but not in `gen.trap.core.effect`",
                "hint: a trap is the same trap in either system: add a row named `Lava jet` to `gen.trap.core.effect`",
                "tables/t.toml:14:1: [gen.trap.core.effect] trap effect `Darts` is tagged [mech:darts, place:built, place:wild] here but [mech:darts, place:built] in `gen.trap.effect`",
            ],
        ),
        table(
            "trap effect that needs an unknown kind of trigger",
            &format!(
                "{}{}",
                trap_effect("gen.trap.effect", "Sluice", "mech:flood\", \"touch:rom", "{ hazard = \"3D\", vs = \"POISE\" }"),
                trap_effect("gen.trap.core.effect", "Sluice", "mech:flood\", \"touch:rom", "{ save = \"AGI\", damage = \"d6!\" }"),
            ),
            &[
                "tables/t.toml:4:1: [gen.trap.effect] row `Sluice` is tagged `touch:rom`, but `rom` is no kind of trigger",
                "did you mean `touch:room`?",
                "a trigger's by: tags and an effect's touch: and never: tags name one of: foot, wire, cross",
            ],
        ),
        table(
            "trap effect with a tag no trap reads",
            &format!(
                "{}{}",
                trap_effect("gen.trap.effect", "Darts", "mech:darts\", \"onse", "{ hazard = \"3D\", vs = \"POISE\" }"),
                trap_effect("gen.trap.core.effect", "Darts", "mech:darts\", \"onse", "{ save = \"AGI\", damage = \"d6!\" }"),
            ),
            &[
                "tables/t.toml:4:1: [gen.trap.effect] trap effect `Darts` is tagged `onse`, which no trap reads",
                "did you mean `once`?",
            ],
        ),
        table(
            "trap effect that needs its keepers, misspelt",
            &trap_effect(
                "gen.trap.effect",
                "Bells",
                "mech:alarm\", \"alarm\", \"keeper",
                "{ hazard = \"4D\", vs = \"POISE\" }",
            ),
            &[
                "tables/t.toml:4:1: [gen.trap.effect] trap effect `Bells` is tagged `keeper`, which no trap reads",
                "did you mean `keepers`?",
                "an effect's tags are mech:, place:, terrain:, touch:, never:, era: and the words alarm, once, keepers",
            ],
        ),
        table(
            "way to deal with a trap that does nothing known",
            "[[table]]\nextends = \"gen.trap.disarm\"\n\n[[table.row]]\nweight = 1\nname = \"Fill it in\"\ntext = \"Shovel earth into the pit.\"\ntags = [\"mech:pit\", \"do:disram\"]\n",
            &[
                "tables/t.toml:4:1: [gen.trap.disarm] row `Fill it in` is tagged `do:disram`, which is nothing a party does to a trap",
                "did you mean `do:disarm`?",
                "a do: tag is one of: do:find, do:disarm, do:bypass, do:reset",
            ],
        ),
        table(
            "mechanism on a table that holds no trap",
            &format!("{TABLE_HEAD}\n[[table.row]]\nweight = 1\nname = \"Hole\"\ntext = \"A hole.\"\ntags = [\"mech:pit\"]\n"),
            &[
                "tables/t.toml:7:1: [fx.t] row `Hole` is tagged `mech:pit`, but only a trap table's rows have a mechanism",
                "hint: mech: tags belong to gen.trap.trigger, gen.trap.clue, gen.trap.effect, gen.trap.core.effect, gen.trap.disarm, mettle.traps",
            ],
        ),
        table(
            "trait row for no archetype",
            "[[table]]\nextends = \"gen.npc.manner\"\n\n[[table.row]]\nweight = 1\nname = \"Wipes the bar\"\ntext = \"wipes the bar while listening\"\ntags = [\"townsfolk\", \"for:inkeeper\"]\n",
            &[
                "tables/t.toml:4:1: [gen.npc.manner] row `Wipes the bar` is tagged `for:inkeeper`, but no archetype is named `inkeeper`",
                "did you mean `for:innkeeper`?",
            ],
        ),
        // Stat blocks out of the rules' bounds: a party file, a pool
        // summary, a Core Rules character sheet.
        session_case(
            "stat block out of bounds",
            vec![
                ("session.toml", session_with("party.toml")),
                ("party.toml", GIANT_PARTY.into()),
            ],
            &[
                "party.toml:12:11: Viktor: CULTURE 40 is outside 1-12\n    CULTURE = 40\n              ^^\n",
                "party.toml:16:9: Viktor: Armor 9 is more than 6",
                "hint: METTLE attributes and CALLINGS are 1-12 dice",
            ],
        ),
        session_case(
            "pool summary out of bounds",
            vec![("session.toml", session_with("3,40"))],
            &[
                "session.toml:5:9: `3,40`: PC 2 is 40, outside 1-12",
                "\n    party = \"3,40\"\n            ^^^^^^\n",
                "    hint: each number is one PC's value",
            ],
        ),
        Case {
            files: vec![],
            ..refusal(
                "character sheet out of bounds",
                args(&[
                    "gen",
                    "injury",
                    "--character",
                    &fixture("characters/giant.toml"),
                ]),
                &[
                    "giant.toml:2:7: Too strong: STR 25 is outside 0-19\n    STR = 25\n          ^^\n",
                    "\nhint: the Core Rules keep abilities at 0-19",
                ],
            )
        },
        // A session naming a party file that is not there.
        session_case(
            "missing party file",
            vec![("session.toml", session_with("friends/party.toml"))],
            &[
                "session.toml:5:9: the party file `friends/party.toml` does not exist (it is read relative to the session file)",
                "hint: check the path",
            ],
        ),
        // A session asking for what its system does not have: Core Rules
        // slips in a METTLE pack, METTLE vouchers in a Core pack, PCs of
        // the other system in the party. Refused before anything is rolled,
        // naming what the system offers instead.
        session_case(
            "Core injuries and mutations in a METTLE session",
            vec![(
                "session.toml",
                format!("{SESSION}injuries = 2\nmutations = 1\n").into_bytes(),
            )],
            &[
                "session.toml:8:12: injuries = 2: injury slips are Core Rules; METTLE has no injury table (its harm is lost Mettle and the Fallen or Staggered status",
                "\n    injuries = 2\n               ^\n",
                "session.toml:9:13: mutations = 1: mutations come from Core Rules corruption, which METTLE does not have",
                "make this a Core session (system = \"core\")",
            ],
        ),
        session_case(
            "METTLE vouchers in a Core session",
            vec![(
                "session.toml",
                SESSION
                    .replace("\"mettle\"", "\"core\"")
                    .replace("3,4,4,5", "10,11,12,9")
                    .replace("npcs = 1\n", "npcs = 1\nvouchers = [\"Sybilla\"]\n")
                    .into_bytes(),
            )],
            &[
                "session.toml:8:12: downtime vouchers are METTLE's; the Core Rules spend downtime on a full rest instead",
                "make this a METTLE session (system = \"mettle\")",
            ],
        ),
        session_case(
            "Core PCs in a METTLE session's party",
            vec![
                ("session.toml", session_with("party.toml")),
                (
                    "party.toml",
                    format!(
                        "{}\n[[core]]\nname = \"Sybilla\"\nSTR = 8\nAGI = 10\nWIT = 12\n",
                        GIANT_PARTY
                            .replace("CULTURE = 40", "CULTURE = 4")
                            .replace("armor = 9", "armor = 1")
                    )
                    .into_bytes(),
                ),
            ],
            &[
                "session.toml:5:9: the party file `party.toml` holds PCs of another system, but this is a METTLE session",
                "party.toml:19:8: Sybilla is a Core Rules sheet ([[core]])\n    name = \"Sybilla\"\n           ^^^^^^^^^\n",
                "hint: a METTLE party is [[mettle]] stat blocks (NATURE, CULTURE, POISE, MOTIVE, FRAME, CALLINGS)",
            ],
        ),
        session_case(
            "METTLE PCs in a Core session's party",
            vec![
                (
                    "session.toml",
                    String::from_utf8(session_with("party.toml"))
                        .unwrap()
                        .replace("\"mettle\"", "\"core\"")
                        .into_bytes(),
                ),
                ("party.toml", fs_party(&fixture("party.toml"))),
            ],
            &[
                "session.toml:5:9: the party file `party.toml` holds PCs of another system, but this is a Core Rules session",
                "party.toml:3:8: Viktor is a METTLE stat block ([[mettle]])",
                "party.toml:14:8: Kirin is a METTLE stat block ([[mettle]])",
                "hint: a Core Rules party is [[core]] sheets (STR, AGI, WIT, health, armour, damage die)",
            ],
        ),
        // Saved maps whose numbers do not hold together: refused, never a
        // panic (index out of range) or a path that takes for ever; each
        // problem at its value's line and column, one case per limit.
        journey_case(
            "saved map goal out of range",
            String::from_utf8(saved_map(0, &saved_path(0, 1, 4)))
                .unwrap()
                .replace("\"goal\":2", "\"goal\":4294967295")
                .into_bytes(),
            &[
                "the map `map.json` cannot be walked:",
                "map.json:11:8: goal: the goal is stop 4294967295, but the stops run 0-3",
                "\"goal\":4294967295\n           ^^^^^^^^^^",
                "hint: fix the value in the file, or save the map again",
            ],
        ),
        journey_case(
            "saved map start out of range",
            saved_map(99, &saved_ring()),
            &["map.json:13:9: start: the start is stop 99, but the stops run 0-3"],
        ),
        journey_case(
            "saved map path end out of range",
            saved_map(0, &[saved_path(0, 1, 4), saved_path(1, 7, 4)].join(",\n")),
            &["map.json:9:12: paths[1].b: path 1 joins stops 1 and 7, but the stops run 0-3"],
        ),
        journey_case(
            "saved map path of endless length",
            saved_map(0, &saved_ring().replace("\"regions\":4,\"watches\":2,\"days\":1", "\"regions\":4294967295,\"watches\":2147483648,\"days\":1073741824")),
            &["map.json:8:24: paths[0].regions: path 0 is 4294967295 regions long; at most 1000"],
        ),
        journey_case(
            "saved map path whose watches do not follow from its regions",
            saved_map(0, &saved_ring().replacen("\"watches\":2", "\"watches\":10000000", 3)),
            &[
                "map.json:8:36: paths[0].watches: path 0: 4 regions take 2 watches over 1 day, not 10000000 watches over 1 day",
                "map.json:10:36: paths[2].watches:",
            ],
        ),
        journey_case(
            "saved map without stops",
            b"{\"size\":6.0,\n \"stops\": [],\"paths\":[],\"start\":0,\"goal\":0}".to_vec(),
            &["map.json:2:11: stops: the map has 0 stops; a map has 4 to 300"],
        ),
        journey_case(
            "saved map with more paths than a flat map holds",
            saved_map(0, &vec![saved_ring(); 1000].join(",\n")),
            &[
                "map.json:20:1: paths[12]: a flat map of 4 stops holds at most 12 paths; this one has more",
            ],
        ),
        journey_case(
            "saved map with a value of the wrong type",
            saved_map(0, &saved_ring().replace("\"b\":2,\"regions\":4", "\"b\":2,\"regions\":\"four\"")),
            &[
                "map.json:9:24: this is not a map saved by `gen map --json`: paths[1].regions: invalid type: string \"four\", expected u32",
            ],
        ),
        journey_case(
            "saved report whose map lacks a field",
            format!(
                "{{\"seed\": \"s\", \"kind\": \"map\", \"items\": [\n{}]}}",
                String::from_utf8(saved_map(0, &saved_ring())).unwrap().replace(",\"kind\":\"camp\"", "")
            )
            .into_bytes(),
            &["map.json:4:1: this is not a map saved by `gen map --json`: items[0].stops[0]: missing field `kind`"],
        ),
        // The journey's supplies: [map] rations, water and kits, a party's
        // water capacity, and the same on the command line.
        session_case(
            "session journey rations past the limit",
            vec![(
                "session.toml",
                format!("{SESSION}[map]\njourney = true\nrations = 99\n").into_bytes(),
            )],
            &["session.toml:10:11: rations = 99: a PC carries at most 30"],
        ),
        session_case(
            "session journey water past the limit",
            vec![(
                "session.toml",
                format!("{SESSION}[map]\njourney = true\nwater = 40\n").into_bytes(),
            )],
            &["session.toml:10:9: water = 40: a PC carries at most 30"],
        ),
        session_case(
            "session journey unknown kit",
            vec![(
                "session.toml",
                format!("{SESSION}[map]\njourney = true\nkits = [\"fishing\", \"boat\"]\n")
                    .into_bytes(),
            )],
            &["session.toml:10:20: unknown kit `boat`; the kits are fishing, trapping, camping"],
        ),
        session_case(
            "party water capacity out of range",
            vec![
                ("session.toml", session_with("party.toml")),
                (
                    "party.toml",
                    b"water_capacity = 0\n[[mettle]]\nname = \"Kirin\"\nNATURE = 2\nCULTURE = 3\nPOISE = 5\nMOTIVE = 3\nFRAME = 2\n".to_vec(),
                ),
            ],
            &[
                "party.toml:1:18: water_capacity = 0: each PC carries 1 to 30 units of water",
                "hint: set how many units of water each PC can carry",
            ],
        ),
        refusal(
            "journey water capacity out of range",
            args(&[
                "gen", "journey", "--map", &fixture("maps/h42.json"), "--seed", "s",
                "--water-capacity", "0",
            ]),
            &["--water-capacity 0: each PC carries 1 to 30 units of water"],
        ),
        refusal(
            "journey water over capacity",
            args(&[
                "gen", "journey", "--map", &fixture("maps/h42.json"), "--seed", "s",
                "--water", "5", "--water-capacity", "3",
            ]),
            &["water 5: more than the party's water capacity of 3 a PC"],
        ),
        refusal(
            "journey unknown kit",
            args(&[
                "gen", "journey", "--map", &fixture("maps/h42.json"), "--seed", "s",
                "--kits", "boat",
            ]),
            &["unknown kit `boat`; the kits are fishing, trapping, camping"],
        ),
        // A list of entries written as a count, and a count as a list: the
        // hint names the other key.
        session_case(
            "session entry list written as a count",
            vec![("session.toml", format!("{SESSION}trap = 3  # three traps\n").into_bytes())],
            &[
                "session.toml:8:8: the session file is not valid: invalid type: integer `3`, expected a sequence",
                "hint: for a number of traps, write `traps = 3`; a `[[trap]]` table sets up one trap",
            ],
        ),
        session_case(
            "session count written as a list",
            vec![(
                "session.toml",
                SESSION.replace("npcs = 1", "npcs = [\"guard\"]").into_bytes(),
            )],
            &[
                "session.toml:7:8: the session file is not valid: invalid type: sequence, expected usize",
                "hint: `npcs` is a number; to set up one NPC, write a `[[npc]]` table for it",
            ],
        ),
        // A session asking for more than a pack holds.
        session_case(
            "session past its limits",
            vec![(
                "session.toml",
                format!("{SESSION}traps = 100000\n[map]\nstops = 3\n").into_bytes(),
            )],
            &[
                "session.toml:8:9: traps = 100000: a pack holds at most 50",
                "session.toml:10:9: stops = 3: a map has 4 to 300 stops",
                "hint:",
            ],
        ),
        session_case(
            "session map with more stops than its terrains have places",
            vec![
                (
                    "session.toml",
                    format!("content = \"content\"\n{SESSION}[map]\nstops = 40\nterrains = [\"road\"]\n")
                        .into_bytes(),
                ),
                // Composed places only for towns: the road has its 15
                // points of interest and nothing more.
                (
                    "content/places.toml",
                    "[[table]]\nid = \"gen.place.trouble\"\ntitle = \"T\"\nsystem = \"any\"\n\
                         source = \"fixture\"\n[[table.row]]\nweight = 1\nname = \"t\"\n\
                         text = \"a trouble.\"\ntags = [\"town\"]\n"
                    .as_bytes().to_vec(),
                ),
            ],
            &[
                "session.toml:10:9: a map of 40 stops needs 40 different places, but `gen.poi`, `gen.place.site` and `gen.place.trouble` make only 15 for road",
                "stops = 40",
            ],
        ),
        // Files that are not UTF-8.
        content(
            "non-UTF-8 table",
            "non_utf8",
            &["non_utf8/tables.toml:3:13: the file is not UTF-8 text"],
        ),
        session_case(
            "non-UTF-8 session",
            vec![(
                "session.toml",
                b"title = \"Caf\xe9\"\nparty = \"3\"\n".to_vec(),
            )],
            &[
                "session.toml:1:13: the session file is not UTF-8 text",
                "hint: save it as UTF-8",
            ],
        ),
        // Output folders that cannot take the pack.
        session_case(
            "output folder is a file",
            vec![
                ("session.toml", SESSION.into()),
                ("out", b"not a folder".to_vec()),
            ],
            &["out is a file, not a folder", "choose another --out folder"],
        ),
        Case {
            before: vec![prep(&[])],
            prepare: Some(|dir| {
                // One handout of the written pack becomes a folder.
                let pack = only_entry(&dir.join("out"));
                std::fs::remove_file(pack.join("npc-1.md")).unwrap();
                std::fs::create_dir(pack.join("npc-1.md")).unwrap();
            }),
            ..refusal(
                "handout name taken by a folder",
                prep(&["--force"]),
                &["is a folder, so no handout can be written there"],
            )
        },
        // An existing pack of another session file with the same seed:
        // refused without --force, untouched (a pack's own session file
        // changed, its files are made again).
        Case {
            files: vec![
                ("session.toml", SESSION.into()),
                ("other.toml", SESSION.replace("npcs = 1", "npcs = 2").into_bytes()),
            ],
            before: vec![prep(&[])],
            ..refusal(
                "existing files",
                prep_args("other.toml", "out", &[]),
                &[
                    "refusing to overwrite",
                    "pack.pdf",
                    "pass --force to replace them",
                ],
            )
        },
        // Seeds that cannot go on a handout.
        refusal(
            "seed with a control character",
            prep(&["--seed", "goblin\u{7}night"]),
            &["--seed: the seed has a control character at position 7; use printable text only"],
        ),
        refusal(
            "seed of thousands of characters",
            prep(&["--seed", &"goblin".repeat(1000)]),
            &["--seed: the seed is 6000 characters long; keep it to 200 or fewer"],
        ),
        session_case(
            "seed with a control character in the session file",
            vec![(
                "session.toml",
                SESSION.replace("bad-input", "bad\\tinput").into_bytes(),
            )],
            &[
                "session.toml:2:8: the seed has a control character at position 4",
            ],
        ),
        // Usage mistakes exit with 2.
        Case {
            code: 2,
            ..refusal(
                "unknown paper size",
                prep(&["--paper", "a3"]),
                &["invalid value 'a3'", "a4", "letter"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "unknown Markdown flavour",
                prep(&["--md", "nonsense"]),
                &["invalid value 'nonsense'", "gfm", "obsidian", "homebrewery"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "completions for an unknown shell",
                args(&["completions", "nonsense"]),
                &["invalid value 'nonsense'", "bash", "zsh", "fish"],
            )
        },
        // A trap asked for in terms its system does not have.
        Case {
            code: 2,
            ..refusal(
                "POISE for a Core trap",
                args(&["gen", "trap", "--system", "core", "--poise", "3"]),
                &[
                    "gen trap: --poise is METTLE's; a Core Rules trap's odds are for the party's STR, AGI and WIT (give --party)",
                ],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "rules trap for the Core Rules",
                args(&["gen", "trap", "--system", "core", "--from", "rules"]),
                &["gen trap: --from rules: the Core Rules have no traps of their own"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "trap odds for both POISE and a party",
                args(&["gen", "trap", "--poise", "2", "--party", "3,4"]),
                &["gen trap: give --poise or --party, not both"],
            )
        },
        refusal(
            "trap party out of bounds",
            args(&["gen", "trap", "--system", "core", "--party", "10,40"]),
            &["--party: `10,40`: PC 2 is 40, outside 1-15"],
        ),
        // Addresses (issue 16): --only, --reroll, [rerolls], gen --item.
        Case {
            code: 2,
            ..refusal(
                "--only an address the session lacks",
                prep(&["--only", "encounter/3"]),
                &["prep: `encounter/3`: the session has encounter/1 to encounter/1"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "--only something that is not an address",
                prep(&["--only", "encounter-2"]),
                &["`encounter-2` is not an item's address", "such as `encounter/2`"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "--reroll an unknown kind",
                prep(&["--reroll", "dragon/1"]),
                &["`dragon/1`: a pack has no `dragon` items; the kinds are encounter, trap"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "--reroll a voucher the session lacks",
                prep(&["--reroll", "voucher/1"]),
                &["`voucher/1`: the session asks for no voucher items"],
            )
        },
        session_case(
            "[rerolls] naming no item",
            vec![(
                "session.toml",
                format!("{SESSION}\n[rerolls]\n\"npc/4\" = 1\n").into_bytes(),
            )],
            &[
                "session.toml:10:11: [rerolls] `npc/4`: the session has npc/1 to npc/1",
            ],
        ),
        session_case(
            "[rerolls] count past the limit",
            vec![(
                "session.toml",
                format!("{SESSION}\n[rerolls]\n\"encounter/1\" = 99999\n").into_bytes(),
            )],
            &["`encounter/1` = 99999: an item is rerolled at most 10000 times"],
        ),
        // Issue 39: a count past the limit made by the command line is in
        // no line of the file on disk: the flag is named, not a line.
        Case {
            code: 2,
            ..refusal(
                "--reroll asked past the limit",
                prep(&["--reroll", "npc/1"].repeat(10_001)),
                &["prep: --reroll npc/1 is asked 10001 time(s) on the command line, and the \
                   session's [rerolls] counts 0 for it: an item is rerolled at most 10000 \
                   times, so at most 10000 more; ask fewer (nothing was written)"],
            )
        },
        Case {
            code: 2,
            files: vec![(
                "session.toml",
                format!("{SESSION}\n[rerolls]\n\"npc/1\" = 9999\n").into_bytes(),
            )],
            ..refusal(
                "--reroll asked past what [rerolls] has left",
                prep(&["--reroll", "npc/1", "--reroll", "npc/1"]),
                &["prep: --reroll npc/1 is asked 2 time(s) on the command line, and the \
                   session's [rerolls] counts 9999 for it: an item is rerolled at most 10000 \
                   times, so at most 1 more"],
            )
        },
        session_case(
            "[rerolls] that is not a table of counts",
            vec![(
                "session.toml",
                format!("{SESSION}rerolls = 3\n").into_bytes(),
            )],
            &["session.toml:8:11: the session file is not valid"],
        ),
        // `check` ranges (issue 32): LOW-HIGH, whole numbers, low first.
        Case {
            code: 2,
            ..refusal(
                "check range high before low",
                args(&["check", "20-1", "--vs", "3"]),
                &["check POOL `20-1`: a range is two whole numbers from 0 to 1000, low first, e.g. `check 1-20 --vs 0-30`"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "check range missing its end",
                args(&["check", "5", "--vs", "0-"]),
                &["check --vs `0-`: a range is two whole numbers from 0 to 10000, low first"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "check range of ladder words",
                args(&["check", "5", "--vs", "routine-daunting"]),
                &["check --vs `routine-daunting`: a range is two whole numbers"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "check range of three numbers",
                args(&["check", "1-5-9", "--vs", "3"]),
                &["check POOL `1-5-9`: a range is two whole numbers"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "check range past the limit",
                args(&["check", "1-2000", "--vs", "3"]),
                &["check POOL `1-2000`: a range is two whole numbers from 0 to 1000"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "check grid of too many Checks",
                args(&["check", "0-1000", "--vs", "0-100"]),
                &["check: the ranges make a grid of 101101 Checks; at most 10000 (pools 1-20 by Difficulties 0-30 is 620)"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "check range raising more dice than its smallest pool",
                args(&["check", "1-20", "--vs", "0-30", "--raise", "2"]),
                &["check: cannot raise 2 dice from a pool of 1; raised dice come out of the pool"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen --item 0",
                args(&["gen", "encounter", "--item", "0"]),
                &["gen: --item 0: items are numbered from 1 to 1000"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen --item with --count",
                args(&["gen", "npc", "--item", "2", "--count", "3"]),
                &["cannot be used with"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen --session with the kind's own options",
                args(&["gen", "npc", "--terrain", "swamp", "--session", "session.toml", "--item", "1"]),
                &["gen npc --session: the session sets the item's request"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen --reroll without --item",
                args(&["gen", "trap", "--reroll", "1"]),
                &["gen: --reroll is about one item: give --item N too"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen --reroll past the limit",
                args(&["gen", "trap", "--item", "1", "--reroll", "10001"]),
                &["gen: --reroll 10001: an item is rerolled at most 10000 times"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen journey without --map or --session",
                args(&["gen", "journey", "--item", "1"]),
                &["gen journey: give --map FILE"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen forage --session",
                args(&["gen", "forage", "--session", "session.toml", "--item", "1"]),
                &["gen forage --session: a pack holds no foraging"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen --session address the session lacks",
                args(&["gen", "trap", "--session", "session.toml", "--item", "1"]),
                &["gen --session: `trap/1`: the session asks for no trap items"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "gen npc unknown terrain",
                args(&["gen", "npc", "--terrain", "moon"]),
                &["gen npc: --terrain moon: unknown terrain `moon`; choose one of forest, hills, road"],
            )
        },
        // Per-item settings.
        session_case(
            "[[encounter]] entries past the count",
            vec![(
                "session.toml",
                format!("{SESSION}[[encounter]]\n[[encounter]]\n").into_bytes(),
            )],
            &["session.toml:6:14: encounters = 1, but there are 2 [[encounter]] entries: the count is the total"],
        ),
        session_case(
            "[[encounter]] situation not in the table",
            vec![(
                "session.toml",
                format!("{SESSION}[[encounter]]\nsituation = \"Leech pol\"\n").into_bytes(),
            )],
            &[
                "session.toml:9:13: [[encounter]] 1: no situation `Leech pol` in the swamp encounters",
                "did you mean `Leech pool`?",
            ],
        ),
        session_case(
            "[[encounter]] unknown foe",
            vec![(
                "session.toml",
                format!("{SESSION}[[encounter]]\nfoes = [\"bandt\"]\n").into_bytes(),
            )],
            &["session.toml:9:9: [[encounter]] 1: no foe archetype `bandt`", "did you mean `bandit`?"],
        ),
        session_case(
            "[[injury]] entries past the count",
            vec![(
                "session.toml",
                format!(
                    "{}[[injury]]\npermanent = true\n[[injury]]\n",
                    SESSION.replace("system = \"mettle\"", "system = \"core\"").replace("3,4,4,5", "10,12,9,11")
                        + "injuries = 1\n"
                )
                .into_bytes(),
            )],
            &["session.toml:8:12: injuries = 1, but there are 2 [[injury]] entries: the count is the total"],
        ),
        session_case(
            "[[injury]] permanent not true or false",
            vec![(
                "session.toml",
                format!("{SESSION}[[injury]]\npermanent = \"yes\"\n").into_bytes(),
            )],
            &["session.toml:9:13: the session file is not valid: invalid type: string \"yes\", expected a boolean"],
        ),
        session_case(
            "[[injury]] name not in the table",
            vec![(
                "session.toml",
                format!(
                    "{}[[injury]]\nname = \"Concusion\"\n",
                    SESSION.replace("system = \"mettle\"", "system = \"core\"").replace("3,4,4,5", "10,12,9,11")
                )
                .into_bytes(),
            )],
            &[
                "session.toml:9:8: [[injury]] 1: no injury `Concusion` in the injury table",
                "did you mean `Concussion`?",
            ],
        ),
        session_case(
            "[[injury]] in a METTLE session",
            vec![(
                "session.toml",
                format!("{SESSION}[[injury]]\npermanent = true\n").into_bytes(),
            )],
            &["injuries = 1: injury slips are Core Rules"],
        ),
        session_case(
            "[[trap]] from nowhere",
            vec![(
                "session.toml",
                format!("{SESSION}[[trap]]\nfrom = \"attic\"\n").into_bytes(),
            )],
            &["session.toml:9:8: [[trap]] 1: from = \"attic\": a trap comes from rules, parts or any"],
        ),
        session_case(
            "[[npc]] tier off the scale",
            vec![(
                "session.toml",
                format!("{SESSION}[[npc]]\ntier = 4\n").into_bytes(),
            )],
            &["session.toml:9:8: [[npc]] 1: tier 4: tiers are 1 (minion), 2 (veteran) and 3 (boss)"],
        ),
        // Bundles and verify.
        session_case(
            "malformed bundle",
            vec![(
                "session.toml",
                b"seed = \"x\"\npaper = \"a4\"\n[tablewright]\nbundle = 1\n".to_vec(),
            )],
            &["session.toml:3:1: the bundle is not valid: missing field `version`"],
        ),
        session_case(
            "bundle with an unknown paper",
            vec![("session.toml", bundle_with_paper("a3"))],
            &["paper `a3` is neither a4 nor letter", "hint: leave the `paper` line out"],
        ),
        Case {
            code: 2,
            files: vec![("session.toml", bundle_with_paper("a4"))],
            ..refusal(
                "bundle with --seed",
                prep(&["--seed", "other"]),
                &["a bundle carries its own seed, tables and templates"],
            )
        },
        Case {
            code: 2,
            files: vec![("session.toml", bundle_with_paper("a4"))],
            ..refusal(
                "--reroll on a bundle",
                prep(&["--reroll", "encounter/1"]),
                &["prep --reroll edits a session file's [rerolls]; a bundle is a record of one pack"],
            )
        },
        refusal(
            "verify a folder without a bundle",
            args(&["verify", "."]),
            &["has no bundle.toml, so there is nothing to check it against", "hint: verify checks a pack folder made by `tablewright prep`"],
        ),
        // Homebrew (issue 15): regions, extensions, session folders, init.
        content(
            "typo'd foe tag",
            "foe_tag",
            &["foe_tag/tables.toml:5:1: [gen.encounter.road] row `Grey shadows` is tagged `foe:salt-wihgt`, but `gen.npc.mettle` has no archetype `salt-wihgt`"],
        ),
        table(
            "trait row with an unknown kind tag",
            "[[table]]\nextends = \"gen.npc.want\"\n\n[[table.row]]\nweight = 1\nname = \"Revenge\"\ntext = \"to see the bailiff hang\"\ntags = [\"humna\", \"townsfolk\"]\n",
            &[
                "tables/t.toml:4:1: [gen.npc.want] row `Revenge` is tagged `humna`, which is no archetype kind",
                "did you mean `human`?",
                "tag each row with the archetype kinds it fits: human, townsfolk",
            ],
        ),
        table(
            "place whose text names another terrain than it is drawn for",
            "[[table]]\nextends = \"gen.poi\"\n\n[[table.row]]\nweight = 1\nname = \"Reed Hermitage\"\ntext = \"A hermit's hut in the forest, on stilts.\"\ntags = [\"shrine\", \"forest\", \"swamp\"]\n",
            &[
                "tables/t.toml:4:1: [gen.poi] row `Reed Hermitage` says `forest` but is tagged `swamp` too: drawn for swamp, it would stand in the wrong land on swamp legs",
                "tag the row only with the terrains its text names",
            ],
        ),
        table(
            "trait row with an unknown need",
            "[[table]]\nextends = \"gen.npc.want\"\n\n[[table.row]]\nweight = 1\nname = \"Breath\"\ntext = \"a breath of air\"\ntags = [\"human\", \"needs:alife\"]\n",
            &[
                "tables/t.toml:4:1: [gen.npc.want] row `Breath` is tagged `needs:alife`, but the one need a trait row may have is `needs:alive`",
                "write `needs:alive` for a row that fits only the living",
            ],
        ),
        table(
            "trait row with an unknown body",
            "[[table]]\nextends = \"gen.npc.look\"\n\n[[table.row]]\nweight = 1\nname = \"Bubbles\"\ntext = \"bubbles rising through it\"\ntags = [\"monster\", \"body:shapless\"]\n",
            &[
                "tables/t.toml:4:1: [gen.npc.look] row `Bubbles` is tagged `body:shapless`, which is no body",
                "did you mean `body:shapeless`?",
                "a body is one of: person, shapeless, beast, bones, headless",
            ],
        ),
        table(
            "concept row for no archetype",
            "[[table]]\nextends = \"gen.npc.concept\"\n\n[[table.row]]\nweight = 1\nname = \"Salt seller\"\ntext = \"A salt seller.\"\ntags = [\"archetype:merchnat\"]\n",
            &[
                "tables/t.toml:4:1: [gen.npc.concept] row `Salt seller` is tagged `archetype:merchnat`, but `gen.npc.mettle` has no archetype `merchnat`",
                "did you mean `merchant`?",
            ],
        ),
        table(
            "returning face with a stray marker and tag",
            "[[table]]\nextends = \"gen.situation.returning\"\n\n[[table.row]]\nweight = 1\nname = \"Back\"\ntext = \"@nmae is back.\"\ntags = [\"was:fo\"]\n",
            &[
                "tables/t.toml:4:1: [gen.situation.returning] row `Back` says neither `was:foe` nor `was:card`",
                "row `Back` is tagged `was:fo`, which no returning face reads",
                "did you mean `was:foe`?",
                "row `Back` writes `@nmae`, which no returning face fills in",
                "did you mean `@name`?",
            ],
        ),
        content(
            "archetype in one system",
            "one_system",
            &["one_system/tables.toml:5:1: [gen.npc.core] archetype `salt-wight` is in `gen.npc.core` but not in `gen.npc.mettle`"],
        ),
        content(
            "reference bomb",
            "bomb",
            &["bomb/tables.toml:3:1: [fx.b01] one roll on this table makes 1.5e8 table rolls on average"],
        ),
        content(
            "reference chain too deep",
            "deep",
            &["deep/tables.toml:3:1: [fx.d01] a roll on this table follows 13 references deep"],
        ),
        table(
            "region key out of range",
            "[[table]]\nid = \"gen.encounter.bog\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\ndice = \"d2\"\n\n[table.region]\ndanger = 7\nencounter_chance = \"1-6\"\n\n[[table.row]]\nroll = \"1-2\"\nname = \"Mud\"\ntext = \"Mud.\"\n",
            &[
                "tables/t.toml:9:10: [gen.encounter.bog] danger = 7: a region's danger is 0 to 3",
                "tables/t.toml:10:20: [gen.encounter.bog] encounter_chance = \"1-6\" is not an x:y chance",
            ],
        ),
        table(
            "region setting not known",
            "[[table]]\nid = \"gen.encounter.bog\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\ndice = \"d2\"\n\n[table.region]\nsetting = \"indoors\"\n\n[[table.row]]\nroll = \"1-2\"\nname = \"Mud\"\ntext = \"Mud.\"\n",
            &[
                "tables/t.toml:9:11: [gen.encounter.bog] setting = \"indoors\" is not a setting",
                "did you mean `indoor`?",
            ],
        ),
        table(
            "situation layer tags no encounter reads",
            "[[table]]\nextends = \"gen.situation.twist\"\n\n[[table.row]]\nweight = 1\nname = \"Odd\"\ntext = \"x\"\ntags = [\"outdoors\"]\n\n[[table.row]]\nweight = 1\nname = \"Both\"\ntext = \"y\"\ntags = [\"outdoor\", \"indoor\"]\n\n[[table.row]]\nweight = 1\nname = \"Not\"\ntext = \"z\"\ntags = [\"not:fixtur\"]\n",
            &[
                "[gen.situation.twist] row `Odd` is tagged `outdoors`, which no encounter reads",
                "did you mean `outdoor`?",
                "[gen.situation.twist] row `Both` is tagged both `outdoor` and `indoor`",
                "[gen.situation.twist] row `Not` is tagged `not:fixtur`, which no encounter reads",
            ],
        ),
        table(
            "situation layer naming no terrain",
            "[[table]]\nextends = \"gen.situation.ending\"\n\n[[table.row]]\nweight = 1\nname = \"Reeds\"\ntext = \"x\"\ntags = [\"terrain:swmap\"]\n",
            &[
                "[gen.situation.ending] row `Reeds` is tagged `terrain:swmap`, but there is no terrain `swmap`",
                "the terrains are the gen.encounter.<name> tables: ",
                "did you mean `swamp`?",
            ],
        ),
        table(
            "weather row tag neither terrain nor sky",
            "[[table]]\nextends = \"gen.weather.autumn\"\n\n[[table.row]]\nweight = 1\nname = \"Squall\"\ntext = \"A squall off the sea.\"\ntags = [\"road\", \"rian\"]\n",
            &[
                "[gen.weather.autumn] row `Squall` is tagged `rian`, which is neither a terrain nor what the sky does",
                "a weather row's tags are the terrains it fits (",
                "rain, fog, wind, storm, snow, cold, night",
                "did you mean `rain`?",
            ],
        ),
        table(
            "situation weather need unknown or without sky",
            "[[table]]\nid = \"gen.encounter.cellar\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\ndice = \"d2\"\n\n[table.region]\nsetting = \"indoor\"\n\n[[table.row]]\nroll = \"1\"\nname = \"Gale\"\ntext = \"A gale.\"\ntags = [\"weather:strom\"]\n\n[[table.row]]\nroll = \"2\"\nname = \"Fog\"\ntext = \"Fog.\"\ntags = [\"weather:fog\"]\n",
            &[
                "tables/t.toml:11:1: [gen.encounter.cellar] row `Gale` needs weather `strom`, which no weather row says",
                "a situation's `weather:` tags name what the sky does: rain, fog, wind, storm, snow, cold, night",
                "did you mean `storm`?",
                "[gen.encounter.cellar] row `Fog` needs weather `fog`, but its region has no sky",
            ],
        ),
        table(
            "tile kept out of no terrain",
            "[[table]]\nextends = \"acs.sporadics\"\n\n[[table.row]]\nweight = 1\nname = \"Fire\"\ntext = \"Peat smoulders.\"\ntags = [\"sporadic\", \"hazard\", \"not:swmap\"]\n",
            &[
                "[acs.sporadics] row `Fire` is tagged `not:swmap`, but `swmap` is no terrain",
                "`not:<terrain>` keeps a tile out of a terrain: one of ",
                "did you mean `swamp`?",
            ],
        ),
        table(
            "tile tag no generator reads",
            "[[table]]\nextends = \"acs.sporadics\"\n\n[[table.row]]\nweight = 1\nname = \"Fire\"\ntext = \"Embers drift.\"\ntags = [\"sporadic\", \"hazard\", \"dri\"]\n",
            &[
                "[acs.sporadics] row `Fire` is tagged `dri`, which is no suit, strength or tile tag",
                "a tile's tags are its suit, its strength (minor, medium, major) and any of: any-level,",
                "did you mean `dry`?",
            ],
        ),
        table(
            "situation tag no encounter reads",
            "[[table]]\nid = \"gen.encounter.dale\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\ndice = \"d2\"\n\n[table.region]\n\n[[table.row]]\nroll = \"1\"\nname = \"Sinkhole\"\ntext = \"The ground gives.\"\ntags = [\"non-combat\", \"hazard\", \"fixtur\"]\n\n[[table.row]]\nroll = \"2\"\nname = \"Drovers\"\ntext = \"Drovers pass.\"\ntags = [\"non-combat\", \"traveller\", \"holding\", \"moving\"]\n",
            &[
                "tables/t.toml:10:1: [gen.encounter.dale] row `Sinkhole` is tagged `fixtur`, which no encounter reads",
                "a situation's tags without a prefix are any of: non-combat, traveller, hazard, omen, ambush,",
                "did you mean `fixture`?",
                "[gen.encounter.dale] row `Drovers` is tagged both `holding` and `moving`, which cannot both hold",
                "keep the one the scene is",
            ],
        ),
        table(
            "situation concept that is no concept of its person",
            "[[table]]\nid = \"gen.encounter.dale\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\ndice = \"d2\"\n\n[table.region]\n\n[[table.row]]\nroll = \"1\"\nname = \"Herd\"\ntext = \"A drover.\"\ntags = [\"npc:drover\", \"concept:Drover: pig drovr\"]\n\n[[table.row]]\nroll = \"2\"\nname = \"Nobody\"\ntext = \"Nobody.\"\ntags = [\"concept:drover\"]\n",
            &[
                "tables/t.toml:10:1: [gen.encounter.dale] row `Herd` allows the concept `Drover: pig drovr`, which is no concept of drover",
                "a `concept:` tag names a `gen.npc.concept` row tagged `archetype:<name>`",
                "did you mean `Drover: pig drover`?",
                "[gen.encounter.dale] row `Nobody` allows the concept `drover`, but names no person (`npc:`) to have it",
            ],
        ),
        table(
            "situation at a place no stop is",
            "[[table]]\nid = \"gen.encounter.dale\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\ndice = \"d1\"\n\n[table.region]\n\n[[table.row]]\nroll = \"1\"\nname = \"Watch\"\ntext = \"Bandits wait in the gatehouse.\"\ntags = [\"foe:bandit\", \"ambush\", \"at:gatehose\", \"at:ruin\"]\n",
            &[
                "tables/t.toml:10:1: [gen.encounter.dale] row `Watch` happens at `gatehose`, which is no kind of stop and in no stop's name",
                "an `at:` tag names a kind of stop (the first tag of a `gen.place.site` or `gen.poi` row) or a part of one of their names",
                "did you mean `gatehouse`?",
            ],
        ),
        table(
            "spoils row tag no encounter reads",
            "[[table]]\nextends = \"gen.treasure.core\"\n\n[[table.row]]\nweight = 1\nname = \"Raft\"\ntext = \"A raft.\"\ntags = [\"watter\"]\n",
            &[
                "[gen.treasure.core] row `Raft` is tagged `watter`, which no encounter reads",
                "did you mean `water`?",
            ],
        ),
        table(
            "extension of no table",
            "[[table]]\nextends = \"gen.npc.cor\"\n\n[[table.row]]\nweight = 1\nname = \"x\"\ntext = \"x\"\n",
            &[
                "tables/t.toml:2:11: [gen.npc.cor] `extends = \"gen.npc.cor\"`: there is no table `gen.npc.cor`",
                "did you mean `gen.npc.core`?",
            ],
        ),
        table(
            "extension that breaks the die",
            "[[table]]\nextends = \"core.injury\"\n\n[[table.row]]\nroll = \"13\"\nname = \"Extra\"\ntext = \"x\"\n",
            &["tables/t.toml:5:8: [core.injury] row `13` falls outside d12 (1-12)"],
        ),
        Case {
            prepare: Some(|d: &Path| std::fs::create_dir(d.join("empty")).unwrap()),
            ..refusal(
                "empty content folder",
                prep(&["--content", "empty"]),
                &["no tables found in `empty`: it holds no .toml file"],
            )
        },
        refusal(
            "missing content folder",
            prep(&["--content", "nowhere"]),
            &["`nowhere` does not exist"],
        ),
        session_case(
            "session content folder missing",
            vec![(
                "session.toml",
                format!("{SESSION}content = [\"campaign\"]\n").into_bytes(),
            )],
            &["session.toml:8:12: the content folder `campaign` does not exist (it is read relative to the session file)"],
        ),
        session_case(
            "session templates folder missing",
            vec![(
                "session.toml",
                format!("{SESSION}templates = \"looks\"\n").into_bytes(),
            )],
            &["session.toml:8:13: the templates folder `looks` does not exist"],
        ),
        session_case(
            "unknown terrain in the session",
            vec![(
                "session.toml",
                SESSION.replace("terrain = \"swamp\"", "terrain = \"swampp\"").into_bytes(),
            )],
            &["session.toml:4:11: unknown terrain `swampp` (did you mean `swamp`?)"],
        ),
        Case {
            code: 2,
            ..refusal(
                "init for an unknown system",
                args(&["init", "camp", "--system", "coar"]),
                &["invalid value 'coar'", "mettle", "core"],
            )
        },
        // A GM's words for the sheets: the weather's label must be words.
        Case {
            files: vec![
                ("session.toml", SESSION.into()),
                ("tpl/wording.toml.tera", b"[sheet]\nweather = 3\n".to_vec()),
            ],
            ..refusal(
                "wording key of the wrong type",
                prep(&["--templates", "tpl"]),
                &["tpl/wording.toml.tera", "line 2, column 11", "expected a string"],
            )
        },
        Case {
            code: 2,
            ..refusal(
                "encounter in an unknown season",
                args(&["gen", "encounter", "--season", "fall"]),
                &["invalid value 'fall'", "spring", "summer", "autumn", "winter"],
            )
        },
        // The folder holds a campaign.toml already: init writes nothing.
        Case {
            files: vec![("campaign.toml", b"seed = \"mine\"\n".to_vec())],
            ..refusal(
                "init over an existing folder",
                args(&["init", "."]),
                &["refusing to overwrite", "campaign.toml"],
            )
        },
    ];
    cases.extend(campaign_cases());
    cases.extend(omen_and_voucher_cases());
    cases.extend(link_cases());
    cases.extend(rolling_cases());
    cases.extend(bounded_cases());
    cases.extend(interop_cases());
    cases.extend(manpage_cases());
    cases.push(unwritable_case());
    cases
}

/// A METTLE campaign of two PCs on a six-stop map of swamp and road
/// (seed `bad-records`). Its map starts at Reedmere (stop 2); The Lantern
/// Causeway is 6 watches away by road; session 1's pack prints vouchers
/// BA-B637-15B6 (Ada) and BA-231D-AF73 (Brannoc) and one NPC.
const CAMPAIGN: &str = "title = \"Bad records\"\nseed = \"bad-records\"\nsystem = \"mettle\"\nparty = \"party.toml\"\n\n\
[map]\nstops = 6\nterrains = [\"swamp\", \"road\"]\n";
const CAMPAIGN_PARTY: &str = "[[mettle]]\nname = \"Ada\"\nNATURE = 3\nCULTURE = 3\nPOISE = 4\nMOTIVE = 3\nFRAME = 2\n\n\
[[mettle]]\nname = \"Brannoc\"\nNATURE = 4\nCULTURE = 2\nPOISE = 2\nMOTIVE = 3\nFRAME = 4\n";
const CAMPAIGN_PLAN: &str = "terrain = \"swamp\"\nencounters = 1\nnpcs = 1\nvouchers = [\"Ada\", \"Brannoc\"]\nto = \"goal\"\n";
/// The same campaign in the Core Rules: one PC, 100ʂ, an injury slip.
const CORE_PARTY: &str = "[[core]]\nname = \"Sybilla\"\nSTR = 8\nAGI = 10\nWIT = 12\narmour = 1\ndamage = \"d6\"\nomens = 2\nmax_omens = 2\n";
const CORE_PLAN: &str = "terrain = \"swamp\"\nencounters = 1\ninjuries = 1\nto = \"goal\"\n";

/// The campaign's files (Core: its system, party and plan), with
/// `campaign.toml` and the plan as given.
fn campaign_folder(core: bool, campaign: &str, plan: &str) -> Vec<(&'static str, Vec<u8>)> {
    let (campaign, party, plan) = if core {
        (
            campaign
                .replace("system = \"mettle\"", "system = \"core\"")
                .replace(
                    "party = \"party.toml\"",
                    "party = \"party.toml\"\nmoney = 100",
                ),
            CORE_PARTY,
            plan.replace(CAMPAIGN_PLAN, CORE_PLAN),
        )
    } else {
        (campaign.to_owned(), CAMPAIGN_PARTY, plan.to_owned())
    };
    vec![
        ("campaign.toml", campaign.into_bytes()),
        ("party.toml", party.into()),
        ("sessions/1/plan.toml", plan.into_bytes()),
    ]
}

/// `prep` (session 2) after session 1 was prepped and its record written
/// as `record`: refused, and nothing written.
fn record_case(class: &'static str, core: bool, record: &str, expect: &[&str]) -> Case {
    Case {
        files: campaign_folder(core, CAMPAIGN, CAMPAIGN_PLAN),
        before: vec![args(&["prep"])],
        after: vec![("sessions/1/record.toml", record.as_bytes().to_vec())],
        ..refusal(class, args(&["prep"]), expect)
    }
}

/// `prep` in a campaign whose `campaign.toml` or session 1's plan is as
/// given: refused before anything is written.
fn campaign_file_case(class: &'static str, campaign: &str, plan: &str, expect: &[&str]) -> Case {
    Case {
        files: campaign_folder(false, campaign, plan),
        ..refusal(class, args(&["prep"]), expect)
    }
}

/// Issue 38's smaller findings: a Core record's `omens` (spent) below
/// zero, beyond those the PC has, not a number, or in a METTLE record;
/// and a voucher that went with its dead holder.
fn omen_and_voucher_cases() -> Vec<Case> {
    let omens = |omens: &str| {
        format!("session = 1\nday = 1\n\n[[pc]]\nname = \"Sybilla\"\nomens = {omens}\n")
    };
    vec![
        record_case(
            "record spending omens below zero",
            true,
            &omens("-1"),
            &[
                "sessions/1/record.toml:6:9: omens = -1: omens spent are never negative",
                "hint: write how many omens the PC spent in the session, 0 or more",
            ],
        ),
        record_case(
            "record spending more omens than the PC has",
            true,
            &omens("3"),
            &[
                "sessions/1/record.toml:6:9: omens = 3, but Sybilla has 2 omens of 2 at the start of session 1",
                "hint: a PC spends only the omens they have (at most 2)",
            ],
        ),
        record_case(
            "record of omens that are not a number",
            true,
            &omens("\"one\""),
            &[
                "sessions/1/record.toml:6:9: the session record is not valid: invalid type: string \"one\"",
            ],
        ),
        record_case(
            "record in which every PC of the party is gone",
            false,
            "session = 1\nday = 1\n\n[[pc]]\nname = \"Ada\"\nfate = \"left\"\n\n\
             [[pc]]\nname = \"Brannoc\"\nfate = \"dead\"\n",
            &[
                "session 2 has no party: every PC of the campaign is gone (Ada left in session 1; Brannoc died in session 1)",
                "hint: add the new PCs under [[joined]] in sessions/1/record.toml",
            ],
        ),
        record_case(
            "record of omens in a METTLE campaign",
            false,
            "session = 1\nday = 1\n\n[[pc]]\nname = \"Ada\"\nomens = 1\n",
            &[
                "sessions/1/record.toml:6:9: `omens` is not a key of METTLE records",
                "hint: this campaign plays METTLE; remove the line",
            ],
        ),
        Case {
            // Brannoc dies in session 1 holding BA-231D-AF73; session 2's
            // record spends it, written in lower case.
            prepare: Some(|dir| {
                std::fs::write(
                    dir.join("sessions/1/record.toml"),
                    "session = 1\nday = 1\n\n[[pc]]\nname = \"Brannoc\"\nfate = \"dead\"\n",
                )
                .unwrap();
                let o = crate::common::run_in(dir, &["prep"]);
                assert!(o.status.success(), "{}", crate::common::stderr(&o));
            }),
            after: vec![(
                "sessions/2/record.toml",
                b"session = 2\nday = 2\nvouchers_spent = [\"ba-231d-af73\"]\n".to_vec(),
            )],
            ..record_case(
                "record spending a dead PC's voucher",
                false,
                "",
                &[
                    "sessions/2/record.toml:3:19: voucher BA-231D-AF73 went with Brannoc, who died in session 1: it is no longer in hand",
                    "hint: a voucher is its holder's and goes with them; remove it from this list",
                ],
            )
        },
    ]
}

/// Every refusal of a campaign's records (issue 29, item 6), of
/// `campaign.toml` and of a plan's own keys, through the real binary.
fn campaign_cases() -> Vec<Case> {
    const FIX: &str =
        "hint: fix the records (the guide's Campaigns chapter lists every key) and run again";
    vec![
        record_case(
            "record spending a voucher twice",
            false,
            "session = 1\nday = 1\nvouchers_spent = [\"BA-B637-15B6\", \"BA-B637-15B6\"]\n",
            &[
                "sessions/1/record.toml:3:35: voucher BA-B637-15B6 is spent twice",
                "hint: a voucher has one use; list it once",
                FIX,
            ],
        ),
        Case {
            // Session 1 spends Ada's voucher, session 2 spends it again.
            prepare: Some(|dir| {
                std::fs::write(
                    dir.join("sessions/1/record.toml"),
                    "session = 1\nday = 1\nvouchers_spent = [\"BA-B637-15B6\"]\n",
                )
                .unwrap();
                let o = crate::common::run_in(dir, &["prep"]);
                assert!(o.status.success(), "{}", crate::common::stderr(&o));
            }),
            after: vec![(
                "sessions/2/record.toml",
                b"session = 2\nday = 2\nvouchers_spent = [\"BA-B637-15B6\"]\n".to_vec(),
            )],
            ..record_case(
                "record spending a voucher spent in an earlier session",
                false,
                "",
                &[
                    "sessions/2/record.toml:3:19: voucher BA-B637-15B6 was already spent in session 1",
                    "hint: a voucher has one use; remove it from this list",
                ],
            )
        },
        record_case(
            "record spending a voucher never held",
            false,
            "session = 1\nday = 1\nvouchers_spent = [\"BA-B637-15B7\"]\n",
            &[
                "sessions/1/record.toml:3:19: voucher BA-B637-15B7 was never held: no voucher in hand has that serial",
                "hint: did you mean `BA-B637-15B6`?",
            ],
        ),
        record_case(
            "record of a PC not in the party",
            false,
            "session = 1\nday = 1\n\n[[pc]]\nname = \"Adda\"\ndamage = 2\n",
            &[
                "sessions/1/record.toml:5:8: Adda is not in the party",
                "hint: did you mean `Ada`? the party is Ada, Brannoc",
            ],
        ),
        record_case(
            "record of an injury row that does not exist",
            true,
            "session = 1\nday = 1\n\n[[pc]]\nname = \"Sybilla\"\ninjuries = [\"Broken nose\"]\n",
            &[
                "sessions/1/record.toml:6:13: no injury `Broken nose` in the injury table",
                "hint: give a slip's address (`injury/1`), a row's name or \"roll\"",
            ],
        ),
        record_case(
            "record of an injury slip the pack lacks",
            true,
            "session = 1\nday = 1\n\n[[pc]]\nname = \"Sybilla\"\ninjuries = [\"injury/2\"]\n",
            &[
                "sessions/1/record.toml:6:13: the pack of session 1 has no injury slip `injury/2`",
                "hint: its injury slips are injury/1; or write \"roll\"",
            ],
        ),
        record_case(
            "record of a mutation slip the pack lacks",
            true,
            "session = 1\nday = 1\n\n[[pc]]\nname = \"Sybilla\"\nmutations = [\"mutation/1\"]\n",
            &[
                "sessions/1/record.toml:6:14: the pack of session 1 has no mutation slip `mutation/1`",
                "hint: name a mutation slip of the pack, or write \"roll\" to roll one",
            ],
        ),
        record_case(
            "record of a stop the party could not have reached",
            false,
            "session = 1\nday = 1\nstop = \"The Lantern Causeway\"\n",
            &[
                "sessions/1/record.toml:3:8: the party could not have reached The Lantern Causeway: it is 6 watches (3 days) by road from Reedmere, where session 1 started, but the session ran from day 1 to day 1 (1 day)",
                "hint: fix `stop`, or `day` (the day the session ended on: day 3 at the soonest); the party travels two watches a day",
            ],
        ),
        record_case(
            "record of a stop not on the map",
            false,
            "session = 1\nday = 1\nstop = \"Nowhere\"\n",
            &[
                "sessions/1/record.toml:3:8: the campaign map has no stop `Nowhere`",
                "hint: name a stop of the map or give its number (1 to 6)",
            ],
        ),
        record_case(
            "record lowering an ability out of range",
            true,
            "session = 1\nday = 1\n\n[[pc]]\nname = \"Sybilla\"\nlowered = { STR = 9 }\n",
            &[
                "sessions/1/record.toml:6:19: STR 8 lowered by 9 is -1, out of range (0-19)",
                "hint: an ability never goes below 0",
            ],
        ),
        record_case(
            "record of money below zero",
            false,
            "session = 1\nday = 1\nmoney = -5\n",
            &[
                "sessions/1/record.toml:3:9: money = -5: the party had 0ʂ, which leaves -5ʂ — money never goes below zero",
                "hint: the party can spend at most 0ʂ",
            ],
        ),
        record_case(
            "record of a Core key in a METTLE campaign",
            false,
            "session = 1\nday = 1\n\n[[pc]]\nname = \"Ada\"\ninjuries = [\"injury/1\"]\n",
            &[
                "sessions/1/record.toml:6:12: `injuries` is not a key of METTLE records",
                "hint: this campaign plays METTLE; remove the line",
            ],
        ),
        Case {
            // Written by hand; session 1 never prepped.
            files: {
                let mut files = campaign_folder(false, CAMPAIGN, CAMPAIGN_PLAN);
                files.push(("sessions/1/record.toml", b"session = 1\nday = 1\n".to_vec()));
                files
            },
            ..refusal(
                "record of a session never prepped",
                args(&["prep"]),
                &[
                    "sessions/1/record.toml:1:11: a record of session 1, which was never prepped: there is no pack in out/session-1",
                    "hint: prep it first (`tablewright prep 1`",
                ],
            )
        },
        Case {
            files: campaign_folder(false, CAMPAIGN, CAMPAIGN_PLAN),
            ..refusal(
                "record N of a session never prepped",
                args(&["record", "1"]),
                &[
                    "session 1 was never prepped: there is no pack in out/session-1 to record",
                    "hint: prep it first (`tablewright prep 1`), play it, then `tablewright record 1`",
                ],
            )
        },
        Case {
            after: vec![("sessions/2/record.toml", b"session = 2\nday = 1\n".to_vec())],
            ..record_case(
                "record after a session that has none",
                false,
                "",
                &[
                    "sessions/2/record.toml:1:11: session 2 has a record, but session 1 has none",
                    "hint: record the sessions in order: `tablewright record 1` first",
                ],
            )
        },
        Case {
            // Session 2 was prepped from session 1's record; then that
            // record changed.
            before: vec![
                args(&["prep"]),
                args(&["record", "1"]),
                args(&["prep"]),
                args(&["record", "2"]),
                args(&["prep"]),
            ],
            ..record_case(
                "earlier record edited after later sessions were prepped",
                false,
                "session = 1\nday = 1\nmoney = 5\n",
                &[
                    "sessions/1/record.toml:1:1: session 1's record changed after session 2 was prepped: the packs of sessions 2 and 3 are made from an older campaign state",
                    "hint: run `tablewright prep --force` to make them again in order, from the campaign as it is now (a file you edited in a pack is kept, its new version written beside it); or put session 1's record back as it was",
                ],
            )
        },
        // `validate` passes no plan that `prep` refuses: the one check.
        Case {
            files: campaign_folder(
                true,
                CAMPAIGN,
                "terrain = \"swamp\"\nencounters = 1\nvouchers = [\"Sybilla\"]\n",
            ),
            ..refusal(
                "validate: vouchers in a Core campaign's plan",
                args(&["validate"]),
                &[
                    "sessions/1/plan.toml:3:12: downtime vouchers are METTLE's",
                    "make this a METTLE session",
                ],
            )
        },
        campaign_file_case(
            "unknown campaign.toml key",
            &CAMPAIGN.replace("seed =", "seeed ="),
            CAMPAIGN_PLAN,
            &[
                "campaign.toml:2:1: the campaign file is not valid: unknown field `seeed`",
                "hint: did you mean `seed`?",
            ],
        ),
        campaign_file_case(
            "campaign.toml season misspelled",
            &CAMPAIGN.replace("party =", "season = \"autum\"\nparty ="),
            CAMPAIGN_PLAN,
            &[
                "campaign.toml:4:10: the campaign file is not valid: unknown variant `autum`, \
                 expected one of `spring`, `summer`, `autumn`, `winter`",
                "hint: did you mean `autumn`?",
            ],
        ),
        campaign_file_case(
            "season in a plan",
            CAMPAIGN,
            &format!("{CAMPAIGN_PLAN}season = \"winter\"\n"),
            &[
                "sessions/1/plan.toml:6:1: the session plan is not valid: unknown field `season`",
                "`season` is the campaign's, not a session's: set it in campaign.toml",
            ],
        ),
        campaign_file_case(
            "campaign.toml system misspelled",
            &CAMPAIGN.replace("\"mettle\"", "\"mettel\""),
            CAMPAIGN_PLAN,
            &[
                "campaign.toml:3:10: the campaign file is not valid: unknown variant `mettel`, expected `mettle` or `core`",
                "hint: did you mean `mettle`?",
            ],
        ),
        campaign_file_case(
            "campaign.toml money below zero",
            &CAMPAIGN.replace("party =", "money = -3\nparty ="),
            CAMPAIGN_PLAN,
            &[
                "campaign.toml:4:9: money = -3: the party's purse never goes below zero",
                "hint: write what the party sets out with, 0 or more shillings",
            ],
        ),
        campaign_file_case(
            "campaign.toml start not on the map",
            &CAMPAIGN.replace("party =", "start = \"Nowhere\"\nparty ="),
            CAMPAIGN_PLAN,
            &[
                "campaign.toml:4:9: start = \"Nowhere\": the campaign map has no such stop",
                "hint: the stops are: 1 Tinkers' Field, 2 Reedmere,",
            ],
        ),
        campaign_file_case(
            "campaign.toml map of too few stops",
            &CAMPAIGN.replace("stops = 6", "stops = 0"),
            CAMPAIGN_PLAN,
            &[
                "campaign.toml:7:9: stops = 0: a map has 4 to 300 stops",
                "hint: write a number from 4 to 300 under [map]",
            ],
        ),
        campaign_file_case(
            "campaign.toml map of an unknown terrain",
            &CAMPAIGN.replace("\"road\"]", "\"rode\"]"),
            CAMPAIGN_PLAN,
            &[
                "campaign.toml:8:22: unknown terrain `rode` (did you mean `road`?)",
                "hint: `tablewright tables --terrains` lists the terrains",
            ],
        ),
        campaign_file_case(
            "plan to a stop not on the map",
            CAMPAIGN,
            &CAMPAIGN_PLAN.replace("\"goal\"", "\"Reedmeer\""),
            &[
                "sessions/1/plan.toml:5:6: to = \"Reedmeer\": the campaign map has no such stop",
                "hint: the stops are: 1 Tinkers' Field, 2 Reedmere,",
            ],
        ),
        campaign_file_case(
            "plan to a stop number past the map",
            CAMPAIGN,
            &CAMPAIGN_PLAN.replace("\"goal\"", "9"),
            &[
                "sessions/1/plan.toml:5:6: to = 9: the campaign map has no such stop",
                "6 Hermit's Tower",
            ],
        ),
        campaign_file_case(
            "plan to that is no stop",
            CAMPAIGN,
            &CAMPAIGN_PLAN.replace("\"goal\"", "[3]"),
            &[
                "sessions/1/plan.toml:5:6: the session plan is not valid: expected a stop's name (a string) or its number on the map",
                "hint: write a stop of the campaign map by name",
            ],
        ),
        campaign_file_case(
            "plan bring_back naming no NPC of an earlier pack",
            CAMPAIGN,
            &format!("{CAMPAIGN_PLAN}bring_back = [\"npc/1 of session 1\"]\n"),
            &[
                "sessions/1/plan.toml:6:15: bring_back: `npc/1 of session 1` is no NPC of an earlier session's pack",
                "hint: write an NPC of an earlier pack as \"npc/2 of session 1\"",
            ],
        ),
        campaign_file_case(
            "plan with a key of the campaign's",
            CAMPAIGN,
            &format!("{CAMPAIGN_PLAN}seed = \"mine\"\n"),
            &[
                "sessions/1/plan.toml:6:1: the session plan is not valid: unknown field `seed`",
                "hint: `seed` is the campaign's, not a session's: set it in campaign.toml",
            ],
        ),
        Case {
            files: vec![("afile", Vec::new())],
            ..refusal(
                "templates --to a file",
                args(&["templates", "--to", "afile"]),
                &[
                    "--to afile: this is a file, not a folder",
                    "hint: give --to a folder",
                ],
            )
        },
    ]
}

/// `manpage --to DIR`: a file in DIR's place, and a page there that
/// differs (kept without `--force`).
fn manpage_cases() -> Vec<Case> {
    let mut to_a_file = refusal(
        "manpage --to a file",
        args(&["manpage", "--to", "man1"]),
        &["--to man1: this is a file, not a folder"],
    );
    to_a_file.files.push(("man1", b"mine".to_vec()));
    let mut existing = refusal(
        "manpage over a differing page",
        args(&["manpage", "--to", "man1"]),
        &["refusing to overwrite", "tablewright-prep.1", "--force"],
    );
    existing
        .files
        .push(("man1/tablewright-prep.1", b"mine".to_vec()));
    vec![to_a_file, existing]
}

/// `export` and `import`: every flag and format they read.
fn interop_cases() -> Vec<Case> {
    let export = |extra: &[&str]| {
        let mut a = args(&["export", "core.injury", "--to", "tables"]);
        a.extend(args(extra));
        a
    };
    let mut bad_format = refusal(
        "export with an unknown format",
        export(&["--format", "foundryvtt"]),
        &[
            "invalid value 'foundryvtt' for '--format <FORMAT>'",
            "foundry, obsidian, gfm, json",
        ],
    );
    bad_format.code = 2;
    let mut to_a_file = refusal(
        "export --to a file",
        export(&["--format", "gfm"]),
        &["--to tables: this is a file, not a folder"],
    );
    to_a_file.files.push(("tables", b"mine".to_vec()));
    let mut existing = refusal(
        "export over a differing file",
        export(&["--format", "gfm"]),
        &["refusing to overwrite", "core.injury.md", "--force"],
    );
    existing
        .files
        .push(("tables/core.injury.md", b"mine".to_vec()));
    let import = |class: &'static str, file: &'static str, bytes: &str, expect: &[&str]| {
        let mut case = refusal(class, args(&["import", file, "--to", "tables"]), expect);
        case.files.push((file, bytes.as_bytes().to_vec()));
        case
    };
    let mut import_to_a_file = import(
        "import --to a file",
        "t.md",
        "| d2 | r |\n|---|---|\n| 1 | a |\n| 2 | b |\n",
        &["--to tables: this is a file, not a folder"],
    );
    import_to_a_file.files.push(("tables", b"mine".to_vec()));
    let mut import_existing = import(
        "import over a differing file",
        "t.md",
        "| d2 | r |\n|---|---|\n| 1 | a |\n| 2 | b |\n",
        &["refusing to overwrite", "t.toml", "--force"],
    );
    import_existing
        .files
        .push(("tables/t.toml", b"mine".to_vec()));
    let mut import_subfolder = import(
        "import into a folder with sub-folders",
        "t.md",
        "| d2 | r |\n|---|---|\n| 1 | a |\n| 2 | b |\n",
        &["it holds the folder tables/old", "--to content/imported"],
    );
    import_subfolder
        .files
        .push(("tables/old/x.toml", b"# mine".to_vec()));
    vec![
        import(
            "import unreadable JSON",
            "bad.json",
            "{\"name\": \"x\", \"results\": [\n  {\"range\": [1, 2]\n",
            &[
                "bad.json:3:1: this is not valid JSON",
                "nothing was written",
            ],
        ),
        import(
            "import JSON that is no RollTable",
            "n.json",
            "{\"a\": 1}",
            &["n.json:1:1: document 1 is not a RollTable: it has no `results` list"],
        ),
        import(
            "import a result without a range",
            "r.json",
            "{\"name\": \"X\", \"formula\": \"1d6\", \"results\": [\n{\"text\": \"a\", \"range\": \"1\"}]}",
            &["r.json:2:1: X: the range \"1\" is not two whole numbers"],
        ),
        import(
            "import a formula tablewright cannot roll",
            "f.json",
            "{\"name\": \"X\", \"formula\": \"1d6 + @mod\", \"results\": [\n{\"text\": \"a\", \"range\": [1, 6]}]}",
            &["f.json:2:1: X: the formula `1d6 + @mod` is not dice tablewright reads"],
        ),
        import(
            "import CSV without a die or weight column",
            "t.csv",
            "name,result\nA,B\n",
            &["t.csv:1:1: no die column and no weight column in the header `name | result`"],
        ),
        import(
            "import overlapping ranges",
            "o.md",
            "| d6 | r |\n|---|---|\n| 1-3 | a |\n| 3-6 | b |\n",
            &["o.md:4:1: o: the range 3-6 overlaps 1-3 (line 3)"],
        ),
        import(
            "import a bad roll cell",
            "c.csv",
            "d6,r\n1-3,a\nfour,b\n",
            &["c.csv:3:1: `four` is not a roll"],
        ),
        import(
            "import a zero weight",
            "w.md",
            "| weight | r |\n|---|---|\n| 0 | a |\n",
            &["w.md:3:1: `0` is not a weight"],
        ),
        // Fuzzing found it: a weight past what a TOML integer holds was
        // written into the table file, which then did not read.
        import(
            "import a weight past 2^53",
            "w.md",
            "| weight | r |\n|---|---|\n| 18088461893617692378 | a |\n",
            &[
                "w.md:3:1: `18088461893617692378` is not a weight",
                "to 2^53",
            ],
        ),
        import(
            "import a CSV weight past 2^53",
            "w.csv",
            "weight,result\n9007199254740993,a\n",
            &["w.csv:2:1: `9007199254740993` is not a weight"],
        ),
        import(
            "import a Markdown file without a table",
            "p.md",
            "# Just words\n\nNo table here.\n",
            &["p.md:1:1: no Markdown table here"],
        ),
        import(
            "import a table that does not cover its die",
            "s.md",
            "| d6 | r |\n|---|---|\n| 1-3 | a |\n| 4-5 | b |\n",
            &["s.md:3:1: [imported.s] no row covers 6", "| 1-3 | a |"],
        ),
        import(
            "import an unclosed CSV quote",
            "q.csv",
            "d2,r\n1,\"a\n2,b\n",
            &["q.csv:2:1: a quoted field that is never closed"],
        ),
        refusal(
            "import a missing file",
            args(&["import", "gone.csv"]),
            &["cannot read the table to import `gone.csv`"],
        ),
        import_to_a_file,
        import_existing,
        import_subfolder,
        bad_format,
        refusal(
            "export an unknown table",
            args(&[
                "export",
                "core.injuyr",
                "--format",
                "json",
                "--to",
                "tables",
            ]),
            &["there is no table `core.injuyr`"],
        ),
        to_a_file,
        existing,
    ]
}

/// `table` over a table file in the case folder (issue 19, finding 10):
/// a command priced past its limit is refused before any roll, and output
/// past its cap is refused with nothing printed.
fn rolling_cases() -> Vec<Case> {
    let with_table = |class, toml: String, extra: &[&str], code, expect: &[&str]| {
        let mut a = args(&["--content", "tables", "--seed", "s"]);
        a.extend(args(extra));
        let mut case = refusal(class, a, expect);
        case.files.push(("tables/t.toml", toml.into_bytes()));
        case.code = code;
        case
    };
    let heavy = format!(
        "{TABLE_HEAD}dice = \"d2\"\n\n[[table.row]]\nroll = \"1-2\"\nname = \"Crowd\"\ntext = \"{}\"\n",
        "{table:gen.names.given} ".repeat(300)
    );
    let critical = format!(
        "{TABLE_HEAD}dice = \"d1000\"\n\n[[table.row]]\nroll = \"1-501\"\nname = \"Plain\"\ntext = \"plain {{d6}}\"\n\n\
         [[table.row]]\nroll = \"502-1000\"\nname = \"Twice\"\ntext = \"Roll twice.\"\nreroll = 2\n"
    );
    vec![
        with_table(
            "table rolls past the command's limit",
            heavy,
            &["table", "fx.t", "--times", "10000"],
            1,
            &[
                "10000 results of `fx.t` would make about 3010000 table rolls (301.0 per result on average",
                "the most one command makes is 2000000, so nothing was rolled; ask for at most 6644 results",
            ],
        ),
        with_table(
            "table output past its cap",
            critical,
            &["--json", "table", "fx.t", "--times", "10000"],
            2,
            &["table: 10000 results of `fx.t` print more than 64 MiB; ask for fewer (--times)"],
        ),
    ]
}

/// A bundle of [`SESSION`] whose paper is `paper`.
fn bundle_with_paper(paper: &str) -> Vec<u8> {
    let session = SESSION.replace('"', "\\\"").replace('\n', "\\n");
    format!(
        "seed = \"bad-input\"\npaper = \"{paper}\"\nink_saver = false\n\n[tablewright]\nbundle = 1\n\
         version = \"0\"\nformat = 0\ntables = \"0\"\n\n[session]\nname = \"session.toml\"\ntext = \"{session}\"\n"
    )
    .into_bytes()
}

/// Inputs that are not files, or too big, and templates past their
/// budgets (issue 19, findings 8, 9 and 12).
fn bounded_cases() -> Vec<Case> {
    let not_a_file =
        "it is not a regular file (a device, a pipe or a socket); give the path of a text file";
    let thirteen: String = (1..=13)
        .map(|i| format!("[[mettle]]\nname = \"PC{i}\"\nNATURE = 3\nCULTURE = 3\nPOISE = 3\nMOTIVE = 3\nFRAME = 3\n\n"))
        .collect();
    let with_templates = |class, name: &'static str, text: &[u8], expect: &[&str]| {
        let mut case = refusal(class, prep(&["--templates", "tpl"]), expect);
        case.files.push((name, text.to_vec()));
        case
    };
    let mut cases = vec![
        refusal(
            "session file is a device",
            args(&["prep", "/dev/zero", "--out", "out"]),
            &["cannot read the session file `/dev/zero`", not_a_file],
        ),
        refusal(
            "saved map is a device",
            args(&["gen", "journey", "--map", "/dev/zero", "--seed", "s"]),
            &["cannot read the map `/dev/zero`", not_a_file],
        ),
        refusal(
            "character sheet is a device",
            args(&["gen", "injury", "--character", "/dev/urandom", "--seed", "s"]),
            &["cannot read the character sheet `/dev/urandom`", not_a_file],
        ),
        refusal(
            "party is a device",
            args(&["gen", "trap", "--party", "/dev/zero", "--seed", "s"]),
            &["cannot read the party file `/dev/zero`", not_a_file],
        ),
        Case {
            prepare: Some(|dir| mkfifo(&dir.join("pipe.toml"))),
            ..refusal(
                "session file is a pipe",
                args(&["prep", "pipe.toml", "--out", "out"]),
                &["cannot read the session file `pipe.toml`", not_a_file],
            )
        },
        session_case(
            "party of too many PCs",
            vec![
                ("session.toml", session_with("party.toml")),
                ("party.toml", thirteen.into_bytes()),
            ],
            &[
                "party.toml:98:8: the party file has 13 PCs; a party has at most 12, and this is PC 13",
            ],
        ),
        with_templates(
            "template not UTF-8",
            "tpl/pack.md.tera",
            b"# {{ title }}\nab\xff",
            &["tpl/pack.md.tera:2:3: the template is not UTF-8 text", "hint: save it as UTF-8"],
        ),
        with_templates(
            "template with set_global",
            "tpl/pack.md.tera",
            b"{% for i in range(end=40) %}{% set_global s = s ~ s %}{% endfor %}",
            &["tpl/pack.md.tera:1:32: a template may not use `set_global`"],
        ),
        with_templates(
            "template that replaces nothing",
            "tpl/encounters.md.tera",
            b"# typo",
            &["`encounters.md.tera` replaces no built-in template", "encounter.md.tera"],
        ),
        with_templates(
            "template loops past the budget",
            "tpl/pack.md.tera",
            b"{% for i in range(end=100000) %}{% for j in range(end=100000) %}{% endfor %}{% endfor %}",
            &["`range` would give more than 1000000 numbers in one handout"],
        ),
    ];
    cases.push(session_case(
        "title with a control character",
        vec![(
            "session.toml",
            SESSION
                .replace("Bad input", "Bad\\u001b[31minput")
                .into_bytes(),
        )],
        &[
            "session.toml:1:9: `title` has a control character (U+001B) at character 4",
            "use printable text only",
        ],
    ));
    cases.push(session_case(
        "voucher name with a control character",
        vec![(
            "session.toml",
            format!("{SESSION}vouchers = [\"Kirin\", \"Vik\\u0000tor\"]\n").into_bytes(),
        )],
        &["session.toml:8:22: `vouchers` has a control character (U+0000) at character 4"],
    ));
    let mut fifo = with_templates(
        "template is a pipe",
        "tpl/.keep",
        b"",
        &["tpl/pack.md.tera", not_a_file],
    );
    fifo.prepare = Some(|dir| mkfifo(&dir.join("tpl/pack.md.tera")));
    cases.push(fifo);
    let mut zero = with_templates(
        "template is a link to a device",
        "tpl/.keep",
        b"",
        &["tpl/pack.md.tera", not_a_file],
    );
    zero.prepare = Some(|dir| link(Path::new("/dev/zero"), &dir.join("tpl/pack.md.tera")));
    cases.push(zero);
    cases
}

fn mkfifo(at: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(at)
        .status()
        .unwrap();
    assert!(ok.success());
}

/// The pack folder `prep` makes for the suite's session, under `out`.
fn pack_folder(dir: &Path) -> PathBuf {
    dir.join("out").join(tablewright::slug("bad-input"))
}

/// Links planted where the pack goes (issue 19, finding 1): nothing is
/// ever written through one.
fn link_cases() -> Vec<Case> {
    vec![
        Case {
            files: vec![
                ("session.toml", SESSION.into()),
                ("elsewhere/.keep", Vec::new()),
            ],
            prepare: Some(|dir| {
                std::fs::create_dir_all(dir.join("out")).unwrap();
                link(&dir.join("elsewhere"), &pack_folder(dir));
            }),
            ..refusal(
                "pack folder is a link",
                prep(&["--force"]),
                &["is a link; tablewright never writes through a link it did not make"],
            )
        },
        Case {
            files: vec![
                ("session.toml", SESSION.into()),
                ("victim.txt", b"precious".to_vec()),
            ],
            prepare: Some(|dir| {
                let pack = pack_folder(dir);
                std::fs::create_dir_all(&pack).unwrap();
                link(&dir.join("victim.txt"), &pack.join("pack.md"));
            }),
            ..refusal(
                "link at a handout's name",
                prep(&[]),
                &["refusing to overwrite", "pack.md", "pass --force"],
            )
        },
        Case {
            files: vec![("session.toml", SESSION.into())],
            prepare: Some(|dir| {
                let pack = pack_folder(dir);
                std::fs::create_dir_all(&pack).unwrap();
                link(&dir.join("nowhere"), &pack.join("pack.md"));
            }),
            ..refusal(
                "dangling link at a handout's name",
                prep(&[]),
                &["refusing to overwrite", "pack.md", "pass --force"],
            )
        },
    ]
}

#[cfg(unix)]
fn link(target: &Path, at: &Path) {
    std::os::unix::fs::symlink(target, at).unwrap();
}

#[cfg(not(unix))]
fn link(_: &Path, at: &Path) {
    std::fs::create_dir_all(at).unwrap();
}

/// A folder the tool may not write into: read-only permissions, or — when
/// the tests run as root, who ignores them — a place no one can create.
fn unwritable_case() -> Case {
    let mut case = refusal(
        "unwritable output folder",
        prep(&[]),
        &[
            "cannot create the folder",
            "choose a folder you can write to",
        ],
    );
    if running_as_root() {
        case.args = args(&[
            "prep",
            "session.toml",
            "--out",
            "/proc/tablewright-cannot-write-here",
        ]);
    } else {
        case.files.push(("locked/.keep", Vec::new()));
        case.prepare = Some(|dir| set_read_only(&dir.join("locked"), true));
        case.args = args(&["prep", "session.toml", "--out", "locked"]);
        case.expect.push("ermission denied".into());
    }
    case
}

/// Whether permissions bind this process (root ignores them): found once,
/// by writing into a read-only folder.
fn running_as_root() -> bool {
    static ROOT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ROOT.get_or_init(|| {
        let probe = TempDir::new("probe");
        set_read_only(probe.path(), true);
        let root = std::fs::write(probe.path().join("x"), "x").is_ok();
        set_read_only(probe.path(), false);
        root
    })
}

#[cfg(unix)]
fn set_read_only(path: &Path, on: bool) {
    use std::os::unix::fs::PermissionsExt;
    let mode = if on { 0o555 } else { 0o755 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(not(unix))]
fn set_read_only(path: &Path, on: bool) {
    let mut p = std::fs::metadata(path).unwrap().permissions();
    p.set_readonly(on);
    std::fs::set_permissions(path, p).unwrap();
}

/// Every file, folder and link under `dir`, with the bytes of each file
/// and the target of each link.
fn snapshot(dir: &Path) -> Snapshot {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(dir).unwrap().to_path_buf();
            let meta = path.symlink_metadata().unwrap();
            if !(meta.is_file() || meta.is_dir() || meta.file_type().is_symlink()) {
                // A pipe is never read: it would wait for ever.
                out.insert(rel, Some(b"special file".to_vec()));
            } else if meta.file_type().is_symlink() {
                // A link is what it points at, never followed.
                let target = std::fs::read_link(&path).unwrap();
                let seen = format!("link -> {}", target.display());
                out.insert(rel, Some(seen.into_bytes()));
            } else if meta.is_dir() {
                stack.push(path);
                out.insert(rel, None);
            } else {
                out.insert(rel, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    out
}

type Snapshot = BTreeMap<PathBuf, Option<Vec<u8>>>;

/// Everything the run did that a refusal must not do, or failed to say.
fn what_went_wrong(case: &Case, o: &Output, before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let err = String::from_utf8_lossy(&o.stderr);
    let mut wrong = Vec::new();
    if o.status.code() != Some(case.code) {
        wrong.push(format!(
            "exit code {:?}, expected {}",
            o.status.code(),
            case.code
        ));
    }
    if !o.stdout.is_empty() {
        wrong.push(format!(
            "printed to stdout: {}",
            String::from_utf8_lossy(&o.stdout)
        ));
    }
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        wrong.push("panicked".into());
    }
    for piece in &case.expect {
        if !err.contains(piece.as_str()) {
            wrong.push(format!("stderr lacks {piece:?}"));
        }
    }
    wrong.extend(lines_past_the_end(&err, after));
    if before != after {
        let added: Vec<_> = after.keys().filter(|k| !before.contains_key(*k)).collect();
        let changed: Vec<_> = after
            .iter()
            .filter(|(k, v)| before.get(*k).is_some_and(|b| b != *v))
            .map(|(k, _)| k)
            .collect();
        wrong.push(format!(
            "the folder changed: added {added:?}, changed {changed:?}"
        ));
    }
    wrong
}

/// Every `FILE:LINE:` the message cites, for a file of the folder, that
/// is past the lines the file on disk has (issue 39: a refusal pointed at
/// lines of an edit it never wrote). A file of N line breaks has N + 1
/// lines as an editor counts them (the last may be empty).
fn lines_past_the_end(err: &str, files: &Snapshot) -> Vec<String> {
    let mut wrong = Vec::new();
    for (rel, bytes) in files {
        let Some(bytes) = bytes else { continue };
        let name = format!("{}:", rel.display());
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        for (at, _) in err.match_indices(&name) {
            let own = err[..at]
                .chars()
                .next_back()
                .is_none_or(|c| c.is_whitespace() || c == '`');
            let digits: String = err[at + name.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(line) = digits.parse::<usize>()
                && own
                && line > lines
            {
                wrong.push(format!(
                    "cites {}{line}, but the file has {lines} line(s)",
                    name
                ));
            }
        }
    }
    wrong
}

/// Run the case of class `class` in a fresh folder and check everything
/// a refusal promises: the exit code, nothing on stdout, no panic, every
/// expected piece of the message, and not a byte of the folder changed.
fn check(class: &str) {
    let case = cases()
        .into_iter()
        .find(|c| c.class == class)
        .unwrap_or_else(|| panic!("no case `{class}` in cases()"));
    let mut t = Test::named("bad-input").args(&case.args);
    for (name, bytes) in &case.files {
        t = t.file(name, bytes);
    }
    for before in &case.before {
        let run = t.run_with(before);
        assert!(
            run.output.status.success(),
            "{class}: setup {before:?} failed"
        );
    }
    if let Some(prepare) = case.prepare {
        prepare(t.path());
    }
    for (name, bytes) in &case.after {
        t.write(name, bytes);
    }
    let before = snapshot(t.path());
    let run: Run = t.run();
    let after = snapshot(t.path());
    if t.path().join("locked").exists() {
        set_read_only(&t.path().join("locked"), false);
    }
    let wrong = what_went_wrong(&case, &run.output, &before, &after);
    assert!(
        wrong.is_empty(),
        "{} ({:?}):\n  {}\n  stderr: {}",
        case.class,
        case.args,
        wrong.join("\n  "),
        run.stderr()
    );
}

/// One `#[test]` per case: `name => "class"`, the class as in [`cases`].
macro_rules! each_case {
    ($($name:ident => $class:literal,)*) => {
        $(
            #[test]
            fn $name() {
                check($class);
            }
        )*

        /// Every class that has a test above.
        const TESTED: &[&str] = &[$($class),*];
    };
}

each_case! {
    malformed_table_toml => "malformed table TOML",
    malformed_session_toml => "malformed session TOML",
    unknown_table_key => "unknown table key",
    unknown_session_key => "unknown session key",
    session_season_misspelled => "session season misspelled",
    campaign_toml_season_misspelled => "campaign.toml season misspelled",
    season_in_a_plan => "season in a plan",
    gap => "gap",
    overlap => "overlap",
    outside => "outside",
    zero_weight => "zero weight",
    negative_weight => "negative weight",
    dice_typo_in_a_tables_die => "dice typo in a table's die",
    unknown_reference => "unknown reference",
    reference_cycle => "reference cycle",
    roll_again_forever => "roll again forever",
    roll_again_breeds => "roll again breeds",
    dice_typo => "dice typo",
    dice_typo_in_a_table => "dice typo in a table",
    explode_once => "explode once",
    math_function => "math function",
    power_operator => "power operator",
    reroll_forever => "reroll forever",
    explode_forever => "explode forever",
    drop_every_die => "drop every die",
    failures_without_successes => "failures without successes",
    open_group => "open group",
    odds_of_a_huge_unlike_group_keeping_several_priced_up_front => "odds of a huge unlike group keeping several, priced up front",
    absurd_dice_count => "absurd dice count",
    absurd_die => "absurd die",
    absurd_number => "absurd number",
    absurd_dice_in_a_table => "absurd dice in a table",
    tile_without_a_rule_in_a_system => "tile without a rule in a system",
    core_trap_effect_without_a_save => "Core trap effect without a save",
    mettle_hazard_without_a_core_reading => "METTLE hazard without a Core reading",
    trap_effect_whose_mechanism_no_clue_shows => "trap effect whose mechanism no clue shows",
    trap_effect_no_trigger_can_spring => "trap effect no trigger can spring",
    trap_effects_of_the_two_systems_differ => "trap effects of the two systems differ",
    stat_block_out_of_bounds => "stat block out of bounds",
    pool_summary_out_of_bounds => "pool summary out of bounds",
    character_sheet_out_of_bounds => "character sheet out of bounds",
    missing_party_file => "missing party file",
    core_injuries_and_mutations_in_a_mettle_session => "Core injuries and mutations in a METTLE session",
    mettle_vouchers_in_a_core_session => "METTLE vouchers in a Core session",
    core_pcs_in_a_mettle_sessions_party => "Core PCs in a METTLE session's party",
    mettle_pcs_in_a_core_sessions_party => "METTLE PCs in a Core session's party",
    saved_map_goal_out_of_range => "saved map goal out of range",
    saved_map_start_out_of_range => "saved map start out of range",
    saved_map_path_end_out_of_range => "saved map path end out of range",
    saved_map_path_of_endless_length => "saved map path of endless length",
    saved_map_path_whose_watches_do_not_follow_from_its_regions => "saved map path whose watches do not follow from its regions",
    saved_map_without_stops => "saved map without stops",
    saved_map_with_more_paths_than_a_flat_map_holds => "saved map with more paths than a flat map holds",
    saved_map_with_a_value_of_the_wrong_type => "saved map with a value of the wrong type",
    saved_report_whose_map_lacks_a_field => "saved report whose map lacks a field",
    session_journey_rations_past_the_limit => "session journey rations past the limit",
    session_journey_water_past_the_limit => "session journey water past the limit",
    session_journey_unknown_kit => "session journey unknown kit",
    party_water_capacity_out_of_range => "party water capacity out of range",
    journey_water_capacity_out_of_range => "journey water capacity out of range",
    journey_water_over_capacity => "journey water over capacity",
    journey_unknown_kit => "journey unknown kit",
    session_entry_list_written_as_a_count => "session entry list written as a count",
    session_count_written_as_a_list => "session count written as a list",
    session_past_its_limits => "session past its limits",
    session_map_with_more_stops_than_its_terrains_have_places => "session map with more stops than its terrains have places",
    non_utf_8_table => "non-UTF-8 table",
    non_utf_8_session => "non-UTF-8 session",
    output_folder_is_a_file => "output folder is a file",
    handout_name_taken_by_a_folder => "handout name taken by a folder",
    existing_files => "existing files",
    seed_with_a_control_character => "seed with a control character",
    seed_of_thousands_of_characters => "seed of thousands of characters",
    seed_with_a_control_character_in_the_session_file => "seed with a control character in the session file",
    unknown_paper_size => "unknown paper size",
    unknown_markdown_flavour => "unknown Markdown flavour",
    completions_for_an_unknown_shell => "completions for an unknown shell",
    poise_for_a_core_trap => "POISE for a Core trap",
    rules_trap_for_the_core_rules => "rules trap for the Core Rules",
    trap_odds_for_both_poise_and_a_party => "trap odds for both POISE and a party",
    trap_party_out_of_bounds => "trap party out of bounds",
    only_an_address_the_session_lacks => "--only an address the session lacks",
    only_something_that_is_not_an_address => "--only something that is not an address",
    reroll_an_unknown_kind => "--reroll an unknown kind",
    reroll_a_voucher_the_session_lacks => "--reroll a voucher the session lacks",
    rerolls_naming_no_item => "[rerolls] naming no item",
    rerolls_count_past_the_limit => "[rerolls] count past the limit",
    reroll_asked_past_the_limit => "--reroll asked past the limit",
    reroll_asked_past_what_rerolls_has_left => "--reroll asked past what [rerolls] has left",
    rerolls_that_is_not_a_table_of_counts => "[rerolls] that is not a table of counts",
    check_range_high_before_low => "check range high before low",
    check_range_missing_its_end => "check range missing its end",
    check_range_of_ladder_words => "check range of ladder words",
    check_range_of_three_numbers => "check range of three numbers",
    check_range_past_the_limit => "check range past the limit",
    check_grid_of_too_many_checks => "check grid of too many Checks",
    check_range_raising_more_dice_than_its_smallest_pool => "check range raising more dice than its smallest pool",
    gen_item_0 => "gen --item 0",
    gen_item_with_count => "gen --item with --count",
    gen_session_with_the_kinds_own_options => "gen --session with the kind's own options",
    gen_reroll_without_item => "gen --reroll without --item",
    gen_reroll_past_the_limit => "gen --reroll past the limit",
    gen_journey_without_map_or_session => "gen journey without --map or --session",
    gen_forage_session => "gen forage --session",
    gen_session_address_the_session_lacks => "gen --session address the session lacks",
    gen_npc_unknown_terrain => "gen npc unknown terrain",
    encounter_entries_past_the_count => "[[encounter]] entries past the count",
    encounter_situation_not_in_the_table => "[[encounter]] situation not in the table",
    encounter_unknown_foe => "[[encounter]] unknown foe",
    injury_entries_past_the_count => "[[injury]] entries past the count",
    injury_permanent_not_true_or_false => "[[injury]] permanent not true or false",
    injury_name_not_in_the_table => "[[injury]] name not in the table",
    injury_in_a_mettle_session => "[[injury]] in a METTLE session",
    trap_from_nowhere => "[[trap]] from nowhere",
    npc_tier_off_the_scale => "[[npc]] tier off the scale",
    malformed_bundle => "malformed bundle",
    bundle_with_an_unknown_paper => "bundle with an unknown paper",
    bundle_with_seed => "bundle with --seed",
    reroll_on_a_bundle => "--reroll on a bundle",
    verify_a_folder_without_a_bundle => "verify a folder without a bundle",
    typod_foe_tag => "typo'd foe tag",
    trait_row_with_an_unknown_kind_tag => "trait row with an unknown kind tag",
    trait_row_with_an_unknown_need => "trait row with an unknown need",
    trait_row_with_an_unknown_body => "trait row with an unknown body",
    trap_effect_that_needs_an_unknown_kind_of_trigger => "trap effect that needs an unknown kind of trigger",
    trap_effect_with_a_tag_no_trap_reads => "trap effect with a tag no trap reads",
    trap_effect_that_needs_its_keepers_misspelt => "trap effect that needs its keepers, misspelt",
    way_to_deal_with_a_trap_that_does_nothing_known => "way to deal with a trap that does nothing known",
    mechanism_on_a_table_that_holds_no_trap => "mechanism on a table that holds no trap",
    trait_row_for_no_archetype => "trait row for no archetype",
    concept_row_for_no_archetype => "concept row for no archetype",
    returning_face_with_a_stray_marker_and_tag => "returning face with a stray marker and tag",
    place_naming_another_terrain => "place whose text names another terrain than it is drawn for",
    archetype_in_one_system => "archetype in one system",
    reference_bomb => "reference bomb",
    reference_chain_too_deep => "reference chain too deep",
    region_key_out_of_range => "region key out of range",
    region_setting_not_known => "region setting not known",
    situation_layer_tags_no_encounter_reads => "situation layer tags no encounter reads",
    situation_layer_naming_no_terrain => "situation layer naming no terrain",
    situation_weather_need_unknown_or_without_sky => "situation weather need unknown or without sky",
    tile_kept_out_of_no_terrain => "tile kept out of no terrain",
    tile_tag_no_generator_reads => "tile tag no generator reads",
    situation_tag_no_encounter_reads => "situation tag no encounter reads",
    situation_concept_that_is_no_concept_of_its_person => "situation concept that is no concept of its person",
    situation_at_a_place_no_stop_is => "situation at a place no stop is",
    spoils_row_tag_no_encounter_reads => "spoils row tag no encounter reads",
    weather_row_tag_neither_terrain_nor_sky => "weather row tag neither terrain nor sky",
    extension_of_no_table => "extension of no table",
    extension_that_breaks_the_die => "extension that breaks the die",
    empty_content_folder => "empty content folder",
    missing_content_folder => "missing content folder",
    session_content_folder_missing => "session content folder missing",
    session_templates_folder_missing => "session templates folder missing",
    unknown_terrain_in_the_session => "unknown terrain in the session",
    init_over_an_existing_folder => "init over an existing folder",
    init_for_an_unknown_system => "init for an unknown system",
    encounter_in_an_unknown_season => "encounter in an unknown season",
    wording_key_of_the_wrong_type => "wording key of the wrong type",
    validate_vouchers_in_a_core_campaigns_plan => "validate: vouchers in a Core campaign's plan",
    record_spending_a_voucher_twice => "record spending a voucher twice",
    record_spending_a_voucher_spent_in_an_earlier_session => "record spending a voucher spent in an earlier session",
    record_spending_a_voucher_never_held => "record spending a voucher never held",
    record_of_a_pc_not_in_the_party => "record of a PC not in the party",
    record_of_an_injury_row_that_does_not_exist => "record of an injury row that does not exist",
    record_of_an_injury_slip_the_pack_lacks => "record of an injury slip the pack lacks",
    record_of_a_mutation_slip_the_pack_lacks => "record of a mutation slip the pack lacks",
    record_of_a_stop_the_party_could_not_have_reached => "record of a stop the party could not have reached",
    record_of_a_stop_not_on_the_map => "record of a stop not on the map",
    record_lowering_an_ability_out_of_range => "record lowering an ability out of range",
    record_of_money_below_zero => "record of money below zero",
    record_of_a_core_key_in_a_mettle_campaign => "record of a Core key in a METTLE campaign",
    record_of_a_session_never_prepped => "record of a session never prepped",
    record_n_of_a_session_never_prepped => "record N of a session never prepped",
    record_after_a_session_that_has_none => "record after a session that has none",
    earlier_record_edited_after_later_sessions_were_prepped => "earlier record edited after later sessions were prepped",
    record_spending_omens_below_zero => "record spending omens below zero",
    record_spending_more_omens_than_the_pc_has => "record spending more omens than the PC has",
    record_of_omens_that_are_not_a_number => "record of omens that are not a number",
    record_in_which_every_pc_of_the_party_is_gone => "record in which every PC of the party is gone",
    record_of_omens_in_a_mettle_campaign => "record of omens in a METTLE campaign",
    record_spending_a_dead_pcs_voucher => "record spending a dead PC's voucher",
    unknown_campaign_toml_key => "unknown campaign.toml key",
    campaign_toml_system_misspelled => "campaign.toml system misspelled",
    campaign_toml_money_below_zero => "campaign.toml money below zero",
    campaign_toml_start_not_on_the_map => "campaign.toml start not on the map",
    campaign_toml_map_of_too_few_stops => "campaign.toml map of too few stops",
    campaign_toml_map_of_an_unknown_terrain => "campaign.toml map of an unknown terrain",
    plan_to_a_stop_not_on_the_map => "plan to a stop not on the map",
    plan_to_a_stop_number_past_the_map => "plan to a stop number past the map",
    plan_to_that_is_no_stop => "plan to that is no stop",
    plan_bring_back_naming_no_npc_of_an_earlier_pack => "plan bring_back naming no NPC of an earlier pack",
    plan_with_a_key_of_the_campaigns => "plan with a key of the campaign's",
    templates_to_a_file => "templates --to a file",
    manpage_to_a_file => "manpage --to a file",
    manpage_over_a_differing_page => "manpage over a differing page",
    export_with_an_unknown_format => "export with an unknown format",
    export_to_a_file => "export --to a file",
    export_over_a_differing_file => "export over a differing file",
    import_to_a_file => "import --to a file",
    import_over_a_differing_file => "import over a differing file",
    import_into_a_folder_with_sub_folders => "import into a folder with sub-folders",
    import_unreadable_json => "import unreadable JSON",
    import_json_that_is_no_rolltable => "import JSON that is no RollTable",
    import_a_result_without_a_range => "import a result without a range",
    import_a_formula_tablewright_cannot_roll => "import a formula tablewright cannot roll",
    import_csv_without_a_die_or_weight_column => "import CSV without a die or weight column",
    import_overlapping_ranges => "import overlapping ranges",
    import_a_bad_roll_cell => "import a bad roll cell",
    import_a_zero_weight => "import a zero weight",
    import_a_weight_past_2_53 => "import a weight past 2^53",
    import_a_csv_weight_past_2_53 => "import a CSV weight past 2^53",
    import_a_markdown_file_without_a_table => "import a Markdown file without a table",
    import_a_table_that_does_not_cover_its_die => "import a table that does not cover its die",
    import_an_unclosed_csv_quote => "import an unclosed CSV quote",
    import_a_missing_file => "import a missing file",
    export_an_unknown_table => "export an unknown table",
    table_rolls_past_the_commands_limit => "table rolls past the command's limit",
    table_output_past_its_cap => "table output past its cap",
    session_file_is_a_device => "session file is a device",
    saved_map_is_a_device => "saved map is a device",
    character_sheet_is_a_device => "character sheet is a device",
    party_is_a_device => "party is a device",
    session_file_is_a_pipe => "session file is a pipe",
    party_of_too_many_pcs => "party of too many PCs",
    template_not_utf_8 => "template not UTF-8",
    template_with_set_global => "template with set_global",
    template_that_replaces_nothing => "template that replaces nothing",
    template_loops_past_the_budget => "template loops past the budget",
    title_with_a_control_character => "title with a control character",
    voucher_name_with_a_control_character => "voucher name with a control character",
    template_is_a_pipe => "template is a pipe",
    template_is_a_link_to_a_device => "template is a link to a device",
    pack_folder_is_a_link => "pack folder is a link",
    link_at_a_handouts_name => "link at a handout's name",
    dangling_link_at_a_handouts_name => "dangling link at a handout's name",
    unwritable_output_folder => "unwritable output folder",
}

/// A case added to [`cases`] needs its test in `each_case!`, and a test
/// there needs its case; no two cases share a class.
#[test]
fn every_case_has_its_own_test() {
    let classes: Vec<&str> = cases().iter().map(|c| c.class).collect();
    let mut seen = std::collections::BTreeSet::new();
    for class in &classes {
        assert!(seen.insert(*class), "two cases are `{class}`");
        assert!(
            TESTED.contains(class),
            "`{class}` has no test in each_case!"
        );
    }
    for class in TESTED {
        assert!(
            classes.contains(class),
            "each_case! tests `{class}`, which is no case"
        );
    }
}

/// The suite covers every class the robustness issue lists; a class
/// dropped from `cases()` fails here.
#[test]
fn the_suite_covers_every_class() {
    let classes: Vec<&str> = cases().iter().map(|c| c.class).collect();
    for needed in [
        "malformed table TOML",
        "unknown table key",
        "gap",
        "overlap",
        "outside",
        "zero weight",
        "negative weight",
        "unknown reference",
        "reference cycle",
        "roll again forever",
        "table rolls past the command's limit",
        "table output past its cap",
        "dice typo",
        "absurd dice count",
        "absurd die",
        "absurd number",
        "stat block out of bounds",
        "missing party file",
        "non-UTF-8 table",
        "output folder is a file",
        "unwritable output folder",
        "existing files",
        "pack folder is a link",
        "session file is a device",
        "saved map is a device",
        "character sheet is a device",
        "party is a device",
        "session file is a pipe",
        "party of too many PCs",
        "template not UTF-8",
        "template with set_global",
        "template that replaces nothing",
        "template loops past the budget",
        "template is a pipe",
        "template is a link to a device",
        "title with a control character",
        "voucher name with a control character",
        "link at a handout's name",
        "dangling link at a handout's name",
        "seed with a control character",
        "seed of thousands of characters",
        "saved map start out of range",
        "saved map goal out of range",
        "saved map path end out of range",
        "saved map path of endless length",
        "saved map without stops",
        "session journey rations past the limit",
        "session journey water past the limit",
        "session journey unknown kit",
        "party water capacity out of range",
        "journey water capacity out of range",
        "journey water over capacity",
        "journey unknown kit",
        "--only an address the session lacks",
        "--reroll an unknown kind",
        "[rerolls] naming no item",
        "gen --item 0",
        "malformed bundle",
        "bundle with --seed",
        "--reroll on a bundle",
        "verify a folder without a bundle",
        "[[encounter]] entries past the count",
        "[[encounter]] situation not in the table",
        "[[trap]] from nowhere",
        "[[injury]] entries past the count",
        "[[injury]] permanent not true or false",
        "[[injury]] name not in the table",
        "--reroll a voucher the session lacks",
        "gen --session with the kind's own options",
        "gen --reroll without --item",
        "gen --reroll past the limit",
        "gen journey without --map or --session",
        "gen forage --session",
        "gen --session address the session lacks",
        "export with an unknown format",
        "export an unknown table",
        "export --to a file",
        "export over a differing file",
        "import unreadable JSON",
        "import JSON that is no RollTable",
        "import a result without a range",
        "import a formula tablewright cannot roll",
        "import CSV without a die or weight column",
        "import overlapping ranges",
        "import a bad roll cell",
        "import a zero weight",
        "import a Markdown file without a table",
        "import a table that does not cover its die",
        "import an unclosed CSV quote",
        "import a missing file",
        "import --to a file",
        "import over a differing file",
        "import into a folder with sub-folders",
        // Issue 29, item 6: every refusal of a record.
        "record spending a voucher twice",
        "record spending a voucher spent in an earlier session",
        "record spending a voucher never held",
        "record of a PC not in the party",
        "record of an injury row that does not exist",
        "record of a mutation slip the pack lacks",
        "record of a stop the party could not have reached",
        "record lowering an ability out of range",
        "record of money below zero",
        "record of a session never prepped",
        "earlier record edited after later sessions were prepped",
    ] {
        assert!(classes.contains(&needed), "no case for {needed}");
    }
}
