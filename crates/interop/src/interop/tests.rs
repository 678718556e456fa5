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
        "An animate, immobile stone statue"
    );
    // Words cut off take the small words leading into them along; a text
    // that fits keeps every word it has.
    assert_eq!(
        derived_name("Harbors a secret animosity toward the local lord", "x"),
        "Harbors a secret animosity"
    );
    assert_eq!(
        derived_name("Blasphemer with a serious grudge against the faith", "x"),
        "Blasphemer with a serious grudge"
    );
    assert_eq!(derived_name("Thinks of the", "x"), "Thinks of the");
    assert_eq!(
        derived_name("overly suspicious/too accepting / trusting", "x"),
        "overly suspicious/too accepting"
    );
    // A choice too long for the room keeps the options that fit.
    assert_eq!(
        derived_name("Loyal to their benefactor/patron/employer", "x"),
        "Loyal to their benefactor/patron"
    );
    assert_eq!(
        derived_name("Fantasizes about being an adventurer/noble", "x"),
        "Fantasizes about being an adventurer"
    );
    assert_eq!(
        derived_name("Worth about the (2 gp, or 3 when sold at market)", "x"),
        "Worth"
    );
    assert_eq!(derived_name("  ", "Result 3"), "Result 3");
    // A point between digits goes on; a bracket the cut would leave open
    // is left out.
    assert_eq!(
        derived_name("A rain that lasts a typical (1.5 hours) time", "x"),
        "A rain that lasts a typical (1.5 hours)"
    );
    assert_eq!(
        derived_name("A Light rain that lasts a typical (1.5 hours) time", "x"),
        "A Light rain that lasts a typical"
    );
    assert_eq!(derived_name("Costs 2.5 gp. Rare", "x"), "Costs 2.5 gp");
    assert_eq!(
        derived_name("Worth (2 gp) and more", "x"),
        "Worth (2 gp) and more"
    );
    // A row that opens with a long aside keeps its first words.
    assert_eq!(
        derived_name("(An aside that runs on well past forty characters)", "x"),
        "An aside that runs on well past forty"
    );
}

#[test]
fn names_taken_from_text_are_made_distinct_and_given_names_kept() {
    let golem = |kind: &str| format!("Golem:{kind} ,Time:30 days ,Cost:65,000 gp");
    let texts = [
        golem("Clay"),
        golem("Flesh"),
        "Rats.".into(),
        "Rats.".into(),
        "x".into(),
    ];
    let mut names: Vec<String> = texts.iter().map(|t| derived_name(t, "x")).collect();
    names[4] = "Golem".into();
    let rolls = ["1-5", "6-17", "18", "19-20", "21"];
    let derived: Vec<Option<(String, String)>> = texts
        .iter()
        .zip(rolls)
        .enumerate()
        .map(|(i, (t, r))| (i < 4).then(|| (t.clone(), r.to_owned())))
        .collect();
    distinct_names(&mut names, &derived);
    assert_eq!(
        names,
        [
            "Golem: Clay",
            "Golem: Flesh",
            "Rats (18)",
            "Rats (19-20)",
            "Golem"
        ]
    );
}

#[test]
fn a_longer_name_keeps_a_number_with_a_point_whole() {
    let texts = ["Lasts 1.5 hours. Then rain", "Lasts 1.5 hours. Then sun"];
    let mut names: Vec<String> = texts.iter().map(|t| derived_name(t, "x")).collect();
    let derived: Vec<_> = texts
        .iter()
        .map(|t| Some((t.to_string(), "1".to_owned())))
        .collect();
    distinct_names(&mut names, &derived);
    assert_eq!(
        names,
        ["Lasts 1.5 hours: Then rain", "Lasts 1.5 hours: Then sun"]
    );
}

#[test]
fn formulas_are_what_other_rollers_read() {
    assert_eq!(common_dice("d12"), "1d12");
    assert_eq!(common_dice("2d6"), "2d6");
    assert_eq!(common_dice("d66"), "1d6*10+1d6");
}

