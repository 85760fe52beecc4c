//! Box plots in the style of the papers' figures (quartiles, whiskers at min/max), with the
//! paper's value for a box drawn as a cross beside ours where the paper gives one.

use crate::{color, ensure_font, err, legend, PlotError, HEADROOM};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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

/// The x labels as lines: each label whole if every one fits its slot of the `plot_width`
/// pixels at `size`, else split at its last space ("uncoupled SF1" over two lines), so
/// that neighbouring labels never run into each other.
fn label_lines(labels: &[String]) -> Vec<Vec<String>> {
    labels.iter().map(|l| l.rsplit_once(' ').map_or_else(|| vec![l.clone()], |(a, b)| vec![a.to_string(), b.to_string()])).collect()
}

/// The largest font size (12 down to 7) and line layout at which every x label fits its slot.
fn label_layout<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, labels: &[String], plot_width: u32) -> (u32, Vec<Vec<String>>) {
    let slot = plot_width / labels.len().max(1) as u32;
    let fits = |lines: &[Vec<String>], size: u32| {
        let font = ("sans-serif", size).into_text_style(area);
        lines.iter().flatten().all(|l| area.estimate_text_size(l, &font).map_or(true, |(w, _)| w + 6 <= slot))
    };
    let whole: Vec<Vec<String>> = labels.iter().map(|l| vec![l.clone()]).collect();
    let split = label_lines(labels);
    for size in (7..=12).rev() {
        for lines in [&whole, &split] {
            if fits(lines, size) {
                return (size, lines.clone());
            }
        }
    }
    (7, split)
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
        // The x labels are drawn below, one or two lines each.
        .x_label_formatter(&|_| String::new())
        .label_style(("sans-serif", 12))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err(path))?;
    for (i, g) in groups.iter().enumerate() {
        let v = finite(g);
        if v.is_empty() {
            continue;
        }
        // Quartiles as plotters computes them, but whiskers at the minimum and maximum as the
        // legend says (plotters' own whiskers are Tukey fences, 1.5 IQR beyond the box, which
        // can reach past every sample). Drawn in pixels, as the crosses below.
        let [_, q1, median, q3, _] = Quartiles::new(&v).values();
        let (min, max) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
        let px = |y: f64| chart.backend_coord(&(SegmentValue::CenterOf(&labels[i]), y as f32));
        let (x, style) = (px(f64::from(median)).0, color(i).stroke_width(1));
        let (y_min, y_q1, y_med, y_q3, y_max) = (px(min).1, px(f64::from(q1)).1, px(f64::from(median)).1, px(f64::from(q3)).1, px(max).1);
        root.draw(&Rectangle::new([(x - 12, y_q3), (x + 12, y_q1)], style)).map_err(err(path))?;
        for line in [[(x - 12, y_med), (x + 12, y_med)], [(x, y_q1), (x, y_min)], [(x, y_q3), (x, y_max)], [(x - 6, y_min), (x + 6, y_min)], [(x - 6, y_max), (x + 6, y_max)]] {
            root.draw(&PathElement::new(line.to_vec(), style)).map_err(err(path))?;
        }
    }
    let (size, lines) = label_layout(&root, &labels, width.saturating_sub(legend::WIDTH + 80));
    let style = ("sans-serif", size).into_text_style(&root).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, label) in lines.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(SegmentValue::CenterOf(&labels[i]), lo as f32));
        for (k, line) in label.iter().enumerate() {
            root.draw(&Text::new(line.clone(), (x, y + 6 + k as i32 * (size as i32 + 2)), style.clone())).map_err(err(path))?;
        }
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

    /// S0 Fig. 2a's twelve boxes at the report's 1000 px: each label fits its slot at a
    /// readable size (they ran into each other at a fixed 10 px).
    #[test]
    fn twelve_labels_fit_their_slots() {
        let labels: Vec<String> = ["uncoupled", "lia", "olia", "balia"].iter().flat_map(|cc| ["SF1", "SF2", "sum"].map(|s| format!("{cc} {s}"))).collect();
        let dir = std::env::temp_dir().join(format!("pathpool-box-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fig2a.png");
        {
            // Measured on a scratch bitmap (a bitmap backend writes its file when dropped).
            let scratch = dir.join("measure.png");
            let root = BitMapBackend::new(&scratch, (1000, 500)).into_drawing_area();
            ensure_font();
            let (size, lines) = label_layout(&root, &labels, 1000 - legend::WIDTH - 80);
            assert!(size >= 10, "labels shrink to {size} px");
            let slot = (1000 - legend::WIDTH - 80) / 12;
            let font = ("sans-serif", size).into_text_style(&root);
            for l in lines.iter().flatten() {
                let (w, _) = root.estimate_text_size(l, &font).unwrap();
                assert!(w < slot, "{l}: {w} px in a slot of {slot}");
            }
            assert_eq!(lines[0], ["uncoupled", "SF1"]);
        }
        let groups: Vec<BoxGroup> = labels.iter().map(|l| BoxGroup::new(l.clone(), vec![0.4, 0.5, 0.6])).collect();
        let titles = BoxTitles { title: "NSB-2", x_label: "scheme, subflow", y_label: "ratio", paper: "S0" };
        box_plot(&path, &titles, &groups, 1000, 500).unwrap();
        if std::env::var_os("PATHPOOL_KEEP_PLOT").is_none() {
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
