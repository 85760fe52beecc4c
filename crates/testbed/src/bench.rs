//! Benchmarks of the delay element on this machine (docs/testbed.md): how far a packet's
//! added delay is from the one asked for, at a given packet rate, and how many packets per
//! second the element relays per second of its own CPU time.
//!
//! Two namespaces joined by one link with no queue (no tbf, so nothing but the element and
//! the kernel's path adds delay); a UDP sender stamps each datagram with CLOCK_REALTIME,
//! which both namespaces share, and the receiver subtracts it from the time the kernel
//! received the datagram (SO_TIMESTAMPNS), so a late wake-up of the receiving thread on a
//! busy machine is not counted as the element's. With `cross`, a second sender
//! loads the link's other direction at the same time, to see whether one direction's work
//! delays the other's packets. Each figure is measured with the element as the testbed runs
//! it and with its older layout (`Layout`).

use crate::delay::{DelayElement, Direction};
use crate::netns::{self, Namespaces};
use crate::run::in_namespace;
use crate::{fail, Result};
use std::net::{SocketAddrV4, UdpSocket};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

const SENDER: &str = "10.0.0.1";
const RECEIVER: &str = "10.0.0.2";
const PORT: u16 = 5002;
const DEVICE: &str = "pplbench";
/// IPv4 + UDP headers.
const HEADERS: usize = 28;

fn realtime_ns() -> u64 {
    crate::delay::clock_ns(libc::CLOCK_REALTIME)
}

/// Receives one datagram into `buf`: its length and the kernel's receive time (ns,
/// CLOCK_REALTIME), from a socket with SO_TIMESTAMPNS set.
fn recv_stamped(sock: &UdpSocket, buf: &mut [u8]) -> Option<(usize, u64)> {
    use std::os::fd::AsRawFd;
    let mut iov = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: buf.len() };
    let mut control = [0u64; 16];
    // SAFETY: msghdr is plain data; every pointer set below outlives the recvmsg call.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&control) as _;
    // SAFETY: msg describes valid buffers for this call.
    let n = unsafe { libc::recvmsg(sock.as_raw_fd(), &mut msg, 0) };
    if n < 0 {
        return None;
    }
    // SAFETY: the CMSG macros walk the control buffer recvmsg filled, within its length.
    let mut c = unsafe { libc::CMSG_FIRSTHDR(&msg) };
    while !c.is_null() {
        // SAFETY: c points at a complete cmsghdr inside the control buffer.
        let h = unsafe { &*c };
        if h.cmsg_level == libc::SOL_SOCKET && h.cmsg_type == libc::SCM_TIMESTAMPNS {
            // SAFETY: an SCM_TIMESTAMPNS message carries one timespec (possibly unaligned).
            let ts: libc::timespec = unsafe { std::ptr::read_unaligned(libc::CMSG_DATA(c).cast()) };
            return Some((n as usize, ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64));
        }
        // SAFETY: as above.
        c = unsafe { libc::CMSG_NXTHDR(&msg, c) };
    }
    Some((n as usize, realtime_ns()))
}

/// The link a -> b with the element on it, `delay` long.
struct Bench {
    element: DelayElement,
    names: Vec<String>,
    _namespaces: Namespaces,
}

/// How the element's threads are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// As the testbed runs it: a real-time thread per direction (`DelayElement::start`).
    PerDirection,
    /// The older layout: one thread at normal priority for every direction.
    OneThread,
}

