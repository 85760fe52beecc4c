//! The fidelity cases' one quantity per run (each file's `[fidelity]` table): the rows of the
//! fidelity table (the simulator against real Linux) and fidelity.csv (every backend against
//! the reference).

use super::execute::{CaseRuns, Run};
use super::plan::Case;
use crate::fidelity::Row;

/// The quantity of each run (runs without it were refused when they ran).
pub fn values(case: &Case, runs: Option<&Vec<Run>>) -> Vec<f64> {
    let Some(spec) = &case.fidelity else { return Vec::new() };
    runs.into_iter().flatten().filter_map(|r| spec.quantity.of(&r.summary)).collect()
}

/// The fidelity table's rows: per case with a `[fidelity]` table and runs on both backends,
/// the simulator's values against `reference`'s.
pub fn rows(cases: &[Case], runs: &[CaseRuns], reference: &str) -> Vec<Row> {
    cases
        .iter()
        .zip(runs)
        .filter_map(|(case, r)| {
            let spec = case.fidelity.clone()?;
            let (sim, real) = (values(case, r.get("sim")), values(case, r.get(reference)));
            (!sim.is_empty() && !real.is_empty()).then(|| Row { name: case.name.clone(), spec, sim, real })
        })
        .collect()
}

fn median(v: &[f64]) -> f64 {
    pathpool_reproduce::stats::median(v).unwrap_or(f64::NAN)
}

fn cell(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        String::new()
    }
}

/// fidelity.csv: per fidelity case and backend the quantity's median, range and runs, and its
/// relative error against the reference's median with the case's verdict (empty for the
/// reference itself and where there is no median to take it over).
pub fn csv(cases: &[Case], runs: &[CaseRuns], backends: &[String], reference: &str) -> String {
    let mut s = String::from("case,quantity,backend,runs,median,min,max,relative_error,tolerance,within\n");
    for (case, r) in cases.iter().zip(runs) {
        let Some(spec) = &case.fidelity else { continue };
        let base = median(&values(case, r.get(reference)));
        for b in backends {
            let v = values(case, r.get(b));
            let (lo, hi) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            let error = (median(&v) - base) / base;
            let (error, within) = if b == reference || !error.is_finite() { (String::new(), String::new()) } else { (error.to_string(), (error.abs() <= spec.tolerance).to_string()) };
            s.push_str(&format!("{},\"{}\",{b},{},{},{},{},{error},{},{within}\n", case.name, spec.quantity.describe().replace('`', ""), v.len(), cell(median(&v)), cell(lo), cell(hi), spec.tolerance));
        }
    }
    s
}
