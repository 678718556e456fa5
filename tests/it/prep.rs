//! Session packs (`prep`): every handout written and pinned by the goldens
//! in tests/golden/pack, the same bytes from two processes, and the
//! refusals (existing files, bad outputs, bad session files).

use crate::common::{Test, assert_golden, cli, ok, only_entry, sample_session, temp_dir};

#[test]
fn prep_writes_every_handout_and_pins_them() {
    let out = temp_dir("prep");
    let o = out.to_str().unwrap();
    let printed = ok(&["prep", &sample_session(), "--out", o]);
    assert!(printed.contains("wrote "), "{printed}");
    let dir = only_entry(&out);
    assert!(
        dir.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("goblin-night-")
    );
    let golden = format!("{}/tests/golden/pack", env!("CARGO_MANIFEST_DIR"));
    for name in [
        "pack.md",
        "encounter-1.md",
        "encounter-2.md",
        "npc-1.md",
        "npc-4.md",
        "trap-1.md",
        "map-1.md",
        "map-1-players.md",
        "journey-1.md",
        "voucher-1.md",
        "map-1.svg",
    ] {
        let text =
            std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        if !name.ends_with(".svg") {
            assert!(
                text.contains("Seed `goblin-night`"),
                "{name} has no share line"
            );
        }
        assert_golden(&format!("{golden}/{name}"), &text, name);
    }
    let players = std::fs::read_to_string(dir.join("map-1-players.md")).unwrap();
    assert!(!players.contains("Difficulty") && !players.contains("hook"));
    // Tables stay tables: no cell text breaks a row.
    let md = std::fs::read_to_string(dir.join("pack.md")).unwrap();
    for line in md.lines().filter(|l| l.starts_with('|')) {
        let cells = line.matches('|').count() - line.matches("\\|").count();
        assert!(cells >= 3, "{line}");
    }
    // The same pack again needs no --force (the bytes are the same); the
    // pack's own files are made again when what it is made from changes
    // (--ink-saver), without --force (tests/it/gm_files.rs: the GM's
    // edited files).
    ok(&["prep", &sample_session(), "--out", o]);
    let pdf = std::fs::read(dir.join("pack.pdf")).unwrap();
    ok(&["prep", &sample_session(), "--out", o, "--ink-saver"]);
    assert_ne!(std::fs::read(dir.join("pack.pdf")).unwrap(), pdf);
    ok(&["prep", &sample_session(), "--out", o]);
    assert_eq!(std::fs::read(dir.join("pack.pdf")).unwrap(), pdf);
    // Same seed, same bytes, in two processes.
    let again = temp_dir("prep-again");
    ok(&["prep", &sample_session(), "--out", again.to_str().unwrap()]);
    let dir2 = only_entry(&again);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name();
        assert_eq!(
            std::fs::read(dir.join(&name)).unwrap(),
            std::fs::read(dir2.join(&name)).unwrap(),
            "{name:?}"
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(&again).unwrap();
}

#[test]
fn prep_refuses_an_out_that_is_a_file() {
    let run = Test::new()
        .file("a-file", "x")
        .args(["prep", &sample_session(), "--out", "a-file"])
        .run()
        .fails(1)
        .no_stdout();
    let err = run.stderr();
    assert!(
        err.contains("cannot create the folder") || err.contains("is a file"),
        "{err}"
    );
}

#[test]
fn prep_refuses_a_session_whose_party_file_is_missing() {
    Test::new()
        .file("session.toml", "party = \"nobody.toml\"\nencounters = 1\n")
        .args(["prep", "session.toml", "--out", "."])
        .run()
        .fails(1)
        .no_stdout()
        .stderr_has("the party file `nobody.toml` does not exist");
}

#[test]
fn prep_points_at_an_unknown_session_key() {
    Test::new()
        .file("session.toml", "party = \"3,3\"\nencountres = 1\n")
        .args(["prep", "session.toml"])
        .run()
        .fails(1)
        .no_stdout()
        .stderr_has("session.toml:2:1")
        .stderr_has("encountres");
}

#[test]
fn prep_refuses_a_missing_session_file() {
    cli(["prep", "none.toml"])
        .fails(1)
        .no_stdout()
        .stderr_has("cannot read the session file");
}

/// The Markdown needs no hand-editing: every handout file opens with its
/// own H1, `pack.md` has one H1 and never skips a level, plurals are words,
/// and every Mettle or health cell has one box per point.
#[test]
fn pack_markdown_is_a_sane_document() {
    for seed in ["goblin-night", "md-1", "md-2"] {
        let out = temp_dir(&format!("prep-md-{seed}"));
        ok(&[
            "prep",
            &sample_session(),
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
        ]);
        let dir = only_entry(&out);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            assert!(text.starts_with("# "), "{name} does not open with an H1");
            assert!(!text.contains("(s)"), "{name} says (s)");
            headings_never_skip(&name, &text);
            boxes_match_points(&name, &text);
        }
        let pack = std::fs::read_to_string(dir.join("pack.md")).unwrap();
        let h1 = pack.lines().filter(|l| l.starts_with("# ")).count();
        assert_eq!(h1, 1, "pack.md has {h1} H1 headings");
        std::fs::remove_dir_all(&out).unwrap();
    }
}

