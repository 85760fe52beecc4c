//! What a figure actually drew, returned by the renderers so that tests (and callers) can check
//! a figure without reading its pixels back.

/// One legend entry as drawn: its text and how its sample looks.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    pub text: String,
    pub sample: &'static str,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// The legend, in order (one per figure or per panel, concatenated).
    pub legend: Vec<LegendEntry>,
    /// Paper values drawn: crosses on boxes and reference lines or markers in line panels.
    pub paper_marks: usize,
    /// The "n = ..." labels drawn above the boxes, in the boxes' order.
    pub counts: Vec<usize>,
    /// The height of the legend band(s) in pixels, and the figure's height.
    pub legend_height: u32,
    pub height: u32,
}
