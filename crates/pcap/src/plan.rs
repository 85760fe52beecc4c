//! From the survey to the detector's flows: which directions carry data, which connection
//! (MPTCP by its keys and tokens, RFC 8684 §3.1-3.2) each belongs to, and where its delay
//! samples come from.

use crate::options::token_of_key;
use crate::packet::Addr;
use crate::survey::{DirStats, Key, Survey};
use std::collections::BTreeMap;

/// Where a subflow's delay samples come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// MPTCP-SBD's MP_TIMESTAMP option ([S0] §III): sender µs, relative one-way delay at the
    /// capture point; its loss bit gives the losses.
    MpTimestamp,
    /// Relative one-way delay: capture time minus TSval (RFC 7323) on the TSval clock; the
    /// capture is downstream of the bottleneck (at or near the receiver).
    TsOwd,
    /// Round-trip time from the capture of a data segment to the first ACK echoing its TSval
    /// (RFC 7323 §4.1); the capture is upstream of the bottleneck (at or near the sender).
    TsEcho,
    /// Round-trip time from a data segment to the ACK that covers it, never from a
    /// retransmitted segment (Karn's rule); the capture is at the sender, without timestamps.
    SeqAck,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::MpTimestamp => "owd-mp-timestamp",
            Method::TsOwd => "owd-tsval",
            Method::TsEcho => "rtt-ts-echo",
            Method::SeqAck => "rtt-seq-ack",
        }
    }

    pub fn is_rtt(self) -> bool {
        matches!(self, Method::TsEcho | Method::SeqAck)
    }
}

/// Where the capture was taken on a direction's path, from the data itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vantage {
    /// No spread of the one-way delay beyond the clocks' granularity: the packets have not
    /// met a queue yet (at or near the sender).
    Sender,
    /// Queueing before the capture point and the ACKs leave right after the data arrives
    /// (median data-to-echoing-ACK lag under [`RECEIVER_LAG_NS`]).
    Receiver,
    /// Queueing before the capture point, and the ACKs come back a while later: between the
    /// bottleneck and the receiver; queues after the capture point are not seen.
    Middle,
    /// Queueing before the capture point, but no echoing ACKs to place it further.
    Downstream,
    /// No TCP timestamps on the data: no spread to judge.
    Unknown,
}

impl Vantage {
    pub fn name(self) -> &'static str {
        match self {
            Vantage::Sender => "sender",
            Vantage::Receiver => "receiver",
            Vantage::Middle => "middle",
            Vantage::Downstream => "downstream of a queue",
            Vantage::Unknown => "unknown",
        }
    }
}

/// A receiver acknowledges at once or within a delayed-ACK's wait for the next segment
/// (RFC 9293 §3.8.6.3; at 1 Mb/s and above a full-size segment takes at most 12 ms).
pub const RECEIVER_LAG_NS: u64 = 5_000_000;

/// The user's choice of delay source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayChoice {
    Auto,
    Owd,
    Rtt,
}

#[derive(Clone, Debug)]
pub struct Options {
    /// Only data sent by this address is analysed.
    pub sender: Option<Addr>,
    pub delay: DelayChoice,
    /// Directions with fewer data segments are left out.
    pub min_packets: u64,
    /// Sample thinning: the first sample of each slot of this length counts (0: every
    /// packet). MPTCP-SBD's kernel code uses 5 ms.
    pub spacing_ns: u64,
    /// Remove each subflow's linear drift of the one-way delay (relative clock skew) before
    /// the statistics ([S0] Remark 2 leaves skew uncompensated; RFC 8382 §5.2).
    pub skew_correction: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { sender: None, delay: DelayChoice::Auto, min_packets: 100, spacing_ns: 5_000_000, skew_correction: true }
    }
}

#[derive(Clone, Debug)]
pub struct Subflow {
    pub name: String,
    pub key: Key,
    pub conn: usize,
    pub method: Method,
    /// ns per TSval tick (TsOwd, TsEcho).
    pub tick_ns: f64,
    /// Spread of the one-way delay in the survey's points (ns), after removing a linear drift.
    pub owd_spread_ns: f64,
    pub vantage: Vantage,
    /// Median lag from a data packet's capture to the ACK echoing it (ns).
    pub ack_lag_ns: Option<u64>,
    /// Drift removed from its one-way delay (ns per ns, i.e. the relative clock skew), TsOwd
    /// only; 0 when the fit was not significant ([`crate::drift`]).
    pub drift: f64,
    /// The drift fit (TsOwd with skew correction and enough points), removed or not.
    pub drift_fit: Option<crate::drift::Drift>,
    pub data_packets: u64,
    pub payload_bytes: u64,
}

