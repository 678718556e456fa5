//! Copies of a table of the file that a call makes: IPP's case filters
//! (`[@Name >> proper]`, `>> upper`, `>> lower`) roll a copy with its
//! words in that case, and a lookup by dice (`[#{1d8+1d12} Weather]`) a
//! copy of a Lookup table rolled with those dice (by a number, `[#5 T]`,
//! the one row of that number). The reader makes a placeholder table for
//! the call ([`Cased`]); once the file's own tables are read each
//! placeholder takes the rows of the table it names, with the same
//! ranges and weights, so every result comes up as often as in IPP and
//! reads as IPP writes it. Words, kept spaces and choices change case;
//! dice give digits, which have none. A case filter on a table whose rows
//! roll other tables, and any copy of a table in another file, is refused
//! at the call: what those tables roll would need a copy of its own.

use super::ipt_rows::clip;
use super::ipt_text::MAX_MADE;
use super::sheet::{self, Cased, Frag, Look, Refusal, SrcRow, SrcTable};

/// Each placeholder of `extra` filled from the file's `own` tables, or
/// refused at its call.
pub fn fill(own: &[SrcTable], extra: &mut [SrcTable]) {
    let mut made: usize = extra.iter().map(|t| t.rows.len()).sum();
    for t in extra.iter_mut() {
        let Some(c) = t.cased.take() else { continue };
        let of = c.of.to_lowercase();
        let Some(o) = own.iter().find(|o| o.name.to_lowercase() == of) else {
            let why = "is not in this file (a table of a file it uses is not copied)";
            t.refused.push(refusal(&c, why));
            continue;
        };
        made = made.saturating_add(o.rows.len());
        if made > MAX_MADE {
            let why = "would take the rows made for one file's rolls past 200,000";
            t.refused.push(refusal(&c, why));
            continue;
        }
        let Some(rows) = copy(o, &c) else {
            let why = "rolls on other tables, which would need a copy of their own";
            t.refused.push(refusal(&c, why));
            continue;
        };
        t.dice = o.dice.clone();
        t.rows = rows;
        if let Some(look) = &c.look {
            looked_up(t, look, &c, o.keyed);
        }
    }
}

/// The copy `t` of a Lookup table rolled with the lookup's dice (its
/// ranges cut to what they roll), or cut to the row of its number or key
/// (`keyed`: a Dictionary table, whose rows are found by their keys).
fn looked_up(t: &mut SrcTable, look: &Look, c: &Cased, keyed: bool) {
    match look {
        Look::Roll(d) => {
            if keyed || t.dice.is_none() {
                let why =
                    "is not a Lookup table (IPP's item numbers of other tables are not carried)";
                return t.refused.push(refusal(c, why));
            }
            let Some((lo, hi)) = sheet::dice_bounds(d) else {
                let why = "is looked up with dice tablewright cannot bound";
                return t.refused.push(refusal(c, why));
            };
            t.dice = Some(d.clone());
            clip(t, lo, hi);
        }
        Look::Number(_) | Look::Key(_) => match row_for(t, look, keyed) {
            Ok(i) => {
                let mut row = t.rows.swap_remove(i);
                (row.range, row.weight) = (None, Some(1));
                (t.rows, t.dice) = (vec![row], None);
            }
            Err(why) => t.refused.push(refusal(c, &why)),
        },
        // TableSmith's modifiers are filled by `tablesmith_mods`.
        Look::Shift(_) | Look::Fixed(_) => {}
    }
}

