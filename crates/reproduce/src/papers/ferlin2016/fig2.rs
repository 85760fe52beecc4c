//! [S0] Fig. 2: the coupled controllers against uncoupled Reno. NSB-2: per-subflow and sum
//! ratios; SB-2 ... SB-5: the sum ratio.

use super::experiment;
use crate::job::Results;
use crate::papers::seeds::{median, values};
use crate::report::fmt;
use crate::PaperOut;
use pathpool_plot::BoxGroup;

const SCHEMES: [&str; 4] = ["uncoupled", "lia", "olia", "balia"];

pub fn report(results: &Results, out: &mut PaperOut) -> Result<(), String> {
    out.heading("Fig. 2(a): NSB-2, throughput ratio to TCP");
    let mut rows = Vec::new();
    let mut groups = Vec::new();
    for cc in SCHEMES {
        let e = experiment("nsb-2", cc);
        let keys = [("SF1", "mptcp.mptcp.sf0.ratio"), ("SF2", "mptcp.mptcp.sf1.ratio"), ("sum", "sum_ratio")];
        let paper = if cc == "uncoupled" { "~1, ~1, ~1" } else { "~0.70, ~0.45, ~0.6" };
        let mut row = vec![cc.to_string()];
        for (label, key) in keys {
            row.push(fmt(median(results, &e, key)));
            groups.push(BoxGroup { label: format!("{cc} {label}"), values: values(results, &e, key) });
        }
        row.push(paper.into());
        rows.push(row);
    }
    out.table(&["scheme", "SF1 / TCP1", "SF2 / TCP2", "sum / sum TCP", "S0 (SF1, SF2, sum)"], &rows);
    out.boxes("fig2a_nsb2_ratios", "NSB-2: MPTCP subflow / TCP throughput", "ratio", &groups)?;
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
            groups.push(BoxGroup { label: format!("{cc} {n}"), values: values(results, &e, "sum_ratio") });
        }
        row.push(format!("coupled ~1 (uncoupled: {n} in theory)"));
        rows.push(row);
    }
    out.table(&["scenario", "uncoupled", "lia", "olia", "balia", "S0"], &rows);
    out.boxes("fig2b_sb_sum_ratio", "SB-n: MPTCP / TCP throughput", "ratio", &groups)
}
