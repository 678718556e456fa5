//! Issue 41: `import` of Inspiration Pad Pro (`.ipt`) and TableSmith
//! (`.tab`) generator files, and `export --format ipt`. The project's own
//! fixtures (tests/fixtures/generators) hold every construct carried; the
//! real files in `../shared/fixtures/imports/` (read from there, never
//! copied) are imported when that folder is present — each table counted,
//! each row's chance checked against the original engine's reading — and
//! the files using what cannot be carried are refused at the right line
//! and imported in part with `--skip-unsupported`. Every refused construct
//! has a case pinned to its message and place; the round trip export →
//! import gives the same tables and odds.

use super::generator_kit::{assert_chances, corpus, fixture, import, rows, table, tables};
use crate::common::{ok, run_in, stderr, stdout, temp_dir};

#[test]
fn every_ipp_construct_becomes_tables_with_the_same_odds() {
    let (o, dir) = import("gen-import", &[&fixture("every.ipt"), &fixture("inns.ipt")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "every.toml");
    let ids: Vec<&str> = all.iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "imported.every.main",
            "imported.every.colour",
            "imported.every.load",
            "imported.every.weather",
            "imported.every.percent",
            "imported.every.rank",
            "imported.every.load-1d3",
            "imported.every.choice-on-line-11",
            "imported.every.every",
        ]
    );
    let j = "\n\n";
    assert_chances(
        table(&all, "imported.every.main"),
        &[
            (
                &format!(
                    "{{table:imported.every.colour}} cart with {{table:imported.every.load}}{j}{{table:imported.every.load}}"
                ),
                1,
                4,
            ),
            (
                "{table:imported.every.load-1d3}, or {pick: a mule | an ox | a goat}",
                1,
                4,
            ),
            (
                "A {table:imported.every.choice-on-line-11} lies broken, {2d6} feet from {table:imported.inns.shelter}\nnothing else",
                2,
                4,
            ),
        ],
    );
    assert_chances(
        table(&all, "imported.every.colour"),
        &[("red", 3, 4), ("blue", 1, 4)],
    );
    // 2d6: 13-20 never comes up and is cut off.
    assert_chances(
        table(&all, "imported.every.weather"),
        &[("storm", 6, 36), ("clear", 24, 36), ("rain", 6, 36)],
    );
    // No Roll: 1d the highest end.
    let percent = table(&all, "imported.every.percent");
    assert_eq!(percent["dice"].as_str(), Some("1d100"));
    assert_chances(percent, &[("low", 25, 100), ("high", 75, 100)]);
    let rank = table(&all, "imported.every.rank");
    assert_eq!(rows(rank)[1]["name"].as_str(), Some("High"));
    assert_chances(rank, &[("a squire", 1, 2), ("a knight", 1, 2)]);
    let l = "{table:imported.every.load}";
    assert_chances(
        table(&all, "imported.every.load-1d3"),
        &[
            (l, 1, 3),
            (&format!("{l}{j}{l}"), 1, 3),
            (&format!("{l}{j}{l}{j}{l}"), 1, 3),
        ],
    );
    assert_chances(
        table(&all, "imported.every.choice-on-line-11"),
        &[("wheel", 1, 3), ("", 1, 3), ("spoke", 1, 3)],
    );
    assert_chances(
        table(&all, "imported.every.every"),
        &[(
            "Found on the road:\n{table:imported.every.main}\n(end)",
            1,
            1,
        )],
    );
    // A zero weight never comes up: left out.
    let inns = tables(&dir, "inns.toml");
    assert_chances(&inns[0], &[("an inn", 1, 2), ("a barn", 1, 2)]);
    // Every imported table rolls.
    let dir_s = dir.join("out").display().to_string();
    let rolled = ok(&[
        "--content",
        &dir_s,
        "table",
        "imported.every.every",
        "--seed",
        "s",
    ]);
    assert!(rolled.contains("Found on the road:"), "{rolled}");
}

