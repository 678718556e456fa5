//! IPP's case filters (`[@Name >> proper]`, `>> upper`, `>> lower`) as a
//! copy of the table called, its words in that case: the reader makes a
//! placeholder table for the call ([`Cased`]), and once the file's own
//! tables are read each placeholder takes the rows of the table it names,
//! with the same dice, ranges and weights, so every result comes up as
//! often as in IPP and reads as IPP's filter writes it. Words, kept
//! spaces and choices are changed; dice give digits, which have no case.
//! A table whose rows roll other tables, or one in another file, is
//! refused at the call: what those tables roll would need its own copy.

use super::sheet::{Cased, Frag, Refusal, SrcRow, SrcTable};

/// Each placeholder of `extra` filled from the file's `own` tables, or
/// refused at its call.
pub fn fill(own: &[SrcTable], extra: &mut [SrcTable]) {
    for t in extra.iter_mut() {
        let Some(c) = t.cased.take() else { continue };
        let of = c.of.to_lowercase();
        let found = own.iter().find(|o| o.name.to_lowercase() == of);
        match found.map(|o| copy(o, &c)) {
            Some(Some(rows)) => {
                let o = found.expect("found");
                t.dice = o.dice.clone();
                t.rows = rows;
            }
            Some(None) => t.refused.push(refusal(
                &c,
                "rolls on other tables, which would need a copy of their own",
            )),
            None => t.refused.push(refusal(
                &c,
                "is not in this file (a table of a file it uses keeps its own case)",
            )),
        }
    }
}

fn refusal(c: &Cased, why: &str) -> Refusal {
    let names: Vec<&str> = c.cases.iter().map(|c| c.name()).collect();
    Refusal::new(
        c.line,
        c.column,
        format!("`>> {}` on `{}`, which {why}", names.join(" >> "), c.of),
        "write the rows in that case, or import the rest with --skip-unsupported",
    )
}

/// `t`'s rows with their words changed, or `None` when a row rolls on a
/// table.
fn copy(t: &SrcTable, c: &Cased) -> Option<Vec<SrcRow>> {
    t.rows
        .iter()
        .map(|r| {
            Some(SrcRow {
                text: changed(&r.text, c)?,
                name: r.name.clone(),
                ..r.clone()
            })
        })
        .collect()
}

fn changed(frags: &[Frag], c: &Cased) -> Option<Vec<Frag>> {
    frags
        .iter()
        .map(|f| match f {
            Frag::Words(w) => Some(Frag::Words(
                c.cases.iter().fold(w.clone(), |w, case| case.apply(&w)),
            )),
            Frag::Pick(options) => Some(Frag::Pick(
                options
                    .iter()
                    .map(|o| changed(o, c))
                    .collect::<Option<_>>()?,
            )),
            Frag::Dice(_) | Frag::Space => Some(f.clone()),
            Frag::Call { .. } | Frag::Local(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::ipt;
    use super::super::sheet::Case;

    #[test]
    fn a_case_filter_is_a_copy_of_the_table_in_that_case() {
        assert_eq!(
            Case::Proper.apply("half-orc o'neil 3rd"),
            "Half-Orc O'Neil 3rd"
        );
        let s = ipt::read(
            "f.ipt",
            "f",
            "Table: M\nA [@N >> proper]!\nTable: N\n2:red fox\n{1d4} [|old|grey] owls\n",
        );
        let copy = s.tables.iter().find(|t| t.synthetic).expect("a copy");
        assert!(copy.refused.is_empty(), "{:?}", copy.refused);
        assert_eq!(copy.rows[0].text, [super::Frag::Words("Red Fox".into())]);
        assert_eq!(copy.rows[0].weight, Some(2));
        assert!(
            matches!(&copy.rows[1].text[2], super::Frag::Pick(o) if o[1] == [super::Frag::Words("Grey".into())])
        );
    }

    #[test]
    fn a_case_filter_on_a_table_that_rolls_others_is_refused_at_the_call() {
        for text in [
            "Table: M\nA [@N >> upper]\nTable: N\n[@O]\nTable: O\nx\n",
            "Use: other\nTable: M\nA [@N >> upper]\n",
        ] {
            let s = ipt::read("f.ipt", "f", text);
            let r = s.tables.iter().flat_map(|t| &t.refused).next().expect(text);
            assert!(r.what.starts_with("`>> upper` on `N`"), "{}", r.what);
            assert_eq!(r.column, 3, "{text}");
        }
    }
}
