//! Bundles and rerolls: the files that let a friend rebuild a pack.
//!
//! A bundle (`tablewright share SESSION > bundle.toml`, and the
//! `bundle.toml` in every pack folder) is one TOML file carrying the seed,
//! the session file's text, the party file's text, every
//! `--content` table file and every `--templates` override, stamped with
//! the tool version, output format and tables hash that made it. `prep`
//! reads a bundle as it reads a session file (a bundle has a
//! `[tablewright]` table; a session file may not). The paper is not in
//! it: paper is a print option (`--paper`), so an A4 and a letter pack of
//! one seed share their bundle and every file but the pack PDF
//! (`pack.pdf`, `pack-letter.pdf`), and sit in one folder.
//!
//! `prep --reroll ADDRESS` writes the item's new reroll count into the
//! session file's `[rerolls]` table with `toml_edit`, so the GM's comments
//! and layout stay as they were.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::session::MAX_REROLLS;
use super::{Step, from_toml, locate};
use crate::error::Error;

/// Version of the bundle's own layout.
/// 2: the paper left out (format 1 carried it; its `paper` key is still
/// read, and ignored).
pub(crate) const BUNDLE_FORMAT: u32 = 2;

/// Everything a pack is made from, in one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Bundle {
    /// The seed the pack was made with (from `--seed`, the session file,
    /// or chosen fresh).
    pub seed: String,
    /// Bundles of format 1 named the paper (`a4` or `letter`); it is
    /// checked and ignored, and never written (`--paper` chooses it).
    #[serde(default, skip_serializing)]
    pub paper: Option<String>,
    pub ink_saver: bool,
    /// What made the bundle.
    pub tablewright: Stamp,
    /// The session file, as written (its name as given to `prep`); a
    /// campaign's bundle has none (its plans are in `campaign`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<Carried>,
    /// The party file the session names, unless its party is a summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<Carried>,
    /// Every `--content` table file, in loading order, with its layer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub content: Vec<CarriedTables>,
    /// Every template that replaces a built-in one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub templates: Vec<Carried>,
    /// A campaign: its files, and which session's pack this is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<CarriedCampaign>,
}

/// A campaign in a bundle: `campaign.toml`, each session's plan and
/// record (named as in the folder: `sessions/2/plan.toml`), and the
/// session whose pack this is (none in `share`'s bundle of the whole
/// campaign: `prep BUNDLE N` makes any session's pack).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedCampaign {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<usize>,
    pub files: Vec<Carried>,
}

/// The tool that made a bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Stamp {
    /// [`BUNDLE_FORMAT`].
    pub bundle: u32,
    /// The tool's version.
    pub version: String,
    /// The output format ([`crate::handouts::FORMAT`]).
    pub format: u32,
    /// The tables hash (built in and `--content`).
    pub tables: String,
}

/// A file carried whole: its name and text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Carried {
    pub name: String,
    pub text: String,
}

/// A table file carried whole, with the `--content` layer it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedTables {
    pub name: String,
    pub layer: usize,
    pub text: String,
}

const HEADER: &str = "# A tablewright bundle: everything this pack is made from, in one file.\n\
# `tablewright prep bundle.toml` rebuilds the pack byte for byte with the\n\
# same tool version; `tablewright verify DIR` checks a pack folder against it.\n\n";

impl Bundle {
    /// The bundle as a file: a header comment, then TOML.
    pub(crate) fn to_text(&self) -> String {
        let body = toml::to_string(self).expect("a bundle serializes");
        format!("{HEADER}{body}")
    }

    /// A short hash of the bundle's text, printed on the pack-wide files.
    pub(crate) fn short_hash(&self) -> String {
        format!(
            "{:08x}",
            crate::hash::short(self.to_text().as_bytes()) as u32
        )
    }
}

/// Whether a file's text is a bundle rather than a session file.
pub(crate) fn is_bundle(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.contains_key("tablewright"))
}

/// A bundle's text, read and checked.
pub(crate) fn bundle_from_text(path: &Path, text: &str) -> Result<Bundle, Error> {
    from_toml(path, text, "bundle")
}

