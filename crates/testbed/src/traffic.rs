//! Real traffic: for every flow a receiver thread in the receiver's namespace and a sender
//! thread in the sender's, each holding an ordinary socket (TCP, MPTCP or UDP). Receivers
//! count the bytes the application reads (goodput); senders publish their socket so the
//! probes can read TCP_INFO from it. Threads check a shared stop flag at least every 50 ms.

use crate::plan::{FlowPlan, PORT};
use crate::support::{Checked, TcpSettings, TCP_HEADERS};
use crate::{fail, netns, Result};
use pathpool_experiment::schema::{TcpTraffic, UdpPattern};
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Exp, Pareto};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream, UdpSocket};
use std::os::fd::{AsRawFd, FromRawFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const IPPROTO_MPTCP: libc::c_int = 262;
const TCP_CONGESTION: libc::c_int = 13;
const TCP_MAXSEG: libc::c_int = 2;
const UDP_HEADERS: u64 = 28;
const TICK: Duration = Duration::from_millis(50);
const CHUNK: usize = 128 * 1024;

/// What the probes read of one flow while it runs.
#[derive(Default)]
pub struct FlowCounters {
    /// Bytes the receiving application has read.
    pub received: AtomicU64,
    /// The sender's socket once connected (-1 before), kept open until the run ends.
    pub sender_fd: AtomicI32,
    /// Seconds after the start when a finite transfer was completely received (NaN bits).
    pub completed_at_bits: AtomicU64,
}

pub struct Traffic {
    stop: Arc<AtomicBool>,
    threads: Vec<(String, JoinHandle<Result<()>>)>,
    pub counters: Vec<Arc<FlowCounters>>,
}

impl Traffic {
    /// Binds every receiver, then starts every sender; each sender waits for its flow's
    /// start time, counted from `t0`.
    pub fn start(flows: &[FlowPlan], namespaces: &[String], t0: Instant, seed: u64) -> Result<Traffic> {
        let stop = Arc::new(AtomicBool::new(false));
        let counters: Vec<Arc<FlowCounters>> = flows
            .iter()
            .map(|_| {
                let c = FlowCounters::default();
                c.sender_fd.store(-1, Ordering::SeqCst);
                c.completed_at_bits.store(f64::NAN.to_bits(), Ordering::SeqCst);
                Arc::new(c)
            })
            .collect();
        let mut traffic = Traffic { stop: stop.clone(), threads: Vec::new(), counters: counters.clone() };
        let (ready_tx, ready_rx) = mpsc::channel::<Result<()>>();
        for (f, c) in flows.iter().zip(&counters) {
            let (ns, stop, c, tx) = (namespaces[f.receiver].clone(), stop.clone(), c.clone(), ready_tx.clone());
            let (spec, dst) = (f.spec.clone(), f.destination);
            let expected = match &f.spec {
                Checked::Tcp { traffic: TcpTraffic::Bytes(n), .. } => Some(*n),
                _ => None,
            };
            let name = format!("receiver {}", f.name);
            let sender_end = f.stop_s.map(|s| t0 + Duration::from_secs_f64(s));
            let handle = std::thread::Builder::new().name(name.clone()).spawn(move || receive(&ns, &spec, dst, (&stop, sender_end), &c, &tx, expected, t0)).expect("spawning a receiver thread");
            traffic.threads.push((name, handle));
        }
        drop(ready_tx);
        for _ in flows {
            match ready_rx.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => return fail("a receiver thread ended before it listened"),
            }
        }
        for (i, (f, c)) in flows.iter().zip(&counters).enumerate() {
            let (ns, stop, c) = (namespaces[f.sender].clone(), stop.clone(), c.clone());
            let (spec, src, dst) = (f.spec.clone(), f.sources[0], f.destination);
            let (start, stop_at) = (f.start_s, f.stop_s);
            let rng_seed = seed ^ (0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1));
            let name = format!("sender {}", f.name);
            let handle = std::thread::Builder::new()
                .name(name.clone())
                .spawn(move || {
                    netns::enter(&ns)?;
                    let begin = t0 + Duration::from_secs_f64(start);
                    let end = stop_at.map(|s| t0 + Duration::from_secs_f64(s));
                    if !sleep_until(begin, &stop) {
                        return Ok(());
                    }
                    send(&spec, src, dst, end, &stop, &c, rng_seed)
                })
                .expect("spawning a sender thread");
            traffic.threads.push((name, handle));
        }
        Ok(traffic)
    }

    /// Stops every thread and returns the first error one of them met.
    pub fn stop(mut self) -> Result<()> {
        self.stop.store(true, Ordering::SeqCst);
        let mut first = Ok(());
        for (name, t) in self.threads.drain(..) {
            let r = t.join().unwrap_or_else(|_| fail(format!("{name}: the thread panicked")));
            if first.is_ok() {
                first = r.map_err(|e| crate::TestbedError(format!("{name}: {e}")));
            }
        }
        first
    }
}

