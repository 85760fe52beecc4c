//! A paper's part of the reproduction: its report section (Markdown), its figures and the
//! CSVs behind them (in the paper's own folder), and its headline keys for summary.json.

use crate::numbers::num;
use crate::verdict::Claim;
use pathpool_plot::{box_plot, line_panels, BoxGroup, BoxTitles, Panel};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub struct PaperOut {
    /// The paper's folder: `DIR/<paper>`.
    pub dir: PathBuf,
    /// Its name, which is also the folder's name relative to report.md.
    pub paper: &'static str,
    pub markdown: String,
    pub keys: BTreeMap<String, Value>,
    /// The paper's headline claims for the verdict at the top of report.md.
    pub claims: Vec<Claim>,
}

impl PaperOut {
    pub fn new(root: &Path, paper: &'static str) -> std::io::Result<Self> {
        let dir = root.join(paper);
        std::fs::create_dir_all(&dir)?;
        Ok(PaperOut { dir, paper, markdown: String::new(), keys: BTreeMap::new(), claims: Vec::new() })
    }

    /// A sub-heading for one of the paper's tables or figures.
    pub fn heading(&mut self, text: &str) {
        let _ = write!(self.markdown, "\n### {text}\n\n");
    }

    pub fn para(&mut self, text: &str) {
        let _ = write!(self.markdown, "{}\n\n", text.trim());
    }

    /// A Markdown table.
    pub fn table(&mut self, headers: &[&str], rows: &[Vec<String>]) {
        let mut t = format!("| {} |\n|{}\n", headers.join(" | "), headers.iter().map(|_| "---|").collect::<String>());
        for r in rows {
            let _ = writeln!(t, "| {} |", r.join(" | "));
        }
        self.markdown.push_str(&t);
        self.markdown.push('\n');
    }

    /// A headline claim of the paper beside ours, for the verdict.
    pub fn claim(&mut self, c: Claim) {
        self.claims.push(c);
    }

    /// A headline figure for summary.json; `None` (not measurable in this run) is `null`.
    pub fn key(&mut self, name: &str, value: Option<f64>) {
        let v = value.filter(|x| x.is_finite()).map_or(Value::Null, Value::from);
        self.keys.insert(name.to_string(), v);
    }

    /// Writes `DIR/<paper>/<file>` as CSV and links it from the report.
    pub fn csv(&mut self, file: &str, headers: &[&str], rows: &[Vec<String>]) -> Result<(), String> {
        let path = self.dir.join(file);
        let fail = |e: &dyn std::fmt::Display| format!("writing '{}': {e}", path.display());
        let mut w = csv::Writer::from_path(&path).map_err(|e| fail(&e))?;
        w.write_record(headers).map_err(|e| fail(&e))?;
        for r in rows {
            w.write_record(r).map_err(|e| fail(&e))?;
        }
        w.flush().map_err(|e| fail(&e))?;
        let _ = write!(self.markdown, "Data: [{}/{file}]({}/{file})\n\n", self.paper, self.paper);
        Ok(())
    }

    /// A box plot (quartiles, whiskers at min/max, as the papers draw them; one colour per
    /// scheme; the paper's values as crosses) with its data as `<stem>.csv`
    /// (`group,scheme,value`) and the paper's values as `<stem>_paper.csv`
    /// (`group,scheme,value`) when it gives any.
    pub fn boxes(&mut self, stem: &str, titles: &BoxTitles, groups: &[BoxGroup]) -> Result<(), String> {
        let png = self.dir.join(format!("{stem}.png"));
        box_plot(&png, titles, groups, 1000, 500).map_err(|e| e.to_string())?;
        self.image(stem, titles.title);
        let scheme = |g: &BoxGroup| g.scheme.clone().unwrap_or_default();
        let rows: Vec<Vec<String>> = groups.iter().flat_map(|g| g.values.iter().map(move |v| vec![g.label.clone(), scheme(g), num(*v)])).collect();
        self.csv(&format!("{stem}.csv"), &["group", "scheme", "value"], &rows)?;
        let paper: Vec<Vec<String>> = groups.iter().filter_map(|g| Some(vec![g.label.clone(), scheme(g), num(g.paper?)])).collect();
        if paper.is_empty() {
            return Ok(());
        }
        self.csv(&format!("{stem}_paper.csv"), &["group", "scheme", "value"], &paper)
    }

    /// Stacked line charts (time series, CDFs) with their data as `<stem>.csv`
    /// (`panel,series,x,y`).
    pub fn lines(&mut self, stem: &str, caption: &str, panels: &[Panel]) -> Result<(), String> {
        let png = self.dir.join(format!("{stem}.png"));
        line_panels(&png, panels, 900, 320).map_err(|e| e.to_string())?;
        self.image(stem, caption);
        let mut rows = Vec::new();
        for p in panels {
            for s in &p.series {
                rows.extend(s.points.iter().map(|(x, y)| vec![p.title.clone(), s.label.clone(), num(*x), num(*y)]));
            }
        }
        self.csv(&format!("{stem}.csv"), &["panel", "series", "x", "y"], &rows)
    }

    fn image(&mut self, stem: &str, caption: &str) {
        let _ = write!(self.markdown, "![{caption}]({}/{stem}.png)\n\n", self.paper);
    }
}

/// The empirical CDF over `total` events of which those with a value in `reached` happened:
/// the others count as a mass at `at` (a transition never detected within its phase, drawn
/// at the phase's length), so the curve reaches 1 only there.
pub fn cdf_with_misses(reached: &[f64], total: usize, at: f64) -> Vec<(f64, f64)> {
    let mut v: Vec<f64> = reached.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    let n = total.max(v.len()).max(1) as f64;
    let mut points: Vec<(f64, f64)> = v.first().map(|&x| (x, 0.0)).into_iter().chain(v.iter().enumerate().map(|(i, &x)| (x, (i + 1) as f64 / n))).collect();
    if v.len() < total {
        if v.is_empty() {
            points.push((at, 0.0));
        }
        points.push((at, 1.0));
    }
    points
}

#[cfg(test)]
mod tests {
    #[test]
    fn misses_are_a_mass_at_the_phase_length() {
        assert_eq!(super::cdf_with_misses(&[4.0, 2.0], 4, 30.0), vec![(2.0, 0.0), (2.0, 0.25), (4.0, 0.5), (30.0, 1.0)]);
        assert_eq!(super::cdf_with_misses(&[2.0], 1, 30.0), vec![(2.0, 0.0), (2.0, 1.0)]);
        assert_eq!(super::cdf_with_misses(&[], 2, 30.0), vec![(30.0, 0.0), (30.0, 1.0)]);
    }

    #[test]
    fn a_cdf_rises_from_zero_at_the_smallest_value() {
        assert_eq!(super::cdf_with_misses(&[3.0, 1.0, f64::NAN], 2, 30.0), vec![(1.0, 0.0), (1.0, 0.5), (3.0, 1.0)]);
        assert!(super::cdf_with_misses(&[], 0, 30.0).is_empty());
    }
}
