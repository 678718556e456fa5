//! An action from the GM's screen (or read back from a log line), its
//! shape checked: the word `do`, each argument present and of its type,
//! no other keys. Whether it fits the session (a PC, an address, a
//! serial that exists) is `perform`'s check.

use serde_json::{Map, Value, json};

/// Longest text an argument may be (a table id, a name, an expression).
const MAX_TEXT: usize = 200;

/// What a push shows: an item's players' side, or a check's result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shown {
    Item(String),
    Check(usize),
}

/// Every action of the GM's screen.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Action {
    Roll {
        table: String,
    },
    Dice {
        expr: String,
    },
    Check {
        pc: String,
        pool: String,
        difficulty: Option<u32>,
    },
    Twist {
        k: usize,
    },
    Met {
        address: String,
        /// Core Rules: the PC who took an injury or a mutation (the GM
        /// picks who; it goes to their record).
        pc: Option<String>,
    },
    Damage {
        pc: String,
        amount: i64,
    },
    Status {
        pc: String,
        status: String,
        on: bool,
    },
    Spend {
        serial: String,
    },
    /// Core Rules: omens a PC spent (a re-roll, cheating death, a power).
    Omens {
        pc: String,
        spent: i64,
    },
    /// Core Rules: corruption a PC gained (the ledger rolls its
    /// soulblight check when the record is read).
    Corruption {
        pc: String,
        amount: i64,
    },
    Supplies {
        money: i64,
        rations: i64,
        water: i64,
    },
    Arrive {
        stop: String,
        day: u32,
    },
    Heal {
        pc: String,
        twist: bool,
    },
    Push {
        shown: Shown,
    },
    Tracker {
        op: String,
        name: Option<String>,
        now: Option<i64>,
    },
    Undo {
        k: usize,
        /// Why the mark is struck (the GM's words, kept in the log).
        reason: Option<String>,
    },
}

/// The words of `do`, with the arguments each takes.
pub(crate) const ACTIONS: [(&str, &str); 16] = [
    ("roll", "table"),
    ("dice", "expr"),
    ("check", "pc, pool, difficulty"),
    ("twist", "k"),
    ("met", "address, pc"),
    ("damage", "pc, amount"),
    ("status", "pc, status, on"),
    ("spend", "serial"),
    ("omens", "pc, spent"),
    ("corruption", "pc, amount"),
    ("supplies", "money, rations, water"),
    ("arrive", "stop, day"),
    ("heal", "pc, twist"),
    ("push", "address or k"),
    ("tracker", "op, name, now"),
    ("undo", "k, reason"),
];

