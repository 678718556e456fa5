//! Validation: every problem in every file, each with file:line, the table
//! id and a hint. Raw tables become checked [`Table`]s; then the checks
//! that need all tables run on the tables in effect (unknown references
//! with a "did you mean", reference cycles, roll-again rows that could never
//! stop).

use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;

use rand_seeder::SipHasher;
use toml::Spanned;

use super::schema::{self, Effect, FileRaw, RowRaw, Stats, System, TableRaw};
use super::template;
use super::{Library, Origin, Overridden, Problem, Row, SourceFile, Table};
use crate::dice::ast::{Expr, Pool, Quality, TermKind};
use crate::dice::{self, odds};
use crate::rules::core_d20::{ABILITY_MAX as CORE_MAX, HUMAN_MAX};

const CORE_ABILITIES: [&str; 3] = ["STR", "AGI", "WIT"];
const METTLE_ATTRIBUTES: [&str; 5] = ["NATURE", "CULTURE", "POISE", "MOTIVE", "FRAME"];
const LASTS: [&str; 8] = [
    "instant",
    "round",
    "stretch",
    "scene",
    "watch",
    "until full rest",
    "permanent",
    "ongoing",
];

/// A problem pointing at a table's header line.
fn at_table(t: &Table, message: String, hint: &str) -> Problem {
    Problem {
        file: t.origin.file.clone(),
        line: t.origin.line,
        column: 1,
        table: Some(t.id.clone()),
        message,
        hint: Some(hint.to_owned()),
    }
}

/// Parse, check and layer every file.
pub fn build(files: &[SourceFile]) -> (Library, Vec<Problem>) {
    let mut problems = Vec::new();
    let mut compiled: Vec<Table> = Vec::new();
    let mut hasher = SipHasher::new();
    for file in files {
        hasher.write_u64(file.text.len() as u64);
        hasher.write(file.text.as_bytes());
        for raw in parse_file(file, &mut problems) {
            if let Some(t) = compile(file, raw.into_inner(), &mut problems) {
                compiled.push(t);
            }
        }
    }
    // Layering: the highest layer wins; two tables with one id in the same
    // layer are a mistake.
    let mut tables: BTreeMap<String, Table> = BTreeMap::new();
    let mut overridden = Vec::new();
    for t in compiled {
        match tables.get(&t.id) {
            Some(old) if old.origin.layer == t.origin.layer => {
                problems.push(at_table(
                    &t,
                    format!(
                        "the id `{}` is already used by {}:{}",
                        t.id, old.origin.file, old.origin.line
                    ),
                    "give each table its own id (to replace a built-in table, put yours in a --content folder)",
                ));
            }
            Some(old) => {
                overridden.push(Overridden {
                    id: t.id.clone(),
                    by: t.origin.clone(),
                    was: old.origin.clone(),
                });
                tables.insert(t.id.clone(), t);
            }
            None => {
                tables.insert(t.id.clone(), t);
            }
        }
    }
    cross_checks(&tables, files, &mut problems);
    let hash = format!("{:016x}", hasher.finish());
    (
        Library {
            tables,
            overridden,
            content_hash: hash,
        },
        problems,
    )
}

fn parse_file(file: &SourceFile, problems: &mut Vec<Problem>) -> Vec<Spanned<TableRaw>> {
    // Syntax first, then every unknown key (serde stops at the first), then
    // the typed read.
    let value: toml::Table = match toml::from_str(&file.text) {
        Ok(v) => v,
        Err(e) => {
            let at = e.span().map_or(0, |s| s.start);
            problems.push(file.problem(
                at,
                None,
                format!("this is not valid TOML: {}", e.message().trim()),
                Some("fix the syntax at this line and column (see content/FORMAT.md)".into()),
            ));
            return Vec::new();
        }
    };
    let before = problems.len();
    unknown_keys(file, &value, problems);
    if problems.len() > before {
        return Vec::new();
    }
    match toml::from_str::<FileRaw>(&file.text) {
        Ok(raw) => raw.table,
        Err(e) => {
            let at = e.span().map_or(0, |s| s.start);
            problems.push(file.problem(
                at,
                None,
                e.message().trim().to_owned(),
                Some("see content/FORMAT.md for each key's type".into()),
            ));
            Vec::new()
        }
    }
}

