//! What a situation's text says of its foes: where it names each kind
//! (`drowned-ones`, `marsh leech`, singular or plural), the number in front
//! of a name (a rolled `5`, a written `two`), and so how many of a kind the
//! text promises; and the text rewritten so it says what the sheet holds
//! (a pinned kind in place of the situation's, a number the sheet could not
//! hold).

use std::ops::Range;

/// Number words read in front of a kind (and written back).
const WORDS: [&str; 13] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];

/// One place the text names a kind.
#[derive(Debug, Clone)]
pub(super) struct Mention {
    /// Index into the kinds looked for.
    pub(super) kind: usize,
    /// The name as written.
    pub(super) at: Range<usize>,
    pub(super) plural: bool,
    /// The number right before the name, and where it is.
    pub(super) number: Option<(Range<usize>, usize)>,
    /// An `a`/`an` right before the name.
    pub(super) article: Option<Range<usize>>,
}

/// A kind's plural (`wolf` → `wolves`, `harpy` → `harpies`, `hedge-witch`
/// → `hedge-witches`, `drowned-one` → `drowned-ones`).
pub(super) fn plural(kind: &str) -> String {
    if let Some(stem) = kind.strip_suffix('f') {
        return format!("{stem}ves");
    }
    if let Some(stem) = kind.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        return format!("{stem}ies");
    }
    if ["s", "x", "ch", "sh"].iter().any(|e| kind.ends_with(e)) {
        return format!("{kind}es");
    }
    format!("{kind}s")
}

/// A kind as prose writes it: an id of two words with a space
/// (`giant-spider` → `giant spider`), as its stat block's header names
/// it; a compound of three or more keeps its hyphens (`will-o-wisp`).
pub(super) fn spoken(kind: &str) -> String {
    if kind.matches('-').count() == 1 {
        kind.replace('-', " ")
    } else {
        kind.to_owned()
    }
}

/// The ways a kind may be written: (form, plural), hyphens or spaces.
fn forms(kind: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let plurals = [
        plural(kind),
        format!("{kind}s"),
        format!("{kind}es"),
        kind.strip_suffix('f')
            .map_or_else(String::new, |s| format!("{s}ves")),
        kind.strip_suffix('y')
            .map_or_else(String::new, |s| format!("{s}ies")),
    ];
    for (form, is_plural) in
        std::iter::once((kind.to_owned(), false)).chain(plurals.into_iter().map(|p| (p, true)))
    {
        if form.is_empty() {
            continue;
        }
        let spaced = form.replace('-', " ");
        if spaced != form {
            out.push((spaced, is_plural));
        }
        out.push((form, is_plural));
    }
    out
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-'
}

fn number_of(word: &str) -> Option<usize> {
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
        return word.parse().ok();
    }
    let lower = word.to_lowercase();
    WORDS.iter().position(|w| *w == lower)
}

/// The word that ends just before `at` (one run of spaces between), and
/// where it is.
fn word_before(text: &str, at: usize) -> Option<(Range<usize>, &str)> {
    let head = &text[..at];
    let trimmed = head.trim_end_matches(' ');
    if trimmed.len() == head.len() || trimmed.is_empty() {
        return None;
    }
    let start = trimmed
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric())
        .last()
        .map(|(i, _)| i)?;
    Some((start..trimmed.len(), &trimmed[start..]))
}

