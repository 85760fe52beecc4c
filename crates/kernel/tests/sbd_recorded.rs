//! The SBD daemon's grouping on RTT samples the daemon itself recorded on the testbed with the
//! receiver fix (`pathpool fidelity --cases sbd-shared,sbd-disjoint`, `samples.csv`): the first
//! 40 s of one run of each case, every 8th sample, times from the first sample
//! (tests/data/sbd-*-excerpt.csv). The disjoint excerpt is the run of that round whose two
//! queues ran their sawtooth in step, where RFC 8382's statistics and the interval-mean
//! correlation both put the subflows together (docs/kernel.md, "The SBD daemon").

use pathpool_kernel::grouping::{ConnGroups, Outcome};

fn parse(line: &str) -> Option<(u32, u32, u64, u32)> {
    let mut f = line.split(',');
    let (token, sf) = f.next()?.split_once(".sf")?;
    Some((u32::from_str_radix(token, 16).ok()?, sf.parse().ok()?, f.next()?.parse().ok()?, f.next()?.parse().ok()?))
}

/// (decisions together, apart, with a subflow in group 0, windows without evidence).
fn replay(name: &str) -> (usize, usize, usize, usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut g = ConnGroups::default();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let (token, sf, ack_us, rtt_us) = parse(line).unwrap_or_else(|| panic!("{}:{}: expected TOKEN.sfID,ack_time_us,rtt_us, got {line:?}", path.display(), i + 1));
        g.on_sample(token, sf, ack_us * 1000, rtt_us, &mut out);
    }
    let mut counts = (0, 0, 0, 0);
    for o in &out {
        match o {
            Outcome::Decision(d) => {
                let groups: Vec<u32> = d.groups.iter().map(|x| x.1).collect();
                assert_eq!(groups.len(), 2, "two subflows");
                if groups.contains(&0) {
                    counts.2 += 1;
                } else if groups[0] == groups[1] {
                    counts.0 += 1;
                } else {
                    counts.1 += 1;
                }
            }
            Outcome::NotYet { .. } => counts.3 += 1,
        }
    }
    counts
}

#[test]
fn one_recorded_shared_bottleneck_is_grouped_in_every_decision() {
    let (together, apart, zero, not_yet) = replay("sbd-shared-excerpt.csv");
    println!("shared: together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
    // 40 s at one decision per 3.5 s: about 11, less the first 3.2 s the test's window fills.
    assert!(together >= 9 && apart + zero == 0 && not_yet <= 1, "together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
}

#[test]
fn two_recorded_bottlenecks_in_step_are_separated() {
    let (together, apart, zero, not_yet) = replay("sbd-disjoint-excerpt.csv");
    println!("disjoint: together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
    // The daemon before the comparison test (RFC 8382's splits and the correlation split)
    // put the subflows of this whole run together in 12 of its 17 decisions.
    assert!(apart >= 8 && together + zero == 0 && not_yet <= 2, "together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
}