/// Report every key that is not in the format, with a "did you mean".
fn unknown_keys(file: &SourceFile, value: &toml::Table, problems: &mut Vec<Problem>) {
    let mut check = |table: &toml::Table, allowed: &[&str], place: &str| {
        for key in table.keys() {
            if !allowed.contains(&key.as_str()) {
                let at = find_key(&file.text, key);
                let hint = match closest(key, allowed.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`? Keys here: {}", allowed.join(", ")),
                    None => format!("keys here: {}", allowed.join(", ")),
                };
                problems.push(file.problem(
                    at,
                    None,
                    format!("unknown key `{key}` in {place}"),
                    Some(hint),
                ));
            }
        }
    };
    check(value, schema::FILE_KEYS, "the file");
    let Some(toml::Value::Array(tables)) = value.get("table") else {
        return;
    };
    for t in tables {
        let Some(t) = t.as_table() else { continue };
        check(t, schema::TABLE_KEYS, "a [[table]]");
        let Some(toml::Value::Array(rows)) = t.get("row") else {
            continue;
        };
        for r in rows {
            let Some(r) = r.as_table() else { continue };
            check(r, schema::ROW_KEYS, "a [[table.row]]");
            if let Some(toml::Value::Array(effects)) = r.get("effects") {
                for e in effects.iter().filter_map(toml::Value::as_table) {
                    check(e, schema::EFFECT_KEYS, "an effect");
                }
            }
            if let Some(toml::Value::Table(s)) = r.get("stats") {
                check(s, schema::STATS_KEYS, "stats");
            }
        }
    }
}

/// Byte offset of the first place `key` is written as a key.
fn find_key(text: &str, key: &str) -> usize {
    // An empty key (`"" = 1`) matches everywhere: point at the start.
    if key.is_empty() {
        return 0;
    }
    let mut from = 0;
    while let Some(found) = text[from..].find(key) {
        let at = from + found;
        let before = text[..at].chars().next_back();
        let after = text[at + key.len()..].trim_start();
        let starts_key = before
            .is_none_or(|c| c.is_whitespace() || c == '{' || c == ',' || c == '.' || c == '[');
        if starts_key && (after.starts_with('=') || after.starts_with(']')) {
            return at;
        }
        from = at + key.len();
    }
    0
}

/// The closest known name, when it is close enough to be a typo.
pub fn closest<'a>(word: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    known
        .map(|k| (strsim::jaro_winkler(word, k), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(a.1)))
        .map(|(_, k)| k)
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
        && !id.starts_with('.')
        && !id.ends_with('.')
}

/// Parse `"3"` or `"13-14"`.
fn parse_range(s: &str) -> Option<(i64, i64)> {
    let s = s.trim();
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
        None => {
            let v = s.parse().ok()?;
            (v, v)
        }
    };
    (a <= b).then_some((a, b))
}

/// The table die's possible results.
fn die_support(roll: &crate::dice::ast::Roll) -> Result<Vec<i64>, String> {
    if roll
        .terms
        .iter()
        .any(|t| matches!(t.kind, TermKind::Dice { explode: true, .. }))
    {
        return Err("a table die cannot explode: its results never end".into());
    }
    if roll.quality() != Quality::Plain
        && roll.quality() != Quality::Enhanced
        && roll.quality() != Quality::Impaired
    {
        return Err("a table die that is always 0 picks nothing".into());
    }
    let dist = odds::roll_dist(roll).map_err(|e| e.to_string())?;
    if dist.p.len() > 100_000 {
        return Err(format!(
            "a table die with {} possible results is too large to list",
            dist.p.len()
        ));
    }
    let support: Vec<i64> = dist
        .p
        .iter()
        .enumerate()
        .filter(|(_, q)| **q > 0.0)
        .map(|(i, _)| dist.min + i as i64)
        .collect();
    if support.is_empty() || (dist.mass() - 1.0).abs() > 1e-9 {
        return Err("its exact odds cannot be listed (too many dice for a table die)".into());
    }
    Ok(support)
}

fn compile(file: &SourceFile, raw: TableRaw, problems: &mut Vec<Problem>) -> Option<Table> {
    let id = raw.id.get_ref().clone();
    let id_at = raw.id.span().start;
    let tid = Some(id.as_str());
    let before = problems.len();
    if !valid_id(&id) {
        problems.push(file.problem(
            id_at,
            tid,
            format!("`{id}` is not a table id"),
            Some("use lowercase letters, digits, `_`, `-` and dots, e.g. `core.injury`".into()),
        ));
    }
    let (header_line, _) = file.line_col(id_at);
    // The die.
    let mut dice_expr = None;
    let mut support: Option<Vec<i64>> = None;
    if let Some(d) = &raw.dice {
        let at = d.span().start + 1;
        match dice::parse(d.get_ref()) {
            Ok(Expr::Roll(r)) => match die_support(&r) {
                Ok(s) => {
                    support = Some(s);
                    dice_expr = Some(r);
                }
                Err(m) => problems.push(file.problem(
                    at,
                    tid,
                    format!("dice `{}`: {m}", d.get_ref()),
                    Some("use a plain roll such as `d12`, `2d6` or `d66`".into()),
                )),
            },
            Ok(_) => problems.push(
                file.problem(
                    at,
                    tid,
                    format!("dice `{}` is not a Roll", d.get_ref()),
                    Some(
                        "a table rolls a plain roll such as `d12`, `2d6` or `d66` (a lowercase d)"
                            .into(),
                    ),
                ),
            ),
            Err(e) => problems.push(file.problem(
                at + e.at,
                tid,
                format!("dice `{}`: {}", d.get_ref(), e.message),
                e.hint.clone(),
            )),
        }
    }
    if raw.row.is_empty() {
        problems.push(file.problem(
            id_at,
            tid,
            "the table has no rows",
            Some("add [[table.row]] entries under it".into()),
        ));
    }
    let mut rows = Vec::with_capacity(raw.row.len());
    // The raw row behind each compiled row (rows with problems are left out).
    let mut kept = Vec::with_capacity(raw.row.len());
    for spanned in &raw.row {
        let row_at = spanned.span().start;
        if let Some(row) = compile_row(file, &raw, &id, row_at, spanned.get_ref(), problems) {
            rows.push(row);
            kept.push(spanned);
        }
    }
    // Coverage of the die.
    if let Some(support) = &support {
        let (lo, hi) = (support[0], *support.last().expect("non-empty support"));
        let mut covered: BTreeMap<i64, usize> = BTreeMap::new();
        for (index, (row, raw_row)) in rows.iter().zip(&kept).enumerate() {
            let Some((a, b)) = row.range else { continue };
            let at = raw_row
                .get_ref()
                .roll
                .as_ref()
                .map_or(raw_row.span().start, |r| r.span().start);
            if a < lo || b > hi {
                problems.push(file.problem(
                    at,
                    tid,
                    format!(
                        "row `{}` falls outside {} ({lo}-{hi})",
                        row.label(),
                        raw.dice.as_ref().expect("dice").get_ref()
                    ),
                    Some(format!("keep every range within {lo}-{hi}")),
                ));
            }
            if a >= lo && b <= hi && !support.iter().any(|v| (a..=b).contains(v)) {
                problems.push(file.problem(
                    at,
                    tid,
                    format!(
                        "row `{}` can never come up on {}",
                        row.label(),
                        raw.dice.as_ref().expect("dice").get_ref()
                    ),
                    Some("every row needs at least one possible result".into()),
                ));
            }
            // Results this row shares with earlier rows, by earlier row.
            let mut shared: BTreeMap<usize, Vec<i64>> = BTreeMap::new();
            for &v in support.iter().filter(|v| (a..=b).contains(v)) {
                match covered.get(&v) {
                    Some(&first) => shared.entry(first).or_default().push(v),
                    None => {
                        covered.insert(v, index);
                    }
                }
            }
            for (first, values) in shared {
                problems.push(file.problem(
                    at,
                    tid,
                    format!(
                        "row `{}` overlaps row `{}` on {}",
                        row.label(),
                        rows[first].label(),
                        ranges_of(&values, support).join(", ")
                    ),
                    Some("each result belongs to exactly one row".into()),
                ));
            }
        }
        let gaps: Vec<i64> = support
            .iter()
            .copied()
            .filter(|v| !covered.contains_key(v))
            .collect();
        if !gaps.is_empty() && !rows.is_empty() {
            let shown: Vec<String> = ranges_of(&gaps, support);
            problems.push(file.problem(
                id_at,
                tid,
                format!("no row covers {}", shown.join(", ")),
                Some("add rows for these results, or widen a neighbour's range".into()),
            ));
        }
    }
    // Roll-again rows that could never stop.
    let plain = rows.iter().filter(|r| r.reroll.is_none()).count();
    if !rows.is_empty() && plain == 0 {
        problems.push(file.problem(
            id_at,
            tid,
            "every row says to roll again, so a roll never ends",
            Some("give the table at least one row without `reroll`".into()),
        ));
    }
    // Weights must add up to a number the odds can hold exactly.
    let total_weight = rows
        .iter()
        .try_fold(0u64, |t, r| t.checked_add(r.weight.unwrap_or(0)));
    if total_weight.is_none_or(|t| t > 1 << 53) {
        problems.push(file.problem(
            id_at,
            tid,
            "the weights add up to more than 2^53",
            Some("use smaller weights; only their proportions matter".into()),
        ));
    }
    // Roll-again rows that, on average, breed more rolls than they end.
    if plain > 0
        && rows.iter().any(|r| r.reroll.is_some())
        && total_weight.is_some_and(|t| t <= 1 << 53)
    {
        let chances: Vec<f64> = match (&dice_expr, &support) {
            (Some(r), Some(_)) => {
                let dist = crate::dice::odds::roll_dist(r).expect("checked above");
                rows.iter()
                    .map(|row| {
                        row.range
                            .map_or(0.0, |(a, b)| (a..=b).map(|v| dist.chance(v)).sum())
                    })
                    .collect()
            }
            _ => {
                let total = total_weight.unwrap_or(1).max(1) as f64;
                rows.iter()
                    .map(|r| r.weight.unwrap_or(0) as f64 / total)
                    .collect()
            }
        };
        let breed: f64 = rows
            .iter()
            .zip(&chances)
            .map(|(r, p)| f64::from(r.reroll.unwrap_or(0)) * p)
            .sum();
        if breed >= 1.0 {
            problems.push(file.problem(
                id_at,
                tid,
                format!("roll-again rows ask for {breed:.2} new rolls per roll on average, so a roll may never end"),
                Some("make roll-again rows rarer or ask for fewer rolls (the sum of chance × rolls must stay below 1)".into()),
            ));
        }
    }
    for (row, raw_row) in rows.iter().zip(&kept) {
        if let Some(n) = row.reroll
            && row.distinct
            && n as usize > plain
        {
            problems.push(file.problem(
                raw_row.span().start,
                tid,
                format!("`reroll = {n}` with `distinct` needs {n} different rows, but only {plain} rows do not roll again"),
                Some("lower `reroll`, drop `distinct`, or add rows".into()),
            ));
        }
    }
    if problems.len() > before {
        return None;
    }
    Some(Table {
        id,
        title: raw.title.clone(),
        system: raw.system,
        source: raw.source.clone(),
        dice: raw.dice.as_ref().map(|d| d.get_ref().clone()),
        dice_expr,
        notes: raw.notes.clone(),
        deck: raw.deck,
        rows,
        origin: Origin {
            file: file.name.clone(),
            line: header_line,
            layer: file.layer,
        },
    })
}

/// Group sorted values into `a-b` runs (consecutive in the die's support).
fn ranges_of(values: &[i64], support: &[i64]) -> Vec<String> {
    let index: BTreeMap<i64, usize> = support.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let mut out = Vec::new();
    let mut start = values[0];
    let mut prev = values[0];
    for &v in &values[1..] {
        if index[&v] != index[&prev] + 1 {
            out.push(if start == prev {
                start.to_string()
            } else {
                format!("{start}-{prev}")
            });
            start = v;
        }
        prev = v;
    }
    out.push(if start == prev {
        start.to_string()
    } else {
        format!("{start}-{prev}")
    });
    out
}

fn compile_row(
    file: &SourceFile,
    table: &TableRaw,
    id: &str,
    row_at: usize,
    raw: &RowRaw,
    problems: &mut Vec<Problem>,
) -> Option<Row> {
    let tid = Some(id);
    let before = problems.len();
    let mut range = None;
    let mut weight = None;
    match (&table.dice, &raw.roll, &raw.weight) {
        (Some(_), Some(r), None) => match parse_range(r.get_ref()) {
            Some(v) => range = Some(v),
            None => problems.push(file.problem(
                r.span().start,
                tid,
                format!("`roll = \"{}\"` is not a result or a range", r.get_ref()),
                Some("write a result like \"3\" or a range like \"13-14\" (low to high)".into()),
            )),
        },
        (None, None, Some(w)) => {
            if *w.get_ref() <= 0 {
                problems.push(file.problem(
                    w.span().start,
                    tid,
                    format!("weight {} is not positive", w.get_ref()),
                    Some("weights are whole numbers of 1 or more".into()),
                ));
            } else {
                weight = Some(*w.get_ref() as u64);
            }
        }
        (Some(_), None, _) => problems.push(file.problem(
            row_at,
            tid,
            format!("row `{}` has no `roll`", raw.name),
            Some("the table has `dice`, so each row needs `roll = \"N\"` or `\"A-B\"`".into()),
        )),
        (None, _, None) => problems.push(file.problem(
            row_at,
            tid,
            format!("row `{}` has no `weight`", raw.name),
            Some("the table has no `dice`, so each row needs `weight = N` (or give the table `dice`)".into()),
        )),
        (_, _, Some(w)) => problems.push(file.problem(
            w.span().start,
            tid,
            format!("row `{}` has both a `roll` range and a `weight`", raw.name),
            Some("use `roll` with a `dice` table, `weight` without one".into()),
        )),
    }
    // Text.
    let text_at = raw.text.span().start;
    let quote =
        if file.text[text_at..].starts_with("\"\"\"") || file.text[text_at..].starts_with("'''") {
            3
        } else {
            1
        };
    let template = match template::parse(raw.text.get_ref()) {
        Ok(t) => t,
        Err(e) => {
            problems.push(file.problem(text_at + quote + e.at, tid, e.message, e.hint));
            Vec::new()
        }
    };
    let reroll = match &raw.reroll {
        None => None,
        Some(n) if (1..=10).contains(n.get_ref()) => Some(*n.get_ref() as u32),
        Some(n) => {
            problems.push(file.problem(
                n.span().start,
                tid,
                format!(
                    "`reroll = {}`: a row can say to roll 1 to 10 times",
                    n.get_ref()
                ),
                Some("`reroll = 2` means \"roll twice on this table\"".into()),
            ));
            None
        }
    };
    if raw.distinct && reroll.is_none() {
        problems.push(file.problem(
            row_at,
            tid,
            "`distinct` only applies to a row with `reroll`",
            Some("remove it, or add `reroll = N`".into()),
        ));
    }
    for e in &raw.effects {
        check_effect(
            file,
            table.system,
            id,
            e.span().start,
            e.get_ref(),
            problems,
        );
    }
    if let Some(s) = &raw.stats {
        check_stats(
            file,
            table.system,
            id,
            s.span().start,
            s.get_ref(),
            &raw.tags,
            problems,
        );
    }
    if problems.len() > before {
        return None;
    }
    Some(Row {
        range,
        weight,
        name: raw.name.clone(),
        text: raw.text.get_ref().clone(),
        template,
        tags: raw.tags.clone(),
        reroll,
        distinct: raw.distinct,
        effects: raw.effects.iter().map(|e| e.get_ref().clone()).collect(),
        stats: raw.stats.as_ref().map(|s| s.get_ref().clone()),
        line: file.line_col(row_at).0,
    })
}

