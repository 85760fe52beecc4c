//! The SBD daemon's grouping on pathpool-trace's generated RTT traces (docs/tracegen.md), data
//! it was not designed on: seeds 1-10, 2-4 subflows, one shared bottleneck or one per subflow
//! (each of its own shape, or all of one shape). Prints the two tables of docs/kernel.md, "The SBD
//! daemon" (PATHPOOL_WRITE_DOCS=1 writes it there; ignored by default: about a minute in
//! release):
//!
//!     cargo test --release -p pathpool-kernel --test sbd_generated -- --ignored --nocapture

mod replay;

use pathpool_kernel::grouping::{ConnGroups, Outcome};
use pathpool_trace::gen::{generate, TraceConfig};

/// (right decisions, decisions, windows without evidence) over seeds 1-10.
fn score(flows: usize, shared: bool, alike: bool) -> (usize, usize, usize) {
    let (mut right, mut made, mut not_yet) = (0, 0, 0);
    for seed in 1..=10 {
        let t = generate(&TraceConfig { flows, shared, duration_s: 90.0, rate_pps: 200.0, seed, alike_queues: alike, ..TraceConfig::default() });
        let mut g = ConnGroups::default();
        let mut out = Vec::new();
        for r in &t.rtt {
            g.on_sample(1, 1 + r.flow as u32, r.ack_us as u64 * 1000, r.rtt_us as u32, &mut out);
        }
        for o in out {
            match o {
                Outcome::Decision(d) => {
                    let groups: Vec<u32> = d.groups.iter().map(|x| x.1).collect();
                    made += 1;
                    let ok = !groups.contains(&0)
                        && if shared { groups.iter().all(|&x| x == groups[0]) } else { (1..groups.len()).all(|i| !groups[..i].contains(&groups[i])) };
                    right += usize::from(ok);
                }
                Outcome::NotYet { .. } => not_yet += 1,
            }
        }
    }
    (right, made, not_yet)
}

#[test]
#[ignore]
fn generated_traces_table() {
    let mut table = String::from("| traces (seeds 1-10, 90 s) | 2 subflows | 3 | 4 |\n|---|---|---|---|\n");
    for (label, shared, alike) in [("one shared bottleneck: all in one group", true, false), ("one bottleneck per subflow: each alone", false, false), ("the same, bottlenecks all of one shape", false, true)] {
        let cells: Vec<String> = (2..=4)
            .map(|n| {
                let (r, m, ny) = score(n, shared, alike);
                format!("{:.1} % of {m} ({ny} not yet)", 100.0 * r as f64 / m.max(1) as f64)
            })
            .collect();
        table += &format!("| {label} | {} |\n", cells.join(" | "));
    }
    print!("{table}");
    replay::write_doc_table("sbd-generated", &table);
}

/// A shifting bottleneck from generated traces: 45 s of a shared-bottleneck trace, then 45 s
/// of a separate-bottlenecks trace (another seed's queues, so nothing carries over); the time
/// from the switch to the first decision that separates every subflow, per seed.
fn reaction_s(flows: usize, seed: u64) -> Option<f64> {
    let cfg = |shared, seed| TraceConfig { flows, shared, duration_s: 45.0, rate_pps: 200.0, seed, ..TraceConfig::default() };
    let (before, after) = (generate(&cfg(true, seed)), generate(&cfg(false, seed + 100)));
    let switch_us = 45_000_000i64;
    let rows = before.rtt.iter().filter(|r| r.ack_us < switch_us).map(|r| (r.ack_us, r.flow, r.rtt_us)).chain(after.rtt.iter().map(|r| (r.ack_us + switch_us, r.flow, r.rtt_us)));
    let mut g = ConnGroups::default();
    let mut out = Vec::new();
    let mut first_apart = None;
    for (ack_us, flow, rtt_us) in rows {
        g.on_sample(1, 1 + flow as u32, ack_us as u64 * 1000, rtt_us as u32, &mut out);
        for o in out.drain(..) {
            if let Outcome::Decision(d) = o {
                let groups: Vec<u32> = d.groups.iter().map(|x| x.1).collect();
                let apart = !groups.contains(&0) && (1..groups.len()).all(|i| !groups[..i].contains(&groups[i]));
                if first_apart.is_none() && ack_us >= switch_us && apart {
                    first_apart = Some((ack_us - switch_us) as f64 / 1e6);
                }
            }
        }
    }
    first_apart
}

#[test]
#[ignore]
fn generated_shift_table() {
    let mut table = String::from("| shared, then separate bottlenecks at 45 s (seeds 1-10) | 2 subflows | 3 | 4 |\n|---|---|---|---|\n");
    let cells: Vec<String> = (2..=4)
        .map(|n| {
            // A seed without a decision apart counts as never reacting (after every other).
            let mut r: Vec<f64> = (1..=10).map(|seed| reaction_s(n, seed).unwrap_or(f64::INFINITY)).collect();
            r.sort_by(f64::total_cmp);
            let never = r.iter().filter(|x| x.is_infinite()).count();
            let median = (r[4] + r[5]) / 2.0;
            format!("median {median:.1} [{:.1}, {:.1}] s{}", r[0], r[9], if never > 0 { format!(" ({never} never)") } else { String::new() })
        })
        .collect();
    table += &format!("| time to the first decision apart | {} |\n", cells.join(" | "));
    print!("{table}");
    replay::write_doc_table("sbd-generated-shift", &table);
}