/// An action's fields, read one at a time with their checks.
struct Fields<'a> {
    verb: &'a str,
    map: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn text(&self, key: &str) -> Result<String, String> {
        self.opt_text(key)?
            .ok_or_else(|| format!("`{}` needs `{key}`", self.verb))
    }

    fn opt_text(&self, key: &str) -> Result<Option<String>, String> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let s = v
            .as_str()
            .ok_or_else(|| format!("`{key}` of `{}` is text, in quotes", self.verb))?;
        let s = s.trim();
        if s.is_empty() || s.chars().count() > MAX_TEXT || s.chars().any(char::is_control) {
            return Err(format!(
                "`{key}` of `{}` is one line of 1 to {MAX_TEXT} characters",
                self.verb
            ));
        }
        Ok(Some(s.to_owned()))
    }

    fn int(&self, key: &str) -> Result<i64, String> {
        self.opt_int(key)?
            .ok_or_else(|| format!("`{}` needs `{key}`", self.verb))
    }

    fn opt_int(&self, key: &str) -> Result<Option<i64>, String> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        v.as_i64()
            .filter(|n| n.abs() <= 1_000_000)
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "`{key}` of `{}` is a whole number (at most a million)",
                    self.verb
                )
            })
    }

    fn count(&self, key: &str) -> Result<usize, String> {
        let n = self.int(key)?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("`{key}` of `{}` is an action's number, from 1", self.verb))
    }

    fn flag(&self, key: &str) -> Result<bool, String> {
        match self.get(key) {
            None => Ok(false),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| format!("`{key}` of `{}` is true or false", self.verb)),
        }
    }
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
        let map = v
            .as_object()
            .ok_or("an action is a JSON object with `do` (`{\"do\":\"dice\",\"expr\":\"2d6\"}`)")?;
        let verb = map.get("do").and_then(Value::as_str).unwrap_or_default();
        let Some((_, takes)) = ACTIONS.iter().find(|(w, _)| *w == verb) else {
            let words: Vec<&str> = ACTIONS.iter().map(|(w, _)| *w).collect();
            return Err(format!(
                "`do` must be one of: {} (it is `{verb}`)",
                words.join(", ")
            ));
        };
        if let Some(key) = map
            .keys()
            .find(|k| *k != "do" && !takes.split([',', ' ']).any(|t| t == k.as_str()))
        {
            return Err(format!("`{verb}` takes {takes}, not `{key}`"));
        }
        Self::fields(&Fields { verb, map })
    }

    fn fields(f: &Fields) -> Result<Action, String> {
        Ok(match f.verb {
            "roll" => Action::Roll {
                table: f.text("table")?,
            },
            "dice" => Action::Dice {
                expr: f.text("expr")?,
            },
            "check" => Action::Check {
                pc: f.text("pc")?,
                pool: f.text("pool")?,
                difficulty: match f.opt_int("difficulty")? {
                    Some(d) => Some(
                        u32::try_from(d)
                            .ok()
                            .filter(|&d| d <= 99)
                            .ok_or("`difficulty` of `check` is a whole number from 0 to 99")?,
                    ),
                    None => None,
                },
            },
            "twist" => Action::Twist { k: f.count("k")? },
            "met" => Action::Met {
                address: f.text("address")?,
                pc: f.opt_text("pc")?,
            },
            "damage" => Action::Damage {
                pc: f.text("pc")?,
                amount: f.int("amount")?,
            },
            "status" => Action::Status {
                pc: f.text("pc")?,
                status: f.text("status")?,
                on: match f.get("on") {
                    None => true,
                    Some(_) => f.flag("on")?,
                },
            },
            "spend" => Action::Spend {
                serial: f.text("serial")?,
            },
            "omens" => Action::Omens {
                pc: f.text("pc")?,
                spent: f.int("spent")?,
            },
            "corruption" => Action::Corruption {
                pc: f.text("pc")?,
                amount: f.int("amount")?,
            },
            "supplies" => Action::Supplies {
                money: money(f)?,
                rations: f.opt_int("rations")?.unwrap_or(0),
                water: f.opt_int("water")?.unwrap_or(0),
            },
            "arrive" => Action::Arrive {
                stop: f.text("stop")?,
                day: u32::try_from(f.int("day")?)
                    .ok()
                    .filter(|&d| d >= 1)
                    .ok_or("`day` of `arrive` is a day of the campaign, from 1")?,
            },
            "heal" => Action::Heal {
                pc: f.text("pc")?,
                twist: f.flag("twist")?,
            },
            "push" => Action::Push {
                shown: match (f.opt_text("address")?, f.get("k")) {
                    (Some(a), None) => Shown::Item(a),
                    (None, Some(_)) => Shown::Check(f.count("k")?),
                    _ => {
                        return Err(
                            "`push` takes either `address` (an item) or `k` (a check)".into()
                        );
                    }
                },
            },
            "tracker" => Action::Tracker {
                op: f.text("op")?,
                name: f.opt_text("name")?,
                now: f.opt_int("now")?,
            },
            _ => Action::Undo {
                k: f.count("k")?,
                reason: f.opt_text("reason")?,
            },
        })
    }

    /// The word and the arguments, in the order the log writes them.
    pub(crate) fn args(&self) -> (&'static str, Vec<(&'static str, Value)>) {
        match self {
            Action::Roll { table } => ("roll", vec![("table", json!(table))]),
            Action::Dice { expr } => ("dice", vec![("expr", json!(expr))]),
            Action::Check {
                pc,
                pool,
                difficulty,
            } => {
                let mut a = vec![("pc", json!(pc)), ("pool", json!(pool))];
                a.extend(difficulty.map(|d| ("difficulty", json!(d))));
                ("check", a)
            }
            Action::Twist { k } => ("twist", vec![("k", json!(k))]),
            Action::Met { address, pc } => {
                let mut a = vec![("address", json!(address))];
                a.extend(pc.as_ref().map(|p| ("pc", json!(p))));
                ("met", a)
            }
            Action::Damage { pc, amount } => {
                ("damage", vec![("pc", json!(pc)), ("amount", json!(amount))])
            }
            Action::Status { pc, status, on } => (
                "status",
                vec![
                    ("pc", json!(pc)),
                    ("status", json!(status)),
                    ("on", json!(on)),
                ],
            ),
            Action::Spend { serial } => ("spend", vec![("serial", json!(serial))]),
            Action::Omens { pc, spent } => {
                ("omens", vec![("pc", json!(pc)), ("spent", json!(spent))])
            }
            Action::Corruption { pc, amount } => (
                "corruption",
                vec![("pc", json!(pc)), ("amount", json!(amount))],
            ),
            Action::Supplies {
                money,
                rations,
                water,
            } => (
                "supplies",
                vec![
                    ("money", json!(money)),
                    ("rations", json!(rations)),
                    ("water", json!(water)),
                ],
            ),
            Action::Arrive { stop, day } => {
                ("arrive", vec![("stop", json!(stop)), ("day", json!(day))])
            }
            Action::Heal { pc, twist } => {
                ("heal", vec![("pc", json!(pc)), ("twist", json!(twist))])
            }
            Action::Push {
                shown: Shown::Item(a),
            } => ("push", vec![("address", json!(a))]),
            Action::Push {
                shown: Shown::Check(k),
            } => ("push", vec![("k", json!(k))]),
            Action::Tracker { op, name, now } => {
                let mut a = vec![("op", json!(op))];
                a.extend(name.as_ref().map(|n| ("name", json!(n))));
                a.extend(now.map(|n| ("now", json!(n))));
                ("tracker", a)
            }
            Action::Undo { k, reason } => {
                let mut a = vec![("k", json!(k))];
                a.extend(reason.as_ref().map(|r| ("reason", json!(r))));
                ("undo", a)
            }
        }
    }
}

/// Money as a number of shillings, or text such as `-5s` or `+12ʂ`.
fn money(f: &Fields) -> Result<i64, String> {
    match f.get("money") {
        None => Ok(0),
        Some(Value::String(s)) => {
            let t = s.trim().trim_end_matches(['s', 'ʂ']).trim();
            t.strip_prefix('+')
                .unwrap_or(t)
                .parse::<i64>()
                .ok()
                .filter(|n| n.abs() <= 1_000_000)
                .ok_or_else(|| {
                    format!(
                        "`money` of `supplies` is shillings, such as -5 or \"-5s\" (it is `{s}`)"
                    )
                })
        }
        Some(_) => f.int("money"),
    }
}
