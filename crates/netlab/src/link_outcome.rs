//! The queues' samples as the outcome's links: per link direction its utilisation, drops
//! (the queue's and the delay element's loss draws) and mean queue over the window, and the
//! per-probe series, so that every backend on this network reports its links alike.

use crate::plan::Plan;
use crate::QueueSample;
use pathpool_experiment::outcome::LinkOutcome;
use pathpool_experiment::Loaded;
use std::collections::BTreeMap;

pub type Queues = BTreeMap<(String, String), QueueSample>;

pub struct Links {
    pub links: Vec<LinkOutcome>,
    /// Index into `links` of the scenario's bottleneck (its forward direction).
    pub bottleneck: Option<usize>,
    pub bottleneck_data_packets: Option<u64>,
    /// Per link of `links`, per probe after the first.
    pub queue_packets: Vec<Vec<f64>>,
    pub drops: Vec<Vec<u64>>,
}

/// The seconds between two readings of one queue's counters read at `a` and `b`
/// (`QueueSample::read_s`), or `window`, the probes' span, when they lack read times.
pub fn read_span(a: f64, b: f64, window: f64) -> f64 {
    if b > a {
        b - a
    } else {
        window
    }
}

/// The share of `rate_bps` a queue sent between samples `a` and `b`, over the time between
/// the two reads of its own counters.
fn utilization(a: &QueueSample, b: &QueueSample, rate_bps: u64, window: f64) -> f64 {
    b.bytes.saturating_sub(a.bytes) as f64 * 8.0 / (rate_bps as f64 * read_span(a.read_s, b.read_s, window))
}

/// `samples[k]`: the queues at probe k (k = 0 at the start); `window`: the seconds between
/// sample `warm` and the last; `lost`: the delay element's drops per direction.
pub fn assemble<S>(l: &Loaded, plan: &Plan<S>, names: &[String], samples: &[&Queues], warm: usize, window: f64, lost: &[u64]) -> Links {
    let keys = plan.queue_keys(names);
    let queue = |s: &Queues, d: usize| s.get(&keys[d]).copied().unwrap_or_default();
    let (first, last) = (samples[warm], *samples.last().expect("at least two samples"));
    let mut links = Vec::new();
    let mut present = Vec::new();
    for (k, link) in plan.links.iter().enumerate() {
        for (j, dir) in [Some(&link.forward), link.reverse.as_ref()].into_iter().enumerate() {
            let Some(d) = dir else { continue };
            let di = 2 * k + j;
            let (a, b) = (queue(first, di), queue(last, di));
            let in_window = &samples[warm + 1..];
            links.push(LinkOutcome {
                name: if j == 0 { link.name.clone() } else { format!("{}.reverse", link.name) },
                utilization: utilization(&a, &b, d.rate_bps, window),
                drops: b.drops - a.drops + lost[di],
                mean_queue_packets: in_window.iter().map(|s| queue(s, di).qlen as f64).sum::<f64>() / in_window.len().max(1) as f64,
            });
            present.push(di);
        }
    }
    let bottleneck = l.topology.bottleneck.map(|b| present.iter().position(|&di| di == 2 * b).expect("a bottleneck's forward direction exists"));
    let bottleneck_data_packets = l.topology.bottleneck.map(|b| queue(last, 2 * b).packets);
    Links {
        bottleneck,
        bottleneck_data_packets,
        queue_packets: present.iter().map(|&di| samples[1..].iter().map(|s| queue(s, di).qlen as f64).collect()).collect(),
        drops: present.iter().map(|&di| samples.windows(2).map(|w| queue(w[1], di).drops - queue(w[0], di).drops).collect()).collect(),
        links,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utilisation_is_over_the_reads_of_the_queues_own_counters() {
        // A 20 Mb/s queue busy all along, sampled at 2 s and 6 s by the probe's clock; its
        // counters were read 30 ms after the first probe and 80 ms after the last (the
        // namespaces before it each took a `tc` call on a loaded machine).
        let rate = 20_000_000u64;
        let sent = |t: f64| (t * rate as f64 / 8.0) as u64;
        let a = QueueSample { bytes: sent(2.03), read_s: 2.03, ..QueueSample::default() };
        let b = QueueSample { bytes: sent(6.08), read_s: 6.08, ..QueueSample::default() };
        assert!((utilization(&a, &b, rate, 4.0) - 1.0).abs() < 1e-6);
        // Over the probes' 4 s the same counters read 1.0125: more than the link can send.
        assert!((b.bytes - a.bytes) as f64 * 8.0 / (rate as f64 * 4.0) > 1.01);
        // Without read times, the probes' span.
        let (a0, b0) = (QueueSample { bytes: sent(2.0), ..a }, QueueSample { bytes: sent(6.0), read_s: 0.0, ..b });
        assert!((utilization(&a0, &b0, rate, 4.0) - 1.0).abs() < 1e-6);
    }
}
