//! The TOML shape of a table file, exactly as a GM writes it (see
//! the guide's Table format chapter (`docs/src/table-format.md`)). Every struct denies unknown keys, and the fields a
//! message may point at keep their byte span.

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// One `.toml` file: any number of `[[table]]`s.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileRaw {
    /// The file's `[[table]]`s, in file order.
    #[serde(default)]
    pub table: Vec<Spanned<TableRaw>>,
}

/// The rules a table is written for (`system = …`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    /// METTLE Core.
    Mettle,
    /// The d20 Core Rules.
    Core,
    /// ACS terrain cards.
    Acs,
    /// The status/control (CP) chapter.
    Cp,
    /// Not tied to one system.
    Any,
}

impl System {
    /// The name as a table file writes it (`mettle`, `core`, …).
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
    /// The table's id (lowercase, dotted); absent in an extension.
    pub id: Option<Spanned<String>>,
    /// The id of the table this one adds rows to, instead of an `id`.
    pub extends: Option<Spanned<String>>,
    /// The title shown to the GM.
    pub title: Option<String>,
    /// The rules the table is for.
    pub system: Option<System>,
    /// Where in the rules the table comes from.
    pub source: Option<String>,
    /// The roll that picks a row (`d12`, `2d6`, `d66`); absent for a weighted
    /// table.
    pub dice: Option<Spanned<String>>,
    /// How an unclear rule is read, shown to the GM.
    pub notes: Option<String>,
    /// Draw without replacement within one generation.
    #[serde(default)]
    pub deck: bool,
    /// A roll on this table from another row gives the row's text alone,
    /// not `Name: text` (as other tools' generators read a call).
    #[serde(default)]
    pub text_only: bool,
    /// What the generators need of a region (`gen.encounter.<region>` only).
    pub region: Option<Spanned<RegionRaw>>,
    /// The rows, in file order.
    #[serde(default)]
    pub row: Vec<Spanned<RowRaw>>,
}

/// A region's properties as written under `[table.region]` (every key
/// optional; see the guide's Table format chapter (`docs/src/table-format.md`) for the defaults).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionRaw {
    /// 0-3: Difficulty rungs the land adds to a map path.
    pub danger: Option<Spanned<i64>>,
    /// What a forager can find there (`vegetation`, `small game`, `big game`).
    pub forage: Option<Spanned<Vec<String>>>,
    /// A body of water is there (fish, the forager's water).
    pub water: Option<bool>,
    /// A Core Rules journey's chance of an encounter each travelling watch
    /// (`1:6`).
    pub encounter_chance: Option<Spanned<String>>,
    /// The `gen.poi` tag the region's map stops are drawn from.
    pub places: Option<Spanned<String>>,
    /// `wild`, `settled` or `indoor`: what an encounter there stands in.
    pub setting: Option<Spanned<String>>,
}

