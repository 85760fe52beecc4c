//! One or more capture files read as one stream in time order (a k-way merge by each file's
//! next record), e.g. the two link captures of a multipath connection's receiver.
//!
//! The analysis reads its captures twice (survey, then samples). A regular file is opened
//! again for the second pass; anything else (a FIFO, a process substitution `<(cat x.pcap)`,
//! a device) can be read only once, so it is read once into memory, up to [`STREAM_LIMIT`].

use crate::error::CaptureError;
use crate::file::{CaptureReader, Record};
use std::fs::File;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest capture taken from a pipe or device: it is held in memory for the two passes.
pub const STREAM_LIMIT: u64 = 256 << 20;

/// Where a capture's bytes come from, for one pass.
pub enum Source {
    File(File),
    Memory(Cursor<Arc<[u8]>>),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Source::File(f) => f.read(buf),
            Source::Memory(c) => c.read(buf),
        }
    }
}

enum Held {
    /// A regular file: opened again for each pass.
    Path(PathBuf),
    /// A stream read once.
    Bytes(Arc<[u8]>),
}

/// The captures of one analysis, each opened (a stream: read) once.
pub struct Captures {
    items: Vec<(String, Held)>,
}

impl Captures {
    pub fn open(paths: &[PathBuf]) -> Result<Captures, CaptureError> {
        let items = paths.iter().map(|p| hold(p).map(|h| (p.display().to_string(), h))).collect::<Result<Vec<_>, _>>()?;
        Ok(Captures { items })
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// A reader for each capture, at its first record.
    pub fn inputs(&self) -> Result<Inputs, CaptureError> {
        let readers = self
            .items
            .iter()
            .map(|(name, h)| {
                let src = match h {
                    Held::Path(p) => Source::File(File::open(p).map_err(|e| CaptureError::new(name, 0, format!("cannot open again for the second pass: {e}")))?),
                    Held::Bytes(b) => Source::Memory(Cursor::new(Arc::clone(b))),
                };
                CaptureReader::new(name, src)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Inputs { readers })
    }
}

fn hold(path: &Path) -> Result<Held, CaptureError> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| CaptureError::new(&name, 0, format!("cannot open: {e}")))?;
    let meta = file.metadata().map_err(|e| CaptureError::new(&name, 0, format!("cannot read its metadata: {e}")))?;
    if meta.is_dir() {
        return Err(CaptureError::new(&name, 0, "is a folder, expected a pcap or pcapng file"));
    }
    if meta.is_file() {
        // The header is checked now, so that a wrong file fails before any pass.
        CaptureReader::new(&name, file)?;
        return Ok(Held::Path(path.to_path_buf()));
    }
    let mut bytes = Vec::new();
    let mut src = file.take(STREAM_LIMIT + 1);
    // The header first (24 bytes: a pcap file header, or more than a pcapng block's start):
    // a device of zeros or random bytes is refused without reading more.
    let mut head = [0u8; 24];
    let mut got = 0;
    while got < head.len() {
        match src.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(CaptureError::new(&name, got as u64, format!("cannot read: {e}"))),
        }
    }
    bytes.extend_from_slice(&head[..got]);
    CaptureReader::new(&name, &head[..got]).map_err(|e| CaptureError { what: format!("{} (read from a pipe or device)", e.what), ..e })?;
    src.read_to_end(&mut bytes).map_err(|e| CaptureError::new(&name, bytes.len() as u64, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > STREAM_LIMIT {
        return Err(CaptureError::new(
            &name,
            STREAM_LIMIT,
            format!("not a regular file (a pipe, FIFO or device), so it is read once into memory for the two passes, and it holds more than {} MiB, the most held; save it to a file and give that", STREAM_LIMIT >> 20),
        ));
    }
    Ok(Held::Bytes(Arc::from(bytes)))
}

pub struct Inputs {
    readers: Vec<CaptureReader<Source>>,
}

impl Inputs {
    /// Calls `f` with every record of every file, in time order across files (file order
    /// within one file), and the index of its file. Returns, per file, where it was cut if it
    /// ends inside a record.
    pub fn for_each(&mut self, mut f: impl FnMut(&Record<'_>, usize)) -> Result<Vec<Option<(u64, usize)>>, CaptureError> {
        if let [r] = self.readers.as_mut_slice() {
            while r.advance()? {
                f(&r.current(), 0);
            }
        } else {
            for r in &mut self.readers {
                r.advance()?;
            }
            loop {
                let next = self.readers.iter().enumerate().filter_map(|(i, r)| r.current_ts().map(|t| (t, i))).min();
                let Some((_, i)) = next else { break };
                f(&self.readers[i].current(), i);
                self.readers[i].advance()?;
            }
        }
        Ok(self.readers.iter().map(|r| r.truncated).collect())
    }

    /// Per file: records whose time was clamped, and the first of them ([`CaptureReader::clamped`]).
    pub fn clamped(&self) -> Vec<(u64, Option<u64>)> {
        self.readers.iter().map(|r| r.clamped).collect()
    }

    pub fn names(&self) -> Vec<String> {
        self.readers.iter().map(|r| r.name().to_string()).collect()
    }
}
