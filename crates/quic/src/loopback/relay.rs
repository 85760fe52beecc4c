//! A user-space shaped path on loopback, for tests and experiments without root: a UDP relay
//! between a client-facing address (e.g. 127.0.0.2:port) and the server. The forward
//! direction goes through a [`Bottleneck`] (a drop-tail FIFO of a given rate and byte
//! buffer, which several relays may share) and then a propagation delay; the reverse
//! direction only through the delay. Packets leave in arrival order per direction (the delay
//! is constant), as the testbed's delay element keeps them.
//!
//! The queue is computed, not held: each arriving packet's departure is
//! `max(now, previous departure) + size / rate`, and it is dropped when the backlog that
//! implies exceeds the buffer. One scheduler thread per [`DelayLine`] sends packets when
//! their time comes.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A drop-tail FIFO served at `rate` (bytes per second) with room for `buffer` bytes.
#[derive(Debug)]
pub struct Bottleneck {
    rate: f64,
    buffer: f64,
    origin: Instant,
    /// Seconds since `origin` when the transmitter is next free.
    next_free: Mutex<f64>,
    pub drops: AtomicU64,
    pub forwarded: AtomicU64,
    pub forwarded_bytes: AtomicU64,
}

impl Bottleneck {
    /// `rate_mbps` in Mb/s, `buffer_bytes` the queue's room (at least one 1500 B packet).
    pub fn new(rate_mbps: f64, buffer_bytes: u64) -> Result<Arc<Bottleneck>, String> {
        if !(rate_mbps.is_finite() && rate_mbps > 0.0) {
            return Err(format!("rate_mbps: expected a finite number > 0, got {rate_mbps}"));
        }
        if buffer_bytes < 1500 {
            return Err(format!("buffer_bytes: expected at least 1500 (one packet), got {buffer_bytes}"));
        }
        Ok(Arc::new(Bottleneck {
            rate: rate_mbps * 1e6 / 8.0,
            buffer: buffer_bytes as f64,
            origin: Instant::now(),
            next_free: Mutex::new(0.0),
            drops: AtomicU64::new(0),
            forwarded: AtomicU64::new(0),
            forwarded_bytes: AtomicU64::new(0),
        }))
    }

    /// When a packet of `bytes` arriving at `now` leaves the queue, or `None` if dropped.
    fn admit(&self, now: Instant, bytes: usize) -> Option<Instant> {
        let t = now.saturating_duration_since(self.origin).as_secs_f64();
        let mut next = self.next_free.lock().unwrap_or_else(|e| e.into_inner());
        let start = next.max(t);
        let backlog = (start - t) * self.rate;
        if backlog + bytes as f64 > self.buffer + 1.0 {
            self.drops.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        *next = start + bytes as f64 / self.rate;
        self.forwarded.fetch_add(1, Ordering::Relaxed);
        self.forwarded_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
        Some(self.origin + Duration::from_secs_f64(*next))
    }

    /// Packets in the queue at `now` (of `packet` bytes each), for probes.
    pub fn queue_packets(&self, now: Instant, packet: f64) -> f64 {
        let t = now.saturating_duration_since(self.origin).as_secs_f64();
        let next = *self.next_free.lock().unwrap_or_else(|e| e.into_inner());
        ((next - t).max(0.0) * self.rate / packet).max(0.0)
    }
}

struct Due {
    at: Instant,
    seq: u64,
    socket: Arc<UdpSocket>,
    to: SocketAddr,
    data: Vec<u8>,
}

impl PartialEq for Due {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl Eq for Due {}
impl PartialOrd for Due {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Due {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(o.at, o.seq))
    }
}

#[derive(Default)]
struct Heap {
    items: BinaryHeap<Reverse<Due>>,
    seq: u64,
}

/// Packets waiting for their send time, and the thread that sends them.
pub struct DelayLine {
    heap: Mutex<Heap>,
    wake: Condvar,
    stop: AtomicBool,
}

impl DelayLine {
    pub fn start() -> (Arc<DelayLine>, JoinHandle<()>) {
        let line = Arc::new(DelayLine { heap: Mutex::new(Heap::default()), wake: Condvar::new(), stop: AtomicBool::new(false) });
        let l = line.clone();
        let handle = std::thread::spawn(move || l.run());
        (line, handle)
    }