/// IPP reads `\|` in an inline choice as a bar inside its option, so
/// `[|a\|b|c]` is two options, each as likely: `a|b` or `c`. A pick would
/// split the bar again (three options at 1/3), so such options become a
/// table of their own, as a brace in an option does.
#[test]
fn an_escaped_bar_or_brace_stays_inside_its_ipp_option() {
    let dir = temp_dir("gen-bar");
    std::fs::write(
        dir.join("bar.ipt"),
        "Table: Sign\nA [|a\\|b|c] sign, [|x\\{|y|z] or [|p|q]\n",
    )
    .unwrap();
    let o = run_in(&dir, &["import", "bar.ipt", "--to", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "bar.toml");
    let p = "imported.bar.choice-on-line-2";
    assert_chances(
        table(&all, "imported.bar.sign"),
        &[(
            &format!("A {{table:{p}}} sign, {{table:{p}-2}} or {{pick: p | q}}"),
            1,
            1,
        )],
    );
    assert_chances(table(&all, p), &[("a|b", 1, 2), ("c", 1, 2)]);
    assert_chances(
        table(&all, &format!("{p}-2")),
        &[("x{{", 1, 3), ("y", 1, 3), ("z", 1, 3)],
    );
    let out = dir.join("out").display().to_string();
    let rolled = ok(&[
        "--content",
        &out,
        "table",
        "imported.bar.sign",
        "--seed",
        "s",
    ]);
    assert!(rolled.contains(" sign, "), "{rolled}");
}

/// IPP's `\_` is a space kept even at a row's or an option's ends (an
/// option with one becomes a table: a pick trims its options), and `\a`
/// the article for the word written after it, chosen at import as the
/// Randomness reader chooses it.
#[test]
fn an_ipp_kept_space_and_article_are_carried() {
    let dir = temp_dir("gen-kept");
    std::fs::write(
        dir.join("kept.ipt"),
        "Table: Sign\n\\a orc, \\a hour, \\a unicorn\\_and [|\\_big|small] \\a\\_NPC\\_\nTable: Adj\n\\_sharp\\_\n",
    )
    .unwrap();
    let o = run_in(&dir, &["import", "kept.ipt", "--to", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "kept.toml");
    let p = "imported.kept.choice-on-line-2";
    assert_chances(
        table(&all, "imported.kept.sign"),
        &[(
            &format!("an orc, an hour, a unicorn and {{table:{p}}} an NPC "),
            1,
            1,
        )],
    );
    assert_chances(table(&all, p), &[(" big", 1, 2), ("small", 1, 2)]);
    assert_chances(table(&all, "imported.kept.adj"), &[(" sharp ", 1, 1)]);
    let out = dir.join("out").display().to_string();
    let rolled = ok(&[
        "--content",
        &out,
        "table",
        "imported.kept.sign",
        "--seed",
        "s",
    ]);
    assert!(
        rolled.contains("an orc, an hour, a unicorn and "),
        "{rolled}"
    );
}

/// A row or a title that ends in `&` survives `export --format ipt` and
/// `import`: IPP joins a line ending in `&` to the next, so `export`
/// writes IPP's empty `\z` after it (it made `Rock &` and `Paper` one
/// row, and a title so ending swallowed the `Table:` line).
#[test]
fn an_ampersand_at_a_rows_or_titles_end_survives_the_ipp_round_trip() {
    let dir = temp_dir("ipt-ampersand");
    std::fs::create_dir_all(dir.join("rt")).unwrap();
    std::fs::write(
        dir.join("rt/tables.toml"),
        "[[table]]\nid = \"rt.amp\"\ntitle = \"Salt &\"\nsystem = \"any\"\nsource = \"tests\"\n\n\
         [[table.row]]\nweight = 1\nname = \"Rock\"\ntext = \"Rock &\"\n\n[[table.row]]\nweight = 1\nname = \"Paper\"\ntext = \"Paper\"\n",
    )
    .unwrap();
    let o = super::generator_kit::export(&dir, &["rt.amp"], "ipt");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("1:Rock &\\z\n"), "{text}");
    std::fs::write(dir.join("amp.ipt"), &text).unwrap();
    let o = run_in(&dir, &["import", "amp.ipt", "--to", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "amp.toml");
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0]["title"].as_str(), Some("Salt &"));
    assert_chances(&all[0], &[("Rock &", 1, 2), ("Paper", 1, 2)]);
}

