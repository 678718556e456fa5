//! Markdown handouts through tera 2 (with `preserve_order`, so maps keep
//! their order). The built-in templates (`templates/*.tera`) are
//! embedded in the binary; a file of the same name in the template folder
//! in effect (`--templates DIR`, a session's or campaign's `templates`)
//! replaces one, unless it has the built-in one's very bytes. This module is
//! the only reader of template folders.
//!
//! A user's template is bounded (`budget`): at most 1,000,000 numbers from
//! `range` and 16 MiB of output per rendering, counted, not timed; no
//! `set_global`; a template file that replaces no built-in one is refused.
//!
//! Escaping is on by default in every Markdown template: whatever a
//! template prints with `{{ … }}` goes through
//! [`crate::wording::markup::escape_md`] (so a PC's name, a table row's
//! text, an NPC or place name, a title or a shared file's words read as
//! themselves in GFM, Obsidian and Homebrewery alike), except the values
//! the code made as Markdown itself, with every name in them escaped
//! (the share line, stat rows, weapon lines, the parts of `pack.md`),
//! which go in as [`markdown`] values, and what a template marks `| safe`.
//!
//! Filters for templates: `md` (the same escape, written out; kept so
//! that older templates read the same: it never escapes twice), `pct`
//! (a chance as `69.68%`), `fixed2` (two decimals).

use std::path::Path;

use tera::{Context, Kwargs, State, StringInput, Tera, Value};

use crate::wording::markup::escape_md;

mod budget;

mod builtin {
    include!(concat!(env!("OUT_DIR"), "/builtin_templates.rs"));
}

#[derive(Debug)]
pub struct TemplateError(pub String);

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

/// `md`: escaped once; a value already escaped (safe) as it is.
fn md(val: StringInput, _: Kwargs, _: &State) -> Value {
    match val.is_safe() {
        true => val.into_value(),
        false => Value::safe_string(&escape_md(val.as_str())),
    }
}

fn pct(val: f64, _: Kwargs, _: &State) -> Value {
    Value::safe_string(&crate::wording::lines::percent(val))
}

/// A number to two decimals; `∞` where it is not finite (a threat ratio
/// where the party cannot hurt the foes).
fn fixed2(val: f64, _: Kwargs, _: &State) -> Value {
    if val.is_finite() {
        Value::safe_string(&format!("{val:.2}"))
    } else {
        Value::safe_string("∞")
    }
}

/// The escape every Markdown template applies by default.
fn escape(text: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    out.write_all(escape_md(text).as_bytes())
}

/// A value the code made as Markdown, with every name in it escaped
/// already: the templates print its strings as they are.
pub(crate) fn markdown<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    fn safe(v: Value) -> Value {
        if v.is_string() {
            v.mark_safe()
        } else if let Some(items) = v.as_array() {
            Value::from(items.iter().cloned().map(safe).collect::<Vec<_>>())
        } else if v.is_map() {
            let map = v.into_map().expect("a map");
            Value::from(
                map.into_iter()
                    .map(|(k, v)| (k, safe(v)))
                    .collect::<tera::value::Map>(),
            )
        } else {
            v
        }
    }
    safe(Value::from_serializable(value))
}

/// The template engine with our filters and the templates in effect.
pub struct Templates {
    tera: Tera,
    /// Template name → where it came from (`built in` or a path).
    pub origins: Vec<(String, String)>,
    /// The words cards and slips print (`wording.toml.tera`), read once
    /// for the PDF and the Markdown alike.
    pub wording: Wording,
}

/// The words the sheets and cards print — headings, card labels, the
/// voucher cards and the injury and mutation slips — from the template
/// `wording.toml` (TOML, overridable like any template): the PDF and the
/// Markdown templates (as `w`) both read them, so a GM's words reach every
/// output.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Wording {
    pub sheet: SheetWords,
    pub npc: NpcWords,
    pub trap: TrapWords,
    pub voucher: VoucherWords,
    pub slip: SlipWords,
}

