//! summary.json: flat keys in sorted order (built from a BTreeMap), so that the same run
//! gives the same bytes; wall-clock figures only under keys that start with `wall_`.

use crate::outcome::Outcome;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Jain's fairness index (sum x)^2 / (n sum x^2); 1 when all are equal, 1/n when one has all.
pub fn jain_index(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let squares: f64 = xs.iter().map(|x| x * x).sum();
    (!xs.is_empty() && squares > 0.0).then(|| sum * sum / (xs.len() as f64 * squares))
}

pub fn summary(o: &Outcome) -> BTreeMap<String, Value> {
    let mut m = BTreeMap::new();
    let mut put = |k: String, v: Value| {
        m.insert(k, v);
    };
    put("seed".into(), json!(o.seed));
    put("duration_s".into(), json!(o.duration_s));
    put("warmup_s".into(), json!(o.warmup_s));
    put("flows".into(), json!(o.flows.len()));
    put("events".into(), json!(o.events));
    for f in &o.flows {
        put(format!("flow.{}.throughput_mbps", f.name), json!(f.throughput_mbps));
        put(format!("flow.{}.delivered_bytes", f.name), json!(f.delivered_bytes));
        // A counter the backend does not report is left out, not written as 0 or null: a
        // reader (and `pathpool compare`) sees at once that it was not measured.
        for (key, count) in [("retransmissions", f.retransmissions), ("fast_retransmits", f.fast_retransmits), ("timeouts", f.timeouts)] {
            if let Some(n) = count {
                put(format!("flow.{}.{key}", f.name), json!(n));
            }
        }
    }
    for l in &o.links {
        put(format!("link.{}.utilization", l.name), json!(l.utilization));
        put(format!("link.{}.drops", l.name), json!(l.drops));
        put(format!("link.{}.mean_queue_packets", l.name), json!(l.mean_queue_packets));
    }
    let bulk: Vec<f64> = o.flows.iter().filter(|f| f.bulk).map(|f| f.throughput_mbps).collect();
    // The index covers the TCP bulk flows; over one flow it is 1 by definition and says
    // nothing about fairness, so it is written from two flows on, always with its count.
    if !bulk.is_empty() {
        put("jain_flows".into(), json!(bulk.len()));
    }
    if let Some(j) = jain_index(&bulk).filter(|_| bulk.len() >= 2) {
        put("jain_index".into(), json!(j));
    }
    let total: f64 = o.flows.iter().map(|f| f.throughput_mbps).sum();
    put("total_throughput_mbps".into(), json!(total));
    if let Some(b) = o.bottleneck.map(|i| &o.links[i]) {
        put("bottleneck".into(), json!(b.name));
        put("bottleneck_utilization".into(), json!(b.utilization));
        put("bottleneck_drops".into(), json!(b.drops));
        put("bottleneck_mean_queue_packets".into(), json!(b.mean_queue_packets));
    }
    if let Some(p) = o.bottleneck_data_packets {
        put("data_packets".into(), json!(p));
        if o.wall_seconds > 0.0 {
            put("wall_packets_per_second".into(), json!(p as f64 / o.wall_seconds));
        }
    }
    if let Some(mp) = &o.multipath {
        crate::mptcp_outcome::summary(mp, &mut put);
    }
    if !o.ran.backend.is_empty() {
        put("backend".into(), json!(o.ran.backend));
    }
    if let Some(h) = o.ran.hosts {
        put("hosts".into(), json!(h));
    }
    if !o.ran.sbd_detectors.is_empty() {
        put("sbd_detector".into(), json!(o.ran.sbd_detectors.join(",")));
    }
    if !o.ran.schemes.is_empty() {
        put("scheme".into(), json!(o.ran.schemes.join(",")));
    }
    if !o.warnings.is_empty() {
        put("phase_lock_warnings".into(), json!(o.warnings));
    }
    if !o.kernel_warnings.is_empty() {
        put("kernel_warnings".into(), json!(o.kernel_warnings));
    }
    let blind = detector_warnings(o);
    if !blind.is_empty() {
        put("detector_warnings".into(), json!(blind));
    }
    put("wall_seconds".into(), json!(o.wall_seconds));
    if o.wall_seconds > 0.0 {
        put("wall_events_per_second".into(), json!(o.events as f64 / o.wall_seconds));
    }
    m
}

/// What the run's detectors and the sender's check could not back (summary.json's
/// `detector_warnings`; `pathpool run` prints them).
pub fn detector_warnings(o: &Outcome) -> Vec<String> {
    crate::detector_blind::warnings(o).into_iter().chain(crate::check_blind::warnings(o)).chain(crate::check_missed::warnings(o)).collect()
}

/// The summary as pretty JSON text with a final newline.
pub fn to_json(summary: &BTreeMap<String, Value>) -> String {
    let mut s = serde_json::to_string_pretty(summary).expect("a map of strings to JSON values always serialises");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_index_extremes() {
        assert_eq!(jain_index(&[5.0, 5.0, 5.0]), Some(1.0));
        assert!((jain_index(&[1.0, 0.0, 0.0, 0.0]).unwrap() - 0.25).abs() < 1e-12);
        // Throughputs 1 and 3: 16 / (2 x 10) = 0.8.
        assert!((jain_index(&[1.0, 3.0]).unwrap() - 0.8).abs() < 1e-12);
        assert_eq!(jain_index(&[]), None);
    }
}
