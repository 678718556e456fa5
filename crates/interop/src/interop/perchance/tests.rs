use super::*;

fn table<'a>(s: &'a Sheet, name: &str) -> &'a SrcTable {
    s.tables.iter().find(|t| t.name == name).unwrap_or_else(|| {
        panic!(
            "no {name} in {:?}",
            s.tables.iter().map(|t| &t.name).collect::<Vec<_>>()
        )
    })
}

fn weights(t: &SrcTable) -> Vec<u64> {
    t.rows.iter().map(|r| r.weight.unwrap()).collect()
}

#[test]
fn decimal_weights_become_whole_numbers_with_the_same_ratios() {
    let w = [
        Weight::Num(10, 0, 0),
        Weight::Num(3, 0, 0),
        Weight::One,
        Weight::Num(0, 1, 1),
        Weight::Num(0, 0, 0),
    ];
    let refs: Vec<&Weight> = w.iter().collect();
    assert_eq!(
        whole(&refs).unwrap(),
        [Some(100), Some(30), Some(10), Some(1), None]
    );
    let big = [
        Weight::Num(999_999_999, 1, 6),
        Weight::Num(999_999_999, 0, 0),
    ];
    let refs: Vec<&Weight> = big.iter().collect();
    assert!(whole(&refs).is_none(), "a sum past what is kept exactly");
}

#[test]
fn sublists_are_picked_first_and_references_go_by_place() {
    let s = read(
        "g.perchance",
        "g",
        "a\n\tx\n\t  \n\tb ^3\n\t\tc\n\t\td\nout\n\t[a.b] and [a]\n",
    );
    let a = table(&s, "a");
    assert_eq!(weights(a), [1, 3]);
    assert_eq!(a.rows[1].text, [Frag::Local(1)]);
    assert_eq!(table(&s, "a.b").rows.len(), 2);
    let out = table(&s, "out");
    assert_eq!(
        out.rows[0].text,
        [Frag::Local(1), Frag::Words(" and ".into()), Frag::Local(0)]
    );
    assert!(s.tables.iter().all(|t| t.refused.is_empty()));
}

#[test]
fn four_spaces_a_level_when_the_list_starts_so() {
    let s = read("g", "g", "a\n    x\n    y\n        z\nb\n  p\n");
    assert_eq!(table(&s, "a").rows.len(), 2);
    assert_eq!(table(&s, "a.y").rows.len(), 1);
    assert_eq!(table(&s, "b").rows.len(), 1);
}

#[test]
fn escapes_and_comments_are_read_as_perchance_reads_them() {
    let s = read(
        "g",
        "g",
        "a\n\tx\\s\\[y\\] \\^ // gone\n\thttps://example.org\n",
    );
    let a = table(&s, "a");
    assert_eq!(a.rows[0].text, [Frag::Words("x [y] ^".into())]);
    assert_eq!(a.rows[1].text, [Frag::Words("https://example.org".into())]);
}

#[test]
fn deep_and_long_inputs_are_bounded() {
    let mut deep = String::from("a\n");
    for d in 1..40 {
        deep.push_str(&format!("{}x{d}\n", "\t".repeat(d)));
    }
    let s = read("g", "g", &deep);
    assert!(
        s.tables
            .iter()
            .any(|t| t.refused.iter().any(|r| r.what.contains("16 levels")))
    );
    let nested = format!("a\n\t{}x{}\n", "{".repeat(40), "}".repeat(40));
    let s = read("g", "g", &nested);
    assert!(
        table(&s, "a")
            .refused
            .iter()
            .any(|r| r.what.contains("16 deep"))
    );
    let many = format!("a\n\t{}\n", "{1-2}".repeat(300));
    let s = read("g", "g", &many);
    assert!(
        table(&s, "a")
            .refused
            .iter()
            .any(|r| r.what.contains("256"))
    );
}

/// Every refusal of a sheet: (line, column).
fn refused(s: &Sheet) -> Vec<(usize, usize)> {
    s.refused
        .iter()
        .chain(s.tables.iter().flat_map(|t| &t.refused))
        .map(|r| (r.line, r.column))
        .collect()
}

#[test]
fn the_page_description_is_left_out_with_a_note() {
    let page = "title = Colours\ndescription\n\t{import:simple-gen-footer}\n\t$output = <p>[this.joinItems(\"</p><p>\")]</p>\n";
    let s = read(
        "c.perchance",
        "c",
        &format!("{page}$output = [color]\ncolor\n\tred\n\tblue\n"),
    );
    assert!(refused(&s).is_empty(), "{:?}", refused(&s));
    let names: Vec<&str> = s.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["$output", "color"]);
    assert!(
        s.counts.keys().any(|k| k.starts_with("page lists")),
        "{:?}",
        s.counts
    );
    // Text that refers to it reads it: its items joined (issue 53), and
    // the import in them refused.
    let s = read(
        "c.perchance",
        "c",
        &format!("{page}$output = [color] [description]\ncolor\n\tred\n"),
    );
    assert_eq!(refused(&s), [(3, 2)]);
}

/// Every refusal of a file: (line, column, what).
fn refusals(s: &Sheet) -> Vec<(usize, usize, String)> {
    s.refused
        .iter()
        .chain(s.tables.iter().flat_map(|t| &t.refused))
        .map(|r| (r.line, r.column, r.what.clone()))
        .collect()
}