fn abilities_for(system: System) -> Vec<&'static str> {
    match system {
        System::Core => CORE_ABILITIES.to_vec(),
        System::Mettle => METTLE_ATTRIBUTES.to_vec(),
        _ => CORE_ABILITIES
            .iter()
            .chain(METTLE_ATTRIBUTES.iter())
            .copied()
            .collect(),
    }
}

fn check_effect(
    file: &SourceFile,
    system: System,
    id: &str,
    at: usize,
    e: &Effect,
    problems: &mut Vec<Problem>,
) {
    let tid = Some(id);
    let mut push = |message: String, hint: &str| {
        problems.push(file.problem(at, tid, message, Some(hint.to_owned())))
    };
    let known = abilities_for(system);
    // ACS has its own statistics (AG, ST, Defence…): there `vs` and `save`
    // name what a modifier applies to, in the chapter's words.
    let own_stats = matches!(system, System::Acs | System::Cp);
    for (what, name) in [("ability", &e.ability), ("vs", &e.vs), ("save", &e.save)] {
        if what != "ability" && own_stats {
            continue;
        }
        if let Some(a) = name
            && !known.contains(&a.as_str())
        {
            let hint = match closest(a, known.iter().copied()) {
                Some(s) => format!(
                    "did you mean `{s}`? The {} abilities are {}",
                    system.as_str(),
                    known.join(", ")
                ),
                None => format!("the {} abilities are {}", system.as_str(), known.join(", ")),
            };
            push(
                format!(
                    "`{what} = \"{a}\"` is not an ability of the {} rules",
                    system.as_str()
                ),
                &hint,
            );
        }
    }
    if let Some(change) = &e.change {
        let increase = change.trim_start().starts_with('+');
        if change != "halve" {
            let trimmed = change.trim();
            let body = trimmed.get(1..).unwrap_or("");
            let signed = trimmed.starts_with(['+', '-']) && !body.starts_with(['+', '-']);
            match dice::parse(body) {
                Ok(Expr::Roll(_)) if signed => {}
                _ => push(
                    format!("`change = \"{change}\"` is not a signed roll or `halve`"),
                    "write \"-d4\", \"+d4\", \"+1\", \"-1\" or \"halve\"",
                ),
            }
        }
        if e.ability.is_none() {
            push(
                format!("`change = \"{change}\"` without an `ability`"),
                "say which ability changes, e.g. ability = \"STR\"",
            );
        }
        if increase {
            match e.max {
                None => push(
                    format!(
                        "`change = \"{change}\"` could push {} past its bounds, and the row does not say how it clamps",
                        e.ability.as_deref().unwrap_or("the ability")
                    ),
                    "add `max = 15` (the human limit) or `max = 19` (the absolute limit), as the rule says",
                ),
                Some(m) if system == System::Core && !(1..=CORE_MAX).contains(&m) => push(
                    format!("`max = {m}`: Core Rules abilities never exceed {CORE_MAX}"),
                    "use 15 for humans or 19 at most",
                ),
                _ => {}
            }
        }
    }
    if let Some(l) = &e.lasts
        && !LASTS.contains(&l.as_str())
    {
        push(
            format!("`lasts = \"{l}\"` is not a known duration"),
            &format!("use one of: {}", LASTS.join(", ")),
        );
    }
    if let Some(d) = e.difficulty
        && d < 0
    {
        push(
            format!("`difficulty = {d}` is below 0"),
            "Difficulties are 0 or more (1 Routine … 15 Nigh Impossible)",
        );
    }
    for (what, h) in [("hazard", &e.hazard), ("cap", &e.cap)] {
        if let Some(h) = h {
            let ok = matches!(dice::parse(h), Ok(Expr::Pool(Pool { extra: 0, difficulty: None, raises: 0, twist: false, ref team, .. })) if team.is_empty());
            if !ok {
                push(
                    format!("`{what} = \"{h}\"` is not a hazard in Pool+Bonus form"),
                    "write a pool and a bonus like \"3D+3\" or \"5D\" (uppercase D, no die size)",
                );
            }
        }
    }
    if let Some(d) = &e.damage
        && !matches!(dice::parse(d), Ok(Expr::Roll(_)))
    {
        push(
            format!("`damage = \"{d}\"` is not a roll"),
            "write a damage roll such as \"d6\" or \"d6!\"",
        );
    }
    if let Some(c) = &e.chance
        && !matches!(dice::parse(c), Ok(Expr::Chance(_)))
    {
        push(
            format!("`chance = \"{c}\"` is not an x:y chance"),
            "write it like \"1:8\"",
        );
    }
    if let Some(a) = e.armour
        && system == System::Core
        && !(0..=3).contains(&a)
    {
        push(
            format!("`armour = {a}`: the Core Rules cap armour value at 3"),
            "use 0 to 3",
        );
    }
    if let Some(o) = e.omens_max
        && !(-2..=2).contains(&o)
    {
        push(
            format!("`omens_max = {o}`: omens run from 0 to 2"),
            "use -2 to 2",
        );
    }
    for (what, v) in [("rations", e.rations), ("min_damage", e.min_damage)] {
        if let Some(v) = v
            && v < 0
        {
            push(format!("`{what} = {v}` is negative"), "use 0 or more");
        }
    }
}

