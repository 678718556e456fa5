//! The house keeps its size rules (issue 39), measured on the code under
//! src/ without its test code (items under `#[cfg(test)]` and the files
//! they declare):
//!
//! - no function longer than [`MAX_FN_LINES`] lines (from the line of its
//!   `fn` to the line of its closing brace);
//! - no file longer than [`MAX_FILE_CODE`] lines of code (lines with
//!   something on them other than a comment);
//! - no circle of files: no file reaches, through the files it takes names
//!   from, back to itself. A file's uses are its `crate::…`, `super::…` and
//!   `self::…` paths and the paths through the modules it declares, each
//!   resolved to the deepest file that path names; a part using its own
//!   module's file (`super::Thing` from `mod.rs`) is not an arrow, since a
//!   module and its parts are one thing;
//! - `lib.rs` makes at most [`MAX_PUB_MODULES`] modules public.
//!
//! The code written before these rules breaks some of them. Those places
//! are listed below, each with its size today: a ratchet. A new offender
//! fails, a listed one that grows fails, and a listed one that is mended
//! fails until it is struck off its list, so the lists only ever shrink.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::architecture::{code_only, module_files, root, rust_files, source_dirs, without_tests};

const MAX_FN_LINES: usize = 100;
const MAX_FILE_CODE: usize = 600;
const MAX_PUB_MODULES: usize = 8;

/// Functions over the limit when the rule came in (the code as it landed
/// with issue 38's first steps): file, name, lines.
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[];

/// Files over the limit when the rule came in: file, lines of code.
const LONG_FILES: &[(&str, usize)] = &[];

/// Circles of files when the rule came in, each its files joined by ` ↔ `
/// in path order.
const CIRCLES: &[&str] = &[];

/// One source file of the library: its path from the crate root, its
/// module path, its text and its code (comments, strings and test code
/// blanked out, lines kept).
struct Source {
    path: String,
    module: Vec<String>,
    text: String,
    /// Comments and strings blanked.
    plain: Vec<u8>,
    /// `plain` with test code blanked too.
    code: Vec<u8>,
}

/// Every file of the library (not main.rs, a binary of its own, and not a
/// file only tests declare).
fn sources() -> Vec<Source> {
    let root = root();
    let mut files = Vec::new();
    for dir in source_dirs() {
        rust_files(&dir, &mut files);
    }
    let mut test_files = Vec::new();
    let mut out = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let plain = code_only(&text);
        let mut code = plain.clone();
        for name in without_tests(&mut code) {
            test_files.extend(module_files(file, &name));
        }
        let rel = file.strip_prefix(&root).unwrap();
        let path = rel.to_string_lossy().replace('\\', "/");
        if path == "src/main.rs" {
            continue;
        }
        let module = module_path(rel);
        out.push((
            file.clone(),
            Source {
                path,
                module,
                text,
                plain,
                code,
            },
        ));
    }
    out.into_iter()
        .filter(|(file, _)| !test_files.iter().any(|t| file.starts_with(t)))
        .map(|(_, s)| s)
        .collect()
}

/// `src/a/b.rs` is `a::b`; `src/a/mod.rs` is `a`; `src/lib.rs` the root
/// (and the same under a library crate's `crates/*/src/`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .skip_while(|p| *p != "src")
        .skip(1)
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

fn ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn line_at(code: &[u8], at: usize) -> usize {
    code[..at].iter().filter(|&&c| c == b'\n').count() + 1
}

