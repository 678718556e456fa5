//! Issue 41: `import` of Perchance generators and Obsidian Dice Roller
//! notes, and `export --format perchance`. The project's fixtures
//! (tests/fixtures/generators) hold every construct carried, each row's
//! chance checked against Perchance's and the plugin's reading; the real
//! generators in `../shared/fixtures/imports/perchance` (read from there,
//! never copied) are imported when that folder is present; every refused
//! construct has a case pinned to its message and place; the round trip
//! export → import gives the same tables and odds.

use std::path::Path;

use super::generator_kit::{
    assert_chances, chances, corpus, fixture, ids, import, import_back, refused_exports,
    refused_missing, round_trip_export, rows, table, tables,
};
use crate::common::{ok, run_in, stderr, stdout, temp_dir};

#[test]
fn every_perchance_construct_becomes_tables_with_the_same_odds() {
    let (o, dir) = import("pc-import", &[&fixture("every.perchance")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("1 × top-level properties no text refers to (page settings) left out"),
        "{}",
        stdout(&o)
    );
    let all = tables(&dir, "every.toml");
    let p = "imported.every.";
    let id = |s: &str| format!("{p}{s}");
    assert_eq!(
        ids(&all),
        [
            "output",
            "encounter",
            "beast",
            "beast-common",
            "beast-rare",
            "size",
            "place",
            "place-wet",
            "place-dry",
            "choice-on-line-7",
            "choice-on-line-8",
            "beast-rare-name",
        ]
        .map(id)
    );
    let t = |s: &str| format!("{{table:{p}{s}}}");
    // ^3, ^0.5, 1, 1 are 6 : 1 : 2 : 2.
    assert_chances(
        table(&all, &id("encounter")),
        &[
            (
                &format!("{} {} near the {}", t("size"), t("beast"), t("place-wet")),
                6,
                11,
            ),
            (
                &format!(
                    "A {{pick: lone | pair of}} traveller{}",
                    t("choice-on-line-7")
                ),
                1,
                11,
            ),
            (
                &format!(
                    "{{1d6+1}} crows, {{pick: A | B | C}} marked, {}",
                    t("choice-on-line-8")
                ),
                2,
                11,
            ),
            (&t("beast-rare-name"), 2, 11),
        ],
    );
    // A sublist is picked first, then its item (not its property); `cat`
    // has only a property and prints its own text.
    assert_chances(
        table(&all, &id("beast")),
        &[
            (&t("beast-common"), 1, 3),
            (&t("beast-rare"), 1, 3),
            ("cat", 1, 3),
        ],
    );
    assert_chances(table(&all, &id("beast-rare")), &[("wyvern", 1, 1)]);
    assert_chances(
        table(&all, &id("beast-common")),
        &[("wolf", 1, 3), ("boar", 2, 3)],
    );
    // ^0.1, 1, ^0.4, ^0 (never: left out) are 1 : 10 : 4.
    assert_chances(
        table(&all, &id("size")),
        &[("small", 1, 15), ("big", 10, 15), ("huge", 4, 15)],
    );
    assert_chances(
        table(&all, &id("place-wet")),
        &[("marsh", 1, 2), ("river [deep]", 1, 2)],
    );
    assert_chances(
        table(&all, &id("place-dry")),
        &[("a dry {pick: hill | dune}", 1, 1)],
    );
    assert_chances(
        table(&all, &id("choice-on-line-7")),
        &[("", 1, 2), ("s", 1, 2)],
    );
    assert_chances(
        table(&all, &id("choice-on-line-8")),
        &[("big", 3, 4), ("small", 1, 4)],
    );
    assert_chances(table(&all, &id("beast-rare-name")), &[("griffon", 1, 1)]);
    assert_chances(table(&all, &id("output")), &[(&t("encounter"), 1, 1)]);
    let dir_s = dir.join("out").display().to_string();
    let rolled = ok(&["--content", &dir_s, "table", &id("output"), "--seed", "s"]);
    assert!(!rolled.trim().is_empty(), "{rolled}");
}

#[test]
fn perchance_javascript_is_refused_at_its_place_and_skipped_with_what_rolls_on_it() {
    let f = fixture("unsupported.perchance");
    let (o, dir) = import("pc-import", &[&f]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("unsupported.perchance:7:2: `[color.upperCase]` uses `upperCase`"),
        "{err}"
    );
    assert!(!dir.join("out").exists());
    let (o, dir) = import("pc-import", &["--skip-unsupported", &f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("unsupported.perchance:7:2: `[color.upperCase]` uses `upperCase`, one of Perchance's JavaScript methods (table `shade` skipped)"), "{out}");
    assert!(out.contains("unsupported.perchance:13:1: table `output` skipped: it rolls on `shade`, which was skipped"), "{out}");
    let all = tables(&dir, "unsupported.toml");
    assert_eq!(
        ids(&all),
        ["imported.unsupported.color", "imported.unsupported.mood"]
    );
    assert_chances(&all[1], &[("calm", 1, 3), ("grim", 2, 3)]);
}

#[test]
fn obsidian_dice_roller_tables_become_tables_with_the_plugin_odds() {
    let (o, dir) = import(
        "pc-import",
        &[
            "--from",
            "obsidian",
            &fixture("shrine.md"),
            &fixture("inns.md"),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .contains("1 × tables without a block id (the Dice Roller cannot roll them) left out"),
        "{}",
        stdout(&o)
    );
    let all = tables(&dir, "shrine.toml");
    assert_eq!(
        ids(&all),
        [
            "imported.shrine.finds",
            "imported.shrine.omens",
            "imported.shrine.shelter"
        ]
    );
    let finds = &all[0];
    assert_eq!(finds["dice"].as_str(), Some("1d8"));
    assert_eq!(rows(finds)[0]["name"].as_str(), Some("Coins"));
    // `1–3` (en dash) and `4,5` are ranges; braces and `\|` are words.
    assert_chances(
        finds,
        &[
            ("{2d6} silver", 3, 8),
            ("{table:imported.shrine.omens}", 2, 8),
            ("a broken {{idol}} | shard", 3, 8),
        ],
    );
    assert_chances(
        &all[1],
        &[("crows", 1, 3), ("rain", 1, 3), ("a red moon", 1, 3)],
    );
    // No `dice:` column: a row each as likely, its cells joined; a roll
    // on a table of another note given with it.
    assert_chances(
        &all[2],
        &[
            ("a cave | dry", 1, 2),
            ("{table:imported.inns.shelter}", 1, 2),
        ],
    );
    let inns = tables(&dir, "inns.toml");
    assert_chances(&inns[0], &[("an inn", 3, 4), ("a barn", 1, 4)]);
}

/// One refused construct per test: `import ARGS FILE` in a fresh folder
/// fails with this message at this place, and writes nothing.
macro_rules! refused {
    ($($name:ident: [$($arg:literal),*] $file:literal, $text:literal => $place:literal, $what:literal;)*) => {$(
        #[test]
        fn $name() {
            let dir = temp_dir("pc-refused");
            std::fs::write(dir.join($file), $text).unwrap();
            let o = run_in(&dir, &["import", $($arg,)* $file, "--to", "out"]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{err}");
            let want = format!("{}: {}", $place, $what);
            assert!(err.contains(&want), "want {want} in\n{err}");
            assert!(err.contains("--skip-unsupported"), "{err}");
            assert!(!dir.join("out").exists());
        }
    )*};
}

refused! {
    pc_dynamic_odds_are_refused: [] "g.perchance", "l\n\ta ^[x]\n\tb\n" => "g.perchance:2:4", "`^[…]`: odds that change with a condition";
    pc_variable_is_refused: [] "g.perchance", "l\n\t[x = m]\nm\n\ta\n" => "g.perchance:2:2", "`[x = m]` sets a variable";
    pc_method_is_refused: [] "g.perchance", "l\n\t[m.upperCase]\nm\n\ta\n" => "g.perchance:2:2", "`[m.upperCase]` uses `upperCase`";
    pc_function_is_refused: [] "g.perchance", "l\n\tsee [f(1)]\n" => "g.perchance:2:6", "`[f(1)]` calls a JavaScript function";
    pc_condition_is_refused: [] "g.perchance", "l\n\t[a > 1 ? b : c]\n" => "g.perchance:2:2", "`[a > 1 ? b : c]` is a JavaScript condition";
    pc_list_by_variable_is_refused: [] "g.perchance", "l\n\t[names[g]]\n" => "g.perchance:2:2", "`[names[g]]` picks a list by a variable's value";
    pc_missing_list_is_refused: [] "g.perchance", "l\n\t[nowhere]\n" => "g.perchance:2:2", "`[nowhere]` names no list of this generator";
    pc_import_is_refused: [] "g.perchance", "l\n\t{import:other}\n" => "g.perchance:2:2", "`{import:other}` imports another Perchance generator";
    pc_article_is_refused: [] "g.perchance", "l\n\t{a} owl\n" => "g.perchance:2:2", "`{a}` (a or an) depends on the words beside it";
    pc_plural_is_refused: [] "g.perchance", "l\n\towl{s}\n" => "g.perchance:2:5", "`{s}` (a plural s)";
    pc_empty_last_option_is_refused: [] "g.perchance", "l\n\t{a|}\n" => "g.perchance:2:2", "an empty last option";
    pc_join_of_no_list_is_refused: [] "g.perchance", "l\n\t[f = joinLists(a, nowhere)]\na\n\tx\n" => "g.perchance:2:2", "`joinLists(…)` joins `nowhere`, which names no list of this generator";
    pc_join_read_again_is_refused: [] "g.perchance", "l\n\t[f = joinLists(a)]\n\t[f]\na\n\tx\n" => "g.perchance:2:2", "`f` is set to `joinLists(…)` and read elsewhere";
    pc_sentence_case_of_no_list_is_refused: [] "g.perchance", "l\n\tsee [nowhere.sentenceCase]\n" => "g.perchance:2:6", "`[nowhere.sentenceCase]` names no list of this generator";
    pc_sentence_case_of_a_list_rolling_another_is_refused: [] "g.perchance", "l\n\t[a.sentenceCase]\na\n\t[b] owl\nb\n\tx\n" => "g.perchance:2:2", "`[a.sentenceCase]`: a row of the list starts with a roll on another list";
    pc_odd_indent_is_refused: [] "g.perchance", "l\n   a\n" => "g.perchance:2:4", "3 spaces before this line, not a whole number of levels of 2";
    pc_line_too_deep_is_refused: [] "g.perchance", "l\n\t\ta\n" => "g.perchance:2:3", "a line indented more than one level under the line above";
    pc_sublist_of_words_is_refused: [] "g.perchance", "l\n\tbig cat\n\t\tx\n" => "g.perchance:2:2", "`big cat`: items under an item whose text is not a name";
    pc_bad_weight_is_refused: [] "g.perchance", "l\n\ta ^x\n" => "g.perchance:2:4", "a `^` that is not followed by a weight";
    pc_every_weight_zero_is_refused: [] "g.perchance", "l\n\ta ^0\n" => "g.perchance:1:1", "every item of `l` has weight 0";
    pc_range_high_to_low_is_refused: [] "g.perchance", "l\n\t{6-1}\n" => "g.perchance:2:2", "`{6-1}`: a range from high to low";
    pc_range_below_zero_is_refused: [] "g.perchance", "l\n\t{-3-2}\n" => "g.perchance:2:2", "`{-3-2}` (as `1d6-4`): the dice expression `1d6-4` can go below 0";
    pc_second_list_of_a_name_is_refused: [] "g.perchance", "l\n\ta\nl\n\tb\n" => "g.perchance:3:1", "a second list or property named `l`";
    pc_unclosed_bracket_is_refused: [] "g.perchance", "l\n\t[a\n" => "g.perchance:2:2", "a `[` that is never closed";
    pc_choice_weight_not_a_number_is_refused: [] "g.perchance", "l\n\t{a^2 |b}\n" => "g.perchance:2:4", "`^2 `: a weight in a choice that is not a number alone";
    ob_gap_is_refused: ["--from", "obsidian"] "n.md", "| dice: d4 | x |\n|--|--|\n| 1-2 | a |\n| 4 | b |\n\n^t\n" => "n.md:1:1", "no row for 3, which the die can roll";
    ob_overlap_is_refused: ["--from", "obsidian"] "n.md", "| dice: d4 | x |\n|--|--|\n| 1-3 | a |\n| 3-4 | b |\n\n^t\n" => "n.md:4:1", "the results 3-4 overlap the row on line 3";
    ob_comma_range_is_refused: ["--from", "obsidian"] "n.md", "| dice: d4 | x |\n|--|--|\n| 1, 3 | a |\n| 2 | b |\n| 4 | c |\n\n^t\n" => "n.md:3:3", "`1, 3`: the plugin reads it as 1 to 3";
    ob_wide_lookup_is_refused: ["--from", "obsidian"] "n.md", "| dice: d2 | x | y |\n|--|--|--|\n| 1 | a | b |\n| 2 | c | d |\n\n^t\n" => "n.md:1:1", "a `dice:` table with more than one result column";
    ob_column_link_is_refused: ["--from", "obsidian"] "n.md", "| x |\n|--|\n| `dice: [[n^t\\|Col]]` |\n\n^t\n" => "n.md:3:3", "`dice: [[n^t\\|Col]]`: a column of a table";
    ob_several_rolls_are_refused: ["--from", "obsidian"] "n.md", "| x |\n|--|\n| `dice: 2d[[n^u]]` |\n\n^t\n" => "n.md:3:3", "`dice: 2d[[n^u]]`: several rolls on a table";
    ob_dice_read_otherwise_are_refused: ["--from", "obsidian"] "n.md", "| x |\n|--|\n| `dice: 1d6/2` |\n\n^t\n" => "n.md:3:3", "`dice: 1d6/2`: the dice expression `1d6/2` uses `/`";
    ob_missing_note_is_refused: ["--from", "obsidian"] "n.md", "| x |\n|--|\n| `dice: [[other^u]]` |\n\n^t\n" => "n.md:3:3", "a roll on `other.u`, a table in no file given to import";
    ob_second_block_id_is_refused: ["--from", "obsidian"] "n.md", "| x |\n|--|\n| a |\n\n^t\n\n| y |\n|--|\n| b |\n\n^t\n" => "n.md:7:1", "a second table with the block id ^t";
}

/// Issue 53: notes without a block id (oracle notes) import, each table
/// named after its note and heading, distinct when headings repeat.
#[test]
fn notes_without_a_block_id_import_named_by_note_and_heading() {
    let dir = temp_dir("pc-note");
    let omens = "## Omens\n\n| x |\n|--|\n| a |\n\n## Omens\n\n| y |\n|--|\n| b |\n";
    std::fs::write(dir.join("n.md"), omens).unwrap();
    std::fs::write(dir.join("m.md"), "## Omens\n\n| z |\n|--|\n| c |\n").unwrap();
    std::fs::write(dir.join("bare.md"), "| w |\n|--|\n| d |\n").unwrap();
    let o = run_in(
        &dir,
        &[
            "import", "--from", "obsidian", "n.md", "m.md", "bare.md", "--to", "out",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        ids(&tables(&dir, "n.toml")),
        ["imported.n.omens", "imported.n.omens-2"]
    );
    assert_eq!(ids(&tables(&dir, "m.toml")), ["imported.m.omens"]);
    let bare = tables(&dir, "bare.toml");
    assert_eq!(ids(&bare), ["imported.bare.bare"]);
    assert_eq!(bare[0]["title"].as_str(), Some("bare"));
    assert!(
        stdout(&o).contains("named after their heading"),
        "{}",
        stdout(&o)
    );
    std::fs::write(dir.join("none.md"), "# Nothing\n\nno table\n").unwrap();
    let o = run_in(
        &dir,
        &["import", "--from", "obsidian", "none.md", "--to", "out"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("none.md:1:1: no Markdown table in this note"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn perchance_export_imports_back_as_the_same_tables_and_odds() {
    let (text, dir) = round_trip_export("perchance");
    // A d12's rows weigh their widths; a 2d6's the ways to throw them.
    assert!(text.contains("// Round trip: main (rt.main)\nrt_main\n  A {red|blue|[rt_weights]} cart with [dice_2d6] sacks ^5\n"), "{text}");
    assert!(
        text.contains("rt_two\n  low ^5\n  high, see [rt_weights] ^7\n"),
        "{text}"
    );
    assert!(text.contains("// dice: 2d6\ndice_2d6\n  2^1\n"), "{text}");
    assert!(text.ends_with("$output = [rt_main]\n"), "{text}");
    import_back(&dir, "all.perchance", &text);
    refused_exports(&dir, "perchance");
    refused_missing(&dir, "perchance");
}

/// Each real generator (without `.perchance.txt`): where it is refused
/// (line, column), and with --skip-unsupported its tables and rows. Issue
/// 53: the page's `title` and `description` lists are left out, so the
/// eleven generators only they held back import whole.
type Real = (&'static str, &'static [(usize, usize)], usize, usize);

const REAL: &[Real] = &[
    ("color-name", &[(46, 12), (46, 36), (46, 64)], 1, 7),
    ("english-town-name", &[], 2, 937),
    ("greek-monster", &[], 2, 25),
    ("monster-edited", &[], 2, 181),
    ("monster-type", &[], 2, 84),
    ("nautical-term", &[], 2, 226),
    ("occupation", &[], 2, 962),
    ("person-adjective", &[], 2, 394),
    ("room-type", &[], 2, 109),
    // Issue 53: a list's `$output` joining its items, and a variable set
    // once and read in the same text (a row per item), come in whole.
    ("simple-gen-footer", &[], 1, 1),
    ("spec-dynamic-reference", &[], 6, 11),
    ("spec-hierarchical-creature", &[], 8, 15),
    ("spec-properties-character", &[(13, 8), (14, 15)], 4, 6),
    ("spec-race-properties", &[], 3, 5),
    ("spec-weighted-rarity", &[], 2, 5),
    ("terrain", &[], 2, 63),
    (
        "test-dragon-scales-dynamic-odds",
        &[(11, 8), (16, 7)],
        3,
        10,
    ),
    // A variable set to an item's evaluated words: a row for each of the
    // 11 + 41 outcomes.
    ("test-fruit-ranges-evaluateitem", &[], 3, 55),
    ("test-greek-god-output", &[], 4, 8),
    ("test-hierarchical-animal", &[], 5, 13),
    // `[list.sentenceCase]` and `joinLists(…)` come in (issue 53).
    ("test-image-prompt-joinlists", &[], 8, 23),
    ("test-restaurant-description", &[], 8, 28),
    ("type-of-art-edited", &[], 2, 289),
    ("venue", &[], 2, 195),
];

/// Places `file:line:column` named in a report.
fn places(text: &str, file: &str) -> Vec<(usize, usize)> {
    let mark = format!("{file}.perchance.txt:");
    let mut out: Vec<(usize, usize)> = text
        .lines()
        .filter_map(|l| {
            let rest = &l[l.find(&mark)? + mark.len()..];
            let mut it = rest.splitn(3, ':');
            Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
        })
        .collect();
    out.dedup();
    out
}

#[test]
fn the_real_perchance_generators_import_with_the_original_odds() {
    let Some(c) = corpus(
        "perchance",
        "the real Perchance generators are not imported",
    ) else {
        return;
    };
    let files = std::fs::read_dir(&c).unwrap().count();
    assert_eq!(files, REAL.len(), "the corpus holds {files} generators");
    for &(name, refused, n_tables, n_rows) in REAL {
        let path = c
            .join(format!("{name}.perchance.txt"))
            .display()
            .to_string();
        let (o, dir) = import("pc-import", &["--from", "perchance", &path]);
        let err = stderr(&o);
        if refused.is_empty() {
            assert!(o.status.success(), "{name}: {err}");
        } else {
            assert_eq!(o.status.code(), Some(1), "{name}: {err}");
            assert_eq!(places(&err, name), refused, "{name}: {err}");
            assert!(!dir.join("out").exists(), "{name}");
        }
        let (o, dir) = import(
            "pc-import",
            &["--from", "perchance", "--skip-unsupported", &path],
        );
        let out = stdout(&o);
        // Issue 53: nothing imported at all is a failure, said so.
        if n_tables == 0 {
            assert_eq!(o.status.code(), Some(1), "{name}: {out}");
            assert!(
                stderr(&o)
                    .contains("nothing was imported: --skip-unsupported left out every table"),
                "{name}: {}",
                stderr(&o)
            );
            assert!(!dir.join("out").exists(), "{name}");
        } else {
            assert!(o.status.success(), "{name}: {}", stderr(&o));
        }
        for p in refused {
            assert!(
                out.contains(&format!("{name}.perchance.txt:{}:{}: ", p.0, p.1)),
                "{name}: {out}"
            );
        }
        if n_tables == 0 {
            assert!(out.contains("nothing imported"), "{name}: {out}");
            continue;
        }
        let all = tables(&dir, &format!("{name}.toml"));
        assert_eq!(all.len(), n_tables, "{name}: {:?}", ids(&all));
        let n: usize = all.iter().map(|t| rows(t).len()).sum();
        assert_eq!(n, n_rows, "{name}");
    }
}

/// Each row's weight over its table's total, from a real generator
/// imported with --skip-unsupported.
fn real_table(c: &Path, name: &str, list: &str) -> toml::Value {
    let path = c
        .join(format!("{name}.perchance.txt"))
        .display()
        .to_string();
    let (o, dir) = import(
        "pc-import",
        &["--from", "perchance", "--skip-unsupported", &path],
    );
    assert!(o.status.success(), "{name}: {}", stderr(&o));
    let all = tables(&dir, &format!("{name}.toml"));
    table(&all, &format!("imported.{name}.{list}")).clone()
}

#[test]
fn the_real_generators_weights_are_perchances_exactly() {
    let Some(c) = corpus(
        "perchance",
        "the real Perchance generators are not imported",
    ) else {
        return;
    };
    // common^10, uncommon^3, rare^1, legendary^0.1: 100 : 30 : 10 : 1.
    assert_chances(
        &real_table(&c, "spec-weighted-rarity", "rarity"),
        &[
            ("common", 100, 141),
            ("uncommon", 30, 141),
            ("rare", 10, 141),
            ("legendary", 1, 141),
        ],
    );
    // pepper ^2, salt, chilli flakes ^0.1, oregano: 20 : 10 : 1 : 10.
    assert_chances(
        &real_table(&c, "test-restaurant-description", "condiment"),
        &[
            ("pepper", 20, 41),
            ("salt", 10, 41),
            ("chilli flakes", 1, 41),
            ("oregano", 10, 41),
        ],
    );
    // 178 monsters of weight 1, drop bear ^0.5 and vampire watermelon ^0.2.
    let monster = real_table(&c, "monster-edited", "monster");
    let odds = chances(&monster);
    assert_eq!(odds.len(), 180);
    for (text, n, d) in odds {
        let want = match text.as_str() {
            "drop bear" => 5,
            "vampire watermelon" => 2,
            _ => 10,
        };
        assert_eq!((n, d), (want, 1787), "{text}");
    }
    // A sublist is picked first (each of three as likely), then its item.
    let animal = real_table(&c, "test-hierarchical-animal", "animal");
    assert_chances(
        &animal,
        &[
            (
                "{table:imported.test-hierarchical-animal.animal-mammal}",
                1,
                3,
            ),
            (
                "{table:imported.test-hierarchical-animal.animal-reptile}",
                1,
                3,
            ),
            (
                "{table:imported.test-hierarchical-animal.animal-insect}",
                1,
                3,
            ),
        ],
    );
    // Issue 53: a variable set once is a row per item, each reading the
    // item wherever the text reads the variable (Perchance prints it
    // where it is set too).
    assert_chances(
        &real_table(&c, "spec-dynamic-reference", "g-on-line-14"),
        &[
            (
                "maleHello, I'm {table:imported.spec-dynamic-reference.names-male} and I'm male.",
                1,
                2,
            ),
            (
                "femaleHello, I'm {table:imported.spec-dynamic-reference.names-female} and I'm female.",
                1,
                2,
            ),
        ],
    );
    // A list's `$output` joining its items in `<p>`s: both, a line each,
    // the links their words.
    let footer = real_table(&c, "simple-gen-footer", "output");
    let text = chances(&footer)[0].0.clone();
    assert!(
        text.trim_start()
            .starts_with("The useful generators list is a handy list")
            && text.contains("projects.\nIf you'd like")
            && !text.contains('<'),
        "{text}"
    );
    // `{…|…|…}` with references in it: a pick.
    assert_chances(
        &real_table(&c, "test-hierarchical-animal", "output"),
        &[(
            "{pick: {table:imported.test-hierarchical-animal.animal-mammal} | {table:imported.test-hierarchical-animal.animal-reptile} | {table:imported.test-hierarchical-animal.animal-insect}}",
            1,
            1,
        )],
    );
}

/// Issue 53: `[list.sentenceCase]` rolls a copy of the list with each
/// row's first letter a capital, and `[f = joinLists(a, b)]` a table of
/// both lists' items, each with its own weight.
#[test]
fn perchance_sentence_case_and_join_lists_come_in_as_tables() {
    let f = fixture("steps.perchance");
    let (o, dir) = import("pc-import", &[&f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "steps.toml");
    let id = |s: &str| format!("imported.steps.{s}");
    let t = |s: &str| format!("{{table:{}}}", id(s));
    assert_chances(
        table(&all, &id("light-sentence-case")),
        &[
            ("Backlit", 2, 5),
            ("{pick: Soft | Harsh} light", 2, 5),
            ("\u{c9}lan", 1, 5),
        ],
    );
    assert_chances(
        table(&all, &id("style-punk")),
        &[
            ("aged", 1, 9),
            ("lucid dream", 2, 9),
            ("steampunk", 5, 9),
            ("hopepunk", 1, 9),
        ],
    );
    assert_chances(
        table(&all, &id("output")),
        &[
            (
                &format!(
                    "{}. {}. {}.",
                    t("mood"),
                    t("light-sentence-case"),
                    t("style-punk")
                ),
                1,
                3,
            ),
            (
                &format!("{}. {}", t("light-sentence-case"), t("style-punk")),
                2,
                3,
            ),
        ],
    );
}
