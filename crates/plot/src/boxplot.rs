//! Box plots in the style of the papers' figures (quartiles, whiskers at min/max).

use crate::{color, ensure_font, err, PlotError};
use plotters::prelude::*;
use std::path::Path;

/// One box: a label on the x axis and its samples.
#[derive(Clone, Debug, Default)]
pub struct BoxGroup {
    pub label: String,
    pub values: Vec<f64>,
}

/// Draws one box per group into a PNG.
pub fn box_plot(path: &Path, title: &str, y_label: &str, groups: &[BoxGroup], width: u32, height: u32) -> Result<(), PlotError> {
    ensure_font();
    let finite = |g: &BoxGroup| g.values.iter().copied().filter(|v| v.is_finite()).collect::<Vec<f64>>();
    let all: Vec<f64> = groups.iter().flat_map(finite).collect();
    let (lo, hi) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    let (lo, hi) = if lo.is_finite() { (lo.min(0.0), hi + 0.1 * (hi - lo).max(1e-9)) } else { (0.0, 1.0) };
    let labels: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(labels.as_slice().into_segmented(), lo as f32..hi as f32)
        .map_err(err(path))?;
    chart
        .configure_mesh()
        .y_desc(y_label)
        .x_labels(groups.len())
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(s) | SegmentValue::Exact(s) => (*s).clone(),
            SegmentValue::Last => String::new(),
        })
        .label_style(("sans-serif", if groups.len() > 10 { 10 } else { 12 }))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err(path))?;
    for (i, g) in groups.iter().enumerate() {
        let v = finite(g);
        if v.is_empty() {
            continue;
        }
        let q = Quartiles::new(&v);
        chart
            .draw_series(std::iter::once(
                Boxplot::new_vertical(SegmentValue::CenterOf(&labels[i]), &q).style(color(i)).width(24),
            ))
            .map_err(err(path))?;
    }
    root.present().map_err(err(path))?;
    Ok(())
}
