//! The pack PDF: a real, printable, reproducible document. Its structure
//! (page size, embedded fonts, text) is checked with poppler-utils when
//! they are installed (`.ci/run` installs them).

use std::process::Command;

use crate::common::{ok, only_entry, sample_session, temp_dir};

/// A PDF's text (`pdftotext`), if poppler-utils are installed.
pub fn text_of(pdf: &std::path::Path) -> Option<String> {
    poppler("pdftotext", &[pdf.to_str()?, "-"])
}

/// A tool from poppler-utils, if installed (`.ci/run` installs them).
fn poppler(tool: &str, args: &[&str]) -> Option<String> {
    let o = Command::new(tool).args(args).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn the_pack_pdf_is_a_real_printable_document() {
    let out = temp_dir("pdf");
    let o = out.to_str().unwrap();
    ok(&["prep", &sample_session(), "--out", o]);
    let dir = only_entry(&out);
    let pdf = dir.join("pack.pdf");
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    assert!(
        bytes.len() < 1_000_000,
        "the pack PDF is {} bytes",
        bytes.len()
    );
    // Same bytes from a second process, and on letter paper a different size.
    let again = temp_dir("pdf-again");
    ok(&["prep", &sample_session(), "--out", again.to_str().unwrap()]);
    let dir2 = only_entry(&again);
    assert_eq!(
        bytes,
        std::fs::read(dir2.join("pack.pdf")).unwrap(),
        "pack.pdf differs between runs"
    );
    let letter = temp_dir("pdf-letter");
    ok(&[
        "prep",
        &sample_session(),
        "--out",
        letter.to_str().unwrap(),
        "--paper",
        "letter",
        "--ink-saver",
    ]);
    let dir3 = only_entry(&letter);
    let p = pdf.to_str().unwrap();
    let Some(info) = poppler("pdfinfo", &[p]) else {
        eprintln!("poppler-utils not installed: PDF structure not checked");
        return;
    };
    assert!(info.contains("595.28 x 841.89 pts (A4)"), "{info}");
    let pages: usize = info
        .lines()
        .find(|l| l.starts_with("Pages:"))
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap()
        .parse()
        .unwrap();
    // Run sheet, two encounters, cards, two maps, journey: issue 13 wanted
    // the sample session in at most 8 pages; the encounter its journey
    // meets on the way now has its own sheet too (its foes' stat blocks),
    // one page more.
    assert!((6..=9).contains(&pages), "{pages} pages");
    let letter_info =
        poppler("pdfinfo", &[dir3.join("pack-letter.pdf").to_str().unwrap()]).unwrap();
    assert!(
        letter_info.contains("612 x 792 pts (letter)"),
        "{letter_info}"
    );
    let fonts = poppler("pdffonts", &[p]).unwrap();
    let embedded: Vec<&str> = fonts.lines().skip(2).collect();
    assert_eq!(embedded.len(), 2, "{fonts}");
    for line in embedded {
        assert!(
            line.contains("DejaVuSerif") && line.contains(" yes yes yes "),
            "not embedded and subset: {line}"
        );
    }
    let text = poppler("pdftotext", &["-layout", p, "-"]).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pack.json")).unwrap()).unwrap();
    for foe in json["pack"]["encounters"][0]["foes"].as_array().unwrap() {
        assert!(
            text.contains(foe["name"].as_str().unwrap()),
            "foe missing from the PDF"
        );
    }
    for npc in json["pack"]["npcs"].as_array().unwrap() {
        assert!(
            text.contains(npc["name"].as_str().unwrap()),
            "NPC card missing"
        );
    }
    for v in json["pack"]["vouchers"].as_array().unwrap() {
        assert!(
            text.contains(v["serial"].as_str().unwrap()),
            "voucher serial missing"
        );
    }
    assert!(
        text.contains("NATURE"),
        "METTLE stat blocks are in the text"
    );
    // The share line on every page; a card sheet has none (no text outside
    // its cards), each card its own seed line instead.
    for page in 1..=pages {
        let n = page.to_string();
        let one = poppler("pdftotext", &["-f", &n, "-l", &n, p, "-"]).unwrap();
        let cards = one.lines().filter(|l| *l == "seed goblin-night").count();
        assert!(
            one.contains("seed goblin-night · The Fen Road") || cards >= 1,
            "page {page} of {pages}: no share line and no card"
        );
    }
    for d in [out, again, letter] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// Both samples keep their page counts on both papers, the same on each:
/// the Core sample eight pages (run sheet, two encounters, the GM's map
/// with its whole key, the players' map, the journey, two card sheets:
/// NPC cards carry on with their numbers); the METTLE sample nine (run
/// sheet, two encounters, the two maps, the journey, the encounter met on
/// the way with its foes, two card sheets). The METTLE sample on letter
/// once ran a page longer, two rows of the map's key alone on a page.
#[test]
fn both_samples_keep_their_pages_on_a4_and_letter() {
    let out = temp_dir("pdf-pages");
    for (sample, pages) in [("session.toml", 9), ("session-core.toml", 8)] {
        for paper in ["a4", "letter"] {
            let dir = out.join(format!("{sample}-{paper}"));
            let file = format!("{}/{sample}", env!("CARGO_MANIFEST_DIR"));
            ok(&[
                "prep",
                &file,
                "--paper",
                paper,
                "--out",
                dir.to_str().unwrap(),
            ]);
            let name = if paper == "a4" {
                "pack.pdf"
            } else {
                "pack-letter.pdf"
            };
            let pdf = only_entry(&dir).join(name);
            let Some(info) = poppler("pdfinfo", &[pdf.to_str().unwrap()]) else {
                eprintln!("poppler-utils not installed: page counts not checked");
                return;
            };
            assert!(
                info.lines()
                    .any(|l| l.starts_with("Pages:") && l.ends_with(&format!(" {pages}"))),
                "{sample} on {paper}:\n{info}"
            );
        }
    }
    std::fs::remove_dir_all(out).unwrap();
}

/// Issue 27: a party named in accented Latin, Greek, Cyrillic, Chinese and
/// Japanese kana preps; every name comes back out of the PDF (no U+FFFD),
/// every font is embedded, the PDF stays small, and a name in a zone box
/// is never split across lines.
#[test]
fn every_name_prints_in_every_script() {
    let out = temp_dir("pdf-world");
    let names = ["Élodie Ærø", "Η Ελένη", "Фёдор", "李雷", "さくら"];
    let session = std::fs::read_to_string(sample_session())
        .unwrap()
        .replace(
            "tests/fixtures/party-mettle.toml",
            &crate::common::fixture("party-world.toml"),
        )
        .replace(r#"["Viktor", "Kirin"]"#, r#"["李雷", "さくら"]"#);
    let file = out.join("session.toml");
    std::fs::write(&file, session).unwrap();
    let o = crate::common::run(&[
        "prep",
        file.to_str().unwrap(),
        "--out",
        out.join("packs").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", crate::common::stderr(&o));
    assert!(
        !crate::common::stderr(&o).contains("no glyph"),
        "{}",
        crate::common::stderr(&o)
    );
    let pdf = only_entry(&out.join("packs")).join("pack.pdf");
    let size = std::fs::metadata(&pdf).unwrap().len();
    assert!(size < 2_000_000, "the pack PDF is {size} bytes");
    let p = pdf.to_str().unwrap();
    let Some(text) = poppler("pdftotext", &[p, "-"]) else {
        eprintln!("poppler-utils not installed: PDF text not checked");
        return;
    };
    assert!(!text.contains('\u{FFFD}'), "U+FFFD in the PDF:\n{text}");
    for name in names {
        // The run sheet, the zone box, the journey, the vouchers: many times.
        let times = text.matches(name).count();
        assert!(times >= 4, "{name} printed {times} times");
    }
    // Greek and Cyrillic come from DejaVu Serif, the rest from the fallback.
    let fonts = poppler("pdffonts", &[p]).unwrap();
    let embedded: Vec<&str> = fonts.lines().skip(2).collect();
    assert_eq!(embedded.len(), 3, "{fonts}");
    assert!(fonts.contains("DroidSansFallback"), "{fonts}");
    for line in embedded {
        assert!(
            line.contains(" yes yes yes "),
            "not embedded and subset: {line}"
        );
    }
    // "Η Ελένη" is never split (pdftotext keeps a line's words together).
    assert!(!text.contains("Η\n"), "a name split across lines:\n{text}");
    std::fs::remove_dir_all(out).unwrap();
}

/// A character no bundled font has (an Egyptian hieroglyph) still preps,
/// and `prep` warns naming the item, the field and the character.
#[test]
fn a_name_without_a_glyph_is_warned_about() {
    let out = temp_dir("pdf-no-glyph");
    let party = std::fs::read_to_string(crate::common::fixture("party-world.toml"))
        .unwrap()
        .replace("Фёдор", "Ф𓀀");
    std::fs::write(out.join("party.toml"), party).unwrap();
    let session = std::fs::read_to_string(sample_session())
        .unwrap()
        .replace(
            "tests/fixtures/party-mettle.toml",
            out.join("party.toml").to_str().unwrap(),
        )
        .replace(r#"["Viktor", "Kirin"]"#, r#"["李雷"]"#);
    let file = out.join("session.toml");
    std::fs::write(&file, session).unwrap();
    let o = crate::common::run(&[
        "prep",
        file.to_str().unwrap(),
        "--out",
        out.join("packs").to_str().unwrap(),
    ]);
    let err = crate::common::stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning: party: field mettle.2.name has no glyph for '𓀀' (U+13000)"),
        "{err}"
    );
    std::fs::remove_dir_all(out).unwrap();
}
