//! A trace file read with bounds: a device is refused, and a file or pipe is read up to
//! [`MAX_BYTES`], with no line longer than [`MAX_LINE`], so that `/dev/zero`, an endless
//! stream or a file without line breaks ends with a message instead of using all memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Largest trace file read (a row takes about 20 to 40 bytes: tens of millions of rows).
pub const MAX_BYTES: u64 = 1 << 30;
/// Longest line (a row is three or four short fields).
pub const MAX_LINE: usize = 1 << 16;
/// Rows held at most (32 bytes each in memory).
pub const MAX_ROWS: usize = 20_000_000;

/// A reader that fails once it passed `MAX_BYTES` in all or `MAX_LINE` since a line break.
pub struct Bounded<R> {
    inner: R,
    total: u64,
    line: usize,
    max_bytes: u64,
    max_line: usize,
}

impl<R: Read> Bounded<R> {
    /// `inner` read with the bounds given (in bytes).
    pub fn new(inner: R, max_bytes: u64, max_line: usize) -> Self {
        Bounded { inner, total: 0, line: 0, max_bytes, max_line }
    }
}

/// Opens `path` for a bounded read; a folder or a device is refused here.
pub fn open(path: &Path) -> io::Result<Bounded<File>> {
    let file = File::open(path).map_err(|e| io::Error::new(e.kind(), format!("cannot read: {e}")))?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::other("cannot read: it is a folder, not a trace file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() || t.is_socket() {
            return Err(io::Error::other("cannot read: it is a device or socket, not a trace file (a regular file or a pipe is expected)"));
        }
    }
    Ok(Bounded::new(file, MAX_BYTES, MAX_LINE))
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.total += n as u64;
        if self.total > self.max_bytes {
            return Err(io::Error::other(format!("the trace holds more than {} bytes, the most read (an endless stream?): split it by flow or time", self.max_bytes)));
        }
        let got = &buf[..n];
        self.line = match got.iter().rposition(|&b| b == b'\n') {
            Some(at) => n - at - 1,
            None => self.line + n,
        };
        if self.line > self.max_line {
            return Err(io::Error::other(format!(
                "a line of more than {} bytes, at byte {} (a trace row is a few short fields: is this a trace CSV?)",
                self.max_line, self.total
            )));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8], max_bytes: u64, max_line: usize) -> Result<usize, String> {
        let mut v = Vec::new();
        Bounded::new(bytes, max_bytes, max_line).read_to_end(&mut v).map_err(|e| e.to_string())
    }

    #[test]
    fn devices_long_lines_and_endless_input_are_refused_with_the_bound() {
        let e = open(Path::new("/dev/zero")).err().unwrap().to_string();
        assert!(e.contains("device"), "{e}");
        let e = open(Path::new("/")).err().unwrap().to_string();
        assert!(e.contains("folder"), "{e}");
        let rows = "a,1,2\n".repeat(100);
        assert_eq!(read_all(rows.as_bytes(), 600, 10), Ok(600));
        let e = read_all(rows.as_bytes(), 599, 10).unwrap_err();
        assert!(e.contains("more than 599 bytes"), "{e}");
        let e = read_all(&[b'0'; 200], 1000, 100).unwrap_err();
        assert!(e.contains("a line of more than 100 bytes"), "{e}");
    }
}
