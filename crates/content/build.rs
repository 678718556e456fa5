//! Embeds every `content/**/*.toml` table file of the repository in the
//! crate, in sorted order, so the tool works with no files around it; and
//! the built-in tables' compact form (`assets/builtin-tables.bin`, see
//! `crates/content/src/content/compact.rs`) when it was made from these
//! very files. Both live at the top of the repository (the design card's
//! shape); this crate reaches them through links in its own folder
//! (`content` and `assets/builtin-tables.*`), so that `cargo package`
//! copies the files themselves into the crate and a published crate
//! builds on its own.

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
    let root = top().join(folder);
    println!("cargo:rerun-if-changed={TOP}/{folder}");
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
            format!("/{TOP}/{folder}/{rel}")
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join(out_file);
    std::fs::write(out, code).expect("write the embedded list");
}

/// FNV-1a, 64 bits: the stamp of what the compact form was made from.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

/// The compact form of the built-in tables, embedded only when its stamp
/// is that of today's table files; else the binary checks the TOML files
/// when it runs, as before. (The form's format has its version in its
/// first bytes, read by `src/content/compact.rs`.)
fn compact() {
    let top = top();
    let root = top.as_path();
    let form = "assets/builtin-tables.bin";
    let texts = "assets/builtin-tables.txt";
    println!("cargo:rerun-if-changed={TOP}/{form}");
    println!("cargo:rerun-if-changed={TOP}/{texts}");
    let mut files = Vec::new();
    collect(&root.join("content"), "toml", &mut files);
    let mut stamp = 0xcbf2_9ce4_8422_2325_u64;
    for path in &files {
        let rel = path.strip_prefix(root).expect("under the root");
        let text =
            std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        fnv(
            &mut stamp,
            rel.to_string_lossy().replace('\\', "/").as_bytes(),
        );
        fnv(&mut stamp, &(text.len() as u64).to_le_bytes());
        fnv(&mut stamp, &text);
    }
    let kept = std::fs::read(root.join(form)).ok();
    let kept_stamp = kept
        .as_ref()
        .and_then(|b| b.get(8..16))
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")));
    let has_texts = root.join(texts).is_file();
    let compact = if kept_stamp == Some(stamp) && has_texts {
        format!(
            "Some((include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{TOP}/{form}\")), \
             include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{TOP}/{texts}\"))))"
        )
    } else {
        let why = if !has_texts {
            "has no texts file (assets/builtin-tables.txt)"
        } else if kept.is_some() {
            "was made from other table files"
        } else {
            "is missing"
        };
        println!(
            "cargo:warning={form} {why}: the built-in tables are checked at run time until \
             `UPDATE_GOLDEN=1 cargo test --lib compact` rewrites it"
        );
        "None".to_owned()
    };
    let code = format!(
        "/// The stamp of the table files and the form's format.\n\
         pub(crate) const STAMP: u64 = {stamp:#018x};\n\
         /// The compact form (its bytes and its texts), when made from these files.\n\
         pub(crate) static COMPACT: Option<(&[u8], &str)> = {compact};\n"
    );
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("builtin_compact.rs");
    std::fs::write(out, code).expect("write the compact form's stamp");
}

/// Where the table files and the compact form are found, from this
/// crate's folder: its own links to the repository's top folder (or, in a
/// packaged crate, the copies `cargo package` made of them).
const TOP: &str = ".";

fn top() -> PathBuf {
    // Read at run time: `env!` would bake in the folder the build script was
    // compiled in, so a target folder copied from another checkout would
    // embed that checkout's files.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    Path::new(&manifest).join(TOP)
}

fn main() {
    compact();
    embed("content", "toml", "BUILTIN", "builtin_content.rs");
}
