//! Benchmarks of the delay element on this machine (docs/testbed.md): how far a packet's
//! added delay is from the one asked for, at a given packet rate, and how many packets per
//! second the element relays per second of its own CPU time.
//!
//! Two namespaces joined by one link with no queue (no tbf, so nothing but the element and
//! the kernel's path adds delay); a UDP sender stamps each datagram with CLOCK_MONOTONIC,
//! which both namespaces share, and the receiver subtracts.

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

fn monotonic_ns() -> u64 {
    crate::delay::clock_ns(libc::CLOCK_MONOTONIC)
}

/// The link a -> b with the element on it, `delay` long.
struct Bench {
    element: DelayElement,
    names: Vec<String>,
    _namespaces: Namespaces,
}

fn build(delay: Duration, packet: usize) -> Result<Bench> {
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
    netns::batch("ip", &names[1], &["link set lo up".into(), format!("link set {DEVICE} mtu {mtu} up"), format!("address add {RECEIVER}/32 dev lo")])?;
    in_namespace(&names[1], || std::fs::write("/proc/sys/net/ipv4/conf/all/rp_filter", "0").map_err(|e| crate::TestbedError(e.to_string())))?;
    let element = DelayElement::start(vec![Direction { input: ends[0].clone(), output: Some(ends[1].clone()), delay, loss: 0.0, seed: 1, capture: None }]);
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

/// Sends `rate_bps` of `packet`-byte datagrams for `seconds` over a link of `delay` and
/// returns the distribution of (measured delay - `delay`).
pub fn delay_error(rate_bps: u64, delay: Duration, packet: usize, seconds: f64) -> Result<DelayError> {
    let mut bench = build(delay, packet)?;
    let (tx_ns, rx_ns) = (bench.names[0].clone(), bench.names[1].clone());
    let receiver = std::thread::spawn(move || -> Result<Vec<f64>> {
        netns::enter(&rx_ns)?;
        let sock = UdpSocket::bind(SocketAddrV4::new(RECEIVER.parse().expect("address"), PORT)).map_err(|e| crate::TestbedError(e.to_string()))?;
        sock.set_read_timeout(Some(delay + Duration::from_millis(500))).map_err(|e| crate::TestbedError(e.to_string()))?;
        let mut errors = Vec::new();
        let mut buf = [0u8; 65536];
        while let Ok(n) = sock.recv(&mut buf) {
            let now = monotonic_ns();
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
    let sent = in_namespace(&tx_ns, move || {
        // SAFETY: prctl(PR_SET_TIMERSLACK) only changes this thread's timer slack.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
        let sock = UdpSocket::bind(SocketAddrV4::new(SENDER.parse().expect("address"), 0)).map_err(|e| crate::TestbedError(e.to_string()))?;
        sock.connect(SocketAddrV4::new(RECEIVER.parse().expect("address"), PORT)).map_err(|e| crate::TestbedError(e.to_string()))?;
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
            data[8..16].copy_from_slice(&monotonic_ns().to_ne_bytes());
            let _ = sock.send(&data);
            seq += 1;
            next += gap;
        }
        std::thread::sleep(Duration::from_millis(200));
        data[0..8].copy_from_slice(&u64::MAX.to_ne_bytes());
        let _ = sock.send(&data);
        Ok(seq)
    })?;
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
pub fn capacity(packet: usize, seconds: f64) -> Result<Capacity> {
    let mut bench = build(Duration::from_millis(1), packet)?;
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