fn build(delay: Duration, packet: usize, cross: bool, layout: Layout) -> Result<Bench> {
    if !crate::is_root() {
        return fail("the delay element benchmark needs root (network namespaces and TUN devices)");
    }
    let mut namespaces = Namespaces::new();
    let names = vec![namespaces.create(0)?, namespaces.create(1)?];
    let mut ends = Vec::new();
    for ns in &names {
        ends.push(in_namespace(ns, || crate::tun::open(DEVICE).map(Arc::new))?);
    }
    let mtu = packet.max(576);
    netns::batch("ip", &names[0], &["link set lo up".into(), format!("link set {DEVICE} mtu {mtu} up"), format!("address add {SENDER}/32 dev lo"), format!("route add {RECEIVER}/32 dev {DEVICE}")])?;
    netns::batch("ip", &names[1], &["link set lo up".into(), format!("link set {DEVICE} mtu {mtu} up"), format!("address add {RECEIVER}/32 dev lo"), format!("route add {SENDER}/32 dev {DEVICE}")])?;
    for ns in &names {
        in_namespace(ns, || std::fs::write("/proc/sys/net/ipv4/conf/all/rp_filter", "0").map_err(|e| crate::TestbedError(e.to_string())))?;
    }
    let mut directions = vec![Direction { input: ends[0].clone(), output: Some(ends[1].clone()), delay, loss: 0.0, seed: 1, capture: None }];
    if cross {
        directions.push(Direction { input: ends[1].clone(), output: Some(ends[0].clone()), delay, loss: 0.0, seed: 2, capture: None });
    }
    let element = match layout {
        Layout::PerDirection => DelayElement::start(directions),
        Layout::OneThread => DelayElement::start_one_thread(directions),
    };
    Ok(Bench { element, names, _namespaces: namespaces })
}

