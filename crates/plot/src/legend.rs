//! Legends drawn beside the chart, in a strip of their own, so that no legend covers data.

use plotters::coord::Shift;
use plotters::prelude::*;

/// Width of the legend strip right of a chart, in pixels.
pub const WIDTH: u32 = 230;

/// How an entry's sample is drawn.
#[derive(Clone, Copy, Debug)]
pub enum Sample {
    Line(RGBColor),
    Marker(RGBColor),
    Box(RGBColor),
}

/// Draws `entries` top-down into `area` (the strip), starting level with the chart's top.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[(String, Sample)]) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let font = ("sans-serif", 12).into_font();
    for (i, (label, sample)) in entries.iter().enumerate() {
        let y = 40 + 18 * i as i32;
        match *sample {
            Sample::Line(c) => area.draw(&PathElement::new(vec![(6, y), (26, y)], c.stroke_width(2)))?,
            Sample::Marker(c) => area.draw(&Cross::new((16, y), 5, c.stroke_width(2)))?,
            Sample::Box(c) => area.draw(&Rectangle::new([(8, y - 5), (24, y + 5)], c.stroke_width(1)))?,
        }
        area.draw_text(label, &font.color(&BLACK), (32, y - 7))?;
    }
    Ok(())
}
