//! The SBD daemon (`pathpool kernel sbd`): pp_mptcp_sbd pushes every subflow's RTT samples
//! through the ring buffer pp_rtt; per MPTCP connection (token) the daemon groups them
//! (`crate::grouping`: RFC 8382's bottleneck test, Rubenstein et al.'s comparison test, S0's
//! decision filter) and writes each subflow's group into pp_groups, which pp_mptcp_sbd reads.
//! Decisions, abstentions ("not yet") and group changes are logged with a timestamp;
//! connections whose pp_conns entry is gone are forgotten.

use crate::{sbd_controller, SbdRun};
use libbpf_rs::{MapCore, MapFlags, RingBufferBuilder};
use crate::grouping::{ConnGroups, Outcome};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A connection without RTT samples for this long is forgotten.
const IDLE: Duration = Duration::from_secs(30);

/// CLOCK_MONOTONIC, the clock of bpf_ktime_get_ns.
fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

fn stamp() -> String {
    let t = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    format!("t={}.{:03}", t.as_secs(), t.subsec_millis())
}

fn describe(groups: &[(u32, u32)]) -> String {
    groups.iter().map(|(i, g)| format!("sf{i}:{g}")).collect::<Vec<_>>().join(" ")
}

/// Runs until SIGINT/SIGTERM (or `max` has passed); logs to `log`. With `samples`, every RTT
/// sample is also written there as a trace CSV (`flow,ack_time_us,rtt_us`, flow =
/// `TOKEN.sfID`, time on CLOCK_MONOTONIC), the round-trip form of `pathpool detect --input`.
pub fn run_sbd(log: &mut dyn Write, max: Option<Duration>, samples: Option<Box<dyn Write>>) -> Result<SbdRun, String> {
    serve(log, max, samples, &STOP, true)
}

/// The daemon inside a program that has signal handling of its own (the fidelity suite runs
/// it on a thread beside each real MPTCP-SBD run): runs until `stop` is set, installs no
/// signal handler; otherwise as [`run_sbd`].
pub fn run_sbd_until(log: &mut dyn Write, stop: &AtomicBool, samples: Option<Box<dyn Write>>) -> Result<SbdRun, String> {
    serve(log, None, samples, stop, false)
}

fn serve(log: &mut dyn Write, max: Option<Duration>, samples: Option<Box<dyn Write>>, stop: &AtomicBool, signals: bool) -> Result<SbdRun, String> {
    let registered = crate::registered();
    if !registered.iter().any(|n| n == sbd_controller()) {
        return Err("pp_mptcp_sbd is not registered (`pathpool kernel load` first)".into());
    }
    let ring = super::loader::open_map("pp_rtt")?;
    let groups_map = super::loader::open_map("pp_groups")?;
    let conns_map = super::loader::open_map("pp_conns")?;
    if signals {
        for sig in [libc::SIGINT, libc::SIGTERM] {
            unsafe { libc::signal(sig, on_signal as *const () as libc::sighandler_t) };
        }
    }
    let state: Rc<RefCell<ConnGroups>> = Rc::default();
    let pending: Rc<RefCell<Vec<Outcome>>> = Rc::default();
    let stats = Rc::new(RefCell::new(SbdRun::default()));
    let samples: Rc<RefCell<Option<Box<dyn Write>>>> = Rc::new(RefCell::new(samples));
    if let Some(w) = samples.borrow_mut().as_mut() {
        writeln!(w, "flow,ack_time_us,rtt_us").map_err(|e| format!("writing the samples: {e}"))?;
    }
    let mut builder = RingBufferBuilder::new();
    {
        let (state, pending, stats, trace) = (state.clone(), pending.clone(), stats.clone(), samples.clone());
        builder
            .add(&ring, move |b: &[u8]| {
                // struct pp_rtt_sample: u64 ts_ns, u32 token, subflow_id, rtt_us, lost
                if b.len() < 24 {
                    return 0;
                }
                let u32_at = |at: usize| u32::from_ne_bytes(b[at..at + 4].try_into().expect("4 bytes"));
                let ts = u64::from_ne_bytes(b[0..8].try_into().expect("8 bytes"));
                stats.borrow_mut().samples += 1;
                if let Some(w) = trace.borrow_mut().as_mut() {
                    writeln!(w, "{:08x}.sf{},{},{}", u32_at(8), u32_at(12), ts / 1000, u32_at(16)).ok();
                }
                state.borrow_mut().on_sample(u32_at(8), u32_at(12), ts, u32_at(16), &mut pending.borrow_mut());
                0
            })
            .map_err(|e| format!("reading pp_rtt: {e}"))?;
    }
    let rb = builder.build().map_err(|e| format!("reading pp_rtt: {e}"))?;
    writeln!(log, "{} sbd daemon: reading RTT samples of pp_mptcp_sbd subflows", stamp()).ok();
    let start = std::time::Instant::now();
    let mut last_sweep = start;
    while !stop.load(Ordering::SeqCst) && max.is_none_or(|m| start.elapsed() < m) {
        match rb.poll(Duration::from_millis(100)) {
            Ok(()) => {}
            Err(e) if e.kind() == libbpf_rs::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("polling pp_rtt: {e}")),
        }
        for o in pending.borrow_mut().drain(..) {
            let d = match o {
                Outcome::Decision(d) => d,
                Outcome::NotYet { token, intervals } => {
                    stats.borrow_mut().not_yet += 1;
                    writeln!(log, "{} token {token:08x} not yet: {intervals} intervals without evidence, no groups written", stamp()).ok();
                    continue;
                }
            };
            let token = d.token;
            stats.borrow_mut().decisions += 1;
            writeln!(log, "{} token {token:08x} decision {}", stamp(), describe(&d.groups)).ok();
            if d.changed() {
                stats.borrow_mut().changes += 1;
                let was = d.previous.as_deref().map_or("none".to_string(), describe);
                writeln!(log, "{} token {token:08x} groups changed: {was} -> {}", stamp(), describe(&d.groups)).ok();
                crate::loader::write_pairs(&groups_map, token, &d.groups)?;
            }
        }
        if last_sweep.elapsed() >= Duration::from_secs(1) {
            last_sweep = std::time::Instant::now();
            // A connection ends for the kernel when its last subflow socket is destroyed (an
            // orphaned socket can linger for a minute or more): without samples for IDLE it is
            // ended here.
            let now = monotonic_ns();
            let mut why = BTreeMap::new();
            let gone = state.borrow_mut().forget(|t, last| {
                let closed = !matches!(conns_map.lookup(&t.to_ne_bytes(), MapFlags::ANY), Ok(Some(_)));
                let idle = now.saturating_sub(last) > IDLE.as_nanos() as u64;
                why.insert(t, if closed { "closed" } else { "idle" });
                closed || idle
            });
            for t in gone {
                stats.borrow_mut().forgotten += 1;
                writeln!(log, "{} token {t:08x} {}: forgotten", stamp(), why[&t]).ok();
            }
        }
        log.flush().ok();
        if let Some(w) = samples.borrow_mut().as_mut() {
            w.flush().ok();
        }
    }
    let s = stats.borrow().clone();
    writeln!(log, "{} sbd daemon: stopped after {} samples, {} decisions, {} not yet, {} group changes, {} connections forgotten",
        stamp(), s.samples, s.decisions, s.not_yet, s.changes, s.forgotten).ok();
    Ok(s)
}
