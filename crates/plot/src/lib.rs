//! PNG charts for pathpool's outputs: stacked line-chart panels, box plots and CDFs.
//!
//! The font is embedded so that rendering needs no system font libraries.

use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

mod boxplot;
mod drawn;
mod legend;
mod schemes;
mod ticks;
pub use boxplot::{box_plot, draw_boxes, BoxGroup, BoxTitles};
pub use drawn::{Drawn, LegendEntry};
pub use schemes::{scheme_color, scheme_name};
pub use ticks::tick;

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

pub(crate) fn ensure_font() {
    REGISTER.call_once(|| {
        // Registration fails only on a corrupt font file, which is a build defect.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Style {
    /// Straight lines between the points (a time series sampled at these times).
    #[default]
    Line,
    /// A step function: the value of a point holds until the next point's x, where it jumps
    /// (empirical CDFs, phases that switch at an instant).
    Step,
    /// Markers only.
    Markers,
    /// A paper's published value as a black line (e.g. a mean drawn as a vertical line).
    Reference,
    /// A paper's published values as black crosses.
    PaperMarkers,
}

/// One named line in a panel.
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub style: Style,
    /// The scheme the series shows (its colour, the same in every figure), if it is one.
    pub scheme: Option<String>,
}

impl Series {
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { label: label.into(), points, style: Style::Line, scheme: None }
    }
    pub fn step(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { style: Style::Step, ..Series::new(label, points) }
    }
    pub fn markers(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { style: Style::Markers, ..Series::new(label, points) }
    }
    /// A paper's value drawn as a black line through `points`.
    pub fn reference(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { style: Style::Reference, ..Series::new(label, points) }
    }
    /// A paper's values drawn as black crosses.
    pub fn paper_markers(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { style: Style::PaperMarkers, ..Series::new(label, points) }
    }
    /// The same series coloured as `scheme` (a results' scheme name, e.g. "olia").
    pub fn scheme(self, scheme: impl Into<String>) -> Self {
        Series { scheme: Some(scheme.into()), ..self }
    }
}

/// The corners of a step function through `points`: each value holds until the next x.
pub fn step_path(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut path = Vec::with_capacity(2 * points.len());
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            path.push((x, points[i - 1].1));
        }
        path.push((x, y));
    }
    path
}

/// One chart: a title, axis labels and its lines.
#[derive(Clone, Debug, Default)]
pub struct Panel {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
}

#[derive(Debug)]
pub struct PlotError(pub String);

impl std::fmt::Display for PlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "plot: {}", self.0)
    }
}
impl std::error::Error for PlotError {}

pub(crate) fn err<E: std::fmt::Display>(path: &Path) -> impl Fn(E) -> PlotError + '_ {
    move |e| PlotError(format!("{}: {e}", path.display()))
}

/// Legend rows at the most (a capture with many flows names the first ones).
pub(crate) const MAX_LEGEND_ROWS: u32 = 3;

/// Headroom above the data, as a fraction of the data's range.
pub(crate) const HEADROOM: f64 = 0.1;

fn bounds(panel: &Panel) -> ((f64, f64), (f64, f64)) {
    let mut xs = (f64::INFINITY, f64::NEG_INFINITY);
    let mut ys = (f64::INFINITY, f64::NEG_INFINITY);
    for s in &panel.series {
        for &(x, y) in s.points.iter().filter(|(x, y)| x.is_finite() && y.is_finite()) {
            xs = (xs.0.min(x), xs.1.max(x));
            ys = (ys.0.min(y), ys.1.max(y));
        }
    }
    if !xs.0.is_finite() {
        return ((0.0, 1.0), (0.0, 1.0));
    }
    let flat = |(lo, hi): (f64, f64)| if hi - lo < 1e-12 { (lo - 0.5, hi + 0.5) } else { (lo, hi) };
    // Rates and windows are non-negative: start the y axis at zero when the data allow.
    let ys = if ys.0 >= 0.0 { (0.0, ys.1) } else { ys };
    // Headroom above the highest point (and below a negative lowest), so that no line or
    // marker runs along the frame; x spans the data exactly.
    let (y0, y1) = flat(ys);
    let margin = HEADROOM * (y1 - y0);
    (flat(xs), (if y0 < 0.0 { y0 - margin } else { y0 }, y1 + margin))
}

/// Draws the panels stacked vertically into one PNG, `width` x (`panel_height` * panels).
pub fn line_panels(path: &Path, panels: &[Panel], width: u32, panel_height: u32) -> Result<(), PlotError> {
    draw_panels(path, panels, width, panel_height).map(|_| ())
}

