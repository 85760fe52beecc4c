//! The crate dependency rules of docs/architecture.md hold: the table there is what the
//! crates' Cargo.toml files declare, the algorithm crates depend on no other pathpool crate,
//! and the backends do not depend on each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// crate name -> the pathpool crates in its `[dependencies]` (dev-dependencies excluded).
fn declared() -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else { continue };
        let (mut name, mut deps, mut section) = (None, BTreeSet::new(), String::new());
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line.to_string();
            } else if section == "[package]" && line.starts_with("name") {
                name = line.split('"').nth(1).map(str::to_string);
            } else if section == "[dependencies]" && line.starts_with("pathpool-") {
                deps.insert(line.split(['.', ' ', '=']).next().unwrap().to_string());
            }
        }
        out.insert(name.unwrap_or_else(|| panic!("{}: no [package] name", manifest.display())), deps);
    }
    out
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
fn the_documented_table_is_what_the_manifests_declare() {
    let (declared, documented) = (declared(), documented());
    assert_eq!(
        declared.keys().collect::<Vec<_>>(),
        documented.keys().collect::<Vec<_>>(),
        "docs/architecture.md: the crate table should list every crate of crates/"
    );
    for (name, deps) in &documented {
        let others: BTreeSet<String> = declared.keys().filter(|k| *k != name).cloned().collect();
        let expected = if deps.contains("*") { &others } else { deps };
        assert_eq!(&declared[name], expected, "docs/architecture.md: dependencies of {name}");
    }
}

#[test]
fn algorithms_stand_alone_and_backends_do_not_use_each_other() {
    let declared = declared();
    for algorithm in ["pathpool-cc", "pathpool-sbd"] {
        assert!(declared[algorithm].is_empty(), "{algorithm} depends on {:?}", declared[algorithm]);
    }
    let backends = ["pathpool-sim", "pathpool-windowsim", "pathpool-testbed"];
    for b in backends {
        for other in backends.iter().filter(|&&o| o != b) {
            assert!(!declared[b].contains(*other), "{b} depends on {other}");
        }
    }
}
