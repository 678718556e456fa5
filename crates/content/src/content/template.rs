//! Inline text of a table row: plain words with `{d4}` dice, `{table:ID}`
//! sub-table rolls and `{pick: a | b | c}` choices (options may nest).
//! `{{` and `}}` write literal braces.

use serde::Serialize;

use crate::dice::{self, Expr};

/// One piece of a row's text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Segment {
    /// Plain words, shown as they are.
    Text {
        /// The words, with `{{` and `}}` read as single braces.
        text: String,
    },
    /// An inline roll (`{d4}`), rolled when the row is read.
    Dice {
        /// The notation as written.
        expr: String,
        /// The notation parsed.
        #[serde(skip)]
        parsed: Box<Expr>,
    },
    /// A roll on another table (`{table:ID}`).
    Table {
        /// The table's id.
        id: String,
        /// Byte offset of the reference in the row's text.
        #[serde(skip)]
        at: usize,
    },
    /// `{pick: a | b}`: one option, chosen uniformly.
    Pick {
        /// The options, each a text of its own.
        options: Vec<Vec<Segment>>,
    },
}

/// A problem inside a text, at a byte offset of that text.
#[derive(Debug, Clone, PartialEq)]
pub struct TextError {
    /// Byte offset of the wrong text.
    pub at: usize,
    /// Characters of the wrong text, to underline (at least 1).
    pub width: usize,
    /// What is wrong.
    pub message: String,
    /// What to write instead, if there is something to say.
    pub hint: Option<String>,
}

/// Parse a row's text. `base` is added to reported offsets (used for
/// nested options).
pub fn parse(text: &str) -> Result<Vec<Segment>, TextError> {
    parse_at(text, 0)
}

fn parse_at(text: &str, base: usize) -> Result<Vec<Segment>, TextError> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let c = bytes[i];
        if c == b'{' && bytes.get(i + 1) == Some(&b'{') {
            plain.push('{');
            i += 2;
            continue;
        }
        if c == b'}' && bytes.get(i + 1) == Some(&b'}') {
            plain.push('}');
            i += 2;
            continue;
        }
        if c == b'}' {
            return Err(TextError {
                at: base + i,
                width: 1,
                message: "a `}` without its `{`".into(),
                hint: Some("write `}}` for a literal brace".into()),
            });
        }
        if c != b'{' {
            // Plain text up to the next brace, at once.
            let run = bytes[i..]
                .iter()
                .position(|&b| b == b'{' || b == b'}')
                .map_or(text.len(), |n| i + n);
            plain.push_str(&text[i..run]);
            i = run;
            continue;
        }
        // Find the matching close brace.
        let mut depth = 0usize;
        let mut end = None;
        for (j, &b) in bytes.iter().enumerate().skip(i) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            return Err(TextError {
                at: base + i,
                width: 1,
                message: "a `{` that is never closed".into(),
                hint: Some("close it with `}`, or write `{{` for a literal brace".into()),
            });
        };
        if !plain.is_empty() {
            out.push(Segment::Text {
                text: std::mem::take(&mut plain),
            });
        }
        let inner = &text[i + 1..end];
        let inner_base = base + i + 1;
        out.push(placeholder(inner, inner_base)?);
        i = end + 1;
    }
    if !plain.is_empty() {
        out.push(Segment::Text { text: plain });
    }
    Ok(out)
}

fn placeholder(inner: &str, base: usize) -> Result<Segment, TextError> {
    let trimmed = inner.trim_start();
    let lead = inner.len() - trimmed.len();
    if let Some(rest) = trimmed.strip_prefix("table:") {
        return table_ref(trimmed, rest, base + lead);
    }
    if let Some(rest) = trimmed.strip_prefix("pick:") {
        return pick(trimmed, rest, base + lead);
    }
    match dice::parse(trimmed.trim_end()) {
        Ok(expr) => Ok(Segment::Dice {
            expr: trimmed.trim_end().to_owned(),
            parsed: Box::new(expr),
        }),
        Err(e) => Err(TextError {
            at: base + lead + e.at,
            width: e.width(),
            message: format!("`{{{}}}`: {}", trimmed.trim_end(), e.message),
            hint: e.hint.or_else(|| {
                Some("inline text takes `{d4}`, `{table:ID}` or `{pick: a | b}`".into())
            }),
        }),
    }
}

/// A character a table id may use: lowercase letters, digits, `.`, `_`
/// and `-`.
pub fn is_id_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c)
}

