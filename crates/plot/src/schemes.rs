//! One colour per scheme, the same in every figure, so that a reader who learnt that OLIA is
//! orange in one figure finds it orange in the next. Anything that is not a scheme (paths,
//! flows, detectors) takes a fixed sequence of colours, which reuses some schemes' colours: a
//! figure colours either schemes or such series, never both.

use plotters::style::RGBColor;

/// (scheme as the results name it, colour, legend name). The legend names say which detector
/// an MPTCP-SBD run used: the reproductions run S0's, `--cc mptcp-sbd` the pathpool preset.
const SCHEMES: [(&str, RGBColor, &str); 18] = [
    ("uncoupled", RGBColor(127, 127, 127), "uncoupled"),
    ("uncoupled-cubic", RGBColor(199, 199, 199), "uncoupled CUBIC"),
    ("lia", RGBColor(31, 119, 180), "LIA"),
    ("olia", RGBColor(255, 127, 14), "OLIA"),
    ("balia", RGBColor(44, 160, 44), "BALIA"),
    ("wvegas", RGBColor(140, 86, 75), "wVegas"),
    ("mptcp-sbd", RGBColor(214, 39, 40), "MPTCP-SBD, S0's detector"),
    ("mptcp-sbd+pathpool", RGBColor(148, 103, 189), "MPTCP-SBD, pathpool preset (default)"),
    ("mptcp-sbd+corr", RGBColor(227, 119, 194), "MPTCP-SBD, S0's + correlation split"),
    ("mptcp-sbd+rfc8382", RGBColor(188, 189, 34), "MPTCP-SBD, rfc8382 preset"),
    ("mptcp-sbd-pairwise", RGBColor(255, 152, 150), "MPTCP-SBD, pairwise groups"),
    ("tr-lia", RGBColor(23, 190, 207), "TR-LIA"),
    ("ssc-lia", RGBColor(120, 20, 20), "SSC-LIA"),
    ("fully-coupled", RGBColor(0, 0, 128), "fully coupled"),
    ("linked-increases", RGBColor(31, 119, 180), "linked increases (LIA)"),
    ("cubic", RGBColor(0, 128, 128), "CUBIC"),
    ("reno", RGBColor(64, 64, 64), "Reno"),
    ("optimum", RGBColor(0, 0, 0), "optimum"),
];

/// Colours for series that are not schemes, in order.
const OTHERS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// The colour of a scheme (`None` for a name that is not one).
pub fn scheme_color(scheme: &str) -> Option<RGBColor> {
    SCHEMES.iter().find(|(k, _, _)| k.eq_ignore_ascii_case(scheme)).map(|&(_, c, _)| c)
}

/// A scheme's name in a legend (the name itself where it has none of its own).
pub fn scheme_name(scheme: &str) -> String {
    SCHEMES.iter().find(|(k, _, _)| k.eq_ignore_ascii_case(scheme)).map_or_else(|| scheme.to_string(), |&(_, _, n)| n.to_string())
}

/// The colour of the `i`-th series that is not a scheme.
pub(crate) fn other_color(i: usize) -> RGBColor {
    OTHERS[i % OTHERS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scheme_has_its_own_colour_except_lia_under_s1s_name() {
        for (i, a) in SCHEMES.iter().enumerate() {
            for b in &SCHEMES[i + 1..] {
                let same = a.1 == b.1;
                assert_eq!(same, (a.0, b.0) == ("lia", "linked-increases"), "{} and {}", a.0, b.0);
            }
        }
        assert_eq!(scheme_color("OLIA"), scheme_color("olia"));
        assert_eq!(scheme_color("node"), None);
    }
}