/// Every place the text names one of `kinds`, in text order (the longest
/// name wins where two could be read: `goblin-chief`, not `goblin`).
pub(super) fn mentions(text: &str, kinds: &[&str]) -> Vec<Mention> {
    let all: Vec<(usize, String, bool)> = kinds
        .iter()
        .enumerate()
        .flat_map(|(k, kind)| forms(kind).into_iter().map(move |(f, p)| (k, f, p)))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let starts_word = text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !is_word_char(c));
        let found = starts_word
            .then(|| {
                all.iter()
                    .filter(|(_, f, _)| {
                        let end = i + f.len();
                        text.get(i..end).is_some_and(|t| t.eq_ignore_ascii_case(f))
                            && text[end..].chars().next().is_none_or(|c| !is_word_char(c))
                    })
                    .max_by_key(|(_, f, _)| f.len())
            })
            .flatten();
        match found {
            Some((kind, form, plural)) => {
                let at = i..i + form.len();
                let before = word_before(text, i);
                let number = before
                    .clone()
                    .and_then(|(r, w)| number_of(w).map(|n| (r, n)))
                    .filter(|(r, _)| r.end < i);
                let article = before
                    .filter(|(_, w)| w.eq_ignore_ascii_case("a") || w.eq_ignore_ascii_case("an"))
                    .map(|(r, _)| r);
                out.push(Mention {
                    kind: *kind,
                    at: at.clone(),
                    plural: *plural,
                    number,
                    article,
                });
                i = at.end;
            }
            None => {
                i += text[i..].chars().next().map_or(1, char::len_utf8);
            }
        }
    }
    out
}

/// How many of each kind the text says: the numbers in front of its
/// names, and one for each `a`/`an` (`a wolf and 5 wolves`: six); one
/// when it is only ever named as one (`the bog-horror`); `None` when the
/// text leaves it open (`goblins riding wolves`) or does not name it.
pub(super) fn counts(mentions: &[Mention], kinds: usize) -> Vec<Option<usize>> {
    (0..kinds)
        .map(|k| {
            let of: Vec<&Mention> = mentions.iter().filter(|m| m.kind == k).collect();
            if of.iter().any(|m| m.number.is_some()) {
                return Some(of.iter().map(|m| said_by(m)).sum());
            }
            (!of.is_empty() && of.iter().all(|m| !m.plural)).then_some(1)
        })
        .collect()
}

/// The kinds named in the plural without a number (`goblins and their
/// wolves`): at least two of those come.
pub(super) fn open_plurals(mentions: &[Mention], kinds: usize) -> Vec<bool> {
    (0..kinds)
        .map(|k| {
            let of = || mentions.iter().filter(move |m| m.kind == k);
            of().any(|m| m.plural) && of().all(|m| m.number.is_none())
        })
        .collect()
}

/// How many one mention counts: its number, or one after `a`/`an`.
fn said_by(m: &Mention) -> usize {
    match (&m.number, &m.article) {
        (Some((_, n)), _) => *n,
        (None, Some(_)) => 1,
        _ => 0,
    }
}

/// One edit of the text.
struct Edit {
    at: Range<usize>,
    with: String,
}

fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.at.start));
    let mut out = text.to_owned();
    for e in edits {
        out.replace_range(e.at, &e.with);
    }
    out
}

/// `word` with the capital of `like`.
fn cased(word: &str, like: &str) -> String {
    if like.chars().next().is_some_and(char::is_uppercase) {
        let mut c = word.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    } else {
        word.to_owned()
    }
}

fn article_for(word: &str, like: &str) -> String {
    let an = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    cased(if an { "an" } else { "a" }, like)
}

/// The text with each mention of the situation's kind `i` naming `to[i]`
/// instead (singular or plural as written, `a`/`an` made to agree).
pub(super) fn renamed(text: &str, mentions: &[Mention], to: &[&str]) -> String {
    let mut edits = Vec::new();
    for m in mentions {
        let kind = spoken(to[m.kind]);
        let old = &text[m.at.clone()];
        let word = if m.plural { plural(&kind) } else { kind };
        if let Some(a) = &m.article {
            let like = &text[a.clone()];
            edits.push(Edit {
                at: a.clone(),
                with: article_for(&word, like),
            });
        }
        edits.push(Edit {
            at: m.at.clone(),
            with: cased(&word, old),
        });
    }
    apply(text, edits)
}

