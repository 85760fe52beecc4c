//! [S3] §7.4, Figs. 6-17: window growth of LIA, OLIA and BALIA against NewReno (an 80-packet
//! FIFO per link, initial window 10, 600 cycles), subflow 2's RTT 1, 2 or 3 times subflow
//! 1's; the subflows alone on disjoint links, or subflow 1 sharing its link with NewReno.

use crate::job::{Job, Results};
use crate::numbers::fmt;
use crate::PaperOut;
use pathpool_cc::Algorithm;
use pathpool_plot::{Panel, Series};
use pathpool_windowsim::{run_growth, GrowthConfig, Scenario};
use serde_json::{json, Value};

const ALGORITHMS: [&str; 3] = ["lia", "olia", "balia"];
const RATIOS: [u32; 3] = [1, 2, 3];

fn id(scenario: Scenario, ratio: u32, algo: &str) -> String {
    format!("growth/{scenario}/rtt{ratio}/{algo}")
}

pub fn jobs() -> Vec<Job> {
    let mut jobs = Vec::new();
    for scenario in Scenario::ALL {
        for ratio in RATIOS {
            for algo in ALGORITHMS {
                let cfg = GrowthConfig::s3(algo.parse::<Algorithm>().unwrap_or(Algorithm::Lia), scenario, ratio);
                let spec = format!("windowsim {cfg:?}");
                jobs.push(Job::new(id(scenario, ratio, algo), spec, move || {
                    let r = run_growth(&cfg).map_err(|e| e.to_string())?;
                    let rows: Vec<Value> = r.rows.iter().map(|w| json!([w.cycle, w.tcp, w.sf1, w.sf2])).collect();
                    let rates = r.late_mean.rates(cfg.rtt_ratio);
                    Ok(json!({ "rows": rows, "late_tcp": rates.tcp, "late_sf1": rates.sf1, "late_sf2": rates.sf2 }))
                }));
            }
        }
    }
    jobs
}

pub fn report(results: &Results, out: &mut PaperOut) -> Result<(), String> {
    out.heading("§7.4, Figs. 6-17: window growth against NewReno");
    out.para("`pathpool windowsim`'s model of S3 §7.4 (docs/windowsim.md): one cycle is subflow 1's RTT; every flow's window per cycle. The table gives the mean sending rates (packets per cycle) over the last third of the 600 cycles.");
    let mut rows = Vec::new();
    for scenario in Scenario::ALL {
        for ratio in RATIOS {
            let mut panels = Vec::new();
            for algo in ALGORITHMS {
                let Some(v) = results.get(&id(scenario, ratio, algo)) else { continue };
                let get = |k: &str| v.get(k).and_then(Value::as_f64);
                rows.push(vec![scenario.to_string(), format!("{ratio}"), algo.into(), fmt(get("late_tcp")), fmt(get("late_sf1")), fmt(get("late_sf2"))]);
                let trace: Vec<[f64; 4]> = v
                    .get("rows")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(|r| Some([r.get(0)?.as_f64()?, r.get(1)?.as_f64()?, r.get(2)?.as_f64()?, r.get(3)?.as_f64()?])).collect())
                    .unwrap_or_default();
                let line = |k: usize, label: &str| Series::new(label, trace.iter().map(|r| (r[0], r[k])).collect());
                panels.push(Panel {
                    title: format!("{algo}: {scenario}, RTT2 = {ratio} x RTT1"),
                    x_label: "cycle".into(),
                    y_label: "window (packets)".into(),
                    series: vec![line(1, "NewReno"), line(2, "subflow 1"), line(3, "subflow 2")],
                });
            }
            out.lines(&format!("growth_{scenario}_rtt{ratio}"), &format!("Window growth, {scenario}, RTT2 = {ratio} x RTT1"), &panels)?;
        }
    }
    out.table(&["scenario", "RTT2 / RTT1", "algorithm", "NewReno rate", "subflow 1 rate", "subflow 2 rate"], &rows);
    out.para("S3 reads its conclusion off the figures: in the competing case every coupled algorithm's subflow 1 grows far more slowly than NewReno on the same link, so the connection does not take a TCP share of the link it shares, and subflow 2 (alone on its link) does not make up for it; a longer RTT on subflow 2 slows subflow 1 further.");
    Ok(())
}