#[test]
fn a_variable_set_once_is_a_row_for_each_item() {
    let s = read(
        "g.perchance",
        "g",
        "g\n  male ^3\n  female\nnames\n  male\n    Bob\n  female\n    Ann\nk\n  wolf\n    size = big\n  owl\n    size = small\noutput\n  [x = g.selectOne]I'm [names[x].selectOne], [x].\n  [y = k.selectOne, \"\"]A [y.size] [y]. [k.selectOne]\n",
    );
    assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
    let x = table(&s, "x on line 15");
    assert_eq!(weights(x), [3, 1]);
    let male = s
        .tables
        .iter()
        .position(|t| t.name == "names.male")
        .unwrap();
    let words = |w: &str| Frag::Words(w.into());
    assert_eq!(
        x.rows[0].text,
        [
            words("male"),
            words("I'm "),
            Frag::Local(male),
            words(", "),
            words("male"),
            words("."),
        ]
    );
    let y = table(&s, "y on line 16");
    assert_eq!(y.rows.len(), 2);
    assert_eq!(y.rows[1].text[0], words("A "));
    assert!(
        matches!(y.rows[1].text[1], Frag::Local(_)),
        "{:?}",
        y.rows[1].text
    );
    assert_eq!(y.rows[1].text[3], words("owl"));
}

#[test]
fn an_evaluated_item_is_the_same_words_everywhere_it_is_read() {
    let s = read(
        "g.perchance",
        "g",
        "fruit\n  {1-2} {red|green} apples ^2\n  a pear\noutput\n  [f = fruit.selectOne.evaluateItem]! [f]?\n",
    );
    assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
    let f = table(&s, "f on line 5");
    // The apples weigh 2 (1 in 4 ways each), the pear 1.
    assert_eq!(weights(f), [1, 1, 1, 1, 2]);
    let text = |k: usize| -> String {
        f.rows[k]
            .text
            .iter()
            .map(|p| match p {
                Frag::Words(w) => w.as_str(),
                other => panic!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(text(0), "1 red apples! 1 red apples?");
    assert_eq!(text(3), "2 green apples! 2 green apples?");
    assert_eq!(text(4), "a pear! a pear?");
}

#[test]
fn variables_that_cannot_be_carried_stay_refused() {
    for (text, what) in [
        // Read before it is set, a second one in the text, another item's.
        (
            "l\n  a\noutput\n  [x] [x = l.selectOne]\n",
            "`[x]` names no list",
        ),
        (
            "l\n  a\noutput\n  [x = l.selectOne] {[x]|b}\n",
            "`[x]` names no list",
        ),
        (
            "l\n  a\noutput\n  [x = l.selectOne]\n  [x]\n",
            "`[x]` names no list",
        ),
        // Evaluated once: an item that rolls a list, a weighted option,
        // a property of the words.
        (
            "l\n  a [m]\nm\n  b\noutput\n  [x = l.selectOne.evaluateItem] [x]\n",
            "sets a variable",
        ),
        (
            "l\n  {a^2|b}\noutput\n  [x = l.selectOne.evaluateItem] [x]\n",
            "sets a variable",
        ),
        (
            "l\n  a\n    size = big\noutput\n  [x = l.selectOne.evaluateItem] [x.size]\n",
            "sets a variable",
        ),
        (
            "l\n  a\noutput\n  [x = l.selectOne] [x.size]\n",
            "the item `a` has nothing of that name",
        ),
        (
            "l\n  a\nx\n  b\noutput\n  [x = l.selectOne]\n",
            "sets a variable",
        ),
    ] {
        let got = refusals(&read("g.perchance", "g", text));
        assert!(got.iter().any(|r| r.2.contains(what)), "{text}: {got:?}");
    }
}

#[test]
fn join_items_in_an_output_is_every_item_in_order() {
    let s = read(
        "g.perchance",
        "g",
        "d\n  one\n  [k]\n  three\n  $output = <p>[this.joinItems(\"</p><p>\")]</p>\nk\n  x\noutput\n  [d]\n",
    );
    assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
    let k = s.tables.iter().position(|t| t.name == "k").unwrap();
    let d = table(&s, "d");
    let words = |w: &str| Frag::Words(w.into());
    let text: Vec<&Frag> = d.rows[0].text.iter().filter(|f| **f != words("")).collect();
    assert_eq!(
        text,
        [
            words("\n"),
            words("one"),
            words("\n"),
            Frag::Local(k),
            words("\n"),
            words("three")
        ]
        .iter()
        .collect::<Vec<_>>()
    );
    // Outside a list's `$output`, or joined again inside an item: refused.
    for text in [
        "output\n  [this.joinItems(\", \")]\n",
        "d\n  [this.joinItems(\",\")]\n  $output = [this.joinItems(\",\")]\noutput\n  [d]\n",
    ] {
        let got = refusals(&read("g.perchance", "g", text));
        assert!(
            got.iter().any(|r| r.2.contains("joinItems")),
            "{text}: {got:?}"
        );
    }
}

#[test]
fn a_join_or_a_copy_that_rolls_itself_is_read_once() {
    // Each made table is known before its rows are read, so a list
    // joining itself (or cased in its own items) is a table rolling
    // itself — refused as a loop later — never a reading without end.
    let s = read(
        "f.perchance",
        "f",
        "l\n\t[joinLists(l)]\n\t[f = joinLists(l, m)]\nm\n\t[joinLists(m, l)] x\n",
    );
    let joined = table(&s, "l + m");
    assert_eq!(weights(joined), [1, 1, 1]);
    assert!(matches!(joined.rows[2].text[0], Frag::Local(_)));
    let s = read("f.perchance", "f", "l\n\tx [l.sentenceCase]\n\ty\n");
    let copy = table(&s, "l (sentence case)");
    assert_eq!(copy.rows[1].text, [Frag::Words("Y".into())]);
    assert!(copy.refused.is_empty(), "{:?}", copy.refused);
}