/// `{table:ID}`: `placeholder` is the text inside the braces from `table:`
/// on, `rest` what follows `table:`, `at` where `placeholder` starts.
fn table_ref(placeholder: &str, rest: &str, at: usize) -> Result<Segment, TextError> {
    let id = rest.trim();
    if id.is_empty() || !id.chars().all(is_id_char) {
        return Err(TextError {
            at,
            width: placeholder.trim_end().chars().count(),
            message: format!("`{{table:{id}}}` does not name a table id"),
            hint: Some("ids are lowercase, dotted: `{table:core.mutation.mind}`".into()),
        });
    }
    Ok(Segment::Table {
        id: id.to_owned(),
        at,
    })
}

/// `{pick: a | b | c}`: options split on `|` outside nested braces, each
/// parsed as text of its own.
fn pick(placeholder: &str, rest: &str, at: usize) -> Result<Segment, TextError> {
    let rest_base = at + "pick:".len();
    let mut options = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (j, &b) in rest.as_bytes().iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'|' if depth == 0 => {
                options.push((start, &rest[start..j]));
                start = j + 1;
            }
            _ => {}
        }
    }
    options.push((start, &rest[start..]));
    let mut parsed = Vec::with_capacity(options.len());
    for (offset, option) in options {
        let t = option.trim();
        if t.is_empty() {
            return Err(TextError {
                at: rest_base + offset,
                width: 1,
                message: "an empty option in `{pick: …}`".into(),
                hint: Some("separate options with `|`, e.g. `{pick: goat | spider}`".into()),
            });
        }
        let skip = option.len() - option.trim_start().len();
        parsed.push(parse_at(t, rest_base + offset + skip)?);
    }
    if parsed.len() < 2 {
        return Err(TextError {
            at,
            width: placeholder.trim_end().chars().count(),
            message: "`{pick: …}` needs at least two options".into(),
            hint: Some("separate options with `|`".into()),
        });
    }
    Ok(Segment::Pick { options: parsed })
}

/// Every table id a text refers to, with its offset.
pub fn references(segments: &[Segment]) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    for s in segments {
        match s {
            Segment::Table { id, at } => out.push((id.as_str(), *at)),
            Segment::Pick { options } => {
                for o in options {
                    out.extend(references(o));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_all_placeholders() {
        let s =
            parse("Lose {d4} STR; {table:core.mutation.mind}; {pick: goat | spider {d6} | bird}.")
                .unwrap();
        assert_eq!(s.len(), 7);
        assert!(matches!(&s[1], Segment::Dice { expr, .. } if expr == "d4"));
        assert!(matches!(&s[3], Segment::Table { id, .. } if id == "core.mutation.mind"));
        let Segment::Pick { options } = &s[5] else {
            panic!()
        };
        assert_eq!(options.len(), 3);
        assert_eq!(options[1].len(), 2);
        assert_eq!(references(&s), vec![("core.mutation.mind", 16)]);
        assert_eq!(
            parse("{{literal}}").unwrap(),
            vec![Segment::Text {
                text: "{literal}".into()
            }]
        );
    }

    /// A dice group goes inside the inline braces after a space (`{{`
    /// stays a literal brace).
    #[test]
    fn dice_groups_go_inside_the_braces_after_a_space() {
        let s = parse("Best of two: { {3d6,3d6}kh1} gold, {4dF+1} luck").unwrap();
        assert!(
            matches!(&s[1], Segment::Dice { expr, .. } if expr == "{3d6,3d6}kh1"),
            "{s:?}"
        );
        assert!(
            matches!(&s[3], Segment::Dice { expr, .. } if expr == "4dF+1"),
            "{s:?}"
        );
        // Without the space the first brace is a literal one, and the
        // group's closing brace has no partner: an error, not a silent roll.
        assert!(parse("{{3d6,3d6}kh1}").is_err());
    }

    #[test]
    fn points_at_mistakes() {
        let e = parse("Roll {2d6q} now").unwrap_err();
        assert_eq!(e.at, 9);
        assert_eq!(e.width, 1);
        assert!(e.message.contains("`q` is not a modifier"), "{}", e.message);
        let e = parse("Roll {d4 now").unwrap_err();
        assert_eq!(e.at, 5);
        assert!(parse("{pick: a}").is_err());
        assert!(parse("{pick: a || b}").is_err());
        let e = parse("See {table:Bad Id}.").unwrap_err();
        assert_eq!((e.at, e.width), (5, "table:Bad Id".len()));
        assert!(parse("oops }").is_err());
    }
}