fn check_stats(
    file: &SourceFile,
    system: System,
    id: &str,
    at: usize,
    s: &Stats,
    tags: &[String],
    problems: &mut Vec<Problem>,
) {
    let tid = Some(id);
    let mut push =
        |message: String, hint: String| problems.push(file.problem(at, tid, message, Some(hint)));
    let human = tags.iter().any(|t| t == "human" || t == "townsfolk");
    let core_cap = if human { HUMAN_MAX } else { CORE_MAX };
    let core = [("STR", &s.STR), ("AGI", &s.AGI), ("WIT", &s.WIT)];
    let mettle = [
        ("NATURE", &s.NATURE),
        ("CULTURE", &s.CULTURE),
        ("POISE", &s.POISE),
        ("MOTIVE", &s.MOTIVE),
        ("FRAME", &s.FRAME),
    ];
    for (name, v) in core {
        if let Some(v) = v {
            match parse_range(v) {
                Some((a, b)) if a >= 1 && b <= core_cap => {}
                _ => push(
                    format!(
                        "`{name} = \"{v}\"` is outside 1-{core_cap}{}",
                        if human { " (humans)" } else { "" }
                    ),
                    "Core Rules abilities run 1-19, humans at most 15; write a range like \"8-12\""
                        .into(),
                ),
            }
        }
    }
    for (name, v) in mettle {
        if let Some(v) = v {
            match parse_range(v) {
                Some((a, b)) if a >= 1 && b <= 12 => {}
                _ => push(
                    format!("`{name} = \"{v}\"` is not a pool range within 1-12"),
                    "write a range of dice like \"2-4\"".into(),
                ),
            }
        }
    }
    if system == System::Core && mettle.iter().any(|(_, v)| v.is_some()) {
        push(
            "a Core Rules archetype with METTLE pools".into(),
            "core archetypes use STR, AGI and WIT".into(),
        );
    }
    if system == System::Mettle && core.iter().any(|(_, v)| v.is_some()) {
        push(
            "a METTLE archetype with Core Rules abilities".into(),
            "METTLE archetypes use NATURE, CULTURE, POISE, MOTIVE and FRAME".into(),
        );
    }
    if let Some(d) = &s.damage
        && !["d4", "d6", "d8", "d10", "d12"].contains(&d.as_str())
    {
        push(
            format!("`damage = \"{d}\"` is not a Core Rules damage die"),
            "use d4, d6, d8, d10 or d12".into(),
        );
    }
    let armor_max = if system == System::Mettle { 6 } else { 3 };
    if let Some(a) = s.armor
        && !(0..=armor_max).contains(&a)
    {
        push(
            format!("`armor = {a}` is outside 0-{armor_max}"),
            if armor_max == 3 {
                "armour value never exceeds 3".into()
            } else {
                "METTLE Armor on a stat block runs 0-6".into()
            },
        );
    }
    if let Some(o) = s.omens
        && !(0..=2).contains(&o)
    {
        push(
            format!("`omens = {o}` is outside 0-2"),
            "most GM characters have 0 omens, important ones 1 or 2".into(),
        );
    }
    if let Some(dm) = s.dm
        && !(0..=10).contains(&dm)
    {
        push(
            format!("`dm = {dm}` is outside 0-10"),
            "weapon DM is a small bonus added to Edge".into(),
        );
    }
}

