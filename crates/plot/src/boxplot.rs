//! Box plots in the style of the papers' figures (quartiles, whiskers at min/max), with the
//! paper's value for a box drawn as a cross beside ours where the paper gives one.

use crate::{color, ensure_font, err, legend, PlotError, HEADROOM};
use plotters::prelude::*;
use std::path::Path;

/// One box: a label on the x axis, its samples, and the paper's value if it gives one.
#[derive(Clone, Debug, Default)]
pub struct BoxGroup {
    pub label: String,
    pub values: Vec<f64>,
    pub paper: Option<f64>,
}

impl BoxGroup {
    pub fn new(label: impl Into<String>, values: Vec<f64>) -> Self {
        BoxGroup { label: label.into(), values, paper: None }
    }
    /// The same box with the paper's value for it.
    pub fn paper(self, value: Option<f64>) -> Self {
        BoxGroup { paper: value, ..self }
    }
}

/// Titles of a box plot: the chart's, each axis's (with units), and whose the crosses are.
#[derive(Clone, Debug, Default)]
pub struct BoxTitles<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    /// Legend text of the paper's crosses, e.g. "S0 (read off Fig. 5)".
    pub paper: &'a str,
}

/// The y range: from 0 (or the lowest value, if negative) to the highest value or paper
/// value, with headroom so that no whisker or cross touches the frame.
fn y_range(groups: &[BoxGroup]) -> (f64, f64) {
    let all = groups.iter().flat_map(|g| g.values.iter().copied().chain(g.paper)).filter(|v| v.is_finite());
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let lo = lo.min(0.0);
    let margin = HEADROOM * (hi - lo).max(1e-9);
    (if lo < 0.0 { lo - margin } else { lo }, hi + margin)
}

/// Draws one box per group into a PNG, the legend in a strip to the right.
pub fn box_plot(path: &Path, titles: &BoxTitles, groups: &[BoxGroup], width: u32, height: u32) -> Result<(), PlotError> {
    ensure_font();
    let finite = |g: &BoxGroup| g.values.iter().copied().filter(|v| v.is_finite()).collect::<Vec<f64>>();
    let (lo, hi) = y_range(groups);
    let labels: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let (area, strip) = root.split_horizontally(width.saturating_sub(legend::WIDTH));
    let mut chart = ChartBuilder::on(&area)
        .caption(titles.title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(56)
        .y_label_area_size(60)
        .build_cartesian_2d(labels.as_slice().into_segmented(), lo as f32..hi as f32)
        .map_err(err(path))?;
    chart
        .configure_mesh()
        .x_desc(titles.x_label)
        .y_desc(titles.y_label)
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
            .draw_series(std::iter::once(Boxplot::new_vertical(SegmentValue::CenterOf(&labels[i]), &q).style(color(i)).width(24)))
            .map_err(err(path))?;
    }
    let crosses: Vec<(usize, f64)> = groups.iter().enumerate().filter_map(|(i, g)| g.paper.filter(|p| p.is_finite()).map(|p| (i, p))).collect();
    // Drawn in pixels on the whole image: plotters' element API would need the labels
    // borrowed for 'static in data coordinates.
    for &(i, p) in &crosses {
        let at = chart.backend_coord(&(SegmentValue::CenterOf(&labels[i]), p as f32));
        root.draw(&Cross::new(at, 7, BLACK.stroke_width(2))).map_err(err(path))?;
    }
    let mut entries = vec![("ours: quartiles, whiskers min-max".to_string(), legend::Sample::Box(color(0)))];
    if !crosses.is_empty() {
        entries.push((titles.paper.to_string(), legend::Sample::Marker(BLACK)));
    }
    legend::draw(&strip, &entries).map_err(err(path))?;
    root.present().map_err(err(path))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_holds_every_value_and_paper_value_with_headroom() {
        let groups = [BoxGroup::new("a", vec![0.5, 1.0]), BoxGroup::new("b", vec![0.8]).paper(Some(2.0))];
        let (lo, hi) = y_range(&groups);
        assert_eq!(lo, 0.0);
        assert!((hi - 2.0 * (1.0 + HEADROOM)).abs() < 1e-9, "{hi}");
        let dir = std::env::temp_dir().join(format!("pathpool-box-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let titles = BoxTitles { title: "t", x_label: "scheme", y_label: "ratio", paper: "S0" };
        box_plot(&dir.join("b.png"), &titles, &groups, 700, 400).unwrap();
        assert_eq!(&std::fs::read(dir.join("b.png")).unwrap()[1..4], b"PNG");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