/// The word starting at `at` (after any white space) and where it ends.
fn word_at(code: &[u8], at: usize) -> (String, usize) {
    let from = at
        + code[at..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
    let len = code[from..].iter().take_while(|&&c| ident(c)).count();
    (
        String::from_utf8_lossy(&code[from..from + len]).into_owned(),
        from + len,
    )
}

/// Every function with a body in `code`: its name, first line and length
/// in lines.
fn functions(code: &[u8]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = code[i..].windows(3).position(|w| w == b"fn ") {
        let at = i + p;
        i = at + 3;
        if at > 0 && (ident(code[at - 1]) || code[at - 1] == b'&') {
            continue;
        }
        let (name, after) = word_at(code, at + 3);
        if name.is_empty() {
            continue;
        }
        if let Some(end) = body_end(code, after) {
            out.push((
                name,
                line_at(code, at),
                line_at(code, end) - line_at(code, at) + 1,
            ));
        }
    }
    out
}

/// Where the body that follows a function's signature at `from` closes, or
/// `None` for a signature without a body (`fn f();`).
fn body_end(code: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut j = from;
    while j < code.len() {
        match code[j] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' if depth == 0 => return None,
            b'{' if depth == 0 => break,
            _ => {}
        }
        j += 1;
    }
    let mut braces = 0i32;
    while j < code.len() {
        match code[j] {
            b'{' => braces += 1,
            b'}' => {
                braces -= 1;
                if braces == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// Lines of code in a file without its test code: lines with code on
/// them, and lines inside a string (blank in `plain`, not in `text`, and
/// not a comment).
fn lines_of_code(s: &Source) -> usize {
    let blank = |l: &[u8]| l.iter().all(|c| c.is_ascii_whitespace());
    s.text
        .lines()
        .zip(s.plain.split(|&c| c == b'\n'))
        .zip(s.code.split(|&c| c == b'\n'))
        .filter(|((text, plain), code)| {
            let t = text.trim();
            let comment = t.starts_with("//") || t.starts_with("/*") || t.starts_with('*');
            !blank(code) || (blank(plain) && !t.is_empty() && !comment)
        })
        .count()
}

/// The modules `code` declares with `mod x;` (outside test code).
fn declared(code: &[u8]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut i = 0;
    while let Some(p) = code[i..].windows(4).position(|w| w == b"mod ") {
        let at = i + p;
        i = at + 4;
        if at > 0 && ident(code[at - 1]) {
            continue;
        }
        let (name, after) = word_at(code, at + 4);
        let rest = &code[after..];
        let next = rest.iter().find(|c| !c.is_ascii_whitespace());
        if !name.is_empty() && next == Some(&b';') {
            out.insert(name);
        }
    }
    out
}

/// Every path in `code` that starts at a module (`crate`, `super`, `self`
/// or a declared child), as module segments from the crate root; groups
/// (`use crate::{a, b::{c, d}}`) give one path per item.
fn paths(code: &[u8], own: &[String], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        if !ident(code[i]) || (i > 0 && (ident(code[i - 1]) || code[i - 1] == b':')) {
            i += 1;
            continue;
        }
        let (first, end) = word_at(code, i);
        i = end.max(i + 1);
        if !code[end..].starts_with(b"::") {
            continue;
        }
        let base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => own.to_vec(),
            "super" => own[..own.len().saturating_sub(1)].to_vec(),
            c if children.contains(c) => [own, &[c.to_string()]].concat(),
            _ => continue,
        };
        tail(code, end + 2, base, &mut out);
    }
    out
}

/// The rest of a path from `at` (just after a `::`), given its segments so
/// far, pushed to `out`; a group gives one path per item.
fn tail(code: &[u8], at: usize, mut base: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut j = at;
    loop {
        let skip = code[j..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
        j += skip;
        if code.get(j) == Some(&b'{') {
            for item in group_items(code, j) {
                tail(code, item, base.clone(), out);
            }
            return;
        }
        let (seg, end) = word_at(code, j);
        if seg.is_empty() {
            break;
        }
        if seg == "super" {
            base.pop();
        } else if seg != "self" {
            base.push(seg);
        }
        if !code[end..].starts_with(b"::") {
            break;
        }
        j = end + 2;
    }
    out.push(base);
}

/// Where each item of the group opening at `open` starts.
fn group_items(code: &[u8], open: usize) -> Vec<usize> {
    let mut items = vec![open + 1];
    let mut depth = 0;
    for (k, &c) in code[open..].iter().enumerate() {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => items.push(open + k + 1),
            _ => {}
        }
    }
    items
}

/// file → the files it takes names from (not itself, not the files of the
/// modules it is a part of).
fn arrows(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let by_module: BTreeMap<&[String], &str> = sources
        .iter()
        .map(|s| (s.module.as_slice(), s.path.as_str()))
        .collect();
    let mut out = BTreeMap::new();
    for s in sources {
        let children = declared(&s.code);
        let mut to = BTreeSet::new();
        for path in paths(&s.code, &s.module, &children) {
            let target = (1..=path.len())
                .rev()
                .find_map(|k| by_module.get(&path[..k]).copied());
            let Some(target) = target else { continue };
            let module = &sources.iter().find(|t| t.path == target).unwrap().module;
            let part_of = s.module.starts_with(module);
            if target != s.path && !part_of {
                to.insert(target.to_string());
            }
        }
        out.insert(s.path.clone(), to);
    }
    out
}

/// The circles among `arrows`: each set of two or more files that reach
/// one another (Tarjan's strongly connected components), in path order.
fn circles(arrows: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        arrows: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.arrows.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut circle = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    circle.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if circle.len() > 1 {
                    circle.sort();
                    self.out.push(circle);
                }
            }
        }
    }
    let mut walk = Walk {
        arrows,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in arrows.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.out.sort();
    walk.out
}

/// What breaks a size rule against its list: new offenders, listed ones
/// that grew, and listed ones that are mended or gone.
fn against_list(
    rule: &str,
    found: &BTreeMap<String, usize>,
    listed: &BTreeMap<String, usize>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (what, &size) in found {
        match listed.get(what) {
            None => wrong.push(format!("{what}: {size} ({rule}): make it smaller")),
            Some(&was) if size > was => wrong.push(format!(
                "{what}: {size}, more than the {was} it had when the rule came in ({rule}): \
                 make it smaller"
            )),
            Some(_) => {}
        }
    }
    for (what, was) in listed {
        if !found.contains_key(what) {
            wrong.push(format!(
                "{what}: listed at {was}, now within the rule ({rule}): strike it off the \
                 list in tests/it/house.rs"
            ));
        }
    }
    wrong
}

