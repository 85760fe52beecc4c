//! SBD for QUIC: RTT samples reaching the controllers through noq's callbacks feed the
//! detector, and its decisions change the coupling while the connection runs. The samples
//! are pathpool-trace's synthetic traces with a known answer (docs/tracegen.md): two paths
//! behind one bottleneck, or behind one each.

use std::sync::Arc;
use std::time::{Duration, Instant};

use noq::congestion::ControllerFactory;
use pathpool_quic::{CoupledFactory, PathCc, QuicCc, SbdInput};
use pathpool_trace::gen::{generate, TraceConfig};

/// Replays the trace's RTT samples as acknowledged packets (one ACK frame each) of two paths
/// of one `mptcp-sbd` connection; returns the factory and the (still open) paths.
fn replay(shared: bool, seed: u64) -> (Arc<CoupledFactory>, Vec<Box<PathCc>>) {
    replay_recording(shared, seed, 0).0
}

/// [`replay`], recording the detector's inputs; also returns the number of RTT samples fed.
fn replay_recording(shared: bool, seed: u64, cap: usize) -> ((Arc<CoupledFactory>, Vec<Box<PathCc>>), usize) {
    let trace = generate(&TraceConfig { flows: 2, shared, duration_s: 60.0, seed, ..TraceConfig::default() });
    let t0 = Instant::now();
    let f = CoupledFactory::new(QuicCc::MptcpSbd);
    f.record_sbd_inputs(cap);
    let mut paths: Vec<Box<PathCc>> = (0..2).map(|_| f.clone().build(t0, 1200).into_any().downcast::<PathCc>().unwrap()).collect();
    let mut rows = trace.rtt.clone();
    rows.sort_by_key(|r| (r.ack_us, r.flow));
    let base = rows.first().map_or(0, |r| r.ack_us - r.rtt_us).min(0);
    let at = |us: i64| t0 + Duration::from_micros((us - base) as u64 + 1_000_000);
    for (pn, r) in rows.iter().enumerate() {
        let p = &mut paths[r.flow];
        p.on_packet_acked(at(r.ack_us - r.rtt_us), 1200, pn as u64);
        // Application-limited: the windows stay put; only the detector is under test.
        p.on_batch_end(at(r.ack_us), true);
    }
    ((f, paths), rows.len())
}

#[test]
fn recorded_inputs_account_for_every_sample_and_stop_at_the_cap() {
    let ((f, _paths), fed) = replay_recording(true, 1, usize::MAX);
    let inputs = f.sbd_inputs();
    let samples = inputs.iter().filter(|i| matches!(i, SbdInput::Sample { .. })).count();
    // Every RTT sample but each path's last slot in progress is either a slot's smallest
    // (fed as a sample when the next slot begins) or thinned out; no losses in this trace.
    assert_eq!(inputs.len(), fed - 2, "{samples} samples");
    assert!(samples > 1000 && samples < fed, "{samples} of {fed}");
    let ((f, _paths), _) = replay_recording(true, 1, 100);
    assert_eq!(f.sbd_inputs().len(), 100);
    // Not recording unless asked; a non-SBD controller has nothing to record.
    assert!(replay(true, 1).0.sbd_inputs().is_empty());
    let lia = CoupledFactory::new(QuicCc::Lia);
    lia.record_sbd_inputs(10);
    assert!(lia.sbd_inputs().is_empty());
}

#[test]
fn a_shared_bottleneck_keeps_the_paths_coupled_and_separate_ones_uncouple_them() {
    for seed in 1..=3 {
        let (f, _paths) = replay(true, seed);
        let d = f.decisions();
        assert!(d.len() >= 10, "seed {seed}: {} decisions in 60 s", d.len());
        let late: Vec<_> = d.iter().filter(|d| d.time_ns > 30_000_000_000).collect();
        let together = late.iter().filter(|d| d.groups[0] != 0 && d.groups[0] == d.groups[1]).count();
        assert!(together * 10 >= late.len() * 8, "seed {seed}: shared, {together} of {} decisions group the paths", late.len());
        assert_eq!(f.coupling()[..2], [0b11, 0b11], "seed {seed}: shared paths coupled");

        let (f, _paths) = replay(false, seed);
        let late: Vec<_> = f.decisions().into_iter().filter(|d| d.time_ns > 30_000_000_000).collect();
        let apart = late.iter().filter(|d| d.groups[0] != 0 && d.groups[1] != 0 && d.groups[0] != d.groups[1]).count();
        assert!(apart * 10 >= late.len() * 8, "seed {seed}: separate, {apart} of {} decisions split the paths", late.len());
        // Each path alone in its coupling set: OLIA over one path is Reno.
        assert_eq!(f.coupling()[..2], [0b01, 0b10], "seed {seed}: separate paths uncoupled");
    }
}
