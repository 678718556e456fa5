//! The play log's lines: `12 met address="encounter/2"`, `13 roll
//! table="core.weather" → …`. A line is its number (the action's `k`,
//! counting from 1), the action's word, its arguments as `key=JSON` in a
//! fixed order, and after ` → ` what came of it. Only the part before
//! the arrow is read back; replaying it must give the whole line again,
//! so a line edited by hand, or written by another version whose dice
//! differ, is found and named ([`LogError`]).

use serde_json::{Map, Value};

/// Longest line the log may hold, in bytes.
pub(crate) const MAX_LINE: usize = 4096;
/// Most lines (actions) one session's log may hold.
pub(crate) const MAX_LINES: usize = 20_000;
/// The arrow between an action and what came of it.
pub(crate) const ARROW: &str = " → ";

/// A line of the log, read: its number and the action as JSON (the same
/// object the GM's screen sends).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Read {
    pub k: usize,
    pub action: Value,
}

/// The line of action `k`: `do` and its arguments, then `summary` (if
/// any) after the arrow. Newlines and other control characters in the
/// summary become spaces, so a line stays one line.
pub(crate) fn write<K: AsRef<str>>(
    k: usize,
    verb: &str,
    args: &[(K, Value)],
    summary: &str,
) -> String {
    let mut line = format!("{k} {verb}");
    for (key, value) in args {
        line.push(' ');
        line.push_str(key.as_ref());
        line.push('=');
        line.push_str(&value.to_string());
    }
    if !summary.is_empty() {
        line.push_str(ARROW);
        line.extend(
            summary
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c }),
        );
    }
    line
}

/// Read a line's action back (what follows the arrow is not read).
pub(crate) fn read(line: &str) -> Result<Read, String> {
    if line.len() > MAX_LINE {
        return Err(format!(
            "the line is {} bytes long, past the most a play log line may be ({MAX_LINE})",
            line.len()
        ));
    }
    let (number, rest) = line
        .split_once(' ')
        .ok_or("a line is a number, an action and its arguments (`3 met address=\"trap/1\"`)")?;
    let k: usize = number
        .parse()
        .map_err(|_| format!("`{number}` is not an action's number"))?;
    let (verb, mut rest) = rest.split_once(' ').unwrap_or((rest, ""));
    if verb.is_empty() || !verb.chars().all(|c| c.is_ascii_lowercase()) {
        return Err(format!("`{verb}` is not an action"));
    }
    let mut action = Map::new();
    action.insert("do".into(), Value::String(verb.into()));
    while !rest.is_empty() && !rest.starts_with(ARROW.trim_start()) {
        let (key, after) = rest
            .split_once('=')
            .ok_or_else(|| format!("`{rest}` is not `key=value`"))?;
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_lowercase()) {
            return Err(format!("`{key}` is not an argument's name"));
        }
        let mut values = serde_json::Deserializer::from_str(after).into_iter::<Value>();
        let value = match values.next() {
            Some(Ok(v)) => v,
            _ => return Err(format!("the value of `{key}` is not JSON")),
        };
        if action.insert(key.into(), value).is_some() {
            return Err(format!("`{key}` is given twice"));
        }
        rest = &after[values.byte_offset()..];
        rest = rest.strip_prefix(' ').unwrap_or(rest);
    }
    Ok(Read {
        k,
        action: Value::Object(action),
    })
}

/// Why a log cannot be read: the file, the line (counting from 1) and
/// what is wrong, with what to do.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LogError {
    pub line: usize,
    pub message: String,
}

/// What to do about a line that cannot be replayed.
pub(crate) const HINT: &str = "the play log is written by `play` only: put the line back as it \
     was, or (after copying the log) delete it and every line after it; `play` then resumes \
     from the lines before";

/// The log's text split in lines: the complete ones, and how many bytes
/// they take (a last line without its newline was torn by a kill: it is
/// left out and cut off when the log is opened).
pub(crate) fn lines(text: &str) -> Result<(Vec<&str>, usize), LogError> {
    let keep = text.rfind('\n').map_or(0, |i| i + 1);
    let whole: Vec<&str> = text[..keep].lines().collect();
    if whole.len() > MAX_LINES {
        return Err(LogError {
            line: MAX_LINES + 1,
            message: format!("the log has more than {MAX_LINES} lines, the most one session holds"),
        });
    }
    Ok((whole, keep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_line_reads_back_to_its_action() {
        let args = [("pc", json!("Ada \"the\" → bold")), ("amount", json!(-3))];
        let line = write(7, "damage", &args, "a\nb");
        assert_eq!(
            line,
            "7 damage pc=\"Ada \\\"the\\\" → bold\" amount=-3 → a b"
        );
        let read = read(&line).unwrap();
        assert_eq!(read.k, 7);
        assert_eq!(
            read.action,
            json!({"do": "damage", "pc": "Ada \"the\" → bold", "amount": -3})
        );
    }

    #[test]
    fn damaged_lines_are_refused_with_what_is_wrong() {
        let cases = [
            ("x met", "`x` is not an action's number"),
            ("3", "a line is a number"),
            ("3 Met", "`Met` is not an action"),
            ("3 met address", "`address` is not `key=value`"),
            ("3 met address=enc", "the value of `address` is not JSON"),
            ("3 met a=1 a=2", "`a` is given twice"),
            ("3 met A=1", "`A` is not an argument's name"),
        ];
        for (line, said) in cases {
            let e = read(line).unwrap_err();
            assert!(e.contains(said), "{line}: {e}");
        }
        let long = format!("1 dice expr=\"{}\"", "1".repeat(MAX_LINE));
        assert!(read(&long).unwrap_err().contains("bytes long"));
    }

    #[test]
    fn a_torn_last_line_is_left_out() {
        let (whole, keep) = lines("1 met a=1\n2 met a=").unwrap();
        assert_eq!(whole, vec!["1 met a=1"]);
        assert_eq!(keep, 10);
        let many = "1 x\n".repeat(MAX_LINES + 1);
        assert_eq!(lines(&many).unwrap_err().line, MAX_LINES + 1);
    }
}
