//! Maps saved by `gen map --json` (the whole report or one map), read for
//! `gen journey --map`: JSON errors pointed at, the map checked whole.

use std::path::Path;

use super::read_text;
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::generators::map::Map;

/// A saved map, read and checked.
pub fn read_map(path: &Path) -> Result<Map, Error> {
    let shown = path.display().to_string();
    let text = read_text(path, "map")?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        let d = Diagnostic::at(
            &shown,
            e.line(),
            e.column(),
            format!("the map is not JSON: {e}"),
        );
        Error::input(d.with_source(&text, 1))
    })?;
    let map_value = match value.get("items").and_then(|i| i.get(0)) {
        Some(first) => first.clone(),
        None => value,
    };
    let map: Map = serde_json::from_value(map_value).map_err(|e| {
        let message = format!("this is not a map saved by `gen map --json`: {e}");
        Error::input(Diagnostic::at(&shown, 0, 0, message))
    })?;
    let problems = crate::generators::map::check(&map);
    if !problems.is_empty() {
        let message = format!("the map is broken: {}", problems.join("; "));
        return Err(Error::input(Diagnostic::at(&shown, 0, 0, message)));
    }
    Ok(map)
}
