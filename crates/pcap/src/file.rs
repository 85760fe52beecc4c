//! Streaming reader of pcap (libpcap's format, microsecond or nanosecond timestamps, either
//! byte order) and pcapng (section header, interface description, enhanced, simple and the
//! obsolete packet blocks; `if_tsresol` and `if_tsoffset` honoured; several sections).
//! Memory is one buffer of [`BUF`] bytes whatever the file's size.

use crate::error::CaptureError;
use std::io::Read;

/// Read buffer; a record is never larger than [`MAX_RECORD`], so it always fits.
pub const BUF: usize = 1 << 20;
/// Largest captured packet accepted (libpcap's own maximum snapshot length).
pub const MAX_RECORD: usize = 262_144;
/// Largest pcapng block accepted (a packet of MAX_RECORD plus options).
const MAX_BLOCK: usize = MAX_RECORD + 65_536;

/// One captured packet, borrowed from the reader's buffer until the next `advance`.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    /// Capture time, ns since the Unix epoch (or the capture's own origin).
    pub ts_ns: u64,
    /// LINKTYPE_* of the interface that captured it.
    pub linktype: u32,
    /// The captured bytes (possibly cut at the snapshot length).
    pub data: &'a [u8],
    /// The packet's length on the wire.
    pub orig_len: u32,
}

#[derive(Clone, Copy, Debug)]
struct Iface {
    linktype: u32,
    snaplen: u32,
    /// Timestamp units per second.
    units: u64,
    offset_s: i64,
}

#[derive(Clone, Debug)]
enum Format {
    Pcap { swapped: bool, nanos: bool, linktype: u32 },
    PcapNg { swapped: bool, ifaces: Vec<Iface> },
}

pub struct CaptureReader<R: Read> {
    name: String,
    src: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    /// File offset of `buf[start]`.
    offset: u64,
    format: Format,
    cur: Option<(u64, u32, usize, usize, u32)>,
    /// Time of the last packet (a pcapng simple packet block has none of its own).
    last_ts: u64,
    /// Records read so far.
    pub records: u64,
    /// Set when the file ends inside a record: (its offset, bytes missing). The partial record
    /// is ignored, as a capture cut by a full disk or a killed tcpdump ends this way.
    pub truncated: Option<(u64, usize)>,
    /// Records whose time, with the interface's `if_tsoffset`, falls before 1970 or beyond
    /// 2^64 ns and was clamped to that range; the record number (from 1) of the first.
    pub clamped: (u64, Option<u64>),
}

fn u16_at(b: &[u8], swapped: bool) -> u16 {
    let v = u16::from_le_bytes([b[0], b[1]]);
    if swapped { v.swap_bytes() } else { v }
}

fn u32_at(b: &[u8], swapped: bool) -> u32 {
    let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    if swapped { v.swap_bytes() } else { v }
}

