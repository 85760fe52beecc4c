//! The speed benchmarks of BENCHMARKS.md, built in code (no scenario file), for profiling.
//!
//! cargo run --release -p pathpool-sim --example bench -- b1 10 600
//!   scenario: b1 (100 Mb/s dumbbell), b2 (b1 + 1 Gb/s access links), s (1 Gb/s, N flows),
//!   mp (b1's bottleneck shared by N/2 TCP flows and N/2 two-subflow LIA connections),
//!   mpd (two 100 Mb/s bottlenecks, each with N TCP flows and one subflow of each of N LIA
//!   connections), mpsbd (mp with MPTCP-SBD connections), fence (the scale case: N flows
//!   over 100 bottlenecks of 1 Gb/s side by side, see `fence`); then N and simulated seconds.
//!   An optional fourth argument M samples memory every M simulated seconds (live heap
//!   bytes counted by this program's allocator, and the resident set): one `memory` line
//!   per sample, for the long runs of BENCHMARKS.md ("Memory over long runs"); the
//!   detectors' logs are then taken out at each sample, as a writer streaming them would,
//!   unless a fifth argument `keep` leaves them in. NewReno without SACK, one ACK per segment,
//!   IW 10, min RTO 200 ms, 1500 B data, 40 B ACKs, drop-tail buffer of 1 BDP, base RTT
//!   20 ms. Prints the data packets that left the bottleneck queue(s), the events per such
//!   packet, the allocator's peak live heap and the peak resident set.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use pathpool_sim::time::{millis, secs};
use pathpool_sim::*;

/// The system allocator, counting the bytes live: the heap the simulation holds, exactly,
/// whatever the allocator keeps cached (the resident set alone would hide or invent growth).
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            PEAK.fetch_max(LIVE.fetch_add(l.size(), Relaxed) + l.size(), Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            LIVE.fetch_sub(l.size(), Relaxed);
            PEAK.fetch_max(LIVE.fetch_add(new, Relaxed) + new, Relaxed);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// A figure in KiB of /proc/self/status (Linux; 0 elsewhere): `VmRSS:` the resident set now,
/// `VmHWM:` its peak.
fn status_kib(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0)
}

/// A bottleneck in each direction: (forward queue, forward pipe, reverse queue, reverse pipe).
struct Dumbbell {
    fwd: [ElementId; 2],
    rev: [ElementId; 2],
}

fn dumbbell(sim: &mut Simulation, rate: u64, buffer: u32, delay: Time) -> Dumbbell {
    let q = sim.add_queue(QueueConfig::drop_tail(rate, Buffer::Packets(buffer))).unwrap();
    let r = sim.add_queue(QueueConfig::drop_tail(rate, Buffer::Packets(10_000))).unwrap();
    let p = sim.add_pipe(delay);
    let rp = sim.add_pipe(delay);
    Dumbbell { fwd: [q, p], rev: [r, rp] }
}

fn tcp(fwd: Vec<ElementId>, rev: Vec<ElementId>) -> TcpFlowConfig {
    let mut cfg = TcpFlowConfig::new(fwd, rev);
    cfg.min_rto = millis(200);
    cfg
}

fn lia(subflows: Vec<SubflowRoute>) -> MptcpConfig {
    let mut cfg = MptcpConfig::new(subflows, MultipathCc::Coupled(Algorithm::Lia));
    cfg.tcp.min_rto = millis(200);
    cfg
}

/// The scale benchmark (issue 43, item 4): a fence of `FENCE_LINKS` bottlenecks side by side
/// (S1 Fig. 2's fence, widened), each with its own reverse queue, and `n` flows spread
/// evenly over them. On link k, half the flows are TCP and half are two-subflow LIA
/// connections with their second subflow on link k+1 (the last link's on the first), so
/// every link carries TCP flows, its own connections' first subflows and its neighbour's
/// second subflows: coupling acts on every link, and the pooled links form one ring. Half
/// and half, as MP shared has it. Starts are spread evenly over the first second so that
/// 15 000 initial windows do not hit the queues in the same instant.
const FENCE_LINKS: usize = 100;

