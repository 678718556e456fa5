//! The documents say only what is so: every relative link of README.md,
//! CONTRIBUTING.md, ARCHITECTURE.md and the guide (docs/src) leads to a
//! file that exists, every chapter is in the guide's SUMMARY.md, every
//! repository path they name in backticks exists, and every
//! `tablewright <command>` they show is a command the tool has.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::common::run;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every document checked, with the folder its relative links start from.
fn documents() -> Vec<(PathBuf, String)> {
    let mut files = vec![
        root().join("README.md"),
        root().join("CONTRIBUTING.md"),
        root().join("ARCHITECTURE.md"),
    ];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src"))
        .expect("docs/src")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    files.extend(chapters);
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            (p, text)
        })
        .collect()
}

/// `](target)` links outside code, without web addresses and anchors.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let target = &after[..end];
            // Web addresses, anchors and the hostile links the guide
            // shows as examples (`[x](javascript:…)`) lead to no file.
            let scheme = target
                .split_once(':')
                .is_some_and(|(s, _)| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic()));
            if !scheme && !target.starts_with('#') {
                out.push(target.split('#').next().unwrap_or("").to_owned());
            }
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_of_the_documents_leads_to_a_file() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for (path, text) in documents() {
        let base = path.parent().unwrap();
        for target in links(&text) {
            checked += 1;
            if !base.join(&target).exists() {
                broken.push(format!("{}: {target}", path.display()));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the scan broken?"
    );
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn every_chapter_is_in_the_guide_summary_and_every_entry_exists() {
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().collect();
    for entry in &listed {
        assert!(
            root().join("docs/src").join(entry).is_file(),
            "SUMMARY.md lists {entry}, which does not exist"
        );
    }
    for (path, _) in documents() {
        if path.parent() == Some(&root().join("docs/src")) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                name == "SUMMARY.md" || listed.contains(&name),
                "docs/src/{name} is not in SUMMARY.md, so the guide leaves it out"
            );
        }
    }
}

/// Folders the tools make and git ignores, named in the documents.
const MADE_BY_TOOLS: [&str; 3] = ["fuzz/corpus", "docs/book", "out"];

/// Backticked words that name a repository path: they start with one of
/// the repository's top-level folders and hold no placeholder.
fn named_paths(text: &str) -> Vec<String> {
    const TOP: [&str; 12] = [
        "src/",
        "crates/",
        "tests/",
        "content/",
        "assets/",
        "scripts/",
        "benches/",
        "bench/",
        "fuzz/",
        "docs/",
        "examples/",
        "templates/",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| TOP.iter().any(|t| w.starts_with(t)))
        .filter(|w| !w.contains(['<', '>', '*', '{', '…', ' ', '$']) && !w.contains("..."))
        // `src/X.rs`: a placeholder for any module.
        .filter(|w| !w.split('/').any(|s| s == "X" || s.starts_with("X.")))
        .map(|w| w.trim_end_matches([':', ',', '.']).to_owned())
        .collect()
}

#[test]
fn every_path_the_documents_name_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for (path, text) in documents() {
        for named in named_paths(&text) {
            checked += 1;
            // `src/page/pdf/` or `src/page/pdf` (a module folder or file);
            // ARCHITECTURE.md names modules from `src/` (`content/schema.rs`),
            // the campaign chapter the files `init` writes (`assets/init/`).
            let plain = named.trim_end_matches('/');
            let bases: Vec<String> = ["", "src/", "assets/init/"]
                .into_iter()
                .map(String::from)
                .chain(
                    super::architecture::source_dirs()
                        .iter()
                        .map(|d| format!("{}/", d.strip_prefix(root()).unwrap().display())),
                )
                .collect();
            let exists = bases.into_iter().any(|base| {
                let p = root().join(format!("{base}{plain}"));
                p.exists() || p.with_extension("rs").exists()
            });
            let generated = MADE_BY_TOOLS.iter().any(|g| plain.starts_with(g));
            if !exists && !generated {
                missing.push(format!("{}: `{named}`", path.display()));
            }
        }
    }
    assert!(
        checked > 30,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The subcommands `tablewright --help` lists.
fn commands() -> BTreeSet<String> {
    let out = run(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let start = text
        .find("Commands:")
        .expect("a Commands: section in --help");
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// The words after `tablewright ` where a command line is shown: at the
/// start of a line in a fenced code block (`$ ` prompts too), or at the
/// start of a code span.
fn shown_commands(text: &str) -> Vec<String> {
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
            .collect()
    };
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            let l = line.trim_start().trim_start_matches("$ ");
            if let Some(rest) = l.strip_prefix("tablewright ") {
                out.push(word(rest));
            }
            continue;
        }
        for span in line.split('`').skip(1).step_by(2) {
            if let Some(rest) = span.strip_prefix("tablewright ") {
                out.push(word(rest));
            }
        }
    }
    out.retain(|w| !w.is_empty() && !w.starts_with('-'));
    out
}

#[test]
fn every_command_the_documents_show_exists() {
    let known = commands();
    assert!(
        known.contains("prep") && known.contains("roll"),
        "{known:?}"
    );
    let mut unknown = Vec::new();
    let mut checked = 0;
    for (path, text) in documents() {
        for word in shown_commands(&text) {
            checked += 1;
            if !known.contains(&word) {
                unknown.push(format!("{}: tablewright {word}", path.display()));
            }
        }
    }
    assert!(
        checked > 30,
        "only {checked} command lines found: is the scan broken?"
    );
    assert!(
        unknown.is_empty(),
        "commands that do not exist:\n{}",
        unknown.join("\n")
    );
}

/// ARCHITECTURE.md's module table names modules that exist.
#[test]
fn every_module_architecture_names_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| `")) {
        let first = line.split('|').nth(1).unwrap_or("").trim();
        for name in first.split('`').skip(1).step_by(2) {
            let path = name.replace("::", "/");
            let found = super::architecture::source_dirs().iter().any(|src| {
                [format!("{path}.rs"), format!("{path}/mod.rs"), path.clone()]
                    .iter()
                    .any(|p| src.join(p).exists())
            });
            if !found {
                missing.push(name.to_owned());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names modules that do not exist: {missing:?}"
    );
}

/// The newest release in CHANGELOG.md is the version `--version` prints.
#[test]
fn the_changelog_names_the_version_the_tool_prints() {
    let log = std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    let release = log
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .find(|h| !h.starts_with("Unreleased"))
        .expect("a released section in CHANGELOG.md");
    let out = run(&["--version"]);
    let printed = String::from_utf8_lossy(&out.stdout);
    let version = printed
        .split_whitespace()
        .nth(1)
        .expect("tablewright X.Y.Z");
    assert!(
        release.starts_with(&format!("{version} ")),
        "CHANGELOG's newest release is `{release}`, but --version prints {version}"
    );
}
