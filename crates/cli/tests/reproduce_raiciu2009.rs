//! `pathpool reproduce raiciu2009 --quick`: S1's orderings and the values theory fixes.

mod support;
use support::*;

const SCENARIOS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/papers");

fn reproduce(out: &Scratch, quick: bool) -> serde_json::Value {
    let dir = out.0.to_str().unwrap();
    let mut args = vec!["reproduce", "raiciu2009", "--jobs", "2", "--scenarios", SCENARIOS, "--out", dir];
    if quick {
        args.push("--quick");
    }
    let o = pathpool(&args);
    assert!(o.status.success(), "reproduce failed: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn raiciu2009_quick_shows_rtt_compensation_resource_pooling_and_fairness() {
    let out = Scratch::new("reproduce-raiciu");
    let s = reproduce(&out, true);
    assert_headlines_as_before("raiciu2009", &s);

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

/// The full preset (about 6 CPU minutes; `make validate`): the figures that S1 publishes and
/// that this setup reproduces (docs/raiciu2009.md says which it does not, and why).
#[test]
#[ignore]
fn raiciu2009_full_matches_s1_where_the_setup_allows() {
    let out = Scratch::new("reproduce-raiciu-full");
    let s = reproduce(&out, false);
    let near = |key: &str, paper: f64, rel: f64| {
        let v = num(&s, key);
        assert!((v / paper - 1.0).abs() <= rel, "{key} = {v}, S1 {paper}, tolerance {rel}");
    };
    near("cwndsim_fig7_a_mean", 50.0 / 36.0, 0.03);
    // S1 §5.2.3, rate ratios of the fence, equal links and middle link halved.
    for (key, paper) in [
        ("fence_rate_ratio_fully_coupled", 1.12),
        ("fence_rate_ratio_linked_increases", 1.33),
        ("fence_rate_ratio_uncoupled", 1.5),
        ("fence_half_rate_ratio_fully_coupled", 1.06),
        ("fence_half_rate_ratio_linked_increases", 1.72),
        ("fence_half_rate_ratio_uncoupled", 2.2),
    ] {
        near(key, paper, 0.1);
    }
    // S1 §5.2.2: the multipath rates of ED1 and ED2 (KB/s) and BN2's fairness.
    near("ed1_mptcp_kbps", 500.0, 0.1);
    near("ed2_mptcp_kbps", 305.0, 0.1);
    near("bn2_mptcp_over_tcp", 245.0 / 255.0, 0.1);
    // S1 Table 4: multipath beats one path on average.
    assert!(num(&s, "sweep_table4_mean_pct") > 0.0);
}