fn cross_checks(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Problem>,
) {
    let file_of = |t: &Table| files.iter().find(|f| f.name == t.origin.file);
    // References.
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for t in tables.values() {
        let edges = graph.entry(t.id.as_str()).or_default();
        for row in &t.rows {
            for (id, _) in template::references(&row.template) {
                if tables.contains_key(id) {
                    edges.insert(tables.get_key_value(id).expect("present").0.as_str());
                } else {
                    let hint = match closest(id, tables.keys().map(String::as_str)) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "run `tablewright tables` to list the ids".into(),
                    };
                    let (line, column) = file_of(t)
                        .and_then(|f| f.text.find(&format!("table:{id}")).map(|at| f.line_col(at)))
                        .unwrap_or((row.line, 1));
                    problems.push(Problem {
                        file: t.origin.file.clone(),
                        line,
                        column,
                        table: Some(t.id.clone()),
                        message: format!(
                            "row `{}` refers to `{{table:{id}}}`, which does not exist",
                            row.name
                        ),
                        hint: Some(hint),
                    });
                }
            }
        }
    }
    // Cycles (depth-first, in id order, so the report is stable).
    let mut state: BTreeMap<&str, u8> = BTreeMap::new(); // 1 visiting, 2 done
    fn visit<'a>(
        id: &'a str,
        graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
        cycles: &mut Vec<Vec<&'a str>>,
    ) {
        state.insert(id, 1);
        path.push(id);
        for &next in graph.get(id).into_iter().flatten() {
            match state.get(next) {
                Some(1) => {
                    let start = path.iter().position(|p| *p == next).expect("on path");
                    let mut cycle = path[start..].to_vec();
                    cycle.push(next);
                    cycles.push(cycle);
                }
                Some(_) => {}
                None => visit(next, graph, state, path, cycles),
            }
        }
        path.pop();
        state.insert(id, 2);
    }
    let mut cycles = Vec::new();
    for &id in graph.keys() {
        if !state.contains_key(id) {
            visit(id, &graph, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    for cycle in cycles {
        let t = &tables[cycle[0]];
        problems.push(at_table(
            t,
            format!(
                "tables refer to each other in a loop: {}",
                cycle.join(" → ")
            ),
            "a roll would never finish; break the loop by removing one reference",
        ));
    }
}
