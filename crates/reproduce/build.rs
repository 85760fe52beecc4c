//! Embeds the papers' scenario files (`scenarios/papers/<paper>/*.toml`) in the library, so
//! `pathpool reproduce` runs from any folder and from an installed binary.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/papers");
    println!("cargo::rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if let Ok(papers) = std::fs::read_dir(&root) {
        for paper in papers.flatten().filter(|e| e.path().is_dir()) {
            println!("cargo::rerun-if-changed={}", paper.path().display());
            for file in std::fs::read_dir(paper.path()).into_iter().flatten().flatten() {
                let path = file.path();
                if path.extension().is_some_and(|e| e == "toml") {
                    let name = format!("{}/{}", paper.file_name().to_string_lossy(), file.file_name().to_string_lossy());
                    let absolute = path.canonicalize().expect("a scenario file that was just listed");
                    files.push((name, absolute));
                }
            }
        }
    }
    // Sorted, so the generated table (and the binary) does not depend on directory order.
    files.sort();
    let mut out = String::from("/// (`<paper>/<file>.toml`, its text), sorted by name.\npub static FILES: &[(&str, &str)] = &[\n");
    for (name, path) in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("built_in_scenarios.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
