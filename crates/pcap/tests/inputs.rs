//! Captures the reader must survive: empty, truncated, corrupted, without TCP, over IPv6, with
//! VLAN tags, as pcapng, and random bytes. Each gives a clear error or the right answer,
//! never a panic.

use pathpool_pcap::plan::{self, Method, Options};
use pathpool_pcap::{Counts, Sink, Skip};
use proptest::prelude::*;
use std::path::PathBuf;

#[derive(Default)]
struct Collect {
    owd: Vec<(usize, u64, i64)>,
    rtt: Vec<(usize, u64, u64)>,
    losses: usize,
}

impl Sink for Collect {
    fn owd(&mut self, f: usize, now: u64, owd: i64) {
        self.owd.push((f, now, owd));
    }
    fn rtt(&mut self, f: usize, now: u64, rtt: u64) {
        self.rtt.push((f, now, rtt));
    }
    fn loss(&mut self, _: usize, _: u64) {
        self.losses += 1;
    }
    fn unsampled(&mut self, _: usize, _: u64) {}
}

#[derive(Clone, Copy, PartialEq)]
enum Net {
    V4,
    V6,
}

/// IP + TCP header of a data segment (payload claimed, not present) or a pure ACK.
fn segment(net: Net, flow: u8, seq: u32, ack: u32, payload: u16, tsval: u32, tsecr: u32, proto: u8) -> Vec<u8> {
    let mut tcp = vec![0u8; 20];
    tcp[0..2].copy_from_slice(&(40000 + flow as u16).to_be_bytes());
    tcp[2..4].copy_from_slice(&5201u16.to_be_bytes());
    tcp[4..8].copy_from_slice(&seq.to_be_bytes());
    tcp[8..12].copy_from_slice(&ack.to_be_bytes());
    tcp[12] = 8 << 4;
    tcp[13] = 0x10;
    tcp.extend_from_slice(&[1, 1, 8, 10]);
    tcp.extend_from_slice(&tsval.to_be_bytes());
    tcp.extend_from_slice(&tsecr.to_be_bytes());
    let l4 = tcp.len() as u16 + payload;
    match net {
        Net::V4 => {
            let mut ip = vec![0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, proto, 0, 0, 10, 0, 0, 1 + flow, 10, 0, 0, 100];
            ip[2..4].copy_from_slice(&(20 + l4).to_be_bytes());
            ip.extend(tcp);
            ip
        }
        Net::V6 => {
            let mut ip = vec![0x60, 0, 0, 0, 0, 0, proto, 64];
            ip[4..6].copy_from_slice(&l4.to_be_bytes());
            ip.extend_from_slice(&[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 + flow]);
            ip.extend_from_slice(&[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100]);
            ip.extend(tcp);
            ip
        }
    }
}

/// Two flows with a data segment each per ms for `secs` s, TSval in ms, one-way delay
/// 10 ms plus a queue of 0-8 ms (a triangle wave, shared by both flows when `shared`).
fn frames(net: Net, secs: u64, proto: u8) -> Vec<(u64, Vec<u8>)> {
    skewed(net, secs, proto, 0.0)
}

/// As `frames`, with flow 0's TSval clock running `ppm` parts per million fast.
fn skewed(net: Net, secs: u64, proto: u8, ppm: f64) -> Vec<(u64, Vec<u8>)> {
    let mut out = Vec::new();
    for i in 0..secs * 1000 {
        for flow in 0..2u8 {
            let sent_ns = i * 1_000_000 + flow as u64 * 100_000;
            let phase = (i / 7 + flow as u64 * 300) % 400;
            let queue_ns = if phase < 200 { phase } else { 400 - phase } * 40_000;
            let at = sent_ns + 10_000_000 + queue_ns;
            let clock = if flow == 0 { sent_ns as f64 * (1.0 + ppm * 1e-6) } else { sent_ns as f64 };
            let tsval = 5_000 + (clock / 1e6) as u32 + flow as u32 * 777;
            out.push((at, segment(net, flow, 1000 + i as u32 * 1448, 1, 1448, tsval, 0, proto)));
        }
    }
    out.sort_by_key(|f| f.0);
    out
}

