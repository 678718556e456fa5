//! IPP's "roll again" rows: a row of a table that is only a call on that
//! same table (`1-2:[@Result]` in `Table: Result`). IPP rolls the table
//! again until another row comes up, so each other row comes up with its
//! own chance over theirs all together; such rows are left out and the
//! others keep exactly those odds (a Lookup table becomes weighted, each
//! row weighing the ways its die lands in its range). Nothing is rolled
//! again at all, so no roll can go on without end. A call on its own
//! table with more around it (`[@Result] and [@Result]`, or in a choice)
//! would nest rolls with no bound: it is refused at the call.

use super::sheet::{Frag, Refusal, SrcTable};
use super::totals;

/// Roll-again rows of `t` left out (how many); calls on `t` elsewhere in
/// its rows refused.
pub fn settle(t: &mut SrcTable) -> usize {
    let own = t.name.to_lowercase();
    let is_own =
        |f: &Frag| matches!(f, Frag::Call { file: None, table, .. } if table.to_lowercase() == own);
    let again = |text: &[Frag]| {
        let mut calls = text.iter().filter(|f| !is_blank(f));
        calls.next().is_some_and(is_own) && calls.next().is_none()
    };
    let mut refused = Vec::new();
    for r in t.rows.iter().filter(|r| !again(&r.text)) {
        own_calls(&r.text, &own, &mut refused);
    }
    let left = t.rows.iter().filter(|r| !again(&r.text)).count();
    let gone = t.rows.len() - left;
    if gone == 0 || !refused.is_empty() {
        t.refused.append(&mut refused);
        return 0;
    }
    if left == 0 {
        t.refused.push(Refusal::new(
            t.line,
            1,
            format!(
                "table `{}`: every row rolls the table again, so a roll never ends",
                t.name
            ),
            "give the table a row with a result, or import the rest with --skip-unsupported",
        ));
        return 0;
    }
    if let Some(dice) = t.dice.take() {
        let Some(ways) = totals::ways(&dice) else {
            t.refused.push(Refusal::new(t.line, 1, format!("table `{}`: a row that rolls again, on a die `{dice}` whose odds are too many to list", t.name), "make the table weighted, or import the rest with --skip-unsupported"));
            t.dice = Some(dice);
            return 0;
        };
        for r in &mut t.rows {
            let (a, b) = r.range.take().unwrap_or((1, 0));
            let w: u128 = ways.range(a..=b.max(a)).map(|(_, n)| n).sum();
            r.weight = Some(u64::try_from(w).unwrap_or(u64::MAX));
        }
    }
    t.rows.retain(|r| !again(&r.text));
    gone
}

fn is_blank(f: &Frag) -> bool {
    matches!(f, Frag::Words(w) if w.trim().is_empty())
}

/// Every call on table `own` in `frags`, refused.
fn own_calls(frags: &[Frag], own: &str, out: &mut Vec<Refusal>) {
    for f in frags {
        match f {
            Frag::Call {
                file: None,
                table,
                line,
                column,
            } if table.to_lowercase() == own => {
                out.push(Refusal::new(*line, *column, format!("`[@{table}]` in a row of `{table}` itself, with more around it: each roll could nest another without end, which tablewright's tables cannot do (a row that is only the call, IPP's roll again, is carried)"), "make the row only `[@…]`, or roll another table, or import the rest with --skip-unsupported"));
            }
            Frag::Pick(options) => options.iter().for_each(|o| own_calls(o, own, out)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::ipt;

    #[test]
    fn a_roll_again_row_leaves_the_others_their_odds() {
        let s = ipt::read(
            "f.ipt",
            "f",
            "Table: R\nType: Lookup\nRoll: 2d6\n2-4:[@R]\n5-7:wolf\n8-12: [@r] \n",
        );
        let t = &s.tables[0];
        assert!(t.refused.is_empty(), "{:?}", t.refused);
        assert_eq!(t.dice, None);
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0].weight, Some(15));
        assert_eq!(s.counts.values().sum::<usize>(), 2);
        let s = ipt::read("f.ipt", "f", "Table: R\n3:[@R]\nwolf\n2:bear\n");
        let w: Vec<_> = s.tables[0].rows.iter().map(|r| r.weight).collect();
        assert_eq!(w, [Some(1), Some(2)]);
    }

    #[test]
    fn a_call_on_its_own_table_with_more_around_it_is_refused_at_the_call() {
        for (text, place) in [
            ("Table: R\nwolf\n[@R] and [@R]\n", (3, 1)),
            ("Table: R\nwolf\nx [|a|[@R]]\n", (3, 7)),
            ("Table: R\n[@R]\n", (1, 1)),
        ] {
            let s = ipt::read("f.ipt", "f", text);
            let r = &s.tables[0].refused[0];
            assert_eq!((r.line, r.column), place, "{text}: {}", r.what);
        }
    }
}
