//! An action from the GM's screen (or read back from a log line), its
//! shape checked: the word `do`, each argument present and of its type,
//! no other keys. Whether it fits the session (a PC, an address, a
//! serial that exists) is `perform`'s check.
//!
//! The enum is the one definition: serde's derive reads it (`decode`
//! shows it the JSON object, and names in each refusal the words and keys
//! it declares) and writes it back for the log line, each field's check
//! named in its `deserialize_with` (the functions of [`arg`]). A field
//! renamed is renamed in the JSON, the log and every message together.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decode;

/// What a push shows: an item's players' side, or a check's result.
/// Exactly one of its keys is given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum Shown {
    #[serde(rename = "address")]
    Item(#[serde(deserialize_with = "arg::text")] String),
    #[serde(rename = "k")]
    Check(#[serde(deserialize_with = "arg::count")] usize),
}

/// What a push given neither of [`Shown`]'s keys, or both, is told.
const PUSH_EITHER: &str = "`push` takes either `address` (an item) or `k` (a check)";

/// Every action of the GM's screen: `do` is the variant's name, the other
/// keys its fields. The log writes the fields in the order declared (an
/// `Option` only when it is `Some`), and a refusal names the first field
/// that is wrong in that order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum Action {
    Roll {
        #[serde(deserialize_with = "arg::text")]
        table: String,
    },
    Dice {
        #[serde(deserialize_with = "arg::text")]
        expr: String,
    },
    Check {
        #[serde(deserialize_with = "arg::text")]
        pc: String,
        #[serde(deserialize_with = "arg::text")]
        pool: String,
        #[serde(
            deserialize_with = "arg::difficulty",
            skip_serializing_if = "Option::is_none"
        )]
        difficulty: Option<u32>,
    },
    Twist {
        #[serde(deserialize_with = "arg::count")]
        k: usize,
    },
    Met {
        #[serde(deserialize_with = "arg::text")]
        address: String,
        /// Core Rules: the PC who took an injury or a mutation (the GM
        /// picks who; it goes to their record).
        #[serde(
            deserialize_with = "arg::opt_text",
            skip_serializing_if = "Option::is_none"
        )]
        pc: Option<String>,
    },
    Damage {
        #[serde(deserialize_with = "arg::text")]
        pc: String,
        #[serde(deserialize_with = "arg::whole")]
        amount: i64,
    },
    Status {
        #[serde(deserialize_with = "arg::text")]
        pc: String,
        #[serde(deserialize_with = "arg::text")]
        status: String,
        /// Given or cured (not given: given).
        #[serde(deserialize_with = "arg::flag_on")]
        on: bool,
    },
    Spend {
        #[serde(deserialize_with = "arg::text")]
        serial: String,
    },
    /// Core Rules: omens a PC spent (a re-roll, cheating death, a power).
    Omens {
        #[serde(deserialize_with = "arg::text")]
        pc: String,
        #[serde(deserialize_with = "arg::whole")]
        spent: i64,
    },
    /// Core Rules: corruption a PC gained (the ledger rolls its
    /// soulblight check when the record is read).
    Corruption {
        #[serde(deserialize_with = "arg::text")]
        pc: String,
        #[serde(deserialize_with = "arg::whole")]
        amount: i64,
    },
    Supplies {
        #[serde(deserialize_with = "arg::money")]
        money: i64,
        #[serde(deserialize_with = "arg::whole_or_0")]
        rations: i64,
        #[serde(deserialize_with = "arg::whole_or_0")]
        water: i64,
    },
    Arrive {
        #[serde(deserialize_with = "arg::text")]
        stop: String,
        #[serde(deserialize_with = "arg::day")]
        day: u32,
    },
    Heal {
        #[serde(deserialize_with = "arg::text")]
        pc: String,
        #[serde(deserialize_with = "arg::flag")]
        twist: bool,
    },
    Push(Shown),
    Tracker {
        #[serde(deserialize_with = "arg::text")]
        op: String,
        #[serde(
            deserialize_with = "arg::opt_text",
            skip_serializing_if = "Option::is_none"
        )]
        name: Option<String>,
        #[serde(
            deserialize_with = "arg::opt_whole",
            skip_serializing_if = "Option::is_none"
        )]
        now: Option<i64>,
    },
    Undo {
        #[serde(deserialize_with = "arg::count")]
        k: usize,
        /// Why the mark is struck (the GM's words, kept in the log).
        #[serde(
            deserialize_with = "arg::opt_text",
            skip_serializing_if = "Option::is_none"
        )]
        reason: Option<String>,
    },
}

