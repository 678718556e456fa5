//! The HTML IPP writes into its text (`<b>Weather</b>`, `<br>`, `<u>…</u>`):
//! IPP shows it as its page's markup, and tablewright's rows hold plain
//! text that every output (Markdown, PDF, the terminal) writes in its own
//! way with its own escaping, so a tag is never printed as a tag: `<br>`
//! (and `<p>`) is a new line, and other tags of IPP's kind (`b`, `i`, `u`,
//! `em`, `strong`, `span`, `font`, a link's `a`…) leave their words as they are. Only
//! such tags are read as tags; other `<` stay words (`<3`, `a < b`).

use super::sheet::{Frag, Sheet};

/// Tags that end a line.
const BREAKS: [&str; 3] = ["br", "p", "hr"];
/// Tags that only style their words.
const STYLES: [&str; 17] = [
    "b", "i", "u", "em", "strong", "span", "font", "small", "big", "sup", "sub", "s", "strike",
    "tt", "code", "div", "a",
];
/// Most characters of one tag.
const MAX_TAG: usize = 200;

/// Every tag in the words of `sheet`'s rows made plain; how many.
pub fn plain(sheet: &mut Sheet) -> usize {
    let mut n = 0;
    for t in &mut sheet.tables {
        for r in &mut t.rows {
            n += frags(&mut r.text);
        }
    }
    n
}

fn frags(frags: &mut [Frag]) -> usize {
    let mut n = 0;
    for f in frags {
        match f {
            Frag::Words(w) if w.contains('<') => {
                let (out, k) = untag(w);
                *w = out;
                n += k;
            }
            Frag::Pick(options) => n += options.iter_mut().map(|o| self::frags(o)).sum::<usize>(),
            _ => {}
        }
    }
    n
}

/// `text` with its tags made plain, and how many there were.
fn untag(text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut n = 0;
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        match tag(after) {
            Some((len, line)) => {
                if line {
                    out.push('\n');
                }
                n += 1;
                rest = &after[len..];
            }
            None => {
                out.push('<');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    (out, n)
}

/// The tag at the start of `s` (`<b>`, `</b>`, `<br />`, `<font color=red>`):
/// its length and whether it ends a line.
fn tag(s: &str) -> Option<(usize, bool)> {
    let end = s.char_indices().take(MAX_TAG).find(|&(_, c)| c == '>')?.0;
    let inner = s[1..end]
        .trim_start_matches('/')
        .trim_end_matches('/')
        .trim();
    if inner.contains('<') {
        return None;
    }
    let name = inner
        .split(|c: char| c.is_whitespace())
        .next()?
        .to_ascii_lowercase();
    let line = BREAKS.contains(&name.as_str()) && !s[1..].starts_with('/');
    let known = line || BREAKS.contains(&name.as_str()) || STYLES.contains(&name.as_str());
    known.then_some((end + 1, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_made_plain_and_other_angles_stay() {
        assert_eq!(untag("<b>Weather</b>\nx"), ("Weather\nx".into(), 2));
        assert_eq!(untag("a<br />b<BR>c</p>"), ("a\nb\nc".into(), 3));
        assert_eq!(untag("<font color=\"red\">hot</font>"), ("hot".into(), 2));
        assert_eq!(untag("<a href=\"/x\">list</a>"), ("list".into(), 2));
        assert_eq!(
            untag("I <3 orcs, a < b, <script>x"),
            ("I <3 orcs, a < b, <script>x".into(), 0)
        );
        assert_eq!(untag("<b"), ("<b".into(), 0));
    }
}