#[derive(Clone, Debug)]
pub struct DelayError {
    pub packets: usize,
    pub lost: u64,
    /// Measured one-way delay minus the delay asked for, in microseconds.
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Sends `rate_bps` of `packet`-byte datagrams at fixed gaps for `seconds` from namespace
/// `ns` to `to`, each carrying its sequence number and send time (CLOCK_REALTIME); ends
/// with a datagram numbered u64::MAX. Returns how many were sent.
fn paced_sender(ns: &str, from: &str, to: SocketAddrV4, rate_bps: u64, packet: usize, seconds: f64) -> Result<u64> {
    let from: std::net::Ipv4Addr = from.parse().expect("address");
    in_namespace(ns, move || {
        // SAFETY: prctl(PR_SET_TIMERSLACK) only changes this thread's timer slack.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
        let sock = UdpSocket::bind(SocketAddrV4::new(from, 0)).map_err(|e| crate::TestbedError(e.to_string()))?;
        sock.connect(to).map_err(|e| crate::TestbedError(e.to_string()))?;
        let mut data = vec![0u8; packet - HEADERS];
        let gap = Duration::from_secs_f64(packet as f64 * 8.0 / rate_bps as f64);
        let start = Instant::now();
        let mut next = start;
        let mut seq = 0u64;
        while start.elapsed().as_secs_f64() < seconds {
            let now = Instant::now();
            if now < next {
                std::thread::sleep(next - now);
            }
            data[0..8].copy_from_slice(&seq.to_ne_bytes());
            data[8..16].copy_from_slice(&realtime_ns().to_ne_bytes());
            let _ = sock.send(&data);
            seq += 1;
            next += gap;
        }
        std::thread::sleep(Duration::from_millis(200));
        data[0..8].copy_from_slice(&u64::MAX.to_ne_bytes());
        let _ = sock.send(&data);
        Ok(seq)
    })
}

/// Sends `rate_bps` of `packet`-byte datagrams for `seconds` over a link of `delay` and
/// returns the distribution of (measured delay - `delay`); with `cross_bps`, the other
/// direction carries that much paced load meanwhile.
pub fn delay_error(rate_bps: u64, delay: Duration, packet: usize, seconds: f64, cross_bps: Option<u64>, layout: Layout) -> Result<DelayError> {
    let mut bench = build(delay, packet, cross_bps.is_some(), layout)?;
    let (tx_ns, rx_ns) = (bench.names[0].clone(), bench.names[1].clone());
    let cross_sender = cross_bps.map(|c| {
        let (ns_a, ns_b) = (tx_ns.clone(), rx_ns.clone());
        std::thread::spawn(move || -> Result<u64> {
            // A bound socket that is never read: its datagrams are dropped at the full
            // receive buffer, without ICMP errors loading the measured direction.
            let _sink = in_namespace(&ns_a, || UdpSocket::bind(SocketAddrV4::new(SENDER.parse().expect("address"), PORT + 1)).map_err(|e| crate::TestbedError(e.to_string())))?;
            paced_sender(&ns_b, RECEIVER, SocketAddrV4::new(SENDER.parse().expect("address"), PORT + 1), c, packet, seconds)
        })
    });
    let receiver = std::thread::spawn(move || -> Result<Vec<f64>> {
        netns::enter(&rx_ns)?;
        let sock = UdpSocket::bind(SocketAddrV4::new(RECEIVER.parse().expect("address"), PORT)).map_err(|e| crate::TestbedError(e.to_string()))?;
        sock.set_read_timeout(Some(delay + Duration::from_millis(500))).map_err(|e| crate::TestbedError(e.to_string()))?;
        let mut errors = Vec::new();
        let mut buf = [0u8; 65536];
        let on: libc::c_int = 1;
        // SAFETY: sets an int socket option on a socket we own.
        unsafe { libc::setsockopt(std::os::fd::AsRawFd::as_raw_fd(&sock), libc::SOL_SOCKET, libc::SO_TIMESTAMPNS, (&on as *const libc::c_int).cast(), std::mem::size_of::<libc::c_int>() as libc::socklen_t) };
        while let Some((n, now)) = recv_stamped(&sock, &mut buf) {
            if n < 16 {
                continue;
            }
            let sent = u64::from_ne_bytes(buf[8..16].try_into().expect("eight bytes"));
            if u64::from_ne_bytes(buf[0..8].try_into().expect("eight bytes")) == u64::MAX {
                break;
            }
            errors.push((now as f64 - sent as f64 - delay.as_nanos() as f64) / 1000.0);
        }
        Ok(errors)
    });
    std::thread::sleep(Duration::from_millis(100));
    let sent = paced_sender(&tx_ns, SENDER, SocketAddrV4::new(RECEIVER.parse().expect("address"), PORT), rate_bps, packet, seconds)?;
    if let Some(c) = cross_sender {
        c.join().unwrap_or_else(|_| fail("the cross-traffic thread panicked"))?;
    }
    let mut errors = receiver.join().unwrap_or_else(|_| fail("the receiver thread panicked"))?;
    bench.element.stop();
    errors.sort_by(f64::total_cmp);
    Ok(DelayError { packets: errors.len(), lost: sent.saturating_sub(errors.len() as u64), p50_us: percentile(&errors, 0.5), p99_us: percentile(&errors, 0.99), max_us: errors.last().copied().unwrap_or(f64::NAN) })
}

#[derive(Clone, Debug)]
pub struct Capacity {
    pub relayed: u64,
    pub cpu_seconds: f64,
    pub wall_seconds: f64,
}

impl Capacity {
    /// Packets relayed per second of the element's own CPU time: the rate one core sustains.
    pub fn packets_per_cpu_second(&self) -> f64 {
        self.relayed as f64 / self.cpu_seconds
    }
}

/// Sends `packet`-byte datagrams as fast as one sender thread can for `seconds`.
pub fn capacity(packet: usize, seconds: f64, layout: Layout) -> Result<Capacity> {
    let mut bench = build(Duration::from_millis(1), packet, false, layout)?;
    let tx_ns = bench.names[0].clone();
    let start = Instant::now();
    in_namespace(&tx_ns, move || {
        let sock = UdpSocket::bind(SocketAddrV4::new(SENDER.parse().expect("address"), 0)).map_err(|e| crate::TestbedError(e.to_string()))?;
        sock.connect(SocketAddrV4::new(RECEIVER.parse().expect("address"), PORT)).map_err(|e| crate::TestbedError(e.to_string()))?;
        let data = vec![0u8; packet - HEADERS];
        while start.elapsed().as_secs_f64() < seconds {
            let _ = sock.send(&data);
        }
        Ok(())
    })?;
    std::thread::sleep(Duration::from_millis(20));
    let wall = start.elapsed().as_secs_f64();
    bench.element.stop();
    let relayed = bench.element.counters[0].packets.load(Ordering::SeqCst);
    Ok(Capacity { relayed, cpu_seconds: bench.element.cpu_ns.load(Ordering::SeqCst) as f64 / 1e9, wall_seconds: wall })
}