impl Action {
    /// Whether it is a roll the GM's view shows among the last results (a
    /// table, dice, a Check, a Twist, a Heal Check).
    pub(crate) fn is_roll(&self) -> bool {
        matches!(
            self,
            Action::Roll { .. }
                | Action::Dice { .. }
                | Action::Check { .. }
                | Action::Twist { .. }
                | Action::Heal { .. }
        )
    }

    /// The action a JSON object says, its shape checked.
    pub(crate) fn from_json(v: &Value) -> Result<Action, String> {
        decode::object(v).map_err(|r| match r {
            decode::Refusal::Either => PUSH_EITHER.to_string(),
            r => r.to_string(),
        })
    }

    /// The word and the arguments, in the order the log writes them.
    pub(crate) fn args(&self) -> (String, Vec<(String, Value)>) {
        decode::entries(self)
    }
}

/// Each argument's check, as the enum's `deserialize_with` names it: the
/// value (absent, or null, is none) read and checked, or what is wrong
/// with it (`decode` puts the key's and the action's names before it).
mod arg {
    use serde::{Deserialize, Deserializer, de::Error};
    use serde_json::Value;

    /// Longest text an argument may be (a table id, a name, an expression).
    const MAX_TEXT: usize = 200;
    /// Largest number an argument may be, either way.
    const MAX_WHOLE: i64 = 1_000_000;

    /// A value that must be there (absent: `decode` says it is needed).
    fn needed<'de, D: Deserializer<'de>, T>(
        d: D,
        check: impl FnOnce(Value) -> Result<T, String>,
    ) -> Result<T, D::Error> {
        check(Value::deserialize(d)?).map_err(D::Error::custom)
    }

    /// A value that may be left out.
    fn optional<'de, D: Deserializer<'de>, T>(
        d: D,
        check: impl FnOnce(Value) -> Result<T, String>,
    ) -> Result<Option<T>, D::Error> {
        let v = Option::<Value>::deserialize(d)?;
        v.map(check).transpose().map_err(D::Error::custom)
    }

    /// One line of text, trimmed.
    fn one_line(v: Value) -> Result<String, String> {
        let Value::String(s) = v else {
            return Err("is text, in quotes".into());
        };
        let s = s.trim();
        if s.is_empty() || s.chars().count() > MAX_TEXT || s.chars().any(char::is_control) {
            return Err(format!("is one line of 1 to {MAX_TEXT} characters"));
        }
        Ok(s.to_owned())
    }

    fn whole_number(v: Value) -> Result<i64, String> {
        v.as_i64()
            .filter(|n| n.abs() <= MAX_WHOLE)
            .ok_or_else(|| "is a whole number (at most a million)".into())
    }

    fn boolean(v: Value) -> Result<bool, String> {
        v.as_bool().ok_or_else(|| "is true or false".into())
    }

