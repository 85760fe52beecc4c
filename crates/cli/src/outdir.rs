//! The output folder of a command (`pathpool_reproduce::out_folder`): files are written into a
//! staging folder inside it and replace the previous run's files only when the command
//! finished; a folder with files pathpool did not write, or one another run is writing into,
//! is refused before any work.

use crate::error::CliError;
use pathpool_reproduce::out_folder::OutFolder;
use std::path::{Path, PathBuf};

pub struct OutDir {
    folder: OutFolder,
}

impl OutDir {
    /// Opens `path` (created with its parents). `flag` names the option for messages.
    pub fn create(flag: &str, path: &Path) -> Result<OutDir, CliError> {
        Self::create_reading(flag, path, &[])
    }

    /// As `create`, refusing a folder that holds one of `inputs`: the run would replace the
    /// files it reads.
    pub fn create_reading(flag: &str, path: &Path, inputs: &[&Path]) -> Result<OutDir, CliError> {
        Ok(OutDir { folder: OutFolder::open_reading(flag, path, inputs).map_err(CliError::usage)? })
    }

    /// Where the command writes (the staging folder until `finish`).
    pub fn path(&self) -> &Path {
        self.folder.path()
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.folder.path().join(name)
    }

    /// The folder the user named: for messages, and where the files are after `finish`.
    pub fn target(&self) -> &Path {
        self.folder.target()
    }

    /// Marks the output complete: it replaces the previous run's.
    pub fn finish(self) -> Result<(), CliError> {
        self.folder.finish().map_err(CliError::runtime)
    }
}
