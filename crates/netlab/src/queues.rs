//! The queues' counters: tc's statistics of each link direction's root qdisc (the tbf in
//! front of the sending TUN device): bytes and packets sent, drops, packets queued.

use crate::{netns, Result};
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, Default)]
pub struct QueueSample {
    pub bytes: u64,
    pub packets: u64,
    pub drops: u64,
    pub qlen: u64,
}

/// The root qdisc's counters of every device of namespace `ns`, keyed (namespace, device).
pub fn queues(ns: &str, into: &mut BTreeMap<(String, String), QueueSample>) -> Result<()> {
    let text = netns::sh("tc", &["-n", ns, "-s", "-j", "qdisc", "show"])?;
    let parsed: Value = serde_json::from_str(&text).map_err(|e| crate::NetlabError(format!("tc -j qdisc show in {ns}: {e}")))?;
    for q in parsed.as_array().into_iter().flatten() {
        if q.get("root").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        let Some(dev) = q.get("dev").and_then(Value::as_str) else { continue };
        let n = |k: &str| q.get(k).and_then(Value::as_u64).unwrap_or(0);
        into.insert((ns.to_string(), dev.to_string()), QueueSample { bytes: n("bytes"), packets: n("packets"), drops: n("drops"), qlen: n("qlen") });
    }
    Ok(())
}
