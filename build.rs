//! Embeds every `content/**/*.toml` file in the binary, in sorted order, so
//! the tool works with no files around it.

use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    println!("cargo:rerun-if-changed=content");
    let mut files = Vec::new();
    collect(&root, &mut files);
    let mut code = String::from(
        "/// Built-in content: (path under content/, text).\npub static BUILTIN: &[(&str, &str)] = &[\n",
    );
    for path in &files {
        let rel = path.strip_prefix(&root).expect("under content/");
        let rel = rel.to_string_lossy().replace('\\', "/");
        code.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("builtin_content.rs");
    std::fs::write(out, code).expect("write builtin_content.rs");
}
