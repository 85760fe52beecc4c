//! `pathpool reproduce raiciu2009 --quick`: S1's orderings and the values theory fixes.

mod support;
use support::*;

const SCENARIOS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/papers");

#[test]
fn raiciu2009_quick_shows_rtt_compensation_resource_pooling_and_fairness() {
    let out = Scratch::new("reproduce-raiciu");
    let dir = out.0.to_str().unwrap();
    let o = pathpool(&["reproduce", "raiciu2009", "--quick", "--jobs", "2", "--scenarios", SCENARIOS, "--out", dir]);
    assert!(o.status.success(), "reproduce failed: {}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();

    // S1 §5.1 Fig. 7: equal loss, RTT1 = 5 RTT2 => equal windows and a = 50/36; the total
    // rate is about TCP's on the best path (goal 1).
    let a = num(&s, "cwndsim_fig7_a_mean");
    assert!((a - 50.0 / 36.0).abs() < 0.1, "fig7 a {a}");
    for fig in ["fig7", "fig8"] {
        let r = num(&s, &format!("cwndsim_{fig}_total_over_tcp_best"));
        assert!((0.85..1.15).contains(&r), "{fig} total / TCP on best path {r}");
    }

    // Fence (S1 §5.2.3): uncoupled Reno gives flow 1 C + C/2 and flow 2 C/2 + C/2 (ratio 1.5;
    // 2 with the middle link halved); the coupled schemes pool: FULLY COUPLED best, LINKED
    // INCREASES between.
    for (fence, reno) in [("fence", 1.5), ("fence_half", 2.0)] {
        let k = |cc: &str| num(&s, &format!("{fence}_rate_ratio_{cc}"));
        let (fc, li, un) = (k("fully_coupled"), k("linked_increases"), k("uncoupled"));
        assert!((un - reno).abs() < 0.25 * reno, "{fence} uncoupled ratio {un}, Reno theory {reno}");
        assert!(fc < li && li < un, "{fence}: expected fully-coupled {fc} < linked-increases {li} < uncoupled {un}");
        assert!(fc < 1.3, "{fence}: fully coupled should nearly equalise, got {fc}");
    }
    // Uncoupled TCPs do not move traffic off the halved middle link: its loss rate is several
    // times the coupled schemes'.
    let loss = |cc: &str| num(&s, &format!("fence_half_link3_loss_{cc}"));
    assert!(loss("uncoupled") > 3.0 * loss("linked_increases"), "middle-link loss {} vs {}", loss("uncoupled"), loss("linked_increases"));

    // Shared bottleneck (goal 2): the coupled connection takes about one TCP's share, well
    // below the two shares of uncoupled subflows.
    for bn in ["bn1", "bn2"] {
        let r = num(&s, &format!("{bn}_mptcp_over_tcp"));
        assert!((0.7..1.5).contains(&r), "{bn} multipath / TCP {r}");
    }

    // Flappiness (S1 Fig. 9): FULLY COUPLED splits its window far more unevenly than LINKED
    // INCREASES on the dumbbell with one TCP per bottleneck.
    let (fc1, li1) = (num(&s, "fc1_window_imbalance"), num(&s, "li1_window_imbalance"));
    assert!(fc1 > 1.5 * li1, "imbalance FC1 {fc1} vs LI1 {li1}");

    for f in ["raiciu2009/fig7_cwndsim.png", "raiciu2009/fig9_dumbbell_windows.png", "raiciu2009/fig11_fence_windows.png", "raiciu2009/fence_rate_ratio.png", "raiciu2009/tables3_4_sweep.csv"] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("Tables 3-4") && report.contains("| BN2 |"), "report: {report}");
}
