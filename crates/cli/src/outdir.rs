//! The output folder of a command. It is created up front (so an unwritable path fails before
//! any work) and removed again if the command fails before `finish`, so a failed run never
//! leaves a half-written folder behind. A folder that already existed is left in place.

use crate::error::CliError;
use std::path::{Path, PathBuf};

pub struct OutDir {
    path: PathBuf,
    created: bool,
    finished: bool,
}

impl OutDir {
    /// Creates `path` (and parents). `flag` names the option for the error message.
    pub fn create(flag: &str, path: &Path) -> Result<OutDir, CliError> {
        if path.exists() && !path.is_dir() {
            return Err(CliError::usage(format!("{flag}: expected a folder, but '{}' exists and is not one", path.display())));
        }
        let created = !path.exists();
        std::fs::create_dir_all(path)
            .map_err(|e| CliError::usage(format!("{flag}: expected a folder that can be created, '{}': {e}", path.display())))?;
        let probe = path.join(".pathpool-write-test");
        if let Err(e) = std::fs::write(&probe, b"") {
            if created {
                let _ = std::fs::remove_dir_all(path);
            }
            return Err(CliError::usage(format!("{flag}: expected a writable folder, '{}': {e}", path.display())));
        }
        let _ = std::fs::remove_file(&probe);
        Ok(OutDir { path: path.to_path_buf(), created, finished: false })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Marks the output complete: it is kept.
    pub fn finish(mut self) {
        self.finished = true;
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if !self.finished && self.created {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}
