//! The delay element: propagation delay (and independent random loss) for every link
//! direction of the testbed, in user space, because this kernel has no netem.
//!
//! Each direction has a thread of its own, so that one link's work (or a stall of its thread)
//! does not delay another link's packets, and the threads run under SCHED_FIFO (when the
//! host allows it) so that ordinary jobs on a busy machine do not hold packets past their
//! deadline. docs/testbed.md measures both this and the older layout, one thread at normal
//! priority for every direction, which `start_one_thread` keeps for that comparison.
//! A thread reads each packet as soon as the queue in front of the sending TUN device releases
//! it, holds it until `read time + delay`, and writes it into the receiving TUN device. The delay of a direction is constant, so a FIFO per direction
//! keeps every flow's packets in order and the earliest deadline is always at a FIFO's head.
//! The thread sleeps in ppoll(2) with a nanosecond timeout and a 1 ns timer slack, so a
//! packet leaves within the scheduler's wake-up latency of its deadline (docs/testbed.md
//! measures the error).

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Largest packet a TUN device hands over (its MTU is at most this).
const MAX_PACKET: usize = 65_536;
/// The thread looks at the stop flag at least this often.
const IDLE_WAKE: Duration = Duration::from_millis(20);

/// One link direction: packets read from `input` leave through `output` after `delay`.
pub struct Direction {
    pub input: Arc<File>,
    /// None: a direction that does not exist (a one-way link); what the kernel sends there
    /// is read and discarded.
    pub output: Option<Arc<File>>,
    pub delay: Duration,
    /// Independent loss probability, in [0, 1).
    pub loss: f64,
    /// Seed of this direction's loss draws.
    pub seed: u64,
    /// Where to record each packet as it leaves the element (`--capture`).
    pub capture: Option<crate::capture::Capture>,
}

/// Counters of one direction, readable while the element runs.
#[derive(Default)]
pub struct Counters {
    pub packets: AtomicU64,
    pub bytes: AtomicU64,
    pub lost: AtomicU64,
    /// Writes the receiving device refused (only while the testbed is torn down).
    pub write_errors: AtomicU64,
}

/// The running element; `stop` ends its threads.
pub struct DelayElement {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
    pub counters: Arc<Vec<Counters>>,
    /// CPU time the element's threads used together, in ns (set when they stop).
    pub cpu_ns: Arc<AtomicU64>,
}

/// Reading of a clock (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...) in ns.
pub fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: ts is a valid timespec to write into.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

struct Held {
    due: Instant,
    buf: Vec<u8>,
}

impl DelayElement {
    /// One real-time thread per direction.
    pub fn start(directions: Vec<Direction>) -> DelayElement {
        let groups = directions.into_iter().enumerate().map(|(k, d)| vec![(k, d)]).collect();
        Self::spawn(groups, true)
    }

    /// Every direction in one thread at normal priority (the older layout; the benchmark's
    /// baseline).
    pub fn start_one_thread(directions: Vec<Direction>) -> DelayElement {
        Self::spawn(vec![directions.into_iter().enumerate().collect()], false)
    }

