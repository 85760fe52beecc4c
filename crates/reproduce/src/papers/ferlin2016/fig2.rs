//! [S0] Fig. 2: the coupled controllers against uncoupled Reno. NSB-2: per-subflow and sum
//! ratios; SB-2 ... SB-5: the sum ratio.

use super::experiment;
use crate::job::Results;
use crate::papers::seeds::{median, values};
use crate::numbers::fmt;
use crate::PaperOut;
use pathpool_plot::{BoxGroup, BoxTitles};

const SCHEMES: [&str; 4] = ["uncoupled", "lia", "olia", "balia"];

pub fn report(results: &Results, out: &mut PaperOut) -> Result<(), String> {
    out.heading("Fig. 2(a): NSB-2, throughput ratio to TCP");
    let mut rows = Vec::new();
    let mut groups = Vec::new();
    for cc in SCHEMES {
        let e = experiment("nsb-2", cc);
        let keys = [("SF1", "mptcp.mptcp.sf0.ratio"), ("SF2", "mptcp.mptcp.sf1.ratio"), ("sum", "sum_ratio")];
        let paper = if cc == "uncoupled" { "~1, ~1, ~1" } else { "~0.70, ~0.45, ~0.6" };
        // S0's medians as read off its Fig. 2(a), for the crosses.
        let read: [f64; 3] = if cc == "uncoupled" { [1.0, 1.0, 1.0] } else { [0.70, 0.45, 0.6] };
        let mut row = vec![cc.to_string()];
        for ((label, key), s0) in keys.into_iter().zip(read) {
            row.push(fmt(median(results, &e, key)));
            groups.push(BoxGroup::new(label, values(results, &e, key)).scheme(cc).paper(Some(s0)));
        }
        row.push(paper.into());
        rows.push(row);
    }
    out.table(&["scheme", "SF1 / TCP1", "SF2 / TCP2", "sum / sum TCP", "S0 (SF1, SF2, sum)"], &rows);
    let titles = BoxTitles { title: "NSB-2: MPTCP subflow / TCP throughput", x_label: "subflow (SF1 / TCP 1, SF2 / TCP 2; sum: both subflows / both TCP flows)", y_label: "MPTCP / TCP throughput", paper: "S0 (read off Fig. 2a)" };
    out.boxes("fig2a_nsb2_ratios", &titles, &groups)?;
    out.para(
        "S0 reads its values off box plots; the coupled controllers' subflows are unequal in S0 (0.70 and 0.45) because OLIA and LIA move traffic to the less congested path and S0's two bottlenecks had different background load. Here every bottleneck has its own background load too (docs/ferlin2016.md), so which subflow gets more depends on the file, not on its index.",
    );

    out.heading("Fig. 2(b): SB-n, sum of the subflows over the TCP flow");
    let mut rows = Vec::new();
    let mut groups = Vec::new();
    for n in 2..=5 {
        let scenario = format!("sb-{n}");
        let mut row = vec![scenario.clone()];
        for cc in SCHEMES {
            let e = experiment(&scenario, cc);
            row.push(fmt(median(results, &e, "sum_ratio")));
            // S0: the coupled schemes at about 1; uncoupled is not read off (n in theory).
            let s0 = (cc != "uncoupled").then_some(1.0);
            groups.push(BoxGroup::new(n.to_string(), values(results, &e, "sum_ratio")).scheme(cc).paper(s0));
        }
        row.push(format!("coupled ~1 (uncoupled: {n} in theory)"));
        rows.push(row);
    }
    out.table(&["scenario", "uncoupled", "lia", "olia", "balia", "S0"], &rows);
    let titles = BoxTitles { title: "SB-n: MPTCP / TCP throughput", x_label: "subflows (n)", y_label: "sum of subflows / TCP throughput", paper: "S0: coupled about 1 (Fig. 2b)" };
    out.boxes("fig2b_sb_sum_ratio", &titles, &groups)
}
