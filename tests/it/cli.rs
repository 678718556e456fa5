//! Dice on the command line: `roll`, `odds` and `check` — their outputs,
//! JSON, determinism, the errors that point at a character, the limits,
//! usage errors (exit code 2) and `--help`.

use crate::common::{Test, cli, fails, misused, ok, ok_json, run, stderr, stdout};

#[test]
fn same_seed_same_bytes() {
    let args = [
        "roll",
        "--seed",
        "goblin-night",
        "3d6",
        "d6!",
        "4d6kh3",
        "5D vs 3 twist",
        "contest 10 10 6",
    ];
    assert_eq!(ok(&args), ok(&args));
    let json = ["--json", "roll", "--seed", "goblin-night", "3d6", "5D vs 3"];
    assert_eq!(ok(&json), ok(&json));
    assert_ne!(
        ok(&["roll", "--seed", "goblin-night", "20d20"]),
        ok(&["roll", "--seed", "goblin-day", "20d20"])
    );
}

#[test]
fn adding_an_expression_keeps_the_earlier_results() {
    let two = ok(&["roll", "--seed", "s", "3d6", "2d10"]);
    let three = ok(&["roll", "--seed", "s", "3d6", "2d10", "d20"]);
    assert!(three.starts_with(&two), "{two}\n---\n{three}");
}

#[test]
fn a_missing_seed_is_chosen_and_printed() {
    let o = run(&["roll", "3d6"]);
    assert!(o.status.success());
    let err = stderr(&o);
    let seed = err
        .strip_prefix("seed: ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no seed announced: {err}"));
    assert!(err.contains(&format!("--seed {seed}")));
    // The printed seed reproduces the run.
    assert_eq!(stdout(&o), ok(&["roll", "--seed", seed, "3d6"]));
}

#[test]
fn roll_shows_every_die() {
    let out = ok(&["roll", "--seed", "goblin-night", "3d6"]);
    // Fixed seed: the three faces and their sum are on the line.
    let line = out.lines().next().unwrap();
    let (head, faces) = line.split_once('←').unwrap();
    let total: u32 = head.trim().trim_start_matches("3d6 = ").parse().unwrap();
    let faces: Vec<u32> = faces
        .trim()
        .trim_matches(['[', ']'])
        .split(", ")
        .map(|f| f.parse().unwrap())
        .collect();
    assert_eq!(faces.len(), 3);
    assert_eq!(faces.iter().sum::<u32>(), total);
}

#[test]
fn roll_json_is_machine_readable() {
    let v = ok_json(&[
        "roll", "--json", "--seed", "g", "2d6+4", "5D vs 3", "save 12",
    ]);
    assert_eq!(v["seed"], "g");
    let rolls = v["rolls"].as_array().unwrap();
    assert_eq!(rolls.len(), 3);
    assert_eq!(rolls[0]["kind"], "roll");
    let total = rolls[0]["total"].as_u64().unwrap();
    assert!((6..=16).contains(&total));
    assert_eq!(rolls[1]["kind"], "pool");
    assert!(rolls[1]["success"].is_boolean());
    assert_eq!(rolls[2]["kind"], "save");
}

#[test]
fn odds_for_a_check() {
    let out = ok(&["odds", "5D vs 3"]);
    assert!(out.contains("success 0.6968"), "{out}");
    assert!(out.contains("expected Edge on a success: 1.99"), "{out}");
    assert!(out.contains("Legendary"));
    let json = ok_json(&["--json", "odds", "5D vs 3"]);
    assert_eq!(json["kind"], "check");
    assert!((json["success"].as_f64().unwrap() - 0.6968).abs() < 5e-5);
    assert_eq!(json["by_edge"].as_array().unwrap().len(), 6);
}

