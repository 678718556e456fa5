//! The HTML IPP writes into its text (`<b>Weather</b>`, `<br>`, `<u>…</u>`):
//! IPP shows it as its page's markup, and tablewright's rows hold plain
//! text that every output (Markdown, PDF, the terminal) writes in its own
//! way with its own escaping, so a tag is never printed as a tag: `<br>`
//! (and `<p>`) is a new line, and other tags of IPP's kind (`b`, `i`, `u`,
//! `em`, `strong`, `span`, `font`, a link's `a`…) leave their words as they are. Only
//! such tags are read as tags; other `<` stay words (`<3`, `a < b`).
//! TableSmith shows its results as a page too: its rows' tags are made
//! plain the same way, and then its character references (`&lt;b&gt;`,
//! `&amp;`, `&#233;`) the characters they stand for, so `&lt;b&gt;` reads
//! `<b>` as it does in TableSmith's window.

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

/// What the report says of tags made plain.
pub const TAGS_NOTE: &str = "HTML tags (`<b>`, `<br>`…) made plain text (`<br>` a new line): a row holds no markup of its own";
/// What the report says of character references read.
pub const REFERENCES_NOTE: &str =
    "HTML character references (`&lt;`, `&amp;`, `&#233;`) read as the characters they stand for";
/// Most characters of one character reference, `&` and `;` included.
const MAX_REFERENCE: usize = 12;

/// Every tag in the words of `sheet`'s rows made plain; how many.
pub fn plain(sheet: &mut Sheet) -> usize {
    each_words(sheet, '<', untag)
}

/// Every character reference in the words of `sheet`'s rows made the
/// character it stands for; how many.
pub fn references(sheet: &mut Sheet) -> usize {
    each_words(sheet, '&', unreference)
}

/// `change` made to the words of every row of `sheet` that hold `mark`;
/// the sum of what it counts.
fn each_words(sheet: &mut Sheet, mark: char, change: fn(&str) -> (String, usize)) -> usize {
    let mut n = 0;
    for t in &mut sheet.tables {
        for r in &mut t.rows {
            n += frags(&mut r.text, mark, change);
        }
    }
    n
}

fn frags(frags: &mut [Frag], mark: char, change: fn(&str) -> (String, usize)) -> usize {
    let mut n = 0;
    for f in frags {
        match f {
            Frag::Words(w) if w.contains(mark) => {
                let (out, k) = change(w);
                *w = out;
                n += k;
            }
            Frag::Pick(options) => {
                n += options
                    .iter_mut()
                    .map(|o| self::frags(o, mark, change))
                    .sum::<usize>();
            }
            _ => {}
        }
    }
    n
}

/// `text` with its character references made characters, and how many
/// there were. An `&` that starts none stays (`salt & pepper`, `&nope;`).
fn unreference(text: &str) -> (String, usize) {
    replace_each(text, '&', |s| reference(s).map(|(len, c)| (len, Some(c))))
}

/// `text` with each piece that starts at a `mark` and that `read` knows
/// replaced by what it gives (its length, and a character or nothing),
/// and how many there were; a `mark` that starts none stays.
fn replace_each(
    text: &str,
    mark: char,
    read: impl Fn(&str) -> Option<(usize, Option<char>)>,
) -> (String, usize) {
    let mut out = String::new();
    let mut n = 0;
    let mut rest = text;
    while let Some(at) = rest.find(mark) {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        match read(after) {
            Some((len, put)) => {
                out.extend(put);
                n += 1;
                rest = &after[len..];
            }
            None => {
                out.push(mark);
                rest = &after[mark.len_utf8()..];
            }
        }
    }
    out.push_str(rest);
    (out, n)
}

/// The character reference at the start of `s` (`&lt;`, `&#233;`,
/// `&#xE9;`, the named ones Foundry's markup reads): its length and the
/// character ([`super::markup::entity`]).
fn reference(s: &str) -> Option<(usize, char)> {
    let end = s
        .char_indices()
        .take(MAX_REFERENCE)
        .find(|&(_, c)| c == ';')?
        .0;
    super::markup::entity(&s[1..end]).map(|c| (end + 1, c))
}

/// `text` with its tags made plain, and how many there were.
fn untag(text: &str) -> (String, usize) {
    replace_each(text, '<', |s| {
        tag(s).map(|(len, line)| (len, line.then_some('\n')))
    })
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

    #[test]
    fn character_references_are_read_and_other_ampersands_stay() {
        assert_eq!(
            unreference("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;x&quot;"),
            ("<b>bold</b> & \"x\"".into(), 7)
        );
        assert_eq!(
            unreference("caf&#233; caf&#xE9; &mdash;"),
            ("café café —".into(), 3)
        );
        assert_eq!(
            unreference("salt & pepper, &nope; &#; &#x; &#+5; &#0; &#xD800; &lt"),
            (
                "salt & pepper, &nope; &#; &#x; &#+5; &#0; &#xD800; &lt".into(),
                0
            )
        );
        assert_eq!(unreference("&#10;&amp;amp;"), ("\n&amp;".into(), 2));
    }
}