/// The text with the number in front of each kind made what the sheet
/// holds (`on_sheet[k]`), where the text counts the kind with a number.
/// A count of one names the kind in the singular.
pub(super) fn renumbered(
    text: &str,
    mentions: &[Mention],
    kinds: &[&str],
    on_sheet: &[usize],
) -> String {
    let mut edits = Vec::new();
    for (k, kind) in kinds.iter().enumerate() {
        let of: Vec<&Mention> = mentions.iter().filter(|m| m.kind == k).collect();
        let Some(first) = of.iter().find(|m| m.number.is_some()) else {
            continue;
        };
        let Some((range, n)) = first.number.clone() else {
            continue;
        };
        let others: usize = of.iter().map(|m| said_by(m)).sum::<usize>() - n;
        let want = on_sheet[k].saturating_sub(others).max(1);
        if n != want {
            let old = &text[range.clone()];
            let digits = old.bytes().all(|b| b.is_ascii_digit());
            let number = match WORDS.get(want) {
                Some(w) if !digits => cased(w, old),
                _ => want.to_string(),
            };
            edits.push(Edit {
                at: range,
                with: number,
            });
        }
        // The noun agrees with its number, the one written too (`1 goblins`).
        let kind = spoken(kind);
        if want == 1 && first.plural {
            edits.push(Edit {
                at: first.at.clone(),
                with: cased(&kind, &text[first.at.clone()]),
            });
        } else if want != 1 && !first.plural {
            edits.push(Edit {
                at: first.at.clone(),
                with: cased(&plural(&kind), &text[first.at.clone()]),
            });
        }
    }
    apply(text, edits)
}

/// The text with every count of `kinds` agreeing with its noun: a `1`
/// or `one` before a plural name makes it singular, a larger number
/// before a singular name makes it plural (`{d4} miners` rolled 1).
pub(super) fn agreed(text: &str, kinds: &[&str]) -> String {
    let found = mentions(text, kinds);
    let said: Vec<usize> = counts(&found, kinds.len())
        .iter()
        .map(|c| c.unwrap_or(0))
        .collect();
    renumbered(text, &found, kinds, &said)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_numbers_and_articles_are_read() {
        let text = "5 drowned-ones rise; two marsh leeches wait by a goblin-chief, \
                    an ogre and goblins.";
        let kinds = [
            "drowned-one",
            "marsh-leech",
            "goblin",
            "goblin-chief",
            "ogre",
        ];
        let m = mentions(text, &kinds);
        let got: Vec<(usize, bool, Option<usize>, bool)> = m
            .iter()
            .map(|m| {
                (
                    m.kind,
                    m.plural,
                    m.number.as_ref().map(|n| n.1),
                    m.article.is_some(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (0, true, Some(5), false),
                (1, true, Some(2), false),
                (3, false, None, true),
                (4, false, None, true),
                (2, true, None, false),
            ]
        );
        assert_eq!(
            counts(&m, kinds.len()),
            [Some(5), Some(2), None, Some(1), Some(1)]
        );
        assert_eq!(
            renumbered(text, &m, &kinds, &[4, 1, 3, 1, 1]),
            "4 drowned-ones rise; one marsh leech wait by a goblin-chief, an ogre and goblins."
        );
        assert_eq!(
            renamed(text, &m, &["wolf", "wolf", "owl", "elk", "bear"]),
            "5 wolves rise; two wolves wait by an elk, a bear and owls."
        );
    }

    #[test]
    fn a_count_of_one_names_one() {
        let kinds = ["goblin", "goblin-chief", "miner"];
        let text = "1 goblins and their goblin-chief; 1 miners.";
        let m = mentions(text, &kinds);
        assert_eq!(
            renumbered(text, &m, &kinds, &[1, 1, 1]),
            "1 goblin and their goblin-chief; 1 miner."
        );
        assert_eq!(
            agreed("One miners waits; 2 goblin.", &kinds),
            "One miner waits; 2 goblins."
        );
    }

    #[test]
    fn plurals() {
        for (one, many) in [
            ("wolf", "wolves"),
            ("harpy", "harpies"),
            ("hedge-witch", "hedge-witches"),
            ("drowned-one", "drowned-ones"),
            ("rat-swarm", "rat-swarms"),
        ] {
            assert_eq!(plural(one), many);
        }
    }
}
