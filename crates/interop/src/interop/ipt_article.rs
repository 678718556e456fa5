//! IPP's `\a`: the article "a" or "an" for the word written after it,
//! chosen as the Randomness reader chooses it (IPP3's rule with its
//! common exceptions), or why there is no word to choose by.

/// Why `\a` has no word to choose its article by.
#[derive(Debug, PartialEq)]
pub enum NoWord {
    /// What follows it is rolled (a bracket or a brace).
    Rolled,
    /// No word of letters follows it: the end, another escape that is
    /// not a character (`\n`, `\t`, `\z`, `\a`), or something else.
    Missing,
}

/// Blanks before `\a`'s word: the reader looks past fewer than these.
const ARTICLE_LOOK: usize = 30;

/// The article `\a` writes before `rest`, as the Randomness reader
/// chooses it (IPP3's rule with its common exceptions): the first word of
/// English letters in the words right after it (escaped characters and
/// `\_` count as words; a bracket, a brace or another escape ends them),
/// past fewer than [`ARTICLE_LOOK`] blanks.
pub fn article(rest: &str) -> Result<&'static str, NoWord> {
    let (mut blanks, mut word) = (0, String::new());
    let mut stop = NoWord::Missing;
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        let c = match c {
            '[' | '{' => {
                stop = NoWord::Rolled;
                break;
            }
            '\\' => match chars.next() {
                Some('n' | 't' | 'z' | 'a') => break,
                Some('_') => ' ',
                Some(c) => c,
                None => '\\',
            },
            c => c,
        };
        if c.is_ascii_alphabetic() {
            word.push(c);
        } else if word.is_empty() && c.is_whitespace() && blanks + 1 < ARTICLE_LOOK {
            blanks += 1;
        } else {
            break;
        }
    }
    if word.is_empty() {
        return Err(stop);
    }
    Ok(article_for(&word))
}

/// "a" or "an" before `word` (letters only): words that start with a
/// vowel but sound a consonant (`unit`, `euro`, `one`) take "a"; a silent
/// h (`hour`, `honest`, `heir`, `herb`) takes "an", as do capitals said as
/// letters that start with a vowel sound (`NPC`, `FBI`); otherwise "an"
/// before a vowel. The lists are Randomness's (1.10): its longer
/// prefixes (`user`, `european`, `unit`, `once`, …) start with these.
fn article_for(word: &str) -> &'static str {
    const SAYS_A: [&str; 9] = [
        "uni", "use", "ubi", "euro", "eulog", "eunuch", "uten", "ufo", "one",
    ];
    const SAYS_AN: [&str; 6] = ["hour", "honest", "honor", "honour", "heir", "herb"];
    let lower = word.to_ascii_lowercase();
    let starts = |list: &[&str]| list.iter().any(|p| lower.starts_with(p));
    let letters = word.len() > 1
        && word.chars().all(|c| c.is_ascii_uppercase())
        && word.starts_with(['F', 'H', 'L', 'M', 'N', 'R', 'S', 'X']);
    let an = if starts(&SAYS_A) {
        false
    } else if starts(&SAYS_AN) || letters {
        true
    } else {
        lower.starts_with(['a', 'e', 'i', 'o', 'u'])
    };
    if an { "an" } else { "a" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_follows_the_readers_rule_and_its_exceptions() {
        for (rest, want) in [
            (" orc", "an"),
            ("Elf", "an"),
            (" wolf", "a"),
            (" unicorn", "a"),
            (" user", "a"),
            (" European", "a"),
            (" one-eyed", "a"),
            (" hour", "an"),
            (" Honest", "an"),
            (" heirloom", "an"),
            (" hones", "a"),
            (" NPC", "an"),
            (" FBI", "an"),
            (" N", "a"),
            (" Npc", "a"),
            (" ORC", "an"),
            (" \\orc", "an"),
            (" ox[@T]", "an"),
        ] {
            assert_eq!(article(rest), Ok(want), "{rest}");
        }
        assert_eq!(article(" [@T]"), Err(NoWord::Rolled));
        assert_eq!(article(" {1d4} orcs"), Err(NoWord::Rolled));
        assert_eq!(article(""), Err(NoWord::Missing));
        assert_eq!(article(" 8 orcs"), Err(NoWord::Missing));
        assert_eq!(article("\\z orc"), Err(NoWord::Missing));
        assert_eq!(article(&format!("{}orc", " ".repeat(29))), Ok("an"));
        assert_eq!(
            article(&format!("{}orc", " ".repeat(30))),
            Err(NoWord::Missing)
        );
    }
}
