//! Issue 41: every construct the generator-file readers refuse, one test
//! each pinned to its message and place; `--from`; and the round trip
//! `export --format ipt` → `import` giving the same tables and odds.

use super::generator_kit::{
    assert_chances, import_back, refused_exports, refused_missing, round_trip_export, tables,
};
use crate::common::{run_in, stderr, stdout, temp_dir};

/// One refused construct per test: `import FILE` in a fresh folder fails
/// (exit 1) with this message at this place, and writes nothing.
macro_rules! refused {
    ($($name:ident: $file:literal, $text:literal => $place:literal, $what:literal;)*) => {$(
        #[test]
        fn $name() {
            let dir = temp_dir("gen-refused");
            std::fs::write(dir.join($file), $text).unwrap();
            let o = run_in(&dir, &["import", $file, "--to", "out"]);
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
    ipt_prompt_is_refused: "g.ipt", "Prompt: Size {Big|Small} Big\nTable: T\nx\n" => "g.ipt:1:1", "`Prompt:`: a choice the GM makes each time the generator runs";
    ipt_set_outside_a_table_is_refused: "g.ipt", "Set: a=1\nTable: T\nx\n" => "g.ipt:1:1", "`Set:`/`Define:`: a variable, kept from one roll to another";
    ipt_define_outside_a_table_is_refused: "g.ipt", "Define: a=1\nTable: T\nx\n" => "g.ipt:1:1", "`Set:`/`Define:`: a variable";
    ipt_set_used_twice_in_a_row_is_refused: "g.ipt", "Table: T\nSet: a=[@U]\n{$a} or {$a}\nTable: U\nx\n" => "g.ipt:3:9", "`{$a}` a second time in one row";
    ipt_variable_is_refused: "g.ipt", "Table: T\nhello {$name}\n" => "g.ipt:2:7", "`{$name}`: a variable (set by `Set:` or a `Prompt:`)";
    ipt_conditional_is_refused: "g.ipt", "Table: T\n[when]{$a}=1[do]x[end]\n" => "g.ipt:2:1", "`[when]…[end]`: a conditional";
    ipt_pick_without_repeats_is_refused: "g.ipt", "Table: T\n[!U]\nTable: U\nx\n" => "g.ipt:2:1", "`[!U]`: a pick without repeats";
    ipt_lookup_by_key_is_refused: "g.ipt", "Table: T\n[#2 U]\nTable: U\nx\n" => "g.ipt:2:1", "`[#2 U]`: a lookup of one row by its key or number";
    ipt_filter_is_refused: "g.ipt", "Table: T\n[@U >> upper]\nTable: U\nx\n" => "g.ipt:2:5", "`>> …`: a filter on a call's result";
    ipt_dice_below_zero_are_refused: "g.ipt", "Table: T\n{1d4-2}\n" => "g.ipt:2:1", "the dice expression `1d4-2` can go below 0";
    ipt_missing_table_is_refused: "g.ipt", "Table: T\n[@Nowhere]\n" => "g.ipt:2:1", "a roll on the table `Nowhere`, which is not in this file";
    ipt_lookup_gap_is_refused: "g.ipt", "Table: T\nType: Lookup\nRoll: 1d6\n1-3:a\n5-6:b\n" => "g.ipt:5:1", "Lookup table `T`: no row for 4,";
    ipt_large_rolled_count_is_refused: "g.ipt", "Table: T\n[@{1d100} U]\nTable: U\nx\n" => "g.ipt:2:1", "`[@{1d100} U]`: a count that can pass 20";
    ipt_article_before_a_roll_is_refused: "g.ipt", "Table: T\nsee \\a [@U]\nTable: U\nx\n" => "g.ipt:2:5", "`\\a`: the article \"a\" or \"an\" for a word that is rolled";
    ipt_article_without_a_word_is_refused: "g.ipt", "Table: T\n{1d4} \\a 8-foot poles\n" => "g.ipt:2:7", "`\\a`: the article \"a\" or \"an\" with no word of letters right after it";
    ipt_row_before_any_table_is_refused: "g.ipt", "x\nTable: T\ny\n" => "g.ipt:1:1", "a row before the first `Table:` line";
    tab_variable_is_refused: "t.tab", "%v%,1\n:S\n1,a\n" => "t.tab:1:1", "`%var%,default`: a variable, kept from one roll to another";
    tab_variable_use_is_refused: "t.tab", ":S\n1,a %v%\n" => "t.tab:2:5", "`%…%`: a variable";
    tab_parameter_is_refused: "t.tab", "@v,1,Ask\n:S\n1,a\n" => "t.tab:1:1", "`@param,…`: a parameter the GM is asked for";
    tab_used_is_refused: "t.tab", ":S\n1,{Used~S,1}\n" => "t.tab:2:3", "`{Used~S,1}`: the TableSmith function Used";
    tab_if_is_refused: "t.tab", ":S\n1,{If~1=1?a/b}\n" => "t.tab:2:3", "`{If~1=1?a/b}`: the TableSmith function If";
    tab_non_repeating_group_is_refused: "t.tab", ":!S\n1,a\n" => "t.tab:1:2", "`!`: a non-repeating group";
    tab_call_modifier_is_refused: "t.tab", ":S\n1,[S+1]\n" => "t.tab:2:3", "`[S+1]`: a call with a modifier";
    tab_call_parameters_are_refused: "t.tab", ":S\n1,[S(1)]\n" => "t.tab:2:3", "`[S(1)]`: a call with parameters";
    tab_assignment_is_refused: "t.tab", ":S\n1,|a+1|\n" => "t.tab:2:3", "`|…|`: a variable assignment";
    tab_call_to_a_missing_file_is_refused: "t.tab", ":S\n1,[Other.G]\n" => "t.tab:2:3", "a roll on `Other.G`, a table in no file given to import";
    tab_dice_tablewright_reads_otherwise_are_refused: "t.tab", ":S\n1,{Dice~1d6/2}\n" => "t.tab:2:3", "`{Dice~1d6/2}`: the dice expression `1d6/2` uses `/`";
    tab_if_over_continuation_lines_is_refused_whole: "t.tab", ":S\n1,{If~1=1\n_?a/b}\n" => "t.tab:2:3", "`{If~1=1?a/b}`: the TableSmith function If";
    tab_loop_on_a_continuation_line_is_refused_there: "t.tab", ":S\n1,a\n_ {Loop~2,[S]}\n" => "t.tab:3:3", "`{Loop~2,[S]}`: the TableSmith function Loop";
}

/// Issue 53: `--skip-unsupported` that leaves nothing to import fails,
/// saying so, and writes nothing.
#[test]
fn skip_unsupported_with_nothing_left_fails() {
    let dir = temp_dir("gen-nothing");
    std::fs::write(dir.join("m.tab"), ":Start\n1,{Msg~hello}\n").unwrap();
    let o = run_in(
        &dir,
        &["import", "--skip-unsupported", "m.tab", "--to", "out"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("nothing was imported: --skip-unsupported left out every table"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains("m.tab: nothing imported"),
        "{}",
        stdout(&o)
    );
    assert!(!dir.join("out").exists());
}

/// Issue 53: a Foundry source in YAML is named for what it is.
#[test]
fn a_foundry_yaml_source_is_named_for_what_it_is() {
    let dir = temp_dir("gen-yaml");
    std::fs::write(dir.join("t.yml"), "name: Trinkets\nformula: 1d4\n").unwrap();
    let o = run_in(&dir, &["import", "t.yml", "--to", "out"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("t.yml:1:1: a YAML file (a Foundry compendium source"),
        "{err}"
    );
    assert!(err.contains("Export Data"), "{err}");
    assert!(!err.contains("Markdown"), "{err}");
}

/// Issue 53: a Foundry table rolled `1` with every result on 1 draws
/// them all: one row holding every result.
#[test]
fn a_foundry_table_with_every_result_on_one_imports_as_one_row() {
    let dir = temp_dir("gen-all-one");
    let doc = r#"{"name":"Trinkets","formula":"1","replacement":true,"results":[
{"type":"text","text":"a bone die","range":[1,1],"weight":1},
{"type":"text","text":"a glass eye","range":[1,1],"weight":1}]}"#;
    std::fs::write(dir.join("all-one.json"), doc).unwrap();
    let o = run_in(&dir, &["import", "all-one.json", "--to", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "all-one.toml");
    let rows = all[0]["row"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["text"].as_str(), Some("a bone die\na glass eye"));
    let o = run_in(
        &dir,
        &[
            "--content",
            "out",
            "table",
            "imported.trinkets",
            "--seed",
            "s",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn from_reads_any_file_name_in_each_format() {
    for (from, text) in [
        ("ipt", "Table: Names\nAda\nBo\n"),
        ("perchance", "names\n\tAda\n\tBo\n"),
        ("obsidian", "| Name |\n| --- |\n| Ada |\n| Bo |\n\n^names\n"),
    ] {
        let dir = temp_dir("gen-from");
        std::fs::write(dir.join("names.txt"), text).unwrap();
        let o = run_in(
            &dir,
            &["import", "names.txt", "--from", from, "--to", "out"],
        );
        assert!(o.status.success(), "{from}: {}", stderr(&o));
        let all = tables(&dir, "names.toml");
        assert_chances(&all[0], &[("Ada", 1, 2), ("Bo", 1, 2)]);
    }
}

#[test]
fn ipt_export_imports_back_as_the_same_tables_and_odds() {
    let (ipt, dir) = round_trip_export("ipt");
    assert!(
        ipt.contains(
            "Type: Lookup\nRoll: 1d12\n1-5:A [|red|blue|[@rt.weights]] cart with {2d6} sacks\n"
        ),
        "{ipt}"
    );
    assert!(
        ipt.contains("3:a boar\n1:a bear ({1d4+1} of them)\n"),
        "{ipt}"
    );
    let back = import_back(&dir, "all.ipt", &ipt);
    // A die of IPP's `Roll:` comes back written out whole (`d12`: `1d12`).
    let dice: Vec<Option<&str>> = back
        .iter()
        .map(|t| t.get("dice").and_then(|d| d.as_str()))
        .collect();
    assert_eq!(dice, [Some("1d12"), None, Some("2d6")]);
    refused_exports(&dir, "ipt");
    refused_missing(&dir, "ipt");
}
