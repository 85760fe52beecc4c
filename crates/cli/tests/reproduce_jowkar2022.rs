//! `pathpool reproduce jowkar2022 --quick`: S3's disjoint-path problem and MPTCP-SBD's fix.

mod support;
use support::*;

#[test]
fn coupled_controllers_give_up_their_share_on_disjoint_paths_and_sbd_restores_it() {
    let out = Scratch::new("reproduce-jowkar");
    let s = reproduce_quick("jowkar2022", &out);
    assert_headlines_as_before("jowkar2022", &s);
    for rate in ["12m", "24m"] {
        for rtts in ["10_10", "50_100"] {
            // Uncoupled Reno takes half of the link it shares with one Reno flow (S3 §7.5's
            // expectation); MPTCP-SBD decouples the disjoint subflows and gets close to it.
            let sbd = num(&s, &format!("disjoint_sf1_pct_sbd_{rate}_{rtts}"));
            assert!(sbd >= 85.0, "sbd {rate} {rtts}: {sbd}");
            // LIA couples them and stays well below its share (S3 Tables 2-3).
            let lia = num(&s, &format!("disjoint_sf1_pct_lia_{rate}_{rtts}"));
            assert!(lia <= 0.9 * sbd, "lia {rate} {rtts}: {lia} vs sbd {sbd}");
        }
        // Subflow 2 fills the link it has alone where the 80-packet buffer exceeds the BDP
        // (at 50/100 ms it is below it, and one Reno flow cannot keep the link busy).
        let sf2 = num(&s, &format!("disjoint_sf2_pct_lia_{rate}_10_10"));
        assert!(sf2 >= 95.0, "lia sf2 {rate}: {sf2}");
    }
    assert!(out.join("jowkar2022/growth_competing_rtt2.png").exists());
    // Subflow 1 of each controller on disjoint paths, the direction, the shared bottleneck.
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert_verdict(&report, "jowkar2022", 5, "### Table 2:");
}
