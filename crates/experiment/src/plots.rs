//! throughput.png and queue.png: what a person looks at first after a run.

use crate::outcome::Outcome;
use pathpool_plot::{line_panels, Panel, PlotError, Series};
use std::path::Path;

/// More lines than this in one panel cannot be told apart.
const MAX_LINES: usize = 8;

fn points(times: &[f64], ys: &[f64]) -> Vec<(f64, f64)> {
    times.iter().copied().zip(ys.iter().copied()).collect()
}

/// Per-flow goodput (each flow when there are few; otherwise the minimum, mean and maximum
/// across flows) above the total. Goodput is what the receiver delivered in order in each
/// probe interval, so the bytes held behind a repaired loss arrive at once and a flow can
/// briefly exceed its link's rate: the titles say so.
pub fn throughput(path: &Path, o: &Outcome) -> Result<(), PlotError> {
    let s = &o.series;
    let per_flow = if o.flows.len() <= MAX_LINES {
        o.flows.iter().enumerate().map(|(i, f)| Series::new(f.name.clone(), points(&s.times, &s.flow_throughput_mbps[i]))).collect()
    } else {
        let across = |pick: fn(&[f64]) -> f64| -> Vec<(f64, f64)> {
            (0..s.times.len()).map(|k| {
                let column: Vec<f64> = s.flow_throughput_mbps.iter().map(|f| f[k]).collect();
                (s.times[k], pick(&column))
            }).collect()
        };
        vec![
            Series::new("max", across(|c| c.iter().copied().fold(f64::NEG_INFINITY, f64::max))),
            Series::new("mean", across(|c| c.iter().sum::<f64>() / c.len() as f64)),
            Series::new("min", across(|c| c.iter().copied().fold(f64::INFINITY, f64::min))),
        ]
    };
    let total: Vec<f64> = (0..s.times.len()).map(|k| s.flow_throughput_mbps.iter().map(|f| f[k]).sum()).collect();
    let what = "bytes delivered in order at the receiver";
    let title = if o.flows.len() <= MAX_LINES { format!("Goodput per flow: {what}") } else { format!("Goodput across {} flows: {what}", o.flows.len()) };
    let panels = [
        Panel { title, x_label: "time (s)".into(), y_label: "goodput (Mb/s)".into(), series: per_flow },
        Panel { title: "Total goodput".into(), x_label: "time (s)".into(), y_label: "goodput (Mb/s)".into(), series: vec![Series::new("all flows", points(&s.times, &total))] },
    ];
    line_panels(path, &panels, 1000, 320)
}

/// Link directions whose mean queue is below this many packets are not worth a line.
const MIN_MEAN_QUEUE: f64 = 0.1;

/// Queue length of the bottleneck and of the other link directions that queued most.
pub fn queue(path: &Path, o: &Outcome) -> Result<(), PlotError> {
    let s = &o.series;
    let mut order: Vec<usize> = (0..o.links.len()).filter(|i| Some(*i) != o.bottleneck).collect();
    // Most queueing first; ties in link order, so the choice is deterministic.
    order.sort_by(|&a, &b| o.links[b].mean_queue_packets.total_cmp(&o.links[a].mean_queue_packets).then(a.cmp(&b)));
    let chosen: Vec<usize> = o.bottleneck.into_iter().chain(order.into_iter().filter(|&i| o.links[i].mean_queue_packets >= MIN_MEAN_QUEUE)).take(MAX_LINES).collect();
    let series = chosen.iter().map(|&i| Series::new(o.links[i].name.clone(), points(&s.times, &s.link_queue_packets[i]))).collect();
    let panel = Panel { title: "Queue length (packets waiting, sampled at each probe interval)".into(), x_label: "time (s)".into(), y_label: "queue (packets)".into(), series };
    line_panels(path, &[panel], 1000, 360)
}
