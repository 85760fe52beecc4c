//! `pathpool reproduce zhang2019 --quick`: S2's Jain indices on both topologies, the
//! throughput ratio R (eq. 20) on non-shared bottlenecks and detection on the dumbbell.

mod support;
use support::*;

/// S2 Table 3's TCP flow counts on path 1 and path 2, which the non-shared cases keep.
const NSB_FLOWS: [(&str, f64, f64); 4] = [("e1", 20.0, 30.0), ("e2", 50.0, 50.0), ("e3", 60.0, 70.0), ("e4", 60.0, 160.0)];

#[test]
fn zhang2019_quick_jain_indices_non_shared_ratio_and_detection() {
    let out = Scratch::new("reproduce-zhang");
    let s = reproduce_quick("zhang2019", &out);
    assert_headlines_as_before("zhang2019", &s);

    // Eq. 19 is a two-party Jain index: 0.5 at the extreme, 1 when the session takes the
    // mean TCP rate.
    for key in ["topo1_jain_tr_mean", "topo1_jain_ssc_mean", "topo2_jain_tr_mean", "topo2_jain_ssc_mean"] {
        let j = num(&s, key);
        assert!(j > 0.5 && j <= 1.0, "{key} = {j}");
    }

    // Uncoupled Reno on two disjoint bottlenecks of rate C with f1 and f2 Reno flows (equal
    // RTTs on each path) takes C/(f1+1) + C/(f2+1); the better path's TCP flows get
    // C/(min(f1, f2)+1). Both bottlenecks are under-used alike, so the ratio holds.
    for (e, f1, f2) in NSB_FLOWS {
        let theory = (1.0 / (f1 + 1.0) + 1.0 / (f2 + 1.0)) * (f1.min(f2) + 1.0);
        let r = num(&s, &format!("nsb_ratio_r_uncoupled_{e}"));
        assert!((r / theory - 1.0).abs() < 0.2, "{e}: uncoupled R {r}, theory {theory}");
    }
    for scheme in ["tr", "ssc", "lia"] {
        assert!(num(&s, &format!("nsb_ratio_r_{scheme}_mean")) > 0.0);
    }

    // Table 2 on the dumbbell: the RFC 8382 statistics group flows of the two sides more
    // often when they share L2 than in the control with two separate, alike bottlenecks.
    let (shared, separate) = (num(&s, "dumbbell_ssc_shared_rate"), num(&s, "dumbbell_ssc_false_rate"));
    assert!(shared > separate + 0.1, "SSC groups cross pairs in {shared} of evaluations when shared, {separate} when separate");
    let first = num(&s, "dumbbell_tr_first_share");
    assert!((0.0..=1.0).contains(&first), "dumbbell_tr_first_share = {first}");

    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    // Tables 3 and 4 (J of each scheme; Table 3's direction), eq. 20, Figure 7.
    assert_verdict(&report, "zhang2019", 7, "### Table 3:");
    let row = |table: &str, e: &str| -> String {
        let from = report.find(table).unwrap_or_else(|| panic!("no '{table}' in the report"));
        report[from..].lines().find(|l| l.starts_with(&format!("| {e} |"))).unwrap_or_else(|| panic!("no {e} row after '{table}'")).to_string()
    };
    // Topology 2 congests the bottleneck S2 names: L2, and L18 in E5.
    for (e, bottleneck) in [("E1", "L2"), ("E2", "L2"), ("E3", "L2"), ("E4", "L2"), ("E5", "L18")] {
        let r = row("### Table 4:", e);
        assert!(r.contains(&format!("{bottleneck} (bottleneck)")), "topology 2 {e}: {r}");
    }
    // The non-shared cases congest both paths' own bottlenecks and never the common link.
    for (e, ..) in NSB_FLOWS {
        let r = row("### Eq. 20:", &e.to_uppercase());
        assert!(r.contains("L13 (bottleneck)") && r.contains("L7 (bottleneck)"), "non-shared {e}: {r}");
        assert!(!r.contains("L2 "), "non-shared {e}: the common link L2 is congested: {r}");
    }
}
