//! TableSmith variables that never change, and the `{If~…}` tests they
//! settle. A variable declared `%name%,value` that no `|name…|`
//! assignment and no `@name` parameter touches anywhere in the file holds
//! its value for every roll, so each `%name%` reads as that value — as
//! TableSmith gives it — and an `{If~%name%=1?a/b}` whose test holds no
//! roll, call or changing variable always takes the same branch, which
//! is the text the import keeps. Variables that change, parameters and
//! tests on a roll stay refused by [`super::tablesmith`]: they would need
//! state from one roll to the next.

use std::collections::BTreeMap;

use super::tablesmith_lines::Joined;

/// The file's variables that hold one value, by name in lowercase.
#[derive(Debug, Clone, Default)]
pub struct Constants(BTreeMap<String, String>);

impl Constants {
    /// The constants of a file's joined lines: declarations whose
    /// variable is neither assigned nor a parameter, and whose value is
    /// plain words (no call, function or variable in it).
    pub fn of(lines: &[Joined]) -> Constants {
        let mut declared = BTreeMap::new();
        let mut changing = Vec::new();
        for l in lines {
            let t = l.text.as_str();
            if let Some((name, value)) = declaration(t) {
                declared
                    .entry(name.to_lowercase())
                    .or_insert_with(|| value.to_owned());
            } else if let Some(rest) = t.strip_prefix('@') {
                let name = rest.trim_start_matches('*');
                let name = name.split(',').next().unwrap_or("").trim();
                changing.push(name.to_lowercase());
            }
            changing.extend(assigned(t));
        }
        for name in changing {
            declared.remove(&name);
        }
        declared.retain(|_, v| !v.contains(['[', ']', '{', '}', '%', '|', '/']));
        Constants(declared)
    }

    /// The value of variable `name`, when it is a constant.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(&name.trim().to_lowercase()).map(String::as_str)
    }

    /// Whether declaration line `line` (`%name%,value`) declares a
    /// constant (and so is read, not refused).
    pub fn declares(&self, line: &str) -> bool {
        declaration(line).is_some_and(|(name, _)| self.get(name).is_some())
    }

    /// `text` with each `%name%` of a constant replaced by its value;
    /// `None` when a `%` is not such a variable.
    pub fn substitute(&self, text: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('%') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let end = after.find('%')?;
            out.push_str(self.get(&after[..end])?);
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Some(out)
    }
}

/// `%name%,value` split into its name and value.
fn declaration(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('%')?;
    let (name, value) = rest.split_once("%,").or_else(|| {
        rest.strip_suffix('%')
            .filter(|n| !n.contains('%'))
            .map(|n| (n, ""))
    })?;
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ' ');
    plain.then_some((name.trim(), value))
}

/// The names of the variables `|name…|` assignments in `text` change.
fn assigned(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices('|') {
        let name: String = text[i + 1..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name.to_lowercase());
        }
    }
    out
}

/// What a test of `{If~test?a/b}` gives, once its constants are in
/// place: `Ok(true)` or `Ok(false)`, or why it cannot be settled at
/// import.
pub fn settle(test: &str) -> Result<bool, String> {
    if test.contains(['[', ']', '{', '}', '%', '|']) {
        return Err("its test holds a roll, a call or a variable that changes".into());
    }
    let at = test
        .find(['!', '=', '<', '>'])
        .ok_or("its test has no comparison (`=`, `!=`, `<`, `>`, `<=`, `>=`)")?;
    let two = test[at..].starts_with("!=")
        || test[at..].starts_with("<=")
        || test[at..].starts_with(">=");
    let op = &test[at..at + if two { 2 } else { 1 }];
    if op == "!" {
        return Err("`!` is not a comparison".into());
    }
    let (a, b) = (test[..at].trim(), test[at + op.len()..].trim());
    let number = |s: &str| {
        s.parse::<i64>()
            .map_err(|_| format!("`{op}` compares `{s}`, which is not a whole number"))
    };
    Ok(match op {
        "=" => a == b,
        "!=" => a != b,
        "<" => number(a)? < number(b)?,
        ">" => number(a)? > number(b)?,
        "<=" => number(a)? <= number(b)?,
        _ => number(a)? >= number(b)?,
    })
}

/// Where an `{If~…}`'s parts are: the `?`'s byte, and the bytes each
/// branch starts and ends at.
pub type Parts = (usize, (usize, usize), (usize, usize));

/// `test?yes/no` split at its `?` and at the `/` between the branches
/// (neither inside brackets; `/` before `% [ ] { } /` is an escape, not
/// the split).
pub fn branches(args: &str) -> Option<Parts> {
    let q = top_level(args, 0, |c, _| c == '?')?;
    let slash = top_level(args, q + 1, |c, next| {
        c == '/' && !next.is_some_and(|n| "%[]{}/".contains(n))
    })?;
    Some((q, (q + 1, slash), (slash + 1, args.len())))
}

/// The first byte from `from` where `hit` holds outside brackets, escapes
/// skipped.
fn top_level(s: &str, from: usize, hit: impl Fn(char, Option<char>) -> bool) -> Option<usize> {
    let mut depth = 0i64;
    let mut chars = s[from..].char_indices().peekable();
    while let Some((j, c)) = chars.next() {
        let next = chars.peek().map(|p| p.1);
        if depth == 0 && hit(c, next) {
            return Some(from + j);
        }
        match c {
            '/' if next.is_some_and(|n| "%[]{}/".contains(n)) => {
                chars.next();
            }
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<Joined> {
        text.lines()
            .enumerate()
            .map(|(i, l)| Joined::new(i + 1, l))
            .collect()
    }

    #[test]
    fn a_variable_never_changed_is_a_constant() {
        let c = Constants::of(&lines("%v%,1\n%w%,2\n%p%,x\n@p,1,Ask\n%n%,\n:S\n1,|w+1|\n"));
        assert_eq!(c.get("V"), Some("1"));
        assert_eq!(c.get("w"), None, "assigned");
        assert_eq!(c.get("p"), None, "a parameter");
        assert_eq!(c.get("n"), Some(""));
        assert_eq!(c.substitute("a%v%b").as_deref(), Some("a1b"));
        assert_eq!(c.substitute("a%w%b"), None);
        let odd = Constants::of(&lines("%v%,[G]\n"));
        assert_eq!(odd.get("v"), None, "a value that rolls");
    }

    #[test]
    fn a_test_on_constants_is_settled() {
        assert_eq!(settle("1=1"), Ok(true));
        assert_eq!(settle(" a != a"), Ok(false));
        assert_eq!(settle("3<=3"), Ok(true));
        assert_eq!(settle("10>9"), Ok(true));
        assert_eq!(settle("2<1"), Ok(false));
        assert!(settle("x<1").is_err());
        assert!(settle("{Dice~1d6}>3").is_err());
        assert!(settle("1").is_err());
        assert_eq!(branches("1=1?a/b"), Some((3, (4, 5), (6, 7))));
        assert_eq!(branches("1=1?[G]//x/b").map(|b| b.2), Some((11, 12)));
        assert_eq!(branches("1=1?a"), None);
    }
}
