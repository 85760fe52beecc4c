//! Where the papers' scenario files come from: built into the binary (the repository's
//! `scenarios/papers` at build time, so an installed `pathpool` reproduces from any folder),
//! or a folder the user names with `--scenarios` (to try edited scenarios without a rebuild).

use std::path::{Path, PathBuf};

mod built_in {
    include!(concat!(env!("OUT_DIR"), "/built_in_scenarios.rs"));
}

/// The folder name built-in files are reported under (in errors and job specs).
pub const BUILT_IN: &str = "(built-in scenarios)";

/// The source of the scenario files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioFiles {
    BuiltIn,
    Folder(PathBuf),
}

impl ScenarioFiles {
    /// The root under which `<paper>/<file>.toml` is named.
    pub fn root(&self) -> PathBuf {
        match self {
            ScenarioFiles::BuiltIn => PathBuf::from(BUILT_IN),
            ScenarioFiles::Folder(dir) => dir.clone(),
        }
    }
}

/// The text of a scenario file named under `ScenarioFiles::root`.
pub fn read(file: &Path) -> Result<String, String> {
    match file.strip_prefix(BUILT_IN) {
        Ok(rest) => {
            let key = rest.to_string_lossy().replace('\\', "/");
            built_in::FILES
                .binary_search_by(|(name, _)| name.cmp(&key.as_str()))
                .map(|i| built_in::FILES[i].1.to_string())
                .map_err(|_| format!("'{}': no such built-in scenario file", file.display()))
        }
        Err(_) => std::fs::read_to_string(file).map_err(|e| format!("cannot read the scenario file '{}': {e}", file.display())),
    }
}

/// A scenario file loaded with `overrides` (as `pathpool run --set`).
pub fn load(file: &Path, overrides: &[String]) -> Result<pathpool_scenario::Loaded, String> {
    let text = read(file)?;
    pathpool_scenario::load_str(&file.display().to_string(), &text, overrides).map_err(|e| e.to_string())
}

/// The built-in files' names (`<paper>/<file>.toml`).
pub fn built_in_names() -> impl Iterator<Item = &'static str> {
    built_in::FILES.iter().map(|(name, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_paper_has_built_in_files_equal_to_the_repository_copies() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/papers");
        let names: Vec<&str> = built_in_names().collect();
        for paper in ["ferlin2016", "raiciu2009", "zhang2019", "zongor2019", "jowkar2022"] {
            assert!(names.iter().any(|n| n.starts_with(&format!("{paper}/"))), "no built-in scenario for {paper}");
        }
        for name in names {
            let built_in = read(&Path::new(BUILT_IN).join(name)).unwrap();
            assert_eq!(built_in, std::fs::read_to_string(repo.join(name)).unwrap(), "{name}");
        }
    }

    #[test]
    fn an_unknown_built_in_file_is_named_in_the_error() {
        let e = read(&Path::new(BUILT_IN).join("ferlin2016/nsb-9.toml")).unwrap_err();
        assert!(e.contains("ferlin2016/nsb-9.toml") && e.contains("built-in"), "{e}");
    }
}
