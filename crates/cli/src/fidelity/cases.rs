//! The suite's cases: the scenario files of its folder, each with a `[fidelity]` table naming
//! its quantity, tolerance, place in the table and quick form.

use crate::comparison::Case;
use crate::error::CliError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct Suite {
    /// The cases to run: those named, in that order, or every one in the table's order.
    pub cases: Vec<Case>,
    /// Every case of the folder and its place in the table (`[fidelity]`'s `order`).
    pub order: BTreeMap<String, u32>,
}

fn files(folder: &Path) -> Result<Vec<PathBuf>, CliError> {
    let entries = std::fs::read_dir(folder).map_err(|e| CliError::usage(format!("--scenarios: expected the suite's folder '{}' (run from the repository's root, or name the folder): {e}", folder.display())))?;
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
    files.sort();
    Ok(files)
}

/// The cases of `folder` (those of `names`, or all), each run with `sets` after, with
/// `quick`, its quick duration and warm-up.
pub fn load(folder: &Path, names: &[String], sets: &[String], quick: bool) -> Result<Suite, CliError> {
    let mut all = Vec::new();
    for file in files(folder)? {
        let c = Case::read(&file, Vec::new())?;
        let Some(spec) = &c.fidelity else {
            return Err(CliError::usage(format!("{}: no [fidelity] table; expected one naming the case's quantity and tolerance (docs/scenarios.md, \"[fidelity]\")", file.display())));
        };
        all.push((spec.order, c));
    }
    all.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.name.cmp(&y.name)));
    let order: BTreeMap<String, u32> = all.iter().map(|(o, c)| (c.name.clone(), *o)).collect();
    let known = || all.iter().map(|(_, c)| c.name.as_str()).collect::<Vec<_>>().join(", ");
    let picked: Vec<&Case> = if names.is_empty() {
        all.iter().map(|(_, c)| c).collect()
    } else {
        let mut picked = Vec::new();
        for name in names {
            let Some((_, c)) = all.iter().find(|(_, c)| c.name == *name) else {
                return Err(CliError::usage(format!("--cases: no case \"{name}\" in '{}'; expected some of {}", folder.display(), known())));
            };
            picked.push(c);
        }
        picked
    };
    let mut cases = Vec::new();
    for c in picked {
        let mut overrides = Vec::new();
        if quick {
            let spec = c.fidelity.as_ref().expect("checked above");
            let Some((duration, warmup)) = &spec.quick else {
                return Err(CliError::usage(format!("{}: --quick needs fidelity.quick_duration and fidelity.quick_warmup (a quick run's duration and warm-up)", c.file.display())));
            };
            overrides.push(format!("simulation.duration={}", duration.value));
            overrides.push(format!("simulation.warmup={}", warmup.value));
        }
        overrides.extend(sets.iter().cloned());
        cases.push(Case::read(&c.file, overrides)?);
    }
    Ok(Suite { cases, order })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity")
    }

    /// A scenario file without its comments, description and `[fidelity]` table, and with the
    /// MPTCP flow's cc put back to "uncoupled".
    fn skeleton(name: &str, cc: &str) -> String {
        let text = std::fs::read_to_string(folder().join(format!("{name}.toml"))).unwrap();
        let text = &text[..text.find("\n[fidelity]").expect("a [fidelity] table")];
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with('#') && !l.starts_with("description = ")).collect();
        let ccs = lines.iter().filter(|l| **l == format!("cc = \"{cc}\"")).count();
        assert_eq!(ccs, 1, "{name}: one flow with cc = \"{cc}\"");
        lines.join("\n").trim_end().replace(&format!("cc = \"{cc}\""), "cc = \"uncoupled\"")
    }

    /// Every file of the suite is a case, each in a place of its own in the table.
    #[test]
    fn every_file_is_a_case_with_a_place_of_its_own() {
        let suite = load(&folder(), &[], &[], true).unwrap();
        let files = std::fs::read_dir(folder()).unwrap().count();
        assert_eq!(suite.cases.len(), files);
        let mut places: Vec<u32> = suite.order.values().copied().collect();
        places.dedup();
        assert_eq!(places.len(), files, "{:?}", suite.order);
        assert_eq!(suite.cases[0].name, "reno-alone");
        assert_eq!(suite.cases[0].overrides, ["simulation.duration=15s", "simulation.warmup=5s"]);
    }

    /// The coupled cases differ from the uncoupled ones only in the MPTCP flow's controller:
    /// the same links, queues, host settings and host latency, so a difference between them is
    /// the controller's; they measure the same quantity within the same tolerance.
    #[test]
    fn coupled_cases_are_the_uncoupled_ones_with_another_cc() {
        for (name, base, cc) in [
            ("lia-shared", "mptcp-shared", "lia"),
            ("olia-shared", "mptcp-shared", "olia"),
            ("balia-shared", "mptcp-shared", "balia"),
            ("olia-disjoint", "mptcp-disjoint", "olia"),
            ("sbd-disjoint", "mptcp-disjoint", "mptcp-sbd"),
            ("sbd-shared", "mptcp-shared", "mptcp-sbd"),
        ] {
            assert_eq!(skeleton(name, cc), skeleton(base, "uncoupled"), "{name} against {base}");
            let spec = Case::read(&folder().join(format!("{name}.toml")), Vec::new()).unwrap().fidelity.expect("a [fidelity] table");
            assert!((spec.tolerance - 0.15).abs() < 1e-12, "{name}: a multipath case, 15 %");
            assert_eq!(spec.quantity.describe(), "`mptcp_mbps` / `tcp_mbps`");
        }
    }

    #[test]
    fn an_unknown_case_is_refused_naming_the_known_ones() {
        let e = load(&folder(), &["reno-alon".to_string()], &[], false).err().expect("refused").to_string();
        assert!(e.starts_with("--cases: no case \"reno-alon\"") && e.contains("reno-alone, reno-rtt"), "{e}");
    }
}
