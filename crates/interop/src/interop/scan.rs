//! The scan that the IPP and Perchance text readers share: a row's text
//! read left to right into [`Frag`]s. Plain characters and backslash
//! escapes gather into words; each bracket (`[…]` or `{…}`) that closes
//! is handed to the format's own reader, which knows what its brackets
//! mean. Brackets are paired once up front ([`pairs`]), so a text is read
//! in time linear in its length whatever its nesting.

use super::sheet::{self, Frag};

/// A format's reading of the brackets and escapes in its text.
pub trait Brackets {
    /// The text being read.
    fn text(&self) -> &str;
    /// For each byte of the text, the closing bracket of a `[` or `{`
    /// there ([`pairs`]).
    fn closing(&self, at: usize) -> Option<usize>;
    /// What `\c` writes (`None`: nothing).
    fn escape(&self, c: char) -> Option<char>;
    /// What the escape at `at` (its backslash) stands for when that is
    /// more than a character — a piece of its own, or words chosen by
    /// the text after it, up to `end`; `None`: [`Brackets::escape`].
    fn escape_piece(&mut self, _at: usize, _end: usize) -> Option<Frag> {
        None
    }
    /// The bracket at `open`, closed at `close`, at nesting `depth`
    /// (below [`sheet::MAX_DEPTH`]).
    fn bracket(&mut self, open: usize, close: usize, depth: usize) -> Vec<Frag>;
    /// A bracket nested [`sheet::MAX_DEPTH`] deep.
    fn too_deep(&mut self, open: usize);
    /// An opening bracket that never closes, at `at` (plain by default).
    fn unclosed(&mut self, _at: usize) {}
    /// Whether reading stops here (the rest of the text is not read).
    fn stopped(&self) -> bool {
        false
    }
}

/// For each `[` and `{`, the byte offset of its closing bracket (a
/// closing bracket of the other kind, or none, leaves it open). A
/// backslash escapes the character after it.
pub fn pairs(text: &str) -> Vec<Option<usize>> {
    let bytes = text.as_bytes();
    let mut out = vec![None; bytes.len()];
    let mut stack: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'[' | b'{' => stack.push(i),
            b @ (b']' | b'}') => {
                let open = if b == b']' { b'[' } else { b'{' };
                if let Some(&top) = stack.last()
                    && bytes[top] == open
                {
                    stack.pop();
                    out[top] = Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The text from `start` to `end`, at nesting `depth`.
pub fn range(r: &mut impl Brackets, start: usize, end: usize, depth: usize) -> Vec<Frag> {
    let mut out = Vec::new();
    let mut words = String::new();
    let mut i = start;
    while i < end && !r.stopped() {
        let b = r.text().as_bytes()[i];
        let c = r.text()[i..].chars().next().unwrap_or(' ');
        match (b, r.closing(i).filter(|&j| j < end)) {
            (b'\\', _) if i + 1 < end => {
                let next = r.text()[i + 1..].chars().next().unwrap_or('\\');
                match r.escape_piece(i, end) {
                    Some(piece) => {
                        if !words.is_empty() {
                            out.push(Frag::Words(std::mem::take(&mut words)));
                        }
                        out.push(piece);
                    }
                    None => words.extend(r.escape(next)),
                }
                i += 1 + next.len_utf8();
            }
            (b'[' | b'{', Some(j)) => {
                if !words.is_empty() {
                    out.push(Frag::Words(std::mem::take(&mut words)));
                }
                if depth >= sheet::MAX_DEPTH {
                    r.too_deep(i);
                } else {
                    out.extend(r.bracket(i, j, depth));
                }
                i = j + 1;
            }
            (b'[' | b'{', None) => {
                r.unclosed(i);
                words.push(c);
                i += 1;
            }
            _ => {
                words.push(c);
                i += c.len_utf8();
            }
        }
    }
    if !words.is_empty() {
        out.push(Frag::Words(words));
    }
    out
}

/// Whether options may stand as `{pick: …}`: none blank, no words in
/// them holding `|` or a brace (the pick would split or open on them; a
/// table of the options keeps them whole), and no kept space at an
/// option's ends (a pick trims its options).
pub fn pick_safe(options: &[Vec<Frag>]) -> bool {
    options
        .iter()
        .all(|o| option_safe(o) && !kept_space_at_an_end(o))
}

/// Whether the first or the last piece that is not blank words is a
/// kept space ([`Frag::Space`]).
fn kept_space_at_an_end(frags: &[Frag]) -> bool {
    let blank = |f: &&Frag| matches!(f, Frag::Words(w) if w.trim().is_empty());
    let first = frags.iter().find(|f| !blank(f));
    let last = frags.iter().rev().find(|f| !blank(f));
    matches!(first, Some(Frag::Space)) || matches!(last, Some(Frag::Space))
}

fn option_safe(frags: &[Frag]) -> bool {
    let words_ok = frags.iter().all(|f| match f {
        Frag::Words(w) => !w.contains(['|', '{', '}']),
        Frag::Pick(o) => pick_safe(o),
        _ => true,
    });
    let blank = frags
        .iter()
        .all(|f| matches!(f, Frag::Words(w) if w.trim().is_empty()));
    words_ok && !blank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_pair_past_escapes_and_other_kinds() {
        let p = pairs(r"[a\]b]{c[}]");
        assert_eq!(p[0], Some(5));
        assert_eq!(p[6], None, "a `[` inside leaves the brace open");
        assert_eq!(p[8], Some(10));
    }

    #[test]
    fn an_escaped_bar_or_a_brace_keeps_options_out_of_a_pick() {
        let w = |s: &str| vec![Frag::Words(s.into())];
        assert!(pick_safe(&[w("a"), w("b c")]));
        assert!(!pick_safe(&[w("a|b"), w("c")]));
        assert!(!pick_safe(&[w("a{"), w("c")]));
        assert!(!pick_safe(&[w(" "), w("c")]));
        let kept = |a: Vec<Frag>| [a, w("c")];
        assert!(pick_safe(&kept(vec![
            Frag::Words("a".into()),
            Frag::Space,
            Frag::Words("b".into())
        ])));
        assert!(!pick_safe(&kept(vec![
            Frag::Words(" ".into()),
            Frag::Space,
            Frag::Words("b".into())
        ])));
        assert!(!pick_safe(&kept(vec![
            Frag::Words("a".into()),
            Frag::Space
        ])));
        assert!(!pick_safe(&[
            vec![Frag::Pick(vec![w("x}"), w("y")])],
            w("c")
        ]));
    }
}
