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
    ipt_set_used_twice_in_a_row_is_refused: "g.ipt", "Table: T\nSet: a=[@U]\n{$a} or {$a}\nTable: U\n[@V]\nTable: V\nx\n" => "g.ipt:3:9", "`{$a}` a second time in one row";
    ipt_variable_is_refused: "g.ipt", "Table: T\nhello {$name}\n" => "g.ipt:2:7", "`{$name}`: a variable (set by `Set:` or a `Prompt:`)";
    ipt_conditional_is_refused: "g.ipt", "Table: T\n[when]{$a}=1[do]x[end]\n" => "g.ipt:2:1", "`[when]…[end]`: a conditional";
    ipt_pick_without_repeats_is_refused: "g.ipt", "Table: T\n[!U]\nTable: U\nx\n" => "g.ipt:2:1", "`[!U]`: a pick without repeats";
    ipt_lookup_by_key_in_a_plain_table_is_refused: "g.ipt", "Table: T\n[#key U]\nTable: U\nx\n" => "g.ipt:2:1", "`[#key U]`, which is not a Lookup or Dictionary table";
    ipt_lookup_of_a_key_a_dictionary_lacks_is_refused: "g.ipt", "Table: T\nsee [#wild U]\nTable: U\nType: Dictionary\nmild:x\n" => "g.ipt:2:5", "`[#wild U]`, which has no row for wild";
    ipt_lookup_without_a_table_is_refused: "g.ipt", "Table: T\n[#key]\n" => "g.ipt:2:1", "`[#key]`: a lookup of one row by its key";
    ipt_lookup_by_number_in_a_plain_table_is_refused: "g.ipt", "Table: T\n[#2 U]\nTable: U\nx\n" => "g.ipt:2:1", "`[#2 U]`, which is not a Lookup or Dictionary table";
    ipt_lookup_by_dice_past_the_rows_is_refused: "g.ipt", "Table: T\n[#{1d8} U]\nTable: U\nType: Lookup\n1-6:x\n" => "g.ipt:2:1", "Lookup table `U at {1d8}`: no row for 7-8";
    ipt_filter_changing_the_text_is_refused: "g.ipt", "Table: T\n[@U >> bold]\nTable: U\nx\n" => "g.ipt:2:8", "`>> bold`: a filter that changes each result's text";
    ipt_case_filter_on_a_table_that_rolls_others_is_refused: "g.ipt", "Table: T\nsee [@U >> upper]\nTable: U\n[@V]\nTable: V\nx\n" => "g.ipt:2:5", "`>> upper` on `U`, which rolls on other tables";
    ipt_sort_of_a_repeated_call_is_refused: "g.ipt", "Table: T\n[@3 U >> sort >> implode]\nTable: U\nx\n" => "g.ipt:2:10", "`>> sort`: the results of a repeated call put in order";
    ipt_dice_divided_are_refused: "g.ipt", "Table: T\n{1d6/2}\n" => "g.ipt:2:1", "the dice expression `1d6/2` uses `/`";
    ipt_arithmetic_on_a_variable_is_refused: "g.ipt", "Table: T\n{{$a} - {1d4}}\n" => "g.ipt:2:1", "`{{$a} - {1d4}}`: arithmetic on rolls or variables inside `{…}`";
    ipt_arithmetic_too_large_to_list_is_refused: "g.ipt", "Table: T\n{1d1000-1d1000}\n" => "g.ipt:2:1", "the dice expression `1d1000-1d1000` can go below 0";
    ipt_own_call_with_more_around_it_is_refused: "g.ipt", "Table: T\nwolf\n[@T] and [@T]\n" => "g.ipt:3:1", "`[@T]` in a row of `T` itself, with more around it";
    ipt_every_row_rolling_again_is_refused: "g.ipt", "Table: T\n[@T]\n" => "g.ipt:1:1", "table `T`: every row rolls the table again";
    ipt_loop_of_calls_is_refused_at_its_call: "g.ipt", "Table: A\nx\n[@B]\nTable: B\ny\nand [@A]\n" => "g.ipt:6:5", "a roll on `A` that comes back to this table (A → B → A)";
    tab_loop_of_calls_is_refused_at_its_call: "t.tab", ":S\n1,a\n2,b [S]\n" => "t.tab:3:5", "a roll on `S` that comes back to this table (S → S)";
    ipt_missing_table_is_refused: "g.ipt", "Table: T\n[@Nowhere]\n" => "g.ipt:2:1", "a roll on the table `Nowhere`, which is not in this file";
    ipt_lookup_gap_is_refused: "g.ipt", "Table: T\nType: Lookup\nRoll: 1d6\n1-3:a\n5-6:b\n" => "g.ipt:5:1", "Lookup table `T`: no row for 4,";
    ipt_lookup_rolled_below_its_first_row_is_refused: "g.ipt", "Table: T\nType: Lookup\nRoll: 1d6\n2-6:a\n" => "g.ipt:4:1", "Lookup table `T`: no row for 1,";
    ipt_lookup_gap_without_roll_is_refused: "g.ipt", "Table: T\nType: Lookup\n2-3:a\n5-6:b\n" => "g.ipt:4:1", "Lookup table `T`: no row for 4,";
    ipt_large_rolled_count_is_refused: "g.ipt", "Table: T\n[@{1d100} U]\nTable: U\nx\n" => "g.ipt:2:1", "`[@{1d100} U]`: a count that can pass 20";
    ipt_article_before_a_roll_is_refused: "g.ipt", "Table: T\nsee \\a [@U]\nTable: U\nx\n" => "g.ipt:2:5", "`\\a`: the article \"a\" or \"an\" for a word that is rolled";
    ipt_article_without_a_word_is_refused: "g.ipt", "Table: T\n{1d4} \\a 8-foot poles\n" => "g.ipt:2:7", "`\\a`: the article \"a\" or \"an\" with no word of letters right after it";
    ipt_bracket_of_more_than_words_is_refused: "g.ipt", "Table: T\nsee [Colors {1d4}]\n" => "g.ipt:2:5", "`[Colors {1d4}]`: brackets that are not a call (`[@…]`) or a choice (`[|…]`), holding more than words";
    ipt_bracket_of_words_with_a_text_filter_is_refused: "g.ipt", "Table: T\n[old town >> bold]\n" => "g.ipt:2:14", "`>> bold`: a filter that changes each result's text";
    ipt_row_before_any_table_is_refused: "g.ipt", "x\nTable: T\ny\n" => "g.ipt:1:1", "a row before the first `Table:` line";
    tab_variable_is_refused: "t.tab", "%v%,1\n:S\n1,a|v+1|\n" => "t.tab:1:1", "`%var%,default`: a variable the file changes";
    tab_variable_use_is_refused: "t.tab", ":S\n1,a %v%\n" => "t.tab:2:5", "`%…%`: a variable";
    tab_parameter_is_refused: "t.tab", "@v,1,Ask\n:S\n1,a\n" => "t.tab:1:1", "`@param,…`: a parameter the GM is asked for";
    tab_used_is_refused: "t.tab", ":S\n1,{Used~S,1}\n" => "t.tab:2:3", "`{Used~S,1}`: the TableSmith function Used";
    tab_if_is_refused: "t.tab", ":S\n1,{If~{Dice~1d6}=1?a/b}\n" => "t.tab:2:3", "`{If~{Dice~1d6}=1?a/b}`: the TableSmith function If";
    tab_non_repeating_group_is_refused: "t.tab", ":!S\n1,a\n" => "t.tab:1:2", "`!`: a non-repeating group";
    tab_lockout_is_refused: "t.tab", ":S\n1,a {Lockout~S,1}\n" => "t.tab:2:5", "`{Lockout~S,1}`: the TableSmith function Lockout";
    tab_call_modifier_is_refused: "t.tab", ":S\n1,[S+{Dice~1d4}]\n" => "t.tab:2:3", "`[S+{Dice~1d4}]`: a call with a modifier";
    tab_call_parameters_are_refused: "t.tab", ":S\n1,[S(1)]\n" => "t.tab:2:3", "`[S(1)]`: a call with parameters";
    tab_assignment_is_refused: "t.tab", ":S\n1,|a+1|\n" => "t.tab:2:3", "`|…|`: a variable assignment";
    tab_call_to_a_missing_file_is_refused: "t.tab", ":S\n1,[Other.G]\n" => "t.tab:2:3", "a roll on `Other.G`, a table in no file given to import";
    tab_dice_tablewright_reads_otherwise_are_refused: "t.tab", ":S\n1,{Dice~1d6/2}\n" => "t.tab:2:3", "`{Dice~1d6/2}`: the dice expression `1d6/2` uses `/`";
    tab_if_over_continuation_lines_is_refused_whole: "t.tab", ":S\n1,{If~%v%=1\n_?a/b}\n" => "t.tab:2:3", "`{If~%v%=1?a/b}`: the TableSmith function If";
    tab_loop_on_a_continuation_line_is_refused_there: "t.tab", ":S\n1,a\n_ {Loop~2,[S]}\n" => "t.tab:3:3", "`{Loop~2,[S]}`: the TableSmith function Loop";
}