impl<R: Read> CaptureReader<R> {
    /// Reads the file header. `name` appears in every error.
    pub fn new(name: &str, src: R) -> Result<Self, CaptureError> {
        let mut r = CaptureReader {
            name: name.to_string(),
            src,
            buf: vec![0; BUF],
            start: 0,
            end: 0,
            eof: false,
            offset: 0,
            format: Format::Pcap { swapped: false, nanos: false, linktype: 0 },
            cur: None,
            last_ts: 0,
            records: 0,
            truncated: None,
            clamped: (0, None),
        };
        if !r.fill(4)? {
            let what = if r.end == 0 { "the file is empty (a capture starts with a 24-byte pcap or a pcapng section header)" } else { "the file ends inside its header" };
            return Err(r.err(0, what));
        }
        let magic = u32::from_le_bytes(r.buf[0..4].try_into().expect("4 bytes"));
        match magic {
            0xa1b2_c3d4 | 0xd4c3_b2a1 | 0xa1b2_3c4d | 0x4d3c_b2a1 => {
                if !r.fill(24)? {
                    return Err(r.err(0, "the file ends inside the 24-byte pcap header"));
                }
                let swapped = magic == 0xd4c3_b2a1 || magic == 0x4d3c_b2a1;
                let nanos = magic == 0xa1b2_3c4d || magic == 0x4d3c_b2a1;
                let major = u16_at(&r.buf[4..], swapped);
                if major != 2 {
                    return Err(r.err(4, format!("pcap version {major}, expected 2")));
                }
                // The upper bits of the link-type field carry FCS flags (pcap format spec §4).
                let linktype = u32_at(&r.buf[20..], swapped) & 0x0fff_ffff;
                r.format = Format::Pcap { swapped, nanos, linktype };
                r.consume(24);
            }
            0x0a0d_0d0a => {
                r.format = Format::PcapNg { swapped: false, ifaces: Vec::new() };
                // The section header is handled as a block by `advance`.
            }
            _ => {
                return Err(r.err(
                    0,
                    format!("magic number {:02x} {:02x} {:02x} {:02x} is neither pcap (a1 b2 c3 d4, a1 b2 3c 4d in either byte order) nor pcapng (0a 0d 0d 0a)", r.buf[0], r.buf[1], r.buf[2], r.buf[3]),
                ))
            }
        }
        Ok(r)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    fn err(&self, at: u64, what: impl Into<String>) -> CaptureError {
        CaptureError::new(&self.name, at, what)
    }

    /// Makes at least `n` bytes available from `start`; false at end of file before that.
    #[inline]
    fn fill(&mut self, n: usize) -> Result<bool, CaptureError> {
        if self.end - self.start >= n {
            return Ok(true);
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.buf.len() < n {
            self.buf.resize(n, 0);
        }
        while self.end < n && !self.eof {
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(k) => self.end += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.err(self.offset + (self.end - self.start) as u64, format!("cannot read: {e}"))),
            }
        }
        Ok(self.end - self.start >= n)
    }

    #[inline]
    fn consume(&mut self, n: usize) {
        self.start += n;
        self.offset += n as u64;
    }

