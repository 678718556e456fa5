//! IPP's `>>` filters on a call (`[@{1d6} Gems >> implode]`), as far as a
//! table's rows can carry them: IPP3's `implode` joins a repeated call's
//! results with its glue (`, ` when none is written; `\n` a new line, a
//! glue in quotes as quoted); `sort` on a call rolled once has nothing to
//! sort, nor `trim` on a row's text (trimmed already); `upper`, `lower`
//! and `proper` change the case of each result, which
//! [`super::ipt_case`] carries as a copy of the table called with its
//! words so changed (a case filter after `implode` changes its glue too).
//! Every other filter — `sort` of several results, and those that change
//! a result's text otherwise (`a`, `replace`, `left`, `bold`…) — is
//! refused at its column, since a row's text cannot change what the table
//! it calls rolls.

use super::sheet::Case;

/// A refused filter: its byte offset in the chain, what it is, the hint.
pub type Refused = (usize, String, &'static str);

/// What a call's filters make of it.
#[derive(Debug, Default, PartialEq)]
pub struct Chain {
    /// Between its results (`None`: IPP's own join, a blank line).
    pub glue: Option<String>,
    /// The case changes of each result, in order.
    pub cases: Vec<Case>,
}

/// The filter chain `chain` (from its first `>>` to the call's `]`) of a
/// call `repeated` or not, or the filters refused.
pub fn chain(chain: &str, repeated: bool) -> Result<Chain, Vec<Refused>> {
    let mut glue: Option<String> = None;
    let mut cases = Vec::new();
    let mut refused = Vec::new();
    let mut at = chain.find(">>").unwrap_or(0);
    let parts: Vec<&str> = chain.split(">>").skip(1).collect();
    for (i, f) in parts.iter().enumerate() {
        at += 2;
        // A glue ends where the next filter starts (its spaces with it).
        let f = if i + 1 < parts.len() { f.trim_end() } else { f };
        let gap = parts[i].len() - f.len();
        let trimmed = f.trim_start();
        let word_at = at + f.len() - trimmed.len();
        let (word, args) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
        match word.to_ascii_lowercase().as_str() {
            "implode" => glue = Some(implode_glue(args)),
            "sort" if !repeated => {}
            "trim" => {}
            c @ ("upper" | "lower" | "proper") => {
                let case = match c {
                    "upper" => Case::Upper,
                    "lower" => Case::Lower,
                    _ => Case::Proper,
                };
                glue = glue.map(|g| case.apply(&g));
                cases.push(case);
            }
            "sort" => refused.push((
                word_at,
                "`>> sort`: the results of a repeated call put in order, which a table's rows cannot do".to_owned(),
                "remove `>> sort` (the results stay in the order they are rolled), or import the rest with --skip-unsupported",
            )),
            other => {
                let shown: String = other.chars().take(20).collect();
                refused.push((
                    word_at,
                    format!("`>> {shown}`: a filter that changes each result's text, which a table's rows cannot do (tablewright carries `implode`, `upper`, `lower`, `proper`, `trim`, and `sort` on a call rolled once)"),
                    "remove the filter, or write the rows as it would make them, or import the rest with --skip-unsupported",
                ));
            }
        }
        at += f.len() + gap;
    }
    if refused.is_empty() {
        Ok(Chain { glue, cases })
    } else {
        Err(refused)
    }
}

/// `implode`'s glue as written after it and its space (`implode , ` is
/// `, `): `, ` when nothing is; quotes around it taken off; `\n` a new
/// line, `\t` a tab, `\_` a space, `\z` nothing, any other escaped
/// character itself.
fn implode_glue(args: &str) -> String {
    if args.trim().is_empty() {
        return ", ".to_owned();
    }
    let t = args.trim();
    let a = match t.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(q) => q,
        None if t.starts_with('\\') => t,
        None => args,
    };
    let mut out = String::new();
    let mut chars = a.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('_') => out.push(' '),
            Some('z') | None => {}
            Some(c) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implode_joins_with_its_glue_and_sort_of_one_result_is_nothing() {
        let glue = |c: &str, r: bool| chain(c, r).map(|c| c.glue);
        assert_eq!(glue(" >> implode", true), Ok(Some(", ".into())));
        assert_eq!(glue(" >> implode \\n", true), Ok(Some("\n".into())));
        assert_eq!(
            glue(" >> implode \" and \"", true),
            Ok(Some(" and ".into()))
        );
        assert_eq!(glue(" >> implode ; ", true), Ok(Some("; ".into())));
        assert_eq!(glue(" >> implode ; >> sort", false), Ok(Some(";".into())));
        assert_eq!(glue(" >> sort >> trim", false), Ok(None));
        assert_eq!(glue(">>SORT>>Implode", false), Ok(Some(", ".into())));
        let c = chain(" >> implode \" and \" >> upper >> proper", true).unwrap();
        assert_eq!(c.glue.as_deref(), Some(" AND "));
        assert_eq!(c.cases, [Case::Upper, Case::Proper]);
    }

    #[test]
    fn other_filters_are_refused_at_their_offset() {
        let r = chain(" >> sort >> implode", true).unwrap_err();
        assert_eq!(r[0].0, 4);
        assert!(r[0].1.contains("`>> sort`"), "{}", r[0].1);
        let r = chain(" >> replace /a/b/ >> bold", false).unwrap_err();
        assert_eq!((r[0].0, r[1].0), (4, 21));
        assert!(r[1].1.contains("`>> bold`: a filter that changes"));
    }
}
