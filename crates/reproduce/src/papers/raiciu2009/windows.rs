//! What the packet-level jobs keep: the summary, plus per multipath connection how its
//! window is split between its two subflows over time ("flappiness", S1 §2 and §5.2.1), and
//! for the runs that are plotted the window traces themselves.

use crate::scenario_job::{Extract, SUMMARY};
use pathpool_scenario::outcome::Outcome;
use serde_json::{json, Map, Value};

/// Data packet size of every scenario of the paper (generate.py).
pub const PACKET_BYTES: f64 = 1500.0;

/// A subflow "holds the connection" when it has more than this share of the total window.
pub const EXTREME_SHARE: f64 = 0.9;

/// Summary and window-split metrics (`flap.<connection>.*`).
pub const FLAP: Extract = Extract { name: "summary+flap", keep: |o| keep(o, false) };

/// The same plus the subflows' window traces (`trace.*`), for the plotted seed.
pub const TRACE: Extract = Extract { name: "summary+flap+trace", keep: |o| keep(o, true) };

/// The traces keep every this many probe samples.
const TRACE_EVERY: usize = 2;

fn keep(o: &Outcome, trace: bool) -> Value {
    let Value::Object(mut m) = (SUMMARY.keep)(o) else { unreachable!("the summary is an object") };
    let measured: Vec<usize> = (0..o.series.times.len()).filter(|&i| o.series.times[i] > o.warmup_s).collect();
    let window_s = o.duration_s - o.warmup_s;
    for (name, subflows) in connections(o) {
        if let [a, b] = subflows[..] {
            let (wa, wb) = (&o.series.flow_cwnd_packets[a], &o.series.flow_cwnd_packets[b]);
            let shares: Vec<f64> = measured.iter().filter(|&&i| wa[i] + wb[i] > 0.0).map(|&i| wa[i] / (wa[i] + wb[i])).collect();
            if let Some(sp) = split(&shares) {
                m.insert(format!("flap.{name}.extreme_fraction"), json!(sp.extreme));
                m.insert(format!("flap.{name}.flips_per_100s"), json!(sp.flips as f64 * 100.0 / window_s));
                m.insert(format!("flap.{name}.imbalance"), json!(sp.imbalance));
            }
        }
        if trace {
            for (k, &f) in subflows.iter().enumerate() {
                let w: Vec<f64> = o.series.flow_cwnd_packets[f].iter().step_by(TRACE_EVERY).copied().collect();
                m.insert(format!("trace.{name}.sf{k}"), json!(w));
            }
        }
    }
    if trace {
        m.insert("trace.time".into(), json!(o.series.times.iter().step_by(TRACE_EVERY).collect::<Vec<_>>()));
    }
    Value::Object(m.into_iter().collect::<Map<_, _>>())
}

/// Multipath connections by name, with the indices (into `o.flows`) of their subflows
/// (`NAME.sfK`), in order.
fn connections(o: &Outcome) -> Vec<(String, Vec<usize>)> {
    let mut out: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, f) in o.flows.iter().enumerate() {
        let Some((conn, k)) = f.name.rsplit_once(".sf") else { continue };
        if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        match out.iter_mut().find(|(n, _)| n == conn) {
            Some((_, v)) => v.push(i),
            None => out.push((conn.to_string(), vec![i])),
        }
    }
    out
}

/// How a connection split its window between two subflows over a series of samples.
#[derive(Debug, PartialEq)]
pub struct Split {
    /// Fraction of samples where one subflow holds more than `EXTREME_SHARE` of the window.
    pub extreme: f64,
    /// Moves from one subflow holding the window that way to the other.
    pub flips: u64,
    /// Mean of |share of subflow 0 - share of subflow 1|: 0 for an even split, 1 for all on one.
    pub imbalance: f64,
}

/// The split over a series of subflow-0 window shares (None when empty).
pub fn split(shares: &[f64]) -> Option<Split> {
    if shares.is_empty() {
        return None;
    }
    let mut extreme = 0usize;
    let mut flips = 0u64;
    let mut last: Option<bool> = None;
    for &s in shares {
        let side = if s > EXTREME_SHARE {
            Some(true)
        } else if s < 1.0 - EXTREME_SHARE {
            Some(false)
        } else {
            None
        };
        if let Some(side) = side {
            extreme += 1;
            if last.is_some_and(|l| l != side) {
                flips += 1;
            }
            last = Some(side);
        }
    }
    let n = shares.len() as f64;
    Some(Split { extreme: extreme as f64 / n, flips, imbalance: shares.iter().map(|s| (2.0 * s - 1.0).abs()).sum::<f64>() / n })
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn extremes_flips_and_imbalance() {
        // Balanced: never at an extreme.
        let even = split(&[0.5, 0.4, 0.6]).unwrap();
        assert_eq!((even.extreme, even.flips), (0.0, 0));
        assert!((even.imbalance - 0.4 / 3.0).abs() < 1e-12);
        // 1 -> 0 -> (middle) -> 1: two flips; the middle sample does not reset the side.
        let flappy = split(&[0.95, 0.05, 0.5, 0.97]).unwrap();
        assert_eq!(flappy.flips, 2);
        assert!((flappy.extreme - 0.75).abs() < 1e-12);
        assert!((flappy.imbalance - (0.9 + 0.9 + 0.0 + 0.94) / 4.0).abs() < 1e-12);
        assert_eq!(split(&[]), None);
    }
}
