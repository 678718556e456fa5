//! Embeds every `templates/*.tera` template in the binary, in sorted order,
//! so the tool works with no files around it. (The built-in tables are
//! embedded by the content crate's own build script,
//! `crates/content/build.rs`.)

use std::path::{Path, PathBuf};

fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

fn embed(folder: &str, ext: &str, name: &str, out_file: &str) {
    // Read at run time: `env!` would bake in the folder the build script was
    // compiled in, so a target folder copied from another checkout would
    // embed that checkout's files.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join(folder);
    println!("cargo:rerun-if-changed={folder}");
    let mut files = Vec::new();
    collect(&root, ext, &mut files);
    let mut code = format!(
        "/// Built in: (path under {folder}/, text).\npub(crate) static {name}: &[(&str, &str)] = &[\n"
    );
    for path in &files {
        let rel = path.strip_prefix(&root).expect("under the folder");
        let rel = rel.to_string_lossy().replace('\\', "/");
        // The path is joined at compile time, not written out here, so a
        // build folder copied from another checkout embeds this one's files.
        code.push_str(&format!(
            "    ({rel:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?}))),\n",
            format!("/{folder}/{rel}")
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join(out_file);
    std::fs::write(out, code).expect("write the embedded list");
}

fn main() {
    embed("templates", "tera", "TEMPLATES", "builtin_templates.rs");
}
