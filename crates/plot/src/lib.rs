//! PNG charts for pathpool's outputs: stacked line-chart panels, box plots and CDFs.
//!
//! The font is embedded so that rendering needs no system font libraries.

use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

mod boxplot;
pub use boxplot::{box_plot, BoxGroup};

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

pub(crate) fn ensure_font() {
    REGISTER.call_once(|| {
        // Registration fails only on a corrupt font file, which is a build defect.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// One named line in a panel.
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

impl Series {
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { label: label.into(), points }
    }
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

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

pub(crate) fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

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
    let pad = |(lo, hi): (f64, f64)| {
        if hi - lo < 1e-12 {
            (lo - 0.5, hi + 0.5)
        } else {
            (lo, hi + 0.05 * (hi - lo))
        }
    };
    // Rates and windows are non-negative: start the y axis at zero when the data allow.
    let ys = if ys.0 >= 0.0 { (0.0, ys.1) } else { ys };
    (pad(xs), pad(ys))
}

/// Draws the panels stacked vertically into one PNG, `width` x (`panel_height` * panels).
pub fn line_panels(path: &Path, panels: &[Panel], width: u32, panel_height: u32) -> Result<(), PlotError> {
    ensure_font();
    let height = panel_height * panels.len().max(1) as u32;
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let areas = root.split_evenly((panels.len().max(1), 1));
    for (panel, area) in panels.iter().zip(areas.iter()) {
        let ((x0, x1), (y0, y1)) = bounds(panel);
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.title, ("sans-serif", 18))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err(path))?;
        chart
            .configure_mesh()
            .x_desc(&panel.x_label)
            .y_desc(&panel.y_label)
            .label_style(("sans-serif", 12))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err(path))?;
        for (i, s) in panel.series.iter().enumerate() {
            let c = color(i);
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(1)))
                .map_err(err(path))?
                .label(s.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2)));
        }
        if panel.series.iter().any(|s| !s.label.is_empty()) {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .label_font(("sans-serif", 12))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(err(path))?;
        }
    }
    root.present().map_err(err(path))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        line_panels(&path, &[panel.clone(), panel], 640, 240).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
