//! One or more capture files read as one stream in time order (a k-way merge by each file's
//! next record), e.g. the two link captures of a multipath connection's receiver.

use crate::error::CaptureError;
use crate::file::{CaptureReader, Record};
use std::fs::File;
use std::path::{Path, PathBuf};

pub struct Inputs {
    readers: Vec<CaptureReader<File>>,
}

impl Inputs {
    pub fn open(paths: &[PathBuf]) -> Result<Inputs, CaptureError> {
        let readers = paths.iter().map(|p| open_one(p)).collect::<Result<Vec<_>, _>>()?;
        Ok(Inputs { readers })
    }

    /// Calls `f` with every record of every file, in time order across files (file order
    /// within one file). Returns, per file, where it was cut if it ends inside a record.
    pub fn for_each(&mut self, mut f: impl FnMut(&Record<'_>)) -> Result<Vec<Option<(u64, usize)>>, CaptureError> {
        if let [r] = self.readers.as_mut_slice() {
            while r.advance()? {
                f(&r.current());
            }
        } else {
            for r in &mut self.readers {
                r.advance()?;
            }
            loop {
                let next = self.readers.iter().enumerate().filter_map(|(i, r)| r.current_ts().map(|t| (t, i))).min();
                let Some((_, i)) = next else { break };
                f(&self.readers[i].current());
                self.readers[i].advance()?;
            }
        }
        Ok(self.readers.iter().map(|r| r.truncated).collect())
    }

    pub fn names(&self) -> Vec<String> {
        self.readers.iter().map(|r| r.name().to_string()).collect()
    }
}

fn open_one(path: &Path) -> Result<CaptureReader<File>, CaptureError> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| CaptureError::new(&name, 0, format!("cannot open: {e}")))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(CaptureError::new(&name, 0, "is a folder, expected a pcap or pcapng file"));
    }
    CaptureReader::new(&name, file)
}