#[test]
fn odds_for_a_roll() {
    let out = ok(&["odds", "3d6"]);
    assert!(out.contains("min 3, max 18, mean 10.50"), "{out}");
    assert!(out.contains("12.50%"));
    let json = ok_json(&["--json", "odds", "3d6"]);
    let table = json["table"].as_array().unwrap();
    assert_eq!(table.len(), 16);
    let sum: f64 = table.iter().map(|r| r["chance"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    let out = ok(&["odds", "d6!"]);
    assert!(out.contains("left out of this table"), "{out}");
}

/// `check 1-20 --vs 0-30`: every cell of the grid, in text and JSON, each
/// the chance `check N --vs D` gives alone; nothing rolled, no seed asked.
#[test]
fn check_ranges_print_the_whole_grid() {
    let json = ok_json(&["--json", "check", "1-20", "--vs", "0-30"]);
    let pools: Vec<u64> = json["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let vs: Vec<u64> = json["difficulties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(pools, (1..=20).collect::<Vec<_>>());
    assert_eq!(vs, (0..=30).collect::<Vec<_>>());
    let grid = json["chance"].as_array().unwrap();
    assert_eq!(grid.len(), 20);
    for row in grid {
        assert_eq!(row.as_array().unwrap().len(), 31);
    }
    let cell = |n: usize, d: usize| grid[n - 1][d].as_f64().unwrap();
    // Cells against the single Check, at the corners and inside.
    for (n, d) in [(1, 0), (1, 30), (5, 3), (20, 30), (12, 17), (20, 0)] {
        let one = ok_json(&[
            "--json",
            "check",
            &n.to_string(),
            "--vs",
            &d.to_string(),
            "--seed",
            "g",
        ]);
        assert_eq!(cell(n, d), one["chance"].as_f64().unwrap(), "{n}D vs {d}");
    }
    // A bigger pool never does worse; a higher Difficulty never better.
    for n in 1..=20 {
        for d in 0..=30 {
            if n < 20 {
                assert!(cell(n + 1, d) >= cell(n, d) - 1e-15, "{n}D vs {d}");
            }
            if d < 30 {
                assert!(cell(n, d + 1) <= cell(n, d) + 1e-15, "{n}D vs {d}");
            }
        }
    }
    let text = run(&["check", "1-20", "--vs", "0-30"]);
    assert!(text.status.success());
    assert_eq!(stderr(&text), "", "no seed is chosen for odds alone");
    let text = stdout(&text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 22, "{text}");
    assert!(
        lines[0].contains("pools 1D-20D (rows) against Difficulties 0-30 (columns)"),
        "{text}"
    );
    assert_eq!(lines[1].split_whitespace().count(), 32, "{}", lines[1]);
    for (i, line) in lines[2..].iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], format!("{}D", i + 1));
        assert_eq!(words.len(), 32, "{line}");
    }
    assert!(lines[6].contains("69.68%"), "5D vs 3: {}", lines[6]);
    // One range is enough; the options hold for every cell.
    let json = ok_json(&[
        "--json", "check", "5", "--vs", "0-6", "--raise", "1", "--twist",
    ]);
    assert_eq!(json["pools"], serde_json::json!([5]));
    let one = ok_json(&[
        "--json", "check", "5", "--vs", "4", "--raise", "1", "--twist", "--seed", "g",
    ]);
    assert_eq!(json["chance"][0][4], one["chance"]);
    assert_eq!(json["raise"], 1);
    assert_eq!(json["twist"], true);
}

#[test]
fn check_rolls_and_states_the_chance_first() {
    let out = ok(&["check", "5", "--vs", "3", "--seed", "viktor"]);
    let mut lines = out.lines();
    assert!(
        lines.next().unwrap().contains("chance of success 69.68%"),
        "{out}"
    );
    assert!(lines.next().unwrap().starts_with("5D vs 3 → "), "{out}");
    let out = ok(&[
        "check",
        "5",
        "--vs",
        "challenging",
        "--raise",
        "1",
        "--bonus-dice",
        "2",
        "--twist",
        "--seed",
        "v",
    ]);
    assert!(
        out.contains("7D vs 3 raise 1 twist") || out.contains("5D+2D vs 3 raise 1 twist"),
        "{out}"
    );
    let json = ok_json(&[
        "--json", "check", "4", "--vs", "6", "--team", "6", "--seed", "t",
    ]);
    assert_eq!(json["expr"], "4D vs 6 team 6");
    assert_eq!(
        json["dice"].as_array().unwrap().len(),
        5,
        "Teamwork adds a die"
    );
}

