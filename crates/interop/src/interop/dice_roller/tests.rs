use super::*;

#[test]
fn results_cells_are_read_as_the_plugin_reads_them() {
    assert_eq!(results_of("4"), Ok((4, 4)));
    assert_eq!(results_of("1-3"), Ok((1, 3)));
    assert_eq!(results_of("1–3"), Ok((1, 3)));
    assert_eq!(results_of("11,12"), Ok((11, 12)));
    assert!(results_of("1, 5").unwrap_err().contains("1 to 5"));
    assert!(
        results_of("1-2, 5")
            .unwrap_err()
            .contains("first two numbers")
    );
    assert!(results_of("5-1").is_err());
    assert!(results_of("-3").is_err());
    assert!(results_of("one").is_err());
}

#[test]
fn cells_split_on_pipes_not_escaped_and_drop_empty_ones() {
    let c: Vec<&str> = cells("| a \\| b | | c |")
        .into_iter()
        .map(|c| c.1)
        .collect();
    assert_eq!(c, ["a \\| b", "c"]);
    let line = "  | x | yy |";
    let offsets: Vec<usize> = cells(line).into_iter().map(|c| c.0).collect();
    assert_eq!(offsets, [4, 8]);
}

#[test]
fn a_d66_header_is_a_d66_and_its_results_skip_the_gaps() {
    let mut note = String::from("| dice: 1d6*10+1d6 | x |\n|--|--|\n");
    for a in 1..=6 {
        note.push_str(&format!("| {a}1-{a}6 | r{a} |\n"));
    }
    note.push_str("\n^t\n");
    let s = read("n.md", "n", &note).unwrap();
    let t = &s.tables[0];
    assert_eq!(t.dice.as_deref(), Some("d66"));
    assert!(t.refused.is_empty(), "{:?}", t.refused);
    assert_eq!(t.rows.len(), 6);
}