/// The row of `t` a lookup by number or key gives: in a Lookup table the
/// row whose range holds the number, in a Dictionary table (`keyed`) the
/// row of that key (written the same, else the same but for case); `Err`
/// says why there is none.
pub fn row_for(t: &SrcTable, look: &Look, keyed: bool) -> Result<usize, String> {
    let (n, key) = match look {
        Look::Number(n) => (Some(*n), n.to_string()),
        Look::Key(k) => (k.parse().ok(), k.clone()),
        _ => return Err("is not looked up by a number or key".into()),
    };
    let found = if keyed {
        let name = |i: usize| t.rows[i].name.as_deref().unwrap_or("").trim();
        let same = (0..t.rows.len()).find(|&i| name(i) == key);
        let numeric = |i: usize| n.is_some() && name(i).parse::<i64>().ok() == n;
        same.or_else(|| {
            (0..t.rows.len()).find(|&i| numeric(i) || name(i).eq_ignore_ascii_case(&key))
        })
    } else if t.dice.is_some() {
        let n = n.ok_or_else(|| format!("has no row for `{key}`, which is not a number"))?;
        t.rows
            .iter()
            .position(|r| r.range.is_some_and(|(a, b)| (a..=b).contains(&n)))
    } else {
        return Err("is not a Lookup or Dictionary table (IPP's item numbers of other tables are not carried)".into());
    };
    found.ok_or_else(|| format!("has no row for {key} (IPP gives nothing)"))
}

fn refusal(c: &Cased, why: &str) -> Refusal {
    let names: Vec<&str> = c.cases.iter().map(|c| c.name()).collect();
    let what = match &c.look {
        Some(Look::Roll(d)) => format!("`[#{{{d}}} {}]`", c.of),
        Some(Look::Number(n)) => format!("`[#{n} {}]`", c.of),
        Some(Look::Key(k)) => format!("`[#{k} {}]`", c.of),
        Some(Look::Shift(_) | Look::Fixed(_)) | None => {
            format!("`>> {}` on `{}`", names.join(" >> "), c.of)
        }
    };
    Refusal::new(
        c.line,
        c.column,
        format!("{what}, which {why}"),
        "write the rows it would give, or import the rest with --skip-unsupported",
    )
}

/// `t`'s rows with their words changed, or `None` when a row rolls on a
/// table (a lookup's rows are copied as they are).
fn copy(t: &SrcTable, c: &Cased) -> Option<Vec<SrcRow>> {
    if c.cases.is_empty() {
        return Some(t.rows.clone());
    }
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
    use super::MAX_MADE;

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
    fn copies_past_the_files_bound_are_refused() {
        let mut text = String::from("Table: M\n");
        for _ in 0..300 {
            text.push_str(&"[@N >> upper]".repeat(200));
            text.push('\n');
        }
        text.push_str("Table: N\n");
        text.push_str(&"x\n".repeat(5_000));
        let s = ipt::read("f.ipt", "f", &text);
        let made: usize = s
            .tables
            .iter()
            .filter(|t| t.synthetic)
            .map(|t| t.rows.len())
            .sum();
        assert!(made <= MAX_MADE, "{made}");
        assert!(
            s.tables
                .iter()
                .any(|t| t.refused.iter().any(|r| r.what.contains("past 200,000")))
        );
    }

    #[test]
    fn a_lookup_by_dice_rolls_a_copy_with_those_dice() {
        let s = ipt::read(
            "f.ipt",
            "f",
            "Table: M\nSet: d=[#{1d8+1d12} W]\nIt is {$d}.\n[#5 W]\nTable: W\nType: Lookup\n2-3:bad\n4-20:[@X]\nTable: X\nok\n",
        );
        let copies: Vec<_> = s.tables.iter().filter(|t| t.synthetic).collect();
        assert!(copies.iter().all(|t| t.refused.is_empty()), "{copies:?}");
        assert_eq!(copies[0].dice.as_deref(), Some("1d8+1d12"));
        assert_eq!(copies[0].rows.len(), 2);
        assert_eq!((copies[1].dice.as_ref(), copies[1].rows.len()), (None, 1));
        for (text, what) in [
            (
                "Table: M\n[#{1d30} W]\nTable: W\nType: Lookup\n1-20:a\n",
                "no row for 21-30",
            ),
            (
                "Table: M\n[#9 W]\nTable: W\nType: Lookup\n1-2:a\n",
                "has no row for 9",
            ),
            (
                "Table: M\n[#1 W]\nTable: W\na\n",
                "is not a Lookup or Dictionary table",
            ),
        ] {
            let s = ipt::read("f.ipt", "f", text);
            let r = s.tables.iter().flat_map(|t| &t.refused).next().expect(text);
            assert!(r.what.contains(what), "{}", r.what);
        }
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