fn headings_never_skip(name: &str, text: &str) {
    let mut level = 0;
    for line in text.lines() {
        let hashes = line.bytes().take_while(|b| *b == b'#').count();
        if hashes == 0 || !line[hashes..].starts_with(' ') {
            continue;
        }
        assert!(hashes <= level + 1, "{name}: `{line}` skips a level");
        level = hashes;
    }
}

/// A cell `12 ☐☐…` holds as many boxes as its number says.
fn boxes_match_points(name: &str, text: &str) {
    let mut cells = 0;
    for cell in text.split(['|', '\n']) {
        let Some((points, boxes)) = cell.trim().split_once(' ') else {
            continue;
        };
        let (Ok(points), true) = (points.parse::<usize>(), boxes.starts_with('☐')) else {
            continue;
        };
        assert_eq!(
            boxes.chars().filter(|c| *c == '☐').count(),
            points,
            "{name}: {cell}"
        );
        cells += 1;
    }
    if name.starts_with("encounter") && text.contains("## Foes") {
        assert!(cells > 0, "{name}: no tick boxes found");
    }
}

/// Words of one system that the other's journey log must never print.
fn foreign_word(text: &str, core: bool) -> Option<String> {
    let list: &[&str] = if core {
        &[
            "POISE", "NATURE", "CULTURE", "MOTIVE", "FRAME", "Mettle", "METTLE", "Edge",
        ]
    } else {
        &["STR", "AGI", "WIT", "omen", "omens"]
    };
    if !core && text.contains('ʂ') {
        return Some("ʂ".into());
    }
    text.split(|c: char| !c.is_alphanumeric())
        .find(|w| list.contains(w))
        .map(str::to_owned)
}