/// A `[[table.row]]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowRaw {
    /// The face or range that picks the row (`3`, `13-14`), on a ranged table.
    pub roll: Option<Spanned<String>>,
    /// The row's weight (a positive integer), on a weighted table.
    pub weight: Option<Spanned<i64>>,
    /// A short label.
    pub name: String,
    /// The row's text, with inline dice, picks and table calls.
    pub text: Spanned<String>,
    /// Tags the generators filter by (terrain, region, kind, `era:<name>`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Roll this many times on the table instead of taking the row.
    pub reroll: Option<Spanned<i64>>,
    /// With `reroll`: the rolls must give different rows.
    #[serde(default)]
    pub distinct: bool,
    /// Structured data the generators apply.
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
    /// The ability or attribute changed (`STR`, `NATURE`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ability: Option<Text>,
    /// What is applied to `ability`: signed dice or a number (`-d4`, `+1`), or
    /// `halve`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Text>,
    /// How long the change lasts (`instant`, `scene`, `until full rest`,
    /// `permanent`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lasts: Option<Text>,
    /// The ceiling an increase may reach.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// A Core Rules condition gained.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<Text>,
    /// A METTLE status gained.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Text>,
    /// A trait gained (the key `trait`).
    #[serde(rename = "trait", skip_serializing_if = "Option::is_none")]
    pub trait_: Option<Text>,
    /// A skill gained.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<Text>,
    /// A change to maximum omens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omens_max: Option<i64>,
    /// Reroll the result if the value is already 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reroll_if_zero: Option<bool>,
    /// A damage roll (`d6`, `d6!`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<Text>,
    /// The damage ignores armour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direct: Option<bool>,
    /// An armour value (Core, at most 3) or Armor (METTLE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armour: Option<i64>,
    /// A METTLE hazard as Pool+Bonus (`3D+3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hazard: Option<Text>,
    /// The unit the hazard counts per (`metre`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per: Option<Text>,
    /// The largest the hazard gets (`15D+15`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<Text>,
    /// The attribute the hazard or trap checks against (`POISE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs: Option<Text>,
    /// A Difficulty (0 or more).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<i64>,
    /// A modifier to a roll or a Difficulty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modifier: Option<i64>,
    /// What soaks the harm (`FRAME`, `POISE`, `none`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub soak: Option<Text>,
    /// How often an ongoing effect checks (`round`, `hour`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<Text>,
    /// How long it lasts, in words (`1 round`, `until healed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<Text>,
    /// What a raise adds (ACS wound effects).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raise: Option<Text>,
    /// Rations found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rations: Option<i64>,
    /// The rations found spoil unless eaten at the next daily rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perishable: Option<bool>,
    /// What the result needs (`fishing kit`, `body of water`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<Text>,
    /// The ability of the save the result asks for (`WIT`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save: Option<Text>,
    /// The least a damage roll must reach.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_damage: Option<i64>,
    /// An x:y chance (`1:8`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<Text>,
    /// The number a reference row stands for (a range band, a Pace, a card
    /// rank).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

/// An NPC archetype's stat template.
#[allow(non_snake_case)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// METTLE NATURE, as a pool range (`2-4`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub NATURE: Option<Text>,
    /// METTLE CULTURE, as a pool range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CULTURE: Option<Text>,
    /// METTLE POISE, as a pool range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub POISE: Option<Text>,
    /// METTLE MOTIVE, as a pool range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub MOTIVE: Option<Text>,
    /// METTLE FRAME, as a pool range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub FRAME: Option<Text>,
    /// Core Rules STR, as a score range (`8-12`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub STR: Option<Text>,
    /// Core Rules AGI, as a score range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub AGI: Option<Text>,
    /// Core Rules WIT, as a score range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub WIT: Option<Text>,
    /// Armor (METTLE) or armour (Core Rules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armor: Option<i64>,
    /// The weapon's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weapon: Option<Text>,
    /// The METTLE weapon's Damage Modifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dm: Option<i64>,
    /// The Core Rules weapon's damage die (`d6`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<Text>,
    /// METTLE CALLINGs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub callings: Vec<Text>,
    /// Core Rules skills.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<Text>,
    /// Traits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<Text>,
    /// Core Rules omens, 0-2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omens: Option<i64>,
}

/// Keys each level of a file may use, for reporting every unknown key at
/// once (serde stops at the first): the file's.
pub(crate) const FILE_KEYS: &[&str] = &["table"];
/// A `[[table]]`'s keys.
pub(crate) const TABLE_KEYS: &[&str] = &[
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
/// A `[table.region]`'s keys.
pub(crate) const REGION_KEYS: &[&str] = &[
    "danger",
    "forage",
    "water",
    "encounter_chance",
    "places",
    "setting",
];
/// A `[[table.row]]`'s keys.
pub(crate) const ROW_KEYS: &[&str] = &[
    "roll", "weight", "name", "text", "tags", "reroll", "distinct", "effects", "stats",
];
/// An effect's keys.
pub(crate) const EFFECT_KEYS: &[&str] = &[
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
/// A row's `stats` keys.
pub(crate) const STATS_KEYS: &[&str] = &[
    "NATURE", "CULTURE", "POISE", "MOTIVE", "FRAME", "STR", "AGI", "WIT", "armor", "weapon", "dm",
    "damage", "callings", "skills", "traits", "omens",
];
