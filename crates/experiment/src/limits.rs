//! Bounds on what a run may hold in memory, checked before anything is built: every numeric
//! key is range-checked on its own in `decode`, but products of keys (copies x templates,
//! duration / probe_interval x series, rate x delay / packet size) can ask for more memory
//! than any machine has. Each bound names the key to change and the limit
//! (docs/robustness.md lists the inputs tried).

use crate::error::{Result, Source};
use crate::schema::{Buffer, DirectionSpec, FlowKind, Scenario};
use crate::units::PS_PER_SEC;

/// Link copies after `count` is applied, over all link templates.
pub const MAX_LINKS: u64 = 100_000;
/// Simulated flows (a multipath connection's subflows each count) over all flow templates.
pub const MAX_FLOWS: u64 = 100_000;
/// Probe samples x recorded series (time, two per flow, two per link direction), plus the
/// multipath detectors' records (`detector_values`): 19.8 million values (99 000 flows)
/// peaked at 768 MB (docs/robustness.md).
pub const MAX_PROBE_VALUES: u64 = 20_000_000;
/// Packets the run can hold at once: every buffer full, every link's rate x delay in flight
/// (data packets, and as many ACKs), every initial window sent at once. A full queue of 2.4
/// million packets peaked at 277 MB (docs/robustness.md): about 1.2 GB at the limit.
pub const MAX_HELD_PACKETS: u64 = 10_000_000;

/// Packets sent over the run, bounded by every UDP source's rate and every link's rate
/// (TCP sends no faster than its links carry): beyond this a run takes days, or, with 1 B
/// packets at terabits per second, never ends while its memory stays flat.
pub const MAX_PACKETS_SENT: f64 = 1e11;

pub fn check(s: &Scenario, src: &Source) -> Result<()> {
    let mut links = 0u64;
    let mut directions = 0u64;
    for l in &s.links {
        let copies = u64::from(l.count.unwrap_or(1));
        links += copies;
        if links > MAX_LINKS {
            return Err(src.error(&l.name.origin, &format!("{}.count", l.name.path), format!("the links would number {links} with this template's {copies} copies; at most {MAX_LINKS} links are supported")));
        }
        directions += copies * (1 + u64::from(l.reverse.is_some()));
    }
    let mut flows = 0u64;
    for f in &s.flows {
        flows += u64::from(f.count.unwrap_or(1)) * subflows(&f.kind);
        if flows > MAX_FLOWS {
            return Err(f.name.error(src, format!("the flows (each subflow counted) would number {flows} with this template's copies; at most {MAX_FLOWS} are supported; lower count")));
        }
    }
    check_probes(s, src, flows, directions)?;
    check_held_packets(s, src)?;
    check_packets_sent(s, src)
}

fn subflows(k: &FlowKind) -> u64 {
    match k {
        FlowKind::Mptcp(m) => m.subflows.len() as u64,
        _ => 1,
    }
}

/// MPTCP-SBD's observation interval ([S0]: T = 350 ms; TR-LIA's 5 s is longer).
const DETECTOR_INTERVAL_PS: u64 = 350 * PS_PER_SEC / 1000;

/// Detector records a run keeps for observations.csv and decisions.csv: a group per subflow
/// every observation interval and a tenth as many decisions, for every multipath connection
/// (whatever its cc: an upper estimate).
fn detector_values(s: &Scenario) -> u128 {
    let intervals = u128::from(s.simulation.duration.div_ceil(DETECTOR_INTERVAL_PS));
    let subflow_copies: u128 = s
        .flows
        .iter()
        .filter(|f| matches!(f.kind, FlowKind::Mptcp(_)))
        .map(|f| u128::from(f.count.unwrap_or(1)) * u128::from(subflows(&f.kind)))
        .sum();
    (subflow_copies * intervals * 11).div_ceil(10)
}

fn check_probes(s: &Scenario, src: &Source, flows: u64, directions: u64) -> Result<()> {
    let sim = &s.simulation;
    let samples = sim.duration / sim.probe_interval;
    let series = 1 + 2 * flows + 2 * directions;
    let detector = detector_values(s);
    let values = u128::from(samples) * u128::from(series) + detector;
    if values > u128::from(MAX_PROBE_VALUES) {
        let plus = if detector > 0 { format!(" plus {detector} detector records of the multipath connections") } else { String::new() };
        let what = format!("the run would record {values} probe values ({samples} samples of duration / probe_interval x {series} series{plus}); at most {MAX_PROBE_VALUES}");
        let Some(budget) = u128::from(MAX_PROBE_VALUES).checked_sub(detector).filter(|&b| b > 0) else {
            // The detector records alone are too many: only a shorter run helps.
            return Err(src.error(&sim.probe_interval_at.origin, "simulation.duration", format!("{what}: shorten simulation.duration or lower the multipath connections' count")));
        };
        // The shortest interval within the limit, rounded up to a whole millisecond.
        let ms = PS_PER_SEC / 1000;
        let min_interval = (u128::from(sim.duration) * u128::from(series)).div_ceil(budget);
        let min_ms = min_interval.div_ceil(u128::from(ms));
        return Err(sim.probe_interval_at.error(src, format!("{what}: set probe_interval to at least \"{min_ms}ms\" or shorten simulation.duration")));
    }
    Ok(())
}

