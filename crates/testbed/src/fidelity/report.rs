//! The suite's table (report.md, and the block of docs/fidelity.md between its markers) and
//! figure (each run's value over the simulator's median, per case and backend).

use super::suite::Case;
use std::path::Path;

pub struct Row {
    pub case: Case,
    pub sim: Vec<f64>,
    pub real: Vec<f64>,
}

pub const BEGIN: &str = "<!-- fidelity table: begin -->";
pub const END: &str = "<!-- fidelity table: end -->";

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

fn spread(v: &[f64]) -> String {
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("{:.3} [{lo:.3}, {hi:.3}] ({})", median(v), v.len())
}

impl Row {
    /// (simulator median - real median) / real median.
    pub fn relative_error(&self) -> f64 {
        let real = median(&self.real);
        (median(&self.sim) - real) / real
    }

    pub fn passes(&self) -> bool {
        self.relative_error().abs() <= self.case.tolerance()
    }
}

/// The table: per case the quantity, real Linux and the simulator (median [min, max] (runs)),
/// the relative error and whether it is within the case's tolerance.
pub fn table(rows: &[Row]) -> String {
    let mut t = String::from("| case | quantity | real Linux | simulator | sim vs real | tolerance |\n|---|---|---|---|---|---|\n");
    for r in rows {
        let verdict = if r.passes() { "within" } else { "**outside**" };
        t.push_str(&format!(
            "| {} | {} | {} | {} | {:+.1} % | {verdict} ±{:.0} % |\n",
            r.case.name,
            r.case.measures,
            spread(&r.real),
            spread(&r.sim),
            100.0 * r.relative_error(),
            100.0 * r.case.tolerance()
        ));
    }
    t
}

pub fn report_markdown(rows: &[Row], command: &str) -> String {
    let mut s = String::from("# Fidelity: the simulator against real Linux\n\n");
    s.push_str(&format!("`{command}`\n\n"));
    s.push_str("Each value is the median [min, max] (number of runs): the simulator over seeds, real Linux (the testbed) over repeats. ");
    s.push_str("\"sim vs real\" is (simulator median - real median) / real median. Every run's output folder is under CASE/sim/ and CASE/real/.\n\n");
    s.push_str(&table(rows));
    s.push_str("\n| case | what the quantity is read from |\n|---|---|\n");
    for r in rows {
        s.push_str(&format!("| {} | {} |\n", r.case.name, r.case.quantity.describe()));
    }
    s.push_str("\n![each run's value over the simulator's median](fidelity.png)\n");
    s
}

/// Replaces the block between the markers of `doc` with the table and the command that wrote it.
pub fn doc_block(doc: &str, rows: &[Row], command: &str) -> Option<String> {
    let start = doc.find(BEGIN)? + BEGIN.len();
    let end = doc[start..].find(END)? + start;
    Some(format!("{}\n`{command}`\n\n{}{}", &doc[..start], table(rows), &doc[end..]))
}

pub fn figure(path: &Path, rows: &[Row]) -> Result<(), pathpool_plot::PlotError> {
    let mut groups = Vec::new();
    for r in rows {
        let base = median(&r.sim);
        for (backend, values) in [("real", &r.real), ("sim", &r.sim)] {
            groups.push(pathpool_plot::BoxGroup::new(format!("{} {backend}", r.case.name), values.iter().map(|v| v / base).collect()));
        }
    }
    let titles = pathpool_plot::BoxTitles { title: "fidelity: each run's value / the simulator's median", x_label: "case, backend", y_label: "value / simulator median", paper: "" };
    pathpool_plot::box_plot(path, &titles, &groups, 1600, 600)
}
