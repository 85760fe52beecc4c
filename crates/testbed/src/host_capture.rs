//! Captures taken on a node itself (`pathpool testbed run --capture-host NODE`): what
//! `tcpdump -i any` inside that node's namespace records, where the link captures of
//! `capture.rs` record the wire between two nodes. An AF_PACKET socket in the namespace sees
//! every packet the node sends (as its device hands it on, after the device's queue) and
//! receives, stamped by the kernel when it passed the device (SIOCGSTAMPNS), so a late read
//! on a busy machine does not move the stamp. A router therefore records each packet it
//! forwards twice, on the way in and on the way out, as tcpdump does; a queue in the router
//! lies between the two copies. Only the TUN devices of the links are recorded (raw IPv4,
//! the same file format as the link captures); the loopback device carries no traffic of
//! the scenario and would need another link type.

use crate::capture::Capture;
use crate::{fail, Result};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// ioctl that returns the kernel's receive time of the last packet read (linux/sockios.h).
const SIOCGSTAMPNS: libc::c_ulong = 0x8907;
/// Link type of a TUN device (linux/if_arp.h): raw IP, no link header.
const ARPHRD_NONE: u16 = 0xfffe;
/// Receive buffer asked for: the reader runs at normal priority beside real-time relays on a
/// shared machine; 32 MiB holds several seconds of the testbed's 20 Mb/s bottlenecks.
const RCVBUF: libc::c_int = 32 << 20;
/// How long a read waits before it looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

pub struct HostCapture {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl HostCapture {
    /// Opens the socket in namespace `ns` (before this returns, so no packet of the run is
    /// missed) and records into `path` until stopped.
    pub fn start(node: &str, ns: &str, path: &Path) -> Result<HostCapture> {
        let mut file = Capture::create(path)?;
        let stop = Arc::new(AtomicBool::new(false));
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<()>>();
        let (ns, node, shown) = (ns.to_string(), node.to_string(), path.display().to_string());
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name(format!("capture-{node}"))
            .spawn(move || {
                let fd = match crate::netns::enter(&ns).and_then(|()| open_socket(&node)) {
                    Ok(fd) => fd,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                let mut buf = vec![0u8; 65536];
                while !flag.load(Ordering::Relaxed) {
                    // SAFETY: an all-zero sockaddr_ll is valid; recvfrom writes at most `len` bytes.
                    let mut from: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
                    let mut len = std::mem::size_of::<libc::sockaddr_ll>() as libc::socklen_t;
                    // SAFETY: buf and from outlive the call; the sizes passed are theirs.
                    let n = unsafe { libc::recvfrom(fd, buf.as_mut_ptr().cast(), buf.len(), 0, std::ptr::addr_of_mut!(from).cast(), std::ptr::addr_of_mut!(len)) };
                    if n <= 0 || from.sll_hatype != ARPHRD_NONE {
                        continue; // the read timed out (the flag is checked), or not a TUN device
                    }
                    file.record_at(stamp(fd), &buf[..n as usize]);
                }
                let drops = dropped(fd);
                // SAFETY: fd is this thread's own socket, closed once.
                unsafe { libc::close(fd) };
                if drops > 0 {
                    eprintln!("pathpool: --capture-host {node}: the kernel dropped {drops} packets the reader did not take in time; '{shown}' lacks them");
                }
            })
            .map_err(|e| crate::TestbedError(format!("--capture-host: starting the reader: {e}")))?;
        let mut me = HostCapture { stop, thread: Some(thread) };
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(me),
            Ok(Err(e)) => Err(e),
            Err(_) => {
                me.thread.take().map(JoinHandle::join);
                fail("--capture-host: the reader thread ended before opening its socket")
            }
        }
    }
}

impl Drop for HostCapture {
    /// Stops the reader and waits for it (and so for its file to be written out).
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn open_socket(node: &str) -> Result<libc::c_int> {
    let err = |what: &str| crate::TestbedError(format!("--capture-host {node}: {what}: {}", std::io::Error::last_os_error()));
    // SAFETY: plain socket(2); ETH_P_ALL in network byte order as packet(7) asks.
    let fd = unsafe { libc::socket(libc::AF_PACKET, libc::SOCK_RAW, (libc::ETH_P_ALL as u16).to_be() as libc::c_int) };
    if fd < 0 {
        return Err(err("opening an AF_PACKET socket"));
    }
    let timeout = libc::timeval { tv_sec: 0, tv_usec: POLL.as_micros() as libc::suseconds_t };
    let set = |opt: libc::c_int, value: *const libc::c_void, size: usize| {
        // SAFETY: value points at `size` readable bytes for the call.
        unsafe { libc::setsockopt(fd, libc::SOL_SOCKET, opt, value, size as libc::socklen_t) }
    };
    let rcvbuf = RCVBUF;
    if set(libc::SO_RCVBUFFORCE, std::ptr::addr_of!(rcvbuf).cast(), std::mem::size_of::<libc::c_int>()) != 0
        || set(libc::SO_RCVTIMEO, std::ptr::addr_of!(timeout).cast(), std::mem::size_of::<libc::timeval>()) != 0
    {
        let e = err("setting the socket's buffer and timeout");
        // SAFETY: fd was opened above and is closed once.
        unsafe { libc::close(fd) };
        return Err(e);
    }
    Ok(fd)
}

/// The kernel's timestamp of the packet just read; the clock now if it has none.
fn stamp(fd: libc::c_int) -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: SIOCGSTAMPNS writes one timespec into ts.
    if unsafe { libc::ioctl(fd, SIOCGSTAMPNS as _, std::ptr::addr_of_mut!(ts)) } == 0 && ts.tv_sec > 0 {
        return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
    }
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or(Duration::ZERO)
}

/// Packets the kernel dropped from this socket's queue (packet(7) PACKET_STATISTICS).
fn dropped(fd: libc::c_int) -> u32 {
    let mut st = libc::tpacket_stats { tp_packets: 0, tp_drops: 0 };
    let mut len = std::mem::size_of::<libc::tpacket_stats>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most len bytes into st.
    let rc = unsafe { libc::getsockopt(fd, libc::SOL_PACKET, libc::PACKET_STATISTICS, std::ptr::addr_of_mut!(st).cast(), std::ptr::addr_of_mut!(len)) };
    if rc == 0 {
        st.tp_drops
    } else {
        0
    }
}