/// Issue 53: `--skip-unsupported` that leaves nothing to import fails,
/// saying so, and writes nothing.
#[test]
fn skip_unsupported_with_nothing_left_fails() {
    let dir = temp_dir("gen-nothing");
    std::fs::write(dir.join("m.tab"), ":Start\n1,{Lockout~Start,1}\n").unwrap();
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

/// Issue 53: IPP arithmetic in braces and products past our dice limit
/// become a table of their totals, each with the chance the dice give it.
#[test]
fn ipp_arithmetic_in_braces_is_a_table_of_totals_with_their_odds() {
    let dir = temp_dir("gen-ipp-sum");
    let text = "Table: T\nlevel {{1d4} - {1d4}}\n{1d6 * 2000}cp\n{2d6}\n";
    std::fs::write(dir.join("g.ipt"), text).unwrap();
    let o = run_in(&dir, &["import", "g.ipt", "--to", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "g.toml");
    let t = &all[0];
    let texts: Vec<&str> = t["row"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "level {table:imported.g.1d4-1d4}",
            "{table:imported.g.1d6-2000}cp",
            "{2d6}"
        ]
    );
    let diff = super::generator_kit::table(&all, "imported.g.1d4-1d4");
    assert_chances(
        diff,
        &[
            ("-3", 1, 16),
            ("-2", 2, 16),
            ("-1", 3, 16),
            ("0", 4, 16),
            ("1", 3, 16),
            ("2", 2, 16),
            ("3", 1, 16),
        ],
    );
    let big = super::generator_kit::table(&all, "imported.g.1d6-2000");
    assert_eq!(
        super::generator_kit::chances(big)[5],
        ("12000".into(), 1, 6)
    );
}

/// Issue 53: `>> implode` joins a repeated call's results with its glue
/// (`, ` by default), a rolled count's rows too; `>> sort` of one roll is
/// nothing to do; `>> proper` rolls a copy of the table in that case.
#[test]
fn ipp_implode_joins_a_repeated_calls_results() {
    let dir = temp_dir("gen-ipp-implode");
    let text = "Table: T\n[@2 U >> implode]\n[@{1d2} U >> implode \" and \"]\n[@U >> sort]\n[@2 U >> implode >> proper]\nTable: U\nx\n2:red fox\n";
    std::fs::write(dir.join("g.ipt"), text).unwrap();
    let o = run_in(&dir, &["import", "g.ipt", "--to", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = tables(&dir, "g.toml");
    let text_of = |t: &toml::Value, i: usize| t["row"][i]["text"].as_str().unwrap().to_owned();
    let u = "{table:imported.g.u}";
    assert_eq!(text_of(&all[0], 0), format!("{u}, {u}"));
    assert_eq!(text_of(&all[0], 2), u);
    let counted = super::generator_kit::table(&all, "imported.g.u-1d2");
    assert_eq!(text_of(counted, 1), format!("{u} and {u}"));
    // `>> proper`: a copy of U in that case, with U's odds.
    let p = "{table:imported.g.u-proper}";
    assert_eq!(text_of(&all[0], 3), format!("{p}, {p}"));
    let proper = super::generator_kit::table(&all, "imported.g.u-proper");
    assert_chances(proper, &[("X", 1, 3), ("Red Fox", 2, 3)]);
}

/// Issue 53: a row that only rolls its own table again (IPP's "roll
/// again") is left out, and the other rows keep the odds IPP's rolling
/// again gives them: a Lookup table becomes weighted by its die's ways.
#[test]
fn ipp_roll_again_rows_leave_the_others_their_odds() {
    let dir = temp_dir("gen-ipp-again");
    let text = "Table: Start\nYou meet [@Result].\n\nTable: Result\nType: Lookup\nRoll: 2d6\n2-4:[@Result]\n5-9:a wolf\n10-12:a bear\n";
    std::fs::write(dir.join("g.ipt"), text).unwrap();
    let o = run_in(&dir, &["import", "g.ipt", "--to", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("1 × rows that only roll their own table again left out"));
    let all = tables(&dir, "g.toml");
    let r = super::generator_kit::table(&all, "imported.g.result");
    // 2d6: 5-9 is 24 throws of 36, 10-12 is 6; 2-4 (6) rolls again.
    assert_chances(r, &[("a wolf", 24, 30), ("a bear", 6, 30)]);
}

/// Issue 53: `export --format perchance --to DIR` writes each table with
/// every table it rolls on, so `import DIR/*` finds them in several
/// files: each is imported once, under its id, from its own file.
#[test]
fn perchance_export_to_a_folder_imports_back_each_table_once() {
    let dir = temp_dir("gen-pc-dir");
    std::fs::create_dir(dir.join("cc")).unwrap();
    let table = |id: &str, text: &str| {
        format!(
            "[[table]]\nid = \"{id}\"\ntitle = \"{id}\"\nsystem = \"any\"\nsource = \"mine\"\n[[table.row]]\nweight = 1\nname = \"One\"\ntext = \"{text}\"\n[[table.row]]\nweight = 1\nname = \"Two\"\ntext = \"two\"\n\n"
        )
    };
    let content = table("my.animal", "a dog")
        + &table("my.pet", "a pet: {table:my.animal}")
        + &table("my.zoo", "zoo: {table:my.animal}");
    std::fs::write(dir.join("cc/t.toml"), content).unwrap();
    let o = run_in(
        &dir,
        &[
            "export",
            "my.animal",
            "my.pet",
            "my.zoo",
            "--content",
            "cc",
            "--format",
            "perchance",
            "--to",
            "pe",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let files = [
        "pe/my.animal.perchance",
        "pe/my.pet.perchance",
        "pe/my.zoo.perchance",
    ];
    let mut args = vec!["import"];
    args.extend(files);
    args.extend(["--to", "out"]);
    let o = run_in(&dir, &args);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        !out.contains("animal-2") && !out.contains("animal-3"),
        "{out}"
    );
    assert!(
        out.contains("1 × tables carried along from another file given"),
        "{out}"
    );
    let pet = tables(&dir, "my-pet.toml");
    assert_eq!(pet.len(), 1);
    assert_eq!(
        pet[0]["row"][0]["text"].as_str(),
        Some("a pet: {table:my.animal}")
    );
    assert_eq!(tables(&dir, "my-animal.toml").len(), 1);
}
