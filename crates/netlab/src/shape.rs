//! The queue of a link direction: a token bucket (tbf) serving at the link's rate, on the
//! sending node's TUN device. A buffer in packets is a pfifo of that many packets under the
//! tbf; a buffer in bytes is tbf's own byte limit. The bucket holds two packets: enough for
//! tbf to send an MTU-sized packet, small enough that the queue drains at the link's rate
//! rather than in bursts.

use pathpool_experiment::schema::{Buffer, DirectionSpec};

pub fn burst_bytes(mtu: u64) -> u64 {
    2 * mtu
}

/// `tc -batch` lines that attach the queue of direction `d` to `device`.
pub fn tbf_lines(device: &str, d: &DirectionSpec, mtu: u64) -> Vec<String> {
    let burst = burst_bytes(mtu);
    let rate = d.rate_bps;
    match d.buffer.value {
        Buffer::Bytes(limit) => vec![format!("qdisc add dev {device} root handle 1: tbf rate {rate}bit burst {burst} limit {limit}")],
        Buffer::Packets(packets) => vec![
            // tbf needs a byte limit of its own; the pfifo under it is what limits the queue.
            format!("qdisc add dev {device} root handle 1: tbf rate {rate}bit burst {burst} limit {}", packets.saturating_mul(mtu).max(burst)),
            format!("qdisc add dev {device} parent 1:1 handle 10: pfifo limit {packets}"),
        ],
    }
}