#[test]
fn every_tablesmith_construct_becomes_tables_with_the_same_odds() {
    let (o, dir) = import("gen-import", &[&fixture("every.tab"), &fixture("town.tab")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "every.toml");
    let k = "{table:imported.every.kind}";
    // Ranges: each row starts after the one before; 1d the last value. A
    // prefix's or suffix's leading comma separates it from its mark.
    assert_chances(
        table(&all, "imported.every.start"),
        &[
            (&format!("There is a {k} in the road alas"), 1, 5),
            (&format!("There is {{3d6}} coins and {k}, {k} alas"), 3, 5),
            (
                "There is a note from {table:imported.town.group}\nsee [here] alas",
                1,
                5,
            ),
        ],
    );
    assert_chances(
        table(&all, "imported.every.kind"),
        &[("cart", 2, 3), ("mule", 1, 3)],
    );
    let town = tables(&dir, "town.toml");
    assert_chances(&town[0], &[("the mayor", 2, 4), ("the priest", 2, 4)]);
}

/// A table's rows, each with its chance as a fraction: (text, numerator,
/// denominator).
type Chances = &'static [(&'static str, u64, u64)];

/// A file that imports whole: its tables and each row's chance.
struct Whole {
    files: &'static [&'static str],
    written: &'static str,
    tables: usize,
    rows: usize,
    check: &'static [(&'static str, Chances)],
}

