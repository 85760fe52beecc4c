//! The verdict that opens report.md: each headline claim of a paper, our number, the paper's,
//! whether they agree (ours inside a stated range around the paper's) and, where they do not,
//! the one-line reason with the section that explains it.

use crate::numbers::fmt;
use std::ops::RangeInclusive;

#[derive(Clone, Debug)]
pub struct Claim {
    pub claim: String,
    pub ours: Option<f64>,
    /// The paper's number as the paper states it.
    pub paper: String,
    /// Ours agrees with the paper when it lies in this range.
    pub agree: RangeInclusive<f64>,
    /// Why ours differs, where it does (shown only then).
    pub why: &'static str,
    /// For a claim over detected events (a mean delay to detection): how many were missed.
    pub misses: Option<Misses>,
}

/// Events a claim's number leaves out because they never happened (transitions never
/// detected), against how many the paper reports missing: ours agrees only within that.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Misses {
    pub missed: usize,
    pub total: usize,
    /// How many the paper reports missing (0 where it reports none).
    pub paper: usize,
}

impl Claim {
    pub fn new(claim: impl Into<String>, ours: Option<f64>, paper: impl Into<String>, agree: RangeInclusive<f64>, why: &'static str) -> Self {
        Claim { claim: claim.into(), ours, paper: paper.into(), agree, why, misses: None }
    }

    /// The same claim over detected events only: `missed` of `total` were never detected,
    /// where the paper reports `paper` missed.
    pub fn misses(self, missed: usize, total: usize, paper: usize) -> Self {
        Claim { misses: Some(Misses { missed, total, paper }), ..self }
    }

    /// Whether more events were missed than the paper reports.
    fn misses_more(&self) -> bool {
        self.misses.is_some_and(|m| m.missed > m.paper)
    }

    /// "agrees", "differs" or "not measured".
    pub fn verdict(&self) -> &'static str {
        match self.ours {
            Some(x) if self.agree.contains(&x) && !self.misses_more() => "agrees",
            Some(x) if x.is_finite() => "differs",
            _ => "not measured",
        }
    }

    fn row(&self, quick: bool) -> Vec<String> {
        let (lo, hi) = (self.agree.start(), self.agree.end());
        // Rounded: a range computed as 0.702 - 0.15 reads 0.552, not 0.5519999999999999.
        let r = |x: f64| (x * 1000.0).round() / 1000.0;
        let range = if hi.is_infinite() { format!("at least {}", r(*lo)) } else { format!("{} - {}", r(*lo), r(*hi)) };
        let why = match (self.verdict(), self.why.is_empty(), quick) {
            ("differs", false, _) => self.why,
            // A claim that agreed whenever it was measured in full has no recorded reason.
            ("differs", true, true) => UNEXPLAINED_QUICK,
            ("differs", true, false) => UNEXPLAINED,
            _ => "",
        };
        let in_range = self.ours.is_some_and(|x| self.agree.contains(&x));
        let (ours, paper, why) = match self.misses {
            None => (fmt(self.ours), self.paper.clone(), why.to_string()),
            Some(m) => {
                let ours = format!("{} of {} detected; mean of those {}", m.total - m.missed, m.total, fmt(self.ours));
                let paper = if m.paper == 0 { format!("{}, none missed", self.paper) } else { format!("{}, {} missed", self.paper, m.paper) };
                let missed = format!("{} of {} never detected, more than the paper's {}", m.missed, m.total, m.paper);
                let why = match (self.misses_more(), in_range) {
                    (true, true) => missed,
                    (true, false) => format!("{missed}; {why}"),
                    (false, _) => why.to_string(),
                };
                (ours, paper, why)
            }
        };
        vec![self.claim.clone(), ours, format!("{paper} (agrees: {range})"), self.verdict().to_string(), why]
    }
}

const UNEXPLAINED_QUICK: &str = "quick preset: fewer seeds and shorter runs; check the full preset's number before reading more into it";
const UNEXPLAINED: &str = "no explanation recorded yet; see the paper's section below";

