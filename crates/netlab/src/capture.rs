//! Packet captures written by the delay element (`pathpool testbed run --capture`): one pcap
//! per link direction, each packet stamped when the element hands it to the far end, i.e.
//! when it arrives at the next node. On an access link that is the packet's arrival at the
//! queue of the link that follows, so bursts into a bottleneck show as they met its queue.
//! The headers are kept (IPv4 with its TCP/UDP header and options), not the payload.
//!
//! The element's real-time thread only stamps the packet and copies its headers into a
//! channel; a writer thread at the lowest priority turns them into the file. A file write in
//! the relay thread held a packet whenever the buffered writer flushed, which changed how
//! the flows met the queue and so the very result being captured (docs/testbed.md,
//! "Captures").

use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender, TryRecvError, TrySendError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

/// Bytes kept per packet: a 60-byte IPv4 header and a 60-byte TCP header at most.
pub const SNAPLEN: usize = 120;

/// Records the channel holds (allocated up front, 2.5 MB) before the relay counts a packet as
/// not captured: 0.2 s of a 1 Gb/s link's full-sized packets, 10 s at 20 Mb/s, far more
/// than a writer of page-cache files lags.
const BACKLOG: usize = 1 << 14;

/// How often the writer empties the channel: 0.2 s of BACKLOG at 1 Gb/s is ten times this.
const DRAIN_EVERY: Duration = Duration::from_millis(20);

/// One packet's record, copied out of the relay's buffer.
struct Record {
    at: Duration,
    len: u32,
    kept_len: u8,
    kept: [u8; SNAPLEN],
}

pub struct Capture {
    path: std::path::PathBuf,
    sender: Option<SyncSender<Record>>,
    writer: Option<JoinHandle<()>>,
    /// Packets not captured: the channel was full or the writer refused them (a full disk).
    /// Counted, never fatal to the run.
    failed: Arc<AtomicU64>,
}

impl Capture {
    pub fn create(path: &Path) -> crate::Result<Capture> {
        let file = File::create(path).map_err(|e| crate::NetlabError(format!("--capture: creating '{}': {e}", path.display())))?;
        // The header's snaplen stays at its 65535 default although records keep SNAPLEN bytes:
        // some readers reject a record whose original length exceeds the header's snaplen.
        let header = PcapHeader { datalink: DataLink::RAW, ts_resolution: TsResolution::NanoSecond, ..PcapHeader::default() };
        let mut writer = PcapWriter::with_header(BufWriter::new(file), header).map_err(|e| crate::NetlabError(format!("--capture: '{}': {e}", path.display())))?;
        let (sender, records) = sync_channel::<Record>(BACKLOG);
        let failed = Arc::new(AtomicU64::new(0));
        let writer_failed = failed.clone();
        let writer = std::thread::Builder::new()
            .name("capture-writer".into())
            .spawn(move || {
                // The writer yields to every other job (SCHED_IDLE): the hosts' applications
                // share the CPUs with it, and what they do when is part of the experiment.
                let param = libc::sched_param { sched_priority: 0 };
                // SAFETY: sets the calling thread's own policy with a valid sched_param.
                unsafe { libc::pthread_setschedparam(libc::pthread_self(), libc::SCHED_IDLE, &param) };
                // It drains the channel every DRAIN_EVERY rather than waiting on it: a waiting
                // receiver costs the relay a wake-up (a futex call and a context switch) per
                // packet, tens of thousands a second over a testbed's links.
                loop {
                    match records.try_recv() {
                        Ok(r) => {
                            if writer.write_packet(&PcapPacket::new(r.at, r.len, &r.kept[..r.kept_len as usize])).is_err() {
                                writer_failed.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                        Err(TryRecvError::Empty) => std::thread::sleep(DRAIN_EVERY),
                        Err(TryRecvError::Disconnected) => break,
                    }
                }
            })
            .map_err(|e| crate::NetlabError(format!("--capture: starting the writer of '{}': {e}", path.display())))?;
        Ok(Capture { path: path.to_path_buf(), sender: Some(sender), writer: Some(writer), failed })
    }

    /// Stamps and queues one packet; never blocks the relay.
    pub fn record(&mut self, packet: &[u8]) {
        let at = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or(Duration::ZERO);
        self.record_at(at, packet);
    }

    /// Queues one packet stamped `at` (since the Unix epoch) by whoever saw it first.
    pub fn record_at(&mut self, at: Duration, packet: &[u8]) {
        let kept_len = packet.len().min(SNAPLEN);
        let mut r = Record { at, len: packet.len() as u32, kept_len: kept_len as u8, kept: [0; SNAPLEN] };
        r.kept[..kept_len].copy_from_slice(&packet[..kept_len]);
        if let Some(s) = &self.sender {
            if let Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) = s.try_send(r) {
                self.failed.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

impl Drop for Capture {
    /// Closes the channel, waits for the writer to write out what it holds, and says how
    /// many packets the file lacks, if any.
    fn drop(&mut self) {
        self.sender.take();
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
        let failed = self.failed.load(Ordering::Relaxed);
        if failed > 0 {
            eprintln!("pathpool: --capture: {failed} packets are missing from '{}' (the writer fell behind or the disk refused them)", self.path.display());
        }
    }
}
