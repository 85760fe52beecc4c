//! A capture file's packets for Python, read by `pathpool-pcap`'s streaming reader (pcap in
//! either byte order and timestamp resolution, pcapng), so that analyses in Python read
//! captures as `pathpool detect --pcap` does instead of with a reader of their own.

use pathpool_pcap::file::CaptureReader;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::fs::File;
use std::path::PathBuf;

/// One packet as Python gets it: (time_ns, linktype, wire_length, captured bytes).
type Record<'py> = (u64, u32, u32, Bound<'py, PyBytes>);

/// Iterator over one capture's packets: `(time_ns, linktype, wire_length, captured bytes)`.
/// A file that is no capture, or is damaged, raises ValueError naming the file, the byte
/// offset and what was expected; a file cut inside a record ends at the last whole one.
#[pyclass(module = "pathpool._pathpool")]
pub struct CaptureRecords {
    reader: CaptureReader<File>,
}

#[pymethods]
impl CaptureRecords {
    #[new]
    fn new(path: PathBuf) -> PyResult<Self> {
        let name = path.display().to_string();
        let file = File::open(&path).map_err(|e| PyOSError::new_err(format!("{name}: cannot open the capture: {e}")))?;
        let reader = CaptureReader::new(&name, file).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Self { reader })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Record<'py>>> {
        if !self.reader.advance().map_err(|e| PyValueError::new_err(e.to_string()))? {
            return Ok(None);
        }
        let r = self.reader.current();
        Ok(Some((r.ts_ns, r.linktype, r.orig_len, PyBytes::new(py, r.data))))
    }
}