fn pcap(linktype: u32, frames: &[(u64, Vec<u8>)]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&0xa1b2_3c4du32.to_le_bytes());
    v.extend_from_slice(&2u16.to_le_bytes());
    v.extend_from_slice(&4u16.to_le_bytes());
    v.extend_from_slice(&[0; 8]);
    v.extend_from_slice(&65535u32.to_le_bytes());
    v.extend_from_slice(&linktype.to_le_bytes());
    for (t, d) in frames {
        v.extend_from_slice(&((t / 1_000_000_000) as u32).to_le_bytes());
        v.extend_from_slice(&((t % 1_000_000_000) as u32).to_le_bytes());
        v.extend_from_slice(&(d.len() as u32).to_le_bytes());
        v.extend_from_slice(&(d.len() as u32 + 1448).to_le_bytes());
        v.extend_from_slice(d);
    }
    v
}

/// The same frames as pcapng: a section, an Ethernet interface with nanosecond timestamps,
/// one enhanced packet block per frame.
fn pcapng(frames: &[(u64, Vec<u8>)]) -> Vec<u8> {
    let block = |v: &mut Vec<u8>, kind: u32, body: &[u8]| {
        let len = 12 + body.len().div_ceil(4) * 4;
        v.extend_from_slice(&kind.to_le_bytes());
        v.extend_from_slice(&(len as u32).to_le_bytes());
        v.extend_from_slice(body);
        v.resize(v.len() + (len - 12 - body.len()), 0);
        v.extend_from_slice(&(len as u32).to_le_bytes());
    };
    let mut v = Vec::new();
    let mut shb = 0x1a2b_3c4du32.to_le_bytes().to_vec();
    shb.extend_from_slice(&[1, 0, 0, 0]);
    shb.extend_from_slice(&u64::MAX.to_le_bytes());
    block(&mut v, 0x0a0d_0d0a, &shb);
    let mut idb = vec![1, 0, 0, 0];
    idb.extend_from_slice(&0u32.to_le_bytes());
    idb.extend_from_slice(&[9, 0, 1, 0, 9, 0, 0, 0, 0, 0, 0, 0]);
    block(&mut v, 1, &idb);
    for (t, d) in frames {
        let mut eth = vec![0u8; 12];
        eth.extend_from_slice(&[0x81, 0x00, 0, 42]);
        eth.extend_from_slice(if d[0] >> 4 == 6 { &[0x86, 0xdd] } else { &[0x08, 0x00] });
        eth.extend_from_slice(d);
        let mut epb = 0u32.to_le_bytes().to_vec();
        epb.extend_from_slice(&((t >> 32) as u32).to_le_bytes());
        epb.extend_from_slice(&(*t as u32).to_le_bytes());
        epb.extend_from_slice(&(eth.len() as u32).to_le_bytes());
        epb.extend_from_slice(&(eth.len() as u32 + 1448).to_le_bytes());
        epb.extend_from_slice(&eth);
        block(&mut v, 6, &epb);
    }
    v
}

fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = std::env::temp_dir().join(format!("pathpool-pcap-inputs-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p
}

fn analyse(path: &PathBuf) -> Result<(pathpool_pcap::Surveyed, plan::Plan, Collect, Vec<Counts>), String> {
    let files = vec![path.clone()];
    let s = pathpool_pcap::survey(&files).map_err(|e| e.to_string())?;
    // A few seconds of a triangle-wave queue are too short for a drift fit: none removed.
    let p = plan::plan(&s.survey, &Options { skew_correction: false, ..Options::default() });
    let mut c = Collect::default();
    let counts = pathpool_pcap::sample(&files, &p, 0, &mut c).map_err(|e| e.to_string())?;
    Ok((s, p, c, counts))
}

#[test]
fn an_empty_file_is_named_and_explained() {
    let e = analyse(&file("empty", b"")).err().unwrap();
    assert!(e.contains("pathpool-pcap-inputs") && e.contains("empty"), "{e}");
    // A header and nothing else: no packets, no error from the reader.
    let (s, p, ..) = analyse(&file("header-only", &pcap(101, &[]))).unwrap();
    assert_eq!(s.survey.records, 0);
    assert!(p.subflows.is_empty());
}

#[test]
fn one_way_delays_follow_the_queue_over_raw_ipv4() {
    let (s, p, c, counts) = analyse(&file("v4", &pcap(101, &frames(Net::V4, 3, 6)))).unwrap();
    assert_eq!(s.survey.records, 6000);
    assert_eq!(p.subflows.len(), 2);
    assert!(p.subflows.iter().all(|f| f.method == Method::TsOwd && (f.tick_ns - 1e6).abs() < 1.0), "{:?}", p.subflows);
    assert_eq!(counts[0].samples, 3000);
    // Relative OWD: capture time minus TSval, so the queue (0-8 ms) plus the TSval rounding.
    for flow in 0..2 {
        let (lo, hi) = c.owd.iter().filter(|x| x.0 == flow).fold((i64::MAX, i64::MIN), |(l, h), x| (l.min(x.2), h.max(x.2)));
        assert!(hi - lo > 7_000_000 && hi - lo < 10_000_000, "flow {flow}: {lo}..{hi}");
    }
}

#[test]
fn a_clock_drift_is_measured_and_removed() {
    let files = vec![file("skew", &pcap(101, &skewed(Net::V4, 60, 6, 200.0)))];
    let s = pathpool_pcap::survey(&files).unwrap();
    let p = plan::plan(&s.survey, &Options::default());
    // A fast sender clock makes the one-way delay shrink: a drift of -200 ppm.
    assert!((p.subflows[0].drift + 200e-6).abs() < 10e-6, "{}", p.subflows[0].drift);
    assert!(p.subflows[0].drift_fit.unwrap().significant());
    // The other sender's clock is right: its fit is not significant and nothing is removed.
    let other = p.subflows[1].drift_fit.unwrap();
    assert!(!other.significant() && p.subflows[1].drift == 0.0, "{other:?}");
    let mut c = Collect::default();
    pathpool_pcap::sample(&files, &p, 0, &mut c).unwrap();
    // After the removal flow 0's delay spans the queue (8 ms) plus ticks, not 8 ms + 12 ms of drift.
    let (lo, hi) = c.owd.iter().filter(|x| x.0 == 0).fold((i64::MAX, i64::MIN), |(l, h), x| (l.min(x.2), h.max(x.2)));
    assert!(hi - lo < 10_500_000, "{lo}..{hi}");
}

#[test]
fn ipv6_and_vlan_tagged_pcapng_give_the_same_samples() {
    let (_, p4, c4, _) = analyse(&file("v4b", &pcap(101, &frames(Net::V4, 2, 6)))).unwrap();
    let (_, p6, c6, _) = analyse(&file("v6", &pcap(101, &frames(Net::V6, 2, 6)))).unwrap();
    let (_, png, cng, _) = analyse(&file("v6-vlan.pcapng", &pcapng(&frames(Net::V6, 2, 6)))).unwrap();
    assert_eq!(p6.subflows.len(), 2);
    assert!(p6.subflows[0].name.contains("[2001:db8::1]"), "{}", p6.subflows[0].name);
    assert_eq!(c4.owd, c6.owd);
    assert_eq!(c6.owd, cng.owd);
    assert_eq!(png.subflows.len(), p4.subflows.len());
}

#[test]
fn captures_without_tcp_are_counted_not_analysed() {
    let (s, p, ..) = analyse(&file("udp", &pcap(101, &frames(Net::V4, 1, 17)))).unwrap();
    assert!(p.subflows.is_empty());
    let i = Skip::ALL.iter().position(|&k| k == Skip::NotTcp).unwrap();
    assert_eq!(s.survey.skipped[i], 2000);
    // ARP over Ethernet.
    let mut arp = vec![0u8; 12];
    arp.extend_from_slice(&[0x08, 0x06]);
    arp.extend_from_slice(&[0; 28]);
    let (s, ..) = analyse(&file("arp", &pcap(1, &[(1, arp)]))).unwrap();
    assert_eq!(s.survey.skipped[Skip::ALL.iter().position(|&k| k == Skip::NotIp).unwrap()], 1);
}

#[test]
fn a_truncated_capture_keeps_what_it_holds() {
    let whole = pcap(101, &frames(Net::V4, 2, 6));
    let (s, ..) = analyse(&file("cut", &whole[..whole.len() - 30])).unwrap();
    assert_eq!(s.survey.records, 3999);
    let (at, missing) = s.truncated[0].unwrap();
    assert_eq!(missing, 30);
    assert_eq!(at as usize, whole.len() - 16 - 52);
}

#[test]
fn corrupted_headers_name_the_byte_and_what_was_expected() {
    let mut bad = pcap(101, &frames(Net::V4, 1, 6));
    let rec = 24 + 10 * (16 + 52);
    bad[rec + 8..rec + 12].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    let e = analyse(&file("corrupt", &bad)).err().unwrap();
    assert!(e.contains(&format!("byte {}", rec + 8)) && e.contains("record 11") && e.contains("at most 262144"), "{e}");
    let mut ng = pcapng(&frames(Net::V4, 1, 6));
    let n = ng.len();
    ng[n - 4] ^= 0x40;
    let e = analyse(&file("corrupt.pcapng", &ng)).err().unwrap();
    assert!(e.contains("trailing length"), "{e}");
    // A malformed TCP header inside a good record is skipped and counted.
    let mut fr = frames(Net::V4, 1, 6);
    fr[5].1[20 + 12] = 0x20;
    let (s, ..) = analyse(&file("bad-tcp", &pcap(101, &fr))).unwrap();
    assert_eq!(s.survey.skipped[Skip::ALL.iter().position(|&k| k == Skip::Malformed).unwrap()], 1);
    assert_eq!(s.survey.first_malformed, Some(6));
}

#[test]
fn sender_side_captures_give_round_trip_times() {
    // Data leaves at its send time (no queue before the capture), ACKs echo TSval 20-28 ms later.
    let mut fr = Vec::new();
    for i in 0..3000u64 {
        let t = i * 1_000_000;
        let tsval = 100 + i as u32;
        fr.push((t, segment(Net::V4, 0, 1 + i as u32 * 1448, 1, 1448, tsval, 0, 6)));
        let mut ack = segment(Net::V4, 0, 1, 1 + (i as u32 + 1) * 1448, 0, 9000 + i as u32, tsval, 6);
        // Swap addresses and ports: the ACK goes back.
        let (a, b) = (ack[12..16].to_vec(), ack[16..20].to_vec());
        ack[12..16].copy_from_slice(&b);
        ack[16..20].copy_from_slice(&a);
        let (sp, dp) = (ack[20..22].to_vec(), ack[22..24].to_vec());
        ack[20..22].copy_from_slice(&dp);
        ack[22..24].copy_from_slice(&sp);
        // A queue of 0-8 ms that changes slowly enough to keep the ACKs in order.
        let phase = (i / 10) % 160;
        let queue = if phase < 80 { phase } else { 160 - phase } * 100_000;
        fr.push((t + 20_000_000 + queue, ack));
    }
    fr.sort_by_key(|f| f.0);
    let (_, p, c, _) = analyse(&file("sender", &pcap(101, &fr))).unwrap();
    assert_eq!(p.subflows.len(), 1);
    assert_eq!(p.subflows[0].method, Method::TsEcho);
    assert!(c.rtt.len() > 2900 && c.rtt.iter().all(|r| (20_000_000..=28_000_000).contains(&r.2)), "{}", c.rtt.len());
    // Without timestamps on the ACKs, seq/ACK matching gives the same round trips.
    let stripped: Vec<(u64, Vec<u8>)> = fr
        .into_iter()
        .map(|(t, mut d)| {
            if d[20 + 13] == 0x10 && u16::from_be_bytes([d[2], d[3]]) == 52 {
                d[20 + 24..20 + 32].fill(0);
            }
            (t, d)
        })
        .collect();
    let files = vec![file("sender-seq", &pcap(101, &stripped))];
    let s = pathpool_pcap::survey(&files).unwrap();
    let p = plan::plan(&s.survey, &Options { delay: pathpool_pcap::DelayChoice::Rtt, ..Options::default() });
    assert_eq!(p.subflows[0].method, Method::SeqAck);
    let mut c = Collect::default();
    pathpool_pcap::sample(&files, &p, 0, &mut c).unwrap();
    assert!(c.rtt.len() > 2900 && c.rtt.iter().all(|r| (20_000_000..=28_000_000).contains(&r.2)));
}

/// Cases per property: `make fuzz` raises it with PATHPOOL_FUZZ_CASES.
fn cases(default: u32) -> u32 {
    std::env::var("PATHPOOL_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(200)))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), header in 0usize..3) {
        let mut v = match header {
            0 => Vec::new(),
            1 => pcap(1, &[]),
            _ => pcapng(&[]),
        };
        v.extend(bytes);
        let _ = analyse(&file("random", &v));
    }

    #[test]
    fn damaged_captures_never_panic(flips in proptest::collection::vec((0usize..20_000, any::<u8>()), 1..20), cut in 0usize..20_000, ng in any::<bool>()) {
        let fr = frames(Net::V4, 1, 6);
        let mut v = if ng { pcapng(&fr[..200]) } else { pcap(101, &fr[..200]) };
        for (at, b) in flips {
            let n = v.len();
            v[at % n] ^= b;
        }
        v.truncate(cut.max(4));
        let _ = analyse(&file("damaged", &v));
    }
}

/// Runs `f` on a thread and waits at most `secs`: a reader that hangs fails the test.
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(secs)).expect("the capture reader hung")
}