impl Drop for Traffic {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for (_, t) in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Sleeps until `when` in steps of at most TICK; false when told to stop first.
fn sleep_until(when: Instant, stop: &AtomicBool) -> bool {
    loop {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let now = Instant::now();
        if now >= when {
            return true;
        }
        std::thread::sleep((when - now).min(TICK));
    }
}

fn os_error<T>(what: &str) -> Result<T> {
    fail(format!("{what}: {}", std::io::Error::last_os_error()))
}

fn setsockopt_bytes(fd: RawFd, level: libc::c_int, name: libc::c_int, value: &[u8], what: &str) -> Result<()> {
    // SAFETY: value is a live byte slice of the given length.
    if unsafe { libc::setsockopt(fd, level, name, value.as_ptr().cast(), value.len() as libc::socklen_t) } != 0 {
        return os_error(what);
    }
    Ok(())
}

fn setsockopt_int(fd: RawFd, level: libc::c_int, name: libc::c_int, value: libc::c_int, what: &str) -> Result<()> {
    setsockopt_bytes(fd, level, name, &value.to_ne_bytes(), what)
}

fn sockaddr(a: SocketAddrV4) -> libc::sockaddr_in {
    libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: a.port().to_be(),
        sin_addr: libc::in_addr { s_addr: u32::from(*a.ip()).to_be() },
        sin_zero: [0; 8],
    }
}

/// A stream socket (TCP, or MPTCP when `mptcp`), closed on drop.
struct Socket(RawFd);

impl Socket {
    fn stream(mptcp: bool) -> Result<Socket> {
        let proto = if mptcp { IPPROTO_MPTCP } else { libc::IPPROTO_TCP };
        // SAFETY: plain socket(2) call.
        let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, proto) };
        if fd < 0 {
            return os_error(if mptcp { "socket(IPPROTO_MPTCP) (is net.mptcp.enabled 1?)" } else { "socket(TCP)" });
        }
        Ok(Socket(fd))
    }

    fn bind(&self, a: SocketAddrV4) -> Result<()> {
        let sa = sockaddr(a);
        // SAFETY: sa is a valid sockaddr_in.
        if unsafe { libc::bind(self.0, (&sa as *const libc::sockaddr_in).cast(), std::mem::size_of::<libc::sockaddr_in>() as u32) } != 0 {
            return os_error(&format!("bind {a}"));
        }
        Ok(())
    }

    fn connect(&self, a: SocketAddrV4) -> Result<()> {
        let sa = sockaddr(a);
        // SAFETY: sa is a valid sockaddr_in.
        if unsafe { libc::connect(self.0, (&sa as *const libc::sockaddr_in).cast(), std::mem::size_of::<libc::sockaddr_in>() as u32) } != 0 {
            return os_error(&format!("connect to {a}"));
        }
        Ok(())
    }

    fn into_fd(self) -> RawFd {
        let fd = self.0;
        std::mem::forget(self);
        fd
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        // SAFETY: the descriptor is owned by this value.
        unsafe { libc::close(self.0) };
    }
}

fn tcp_settings(spec: &Checked) -> Option<(&TcpSettings, bool)> {
    match spec {
        Checked::Tcp { tcp, .. } => Some((tcp, false)),
        Checked::Mptcp { tcp, .. } => Some((tcp, true)),
        Checked::Udp { .. } => None,
    }
}