/// The verdict section in Markdown: one table over `papers` (name, claims), and what preset
/// it was run with.
pub fn markdown(papers: &[(&str, Vec<Claim>)], quick: bool, full_numbers: &str) -> String {
    let mut s = String::from("## Verdict\n\n");
    if quick {
        s.push_str(&format!(
            "**Quick preset**: fewer seeds and shorter runs than the papers', so medians are noisier and some rows differ that agree in the full run. The full preset's numbers: {full_numbers}.\n\n"
        ));
    } else {
        s.push_str("Full preset: every experiment with the seeds and durations the sections below state.\n\n");
    }
    s.push_str("| paper | claim | ours | paper's | verdict | where it differs, why |\n|---|---|---|---|---|---|\n");
    for (paper, claims) in papers {
        for c in claims {
            let r = c.row(quick);
            s.push_str(&format!("| {paper} | {} |\n", r.join(" | ")));
        }
    }
    let unjudged: Vec<&str> = papers.iter().filter(|p| p.1.is_empty()).map(|p| p.0).collect();
    if !unjudged.is_empty() {
        s.push_str(&format!("\nNo headline claims judged for {} yet: their sections compare table by table.\n", unjudged.join(", ")));
    }
    let counts = |v: &str| papers.iter().flat_map(|p| &p.1).filter(|c| c.verdict() == v).count();
    s.push_str(&format!("\n{} claims agree, {} differ, {} not measured in this run. Each paper's section below has the tables and figures behind them.\n", counts("agrees"), counts("differs"), counts("not measured")));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_agrees_inside_its_range_and_explains_itself_outside() {
        let c = |ours| Claim::new("gain", ours, "1.4", 1.2..=1.6, "the detector merges");
        assert_eq!(c(Some(1.45)).verdict(), "agrees");
        assert_eq!(c(Some(1.0)).verdict(), "differs");
        assert_eq!(c(None).verdict(), "not measured");
        assert_eq!(c(Some(1.45)).row(false)[4], "");
        assert_eq!(c(Some(1.0)).row(false)[4], "the detector merges");
        assert_eq!(c(Some(1.0)).row(false)[2], "1.4 (agrees: 1.2 - 1.6)");
        let open = |ours| Claim::new("gain", Some(ours), "above 2", 2.0..=f64::INFINITY, "");
        assert_eq!(open(3.0).row(false)[2], "above 2 (agrees: at least 2)");
        let nsb5 = Claim::new("nsb", Some(0.0), "0.702", (0.702 - 0.15)..=1.0, "alike");
        assert_eq!(nsb5.row(false)[2], "0.702 (agrees: 0.552 - 1)");
        // A difference without a recorded reason says so instead of leaving the cell empty.
        assert_eq!(open(1.0).row(false)[4], UNEXPLAINED);
        assert_eq!(open(1.0).row(true)[4], UNEXPLAINED_QUICK);
        let md = markdown(&[("p", vec![c(Some(1.45)), c(Some(1.0))]), ("q", vec![])], true, "README.md");
        assert!(md.contains("No headline claims judged for q yet"), "{md}");
        assert!(md.contains("**Quick preset**") && md.contains("README.md"), "{md}");
        assert!(md.contains("1 claims agree, 1 differ, 0 not measured"), "{md}");
    }

    /// The shifting-bottleneck row as it stood: a mean delay of 6.7 s against S0's 7 s read
    /// "agrees" while 3 of 16 transitions were never detected and left out of the mean. S0
    /// (§IV-C3) reports a mean delay and no missed transition, so that differs.
    #[test]
    fn a_delay_over_detected_transitions_agrees_only_with_no_more_misses_than_the_paper() {
        let delay = |missed| Claim::new("shift delay", Some(6.7), "7", 3.5..=10.5, "history").misses(missed, 16, 0);
        assert_eq!(delay(0).verdict(), "agrees");
        assert_eq!(delay(3).verdict(), "differs");
        let row = delay(3).row(false);
        assert_eq!(row[1], "13 of 16 detected; mean of those 6.700");
        assert_eq!(row[2], "7, none missed (agrees: 3.5 - 10.5)");
        assert_eq!(row[4], "3 of 16 never detected, more than the paper's 0");
        assert_eq!(delay(0).row(false)[1], "16 of 16 detected; mean of those 6.700");
        let slow = Claim::new("shift delay", Some(12.0), "7", 3.5..=10.5, "history").misses(3, 16, 0);
        assert_eq!(slow.row(false)[4], "3 of 16 never detected, more than the paper's 0; history");
        let md = markdown(&[("ferlin2016", vec![delay(3)])], false, "");
        assert!(md.contains("| 13 of 16 detected; mean of those 6.700 |") && md.contains("| differs |"), "{md}");
    }
}