#[test]
fn packs_journey_in_their_own_system() {
    let out = temp_dir("prep-journeys");
    for (system, party) in [("core", "10,12,9,11"), ("mettle", "3,4,4,5")] {
        let session = out.join(format!("{system}.toml"));
        std::fs::write(
            &session,
            format!(
                "title = \"Roads\"\nseed = \"roads\"\nsystem = \"{system}\"\nparty = \"{party}\"\n\
                 encounters = 2\n[map]\njourney = true\nrations = 1\nwater = 1\nkits = [\"camping\", \"trapping\"]\n"
            ),
        )
        .unwrap();
        let folder = out.join(system);
        ok(&[
            "prep",
            session.to_str().unwrap(),
            "--out",
            folder.to_str().unwrap(),
        ]);
        let dir = only_entry(&folder);
        let journey = std::fs::read_to_string(dir.join("journey-1.md")).unwrap();
        let core = system == "core";
        assert!(
            journey.contains(if core { "Tracker:" } else { "Lead:" }),
            "{journey}"
        );
        assert!(journey.contains("Each carries 1 ration and 1 unit of water"));
        if let Some(w) = foreign_word(&journey, core) {
            panic!("`{w}` in the {system} journey:\n{journey}");
        }
        // No encounter on the way repeats one of the pack's encounters.
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("pack.json")).unwrap()).unwrap();
        let pack = &json["pack"];
        let used: Vec<&str> = pack["encounters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["situation"]["row"].as_str().unwrap())
            .collect();
        for e in pack["journey"]["encounters"].as_array().unwrap() {
            assert!(!used.contains(&e["name"].as_str().unwrap()), "{e}");
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// `pack.md` opens with the run sheet the PDF opens with: contents, each
/// PC with a track of one box per point, encounters and journey at a
/// glance, the initiative ladder and notes. Where `pdftotext` is there,
/// every run-sheet heading and track of the PDF's first page is in the
/// Markdown too.
#[test]
fn pack_markdown_has_the_run_sheet() {
    let core = format!("{}/session-core.toml", env!("CARGO_MANIFEST_DIR"));
    for (name, session) in [("run-mettle", sample_session()), ("run-core", core)] {
        let out = temp_dir(name);
        ok(&["prep", &session, "--out", out.to_str().unwrap()]);
        let dir = only_entry(&out);
        let md = std::fs::read_to_string(dir.join("pack.md")).unwrap();
        let start = md.find("\n## Run sheet").expect("a run sheet section");
        let rest = &md[start + 1..];
        let sheet = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
        for heading in [
            "## Run sheet",
            "### Contents",
            "### The party",
            "### Encounters",
            "### Journey",
            "### Initiative ladder",
            "### Notes",
        ] {
            assert!(sheet.contains(heading), "{name}: no `{heading}`:\n{sheet}");
        }
        let tracks = run_sheet_tracks(sheet);
        assert!(tracks.len() >= 2, "{name}: tracks {tracks:?}");
        let page1 = first_page_text(&dir.join("pack.pdf"));
        for (label, boxes) in &tracks {
            let points: usize = label.rsplit(' ').next().unwrap().parse().unwrap();
            assert_eq!(*boxes, points, "{name}: {label}");
            if !page1.is_empty() {
                assert!(page1.contains(label.as_str()), "{name}: PDF lacks {label}");
            }
        }
        for heading in [
            "Contents",
            "The party",
            "Encounters",
            "Journey",
            "Initiative ladder",
        ] {
            if page1.contains(heading) {
                assert!(
                    sheet.contains(&format!("### {heading}")),
                    "{name}: {heading}"
                );
            }
        }
        std::fs::remove_dir_all(&out).unwrap();
    }
}

/// `Mettle 8: ☐☐☐☐☐☐☐☐` lines of a run sheet: (label, boxes).
fn run_sheet_tracks(sheet: &str) -> Vec<(String, usize)> {
    sheet
        .lines()
        .flat_map(|l| l.split(" · "))
        .filter_map(|t| t.split_once(": "))
        .filter(|(label, boxes)| {
            (label.starts_with("Mettle ") || label.starts_with("health ")) && boxes.starts_with('☐')
        })
        .map(|(label, boxes)| {
            (
                label.to_owned(),
                boxes.chars().filter(|c| *c == '☐').count(),
            )
        })
        .collect()
}

/// The text of a PDF's first page (empty without `pdftotext`).
fn first_page_text(pdf: &std::path::Path) -> String {
    std::process::Command::new("pdftotext")
        .args(["-l", "1", pdf.to_str().unwrap(), "-"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// Wherever a tile starts with a benny, the sheet says what a benny on a
/// tile does, in the Markdown and on the printed page, legend or not.
#[test]
fn every_benny_is_explained_where_it_is() {
    let out = temp_dir("benny");
    ok(&["prep", &sample_session(), "--out", out.to_str().unwrap()]);
    let dir = only_entry(&out);
    let rule = "hands the benny to the other side";
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !(name.starts_with("encounter-") && name.ends_with(".md")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("(benny)") {
            seen += 1;
            assert!(text.contains(rule), "{name} leaves the benny unexplained");
        }
    }
    assert!(seen > 0, "the sample pack has no benny to explain");
    let Ok(done) = std::process::Command::new("pdftotext")
        .args(["-layout"])
        .arg(dir.join("pack.pdf"))
        .arg("-")
        .output()
    else {
        eprintln!("skipped the PDF: no pdftotext");
        return;
    };
    let text = String::from_utf8_lossy(&done.stdout).replace('\n', " ");
    for (i, page) in text.split('\u{c}').enumerate() {
        let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
        if page.contains("(benny)") {
            assert!(
                page.contains(rule),
                "page {} leaves the benny unexplained",
                i + 1
            );
        }
    }
}