/// The session file's text with one more reroll for each address in
/// `bump` (in `[rerolls]`, made at the end if missing), everything else
/// kept as written — its line endings too (a CRLF file stays CRLF). A
/// count already at [`MAX_REROLLS`] is refused, with its line in the
/// file as it is.
pub(crate) fn with_rerolls(text: &str, bump: &[String]) -> Result<String, String> {
    // Read once, not once per address: a command line may ask thousands.
    let parsed = text.parse::<toml::Table>().ok();
    for address in bump {
        let now = parsed
            .as_ref()
            .and_then(|t| t.get("rerolls")?.get(address)?.as_integer());
        let at = || locate(text, &[Step::Key("rerolls"), Step::Key(address)]);
        if let Some(now) = now.filter(|&n| n >= i64::from(MAX_REROLLS))
            && let Some((line, _, _)) = at()
        {
            return Err(format!(
                "line {line}: `{address}` = {now} in [rerolls]: an item is rerolled at most {MAX_REROLLS} times; \
                 take its line out of [rerolls] to start it again from the first draw"
            ));
        }
    }
    let crlf = text.contains("\r\n");
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| format!("{e}"))?;
    if !doc.contains_key("rerolls") {
        doc.insert("rerolls", toml_edit::Item::Table(toml_edit::Table::new()));
    }
    let table = doc["rerolls"].as_table_like_mut().ok_or(
        "`rerolls` is not a table; write it as [rerolls] with lines like \"encounter/2\" = 1",
    )?;
    for address in bump {
        let now = table.get(address).and_then(|v| v.as_integer()).unwrap_or(0);
        table.insert(address, toml_edit::value(now + 1));
    }
    let edited = doc.to_string();
    if crlf {
        // toml_edit writes the lines it adds with `\n`; the file's own
        // convention wins.
        return Ok(edited.replace("\r\n", "\n").replace('\n', "\r\n"));
    }
    Ok(edited)
}

/// The session file's text without its `[rerolls]` (`None` if it does
/// not read as TOML): two sessions equal but for their rerolls make packs
/// that differ only in the rerolled items.
pub(crate) fn without_rerolls(text: &str) -> Option<String> {
    let mut doc: toml_edit::DocumentMut = text.parse().ok()?;
    doc.remove("rerolls");
    Some(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rerolls_are_written_in_place_keeping_comments() {
        let text = "# my session\ntitle = \"x\" # the title\nparty = \"3,3\"\n\n[map]\nstops = 5 # small\n";
        let once = with_rerolls(text, &["encounter/2".into()]).unwrap();
        assert!(once.starts_with(text), "{once}");
        assert!(once.ends_with("[rerolls]\n\"encounter/2\" = 1\n"), "{once}");
        let twice = with_rerolls(&once, &["encounter/2".into(), "npc/1".into()]).unwrap();
        assert!(twice.contains("\"encounter/2\" = 2"), "{twice}");
        assert!(twice.contains("\"npc/1\" = 1"), "{twice}");
        assert!(twice.contains("# small"));
        let inline = "party = \"3,3\"\nrerolls = { \"trap/1\" = 4 }\n";
        let got = with_rerolls(inline, &["trap/1".into()]).unwrap();
        assert!(got.contains("\"trap/1\" = 5"), "{got}");
        assert!(with_rerolls("rerolls = 3\n", &["trap/1".into()]).is_err());
    }

    #[test]
    fn finding_13_crlf_session_kept_on_reroll() {
        let text = "title = \"x\"\r\nparty = \"3,3\"\r\n";
        let once = with_rerolls(text, &["npc/1".into()]).unwrap();
        assert_eq!(
            once,
            "title = \"x\"\r\nparty = \"3,3\"\r\n\r\n[rerolls]\r\n\"npc/1\" = 1\r\n"
        );
        let twice = with_rerolls(&once, &["npc/1".into()]).unwrap();
        assert_eq!(twice, once.replace("= 1", "= 2"));
    }

    #[test]
    fn finding_13_reroll_limit_points_at_the_line_in_the_file() {
        let text = format!("title = \"x\"\n\n[rerolls]\n\"npc/1\" = {MAX_REROLLS}\n");
        let e = with_rerolls(&text, &["npc/1".into()]).unwrap_err();
        assert!(e.starts_with("line 4: `npc/1` = 10000 in [rerolls]"), "{e}");
        assert!(with_rerolls(&text, &["npc/2".into()]).is_ok());
    }

    #[test]
    fn a_bundle_round_trips_to_the_same_text() {
        let b = Bundle {
            seed: "s".into(),
            paper: None,
            ink_saver: false,
            tablewright: Stamp {
                bundle: BUNDLE_FORMAT,
                version: "0".into(),
                format: 1,
                tables: "abc".into(),
            },
            session: Some(Carried {
                name: "session.toml".into(),
                text: "# a \"quoted\" comment\nparty = '3,3'\n\ttab = 1\n".into(),
            }),
            party: None,
            content: vec![CarriedTables {
                name: "t.toml".into(),
                layer: 1,
                text: "[[table]]\nid = \"x\"\n".into(),
            }],
            templates: Vec::new(),
            campaign: None,
        };
        let text = b.to_text();
        assert!(is_bundle(&text));
        let back = bundle_from_text(Path::new("b.toml"), &text).unwrap();
        assert_eq!(back, b);
        assert_eq!(back.to_text(), text);
        assert!(!is_bundle("party = \"3,3\"\n"));
    }
}
