//! A simulator capture (`pathpool run --pcap`) read back by the capture reader gives exactly
//! the decisions of the detector that ran inside the simulator: S0's NSB-2 and SB-2 with
//! MPTCP-SBD, from the receiving host's pcap.

use pathpool_pcap::plan::{self, Method};
use pathpool_pcap::Sink;
use pathpool_sbd::replay::Rfc8382Replay;
use pathpool_sbd::{FilterParams, SbdParams};
use pathpool_scenario::progress::Progress;
use std::path::{Path, PathBuf};

struct Feed(Rfc8382Replay);

impl Sink for Feed {
    fn owd(&mut self, f: usize, now: u64, owd: i64) {
        self.0.owd(f, now, owd);
    }
    fn rtt(&mut self, _: usize, _: u64, _: u64) {
        panic!("a receiver capture gives one-way delays");
    }
    fn loss(&mut self, f: usize, now: u64) {
        self.0.loss(f, now);
    }
    fn unsampled(&mut self, f: usize, now: u64) {
        self.0.unsampled(f, now);
    }
}

fn check(case: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut l = pathpool_scenario::load(&root.join(format!("scenarios/papers/ferlin2016/{case}.toml")), &[]).unwrap();
    pathpool_scenario::mptcp::override_cc(&mut l, "mptcp-sbd").unwrap();
    let dir = std::env::temp_dir().join(format!("pathpool-pcap-capture-{case}-{}", std::process::id()));
    let outcome = pathpool_scenario::simulate_captured(&l, &Progress::hidden(), Some(&dir)).unwrap();
    let inside = &outcome.multipath.as_ref().unwrap().connections[0].decisions;
    assert!(inside.len() > 20, "{case}: {} decisions inside the simulator", inside.len());

    // The receiving host `d` sees both subflows' data.
    let files: Vec<PathBuf> = vec![dir.join("d.pcap")];
    let surveyed = pathpool_pcap::survey(&files).unwrap();
    let p = plan::plan(&surveyed.survey, &plan::Options::default());
    assert_eq!(p.connections.len(), 1, "{case}: one MPTCP connection: {:?}", p.connections);
    assert_eq!(p.subflows.len(), 2);
    assert!(p.connections[0].token.is_some() && p.connections[0].name.starts_with("mptcp-"));
    assert!(p.subflows.iter().all(|f| f.method == Method::MpTimestamp));
    // The default detector of an MPTCP-SBD connection that names none: the `pathpool` preset.
    let mut feed = Feed(Rfc8382Replay::new(SbdParams::pathpool(), FilterParams::default(), 2));
    pathpool_pcap::sample(&files, &p, 5_000_000, &mut feed).unwrap();
    let replay = feed.0.finish();
    // The simulator keeps the measured window's decisions, each stamped with the time of the
    // packet that closed its interval: the reader's from that interval's end on.
    let first = inside[0].0;
    let ours: Vec<&Vec<u32>> = replay.decisions.iter().filter(|d| d.time_ns as f64 / 1e9 > first - 0.35).map(|d| &d.groups).collect();
    let theirs: Vec<&Vec<u32>> = inside.iter().map(|d| &d.1).collect();
    assert_eq!(ours, theirs, "{case}: decisions from the capture differ from the simulator's");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nsb2_capture_gives_the_simulators_decisions() {
    check("nsb-2");
}

#[test]
fn sb2_capture_gives_the_simulators_decisions() {
    check("sb-2");
}

/// (sequence number, IPv4 identification) of every TCP data segment in a raw-IPv4 pcap.
fn data_transmissions(path: &Path) -> Vec<(u32, u16)> {
    let b = std::fs::read(path).unwrap();
    let mut at = 24;
    let mut out = Vec::new();
    while at + 16 <= b.len() {
        let incl = u32::from_le_bytes(b[at + 8..at + 12].try_into().unwrap()) as usize;
        let p = &b[at + 16..at + 16 + incl];
        at += 16 + incl;
        let ihl = (p[0] & 15) as usize * 4;
        let total = u16::from_be_bytes([p[2], p[3]]) as usize;
        let tcp = &p[ihl..];
        if total > ihl + (tcp[12] >> 4) as usize * 4 {
            out.push((u32::from_be_bytes(tcp[4..8].try_into().unwrap()), u16::from_be_bytes([p[4], p[5]])));
        }
    }
    out
}

#[test]
fn each_transmission_keeps_its_ip_identification_from_sender_to_receiver() {
    // A small buffer drops packets; the scripts that find drops in captures (a transmission
    // seen leaving and never arriving) need each transmission, a retransmission included, to
    // carry an identification of its own, the same at both ends.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let sets: Vec<String> = ["links.bottleneck.buffer=8", "simulation.duration=10s", "simulation.warmup=0s"].iter().map(|s| s.to_string()).collect();
    let l = pathpool_scenario::load(&root.join("scenarios/fidelity/reno-alone.toml"), &sets).unwrap();
    let dir = std::env::temp_dir().join(format!("pathpool-pcap-ipid-{}", std::process::id()));
    let outcome = pathpool_scenario::simulate_captured(&l, &Progress::hidden(), Some(&dir)).unwrap();
    let sent = data_transmissions(&dir.join("sender.pcap"));
    let arrived = data_transmissions(&dir.join("receiver.pcap"));
    let _ = std::fs::remove_dir_all(&dir);
    let unique: std::collections::BTreeSet<_> = sent.iter().copied().collect();
    assert_eq!(unique.len(), sent.len(), "two transmissions share a (sequence, identification)");
    assert!(arrived.iter().all(|a| unique.contains(a)), "a packet arrived with an identification it did not leave with");
    let lost = sent.len() - arrived.len();
    let retransmitted = outcome.flows[0].retransmissions.expect("the simulator counts retransmissions") as usize;
    assert!(lost > 0, "the 8-packet buffer dropped nothing");
    // Every drop is retransmitted; a transmission still in flight at the end is neither.
    assert!(lost <= retransmitted + 100 && retransmitted <= lost + 100, "lost {lost}, retransmitted {retransmitted}");
}