/// The sheets' headings (run sheet, encounter sheets, maps, journey log).
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SheetWords {
    /// `Contents`, `The party`, `Encounters`, `Journey`, `Initiative
    /// ladder`: the run sheet's headings.
    pub contents: String,
    pub party: String,
    pub encounters: String,
    pub journey: String,
    pub initiative: String,
    /// `Notes`, over the note lines of the run and encounter sheets.
    pub notes: String,
    /// `Encounter` (`Encounter 1: The offering`), `Foes`, `Zones`
    /// (`Zones (quick zones)`), `Odds of one attack (exact)`.
    pub encounter: String,
    pub foes: String,
    pub zones: String,
    pub odds: String,
    /// `Point-crawl map`, and `players` (`Point-crawl map (players)`).
    pub map: String,
    pub players: String,
    /// `Journey log` (`Journey log: A → B`), `Log` over its lines.
    pub journey_log: String,
    pub log: String,
    /// `Twist` and `If nobody acts`: the labels of an encounter's twist
    /// and ending (a wording file written before these keys reads the
    /// defaults).
    #[serde(default = "twist_word")]
    pub twist: String,
    #[serde(default = "ending_word")]
    pub ending: String,
    /// `Returning`: someone the party met before, come back into an
    /// encounter of a campaign.
    #[serde(default = "returning_word")]
    pub returning: String,
    /// `Spoils`: what an encounter's foes leave behind.
    #[serde(default = "spoils_word")]
    pub spoils: String,
    /// `Weather`: the weather an encounter meets.
    #[serde(default = "weather_word")]
    pub weather: String,
    /// `Conditions`: what an encounter below ground meets instead of
    /// weather (bad air, dripping water), the same in every season.
    #[serde(default = "conditions_word")]
    pub conditions: String,
    /// `continued`: the heading of an encounter sheet's second page, for
    /// the few sheets that cannot fit one (`Encounter 3: Toad cavalry
    /// (continued)`).
    #[serde(default = "continued_word")]
    pub continued: String,
}

fn weather_word() -> String {
    "Weather".into()
}

fn conditions_word() -> String {
    "Conditions".into()
}

fn continued_word() -> String {
    "continued".into()
}

fn spoils_word() -> String {
    "Spoils".into()
}

fn twist_word() -> String {
    "Twist".into()
}

fn returning_word() -> String {
    "Returning".into()
}

fn ending_word() -> String {
    "If nobody acts".into()
}

/// An NPC card's labels.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct NpcWords {
    /// `NPC cards`, the card sheet's bookmark.
    pub group: String,
    pub weapons: String,
    pub callings: String,
    pub attack: String,
    pub skills: String,
    pub traits: String,
    pub notes: String,
    /// `Wants`, `Secret`, `Manner`, `Look`: a person's four traits (a
    /// wording file written before these keys reads the defaults).
    #[serde(default = "want_word")]
    pub want: String,
    #[serde(default = "secret_word")]
    pub secret: String,
    #[serde(default = "manner_word")]
    pub manner: String,
    #[serde(default = "look_word")]
    pub look: String,
}

fn want_word() -> String {
    "Wants".into()
}

fn secret_word() -> String {
    "Secret".into()
}

fn manner_word() -> String {
    "Manner".into()
}

fn look_word() -> String {
    "Look".into()
}

impl NpcWords {
    /// The label of a trait as [`crate::generators::traits::Traits::lines`]
    /// names it (`Wants`, `Secret`, `Manner`, `Look`), in the GM's words.
    pub(crate) fn trait_label(&self, label: &str) -> String {
        match label {
            "Wants" => self.want.clone(),
            "Secret" => self.secret.clone(),
            "Manner" => self.manner.clone(),
            "Look" => self.look.clone(),
            other => other.to_owned(),
        }
    }
}

/// A trap card's labels.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct TrapWords {
    /// `Trap cards`, the card sheet's bookmark.
    pub group: String,
    /// `Trap`: the card's kind line and the handout's heading.
    pub kind: String,
    /// `Set in`: the terrain the trap is set in (a wording file written
    /// before this key reads the default).
    #[serde(default = "set_in_word")]
    pub set_in: String,
    pub trigger: String,
    pub clue: String,
    pub effect: String,
    /// `Disarm`: how to find, disarm, bypass or reset it (a wording file
    /// written before this key reads the default).
    #[serde(default = "disarm_word")]
    pub disarm: String,
    pub roll: String,
    pub mean_damage: String,
    /// `Fit`: how the trap fits the party it was made for (a wording file
    /// written before this key reads the default).
    #[serde(default = "fit_word")]
    pub fit: String,
}

fn set_in_word() -> String {
    "Set in".into()
}

fn fit_word() -> String {
    "Fit".into()
}

fn disarm_word() -> String {
    "Disarm".into()
}

/// A downtime voucher's words.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct VoucherWords {
    /// `Downtime voucher` (the card's title, the handout's heading).
    pub title: String,
    /// `No.` before the serial number.
    pub number: String,
    /// `For`, before the holder.
    pub holder: String,
    /// `Spent on`, the line to write in.
    pub spent: String,
    /// `Downtime vouchers`, over them all.
    pub group: String,
}

/// An injury or mutation slip's words.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SlipWords {
    pub injury: String,
    pub permanent: String,
    pub mutation: String,
    /// `Given to`, the line to write in.
    pub given: String,
    /// Once `Rolled`, before the dice trail on the PDF slip; the slips no
    /// longer print the trail (it is the GM's, in `pack.md`). Kept, and
    /// read if present, so that a wording file written before still loads.
    #[serde(default)]
    pub rolled: String,
    /// `Injury and mutation slips`, over them all.
    pub group: String,
}

impl Wording {
    /// The built-in words (the template as shipped).
    pub fn builtin() -> Wording {
        Templates::load(None)
            .expect("the built-in templates load")
            .wording
    }
}