#[test]
fn a_fifo_is_read_once_and_gives_what_the_file_gives() {
    let bytes = pcap(101, &frames(Net::V4, 3, 6));
    let (s_file, _, c_file, _) = analyse(&file("fifo-ref", &bytes)).unwrap();
    let fifo = std::env::temp_dir().join(format!("pathpool-pcap-inputs-{}-fifo", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(&fifo, &bytes).unwrap())
    };
    let path = fifo.clone();
    let (records, samples) = within(60, move || {
        let caps = pathpool_pcap::input::Captures::open(&[path]).map_err(|e| e.to_string())?;
        let s = pathpool_pcap::survey_of(&caps).map_err(|e| e.to_string())?;
        let p = plan::plan(&s.survey, &Options { skew_correction: false, ..Options::default() });
        let mut c = Collect::default();
        pathpool_pcap::sample_of(&caps, &p, 0, &mut c).map_err(|e| e.to_string())?;
        Ok::<_, String>((s.survey.records, c.owd.len()))
    })
    .unwrap();
    writer.join().unwrap();
    assert_eq!((records, samples), (s_file.survey.records, c_file.owd.len()));
    std::fs::remove_file(&fifo).unwrap();
}

#[test]
fn a_device_is_refused_by_its_header_without_reading_on() {
    let e = within(20, || pathpool_pcap::input::Captures::open(&[PathBuf::from("/dev/zero")]).err().unwrap().to_string());
    assert!(e.contains("'/dev/zero'") && e.contains("magic number") && e.contains("pipe or device"), "{e}");
}

