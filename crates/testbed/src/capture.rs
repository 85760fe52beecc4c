//! Packet captures written by the delay element (`pathpool testbed run --capture`): one pcap
//! per link direction, each packet stamped when the element hands it to the far end, i.e.
//! when it arrives at the next node. On an access link that is the packet's arrival at the
//! queue of the link that follows, so bursts into a bottleneck show as they met its queue.
//! The headers are kept (IPv4 with its TCP/UDP header and options), not the payload.

use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Bytes kept per packet: a 60-byte IPv4 header and a 60-byte TCP header at most.
pub const SNAPLEN: usize = 120;

pub struct Capture {
    writer: PcapWriter<BufWriter<File>>,
    /// Packets the writer refused (a full disk); counted, never fatal to the run.
    pub failed: u64,
}

impl Capture {
    pub fn create(path: &Path) -> crate::Result<Capture> {
        let file = File::create(path).map_err(|e| crate::TestbedError(format!("--capture: creating '{}': {e}", path.display())))?;
        // The header's snaplen stays at its 65535 default although records keep SNAPLEN bytes:
        // some readers reject a record whose original length exceeds the header's snaplen.
        let header = PcapHeader { datalink: DataLink::RAW, ts_resolution: TsResolution::NanoSecond, ..PcapHeader::default() };
        let writer = PcapWriter::with_header(BufWriter::new(file), header).map_err(|e| crate::TestbedError(format!("--capture: '{}': {e}", path.display())))?;
        Ok(Capture { writer, failed: 0 })
    }

    pub fn record(&mut self, packet: &[u8]) {
        let at = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or(Duration::ZERO);
        let kept = &packet[..packet.len().min(SNAPLEN)];
        if self.writer.write_packet(&PcapPacket::new(at, packet.len() as u32, kept)).is_err() {
            self.failed += 1;
        }
    }
}