fn long_functions(sources: &[Source]) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for s in sources {
        for (name, _, len) in functions(&s.code) {
            if len > MAX_FN_LINES {
                let e = out.entry(format!("{} fn {name}", s.path)).or_insert(0);
                *e = len.max(*e);
            }
        }
    }
    out
}

#[test]
fn no_function_is_longer_than_the_rule() {
    let found = long_functions(&sources());
    let listed = LONG_FUNCTIONS
        .iter()
        .map(|(file, name, len)| (format!("{file} fn {name}"), *len))
        .collect();
    let rule = format!("at most {MAX_FN_LINES} lines a function");
    let wrong = against_list(&rule, &found, &listed);
    assert!(
        wrong.is_empty(),
        "functions too long:\n  {}",
        wrong.join("\n  ")
    );
}

#[test]
fn no_file_is_longer_than_the_rule() {
    let found: BTreeMap<String, usize> = sources()
        .iter()
        .map(|s| (s.path.clone(), lines_of_code(s)))
        .filter(|(_, n)| *n > MAX_FILE_CODE)
        .collect();
    let listed = LONG_FILES
        .iter()
        .map(|(f, n)| (f.to_string(), *n))
        .collect();
    let rule = format!("at most {MAX_FILE_CODE} lines of code a file");
    let wrong = against_list(&rule, &found, &listed);
    assert!(
        wrong.is_empty(),
        "files too long:\n  {}",
        wrong.join("\n  ")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let found: BTreeMap<String, usize> = circles(&arrows(&sources()))
        .into_iter()
        .map(|c| (c.join(" ↔ "), c.len()))
        .collect();
    let listed = CIRCLES
        .iter()
        .map(|c| (c.to_string(), c.split(" ↔ ").count()))
        .collect();
    let wrong = against_list("no circle of files", &found, &listed);
    assert!(
        wrong.is_empty(),
        "circles of files:\n  {}",
        wrong.join("\n  ")
    );
}

#[test]
fn lib_exposes_few_modules() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let public = lib
        .lines()
        .filter(|l| l.trim_start().starts_with("pub mod "))
        .count();
    assert!(
        public <= MAX_PUB_MODULES,
        "src/lib.rs makes {public} modules public, more than {MAX_PUB_MODULES}: expose only what \
         the binary, the tests and the benches use (a shared noun as a `pub use` at the root)"
    );
}

#[test]
fn a_function_of_101_lines_and_a_new_circle_are_caught() {
    // The measures themselves: a function of 101 lines is over the rule,
    // one of 100 is not, and a signature without a body is no function.
    let body = |n: usize| format!("fn f() {{\n{}}}\n", "    x();\n".repeat(n - 2));
    let text = format!(
        "{}{}trait T {{ fn g(); }}\n",
        body(101),
        body(100).replace("fn f", "fn h")
    );
    let code = code_only(&text);
    let found: Vec<(String, usize)> = functions(&code)
        .into_iter()
        .map(|(n, _, l)| (n, l))
        .collect();
    assert_eq!(found, [("f".to_string(), 101), ("h".to_string(), 100)]);
    let over: BTreeMap<String, usize> = [("src/x.rs fn f".to_string(), 101)].into();
    let wrong = against_list("at most 100 lines a function", &over, &BTreeMap::new());
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(wrong[0].starts_with("src/x.rs fn f: 101"), "{wrong:?}");

    // Two siblings naming each other through `super::` are a circle; a
    // part using its module's own file is not.
    let own = |m: &str| m.split("::").map(str::to_string).collect::<Vec<_>>();
    let a = code_only("use super::b::B;\nfn f() { super::Shared::new(); }\n");
    let b = code_only("pub struct B;\nfn g() { crate::m::a::f(); }\n");
    let none = BTreeSet::new();
    assert_eq!(
        paths(&a, &own("m::a"), &none),
        [own("m::b::B"), own("m::Shared::new")]
    );
    assert_eq!(paths(&b, &own("m::b"), &none), [own("m::a::f")]);
    let sources = [
        ("src/m/a.rs", "m::a", a),
        ("src/m/b.rs", "m::b", b),
        ("src/m/mod.rs", "m", Vec::new()),
    ]
    .map(|(path, module, code)| Source {
        path: path.to_string(),
        module: own(module),
        text: String::new(),
        plain: code.clone(),
        code,
    });
    let found = circles(&arrows(&sources));
    assert_eq!(
        found,
        [vec!["src/m/a.rs".to_string(), "src/m/b.rs".to_string()]]
    );
    let found = found.into_iter().map(|c| (c.join(" ↔ "), 2)).collect();
    let wrong = against_list("no circle of files", &found, &BTreeMap::new());
    assert_eq!(
        wrong,
        ["src/m/a.rs ↔ src/m/b.rs: 2 (no circle of files): make it smaller"]
    );
}