#[test]
fn errors_point_at_the_character() {
    cli(["roll", "--seed", "s", "2d6q4"])
        .fails(1)
        .no_stdout()
        .stderr_has("(column 4): `q` is not a modifier of a die")
        .stderr_has("\n       ^");
}

#[test]
fn an_uppercase_d_is_a_mettle_pool() {
    cli(["roll", "--seed", "s", "3D6"])
        .fails(1)
        .no_stdout()
        .stderr_has("uppercase `D` is a METTLE pool")
        .stderr_has("`3d6`");
}

#[test]
fn one_bad_expression_rolls_nothing_at_all() {
    cli(["roll", "--seed", "s", "3d6", "2d6+"])
        .fails(1)
        .no_stdout()
        .stderr_has("expected a die such as `d6` or a number, found the end");
}

/// Absurd dice are refused quickly: one `#[test]` per expression,
/// `test: "expression" => "message"`.
macro_rules! absurd {
    ($($test:ident: $expr:literal => $message:literal,)*) => {
        $(
            #[test]
            fn $test() {
                cli(["roll", "--seed", "s", $expr]).fails(1).no_stdout().stderr_has($message);
            }
        )*
    };
}

absurd! {
    absurd_dice_count: "1000000d1000000" => "1000000 dice is too many; the limit is 10000",
    absurd_number_of_dice: "999999999999999999999d6" => "dice is too many",
    absurd_die_of_no_sides: "d0" => "a die needs at least one side",
    absurd_exploding_d1: "d1!" => "would explode forever",
    absurd_die_of_too_many_sides: "d2000000" => "the limit is 1000000",
    absurd_pool: "5000D vs 3" => "the limit is 1000",
    absurd_keep_more_than_rolled: "4d6kh5" => "cannot keep 5 of 4 dice",
}

#[test]
fn absurd_odds_are_refused_quickly() {
    cli(["odds", "10000d1000000"])
        .fails(1)
        .no_stdout()
        .stderr_has("past the limit for exact odds");
}

#[test]
fn a_seed_with_a_control_character_is_refused() {
    cli(["roll", "--seed", "bad\u{1b}seed", "3d6"])
        .fails(1)
        .no_stdout()
        .stderr_has("control character at position 4");
}

#[test]
fn a_seed_too_long_is_refused() {
    Test::new()
        .args(["roll", "--seed", &"x".repeat(5000), "3d6"])
        .run()
        .fails(1)
        .no_stdout()
        .stderr_has("5000 characters long");
}

// Usage errors exit with 2: clap's, and our own usage checks like clap's.

#[test]
fn usage_roll_without_an_expression() {
    cli(["roll"]).usage();
}

#[test]
fn usage_check_without_vs() {
    cli(["check", "5"]).usage().stderr_has("--vs");
}

#[test]
fn usage_check_pool_not_a_number() {
    cli(["check", "five", "--vs", "3"])
        .usage()
        .no_stdout()
        .stderr_has("`five` is not a pool size");
}

#[test]
fn usage_check_raise_past_the_pool() {
    cli(["check", "2", "--vs", "3", "--raise", "3"])
        .usage()
        .no_stdout()
        .stderr_has("cannot raise 3 dice from a pool of 2");
}

#[test]
fn usage_gen_count_zero() {
    cli(["gen", "npc", "--count", "0"])
        .usage()
        .no_stdout()
        .stderr_has("ask for 1 to 1000 items");
}

