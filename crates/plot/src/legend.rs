//! Legends as a compact band of entries above the chart, wrapped to as many rows as needed, so
//! that no legend covers data and none takes a strip of its own beside the chart.

use crate::drawn::LegendEntry;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Height of one legend row, in pixels.
const ROW: u32 = 18;
const FONT: u32 = 12;

/// How an entry's sample is drawn.
#[derive(Clone, Copy, Debug)]
pub enum Sample {
    Line(RGBColor),
    Marker(RGBColor),
    Box(RGBColor),
}

impl Sample {
    fn name(self) -> &'static str {
        match self {
            Sample::Line(_) => "line",
            Sample::Marker(_) => "marker",
            Sample::Box(_) => "box",
        }
    }
}

/// Each entry's top-left corner within a band `width` wide, and the band's height.
fn layout<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[(String, Sample)], width: u32) -> (Vec<(i32, i32)>, u32) {
    let font = ("sans-serif", FONT).into_text_style(area);
    let (mut x, mut y, mut at) = (8_i32, 2_i32, Vec::new());
    for (label, _) in entries {
        let w = 30 + area.estimate_text_size(label, &font).map_or(8 * label.len() as u32, |(w, _)| w) as i32 + 18;
        if x > 8 && x + w > width as i32 {
            (x, y) = (8, y + ROW as i32);
        }
        at.push((x, y));
        x += w;
    }
    let height = if entries.is_empty() { 0 } else { y as u32 + ROW + 4 };
    (at, height)
}

/// At most `rows` rows of `entries`: a figure with many lines (a capture's flows) names the
/// first ones and says how many more there are, rather than giving its canvas to names.
pub fn fit<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: Vec<(String, Sample)>, width: u32, rows: u32) -> Vec<(String, Sample)> {
    if layout(area, &entries, width).1 <= rows * ROW + 4 {
        return entries;
    }
    let mut keep = entries.len();
    while keep > 0 {
        keep -= 1;
        let mut head = entries[..keep].to_vec();
        head.push((format!("and {} more", entries.len() - keep), Sample::Line(WHITE)));
        if layout(area, &head, width).1 <= rows * ROW + 4 {
            return head;
        }
    }
    Vec::new()
}

/// The height the legend of `entries` takes in a band `width` wide.
pub fn height<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[(String, Sample)], width: u32) -> u32 {
    layout(area, entries, width).1
}

/// Draws `entries` into `band` (as wide as the figure, [`height`] tall); returns what it drew.
pub fn draw<DB: DrawingBackend>(band: &DrawingArea<DB, Shift>, entries: &[(String, Sample)]) -> Result<Vec<LegendEntry>, DrawingAreaErrorKind<DB::ErrorType>> {
    let font = ("sans-serif", FONT).into_font();
    let (at, _) = layout(band, entries, band.dim_in_pixel().0);
    let mut drawn = Vec::new();
    for ((label, sample), (x, y)) in entries.iter().zip(at) {
        let mid = y + ROW as i32 / 2;
        match *sample {
            Sample::Line(c) => band.draw(&PathElement::new(vec![(x, mid), (x + 22, mid)], c.stroke_width(2)))?,
            Sample::Marker(c) => band.draw(&Cross::new((x + 11, mid), 5, c.stroke_width(2)))?,
            Sample::Box(c) => band.draw(&Rectangle::new([(x + 4, mid - 6), (x + 18, mid + 6)], c.filled()))?,
        }
        band.draw_text(label, &font.color(&BLACK), (x + 28, mid - 7))?;
        drawn.push(LegendEntry { text: label.clone(), sample: sample.name() });
    }
    Ok(drawn)
}