    fn spawn(groups: Vec<Vec<(usize, Direction)>>, realtime: bool) -> DelayElement {
        let stop = Arc::new(AtomicBool::new(false));
        let n = groups.iter().map(Vec::len).sum();
        let counters: Arc<Vec<Counters>> = Arc::new((0..n).map(|_| Counters::default()).collect());
        let cpu_ns = Arc::new(AtomicU64::new(0));
        let threads = groups
            .into_iter()
            .map(|group| {
                let (s, c, cpu) = (stop.clone(), counters.clone(), cpu_ns.clone());
                std::thread::Builder::new()
                    .name("delay-element".into())
                    .spawn(move || {
                        if realtime {
                            set_realtime();
                        }
                        serve(group, &s, &c);
                        cpu.fetch_add(thread_cpu_ns(), Ordering::SeqCst);
                    })
                    .expect("spawning a delay element thread")
            })
            .collect();
        DelayElement { stop, threads, counters, cpu_ns }
    }

    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for DelayElement {
    fn drop(&mut self) {
        self.stop();
    }
}

/// SCHED_FIFO at a low real-time priority for the calling thread: it preempts every
/// ordinary job but sleeps in ppoll between packets, so it takes only the CPU it relays
/// with (and the kernel's real-time throttling caps even that). Without the privilege the
/// thread keeps its normal priority.
fn set_realtime() {
    let param = libc::sched_param { sched_priority: 10 };
    // SAFETY: sets the calling thread's own policy with a valid sched_param.
    unsafe { libc::pthread_setschedparam(libc::pthread_self(), libc::SCHED_FIFO, &param) };
}

/// Serves `group`'s directions (each with its index into `all_counters`) until `stop`.
fn serve(group: Vec<(usize, Direction)>, stop: &AtomicBool, all_counters: &[Counters]) {
    let (index, mut dirs): (Vec<usize>, Vec<Direction>) = group.into_iter().unzip();
    let counters: Vec<&Counters> = index.iter().map(|&k| &all_counters[k]).collect();
    // SAFETY: prctl(PR_SET_TIMERSLACK) only changes this thread's timer slack.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
    let mut fds: Vec<libc::pollfd> = dirs.iter().map(|d| libc::pollfd { fd: d.input.as_raw_fd(), events: libc::POLLIN, revents: 0 }).collect();
    let mut rngs: Vec<Xoshiro256PlusPlus> = dirs.iter().map(|d| Xoshiro256PlusPlus::seed_from_u64(d.seed)).collect();
    let mut held: Vec<VecDeque<Held>> = dirs.iter().map(|_| VecDeque::new()).collect();
    let mut spare: Vec<Vec<u8>> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        let mut next = now + IDLE_WAKE;
        for (k, q) in held.iter_mut().enumerate() {
            while q.front().is_some_and(|h| h.due <= now) {
                let h = q.pop_front().expect("front exists");
                if let Some(out) = &dirs[k].output {
                    // SAFETY: writes h.buf's initialised bytes to a TUN descriptor we own.
                    let n = unsafe { libc::write(out.as_raw_fd(), h.buf.as_ptr().cast(), h.buf.len()) };
                    if n < 0 {
                        counters[k].write_errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
                if let Some(c) = dirs[k].capture.as_mut() {
                    c.record(&h.buf);
                }
                spare.push(h.buf);
            }
            if let Some(h) = q.front() {
                next = next.min(h.due);
            }
        }
        let wait = next.saturating_duration_since(Instant::now());
        let ts = libc::timespec { tv_sec: wait.as_secs() as libc::time_t, tv_nsec: wait.subsec_nanos() as libc::c_long };
        // SAFETY: fds is a valid array of pollfd; ts lives across the call.
        let ready = unsafe { libc::ppoll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, &ts, std::ptr::null()) };
        if ready <= 0 {
            continue;
        }
        for (k, pfd) in fds.iter_mut().enumerate() {
            if pfd.revents & libc::POLLIN == 0 {
                continue;
            }
            loop {
                let mut buf = spare.pop().unwrap_or_else(|| Vec::with_capacity(MAX_PACKET));
                buf.clear();
                // SAFETY: buf has MAX_PACKET bytes of capacity to read into.
                let n = unsafe { libc::read(pfd.fd, buf.as_mut_ptr().cast(), buf.capacity()) };
                if n <= 0 {
                    spare.push(buf);
                    break;
                }
                let arrived = Instant::now();
                // SAFETY: read(2) initialised the first n bytes.
                unsafe { buf.set_len(n as usize) };
                let d = &dirs[k];
                counters[k].packets.fetch_add(1, Ordering::Relaxed);
                counters[k].bytes.fetch_add(n as u64, Ordering::Relaxed);
                if d.loss > 0.0 && rngs[k].random::<f64>() < d.loss {
                    counters[k].lost.fetch_add(1, Ordering::Relaxed);
                    spare.push(buf);
                    continue;
                }
                held[k].push_back(Held { due: arrived + d.delay, buf });
            }
        }
    }
}