    fn push(&self, at: Instant, socket: Arc<UdpSocket>, to: SocketAddr, data: Vec<u8>) {
        let mut h = self.heap.lock().unwrap_or_else(|e| e.into_inner());
        h.seq += 1;
        let seq = h.seq;
        h.items.push(Reverse(Due { at, seq, socket, to, data }));
        self.wake.notify_one();
    }

    fn run(&self) {
        let mut h = self.heap.lock().unwrap_or_else(|e| e.into_inner());
        while !self.stop.load(Ordering::Relaxed) {
            let now = Instant::now();
            match h.items.peek() {
                Some(Reverse(d)) if d.at <= now => {
                    let Reverse(d) = h.items.pop().expect("peeked");
                    drop(h);
                    // A send error (the peer's socket closed) only loses the packet, as a
                    // network would.
                    let _ = d.socket.send_to(&d.data, d.to);
                    h = self.heap.lock().unwrap_or_else(|e| e.into_inner());
                }
                Some(Reverse(d)) => {
                    let wait = d.at - now;
                    h = self.wake.wait_timeout(h, wait).unwrap_or_else(|e| e.into_inner()).0;
                }
                None => {
                    h = self.wake.wait_timeout(h, Duration::from_millis(50)).unwrap_or_else(|e| e.into_inner()).0;
                }
            }
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wake.notify_all();
    }
}

/// One shaped path: client -> `front` -> bottleneck -> delay -> server, and back with the
/// delay only.
pub struct Relay {
    front: Arc<UdpSocket>,
    /// Set to drop every packet in both directions (a path that dies).
    down: Arc<AtomicBool>,
    /// Bytes this path carried through its bottleneck (forward direction).
    forwarded: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Relay {
    /// Listens on `front_ip:0` and forwards to `server`.
    pub fn start(front_ip: std::net::IpAddr, server: SocketAddr, fwd: Arc<Bottleneck>, delay: Duration, line: Arc<DelayLine>) -> io::Result<Relay> {
        let front = Arc::new(UdpSocket::bind(SocketAddr::new(front_ip, 0))?);
        let back = Arc::new(UdpSocket::bind(SocketAddr::new(server.ip(), 0))?);
        for s in [&front, &back] {
            s.set_read_timeout(Some(Duration::from_millis(50)))?;
        }
        let client: Arc<Mutex<Option<SocketAddr>>> = Arc::default();
        let down = Arc::new(AtomicBool::new(false));
        let forwarded = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let mut threads = Vec::new();
        {
            let (front, back, client, down, stop, line, forwarded) = (front.clone(), back.clone(), client.clone(), down.clone(), stop.clone(), line.clone(), forwarded.clone());
            threads.push(std::thread::spawn(move || {
                let mut buf = vec![0u8; 65536];
                while !stop.load(Ordering::Relaxed) {
                    let Ok((n, from)) = front.recv_from(&mut buf) else { continue };
                    *client.lock().unwrap_or_else(|e| e.into_inner()) = Some(from);
                    if down.load(Ordering::Relaxed) {
                        continue;
                    }
                    if let Some(leave) = fwd.admit(Instant::now(), n) {
                        forwarded.fetch_add(n as u64, Ordering::Relaxed);
                        line.push(leave + delay, back.clone(), server, buf[..n].to_vec());
                    }
                }
            }));
        }
        {
            let (front, back, down, stop) = (front.clone(), back.clone(), down.clone(), stop.clone());
            threads.push(std::thread::spawn(move || {
                let mut buf = vec![0u8; 65536];
                while !stop.load(Ordering::Relaxed) {
                    let Ok((n, _)) = back.recv_from(&mut buf) else { continue };
                    let to = *client.lock().unwrap_or_else(|e| e.into_inner());
                    if let (Some(to), false) = (to, down.load(Ordering::Relaxed)) {
                        line.push(Instant::now() + delay, front.clone(), to, buf[..n].to_vec());
                    }
                }
            }));
        }
        Ok(Relay { front, down, forwarded, stop, threads })
    }

    /// The address the client sends this path's packets to.
    pub fn addr(&self) -> SocketAddr {
        self.front.local_addr().expect("a bound socket has an address")
    }

    /// From now on the path drops everything, both ways.
    pub fn kill(&self) {
        self.down.store(true, Ordering::Relaxed);
    }

    pub fn forwarded_bytes(&self) -> u64 {
        self.forwarded.load(Ordering::Relaxed)
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