#[test]
fn usage_table_times_zero() {
    cli(["table", "core.injury", "--times", "0"])
        .usage()
        .no_stdout()
        .stderr_has("ask for 1 to 10000 results");
}

#[test]
fn usage_gen_map_svg_of_two_maps() {
    cli(["gen", "map", "--svg", "--count", "2", "--seed", "s"])
        .usage()
        .no_stdout()
        .stderr_has("draws one map");
}

// What is wrong is in a file or a name, not in how the command is used:
// exit 1.

#[test]
fn a_missing_character_sheet_exits_with_one() {
    cli(["gen", "injury", "--character", "no-such-sheet.toml"])
        .fails(1)
        .no_stdout()
        .stderr_has("cannot read the character sheet `no-such-sheet.toml`");
}

#[test]
fn an_unknown_table_exits_with_one() {
    cli(["table", "no.such.table", "--seed", "s"])
        .fails(1)
        .no_stdout()
        .stderr_has("there is no table");
}

#[test]
fn a_dice_typo_exits_with_one() {
    cli(["roll", "2d6q4"])
        .fails(1)
        .no_stdout()
        .stderr_has("`q` is not a modifier of a die");
}

#[test]
fn help_lists_the_notation() {
    let out = ok(&["--help"]);
    for piece in ["5D vs 3", "d6!", "save 12", "1:4", "cp 18", "4d6kh3"] {
        assert!(out.contains(piece), "{piece} missing from --help");
    }
}

#[test]
fn keep_highest_odds_stay_exact_for_many_dice() {
    // No overflow: the chance of at least one 2 in 60d2 is exact.
    let json = ok_json(&["--json", "odds", "60d2kh1"]);
    let table = json["table"].as_array().unwrap();
    let two = table.iter().find(|r| r["value"] == 2).unwrap()["chance"]
        .as_f64()
        .unwrap();
    assert!((two - (1.0 - 0.5f64.powi(60))).abs() < 1e-12);
    let json = ok_json(&["--json", "odds", "2000d2kh1"]);
    assert!((json["mean"].as_f64().unwrap() - 2.0).abs() < 1e-9);
}

#[test]
fn slow_exact_odds_are_refused_at_once() {
    // `6d6116kh1` was found by fuzzing: allowed before, it ran for seconds.
    for expr in [
        "1000d%!",
        "500d8000",
        "100d6!kh50",
        "10000d6kh1",
        "6d6116kh1",
    ] {
        let start = std::time::Instant::now();
        let err = fails(&["odds", expr]);
        assert!(
            err.contains("past the limit for exact odds"),
            "{expr}: {err}"
        );
        assert!(
            start.elapsed().as_secs() < 5,
            "{expr} took too long to refuse"
        );
    }
}

#[test]
fn d66_is_only_the_tens_and_units_die() {
    let err = fails(&["roll", "--seed", "s", "2d66"]);
    assert!(err.contains("`d66` is the tens-and-units die"), "{err}");
}

#[test]
fn the_dice_limit_counts_every_part_of_a_pool() {
    let err = fails(&["roll", "--seed", "s", "1000D+1000D vs 3"]);
    assert!(
        err.contains("this pool throws 2000 dice; the limit is 1000"),
        "{err}"
    );
}

#[test]
fn a_named_difficulty_takes_a_modifier() {
    assert!(ok(&["odds", "5D vs Challenging+1"]).contains("Difficulty 4 (Challenging+1)"));
}

#[test]
fn check_vs_takes_only_a_difficulty() {
    let err = misused(&["check", "5", "--vs", "daunting twist", "--seed", "s"]);
    assert!(err.contains("give only a Difficulty"), "{err}");
}

#[test]
fn check_refuses_an_absurd_team() {
    let err = misused(&["check", "5", "--vs", "3", "--team", "5000", "--seed", "s"]);
    assert!(err.contains("--team"), "{err}");
}