#[allow(clippy::too_many_arguments)]
/// `(stop, sender_end)`: the run's stop flag, and when the flow's sender stops by itself.
fn receive(ns: &str, spec: &Checked, dst: Ipv4Addr, (stop, sender_end): (&AtomicBool, Option<Instant>), c: &FlowCounters, ready: &mpsc::Sender<Result<()>>, expected: Option<u64>, t0: Instant) -> Result<()> {
    let addr = SocketAddrV4::new(dst, PORT);
    let setup = || -> Result<Receiver> {
        netns::enter(ns)?;
        match tcp_settings(spec) {
            Some((_, mptcp)) => {
                let s = Socket::stream(mptcp)?;
                setsockopt_int(s.0, libc::SOL_SOCKET, libc::SO_REUSEADDR, 1, "SO_REUSEADDR")?;
                if let Checked::Mptcp { receive_buffer: Some(bytes), .. } = spec {
                    // Before listen: accepted connections and their subflows inherit it, and the
                    // window scale is chosen from it. FORCE passes net.core.rmem_max (global).
                    setsockopt_int(s.0, libc::SOL_SOCKET, libc::SO_RCVBUFFORCE, *bytes as libc::c_int, "SO_RCVBUFFORCE")?;
                }
                s.bind(addr)?;
                // SAFETY: s.0 is a bound stream socket.
                if unsafe { libc::listen(s.0, 4) } != 0 {
                    return os_error("listen");
                }
                // SAFETY: the descriptor's ownership moves into the listener.
                let l = unsafe { TcpListener::from_raw_fd(s.into_fd()) };
                l.set_nonblocking(true).map_err(|e| crate::TestbedError(format!("listener: {e}")))?;
                Ok(Receiver::Stream(l))
            }
            None => {
                let u = UdpSocket::bind(addr).map_err(|e| crate::TestbedError(format!("bind {addr}: {e}")))?;
                u.set_read_timeout(Some(TICK)).map_err(|e| crate::TestbedError(e.to_string()))?;
                Ok(Receiver::Datagram(u))
            }
        }
    };
    let receiver = match setup() {
        Ok(r) => {
            let _ = ready.send(Ok(()));
            r
        }
        Err(e) => {
            let _ = ready.send(Err(crate::TestbedError(e.0.clone())));
            return Err(e);
        }
    };
    let mut buf = vec![0u8; CHUNK];
    match receiver {
        Receiver::Datagram(u) => {
            while !stop.load(Ordering::Relaxed) {
                if let Ok(n) = u.recv(&mut buf) {
                    c.received.fetch_add((n as u64) + UDP_HEADERS, Ordering::Relaxed);
                }
            }
        }
        Receiver::Stream(listener) => {
            let mut stream: TcpStream = loop {
                if stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                match listener.accept() {
                    Ok((s, _)) => break s,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(2)),
                    Err(e) => return fail(format!("accept: {e}")),
                }
            };
            stream.set_nonblocking(false).map_err(|e| crate::TestbedError(e.to_string()))?;
            stream.set_read_timeout(Some(TICK)).map_err(|e| crate::TestbedError(e.to_string()))?;
            let fd = stream.as_raw_fd();
            if let Some(bytes) = tcp_settings(spec).and_then(|(t, _)| t.receive_lowat) {
                // The application is woken, and reads, only once this much data waits; Linux's
                // read-time ACK (tcp_cleanup_rbuf) then comes that much less often.
                let v = libc::c_int::try_from(bytes).unwrap_or(libc::c_int::MAX);
                setsockopt_int(fd, libc::SOL_SOCKET, libc::SO_RCVLOWAT, v, "SO_RCVLOWAT")?;
            }
            let mut total = 0u64;
            while !stop.load(Ordering::Relaxed) {
                match stream.read(&mut buf) {
                    Ok(0) => std::thread::sleep(TICK),
                    Ok(n) => {
                        total += n as u64;
                        c.received.fetch_add(n as u64, Ordering::Relaxed);
                        if expected.is_some_and(|e| total >= e) && c.completed_at_bits.load(Ordering::Relaxed) == f64::NAN.to_bits() {
                            c.completed_at_bits.store(t0.elapsed().as_secs_f64().to_bits(), Ordering::Relaxed);
                        }
                    }
                    Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut | std::io::ErrorKind::Interrupted) => {}
                    // A sender ends its connection with a reset (SO_LINGER 0, in `send`): when
                    // the run stops, or at the flow's own stop time. A receiver blocked in read
                    // then sees the reset before it sees the stop flag; that is the end of the
                    // flow, not a failure. A reset at any other time still fails the run.
                    Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset && (stop.load(Ordering::SeqCst) || sender_end.is_some_and(|end| Instant::now() >= end)) => break,
                    Err(e) => return fail(format!("read: {e}")),
                }
            }
        }
    }
    Ok(())
}

enum Receiver {
    Stream(TcpListener),
    Datagram(UdpSocket),
}