#[test]
fn one_capture_given_twice_is_recognised_as_copies_across_files_not_losses() {
    // Flow 0 loses one segment (a retransmission later): the one real loss.
    let mut fr = frames(Net::V4, 3, 6);
    let resent = fr.iter().position(|(_, d)| d[15] == 1).unwrap();
    let (t, mut d) = fr[resent].clone();
    d[4] ^= 0xff; // a new IP ID: a retransmission, not a copy
    fr.push((t + 300_000_000, d));
    fr.sort_by_key(|f| f.0);
    let one = file("twice", &pcap(101, &fr));
    let (s1, p1, ..) = analyse(&one).unwrap();
    let mut c1 = Collect::default();
    pathpool_pcap::sample(&[one.clone()], &p1, 0, &mut c1).unwrap();
    let both = vec![one.clone(), one.clone()];
    let s2 = pathpool_pcap::survey(&both).unwrap();
    let p2 = plan::plan(&s2.survey, &Options { skew_correction: false, ..Options::default() });
    let mut c2 = Collect::default();
    pathpool_pcap::sample(&both, &p2, 0, &mut c2).unwrap();
    assert_eq!(s2.survey.duplicates, s1.survey.records);
    assert_eq!(s2.copies_across_files, s1.survey.records);
    assert_eq!((c2.losses, c2.owd.len()), (c1.losses, c1.owd.len()));
    // Within one file there is no other file to copy.
    assert_eq!(s1.copies_across_files, 0);
}

#[test]
fn empty_records_and_too_many_vlan_tags_are_not_called_cut_by_the_snapshot_length() {
    let at = |s: &pathpool_pcap::Surveyed, k: Skip| s.survey.skipped[Skip::ALL.iter().position(|&x| x == k).unwrap()];
    let mut eth6 = vec![0u8; 12];
    for _ in 0..5 {
        eth6.extend_from_slice(&[0x81, 0x00, 0, 1]);
    }
    eth6.extend_from_slice(&[0x08, 0x00]);
    eth6.extend(segment(Net::V4, 0, 1, 1, 0, 1, 1, 6));
    let mut v = pcap(1, &[(1_000, vec![]), (2_000, eth6)]);
    // A runt captured whole: 10 bytes on the wire, 10 captured.
    v.extend_from_slice(&0u32.to_le_bytes());
    v.extend_from_slice(&3_000u32.to_le_bytes());
    v.extend_from_slice(&10u32.to_le_bytes());
    v.extend_from_slice(&10u32.to_le_bytes());
    v.extend_from_slice(&[0u8; 10]);
    let (s, ..) = analyse(&file("skips", &v)).unwrap();
    assert_eq!((at(&s, Skip::Empty), at(&s, Skip::VlanTags), at(&s, Skip::Short), at(&s, Skip::Cut)), (1, 1, 1, 0));
    assert!(Skip::Empty.describe().contains("empty") && Skip::VlanTags.describe().contains("VLAN"));
}
