use super::*;

#[test]
fn block_ids_are_well_formed_and_unique() {
    let ids = block_ids(["core.injury", "core-injury", "gen.npc.core", "..", "A_b.C"]);
    assert_eq!(ids["core.injury"], "core-injury");
    assert_eq!(ids["core-injury"], "core-injury-2");
    assert_eq!(ids["gen.npc.core"], "gen-npc-core");
    assert_eq!(ids[".."], "table");
    assert_eq!(ids["A_b.C"], "a-b-c");
}

#[test]
fn pieces_split_placeholders_and_keep_literal_braces() {
    let p = pieces("a {{b}} {d4} and {pick: x | {d6} y} {table:t.u}");
    assert_eq!(
        p,
        vec![
            Piece::Plain("a {{b}} "),
            Piece::Braced("d4"),
            Piece::Plain(" and "),
            Piece::Braced("pick: x | {d6} y"),
            Piece::Plain(" "),
            Piece::Braced("table:t.u"),
        ]
    );
    assert_eq!(
        pieces("{ {3d6,3d6}kh1}"),
        vec![Piece::Braced(" {3d6,3d6}kh1")]
    );
}

#[test]
fn derived_names_are_the_first_words() {
    assert_eq!(
        derived_name("A hungry bulette burrows up and attacks.", "x"),
        "A hungry bulette burrows up and attacks"
    );
    assert_eq!(
        derived_name(
            "An animate, immobile stone statue in your likeness rises. It",
            "x"
        ),
        "An animate, immobile stone statue in"
    );
    assert_eq!(derived_name("  ", "Result 3"), "Result 3");
}

#[test]
fn formulas_are_what_other_rollers_read() {
    assert_eq!(common_dice("d12"), "1d12");
    assert_eq!(common_dice("2d6"), "2d6");
    assert_eq!(common_dice("d66"), "1d6*10+1d6");
}