    /// The current record (after `advance` returned true).
    #[inline]
    pub fn current(&self) -> Record<'_> {
        let (ts_ns, linktype, at, len, orig_len) = self.cur.expect("advance() returned true");
        Record { ts_ns, linktype, data: &self.buf[at..at + len], orig_len }
    }

    /// Time of the current record.
    #[inline]
    pub fn current_ts(&self) -> Option<u64> {
        self.cur.map(|c| c.0)
    }

    /// Moves to the next packet record; false at the end of the file (also when the file ends
    /// inside a record: `truncated` says where).
    pub fn advance(&mut self) -> Result<bool, CaptureError> {
        self.cur = None;
        loop {
            let more = match self.format {
                Format::Pcap { swapped, nanos, linktype } => self.pcap_record(swapped, nanos, linktype)?,
                Format::PcapNg { .. } => self.pcapng_block()?,
            };
            match more {
                Step::Packet => {
                    self.records += 1;
                    self.last_ts = self.cur.map_or(0, |c| c.0);
                    return Ok(true);
                }
                Step::Other => continue,
                Step::End => return Ok(false),
            }
        }
    }

    /// Checks that the whole record of `need` bytes is there; at end of file records where
    /// it was cut.
    fn whole(&mut self, need: usize) -> Result<bool, CaptureError> {
        if self.fill(need)? {
            return Ok(true);
        }
        let have = self.end - self.start;
        if have > 0 {
            self.truncated = Some((self.offset, need - have));
        }
        Ok(false)
    }

    #[inline]
    fn pcap_record(&mut self, swapped: bool, nanos: bool, linktype: u32) -> Result<Step, CaptureError> {
        if !self.whole(16)? {
            return Ok(Step::End);
        }
        let h = &self.buf[self.start..self.start + 16];
        let sec = u32_at(h, swapped) as u64;
        let frac = u32_at(&h[4..], swapped) as u64;
        let incl = u32_at(&h[8..], swapped) as usize;
        let orig = u32_at(&h[12..], swapped);
        if incl > MAX_RECORD {
            return Err(self.err(self.offset + 8, format!("record {}: captured length {incl} bytes, at most {MAX_RECORD} (a corrupt record header?)", self.records + 1)));
        }
        let limit = if nanos { 1_000_000_000 } else { 1_000_000 };
        if frac >= limit {
            return Err(self.err(self.offset + 4, format!("record {}: sub-second timestamp {frac}, expected below {limit} (a corrupt record header?)", self.records + 1)));
        }
        if !self.whole(16 + incl)? {
            return Ok(Step::End);
        }
        let ts_ns = sec * 1_000_000_000 + if nanos { frac } else { frac * 1000 };
        self.cur = Some((ts_ns, linktype, self.start + 16, incl, orig));
        self.consume(16 + incl);
        Ok(Step::Packet)
    }

    fn pcapng_block(&mut self) -> Result<Step, CaptureError> {
        if !self.whole(12)? {
            return Ok(Step::End);
        }
        let at = self.offset;
        let block_type_raw = u32::from_le_bytes(self.buf[self.start..self.start + 4].try_into().expect("4"));
        if block_type_raw == 0x0a0d_0d0a {
            // Section header: its byte-order magic sets the order of everything up to the next one.
            let bom = u32::from_le_bytes(self.buf[self.start + 8..self.start + 12].try_into().expect("4"));
            let swapped = match bom {
                0x1a2b_3c4d => false,
                0x4d3c_2b1a => true,
                _ => return Err(self.err(at + 8, format!("pcapng section header: byte-order magic {bom:#010x}, expected 1a2b3c4d"))),
            };
            self.format = Format::PcapNg { swapped, ifaces: Vec::new() };
        }
        let Format::PcapNg { swapped, .. } = self.format else { unreachable!() };
        let block_type = u32_at(&self.buf[self.start..], swapped);
        let len = u32_at(&self.buf[self.start + 4..], swapped) as usize;
        if len < 12 || len % 4 != 0 || len > MAX_BLOCK {
            return Err(self.err(at + 4, format!("pcapng block of type {block_type:#x}: length {len}, expected a multiple of 4 from 12 to {MAX_BLOCK}")));
        }
        if !self.whole(len)? {
            return Ok(Step::End);
        }
        let s = self.start;
        let trailer = u32_at(&self.buf[s + len - 4..], swapped) as usize;
        if trailer != len {
            return Err(self.err(at + len as u64 - 4, format!("pcapng block of type {block_type:#x}: trailing length {trailer} differs from the leading {len} (corrupt block)")));
        }
        let body = s + 8..s + len - 4;
        let step = match block_type {
            0x0000_0001 => {
                self.interface(at, body, swapped)?;
                Step::Other
            }
            0x0000_0006 | 0x0000_0002 => {
                let b = &self.buf[body.clone()];
                if b.len() < 20 {
                    return Err(self.err(at, format!("pcapng packet block: body of {} bytes, expected at least 20", b.len())));
                }
                let (iface, ts_hi, ts_lo, cap, orig) = if block_type == 6 {
                    (u32_at(b, swapped) as usize, u32_at(&b[4..], swapped), u32_at(&b[8..], swapped), u32_at(&b[12..], swapped) as usize, u32_at(&b[16..], swapped))
                } else {
                    (u16_at(b, swapped) as usize, u32_at(&b[4..], swapped), u32_at(&b[8..], swapped), u32_at(&b[12..], swapped) as usize, u32_at(&b[16..], swapped))
                };
                if cap > b.len() - 20 {
                    return Err(self.err(at + 20, format!("pcapng packet block: captured length {cap} exceeds the block's {} bytes of data", b.len() - 20)));
                }
                let Format::PcapNg { ifaces, .. } = &self.format else { unreachable!() };
                let Some(i) = ifaces.get(iface) else {
                    return Err(self.err(at + 8, format!("pcapng packet block: interface {iface}, but the section describes {} interface(s)", ifaces.len())));
                };
                let ts = ((ts_hi as u64) << 32) | ts_lo as u64;
                let ns = (ts as u128 * 1_000_000_000 / i.units as u128) as i128 + i.offset_s as i128 * 1_000_000_000;
                let clamped = ns.clamp(0, u64::MAX as i128);
                if clamped != ns {
                    self.clamped.0 += 1;
                    self.clamped.1.get_or_insert(self.records + 1);
                }
                self.cur = Some((clamped as u64, i.linktype, body.start + 20, cap, orig));
                Step::Packet
            }
            0x0000_0003 => {
                let b = &self.buf[body.clone()];
                let Format::PcapNg { ifaces, .. } = &self.format else { unreachable!() };
                let Some(i) = ifaces.first() else {
                    return Err(self.err(at, "pcapng simple packet block before any interface description"));
                };
                if b.len() < 4 {
                    return Err(self.err(at, "pcapng simple packet block without its length field"));
                }
                let orig = u32_at(b, swapped);
                let snap = if i.snaplen == 0 { u32::MAX } else { i.snaplen };
                let cap = (orig.min(snap) as usize).min(b.len() - 4);
                // No timestamp: it keeps the time of the packet before (0 if none).
                self.cur = Some((self.last_ts, i.linktype, body.start + 4, cap, orig));
                Step::Packet
            }
            _ => Step::Other,
        };
        self.consume(len);
        Ok(step)
    }

    fn interface(&mut self, at: u64, body: std::ops::Range<usize>, swapped: bool) -> Result<(), CaptureError> {
        let b = &self.buf[body];
        if b.len() < 8 {
            return Err(self.err(at, format!("pcapng interface description: body of {} bytes, expected at least 8", b.len())));
        }
        let mut iface = Iface { linktype: u16_at(b, swapped) as u32, snaplen: u32_at(&b[4..], swapped), units: 1_000_000, offset_s: 0 };
        let mut opts = &b[8..];
        while opts.len() >= 4 {
            let code = u16_at(opts, swapped);
            let olen = u16_at(&opts[2..], swapped) as usize;
            let padded = (olen + 3) & !3;
            if 4 + padded > opts.len() {
                return Err(self.err(at, format!("pcapng interface description: option {code} of {olen} bytes runs past the block")));
            }
            let v = &opts[4..4 + olen];
            match (code, olen) {
                (0, _) => break,
                (9, 1) => {
                    let r = v[0];
                    let exp = (r & 0x7f) as u32;
                    let units = if r & 0x80 == 0 { 10u64.checked_pow(exp) } else { 1u64.checked_shl(exp) };
                    iface.units = match units {
                        Some(u) if u > 0 => u,
                        _ => return Err(self.err(at, format!("pcapng interface description: if_tsresol {r:#x} is beyond 64-bit timestamps"))),
                    };
                }
                (14, 8) => {
                    let lo = u32_at(v, swapped) as u64;
                    let hi = u32_at(&v[4..], swapped) as u64;
                    iface.offset_s = if swapped { ((lo << 32) | hi) as i64 } else { ((hi << 32) | lo) as i64 };
                }
                _ => {}
            }
            opts = &opts[4 + padded..];
        }
        let Format::PcapNg { ifaces, .. } = &mut self.format else { unreachable!() };
        ifaces.push(iface);
        Ok(())
    }
}

