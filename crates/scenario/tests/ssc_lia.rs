//! S2 §5.2's SSC-LIA (`--cc ssc-lia`): the RFC 8382 grouping of MPTCP-SBD switching LIA on.
//! At a shared bottleneck it stays near one TCP's share (S0 Fig. 5's behaviour, with LIA's
//! coupling). Following each decision (`sbd_feedback = "decisions"`, without S2's 100 s
//! hold) it decouples S0's disjoint bottlenecks and takes more than LIA. (With the hold, one
//! false positive early in a run couples it for 100 s, as S2 §6 says; the sender's unit
//! tests check the hold itself.)

use pathpool_scenario::{load, mptcp, progress::Progress, simulate, summary};
use std::path::Path;

fn sum_ratio(file: &str, cc: &str, seed: u64) -> f64 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/papers/ferlin2016").join(file);
    let mut sets = vec![format!("simulation.seed={seed}"), "simulation.duration=80s".into()];
    let cc = match cc.strip_suffix("/decisions") {
        Some(base) => {
            sets.push("flows.mptcp.sbd_feedback=decisions".into());
            base
        }
        None => cc,
    };
    let mut l = load(&path, &sets).unwrap();
    mptcp::override_cc(&mut l, cc).unwrap();
    let s = summary::summary(&simulate(&l, &Progress::hidden()).unwrap());
    s["sum_ratio"].as_f64().unwrap()
}

#[test]
fn ssc_lia_decouples_disjoint_bottlenecks_and_stays_fair_at_a_shared_one() {
    assert!(pathpool_scenario::scheme::scheme("ssc-lia").is_ok());
    let (ssc, lia): (f64, f64) = (1..=3).map(|s| (sum_ratio("nsb-2.toml", "ssc-lia/decisions", s), sum_ratio("nsb-2.toml", "lia", s))).fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert!(ssc >= 1.2 * lia, "NSB-2 sum ratio: ssc-lia {ssc} vs lia {lia} (sums of 3 seeds)");
    let shared: f64 = (1..=3).map(|s| sum_ratio("sb-2.toml", "ssc-lia", s)).sum::<f64>() / 3.0;
    assert!((0.7..=1.3).contains(&shared), "SB-2 sum ratio of ssc-lia {shared}");
}