#[test]
fn the_real_files_import_with_the_original_odds() {
    let Some(c) = corpus("", "the real IPP and TableSmith files are not imported") else {
        return;
    };
    let cases = [
        Whole {
            files: &["ipt/basic.ipt"],
            written: "basic.toml",
            tables: 5,
            rows: 62,
            check: &[(
                "imported.basic.directionsabbrev",
                &[
                    ("N", 1, 7),
                    ("NE", 1, 7),
                    ("E", 1, 7),
                    ("SE", 1, 7),
                    ("S", 1, 7),
                    ("SW", 1, 7),
                    ("NW", 1, 7),
                ],
            )],
        },
        Whole {
            files: &["ipt/catchall.ipt"],
            written: "catchall.toml",
            tables: 1,
            rows: 8,
            check: &[],
        },
        Whole {
            files: &["ipt/races.ipt"],
            written: "races.toml",
            tables: 11,
            rows: 41,
            check: &[(
                "imported.races.anyrace",
                &[
                    ("dwarf", 3, 30),
                    ("elf", 3, 30),
                    ("halfling", 2, 30),
                    ("human", 15, 30),
                    ("dragonborn", 1, 30),
                    ("gnome", 2, 30),
                    ("half-elf", 2, 30),
                    ("half-orc", 1, 30),
                    ("tiefling", 1, 30),
                ],
            )],
        },
        Whole {
            files: &["ipt/classes.ipt", "ipt/professions.ipt"],
            written: "classes.toml",
            tables: 22,
            rows: 86,
            check: &[
                (
                    "imported.classes.npcclasses",
                    &[
                        ("aristocrat", 1, 30),
                        ("commoner", 20, 30),
                        ("expert", 3, 30),
                        ("mystic", 1, 30),
                        ("sage", 2, 30),
                        ("warrior", 3, 30),
                    ],
                ),
                (
                    "imported.classes.anyclass",
                    &[
                        ("{table:imported.classes.mainclasses}", 1, 11),
                        ("{table:imported.classes.npcclasses}", 10, 11),
                    ],
                ),
            ],
        },
        Whole {
            files: &["ipt/professions.ipt"],
            written: "professions.toml",
            tables: 2,
            rows: 90,
            check: &[],
        },
        Whole {
            files: &["ipt/forest-encounters.ipt"],
            written: "forest-encounters.toml",
            tables: 14,
            rows: 64,
            check: &[],
        },
        Whole {
            files: &["ipt/knave-spellgen.ipt"],
            written: "knave-spellgen.toml",
            tables: 8,
            rows: 229,
            check: &[],
        },
        Whole {
            files: &["ipt/why-adventure.ipt"],
            written: "why-adventure.toml",
            tables: 2,
            rows: 25,
            check: &[],
        },
        Whole {
            files: &[
                "ipt/traits-common.ipt",
                "ipt/classes.ipt",
                "ipt/races.ipt",
                "ipt/professions.ipt",
            ],
            written: "traits-common.toml",
            tables: 5,
            rows: 275,
            check: &[],
        },
        // Issue 53: a `Set:` used once in a row is its roll in place.
        Whole {
            files: &["ipt/5e-weather.ipt", "ipt/catchall.ipt"],
            written: "5e-weather.toml",
            tables: 5,
            rows: 14,
            check: &[],
        },
        Whole {
            files: &["ipt/treasure-individual-0-4.ipt"],
            written: "treasure-individual-0-4.toml",
            tables: 2,
            rows: 6,
            check: &[(
                "imported.treasure-individual-0-4.master",
                &[(
                    "Treasure (0-4 CR): {table:imported.treasure-individual-0-4.treasuretable}",
                    1,
                    1,
                )],
            )],
        },
        Whole {
            files: &["tab/tsl-test-before-after.tab"],
            written: "tsl-test-before-after.toml",
            tables: 1,
            rows: 1,
            check: &[(
                "imported.tsl-test-before-after.start",
                &[("BeforeOneAfter", 1, 1)],
            )],
        },
        Whole {
            files: &["tab/tsl-test-weighted-group.tab"],
            written: "tsl-test-weighted-group.toml",
            tables: 1,
            rows: 4,
            check: &[(
                "imported.tsl-test-weighted-group.name",
                &[
                    ("One", 1, 6),
                    ("Two", 2, 6),
                    ("Three", 2, 6),
                    ("Four", 1, 6),
                ],
            )],
        },
        Whole {
            files: &["tab/tsl-test-continuation-comment.tab"],
            written: "tsl-test-continuation-comment.toml",
            tables: 1,
            rows: 1,
            check: &[(
                "imported.tsl-test-continuation-comment.start",
                &[("12", 1, 1)],
            )],
        },
        Whole {
            files: &["tab/tsl-test-nested-calls.tab"],
            written: "tsl-test-nested-calls.toml",
            tables: 3,
            rows: 3,
            check: &[(
                "imported.tsl-test-nested-calls.first",
                &[("{table:imported.tsl-test-nested-calls.second}", 1, 1)],
            )],
        },
        Whole {
            files: &["tab/tsl-test-calc-dice.tab"],
            written: "tsl-test-calc-dice.toml",
            tables: 1,
            rows: 1,
            check: &[(
                "imported.tsl-test-calc-dice.start",
                &[("Calc={1d1+2},Dice={1d1+2}", 1, 1)],
            )],
        },
        Whole {
            files: &["ipt/threat-oracle.ipt"],
            written: "threat-oracle.toml",
            tables: 2,
            rows: 13,
            check: &[(
                "imported.threat-oracle.1d4-1d4",
                &[
                    ("-3", 1, 16),
                    ("-2", 2, 16),
                    ("-1", 3, 16),
                    ("0", 4, 16),
                    ("1", 3, 16),
                    ("2", 2, 16),
                    ("3", 1, 16),
                ],
            )],
        },
        Whole {
            files: &["ipt/osrhex-treasure.ipt"],
            written: "osrhex-treasure.toml",
            tables: 39,
            rows: 132,
            check: &[(
                "imported.osrhex-treasure.gems",
                &[
                    ("10sp", 4, 20),
                    ("50sp", 5, 20),
                    ("100sp", 6, 20),
                    ("500sp", 4, 20),
                    ("1000sp", 1, 20),
                ],
            )],
        },
        // Issue 53: variables that never change, an `{If~…}` on them, call
        // modifiers (TableSmith keeps a moved roll to the first and last
        // rows), `{Msg~…}` left out and a `{Generate~…}` link's text.
        Whole {
            files: &["tab/tsl-test-call-modifier.tab"],
            written: "tsl-test-call-modifier.toml",
            tables: 3,
            rows: 4,
            check: &[(
                "imported.tsl-test-call-modifier.other-roll-10-lower",
                &[("One", 1, 1)],
            )],
        },
        Whole {
            files: &["tab/tsl-test-variable-modifier.tab"],
            written: "tsl-test-variable-modifier.toml",
            tables: 3,
            rows: 4,
            check: &[(
                "imported.tsl-test-variable-modifier.other-roll-2",
                &[("two", 1, 1)],
            )],
        },
        Whole {
            files: &["tab/tsl-test-if-variable.tab"],
            written: "tsl-test-if-variable.toml",
            tables: 1,
            rows: 1,
            check: &[("imported.tsl-test-if-variable.start", &[("true", 1, 1)])],
        },
        Whole {
            files: &["tab/tsl-example-Msg.tab"],
            written: "tsl-example-msg.toml",
            tables: 1,
            rows: 1,
            check: &[("imported.tsl-example-msg.start", &[("", 1, 1)])],
        },
        Whole {
            files: &["tab/tsl-example-Generate.tab"],
            written: "tsl-example-generate.toml",
            tables: 2,
            rows: 2,
            check: &[(
                "imported.tsl-example-generate.start",
                &[(
                    "Main stuff ....\n Appendix (not always needed): Summary Text to show for not called",
                    1,
                    1,
                )],
            )],
        },
        Whole {
            files: &["tab/tsl-example-HtmlMarkupUse.tab"],
            written: "tsl-example-htmlmarkupuse.toml",
            tables: 1,
            rows: 1,
            check: &[],
        },
    ];
    for case in cases {
        let paths: Vec<String> = case
            .files
            .iter()
            .map(|f| c.join(f).display().to_string())
            .collect();
        let args: Vec<&str> = paths.iter().map(String::as_str).collect();
        let (o, dir) = import("gen-import", &args);
        assert!(o.status.success(), "{:?}: {}", case.files, stderr(&o));
        let all = tables(&dir, case.written);
        assert_eq!(all.len(), case.tables, "{:?}", case.files);
        let n: usize = all.iter().map(|t| rows(t).len()).sum();
        assert_eq!(n, case.rows, "{:?}", case.files);
        for (id, want) in case.check {
            assert_chances(table(&all, id), want);
        }
    }
}