/// Smallest data packet any flow sends, at least 1 B. ACKs are not counted in it: there is
/// at most one per data packet, so `check_held_packets` doubles the count instead.
fn smallest_packet(s: &Scenario) -> Option<u64> {
    s.flows
        .iter()
        .map(|f| match &f.kind {
            FlowKind::Tcp(t) => t.packet_size,
            FlowKind::Mptcp(m) => m.tcp.packet_size,
            FlowKind::Udp(u) => u.packet_size,
        })
        .min()
        .map(|b| b.max(1))
}

/// Packets one direction can hold: a full buffer plus rate x delay on the wire.
fn held(d: &DirectionSpec, packet: u64) -> f64 {
    let buffer = match d.buffer.value {
        Buffer::Packets(n) => n as f64,
        Buffer::Bytes(b) => (b as f64 / packet as f64).ceil(),
    };
    let wire = d.rate_bps as f64 * (d.delay as f64 / PS_PER_SEC as f64) / (8.0 * packet as f64);
    buffer + wire.ceil() + 1.0
}

fn check_held_packets(s: &Scenario, src: &Source) -> Result<()> {
    let Some(packet) = smallest_packet(s) else { return Ok(()) };
    let mut total = 0.0;
    let mut largest: Option<(f64, &crate::fields::Located<String>)> = None;
    for l in &s.links {
        let one = held(&l.forward, packet) + l.reverse.as_ref().map_or(0.0, |r| held(r, packet));
        let all = 2.0 * one * f64::from(l.count.unwrap_or(1));
        total += all;
        if largest.is_none_or(|(m, _)| all > m) {
            largest = Some((all, &l.name));
        }
    }
    let mut windows = 0.0;
    let mut widest: Option<(f64, &crate::schema::FlowSpec)> = None;
    for f in &s.flows {
        let iw = match &f.kind {
            FlowKind::Tcp(t) => t.initial_window,
            FlowKind::Mptcp(m) => m.tcp.initial_window,
            FlowKind::Udp(_) => 0.0,
        };
        let one = iw.ceil() * (f64::from(f.count.unwrap_or(1)) * subflows(&f.kind) as f64);
        windows += one;
        if widest.is_none_or(|(m, _)| one > m) {
            widest = Some((one, f));
        }
    }
    if total + windows <= MAX_HELD_PACKETS as f64 {
        return Ok(());
    }
    let msg = |what: &str| {
        format!(
            "the run could hold {:.0} packets at once (full buffers and rate x delay in flight on every link in data packets of the smallest size any flow sends, {packet} B, and as many ACKs; plus {windows:.0} packets of initial windows); at most {MAX_HELD_PACKETS}: {what}",
            total + windows
        )
    };
    match largest {
        Some((m, name)) if m >= windows => Err(name.error(src, msg(&format!("this link holds the most ({m:.0}); lower its buffer, rate or delay, or its count")))),
        _ => {
            let e = msg("lower initial_window or count");
            Err(widest.map_or_else(|| crate::ScenarioError::file(&src.name, e.clone()), |(_, f)| f.name.error(src, e.clone())))
        }
    }
}

fn check_packets_sent(s: &Scenario, src: &Source) -> Result<()> {
    let Some(packet) = smallest_packet(s) else { return Ok(()) };
    let seconds = s.simulation.duration as f64 / PS_PER_SEC as f64;
    let pps = |rate: u64, size: u64| rate as f64 / (8.0 * size.max(1) as f64);
    let mut links = 0.0;
    for l in &s.links {
        let dirs = pps(l.forward.rate_bps, packet) + l.reverse.as_ref().map_or(0.0, |r| pps(r.rate_bps, packet));
        links += 2.0 * dirs * f64::from(l.count.unwrap_or(1));
    }
    let mut worst: Option<(f64, &crate::schema::FlowSpec)> = None;
    let mut udp = 0.0;
    for f in &s.flows {
        if let FlowKind::Udp(u) = &f.kind {
            let rate = match u.pattern {
                crate::schema::UdpPattern::Constant { rate_bps } | crate::schema::UdpPattern::Poisson { rate_bps } | crate::schema::UdpPattern::OnOff { rate_bps, .. } => rate_bps,
            };
            let one = pps(rate, u.packet_size) * f64::from(f.count.unwrap_or(1));
            udp += one;
            if worst.is_none_or(|(m, _)| one > m) {
                worst = Some((one, f));
            }
        }
    }
    let sent = (links + udp) * seconds;
    if sent <= MAX_PACKETS_SENT {
        return Ok(());
    }
    let msg = format!(
        "the run could send {sent:.3e} packets ({seconds} s of simulation.duration at {:.3e} packets/s: UDP sources at their rate and packet_size, links at their rate in data packets of {packet} B and as many ACKs); at most {MAX_PACKETS_SENT:.0e}",
        links + udp
    );
    Err(match worst {
        Some((one, f)) if one >= links => f.name.error(src, format!("{msg}: this UDP source sends the most; raise packet_size or lower rate")),
        _ => src.error(&s.simulation.probe_interval_at.origin, "simulation.duration", format!("{msg}: shorten simulation.duration or lower the link rates")),
    })
}
