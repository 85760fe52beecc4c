//! What a kept run was run from, so that `--reuse` takes it only for the same run: a digest of
//! the backend's name, the scenario file's bytes and every override (the seed among them),
//! kept beside the run's outputs in `scenario.digest`.

use std::path::Path;

pub const FILE: &str = "scenario.digest";

/// FNV-1a (`pathpool_reproduce::job::digest`): it tells whether a run came from the same
/// inputs, nothing more.
pub fn of(backend: &str, scenario: &[u8], overrides: &[String]) -> String {
    let mut bytes = Vec::with_capacity(scenario.len() + 64);
    bytes.extend_from_slice(backend.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(scenario);
    for o in overrides {
        bytes.push(0);
        bytes.extend_from_slice(o.as_bytes());
    }
    pathpool_reproduce::job::digest(&bytes)
}

pub fn write(dir: &Path, digest: &str) -> std::io::Result<()> {
    std::fs::write(dir.join(FILE), format!("{digest}\n"))
}

/// The digest kept in `dir`, if any.
pub fn read(dir: &Path) -> Option<String> {
    std::fs::read_to_string(dir.join(FILE)).ok().map(|s| s.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::of;

    #[test]
    fn the_backend_the_file_and_each_override_count() {
        let sets = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let base = of("linux", b"x = 1\n", &sets(&["simulation.seed=1"]));
        assert_eq!(base, of("linux", b"x = 1\n", &sets(&["simulation.seed=1"])));
        assert_ne!(base, of("sim", b"x = 1\n", &sets(&["simulation.seed=1"])));
        assert_ne!(base, of("linux", b"x = 2\n", &sets(&["simulation.seed=1"])));
        assert_ne!(base, of("linux", b"x = 1\n", &sets(&["simulation.seed=2"])));
        assert_ne!(of("linux", b"", &sets(&["a", "b"])), of("linux", b"", &sets(&["ab"])));
    }
}
