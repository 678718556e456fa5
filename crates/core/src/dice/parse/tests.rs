//! The parser's error text, to the byte: the message, the input with the
//! caret under the wrong text, and the hint; and the diagnostic a table
//! file's validator gets for an expression inside the file.

use super::parse;

fn error_text(input: &str) -> String {
    parse(input).unwrap_err().to_string()
}

#[test]
fn an_error_shows_the_input_with_a_caret_and_the_hint() {
    assert_eq!(
        error_text("2d6q4"),
        format!(
            "cannot read `2d6q4` (column 4): `q` is not a modifier of a die\n    2d6q4\n       ^\n    hint: {}",
            super::mods::MODIFIERS_HINT
        )
    );
    assert_eq!(
        error_text("5D vs 3 tw"),
        "cannot read `5D vs 3 tw` (column 9): unknown pool option `tw`\n    5D vs 3 tw\n            ^^\n    hint: a pool takes `vs N`, `raise N`, `twist` and `team N,N`, e.g. `5D vs 3 raise 1 twist`"
    );
}

#[test]
fn carets_count_characters_stop_at_forty_and_show_one_at_the_end() {
    // `é` is two bytes: the error's byte length counts as two characters.
    assert_eq!(
        error_text("é2d6x"),
        "cannot read `é2d6x` (column 1): expected a die such as `d6` or a number, found `é`\n    é2d6x\n    ^^"
    );
    let long = format!("{}d6", "9".repeat(52));
    let text = error_text(&long);
    assert!(
        text.ends_with(&format!(
            "\n    {}\n    hint: {}",
            "^".repeat(40),
            crate::dice::limits::HINT
        )),
        "{text}"
    );
    assert_eq!(
        error_text(""),
        "cannot read `` (column 1): the expression is empty\n    \n    ^\n    hint: try `3d6`, `5D vs 3`, `save 12` or `1:4`"
    );
    assert_eq!(
        error_text("contest 10"),
        "cannot read `contest 10` (column 11): a contest needs at least two contestants\n    contest 10\n              ^\n    hint: write their ability scores, e.g. `contest 10 8` or `contest Sybilla=10 Theobald=6`"
    );
}

#[test]
fn control_characters_show_as_spaces_under_the_caret_line() {
    assert_eq!(
        error_text("1d6\tx"),
        "cannot read `1d6\tx` (column 5): unexpected `x` after a complete expression\n    1d6 x\n        ^\n    hint: remove it, or check the notation table in the guide, Dice notation and exact odds"
    );
}

#[test]
fn the_diagnostic_carries_the_message_snippet_and_hint() {
    let e = parse("d0").unwrap_err();
    let d = e.diagnostic();
    assert_eq!(d.file, None);
    assert_eq!(d.column, 2);
    assert_eq!(
        d.message,
        "cannot read `d0` (column 2): a die needs at least one side"
    );
    assert_eq!(d.hint.as_deref(), Some("e.g. `d6`"));
    assert_eq!(
        d.snippet.as_ref().map(ToString::to_string).as_deref(),
        Some("    d0\n     ^")
    );
    assert_eq!(crate::diagnostic::Diagnostic::from(&e), d);
}

#[test]
fn an_expression_in_a_file_points_at_the_wrong_character_in_the_file() {
    let e = parse("2d6q").unwrap_err();
    let line = "text = \"{2d6q} gold\"";
    let d = e
        .diagnostic_in("dice/tables.toml", 1, 10)
        .with_source(line, e.width());
    assert_eq!(
        d.to_string(),
        format!(
            "dice/tables.toml:1:13: `q` is not a modifier of a die\n    text = \"{{2d6q}} gold\"\n                ^\n    hint: {}",
            super::mods::MODIFIERS_HINT
        )
    );
}

/// Found by fuzzing: the printed form spells defaults out (`d` → `dl1`,
/// `<046` → `<46`), so a 954-byte expression printed to 1,022 bytes and the
/// printed form was refused for its length. The reading is unchanged; only
/// that refusal is allowed, and a shorter one prints and parses back.
#[test]
fn a_printed_form_past_the_byte_limit_is_refused_only_for_its_length() {
    let input = include_str!("../../../../../fuzz/seeds/dice/printed-past-the-limit");
    assert!(input.len() <= crate::dice::limits::MAX_EXPR_BYTES);
    let expr = parse(input).unwrap();
    let printed = expr.to_string();
    assert!(
        printed.len() > crate::dice::limits::MAX_EXPR_BYTES,
        "{}",
        printed.len()
    );
    let err = parse(&printed).unwrap_err();
    assert!(
        err.message.contains("bytes long; the limit is 1000"),
        "{err:?}"
    );
    let short = "5d25d2<046-4d44d<046";
    let again = parse(&parse(short).unwrap().to_string()).unwrap();
    assert_eq!(again, parse(short).unwrap());
}