fn send(spec: &Checked, src: Ipv4Addr, dst: Ipv4Addr, end: Option<Instant>, stop: &AtomicBool, c: &FlowCounters, seed: u64) -> Result<()> {
    let to = SocketAddrV4::new(dst, PORT);
    let running = |now: Instant| !stop.load(Ordering::Relaxed) && end.is_none_or(|e| now < e);
    match spec {
        Checked::Tcp { tcp, .. } | Checked::Mptcp { tcp, .. } => {
            let mptcp = matches!(spec, Checked::Mptcp { .. });
            let s = Socket::stream(mptcp)?;
            setsockopt_bytes(s.0, libc::IPPROTO_TCP, TCP_CONGESTION, tcp.cc.as_bytes(), &format!("TCP_CONGESTION \"{}\"", tcp.cc))?;
            if !mptcp {
                setsockopt_int(s.0, libc::IPPROTO_TCP, TCP_MAXSEG, (tcp.packet_size - TCP_HEADERS) as libc::c_int, "TCP_MAXSEG")?;
            }
            // The run ends by closing with data still queued; an orderly close would leave an
            // orphan socket retransmitting into a namespace being removed, holding its
            // congestion controller (a BPF one included) for minutes. A reset frees it now.
            let abort = libc::linger { l_onoff: 1, l_linger: 0 };
            // SAFETY: `linger` is plain old data; its bytes are what SO_LINGER reads.
            let bytes = unsafe { std::slice::from_raw_parts((&abort as *const libc::linger).cast::<u8>(), std::mem::size_of::<libc::linger>()) };
            setsockopt_bytes(s.0, libc::SOL_SOCKET, libc::SO_LINGER, bytes, "SO_LINGER")?;
            s.bind(SocketAddrV4::new(src, 0))?;
            s.connect(to)?;
            let fd = s.into_fd();
            c.sender_fd.store(fd, Ordering::SeqCst);
            // SAFETY: the descriptor's ownership moves into the stream, which closes it when
            // this thread ends (after the run's last sample).
            let mut stream = unsafe { TcpStream::from_raw_fd(fd) };
            stream.set_write_timeout(Some(TICK)).map_err(|e| crate::TestbedError(e.to_string()))?;
            let traffic = match spec {
                Checked::Tcp { traffic, .. } => *traffic,
                _ => TcpTraffic::Bulk,
            };
            let payload = tcp.packet_size - TCP_HEADERS;
            let data = vec![0x5au8; CHUNK];
            let mut write = |n: usize| -> Result<usize> {
                match stream.write(&data[..n]) {
                    Ok(k) => Ok(k),
                    Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut | std::io::ErrorKind::Interrupted) => Ok(0),
                    // At the end of a run the receivers close first: their reset is not an error.
                    Err(_) if stop.load(Ordering::SeqCst) => Ok(0),
                    Err(e) => fail(format!("write: {e}")),
                }
            };
            match traffic {
                TcpTraffic::Bulk => {
                    while running(Instant::now()) {
                        write(CHUNK)?;
                    }
                }
                TcpTraffic::Bytes(total) => {
                    let mut left = total;
                    while left > 0 && running(Instant::now()) {
                        left -= write(CHUNK.min(left as usize))? as u64;
                    }
                }
                TcpTraffic::RateLimited { bps } => {
                    // The application produces `bps` of wire bits of full data segments.
                    let bytes_per_s = bps as f64 / 8.0 * payload as f64 / tcp.packet_size as f64;
                    let begin = Instant::now();
                    let mut written = 0u64;
                    while running(Instant::now()) {
                        let due = (begin.elapsed().as_secs_f64() * bytes_per_s) as u64;
                        if due > written {
                            written += write(((due - written) as usize).min(CHUNK))? as u64;
                        } else {
                            std::thread::sleep(Duration::from_secs_f64((payload as f64 / bytes_per_s).min(0.05)));
                        }
                    }
                }
            }
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(TICK);
            }
            Ok(())
        }
        Checked::Udp { packet_size, pattern } => {
            let u = UdpSocket::bind(SocketAddrV4::new(src, 0)).map_err(|e| crate::TestbedError(format!("bind {src}: {e}")))?;
            u.connect(to).map_err(|e| crate::TestbedError(format!("connect to {to}: {e}")))?;
            let data = vec![0x5au8; (*packet_size - UDP_HEADERS) as usize];
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let rate = match pattern {
                UdpPattern::Constant { rate_bps } | UdpPattern::Poisson { rate_bps } | UdpPattern::OnOff { rate_bps, .. } => *rate_bps,
            };
            let gap = *packet_size as f64 * 8.0 / rate as f64;
            let mut next = Instant::now();
            let mut on_until: Option<Instant> = None;
            while running(Instant::now()) {
                if let UdpPattern::OnOff { mean_on, mean_off, pareto_shape, .. } = pattern {
                    if on_until.is_none_or(|t| next >= t) {
                        if on_until.is_some() {
                            let off = Exp::new(1e12 / *mean_off as f64).map_or(0.0, |d| d.sample(&mut rng));
                            next += Duration::from_secs_f64(off);
                        }
                        // Pareto with the given shape and mean: scale = mean (shape - 1) / shape.
                        let mean = *mean_on as f64 / 1e12;
                        let on = Pareto::new(mean * (pareto_shape - 1.0) / pareto_shape, *pareto_shape).map_or(mean, |d| d.sample(&mut rng));
                        on_until = Some(next + Duration::from_secs_f64(on));
                    }
                }
                if !sleep_until(next, stop) || end.is_some_and(|e| next >= e) {
                    break;
                }
                // A full socket buffer drops the packet, as a UDP application would lose it.
                let _ = u.send(&data);
                let step = match pattern {
                    UdpPattern::Poisson { .. } => -gap * (1.0 - rng.random::<f64>()).ln(),
                    _ => gap,
                };
                next += Duration::from_secs_f64(step);
            }
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(TICK);
            }
            Ok(())
        }
    }
}