impl Templates {
    /// Built-in templates, each replaced by a same-named file in `dir`.
    /// The built-in templates, (file name, text), in their order.
    pub(crate) fn builtin() -> impl Iterator<Item = (&'static str, &'static str)> {
        builtin::TEMPLATES.iter().copied()
    }

    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        Self::with_overrides(&Self::overrides(dir)?, None)
    }

    /// The files in `dir` that replace a built-in template: (name, text,
    /// path), in the built-in order.
    pub fn overrides(dir: Option<&Path>) -> Result<Vec<(String, String, String)>, TemplateError> {
        if let Some(d) = dir
            && !d.is_dir()
        {
            return Err(TemplateError(format!(
                "--templates {}: not a folder of .tera files",
                d.display()
            )));
        }
        let mut out = Vec::new();
        if let Some(d) = dir {
            strays(d)?;
        }
        for (name, builtin_text) in builtin::TEMPLATES {
            let name = name.trim_end_matches(".tera");
            // Anything at the name (a link to nowhere, a device, a pipe) is
            // read, and refused, rather than silently passed over.
            if let Some(path) = dir.map(|d| d.join(format!("{name}.tera")))
                && path.symlink_metadata().is_ok()
            {
                let t = budget::read_template(&path)?;
                // A copy left as it is (`templates --to`, `init`) is no
                // override: the pack and its bundle stay as without it.
                if t != *builtin_text {
                    out.push((name.to_owned(), t, path.display().to_string()));
                }
            }
        }
        Ok(out)
    }

    /// Built-in templates, each replaced by the override of the same name
    /// (name, text, origin); `origin` names where all of them came from
    /// instead (`a bundle`), when given.
    pub fn with_overrides(
        overrides: &[(String, String, String)],
        origin: Option<&str>,
    ) -> Result<Templates, TemplateError> {
        let mut tera = Tera::new();
        // Every Markdown template escapes what it prints ([`escape`]);
        // `wording.toml` is not Markdown.
        tera.autoescape_on([".md"]);
        tera.set_escape_fn(escape);
        tera.register_filter("md", md);
        tera.register_filter("pct", pct);
        tera.register_filter("fixed2", fixed2);
        tera.register_function("range", budget::range);
        let mut origins = Vec::new();
        for (name, text) in builtin::TEMPLATES {
            let name = name.trim_end_matches(".tera");
            let (text, origin) = match overrides.iter().find(|o| o.0 == name) {
                Some((_, t, path)) => (t.as_str(), origin.unwrap_or(path).to_owned()),
                None => (*text, "built in".to_owned()),
            };
            tera.add_raw_template(name, text).map_err(|e| {
                TemplateError(format!(
                    "the template `{name}` ({origin}) does not parse: {e}"
                ))
            })?;
            origins.push((name.to_owned(), origin));
        }
        let wording = wording(&tera, &origins)?;
        Ok(Templates {
            tera,
            origins,
            wording,
        })
    }

    /// Render a template with a context.
    pub fn render(&self, name: &str, context: &Context) -> Result<String, TemplateError> {
        budget::render(&self.tera, name, context)
    }
}

/// The template `wording.toml` rendered (it may use tera, with nothing
/// in its context) and read as TOML.
fn wording(tera: &Tera, origins: &[(String, String)]) -> Result<Wording, TemplateError> {
    const NAME: &str = "wording.toml";
    let text = budget::render(tera, NAME, &Context::new())?;
    toml::from_str(&text).map_err(|e| {
        let origin = origins
            .iter()
            .find(|(n, _)| n == NAME)
            .map_or("built in", |(_, o)| o.as_str());
        TemplateError(format!(
            "the template `{NAME}` ({origin}) is not the words it should hold: {e}"
        ))
    })
}

/// A templates folder may hold no `.tera` file named like no template: it
/// would replace nothing (`npcs.md.tera` is not `npc.md.tera`), so the
/// first such file is refused, with the closest name and the list.
fn strays(dir: &Path) -> Result<(), TemplateError> {
    let known: Vec<&str> = builtin::TEMPLATES.iter().map(|(n, _)| *n).collect();
    let mut strays: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| TemplateError(format!("--templates {}: {e}", dir.display())))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tera") && !known.contains(&n.as_str()))
        .collect();
    strays.sort();
    match strays.first() {
        None => Ok(()),
        Some(stray) => {
            let meant = crate::content::validate::closest(stray, known.iter().copied())
                .map(|k| format!("did you mean `{k}`? "))
                .unwrap_or_default();
            Err(TemplateError(format!(
                "{}: `{stray}` replaces no built-in template, so it would never be used; \
                 {meant}the templates are {}",
                dir.display(),
                known.join(", ")
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_templates_load() {
        let t = Templates::load(None).unwrap();
        assert!(
            t.origins
                .iter()
                .any(|(n, o)| n == "encounter.md" && o == "built in")
        );
    }
}