enum Step {
    Packet,
    Other,
    End,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pcap(nanos: bool, records: &[(u32, u32, &[u8])]) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&(if nanos { 0xa1b2_3c4du32 } else { 0xa1b2_c3d4 }).to_le_bytes());
        v.extend_from_slice(&2u16.to_le_bytes());
        v.extend_from_slice(&4u16.to_le_bytes());
        v.extend_from_slice(&[0; 8]);
        v.extend_from_slice(&65535u32.to_le_bytes());
        v.extend_from_slice(&101u32.to_le_bytes());
        for (s, f, d) in records {
            v.extend_from_slice(&s.to_le_bytes());
            v.extend_from_slice(&f.to_le_bytes());
            v.extend_from_slice(&(d.len() as u32).to_le_bytes());
            v.extend_from_slice(&(d.len() as u32).to_le_bytes());
            v.extend_from_slice(d);
        }
        v
    }

    #[test]
    fn pcap_records_and_a_cut_last_record() {
        let bytes = pcap(false, &[(1, 500, b"abcd"), (2, 0, b"xy")]);
        let mut r = CaptureReader::new("t", &bytes[..]).unwrap();
        assert!(r.advance().unwrap());
        let rec = r.current();
        assert_eq!((rec.ts_ns, rec.linktype, rec.data), (1_000_500_000, 101, &b"abcd"[..]));
        assert!(r.advance().unwrap());
        assert!(!r.advance().unwrap());
        assert_eq!(r.truncated, None);
        let cut = &bytes[..bytes.len() - 1];
        let mut r = CaptureReader::new("t", cut).unwrap();
        assert!(r.advance().unwrap());
        assert!(!r.advance().unwrap());
        assert_eq!(r.truncated, Some((24 + 20, 1)));
    }

    #[test]
    fn bad_headers_name_the_offset_and_expectation() {
        let e = CaptureReader::new("x.pcap", &b""[..]).err().unwrap().to_string();
        assert!(e.contains("'x.pcap'") && e.contains("empty"), "{e}");
        let e = CaptureReader::new("x.pcap", &b"GET / HTTP/1.1\r\n"[..]).err().unwrap().to_string();
        assert!(e.contains("magic number"), "{e}");
        let mut bytes = pcap(true, &[(1, 5, b"abcd")]);
        bytes[24 + 8] = 0xff;
        bytes[24 + 9] = 0xff;
        bytes[24 + 10] = 0xff;
        let mut r = CaptureReader::new("x.pcap", &bytes[..]).unwrap();
        let e = r.advance().err().unwrap().to_string();
        assert!(e.contains("byte 32") && e.contains("captured length"), "{e}");
    }

    /// A pcapng section with one raw-IP interface of microsecond stamps, `if_tsoffset` of
    /// `offset_s`, and one enhanced packet block per time.
    fn pcapng_offset(offset_s: i64, times_us: &[u64]) -> Vec<u8> {
        let block = |v: &mut Vec<u8>, kind: u32, body: &[u8]| {
            let len = 12 + body.len().div_ceil(4) * 4;
            v.extend_from_slice(&kind.to_le_bytes());
            v.extend_from_slice(&(len as u32).to_le_bytes());
            v.extend_from_slice(body);
            v.resize(v.len() + (len - 12 - body.len()), 0);
            v.extend_from_slice(&(len as u32).to_le_bytes());
        };
        let mut v = Vec::new();
        let mut shb = 0x1a2b_3c4du32.to_le_bytes().to_vec();
        shb.extend_from_slice(&[1, 0, 0, 0]);
        shb.extend_from_slice(&u64::MAX.to_le_bytes());
        block(&mut v, 0x0a0d_0d0a, &shb);
        let mut idb = vec![101, 0, 0, 0, 0, 0, 0, 0];
        idb.extend_from_slice(&[14, 0, 8, 0]);
        let o = offset_s as u64;
        idb.extend_from_slice(&(o as u32).to_le_bytes());
        idb.extend_from_slice(&((o >> 32) as u32).to_le_bytes());
        block(&mut v, 1, &idb);
        for &t in times_us {
            let mut epb = 0u32.to_le_bytes().to_vec();
            epb.extend_from_slice(&((t >> 32) as u32).to_le_bytes());
            epb.extend_from_slice(&(t as u32).to_le_bytes());
            epb.extend_from_slice(&4u32.to_le_bytes());
            epb.extend_from_slice(&4u32.to_le_bytes());
            epb.extend_from_slice(b"abcd");
            block(&mut v, 6, &epb);
        }
        v
    }

    #[test]
    fn times_pushed_before_1970_by_the_offset_are_counted_as_clamped() {
        // An offset of -100 s: a packet at 50 s falls before 1970, one at 200 s does not.
        let bytes = pcapng_offset(-100, &[200_000_000, 50_000_000, 60_000_000]);
        let mut r = CaptureReader::new("o.pcapng", &bytes[..]).unwrap();
        let mut times = Vec::new();
        while r.advance().unwrap() {
            times.push(r.current().ts_ns);
        }
        assert_eq!(times, vec![100_000_000_000, 0, 0]);
        assert_eq!(r.clamped, (2, Some(2)));
    }
}
