//! Content: `validate`, `tables`, `table` and `odds --table` — a pinned
//! message for every problem class, user tables that override built-in
//! ones, table rolls with their trails, filters, decks and table odds.

use crate::common::{fails, fixture, ok, ok_json};

/// Problems reported for one fixture folder (only the fixture's own lines).
fn fixture_problems(name: &str) -> String {
    let dir = fixture(&format!("invalid/{name}"));
    let err = fails(&["validate", "--content", &dir]);
    assert!(
        err.contains("fix them and run `tablewright validate` again"),
        "{err}"
    );
    err.lines()
        .scan(false, |keep, line| {
            if line.starts_with("tests/fixtures/") || line.contains("/tests/fixtures/") {
                *keep = true;
            } else if !line.starts_with("    ") {
                *keep = false;
            }
            Some((*keep).then(|| line.replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), "")))
        })
        .flatten()
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn built_in_content_is_valid() {
    let out = ok(&["validate"]);
    assert!(out.starts_with("ok: "), "{out}");
    let json = ok_json(&["--json", "validate"]);
    assert!(json["tables"].as_u64().unwrap() >= 40);
    assert_eq!(json["problems"].as_array().unwrap().len(), 0);
}

/// The pinned message of the invalid fixture `name`.
fn assert_pinned(name: &str, expected: &str) {
    let got = fixture_problems(name);
    assert!(
        got.contains(expected),
        "{name}:\n{got}\n--- expected to contain ---\n{expected}"
    );
}

/// One `#[test]` per problem class: `test: "fixture" => "message"`.
macro_rules! pinned {
    ($($test:ident: $name:literal => $expected:expr,)*) => {
        $(
            #[test]
            fn $test() {
                assert_pinned($name, $expected);
            }
        )*
    };
}

// Every problem class has a pinned message.
pinned! {
    pinned_gap: "gap" => "tables.toml:2:6: [fx.gap] no row covers 3-4\n    id = \"fx.gap\"\n         ^^^^^^^^\n    hint: add rows for these results, or widen a neighbour's range",
    pinned_overlap: "overlap" => "tables.toml:14:8: [fx.overlap] row `3-6` overlaps row `1-4` on 3-4\n    roll = \"3-6\"\n           ^^^^^\n",
    pinned_outside: "outside" => "tables.toml:14:8: [fx.outside] row `13-14` falls outside d12 (1-12)",
    pinned_weight: "weight" => "tables.toml:8:10: [fx.weight] weight 0 is not positive",
    pinned_empty: "empty" => "tables.toml:2:6: [fx.empty] the table has no rows",
    pinned_dice: "dice" => "tables.toml:11:18: [fx.dice] `{2d6q}`: `q` is not a modifier of a die\n    text = \"Lose {2d6q} mettle.\"\n                     ^\n",
    pinned_reference: "reference" => "tables.toml:11:22: [fx.reference] row `Typo` refers to `{table:core.mutaton}`, which does not exist\n    text = \"Roll again: {table:core.mutaton}\"\n                         ^^^^^^^^^^^^^^^^^^\n    hint: did you mean `core.mutation`?",
    pinned_cycle: "cycle" => "[fx.a] tables refer to each other in a loop: fx.a → fx.b → fx.a",
    pinned_rollagain: "rollagain" => "[fx.rollagain] every row says to roll again, so a roll never ends",
    pinned_distinct: "distinct" => "`reroll = 2` with `distinct` needs 2 different rows, but only 1 rows do not roll again",
    pinned_ability: "ability" => "tables.toml:12:12: [fx.ability] `ability = \"STRENGTH\"` is not an ability of the core rules\n    effects = [{ ability = \"STRENGTH\", change = \"-1\", lasts = \"permanent\" }]\n               ^\n    hint: did you mean `STR`? The core abilities are STR, AGI, WIT",
    pinned_clamp: "clamp" => "[fx.clamp] `change = \"+d4\"` could push STR past its bounds, and the row does not say how it clamps",
    pinned_difficulty: "difficulty" => "[fx.difficulty] `difficulty = -2` is below 0",
    pinned_hazard: "hazard" => "[fx.hazard] `hazard = \"3d6+3\"` is not a hazard in Pool+Bonus form",
    pinned_unknown_key: "unknown_key" => "tables.toml:10:1: unknown key `nmae` in a [[table.row]]\n    nmae = \"Typo\"\n    ^^^^\n    hint: did you mean `name`? Keys here:",
    pinned_malformed: "malformed" => "tables.toml:3:23: this is not valid TOML: invalid basic string, expected `\"`\n    title = \"Missing quote\n                          ^\n",
    pinned_non_utf8: "non_utf8" => "tables.toml:3:13: the file is not UTF-8 text",
    pinned_duplicate: "duplicate" => "tables.toml:13:1: [fx.twice] the id `fx.twice` is already used by",
    pinned_breeding: "breeding" => "[fx.breeding] roll-again rows ask for 5.00 new rolls per roll on average",
    pinned_weights: "weights" => "[fx.heavy] the weights add up to more than 2^53",
    pinned_never: "never" => "tables.toml:14:8: [fx.never] row `17-20` can never come up on d66",
    // A position after a TOML escape is approximate, but never a panic.
    pinned_escape: "escape" => "[fx.escape] a `{` that is never closed",
    // Found by fuzzing: an empty key used to hang the key search.
    pinned_empty_key: "empty_key" => "tables.toml:2:2: unknown key `` in the file",
}