    pub(super) fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        needed(d, one_line)
    }

    pub(super) fn opt_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        optional(d, one_line)
    }

    pub(super) fn whole<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        needed(d, whole_number)
    }

    pub(super) fn opt_whole<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        optional(d, whole_number)
    }

    pub(super) fn whole_or_0<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        Ok(optional(d, whole_number)?.unwrap_or(0))
    }

    /// An action's number (`k`), from 1.
    pub(super) fn count<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
        needed(d, |v| {
            let n = whole_number(v)?;
            usize::try_from(n)
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| "is an action's number, from 1".into())
        })
    }

    /// True or false; not given, false.
    pub(super) fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        Ok(optional(d, boolean)?.unwrap_or(false))
    }

    /// True or false; not given, true.
    pub(super) fn flag_on<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        Ok(optional(d, boolean)?.unwrap_or(true))
    }

    pub(super) fn difficulty<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        optional(d, |v| {
            u32::try_from(whole_number(v)?)
                .ok()
                .filter(|&d| d <= 99)
                .ok_or_else(|| "is a whole number from 0 to 99".into())
        })
    }

    pub(super) fn day<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        needed(d, |v| {
            u32::try_from(whole_number(v)?)
                .ok()
                .filter(|&d| d >= 1)
                .ok_or_else(|| "is a day of the campaign, from 1".into())
        })
    }

    /// Money as a number of shillings, or text such as `-5s` or `+12ʂ`;
    /// not given, 0.
    pub(super) fn money<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        Ok(optional(d, shillings)?.unwrap_or(0))
    }

    fn shillings(v: Value) -> Result<i64, String> {
        let Value::String(s) = &v else {
            return whole_number(v);
        };
        let t = s.trim().trim_end_matches(['s', 'ʂ']).trim();
        t.strip_prefix('+')
            .unwrap_or(t)
            .parse::<i64>()
            .ok()
            .filter(|n| n.abs() <= MAX_WHOLE)
            .ok_or_else(|| format!("is shillings, such as -5 or \"-5s\" (it is `{s}`)"))
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every kind of bad shape, each message exact (the guide and the GM's
    /// screen say them): the first fault found is named, in the order the
    /// enum declares its fields.
    #[test]
    fn every_bad_shape_is_said_exactly() {
        let all = "roll, dice, check, twist, met, damage, status, spend, omens, corruption, \
                   supplies, arrive, heal, push, tracker, undo";
        let cases = [
            (
                json!("roll"),
                "an action is a JSON object with `do` (`{\"do\":\"dice\",\"expr\":\"2d6\"}`)"
                    .to_string(),
            ),
            (
                json!([]),
                "an action is a JSON object with `do` (`{\"do\":\"dice\",\"expr\":\"2d6\"}`)"
                    .into(),
            ),
            (json!({}), format!("`do` must be one of: {all} (it is ``)")),
            (
                json!({"do": 3}),
                format!("`do` must be one of: {all} (it is ``)"),
            ),
            (
                json!({"do": "Roll"}),
                format!("`do` must be one of: {all} (it is `Roll`)"),
            ),
            (
                json!({"do": "met", "address": "a", "zz": 1, "aa": null}),
                "`met` takes address, pc, not `aa`".into(),
            ),
            (
                json!({"do": "damage", "pc": 3, "x": 1}),
                "`damage` takes pc, amount, not `x`".into(),
            ),
            (
                json!({"do": "push", "x": 1}),
                "`push` takes address or k, not `x`".into(),
            ),
            (
                json!({"do": "roll", "table": null}),
                "`roll` needs `table`".into(),
            ),
            (
                json!({"do": "roll", "table": 3}),
                "`table` of `roll` is text, in quotes".into(),
            ),
            (
                json!({"do": "roll", "table": " \n "}),
                "`table` of `roll` is one line of 1 to 200 characters".into(),
            ),
            (
                json!({"do": "roll", "table": "x".repeat(201)}),
                "`table` of `roll` is one line of 1 to 200 characters".into(),
            ),
            (
                json!({"do": "damage", "amount": "x"}),
                "`damage` needs `pc`".into(),
            ),
            (
                json!({"do": "damage", "pc": 3}),
                "`pc` of `damage` is text, in quotes".into(),
            ),
            (
                json!({"do": "damage", "pc": "Ada", "amount": 1.5}),
                "`amount` of `damage` is a whole number (at most a million)".into(),
            ),
            (
                json!({"do": "damage", "pc": "Ada", "amount": -1_000_001}),
                "`amount` of `damage` is a whole number (at most a million)".into(),
            ),
            (
                json!({"do": "twist", "k": -1}),
                "`k` of `twist` is an action's number, from 1".into(),
            ),
            (
                json!({"do": "undo", "k": "1"}),
                "`k` of `undo` is a whole number (at most a million)".into(),
            ),
            (
                json!({"do": "check", "pc": "Ada", "pool": "3D", "difficulty": 100}),
                "`difficulty` of `check` is a whole number from 0 to 99".into(),
            ),
            (
                json!({"do": "status", "pc": "Ada", "status": "x", "on": 1}),
                "`on` of `status` is true or false".into(),
            ),
            (
                json!({"do": "heal", "pc": "Ada", "twist": "no"}),
                "`twist` of `heal` is true or false".into(),
            ),
            (
                json!({"do": "supplies", "money": " lots ", "rations": 1.5}),
                "`money` of `supplies` is shillings, such as -5 or \"-5s\" (it is ` lots `)".into(),
            ),
            (
                json!({"do": "supplies", "money": true}),
                "`money` of `supplies` is a whole number (at most a million)".into(),
            ),
            (
                json!({"do": "supplies", "water": []}),
                "`water` of `supplies` is a whole number (at most a million)".into(),
            ),
            (
                json!({"do": "arrive", "stop": "x", "day": 0}),
                "`day` of `arrive` is a day of the campaign, from 1".into(),
            ),
            (
                json!({"do": "arrive", "stop": "x"}),
                "`arrive` needs `day`".into(),
            ),
            (json!({"do": "push"}), PUSH_EITHER.into()),
            (
                json!({"do": "push", "address": null, "k": null}),
                PUSH_EITHER.into(),
            ),
            (
                json!({"do": "push", "address": "a", "k": "x"}),
                PUSH_EITHER.into(),
            ),
            (
                json!({"do": "push", "address": "", "k": 1}),
                "`address` of `push` is one line of 1 to 200 characters".into(),
            ),
            (
                json!({"do": "push", "k": 0}),
                "`k` of `push` is an action's number, from 1".into(),
            ),
            (
                json!({"do": "tracker", "op": "set", "now": "x"}),
                "`now` of `tracker` is a whole number (at most a million)".into(),
            ),
            (
                json!({"do": "met", "address": "x", "pc": 7}),
                "`pc` of `met` is text, in quotes".into(),
            ),
        ];
        for (action, said) in cases {
            assert_eq!(Action::from_json(&action).unwrap_err(), said, "{action}");
        }
    }

    /// Every action written as its log line, byte for byte, and read back
    /// from it the same (null is no value; text is trimmed).
    #[test]
    fn every_action_is_its_log_line_and_back() {
        let cases = [
            (
                json!({"do": "roll", "table": " core.weather "}),
                r#"roll table="core.weather""#,
            ),
            (json!({"do": "dice", "expr": "2d6"}), r#"dice expr="2d6""#),
            (
                json!({"do": "check", "pc": "Ada", "pool": "3D"}),
                r#"check pc="Ada" pool="3D""#,
            ),
            (
                json!({"do": "check", "difficulty": 0, "pool": "3D", "pc": "Ada"}),
                r#"check pc="Ada" pool="3D" difficulty=0"#,
            ),
            (json!({"do": "twist", "k": 5}), "twist k=5"),
            (
                json!({"do": "met", "address": "trap/1", "pc": null}),
                r#"met address="trap/1""#,
            ),
            (
                json!({"do": "met", "address": "trap/1", "pc": "Bo"}),
                r#"met address="trap/1" pc="Bo""#,
            ),
            (
                json!({"do": "damage", "pc": "A \"b\" → c", "amount": -3}),
                r#"damage pc="A \"b\" → c" amount=-3"#,
            ),
            (
                json!({"do": "status", "pc": "Ada", "status": "Shaken"}),
                r#"status pc="Ada" status="Shaken" on=true"#,
            ),
            (
                json!({"do": "spend", "serial": "AC-1"}),
                r#"spend serial="AC-1""#,
            ),
            (
                json!({"do": "omens", "pc": "Ada", "spent": 1}),
                r#"omens pc="Ada" spent=1"#,
            ),
            (
                json!({"do": "corruption", "pc": "Ada", "amount": 2}),
                r#"corruption pc="Ada" amount=2"#,
            ),
            (
                json!({"do": "supplies", "money": "+12ʂ"}),
                "supplies money=12 rations=0 water=0",
            ),
            (
                json!({"do": "arrive", "stop": "Hollow", "day": 3}),
                r#"arrive stop="Hollow" day=3"#,
            ),
            (
                json!({"do": "heal", "pc": "Ada"}),
                r#"heal pc="Ada" twist=false"#,
            ),
            (
                json!({"do": "push", "address": "trap/1", "k": null}),
                r#"push address="trap/1""#,
            ),
            (json!({"do": "push", "k": 2}), "push k=2"),
            (
                json!({"do": "tracker", "op": "set", "now": 4, "name": "Ada"}),
                r#"tracker op="set" name="Ada" now=4"#,
            ),
            (
                json!({"do": "undo", "k": 2, "reason": "no"}),
                r#"undo k=2 reason="no""#,
            ),
        ];
        for (json, line) in cases {
            let action = Action::from_json(&json).unwrap();
            let (verb, args) = action.args();
            let written = super::super::log::write(9, &verb, &args, "");
            assert_eq!(written, format!("9 {line}"), "{json}");
            let read = super::super::log::read(&written).unwrap();
            assert_eq!(Action::from_json(&read.action).unwrap(), action, "{json}");
        }
    }
}
