//! The command line read into requests, as a table: one row per usage
//! mistake the arguments show on their own (the arguments, the
//! [`UsageError`] and its message word for word), and good rows (the
//! request they make).

use super::*;

/// The request `args` make (clap's own mistakes fail the test).
fn read_args(args: &[&str]) -> Result<Request, Error> {
    let argv = std::iter::once("tablewright").chain(args.iter().copied());
    let cli = Cli::try_parse_args(argv).unwrap_or_else(|e| panic!("{args:?}: clap: {e}"));
    read(&cli).map(|(_, request)| request)
}

/// Each row's arguments are refused with its [`UsageError`], whose
/// message is the row's word for word, exiting 2.
fn assert_rows(rows: Vec<(&[&str], UsageError, &str)>) {
    for (args, want, message) in rows {
        match read_args(args) {
            Err(Error::Usage(got)) => {
                assert_eq!(got, want, "{args:?}");
                assert_eq!(got.to_string(), message, "{args:?}");
                assert_eq!(Error::Usage(got).exit_code(), 2, "{args:?}");
            }
            other => panic!("{args:?}: wanted {want:?}, got {other:?}"),
        }
    }
}

/// `check` and `table` mistakes.
#[test]
fn check_and_table_mistakes() {
    use UsageError as U;
    assert_rows(vec![
        (
            &["check", "x", "--vs", "3"],
            U::CheckPool { pool: "x".into() },
            "check: `x` is not a pool size; give a number of dice from 0 to 1000, e.g. `check 5 --vs 3`",
        ),
        (
            &["check", "1001", "--vs", "3"],
            U::CheckPool {
                pool: "1001".into(),
            },
            "check: `1001` is not a pool size; give a number of dice from 0 to 1000, e.g. `check 5 --vs 3`",
        ),
        (
            &["check", "20-1", "--vs", "3"],
            U::CheckRange {
                arg: "POOL",
                text: "20-1".into(),
                max: 1000,
            },
            "check POOL `20-1`: a range is two whole numbers from 0 to 1000, low first, e.g. `check 1-20 --vs 0-30`",
        ),
        (
            &["check", "5", "--vs", "0-x"],
            U::CheckRange {
                arg: "--vs",
                text: "0-x".into(),
                max: 10000,
            },
            "check --vs `0-x`: a range is two whole numbers from 0 to 10000, low first, e.g. `check 1-20 --vs 0-30`",
        ),
        (
            &["check", "1-1000", "--vs", "0-10"],
            U::CheckGrid { cells: 11000 },
            "check: the ranges make a grid of 11000 Checks; at most 10000 (pools 1-20 by Difficulties 0-30 is 620)",
        ),
        (
            &["check", "5", "--vs", "3 twist"],
            U::CheckVs {
                vs: "3 twist".into(),
            },
            "check --vs `3 twist`: give only a Difficulty (a number or a ladder word); raises, Twists and teammates have their own flags",
        ),
        (
            &["check", "5", "--vs", "3", "--bonus-dice", "1001"],
            U::CheckLimits,
            "check: the limits are 10,000 dice per Roll, 1,000,000 sides per die and 1,000 dice per pool",
        ),
        (
            &["check", "5", "--vs", "3", "--dm", "1000001"],
            U::CheckLimits,
            "check: the limits are 10,000 dice per Roll, 1,000,000 sides per die and 1,000 dice per pool",
        ),
        (
            &[
                "check",
                "5",
                "--vs",
                "3",
                "--team",
                "1,2,3,4,5,6,7,8,9,10,11,12,13",
            ],
            U::CheckTeam,
            "check --team: at most 12 teammates with pools up to 1000",
        ),
        (
            &["check", "5", "--vs", "3", "--team", "1001"],
            U::CheckTeam,
            "check --team: at most 12 teammates with pools up to 1000",
        ),
        (
            &["check", "1000", "--vs", "3", "--bonus-dice", "1"],
            U::CheckDice { dice: 1001 },
            "check: 1001 dice in all; the limits are 10,000 dice per Roll, 1,000,000 sides per die and 1,000 dice per pool",
        ),
        (
            &["check", "2", "--vs", "3", "--raise", "3"],
            U::CheckRaise { raises: 3, dice: 2 },
            "check: cannot raise 3 dice from a pool of 2; raised dice come out of the pool",
        ),
        (
            &["table", "core.injury", "--times", "0"],
            U::TableTimes { times: 0 },
            "table: --times 0: ask for 1 to 10000 results",
        ),
        (
            &["table", "core.injury", "--times", "10001"],
            U::TableTimes { times: 10001 },
            "table: --times 10001: ask for 1 to 10000 results",
        ),
        (
            &["prep", "0"],
            U::SessionNumber { n: 0 },
            "session 0: sessions are numbered from 1 to 1000",
        ),
        (
            &["record", "1001"],
            U::SessionNumber { n: 1001 },
            "session 1001: sessions are numbered from 1 to 1000",
        ),
        (
            &["prep", "2", "3"],
            U::NumberWithoutCampaign,
            "a session number after a file is for a campaign's bundle (made by `share` in a campaign); this file is one session's, so leave the number out",
        ),
    ]);
}

