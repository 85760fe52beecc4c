//! The crate dependency rules of docs/architecture.md hold: the table there is the
//! workspace's resolved dependency graph as `cargo metadata` reports it (every feature on,
//! so a dependency behind a feature counts), the algorithm crates depend on no other
//! pathpool crate, the backends do not depend on each other, the experiment layer depends
//! on no backend, and no crate compiles another's files through `#[path]` (an edge Cargo and
//! the table cannot see).

mod support;
use std::collections::{BTreeMap, BTreeSet};
use support::rust_files;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// crate name -> the workspace crates it depends on in cargo's resolved graph (normal and
/// build dependencies; dev-dependencies excluded).
fn declared() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline", "--all-features"])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let members: BTreeSet<&str> = meta["workspace_members"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let name_of: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let mut graph = BTreeMap::new();
    for node in meta["resolve"]["nodes"].as_array().expect("cargo metadata: resolve.nodes") {
        let id = node["id"].as_str().unwrap();
        if !members.contains(id) {
            continue;
        }
        let deps = node["deps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| members.contains(d["pkg"].as_str().unwrap()))
            .filter(|d| d["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].as_str() != Some("dev")))
            .map(|d| name_of[d["pkg"].as_str().unwrap()].to_string())
            .collect();
        graph.insert(name_of[id].to_string(), deps);
    }
    graph
}

/// The table of docs/architecture.md: crate -> the dependencies it lists.
fn documented() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let mut out = BTreeMap::new();
    for row in text.lines().filter(|l| l.starts_with("| `pathpool")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let name = cells[1].split('`').nth(1).unwrap().to_string();
        let deps: BTreeSet<String> = match cells[3] {
            "nothing" => BTreeSet::new(),
            "all of the above" => BTreeSet::from(["*".to_string()]),
            list => list.split(", ").map(|d| format!("pathpool-{d}")).collect(),
        };
        out.insert(name, deps);
    }
    out
}

#[test]
fn the_documented_table_is_the_resolved_graph() {
    let (declared, documented) = (declared(), documented());
    assert_eq!(
        declared.keys().collect::<Vec<_>>(),
        documented.keys().collect::<Vec<_>>(),
        "docs/architecture.md: the crate table should list every workspace crate"
    );
    for (name, deps) in &documented {
        let others: BTreeSet<String> = declared.keys().filter(|k| *k != name).cloned().collect();
        let expected = if deps.contains("*") { &others } else { deps };
        assert_eq!(&declared[name], expected, "docs/architecture.md: dependencies of {name}");
    }
}

/// The backends, each as the crates that make it up: the simulator is its engine and the
/// scenario runner on it.
const BACKENDS: [&[&str]; 4] = [&["pathpool-sim", "pathpool-scenario"], &["pathpool-windowsim"], &["pathpool-testbed"], &["pathpool-quic"]];

#[test]
fn algorithms_stand_alone_and_backends_do_not_use_each_other() {
    let declared = declared();
    for algorithm in ["pathpool-cc", "pathpool-sbd"] {
        assert!(declared[algorithm].is_empty(), "{algorithm} depends on {:?}", declared[algorithm]);
    }
    for (i, backend) in BACKENDS.iter().enumerate() {
        for b in backend.iter() {
            for other in BACKENDS.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, o)| o.iter()) {
                assert!(!declared[*b].contains(*other), "backend {b} depends on backend {other}");
            }
        }
    }
}

/// `a/b/../c` -> `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The file a `#[path = "..."]` attribute names, relative to the folder of the file it is in.
fn path_attributes(file: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("#[path"))
        .filter_map(|rest| rest.split('"').nth(1))
        .map(|target| normalize(&file.parent().unwrap().join(target)))
        .collect()
}

#[test]
fn no_crate_compiles_files_of_another() {
    let root = normalize(&root());
    let mut outside = Vec::new();
    for krate in std::fs::read_dir(root.join("crates")).unwrap().flatten().map(|e| e.path()).filter(|p| p.join("Cargo.toml").exists()) {
        let mut files = Vec::new();
        rust_files(&krate, &mut files);
        for file in files {
            for target in path_attributes(&file) {
                if !target.starts_with(&krate) {
                    outside.push(format!("{} -> {}", file.strip_prefix(&root).unwrap().display(), target.strip_prefix(&root).unwrap_or(&target).display()));
                }
            }
        }
    }
    assert!(outside.is_empty(), "#[path] reaching outside its crate (make the code a library crate and depend on it): {outside:#?}");
}

/// What backends share is no backend: the emulated network depends on none of them.
#[test]
fn the_shared_network_depends_on_no_backend() {
    let declared = declared();
    for b in BACKENDS.iter().flat_map(|b| b.iter()).chain(&["pathpool-kernel"]) {
        assert!(!declared["pathpool-netlab"].contains(*b), "pathpool-netlab depends on {b}: it is shared by backends and must know none");
    }
}

#[test]
fn the_experiment_layer_depends_on_no_backend() {
    let declared = declared();
    let layer = &declared["pathpool-experiment"];
    for b in BACKENDS.iter().flat_map(|b| b.iter()).chain(&["pathpool-kernel"]) {
        assert!(!layer.contains(*b), "pathpool-experiment depends on {b}: the scenario layer must know no backend");
    }
}
