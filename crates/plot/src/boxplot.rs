//! Box plots in the style of the papers' figures (quartiles, whiskers at min/max), one colour
//! per scheme with one legend, boxes of the same x category side by side, the number of runs
//! above each box, and the paper's value for a box drawn as a cross where the paper gives one.

use crate::drawn::Drawn;
use crate::schemes::{other_color, scheme_color, scheme_name};
use crate::ticks::tick;
use crate::{ensure_font, err, legend, PlotError, HEADROOM};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// One box: its x category, the scheme it belongs to (its colour and legend entry), its
/// samples, and the paper's value if it gives one.
#[derive(Clone, Debug, Default)]
pub struct BoxGroup {
    pub label: String,
    pub scheme: Option<String>,
    pub values: Vec<f64>,
    pub paper: Option<f64>,
}

impl BoxGroup {
    pub fn new(label: impl Into<String>, values: Vec<f64>) -> Self {
        BoxGroup { label: label.into(), values, ..BoxGroup::default() }
    }
    /// The same box with the paper's value for it.
    pub fn paper(self, value: Option<f64>) -> Self {
        BoxGroup { paper: value, ..self }
    }
    /// The same box coloured and named as `scheme` (a results' scheme name, e.g. "olia").
    pub fn scheme(self, scheme: impl Into<String>) -> Self {
        BoxGroup { scheme: Some(scheme.into()), ..self }
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
/// value, with headroom so that no whisker, cross or run count touches the frame.
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

/// The distinct values of `key` over `groups`, in order of first appearance.
fn distinct<'a>(groups: &'a [BoxGroup], key: impl Fn(&'a BoxGroup) -> Option<&'a str>) -> Vec<Option<&'a str>> {
    let mut out: Vec<Option<&str>> = Vec::new();
    for g in groups {
        if !out.contains(&key(g)) {
            out.push(key(g));
        }
    }
    out
}

/// The largest font size (12 down to 10) at which every category label fits its slot on one
/// line; labels that do not fit at 10 px are split at their last space (never smaller).
fn label_layout<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, labels: &[&str], slot: u32) -> (u32, Vec<Vec<String>>) {
    let fits = |l: &str, size: u32| {
        let font = ("sans-serif", size).into_text_style(area);
        area.estimate_text_size(l, &font).map_or(true, |(w, _)| w + 6 <= slot)
    };
    for size in (10..=12).rev() {
        if labels.iter().all(|l| fits(l, size)) {
            return (size, labels.iter().map(|l| vec![l.to_string()]).collect());
        }
    }
    let split = labels.iter().map(|l| if fits(l, 10) { vec![l.to_string()] } else { l.rsplit_once(' ').map_or_else(|| vec![l.to_string()], |(a, b)| vec![a.to_string(), b.to_string()]) });
    (10, split.collect())
}

/// Draws one box per group into a PNG (`box_plot` without the record of what was drawn).
pub fn box_plot(path: &Path, titles: &BoxTitles, groups: &[BoxGroup], width: u32, height: u32) -> Result<(), PlotError> {
    draw_boxes(path, titles, groups, width, height).map(|_| ())
}