/// `gen <kind>` mistakes: counts and the kinds' own options.
#[test]
fn gen_kind_mistakes() {
    use UsageError as U;
    assert_rows(vec![
        (
            &["gen", "npc", "--count", "0"],
            U::GenCount {
                count: 0,
                max: 1000,
            },
            "gen: --count 0: ask for 1 to 1000 items",
        ),
        (
            &["gen", "npc", "--count", "1001"],
            U::GenCount {
                count: 1001,
                max: 1000,
            },
            "gen: --count 1001: ask for 1 to 1000 items",
        ),
        (
            &["gen", "npc", "--count", "1000001", "--jsonl"],
            U::GenCount {
                count: 1_000_001,
                max: 1_000_000,
            },
            "gen: --count 1000001: ask for 1 to 1000000 items",
        ),
        (
            &["gen", "voucher"],
            U::VoucherHolders,
            "gen voucher: name the holders, one voucher each: --holder Ada,Brannoc",
        ),
        (
            &["gen", "trap", "--system", "core", "--poise", "2"],
            U::CorePoise,
            "gen trap: --poise is METTLE's; a Core Rules trap's odds are for the party's STR, AGI and WIT (give --party)",
        ),
        (
            &["gen", "trap", "--system", "core", "--from", "rules"],
            U::CoreRulesTraps,
            "gen trap: --from rules: the Core Rules have no traps of their own; Core traps are built from parts (--from parts or any)",
        ),
        (
            &["gen", "trap", "--poise", "2", "--party", "3,4"],
            U::PoiseAndParty,
            "gen trap: give --poise or --party, not both",
        ),
        (
            &["gen", "map", "--svg", "--count", "2"],
            U::MapSvgCount,
            "gen map --svg draws one map; leave out --count",
        ),
    ]);
}

/// `gen --item`, `--reroll` and `--session` mistakes.
#[test]
fn gen_item_mistakes() {
    use UsageError as U;
    assert_rows(vec![
        (
            &["gen", "trap", "--item", "0"],
            U::GenItem { item: 0, max: 1000 },
            "gen: --item 0: items are numbered from 1 to 1000",
        ),
        (
            &["gen", "encounter", "--reroll", "2"],
            U::WithoutItem { flag: "--reroll" },
            "gen: --reroll is about one item: give --item N too (`gen encounter --item 2 --reroll ...`)",
        ),
        (
            &["gen", "encounter", "--session", "session.toml"],
            U::WithoutItem { flag: "--session" },
            "gen: --session is about one item: give --item N too (`gen encounter --item 2 --session ...`)",
        ),
        (
            &["gen", "encounter", "--item", "1", "--reroll", "10001"],
            U::TooManyRerolls { reroll: 10001 },
            "gen: --reroll 10001: an item is rerolled at most 10000 times",
        ),
        (
            &["gen", "journey"],
            U::JourneyMap,
            "gen journey: give --map FILE (a map saved with `gen map --json > map.json`), or --session SESSION.toml --item 1 for a session pack's journey",
        ),
        (
            &["gen", "forage", "--item", "1", "--session", "session.toml"],
            U::SessionForage,
            "gen forage --session: a pack holds no foraging (its kinds are encounter, trap, npc, map, journey, voucher, injury and mutation)",
        ),
        (
            &[
                "gen",
                "encounter",
                "--terrain",
                "swamp",
                "--item",
                "1",
                "--session",
                "s.toml",
            ],
            U::SessionOptions { kind: "encounter" },
            "gen encounter --session: the session sets the item's request (its terrain, system, party, entries and rerolls); leave out the options of `gen encounter`",
        ),
        (
            &[
                "gen",
                "map",
                "--stops",
                "9",
                "--item",
                "1",
                "--session",
                "s.toml",
            ],
            U::SessionOptions { kind: "map" },
            "gen map --session: the session sets the item's request (its terrain, system, party, entries and rerolls); leave out the options of `gen map`",
        ),
    ]);
}