/// A real file that uses what cannot be carried: refused at its first
/// such construct; with --skip-unsupported, what is left.
#[test]
fn the_real_files_with_unsupported_constructs_are_refused_at_the_line_and_imported_in_part() {
    let Some(c) = corpus("", "the real IPP and TableSmith files are not imported") else {
        return;
    };
    // What is left: (table file, tables), ("", 0) for nothing.
    let cases: [(&str, &str, &str, (&str, usize)); 8] = [
        (
            "ipt/2d8-reaction.ipt",
            "2d8-reaction.ipt:4:1",
            "`Prompt:`",
            ("2d8-reaction.toml", 6),
        ),
        (
            "ipt/picked-pockets.ipt",
            "picked-pockets.ipt:4:12",
            "a pick without repeats",
            ("picked-pockets.toml", 1),
        ),
        (
            "ipt/yes-no-but.ipt",
            "yes-no-but.ipt:9:59",
            "a table named by a variable",
            ("yes-no-but.toml", 8),
        ),
        (
            "ipt/common-place-names.ipt",
            "common-place-names.ipt:225:2",
            "a row without a range (`1-3:`) in a Lookup table",
            ("common-place-names.toml", 8),
        ),
        (
            "ipt/random-treasure-cr1-cr30.ipt",
            "random-treasure-cr1-cr30.ipt:12:1",
            "a conditional",
            ("", 0),
        ),
        (
            "tab/tsl-test-lockout-ranges.tab",
            "tsl-test-lockout-ranges.tab:2:3",
            "function Lockout",
            ("", 0),
        ),
        (
            "tab/tsl-example-Parameter-List.tab",
            "tsl-example-Parameter-List.tab:2:1",
            "a parameter",
            ("", 0),
        ),
        (
            "tab/tsl-example-InputList.tab",
            "tsl-example-InputList.tab:2:3",
            "function InputList",
            ("", 0),
        ),
    ];
    for (file, place, what, part) in cases {
        let path = c.join(file).display().to_string();
        let (o, dir) = import(
            "gen-import",
            &[&path, &c.join("ipt/catchall.ipt").display().to_string()],
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{file}: {err}");
        let line = err
            .lines()
            .find(|l| l.contains(place))
            .unwrap_or_else(|| panic!("{file}: no {place} in\n{err}"));
        assert!(line.contains(what), "{file}: {line}");
        assert!(!dir.join("out").exists(), "{file}: nothing is written");
        let (o, dir) = import(
            "gen-import",
            &[
                "--skip-unsupported",
                &path,
                &c.join("ipt/catchall.ipt").display().to_string(),
            ],
        );
        let out = stdout(&o);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        assert!(
            out.contains("skipped (--skip-unsupported):") && out.contains(place),
            "{file}: {out}"
        );
        match part {
            ("", _) => assert!(
                out.contains(&format!("{path}: nothing imported")),
                "{file}: {out}"
            ),
            (written, n) => assert_eq!(tables(&dir, written).len(), n, "{file}"),
        }
    }
}

/// Issue 53: `toa-weather`'s `RainMaster` sets a rain's rate and length
/// from two `2d3` tables and reads each twice — in the text, in the name
/// of the table of gallons (`[@{$RateRaw}{$DurationRaw}]`) and in a
/// dictionary lookup (`[#{$DurationRaw} NiceDuration]`). It comes in
/// whole as a row for each rate and length, weighted by their ways.
#[test]
fn a_table_whose_variables_are_read_twice_comes_in_as_a_row_for_each_pair() {
    let Some(c) = corpus("ipt", "toa-weather is not imported") else {
        return;
    };
    let path = c.join("toa-weather.ipt").display().to_string();
    let (o, dir) = import("gen-import", &[path.as_str()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "toa-weather.toml");
    assert_eq!(all.len(), 31);
    // 2d3 gives 2..6 in 1, 2, 3, 2 and 1 ways of 9.
    let ways = [1, 2, 3, 2, 1];
    let rates = ["Light", "Gentle", "Steady", "Heavy", "VeryHeavy"];
    let lengths = [
        (30, "brief (30 mins)"),
        (60, "short (1 hour)"),
        (90, "typical (1.5 hours)"),
        (120, "long (2 hours)"),
        (150, "very long (2.5 hours)"),
    ];
    let mut want = Vec::new();
    for (rate, rw) in rates.iter().zip(ways) {
        for ((minutes, said), lw) in lengths.iter().zip(ways) {
            let id = format!("imported.toa-weather.{}{minutes}", rate.to_lowercase());
            want.push((
                format!("A {rate} rain that lasts a {said} time\nGallons recovered per Raincatcher deployed: {{table:{id}}}"),
                rw * lw,
                81,
            ));
        }
    }
    let want: Vec<(&str, u64, u64)> = want.iter().map(|(t, n, d)| (t.as_str(), *n, *d)).collect();
    assert_chances(table(&all, "imported.toa-weather.rainmaster"), &want);
    assert!(
        stdout(&o).contains("a row for each combination of results"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn every_real_file_imports_in_part_with_skip_unsupported() {
    let Some(c) = corpus("", "the real IPP and TableSmith files are not imported") else {
        return;
    };
    let deps: Vec<String> = ["catchall", "professions", "races", "classes"]
        .iter()
        .map(|f| c.join(format!("ipt/{f}.ipt")).display().to_string())
        .collect();
    for kind in ["ipt", "tab"] {
        for entry in std::fs::read_dir(c.join(kind)).unwrap() {
            let path = entry.unwrap().path().display().to_string();
            let mut args = vec!["--skip-unsupported", path.as_str()];
            args.extend(deps.iter().filter(|d| **d != path).map(String::as_str));
            let (o, _) = import("gen-import", &args);
            assert!(o.status.success(), "{path}: {}", stderr(&o));
            if kind == "ipt" {
                let text = std::fs::read_to_string(&path).unwrap();
                assert_entry_table_first(&path, &text, &stdout(&o));
            }
        }
    }
}

/// Issue 53: an IPP file imported with `--skip-unsupported` is written
/// with its entry table (its first `Table:`) first, unless the report
/// says that table was skipped (`path`: the file as the report names it).
fn assert_entry_table_first(path: &str, text: &str, report: &str) {
    let Some(first) = text.lines().find_map(|l| {
        l.get(..6)
            .filter(|h| h.eq_ignore_ascii_case("table:"))
            .map(|_| l[6..].trim())
    }) else {
        return;
    };
    if report.contains(&format!("(table `{first}` skipped)")) {
        return;
    }
    let line = report
        .lines()
        .find(|l| l.starts_with(path) && l.contains(" → "))
        .unwrap_or_else(|| panic!("{path}: no line of its own in\n{report}"));
    let ids = line.split_once(" (").map_or("", |(_, ids)| ids);
    let written = ids.split([',', ')']).next().unwrap_or("").trim();
    let want = first.to_lowercase().replace(' ', "-");
    assert!(
        written.rsplit('.').next() == Some(want.as_str()),
        "{path}: the entry table `{first}` is not written first: {line}"
    );
}

/// Issue 53: with `--skip-unsupported`, the tables that survive are
/// written with the entry table first when it survives (its rolls on the
/// skipped table would have taken it out too).
#[test]
fn skip_unsupported_keeps_the_entry_table_first() {
    let dir = temp_dir("gen-entry");
    let text = "Table: Main\nA [@Colour] cart\nTable: Odd\n{$nowhere}\nTable: Colour\nred\nblue\n";
    std::fs::write(dir.join("e.ipt"), text).unwrap();
    let o = run_in(
        &dir,
        &["import", "--skip-unsupported", "e.ipt", "--to", "out"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let ids: Vec<String> = tables(&dir, "e.toml")
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, ["imported.e.main", "imported.e.colour"]);
    assert!(
        stdout(&o).contains("(table `Odd` skipped)"),
        "{}",
        stdout(&o)
    );
    assert_entry_table_first("e.ipt", text, &stdout(&o));
}

/// Issue 53's figures: how many of the shared corpus's real files import
/// whole, and with `--skip-unsupported` (some of their tables), per
/// format. Printed (`cargo test --test it corpus_acceptance --
/// --nocapture`) and pinned, so a change in either is seen: (format,
/// files, whole, with --skip-unsupported).
#[test]
fn corpus_acceptance_per_format() {
    let Some(c) = corpus("", "the corpus acceptance is not measured") else {
        return;
    };
    let deps: Vec<String> = ["catchall", "professions", "races", "classes"]
        .iter()
        .map(|f| c.join(format!("ipt/{f}.ipt")).display().to_string())
        .collect();
    let want = [
        ("ipt", 24, 15, 21),
        ("tab", 17, 11, 11),
        ("perchance", 24, 21, 24),
    ];
    let mut got = Vec::new();
    for (kind, ..) in want {
        let mut files: Vec<_> = std::fs::read_dir(c.join(kind))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let (mut whole, mut part) = (0, 0);
        for path in &files {
            let p = path.display().to_string();
            let mut args = Vec::new();
            if kind == "perchance" {
                args.extend(["--from", "perchance"]);
            }
            args.push(p.as_str());
            if kind == "ipt" {
                args.extend(deps.iter().filter(|d| **d != p).map(String::as_str));
            }
            let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
            let written = format!("{}.toml", name.split('.').next().unwrap());
            let (o, _) = import("corpus-whole", &args);
            whole += usize::from(o.status.success());
            args.insert(0, "--skip-unsupported");
            let (o, dir) = import("corpus-part", &args);
            part += usize::from(o.status.success() && dir.join("out").join(&written).exists());
        }
        println!(
            "{kind}: {} files, whole {whole}, with --skip-unsupported {part}",
            files.len()
        );
        got.push((kind, files.len(), whole, part));
    }
    let sum = |f: fn(&(&str, usize, usize, usize)) -> usize| got.iter().map(f).sum::<usize>();
    let (n, w, p) = (sum(|g| g.1), sum(|g| g.2), sum(|g| g.3));
    println!(
        "all: {n} files, whole {w} ({}%), with --skip-unsupported {p} ({}%)",
        w * 100 / n,
        p * 100 / n
    );
    assert_eq!(got, want);
}
