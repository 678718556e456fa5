//! Bounds on what a template may do, counted and never timed, so that a
//! template from `--templates` (or a bundle) cannot hang `prep` or eat the
//! machine's memory: reading a template file (a regular file, UTF-8, no
//! `set_global`), `range` (at most [`MAX_RANGE`] numbers in one rendering,
//! so nested loops over big ranges stop at once), and the output of one
//! rendering (at most [`MAX_OUTPUT`] bytes).

use std::cell::Cell;
use std::path::Path;

use tera::{Context, Kwargs, State, Tera};

use super::TemplateError;
use crate::output::Capped;

/// Numbers `range` may give in one rendering.
pub(super) const MAX_RANGE: u64 = 1_000_000;
/// Bytes one rendering may write.
pub(super) const MAX_OUTPUT: usize = 16 << 20;

thread_local! {
    /// Numbers `range` has given in the rendering under way.
    static RANGED: Cell<u64> = const { Cell::new(0) };
}

/// Render `name` within the budgets.
pub(super) fn render(tera: &Tera, name: &str, context: &Context) -> Result<String, TemplateError> {
    RANGED.with(|r| r.set(0));
    let mut out = Capped::new(MAX_OUTPUT);
    let result = tera.render_to(name, context, &mut out);
    RANGED.with(|r| r.set(0));
    match result {
        Ok(()) => String::from_utf8(out.into_bytes())
            .map_err(|_| TemplateError(format!("rendering `{name}` gave text that is not UTF-8"))),
        Err(_) if out.over() => Err(TemplateError(format!(
            "the template `{name}` wrote more than {} MiB, the most one handout may hold; \
             check its loops",
            MAX_OUTPUT >> 20
        ))),
        Err(e) => Err(TemplateError(format!("rendering `{name}` failed: {e}"))),
    }
}

/// tera's `range(end, start=0, step_by=1)`, counting what it gives
/// against [`MAX_RANGE`] for the rendering.
pub(super) fn range(kwargs: Kwargs, _: &State) -> tera::TeraResult<Vec<i128>> {
    let start = kwargs.get::<i128>("start")?.unwrap_or_default();
    let end = kwargs.must_get::<i128>("end")?;
    let step = kwargs.get::<i128>("step_by")?.unwrap_or(1);
    if step == 0 {
        return Err(tera::Error::message("`range` was given step_by = 0"));
    }
    let span = if step > 0 {
        end.saturating_sub(start)
    } else {
        start.saturating_sub(end)
    };
    let len = if span <= 0 {
        0
    } else {
        span.saturating_add(step.saturating_abs() - 1) / step.saturating_abs()
    };
    let used = RANGED.with(|r| r.get());
    let total = u64::try_from(len).unwrap_or(u64::MAX).saturating_add(used);
    if total > MAX_RANGE {
        return Err(tera::Error::message(format!(
            "`range` would give more than {MAX_RANGE} numbers in one handout (the budget of a \
             template); check the template's loops"
        )));
    }
    RANGED.with(|r| r.set(total));
    Ok((0..len).map(|i| start + i * step).collect())
}

/// A user's template file: a regular file of UTF-8 text (pointed at by
/// line and column if not) without `set_global`.
pub(super) fn read_template(path: &Path) -> Result<String, TemplateError> {
    let shown = path.display();
    let bytes = crate::bounded::read_bytes(path)
        .map_err(|e| TemplateError(format!("cannot read the template {shown}: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let (line, col) = line_col(&e.as_bytes()[..good]);
        TemplateError(format!(
            "{shown}:{line}:{col}: the template is not UTF-8 text\n    hint: save it as UTF-8 in \
             your editor"
        ))
    })?;
    if let Some(at) = text.find("set_global") {
        let (line, col) = line_col(&text.as_bytes()[..at]);
        return Err(TemplateError(format!(
            "{shown}:{line}:{col}: a template may not use `set_global` (it can grow without \
             bound across a loop)\n    hint: build the text inside the loop, or use `set` there"
        )));
    }
    Ok(text)
}

/// Line and column (from 1, in characters) just after `before`.
fn line_col(before: &[u8]) -> (usize, usize) {
    let text = String::from_utf8_lossy(before);
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tera(text: &str) -> Tera {
        let mut t = Tera::new();
        t.register_function("range", range);
        t.add_raw_template("t", text).unwrap();
        t
    }

    #[test]
    fn nested_ranges_stop_at_the_budget() {
        let t = tera(
            "{% for i in range(end=100000) %}{% for j in range(end=100000) %}{% endfor %}{% endfor %}",
        );
        let e = render(&t, "t", &Context::new()).unwrap_err();
        assert!(e.0.contains("more than 1000000 numbers"), "{e}");
        // Ranges as the built-in templates use them are untouched.
        let t = tera(
            "{% for i in range(end=3) %}☐{% endfor %}|{% for i in range(start=5, end=1, step_by=-2) %}{{ i }}{% endfor %}",
        );
        assert_eq!(render(&t, "t", &Context::new()).unwrap(), "☐☐☐|53");
    }

    #[test]
    fn output_stops_at_the_budget() {
        let t = tera(
            "{% for i in range(end=1000) %}{% for j in range(end=1000) %}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{% endfor %}{% endfor %}",
        );
        let e = render(&t, "t", &Context::new()).unwrap_err();
        assert!(e.0.contains("wrote more than 16 MiB"), "{e}");
    }

    #[test]
    fn template_files_are_checked() {
        let dir = std::env::temp_dir().join(format!("tw-tpl-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("pack.md.tera");
        std::fs::write(&p, b"ok\n{% set_global s = s ~ s %}").unwrap();
        let e = read_template(&p).unwrap_err();
        assert!(
            e.0.contains("pack.md.tera:2:4: a template may not use `set_global`"),
            "{e}"
        );
        std::fs::write(&p, b"line\nab\xffc").unwrap();
        let e = read_template(&p).unwrap_err();
        assert!(
            e.0.contains("pack.md.tera:2:3: the template is not UTF-8"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
