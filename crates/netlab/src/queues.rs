//! The queues' counters: tc's statistics of each link direction's root qdisc (the tbf in
//! front of the sending TUN device): bytes and packets sent, drops, packets queued, and when
//! they were read.

use crate::{netns, Result};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Instant;

#[derive(Clone, Copy, Debug, Default)]
pub struct QueueSample {
    pub bytes: u64,
    pub packets: u64,
    pub drops: u64,
    pub qlen: u64,
    /// Seconds from the run's start to the middle of the `tc` call that read the counters.
    /// A probe reads one namespace after another, each with a `tc` process, so on a loaded
    /// machine a queue's counters may be read a tenth of a second after the probe's own
    /// time: a rate over the probes' times, not over these, comes out above the link's.
    pub read_s: f64,
}

/// The root qdisc's counters of every device of namespace `ns`, keyed (namespace, device),
/// stamped with when they were read (seconds since `t0`).
pub fn queues(ns: &str, t0: Instant, into: &mut BTreeMap<(String, String), QueueSample>) -> Result<()> {
    let before = t0.elapsed().as_secs_f64();
    let text = netns::sh("tc", &["-n", ns, "-s", "-j", "qdisc", "show"])?;
    let read_s = (before + t0.elapsed().as_secs_f64()) / 2.0;
    let parsed: Value = serde_json::from_str(&text).map_err(|e| crate::NetlabError(format!("tc -j qdisc show in {ns}: {e}")))?;
    for q in parsed.as_array().into_iter().flatten() {
        if q.get("root").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        let Some(dev) = q.get("dev").and_then(Value::as_str) else { continue };
        let n = |k: &str| q.get(k).and_then(Value::as_u64).unwrap_or(0);
        into.insert((ns.to_string(), dev.to_string()), QueueSample { bytes: n("bytes"), packets: n("packets"), drops: n("drops"), qlen: n("qlen"), read_s });
    }
    Ok(())
}