fn fence(sim: &mut Simulation, first: Dumbbell, n: usize, rate: u64, bdp_packets: u32, delay: Time) -> Vec<ElementId> {
    let mut links = vec![first];
    links.extend((1..FENCE_LINKS).map(|_| dumbbell(sim, rate, bdp_packets, delay)));
    let route = |d: &Dumbbell| SubflowRoute { fwd: d.fwd.to_vec(), rev: d.rev.to_vec() };
    for i in 0..n {
        // Flow i on link i mod 100; TCP and LIA alternate on each link.
        let (k, j) = (i % FENCE_LINKS, i / FENCE_LINKS);
        let start = secs(1) * i as u64 / n as u64;
        if j % 2 == 0 {
            let mut cfg = tcp(links[k].fwd.to_vec(), links[k].rev.to_vec());
            cfg.start = start;
            sim.add_tcp_flow(cfg).unwrap();
        } else {
            let mut cfg = lia(vec![route(&links[k]), route(&links[(k + 1) % FENCE_LINKS])]);
            cfg.tcp.start = start;
            sim.add_mptcp_connection(cfg).unwrap();
        }
    }
    links.iter().map(|d| d.fwd[0]).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: bench <b1|b2|s|mp|mpsbd|mpd|fence> <flows> <seconds> [memory sample every N seconds [keep]]";
    let kind = args.first().map(String::as_str).unwrap_or("b1");
    let n: usize = args.get(1).map_or(Ok(10), |s| s.parse()).unwrap_or_else(|_| panic!("{usage}"));
    let seconds: u64 = args.get(2).map_or(Ok(600), |s| s.parse()).unwrap_or_else(|_| panic!("{usage}"));
    let sample_every: Option<u64> = args.get(3).map(|s| s.parse().ok().filter(|&m| m > 0).unwrap_or_else(|| panic!("{usage}")));
    let keep_records = args.get(4).is_some_and(|a| a == "keep");
    let rate: u64 = match kind {
        "b1" | "b2" | "mp" | "mpsbd" | "mpd" => 100_000_000,
        "s" | "fence" => 1_000_000_000,
        _ => panic!("{usage}"),
    };
    if kind == "fence" && (n == 0 || n % (2 * FENCE_LINKS) != 0) {
        eprintln!("bench fence: <flows> must be a positive multiple of {} (half TCP, half LIA on each of {FENCE_LINKS} links), got {n}", 2 * FENCE_LINKS);
        std::process::exit(2);
    }
    let rtt = millis(20);
    // One BDP, rounded up: 167 packets at 100 Mb/s, 1667 at 1 Gb/s.
    let bdp_packets = (rate as u128 * rtt as u128).div_ceil(PS_PER_SEC as u128 * 8 * 1500) as u32;

    let wall = Instant::now();
    let mut sim = Simulation::new(1);
    let access = kind == "b2";
    // b2: 1 ms per access link, so the base RTT stays 20 ms.
    let core_delay = if access { rtt / 2 - millis(2) } else { rtt / 2 };
    let a = dumbbell(&mut sim, rate, bdp_packets, core_delay);
    let mut bottlenecks = vec![a.fwd[0]];
    let mut connections = Vec::new();
    match kind {
        "fence" => bottlenecks = fence(&mut sim, a, n, rate, bdp_packets, core_delay),
        "mp" | "mpsbd" => {
            let path = || SubflowRoute { fwd: a.fwd.to_vec(), rev: a.rev.to_vec() };
            for _ in 0..n / 2 {
                sim.add_tcp_flow(tcp(a.fwd.to_vec(), a.rev.to_vec())).unwrap();
            }
            for _ in 0..n / 2 {
                let mut cfg = lia(vec![path(), path()]);
                if kind == "mpsbd" {
                    cfg.cc = MultipathCc::MptcpSbd(SbdPolicy::default());
                }
                connections.push(sim.add_mptcp_connection(cfg).unwrap());
            }
        }
        "mpd" => {
            let b = dumbbell(&mut sim, rate, bdp_packets, core_delay);
            bottlenecks.push(b.fwd[0]);
            for d in [&a, &b] {
                for _ in 0..n {
                    sim.add_tcp_flow(tcp(d.fwd.to_vec(), d.rev.to_vec())).unwrap();
                }
            }
            for _ in 0..n {
                let paths = [&a, &b].map(|d| SubflowRoute { fwd: d.fwd.to_vec(), rev: d.rev.to_vec() });
                sim.add_mptcp_connection(lia(paths.to_vec())).unwrap();
            }
        }
        _ => {
            for _ in 0..n {
                let (fwd, rev) = if access {
                    let mut link = || {
                        let q = sim.add_queue(QueueConfig::drop_tail(1_000_000_000, Buffer::Packets(10_000))).unwrap();
                        (q, sim.add_pipe(millis(1)))
                    };
                    let (a1, p1) = link();
                    let (a2, p2) = link();
                    let (b1, r1) = link();
                    let (b2, r2) = link();
                    (vec![a1, p1, a.fwd[0], a.fwd[1], a2, p2], vec![b1, r1, a.rev[0], a.rev[1], b2, r2])
                } else {
                    (a.fwd.to_vec(), a.rev.to_vec())
                };
                sim.add_tcp_flow(tcp(fwd, rev)).unwrap();
            }
        }
    }
    match sample_every {
        None => sim.run_until(secs(seconds), &mut |_| {}),
        Some(every) => {
            let (mut t, mut records) = (0, 0);
            while t < seconds {
                t = (t + every).min(seconds);
                sim.run_until(secs(t), &mut |_| {});
                // The detectors' logs are output: taken out as a writer would stream them.
                for &c in connections.iter().filter(|_| !keep_records) {
                    let (obs, dec) = sim.take_mptcp_records(c);
                    records += obs.len() + dec.len();
                }
                println!(
                    "memory sim_seconds={t} records_out={records} heap_bytes={} heap_peak_bytes={} rss_kib={} pool_high_water={}",
                    LIVE.load(Relaxed),
                    PEAK.load(Relaxed),
                    status_kib("VmRSS:"),
                    sim.packet_pool_high_water()
                );
            }
        }
    }
    let elapsed = wall.elapsed().as_secs_f64();
    let stats: Vec<QueueStats> = bottlenecks.iter().map(|&q| sim.queue_stats(q)).collect();
    let packets: u64 = stats.iter().map(|q| q.departed_packets).sum();
    let drops: u64 = stats.iter().map(|q| q.drops).sum();
    let utilisation = stats.iter().map(|q| q.utilisation).sum::<f64>() / stats.len() as f64;
    println!(
        "scenario={kind} flows={n} sim_seconds={seconds} bottleneck_packets={packets} utilisation={utilisation:.5} drops={drops} \
         events={} events_per_packet={:.3} wall_seconds={elapsed:.3} packets_per_wall_second={:.0} \
         events_per_wall_second={:.0} pool_high_water={} heap_peak_bytes={} peak_rss_kib={}",
        sim.events_processed(),
        sim.events_processed() as f64 / packets as f64,
        packets as f64 / elapsed,
        sim.events_processed() as f64 / elapsed,
        sim.packet_pool_high_water(),
        PEAK.load(Relaxed),
        status_kib("VmHWM:"),
    );
}
