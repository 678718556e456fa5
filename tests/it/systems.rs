//! One system per pack: over 50 seeds, the sample METTLE session's packs
//! never print a Core Rules term, and the sample Core session's packs never
//! print a METTLE term — checked on every Markdown file of the pack and on
//! the text of `pack.pdf` (pdftotext, when poppler-utils is installed), as
//! whole words; no typographic slips (`((`, `))`, `with on`); and no trap
//! (the pack's, or one lurking in an encounter) shares a trigger or an
//! effect with another (`pack.json`). JSON keys are an API, and its values
//! repeat the Markdown's.

use std::path::Path;
use std::process::Command;

use crate::common::{ok, temp_dir};

/// Words a METTLE pack must not print (Core Rules abilities, omens,
/// shillings), and whether their case must match.
const CORE_WORDS: [(&str, bool); 5] = [
    ("STR", true),
    ("AGI", true),
    ("WIT", true),
    ("omens", false),
    ("ʂ", true),
];

/// Words a Core Rules pack must not print (METTLE attributes, Mettle,
/// Edge, and the Difficulty ladder its maps once labelled paths with).
const METTLE_WORDS: [(&str, bool); 12] = [
    ("Soak", true),
    ("POISE", true),
    ("NATURE", true),
    ("CULTURE", true),
    ("MOTIVE", true),
    ("FRAME", true),
    ("Mettle", true),
    ("Edge", true),
    ("Difficulty", false),
    ("Daunting", true),
    ("Formidable", true),
    ("Challenging", true),
];

const SEEDS: usize = 50;

/// Slips of composition no pack may print, in either system.
const SLIPS: [&str; 3] = ["((", "))", "with on"];

/// Every whole-word use of `word` in `text`, with a little context.
/// `exact`: case counts.
fn uses(text: &str, word: &str, exact: bool) -> Vec<String> {
    let (hay, needle) = if exact {
        (text.to_owned(), word.to_owned())
    } else {
        (text.to_lowercase(), word.to_lowercase())
    };
    // A symbol (ʂ) follows its number: only words of ASCII letters need
    // a boundary.
    let bounded = word.chars().all(|c| c.is_ascii_alphabetic());
    let letter = |c: Option<char>| bounded && c.is_some_and(char::is_alphanumeric);
    hay.match_indices(&needle)
        .filter(|(i, _)| {
            let before = hay[..*i].chars().next_back();
            let after = hay[i + needle.len()..].chars().next();
            !letter(before) && !letter(after)
        })
        .map(|(i, _)| {
            let from = hay[..i].char_indices().rev().nth(40).map_or(0, |(j, _)| j);
            let to = hay[i..]
                .char_indices()
                .nth(needle.chars().count() + 40)
                .map_or(hay.len(), |(j, _)| i + j);
            hay[from..to].replace('\n', " ")
        })
        .collect()
}

/// The text of a PDF, or `None` without poppler-utils.
fn pdf_text(pdf: &Path) -> Option<String> {
    let o = Command::new("pdftotext")
        .args([pdf.to_str()?, "-"])
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Prep `session` with `seed` into `out` and return the words of the
/// other system it printed, as `seed file: word in «context»`.
fn strangers(session: &str, seed: &str, out: &Path, words: &[(&str, bool)]) -> Vec<String> {
    ok(&[
        "prep",
        session,
        "--seed",
        seed,
        "--out",
        out.to_str().unwrap(),
    ]);
    let dir = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{seed}-"))
        })
        .unwrap();
    let mut texts: Vec<(String, String)> = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "md") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            texts.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    texts.sort();
    if let Some(t) = pdf_text(&dir.join("pack.pdf")) {
        texts.push(("pack.pdf".into(), t));
    }
    let mut found = Vec::new();
    for (file, text) in &texts {
        for (word, case) in words {
            for context in uses(text, word, *case) {
                found.push(format!("{seed} {file}: {word} in «{context}»"));
            }
        }
        for slip in SLIPS {
            // `with on` as words (not `with one`).
            let words = slip.chars().next().is_some_and(char::is_alphabetic);
            let hits = text.match_indices(slip).filter(|(i, _)| {
                !words || !text[i + slip.len()..].starts_with(char::is_alphabetic)
            });
            for (i, _) in hits {
                let from = text[..i].char_indices().rev().nth(40).map_or(0, |(j, _)| j);
                let to = (i + 40).min(text.len());
                let to = (to..=text.len())
                    .find(|&j| text.is_char_boundary(j))
                    .unwrap();
                let context = text[from..to].replace('\n', " ");
                found.push(format!("{seed} {file}: slip {slip:?} in «{context}»"));
            }
        }
    }
    found.extend(trap_repeats(seed, &dir));
    found
}

/// Triggers and effects said twice by the pack's traps and the traps
/// lurking in its encounters.
fn trap_repeats(seed: &str, dir: &Path) -> Vec<String> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pack.json")).unwrap()).unwrap();
    let pack = &json["pack"];
    let mut traps: Vec<&serde_json::Value> = pack["encounters"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e.get("trap"))
        .collect();
    traps.extend(pack["traps"].as_array().unwrap());
    let mut found = Vec::new();
    for part in ["trigger", "effect"] {
        let mut seen: Vec<String> = Vec::new();
        for t in &traps {
            let text = t[part].as_str().unwrap();
            let key = match t["from"].as_str() {
                Some("rules") => t["name"].as_str().unwrap().to_owned(),
                _ => text.split_once(": ").map_or(text, |(k, _)| k).to_owned(),
            };
            if seen.contains(&key) {
                found.push(format!("{seed} pack.json: trap {part} {key:?} twice"));
            }
            seen.push(key);
        }
    }
    found
}

fn check_system(name: &str, session: &str, words: &[(&str, bool)]) {
    let out = temp_dir(name);
    let session = format!("{}/{session}", env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for i in 0..SEEDS {
        found.extend(strangers(&session, &format!("{name}-{i}"), &out, words));
    }
    std::fs::remove_dir_all(&out).unwrap();
    assert!(
        found.is_empty(),
        "{} uses of the other system's words in {SEEDS} {name} packs:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn whole_words_are_found_and_parts_of_words_are_not() {
    assert_eq!(uses("STR 8, AGI", "STR", true).len(), 1);
    assert!(uses("STRONG and STRAW", "STR", true).is_empty());
    assert_eq!(uses("Omens: 2; omens spent", "omens", false).len(), 2);
    assert_eq!(uses("costs 2ʂ", "ʂ", true).len(), 1);
    assert!(uses("the edge of the pit", "Edge", true).is_empty());
    assert_eq!(uses("Edge 2 (Great)", "Edge", true).len(), 1);
}

#[test]
fn mettle_packs_print_no_core_rules_terms() {
    check_system("mettle", "session.toml", &CORE_WORDS);
}

#[test]
fn core_packs_print_no_mettle_terms() {
    check_system("core", "session-core.toml", &METTLE_WORDS);
}