#[derive(Clone, Debug)]
pub struct Connection {
    pub name: String,
    /// MPTCP token of the connection (its server side's key), when the keys were seen.
    pub token: Option<u32>,
    pub subflows: Vec<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub subflows: Vec<Subflow>,
    pub connections: Vec<Connection>,
    /// Directions left out and why (name, reason).
    pub left_out: Vec<(String, String)>,
    /// Time origin of the detector (ns): the earliest SYN of an analysed connection, else the
    /// first record.
    pub origin_ns: u64,
    /// Per subflow: the time its connection opened (SYN of the first subflow), for thinning.
    pub conn_start_ns: Vec<u64>,
    /// Copies of frames the survey dropped ([`crate::dedup`]): the sample pass looks for them
    /// only when there were any (the same frames in the same order give the same copies).
    pub copies: u64,
}

/// TSval clock rates seen in practice, ticks per second: Linux (1 kHz; 1 MHz with
/// tcp_usec_ts), FreeBSD/macOS (1 kHz), Windows (100 Hz up to 10 kHz), old BSD (2 Hz), 250 Hz
/// and 4 kHz kernels.
const RATES: [f64; 8] = [1e6, 1e5, 1e4, 4e3, 1e3, 250.0, 100.0, 2.0];

/// The TSval clock of a direction: ns per tick, rounded to a usual rate when within 5 %.
fn tick_ns(d: &DirStats) -> f64 {
    let (Some(&(t0, v0)), Some(&(t1, v1))) = (d.points.first(), d.points.last()) else { return 1e6 };
    if t1 <= t0 + 1_000_000_000 || v1 <= v0 {
        return 1e6; // under a second: assume Linux's 1 ms
    }
    let rate = (v1 - v0) as f64 / ((t1 - t0) as f64 / 1e9);
    let best = RATES.iter().copied().min_by(|a, b| (a / rate).ln().abs().total_cmp(&(b / rate).ln().abs())).expect("rates");
    if (best / rate).ln().abs() < 0.05 {
        1e9 / best
    } else {
        1e9 / rate
    }
}

/// The spread (5th percentile to median, ns) of capture time minus TSval after a
/// least-squares line is removed: queueing between sender and capture point shows as spread,
/// a drift of the clocks does not. The upper half is left out because a busy host's
/// scheduling stalls delay a minority of packets by milliseconds wherever it captures (a
/// router's copies from before its queue, on the testbed under load: 2.1-3.0 ms from the 5th
/// to the 95th percentile, 0.56-0.68 ms to the median), while a queue that holds the flow's
/// bottleneck delays the bulk (the receiver's copies of the same run: 9.8 ms to the median).
fn owd_spread(d: &DirStats, tick: f64) -> f64 {
    let n = d.points.len();
    if n < 10 {
        return 0.0;
    }
    let (t0, v0) = d.points[0];
    let xy: Vec<(f64, f64)> = d.points.iter().map(|&(t, v)| ((t - t0) as f64, (t - t0) as f64 - (v - v0) as f64 * tick)).collect();
    let mx = xy.iter().map(|p| p.0).sum::<f64>() / n as f64;
    let my = xy.iter().map(|p| p.1).sum::<f64>() / n as f64;
    let sxx: f64 = xy.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = xy.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let b = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let mut r: Vec<f64> = xy.iter().map(|p| p.1 - my - b * (p.0 - mx)).collect();
    r.sort_by(f64::total_cmp);
    r[n / 2] - r[n * 5 / 100]
}

/// Whether a spread from [`owd_spread`] shows a queue between the sender and the capture
/// point. At the sender there is only the clocks' granularity: uniform over a tick, 0.45 tick
/// from the 5th percentile to the median.
fn queued_upstream(spread_ns: f64, tick_ns: f64) -> bool {
    spread_ns >= tick_ns.max(0.5e6)
}

