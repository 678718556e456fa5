//! `completions` and `manpage`: every shell's script and the roff manual
//! name every subcommand the parser knows (read from the same clap command,
//! so a new subcommand is checked without touching this file), and `gen`'s
//! kinds; both are the same on every run.

use crate::common::{misused, ok, temp_dir};

/// Every subcommand's name, and `gen`'s kinds, as the parser has them.
fn subcommands() -> (Vec<String>, Vec<String>) {
    let cmd = tablewright::cli::command();
    let names = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    let kinds = cmd
        .find_subcommand("gen")
        .expect("gen is a subcommand")
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    (names, kinds)
}

#[test]
fn bash_completion_names_every_subcommand_kind_and_flag() {
    let script = ok(&["completions", "bash"]);
    let (names, kinds) = subcommands();
    assert!(names.len() >= 12, "{names:?}");
    for must in ["prep", "gen", "roll", "completions", "manpage"] {
        assert!(names.iter().any(|n| n == must), "{must} missing: {names:?}");
    }
    assert!(script.contains("complete -F _tablewright"), "{script}");
    for name in &names {
        assert!(
            script.contains(&format!("tablewright__subcmd__{name}")),
            "bash completion lacks `{name}`"
        );
    }
    for kind in &kinds {
        assert!(
            script.contains(&format!("gen__subcmd__{kind}")),
            "bash completion lacks `gen {kind}`"
        );
    }
    for flag in ["--seed", "--only", "--reroll", "--paper", "--md"] {
        assert!(script.contains(flag), "bash completion lacks {flag}");
    }
    assert_eq!(script, ok(&["completions", "bash"]));
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    let (names, _) = subcommands();
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let script = ok(&["completions", shell]);
        assert!(script.lines().count() > 50, "{shell}: {script}");
        for name in &names {
            assert!(
                script.contains(name.as_str()),
                "{shell} completion lacks `{name}`"
            );
        }
    }
}

#[test]
fn manpage_is_roff_naming_every_subcommand() {
    let page = ok(&["manpage"]);
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{page}");
    assert!(page.contains(".TH tablewright 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    let (names, _) = subcommands();
    for name in &names {
        // roff escapes the hyphen in `tablewright-prep(1)`.
        assert!(
            page.contains(&format!("tablewright\\-{name}")),
            "manpage lacks `{name}`"
        );
    }
    assert!(page.contains("\\-\\-seed"), "{page}");
    assert_eq!(page, ok(&["manpage"]));
}

/// The pages a roff page refers to: `tablewright\-prep(1)` →
/// `tablewright-prep.1`.
fn referred(page: &str) -> Vec<String> {
    page.split("tablewright\\-")
        .skip(1)
        .filter_map(|rest| {
            let (name, _) = rest.split_once("(1)")?;
            let name = name.replace("\\-", "-");
            (!name.contains([' ', '\\'])).then(|| format!("tablewright-{name}.1"))
        })
        .collect()
}

#[test]
fn manpage_to_a_folder_writes_every_page_it_refers_to() {
    let base = temp_dir("manpage-to");
    let dir = base.join("man1");
    let d = dir.to_str().unwrap();
    let said = ok(&["manpage", "--to", d]);
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".1"))
        .collect();
    let (names, kinds) = subcommands();
    // The top page, one per subcommand, one per `gen` kind.
    assert_eq!(files.len(), 1 + names.len() + kinds.len(), "{files:?}");
    assert!(said.contains("tablewright-gen-npc.1"), "{said}");
    let top = std::fs::read_to_string(dir.join("tablewright.1")).unwrap();
    assert_eq!(top, ok(&["manpage"]), "stdout is the top page");
    let mut refs = 0;
    for name in &files {
        let page = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(page.contains(".TH "), "{name} is no roff page");
        for r in referred(&page) {
            assert!(files.contains(&r), "{name} refers to {r}, not written");
            refs += 1;
        }
    }
    assert!(refs >= names.len() + kinds.len(), "{refs} references");
    // The same pages again are no conflict; a changed one needs --force.
    ok(&["manpage", "--to", d]);
    std::fs::write(dir.join("tablewright-prep.1"), "mine").unwrap();
    ok(&["manpage", "--to", d, "--force"]);
    let prep = std::fs::read_to_string(dir.join("tablewright-prep.1")).unwrap();
    assert!(prep.contains(".TH tablewright-prep 1"), "{prep}");
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let err = misused(&["completions", "nonsense"]);
    assert!(err.contains("invalid value 'nonsense'"), "{err}");
    assert!(err.contains("bash") && err.contains("powershell"), "{err}");
}