/// The colour of each series of a panel: its scheme's, else the next colour for non-schemes.
fn series_colors(panel: &Panel) -> Vec<RGBColor> {
    let mut others = 0;
    panel
        .series
        .iter()
        .map(|s| match (s.style, s.scheme.as_deref().and_then(scheme_color)) {
            (Style::Reference | Style::PaperMarkers, _) => BLACK,
            (_, Some(c)) => c,
            (_, None) => {
                others += 1;
                schemes::other_color(others - 1)
            }
        })
        .collect()
}

/// [`line_panels`], returning what was drawn: each panel's legend sits in a band under its
/// title, as wide as the figure.
pub fn draw_panels(path: &Path, panels: &[Panel], width: u32, panel_height: u32) -> Result<Drawn, PlotError> {
    ensure_font();
    let height = panel_height * panels.len().max(1) as u32;
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let areas = root.split_evenly((panels.len().max(1), 1));
    let mut drawn = Drawn { height, ..Drawn::default() };
    for (panel, area) in panels.iter().zip(areas.iter()) {
        let ((x0, x1), (y0, y1)) = bounds(panel);
        let colors = series_colors(panel);
        let entries: Vec<(String, legend::Sample)> = panel
            .series
            .iter()
            .zip(&colors)
            .filter(|(s, _)| !s.label.is_empty())
            .map(|(s, &c)| {
                let sample = match s.style {
                    Style::Markers | Style::PaperMarkers => legend::Sample::Marker(c),
                    _ => legend::Sample::Line(c),
                };
                (s.label.clone(), sample)
            })
            .collect();
        let below_title = area.titled(&panel.title, ("sans-serif", 16)).map_err(err(path))?;
        let entries = legend::fit(&below_title, entries, width, MAX_LEGEND_ROWS);
        let band_h = legend::height(&below_title, &entries, width);
        let (band, area) = below_title.split_vertically(band_h);
        let mut chart = ChartBuilder::on(&area)
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err(path))?;
        chart
            .configure_mesh()
            .x_desc(&panel.x_label)
            .y_desc(&panel.y_label)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .label_style(("sans-serif", 12))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err(path))?;
        for (s, &c) in panel.series.iter().zip(&colors) {
            match s.style {
                Style::Line => chart.draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(1))).map(|_| ()),
                Style::Step => chart.draw_series(LineSeries::new(step_path(&s.points), c.stroke_width(2))).map(|_| ()),
                Style::Reference => chart.draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2))).map(|_| ()),
                Style::Markers | Style::PaperMarkers => chart.draw_series(s.points.iter().map(|&p| Cross::new(p, 5, c.stroke_width(2)))).map(|_| ()),
            }
            .map_err(err(path))?;
            // A reference line is one paper value; paper markers one per point.
            drawn.paper_marks += match s.style {
                Style::Reference => usize::from(!s.points.is_empty()),
                Style::PaperMarkers => s.points.len(),
                _ => 0,
            };
        }
        drawn.legend.extend(legend::draw(&band, &entries).map_err(err(path))?);
        drawn.legend_height += band_h;
    }
    root.present().map_err(err(path))?;
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_holds_each_value_until_the_next_x() {
        assert_eq!(step_path(&[(0.0, 1.0), (2.0, 0.0), (3.0, 1.0)]), vec![(0.0, 1.0), (2.0, 1.0), (2.0, 0.0), (3.0, 0.0), (3.0, 1.0)]);
    }

    #[test]
    fn the_y_axis_has_headroom_above_the_data() {
        let panel = Panel { series: vec![Series::new("a", vec![(0.0, 2.0), (10.0, 54.0)])], ..Panel::default() };
        let ((x0, x1), (y0, y1)) = bounds(&panel);
        assert_eq!((x0, x1), (0.0, 10.0));
        assert_eq!(y0, 0.0);
        assert!((y1 - 54.0 * (1.0 + HEADROOM)).abs() < 1e-9, "{y1}");
    }

    #[test]
    fn renders_a_png_with_text() {
        let dir = std::env::temp_dir().join(format!("pathpool-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.png");
        let panel = Panel {
            title: "sine".into(),
            x_label: "t".into(),
            y_label: "y".into(),
            series: vec![Series::new("a", (0..100).map(|i| (i as f64, (i as f64 / 10.0).sin())).collect())],
        };
        let mut steps = panel.clone();
        steps.series.push(Series::step("steps", vec![(0.0, 0.0), (50.0, 1.0)]));
        steps.series.push(Series::markers("paper", vec![(20.0, 0.5)]));
        line_panels(&path, &[panel, steps], 640, 240).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