pub fn plan(s: &Survey, o: &Options) -> Plan {
    let mut p = Plan { origin_ns: s.first_ns.unwrap_or(0), copies: s.duplicates, ..Plan::default() };
    // Data directions: more payload than the reverse (ties: the lower key), enough segments.
    let mut data: Vec<&DirStats> = Vec::new();
    // In the order first seen (the survey holds a direction once it carries data).
    let mut dirs: Vec<&DirStats> = s.dirs.iter().collect();
    dirs.sort_by_key(|d| d.first_record);
    for d in dirs {
        if d.data_packets == 0 {
            continue;
        }
        let rev = s.dir(&d.key.reverse());
        let name = d.key.to_string();
        if let Some(sender) = o.sender {
            if d.key.src != sender {
                continue;
            }
        } else if rev.is_some_and(|r| (r.payload_bytes, d.key) > (d.payload_bytes, r.key)) {
            continue;
        }
        if d.data_packets < o.min_packets {
            p.left_out.push((name, format!("{} data segments, fewer than {}", d.data_packets, o.min_packets)));
            continue;
        }
        data.push(d);
    }
    // MPTCP connections: tokens of every key seen on either direction.
    let mut token_conn: BTreeMap<u32, usize> = BTreeMap::new();
    let mut conn_of: Vec<Option<usize>> = vec![None; data.len()];
    let keys_of = |d: &DirStats| -> Vec<u64> {
        let mut k: Vec<u64> = [d.key_local, d.key_remote].into_iter().flatten().collect();
        if let Some(r) = s.dir(&d.key.reverse()) {
            k.extend([r.key_local, r.key_remote].into_iter().flatten());
        }
        k
    };
    // MP_CAPABLE subflows first, so that joins find their connection.
    let mut order: Vec<usize> = (0..data.len()).collect();
    let is_join = |d: &DirStats| d.join_token.is_some() || s.dir(&d.key.reverse()).is_some_and(|r| r.join_token.is_some());
    let first_seen = |d: &DirStats| d.syn_ns.or_else(|| s.dir(&d.key.reverse()).and_then(|r| r.syn_ns)).unwrap_or(d.first_ns);
    order.sort_by_key(|&i| (is_join(data[i]), first_seen(data[i]), data[i].first_record));
    for &i in &order {
        let d = data[i];
        let rev = s.dir(&d.key.reverse());
        let keys = keys_of(d);
        let join = d.join_token.or_else(|| rev.and_then(|r| r.join_token));
        let tokens: Vec<u32> = keys.iter().map(|&k| token_of_key(k)).collect();
        let found = join.and_then(|t| token_conn.get(&t).copied()).or_else(|| tokens.iter().find_map(|t| token_conn.get(t).copied()));
        let c = match found {
            Some(c) => c,
            None => {
                let mptcp = !keys.is_empty() || join.is_some() || d.mp_capable;
                // The server side's key names the connection (its token is what joins carry);
                // a direction's key_remote, or the reverse direction's key_local, is it.
                let server_key = d.key_remote.or_else(|| rev.and_then(|r| r.key_local));
                let token = server_key.map(token_of_key).or(join);
                let name = match (mptcp, token) {
                    (true, Some(t)) => format!("mptcp-{t:08x}"),
                    (true, None) => format!("mptcp-{}", p.connections.len() + 1),
                    (false, _) => format!("tcp-{}", p.connections.iter().filter(|c| c.name.starts_with("tcp-")).count() + 1),
                };
                p.connections.push(Connection { name, token, subflows: Vec::new() });
                p.connections.len() - 1
            }
        };
        for t in tokens.iter().copied().chain(join) {
            token_conn.entry(t).or_insert(c);
        }
        conn_of[i] = Some(c);
    }
    // Subflows in connection order, then by opening time.
    for &i in &order {
        let d = data[i];
        let c = conn_of[i].expect("assigned");
        let rev = s.dir(&d.key.reverse());
        let tick = tick_ns(d);
        let spread = owd_spread(d, tick);
        let has_ts = d.ts_data_packets * 2 >= d.data_packets;
        let echoes = rev.map_or(0, |r| r.echoes);
        let acks = rev.map_or(0, |r| r.acks);
        // Round trips need the ACK stream, not a handshake's few: one echo per 4 data segments
        // (delayed ACKs send one per 2), or one ACK per 16 (stretch ACKs of GRO/LRO).
        let rtt = if has_ts && echoes * 4 >= d.data_packets {
            Some(Method::TsEcho)
        } else if acks * 16 >= d.data_packets {
            Some(Method::SeqAck)
        } else {
            None
        };
        // A one-way delay measured before any queue (TSval or MP_TIMESTAMP alike) holds none
        // and is never used.
        let queued = queued_upstream(spread, tick);
        let ack_lag = d.median_ack_lag();
        let vantage = match (has_ts, queued, ack_lag) {
            (false, ..) => Vantage::Unknown,
            (true, false, _) => Vantage::Sender,
            (true, true, Some(l)) if l < RECEIVER_LAG_NS => Vantage::Receiver,
            (true, true, Some(_)) => Vantage::Middle,
            (true, true, None) => Vantage::Downstream,
        };
        let mp_ts = d.sbd_ts_packets * 2 >= d.data_packets;
        let owd = if mp_ts { Some(Method::MpTimestamp) } else { has_ts.then_some(Method::TsOwd) };
        let method = match o.delay {
            DelayChoice::Owd => owd,
            DelayChoice::Rtt => rtt,
            DelayChoice::Auto if vantage == Vantage::Sender => rtt,
            // Without timestamps on the data, MP_TIMESTAMP's own spread is not measured here.
            DelayChoice::Auto if vantage == Vantage::Unknown => if mp_ts { owd } else { rtt },
            DelayChoice::Auto => owd,
        };
        let Some(method) = method else {
            let why = match o.delay {
                DelayChoice::Owd => "no TCP timestamps (needed for one-way delay)".to_string(),
                DelayChoice::Rtt => "no ACKs of it in the capture (needed for round-trip times)".to_string(),
                DelayChoice::Auto if vantage == Vantage::Sender => format!(
                    "cannot tell: captured before any queue (one-way delay spread {:.3} ms, at most the clock's granularity) and without the ACKs of it, so no delay signal holds the bottleneck",
                    spread / 1e6
                ),
                DelayChoice::Auto => "cannot tell: neither TCP timestamps nor ACKs of it in the capture".to_string(),
            };
            p.left_out.push((d.key.to_string(), why));
            continue;
        };
        let drift_fit = if o.skew_correction && method == Method::TsOwd { crate::drift::fit(d, tick) } else { None };
        p.subflows.push(Subflow {
            name: String::new(),
            key: d.key,
            conn: c,
            method,
            tick_ns: tick,
            owd_spread_ns: spread,
            vantage,
            ack_lag_ns: ack_lag,
            drift: drift_fit.map_or(0.0, |f| f.removed),
            drift_fit,
            data_packets: d.data_packets,
            payload_bytes: d.payload_bytes,
        });
    }
    // Renumber connections in order of their first subflow; name subflows.
    p.subflows.sort_by_key(|f| f.conn);
    let mut keep: Vec<Connection> = Vec::new();
    let mut remap = vec![usize::MAX; p.connections.len()];
    for f in &mut p.subflows {
        if remap[f.conn] == usize::MAX {
            remap[f.conn] = keep.len();
            keep.push(Connection { subflows: Vec::new(), ..p.connections[f.conn].clone() });
        }
        f.conn = remap[f.conn];
    }
    for (i, f) in p.subflows.iter_mut().enumerate() {
        let c = &mut keep[f.conn];
        f.name = if c.name.starts_with("mptcp") { format!("{}.sf{} {}", c.name, c.subflows.len(), f.key) } else { format!("{} {}", c.name, f.key) };
        c.subflows.push(i);
    }
    p.connections = keep;
    // Time origin and connection starts.
    let opened = |k: &Key| s.dir(k).and_then(|d| d.syn_ns).into_iter().chain(s.dir(&k.reverse()).and_then(|d| d.syn_ns)).min();
    let starts: Vec<u64> = p
        .connections
        .iter()
        .map(|c| c.subflows.iter().filter_map(|&f| opened(&p.subflows[f].key)).min().unwrap_or_else(|| c.subflows.iter().map(|&f| s.dir(&p.subflows[f].key).map_or(0, |d| d.first_ns)).min().unwrap_or(0)))
        .collect();
    p.conn_start_ns = p.subflows.iter().map(|f| starts[f.conn]).collect();
    if let Some(&o) = starts.iter().min() {
        p.origin_ns = o;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Addr;

    /// A direction's survey points: a packet every 1.7 ms (plus a varying part, so that the
    /// 1 ms TSval ticks quantise at every phase) sent at `s`, captured `delay(i)` later.
    fn direction(delay_ns: impl Fn(u64) -> u64) -> DirStats {
        let key = Key { src: Addr::v4([10, 0, 0, 1]), dst: Addr::v4([10, 0, 0, 2]), sport: 1, dport: 2 };
        let mut d = DirStats::new(key, 0, 0);
        d.points = (0..2000u64)
            .map(|i| {
                let sent = 1_000_000_000 + i * 1_700_000 + (i * 7919 % 1000) * 1000;
                (sent + 5_000_000 + delay_ns(i), sent / 1_000_000)
            })
            .collect();
        d
    }

    #[test]
    fn a_busy_hosts_stalls_do_not_read_as_a_queue_but_a_queue_does() {
        // 15 % of the packets held 2-5 ms by a busy host (the testbed's router under load):
        // before any queue all the same.
        let stalls = direction(|i| if i % 20 < 3 { 2_000_000 + (i * 37 % 30) * 100_000 } else { 0 });
        let spread = owd_spread(&stalls, 1e6);
        assert!(!queued_upstream(spread, 1e6), "stalls read as a queue: {spread} ns");
        // A sawtooth queue of 0-6 ms over 0.85 s cycles (a Reno flow's at its bottleneck).
        let queue = direction(|i| (i % 500) * 12_000);
        let spread = owd_spread(&queue, 1e6);
        assert!(queued_upstream(spread, 1e6), "a queue read as none: {spread} ns");
        // The clock's ticks alone: under half a tick.
        let bare = owd_spread(&direction(|_| 0), 1e6);
        assert!(bare < 0.5e6 && !queued_upstream(bare, 1e6), "{bare} ns");
    }
}
