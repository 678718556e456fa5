//! The TOML shape of a table file, exactly as a GM writes it (see
//! the guide's Table format chapter (`docs/src/table-format.md`)). Every struct denies unknown keys, and the fields a
//! message may point at keep their byte span.

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// One `.toml` file: any number of `[[table]]`s.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileRaw {
    #[serde(default)]
    pub table: Vec<Spanned<TableRaw>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    Mettle,
    Core,
    Acs,
    Cp,
    Any,
}

impl System {
    pub fn as_str(self) -> &'static str {
        match self {
            System::Mettle => "mettle",
            System::Core => "core",
            System::Acs => "acs",
            System::Cp => "cp",
            System::Any => "any",
        }
    }
}

/// A `[[table]]`: a table of its own (`id`, with `title`, `system` and
/// `source`) or an extension of another (`extends`, whose rows are added to
/// that table's, a row with the name of one of its rows replacing it).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRaw {
    pub id: Option<Spanned<String>>,
    pub extends: Option<Spanned<String>>,
    pub title: Option<String>,
    pub system: Option<System>,
    pub source: Option<String>,
    pub dice: Option<Spanned<String>>,
    pub notes: Option<String>,
    #[serde(default)]
    pub deck: bool,
    /// A roll on this table from another row gives the row's text alone,
    /// not `Name: text` (as other tools' generators read a call).
    #[serde(default)]
    pub text_only: bool,
    /// What the generators need of a region (`gen.encounter.<region>` only).
    pub region: Option<Spanned<RegionRaw>>,
    #[serde(default)]
    pub row: Vec<Spanned<RowRaw>>,
}

/// A region's properties as written under `[table.region]` (every key
/// optional; see the guide's Table format chapter (`docs/src/table-format.md`) for the defaults).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionRaw {
    pub danger: Option<Spanned<i64>>,
    pub forage: Option<Spanned<Vec<String>>>,
    pub water: Option<bool>,
    pub encounter_chance: Option<Spanned<String>>,
    pub places: Option<Spanned<String>>,
    pub setting: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowRaw {
    pub roll: Option<Spanned<String>>,
    pub weight: Option<Spanned<i64>>,
    pub name: String,
    pub text: Spanned<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    pub reroll: Option<Spanned<i64>>,
    #[serde(default)]
    pub distinct: bool,
    #[serde(default)]
    pub effects: Vec<Spanned<Effect>>,
    /// Boxed: most rows have none, and a row read is small without it.
    pub stats: Option<Box<Spanned<Stats>>>,
}

/// A text of a table row's effects and stats: borrowed from the binary
/// for a built-in table read from its compact form (no copy to make or
/// free), owned for one read from a file.
pub type Text = std::borrow::Cow<'static, str>;

/// An optional [`Text`] as a `String` of its own.
pub fn owned(text: &Option<Text>) -> Option<String> {
    text.as_deref().map(str::to_owned)
}

/// Structured data a generator applies. All keys optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ability: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lasts: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Text>,
    #[serde(rename = "trait", skip_serializing_if = "Option::is_none")]
    pub trait_: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omens_max: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reroll_if_zero: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direct: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armour: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hazard: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modifier: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub soak: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raise: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rations: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perishable: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_damage: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

/// An NPC archetype's stat template.
#[allow(non_snake_case)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub NATURE: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CULTURE: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub POISE: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub MOTIVE: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub FRAME: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub STR: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub AGI: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub WIT: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armor: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weapon: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dm: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<Text>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub callings: Vec<Text>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<Text>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omens: Option<i64>,
}

/// Keys each level of a file may use, for reporting every unknown key at
/// once (serde stops at the first).
pub const FILE_KEYS: &[&str] = &["table"];
pub const TABLE_KEYS: &[&str] = &[
    "id",
    "extends",
    "title",
    "system",
    "source",
    "dice",
    "notes",
    "deck",
    "text_only",
    "region",
    "row",
];
pub const REGION_KEYS: &[&str] = &[
    "danger",
    "forage",
    "water",
    "encounter_chance",
    "places",
    "setting",
];
pub const ROW_KEYS: &[&str] = &[
    "roll", "weight", "name", "text", "tags", "reroll", "distinct", "effects", "stats",
];
pub const EFFECT_KEYS: &[&str] = &[
    "ability",
    "change",
    "lasts",
    "max",
    "condition",
    "status",
    "trait",
    "skill",
    "omens_max",
    "reroll_if_zero",
    "damage",
    "direct",
    "armour",
    "hazard",
    "per",
    "cap",
    "vs",
    "difficulty",
    "modifier",
    "soak",
    "interval",
    "duration",
    "raise",
    "rations",
    "perishable",
    "needs",
    "save",
    "min_damage",
    "chance",
    "value",
];
pub const STATS_KEYS: &[&str] = &[
    "NATURE", "CULTURE", "POISE", "MOTIVE", "FRAME", "STR", "AGI", "WIT", "armor", "weapon", "dm",
    "damage", "callings", "skills", "traits", "omens",
];