/// A Foundry RollTable of `n` results, one key a line as Foundry writes.
pub fn foundry_table(n: usize) -> String {
    let results: Vec<String> = (1..=n)
        .map(|i| {
            format!(
                "    {{\n      \"type\": \"text\",\n      \"text\": \"Result number {i}, with a few words\",\n      \"range\": [\n        {i},\n        {i}\n      ],\n      \"weight\": 1\n    }}"
            )
        })
        .collect();
    format!(
        "{{\n  \"name\": \"Many\",\n  \"formula\": \"1d{n}\",\n  \"results\": [\n{}\n  ]\n}}\n",
        results.join(",\n")
    )
}

/// Issue 39: a Foundry import finds its results' lines in one pass over
/// the text (a line index), not one scan of the text per result — a
/// count of the bytes scanned to find lines, not a timing. Before, 4,000
/// results scanned the text about 2,000 times over.
#[test]
fn a_foundry_import_scans_its_text_a_bounded_number_of_times() {
    use crate::content::source::scanned;
    for n in [500, 4_000] {
        let text = foundry_table(n);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let before = scanned::bytes();
        let read = foundry::read(&value, "many.json", &text, &mut Default::default()).unwrap();
        let scanned = scanned::bytes() - before;
        assert_eq!(read.drafts[0].rows.len(), n);
        // Each result's line is its `range`'s: 9 lines a result, the last at 9n - 1.
        assert_eq!(read.drafts[0].rows[n - 1].line, 9 * n - 1);
        assert!(
            scanned <= 2 * text.len(),
            "{n} results: {scanned} bytes scanned to find lines in a text of {}",
            text.len()
        );
    }
}

/// Every text of up to five characters from an alphabet of the marks the
/// row-name rules look at (stops, digits, brackets, a comma, a dash, a
/// slash, a space, a new line, a two-byte letter and `a`, a word that
/// leads into the next), and each again behind 38
/// letters so the 40-character cut falls among them: a derived name is
/// never empty, keeps within 40 characters, is the text's own words in
/// their order, leaves no bracket open, and holds no stop but a point
/// between digits.
#[test]
fn derived_names_keep_their_rules_on_every_short_text() {
    const MARKS: [char; 13] = [
        'a', ' ', '.', '1', '(', ')', ',', ':', 'é', '\n', '-', '2', '/',
    ];
    let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut checked = 0;
    let mut text = Vec::new();
    loop {
        let tail: String = text.iter().map(|&i| MARKS[i]).collect();
        for plain in [tail.clone(), format!("{} {tail}", "b".repeat(38))] {
            let name = derived_name(&plain, "FALLBACK");
            checked += 1;
            if let Some(longer) = longer_name(&plain) {
                assert!(
                    !longer.is_empty() && longer.chars().count() <= 40,
                    "{plain:?}"
                );
            }
            if name == "FALLBACK" {
                continue;
            }
            assert!(
                !name.is_empty() && name.chars().count() <= 40,
                "{plain:?} -> {name:?}"
            );
            assert!(squeeze(&plain).contains(&name), "{plain:?} -> {name:?}");
            assert!(
                !name.contains([';', ':', '!', '?', '\n']),
                "{plain:?} -> {name:?}"
            );
            let (opens, closes) = (name.matches('(').count(), name.matches(')').count());
            assert!(
                opens <= closes,
                "a bracket left open: {plain:?} -> {name:?}"
            );
            let b = name.as_bytes();
            for (i, _) in name.match_indices('.') {
                let around = i > 0
                    && b[i - 1].is_ascii_digit()
                    && b.get(i + 1).is_some_and(u8::is_ascii_digit);
                assert!(around, "a stop kept in {plain:?} -> {name:?}");
            }
        }
        // The next text: count up in base 13, one place longer after the last.
        match text.iter().rposition(|&i| i + 1 < MARKS.len()) {
            Some(p) => {
                text[p] += 1;
                text[p + 1..].iter_mut().for_each(|i| *i = 0);
            }
            None if text.len() < 5 => text = vec![0; text.len() + 1],
            None => break,
        }
    }
    assert_eq!(
        checked,
        2 * (1..=5).map(|n| MARKS.len().pow(n)).sum::<usize>() + 2
    );
}