/// The usage mistakes that a file read shows (raised where the file is
/// read), and `odds` with nothing (clap refuses it first): their messages.
#[test]
fn mistakes_found_after_a_read_keep_their_messages() {
    use UsageError as U;
    let rows: Vec<(UsageError, &str)> = vec![
        (U::OddsNeedsInput, "odds: give an expression or --table ID"),
        (
            U::TableOutput {
                times: 9000,
                id: "big".into(),
                max_mib: 64,
            },
            "table: 9000 results of `big` print more than 64 MiB; ask for fewer (--times) or roll them in several runs",
        ),
        (
            U::NpcTerrain {
                terrain: "mars".into(),
                why: "no terrain `mars`".into(),
            },
            "gen npc: --terrain mars: no terrain `mars`",
        ),
        (
            U::SessionItem {
                flaw: "`npc/9`: the session has npc/1 to npc/2".into(),
            },
            "gen --session: `npc/9`: the session has npc/1 to npc/2",
        ),
        (
            U::PrepAddresses {
                flaws: vec!["`a`: one".into(), "`b`: two".into()],
            },
            "prep: `a`: one; `b`: two",
        ),
        (
            U::BundleSources,
            "a bundle carries its own seed, tables and templates: leave out --seed, --content and --templates",
        ),
        (
            U::RerollBundle,
            "prep --reroll edits a session file's [rerolls]; a bundle is a record of one pack, so reroll in the session file it was shared from (or copy its session out)",
        ),
        (
            U::RerollNoPlan { n: 3, plan_of: 1 },
            "session 3 has no plan of its own (it takes session 1's), so there is no [rerolls] to write: copy sessions/1/plan.toml to sessions/3/plan.toml, then reroll",
        ),
        (
            U::NotInCampaign { what: "`record N`" },
            "`record N` works inside a campaign folder (one with a campaign.toml here or above), and there is none here: `tablewright init DIR` makes one",
        ),
        (
            U::SessionNumber { n: 0 },
            "session 0: sessions are numbered from 1 to 1000",
        ),
        (
            U::NumberWithoutCampaign,
            "a session number after a file is for a campaign's bundle (made by `share` in a campaign); this file is one session's, so leave the number out",
        ),
    ];
    for (error, message) in rows {
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn good_arguments_make_their_requests() {
    let rows: Vec<(&[&str], &str)> = vec![
        (&["roll", "3d6"], "Roll { exprs: [\"3d6\"] }"),
        (&["odds", "3d6"], "Odds { expr: \"3d6\" }"),
        (
            &["odds", "--table", "core.injury"],
            "TableOdds { id: \"core.injury\" }",
        ),
        (
            &["check", "5D", "--vs", "daunting"],
            "Check(Pool { dice: 5,",
        ),
        (
            &["check", "1-20", "--vs", "0-30"],
            "CheckGrid(Grid { pool: Pool { dice: 1,",
        ),
        (
            &["check", "5", "--vs", "2-4"],
            "CheckGrid(Grid { pool: Pool { dice: 5, extra: 0, bonus: 0, difficulty: Some(2), raises: 0, twist: false, team: [] }, pools: (5, 5), difficulties: (2, 4) })",
        ),
        (&["tables", "--terrains"], "Tables { terrains: true }"),
        (
            &["table", "core.injury", "--times", "10000"],
            "Table { id: \"core.injury\", times: 10000, tag: None }",
        ),
        (&["validate"], "Validate"),
        (
            &["prep", "--only", "npc/2"],
            "Prep { what: Session(None), asked: Asked { only: [\"npc/2\"]",
        ),
        (&["prep", "2"], "Prep { what: Session(Some(2)),"),
        (
            &["prep", "bundle.toml", "3"],
            "Prep { what: File(\"bundle.toml\", Some(3)),",
        ),
        (&["record", "2"], "Record { n: 2 }"),
        (&["share"], "Share { session: None }"),
        (&["verify"], "Verify { dir: None }"),
        (&["gen", "npc", "--count", "1000"], "Gen(Gen { kind: Npc {"),
        (
            &["gen", "voucher", "--holder", "Ada"],
            "Gen(Gen { kind: Voucher(",
        ),
        (&["gen", "map", "--svg"], "Gen(Gen { kind: Map {"),
        (
            &["gen", "trap", "--system", "core"],
            "Gen(Gen { kind: Trap { source: Any, against: Party(Core, None), terrain: None }",
        ),
        (
            &[
                "gen",
                "map",
                "--svg",
                "--players",
                "--item",
                "2",
                "--session",
                "s.toml",
                "--reroll",
                "1",
            ],
            "GenItem(SessionItem { kind: \"map\", n: 2, reroll: Some(1), session: \"s.toml\", svg: true, players: true })",
        ),
    ];
    for (args, want) in rows {
        let got = format!(
            "{:?}",
            read_args(args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
        );
        assert!(got.starts_with(want), "{args:?}: {got}");
    }
}

#[test]
fn map_svg_draws_the_item_asked_for() {
    let Ok(Request::Gen(g)) = read_args(&["gen", "map", "--svg", "--item", "3"]) else {
        panic!("a map request")
    };
    assert!(matches!(g.kind, Kind::Map { svg: Some(2), .. }));
    assert_eq!(g.which, Which::Item(3));
}

#[test]
fn a_bad_difficulty_is_a_dice_error_not_a_usage_one() {
    let got = read_args(&["check", "5", "--vs", "x"]);
    assert!(matches!(got, Err(Error::Parse(_))), "{got:?}");
}