/// Draws one box per group into a PNG: categories along x, a group's scheme as its colour
/// and its place within the category, the legend in a band under the title.
pub fn draw_boxes(path: &Path, titles: &BoxTitles, groups: &[BoxGroup], width: u32, height: u32) -> Result<Drawn, PlotError> {
    ensure_font();
    let finite = |g: &BoxGroup| g.values.iter().copied().filter(|v| v.is_finite()).collect::<Vec<f64>>();
    let (lo, hi) = y_range(groups);
    let categories = distinct(groups, |g| Some(g.label.as_str()));
    let schemes = distinct(groups, |g| g.scheme.as_deref());
    let colour = |s: Option<&str>| {
        let k = schemes.iter().position(|x| *x == s).unwrap_or(0);
        s.and_then(scheme_color).unwrap_or_else(|| other_color(k))
    };
    let crosses = groups.iter().any(|g| g.paper.is_some_and(f64::is_finite));
    let mut entries: Vec<(String, legend::Sample)> = schemes.iter().map(|s| (s.map_or_else(|| "ours".to_string(), scheme_name), legend::Sample::Box(colour(*s)))).collect();
    if crosses {
        entries.push((titles.paper.to_string(), legend::Sample::Marker(BLACK)));
    }
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let below_title = root.titled(titles.title, ("sans-serif", 18)).map_err(err(path))?;
    let entries = legend::fit(&below_title, entries, width, crate::MAX_LEGEND_ROWS);
    let band_h = legend::height(&below_title, &entries, width);
    let (band, area) = below_title.split_vertically(band_h);
    let mut chart = ChartBuilder::on(&area)
        .margin(10)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..categories.len().max(1) as f64, lo..hi)
        .map_err(err(path))?;
    chart
        .configure_mesh()
        .x_desc(titles.x_label)
        .y_desc(titles.y_label)
        .disable_x_mesh()
        .x_labels(0)
        .y_label_formatter(&|v| tick(*v))
        .label_style(("sans-serif", 12))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err(path))?;
    let (left, _) = chart.backend_coord(&(0.0, lo));
    let (right, _) = chart.backend_coord(&(categories.len().max(1) as f64, lo));
    let slot = ((right - left) as f64 / categories.len().max(1) as f64).max(1.0);
    // Boxes of a category side by side, each scheme at its own offset in every category.
    let pitch = (0.8 * slot / schemes.len().max(1) as f64).min(40.0);
    let half = ((0.35 * pitch).round() as i32).clamp(2, 12);
    let mut drawn = Drawn { height, legend_height: band_h, ..Drawn::default() };
    let count_font = ("sans-serif", 10).into_text_style(&root).pos(Pos::new(HPos::Center, VPos::Bottom));
    for g in groups {
        let c = categories.iter().position(|x| *x == Some(g.label.as_str())).unwrap_or(0);
        let k = schemes.iter().position(|x| *x == g.scheme.as_deref()).unwrap_or(0);
        let offset = (k as f64 - (schemes.len() as f64 - 1.0) / 2.0) * pitch;
        let x = (f64::from(left) + (c as f64 + 0.5) * slot + offset).round() as i32;
        let y = |v: f64| chart.backend_coord(&(0.0, v)).1;
        let v = finite(g);
        let col = colour(g.scheme.as_deref());
        if !v.is_empty() {
            // Quartiles as plotters computes them, but whiskers at the minimum and maximum
            // as the papers' legends say (plotters' whiskers are Tukey fences).
            let [_, q1, median, q3, _] = Quartiles::new(&v).values();
            let (min, max) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
            let (y_min, y_q1, y_med, y_q3, y_max) = (y(min), y(f64::from(q1)), y(f64::from(median)), y(f64::from(q3)), y(max));
            root.draw(&Rectangle::new([(x - half, y_q3), (x + half, y_q1)], col.mix(0.25).filled())).map_err(err(path))?;
            root.draw(&Rectangle::new([(x - half, y_q3), (x + half, y_q1)], col.stroke_width(1))).map_err(err(path))?;
            for line in [[(x - half, y_med), (x + half, y_med)], [(x, y_q1), (x, y_min)], [(x, y_q3), (x, y_max)], [(x - half / 2, y_min), (x + half / 2, y_min)], [(x - half / 2, y_max), (x + half / 2, y_max)]] {
                root.draw(&PathElement::new(line.to_vec(), col.stroke_width(2))).map_err(err(path))?;
            }
            let top = g.paper.filter(|p| p.is_finite()).map_or(y_max, |p| y_max.min(y(p) - 7));
            root.draw(&Text::new(format!("n={}", v.len()), (x, top - 3), count_font.clone())).map_err(err(path))?;
        }
        drawn.counts.push(v.len());
        if let Some(p) = g.paper.filter(|p| p.is_finite()) {
            root.draw(&Cross::new((x, y(p)), 6, BLACK.stroke_width(2))).map_err(err(path))?;
            drawn.paper_marks += 1;
        }
    }
    let labels: Vec<&str> = categories.iter().map(|c| c.unwrap_or("")).collect();
    let (size, lines) = label_layout(&root, &labels, slot as u32);
    let style = ("sans-serif", size).into_text_style(&root).pos(Pos::new(HPos::Center, VPos::Top));
    let (_, axis) = chart.backend_coord(&(0.0, lo));
    for (c, label) in lines.iter().enumerate() {
        let x = (f64::from(left) + (c as f64 + 0.5) * slot).round() as i32;
        for (k, line) in label.iter().enumerate() {
            root.draw(&Text::new(line.clone(), (x, axis + 6 + k as i32 * (size as i32 + 2)), style.clone())).map_err(err(path))?;
        }
    }
    drawn.legend = legend::draw(&band, &entries).map_err(err(path))?;
    root.present().map_err(err(path))?;
    Ok(drawn)
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
    }
}