#[test]
fn every_problem_is_collected_not_just_the_first() {
    // Both typos are listed.
    let got = fixture_problems("unknown_key");
    assert!(got.contains("unknown key `tag`"), "{got}");
}

#[test]
fn a_user_table_overrides_the_built_in_one_and_says_so() {
    let dir = fixture("override");
    let out = ok(&["tables", "--content", &dir]);
    let line = out.lines().find(|l| l.starts_with("core.injury ")).unwrap();
    assert!(line.contains("Gentle injuries"), "{out}");
    assert!(
        out.contains("overrides content/core/injury.toml (built in)"),
        "{out}"
    );
    let rolled = ok(&[
        "table",
        "core.injury",
        "--content",
        &dir,
        "--seed",
        "s",
        "--times",
        "5",
    ]);
    assert!(
        rolled
            .lines()
            .filter(|l| l.starts_with("core.injury"))
            .all(|l| l.contains("Bruised") || l.contains("Winded")),
        "{rolled}"
    );
}

#[test]
fn table_rolls_keep_their_trail_and_reproduce() {
    let args = [
        "table",
        "core.mutation",
        "--seed",
        "goblin-night",
        "--times",
        "6",
    ];
    let first = ok(&args);
    assert_eq!(first, ok(&args));
    assert_eq!(
        first.matches("trail: core.mutation d12 = ").count(),
        6,
        "{first}"
    );
    // Asking for more keeps the first results.
    let more = ok(&[
        "table",
        "core.mutation",
        "--seed",
        "goblin-night",
        "--times",
        "8",
    ]);
    assert!(more.starts_with(&first));
    let json = ok_json(&["--json", "table", "core.injury", "--seed", "x"]);
    let r = &json["results"][0];
    assert_eq!(r["table"], "core.injury");
    let d12 = r["trail"][0]["result"].as_i64().unwrap();
    assert!((1..=12).contains(&d12));
}

#[test]
fn table_filters_and_decks() {
    let dir = fixture("override");
    let deck = ["table", "house.deck", "--content", &dir, "--seed", "d"];
    let out = ok(&[&deck[..], &["--times", "3"]].concat());
    for card in ["Crow", "Sun", "Moon"] {
        assert_eq!(out.matches(&format!("] {card}:")).count(), 1, "{out}");
    }
    let err = fails(&[&deck[..], &["--times", "4"]].concat());
    assert!(err.contains("a deck of 3 rows"), "{err}");
    let out = ok(&[&deck[..], &["--tag", "dark", "--times", "2"]].concat());
    assert!(!out.contains("Sun"), "{out}");
    let err = fails(&[&deck[..], &["--tag", "lava"]].concat());
    assert!(
        err.contains("no row of `house.deck` has the tag `lava`; its tags are: bright, dark"),
        "{err}"
    );
    let err = fails(&["table", "core.mutaton", "--seed", "d"]);
    assert!(err.contains("did you mean `core.mutation`?"), "{err}");
}

#[test]
fn table_odds_include_sub_tables_and_roll_twice() {
    let json = ok_json(&["--json", "odds", "--table", "core.mutation"]);
    // d12 with "roll twice" on 12: one result holds 1 / (1 − 2/12) = 1.2 rows.
    assert!((json["draws_per_result"].as_f64().unwrap() - 1.2).abs() < 1e-12);
    let rows = json["rows"].as_array().unwrap();
    let total: f64 = rows.iter().map(|r| r["chance"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let mind = &rows[0];
    assert_eq!(mind["label"], "1-3");
    assert!((mind["chance"].as_f64().unwrap() - 0.25).abs() < 1e-12);
    let sub = &mind["sub"][0];
    assert_eq!(sub["id"], "core.mutation.mind");
    let first = &sub["rows"][0];
    assert!((first["overall"].as_f64().unwrap() - 0.025).abs() < 1e-12);
    assert!((first["expected"].as_f64().unwrap() - 0.03).abs() < 1e-12);
    let text = ok(&["odds", "--table", "core.mutation"]);
    assert!(
        text.contains("one result holds 1.2000 rows on average"),
        "{text}"
    );
}
