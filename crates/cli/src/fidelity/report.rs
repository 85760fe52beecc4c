//! The suite's table (report.md, and the block of docs/fidelity.md between its markers) and
//! figure (each run's value over the simulator's median, per case and backend).

use pathpool_experiment::fidelity::FidelitySpec;
use std::collections::BTreeMap;
use std::path::Path;

/// One case: the simulator's values against real Linux's.
pub struct Row {
    pub name: String,
    pub spec: FidelitySpec,
    pub sim: Vec<f64>,
    pub real: Vec<f64>,
}

pub const BEGIN: &str = "<!-- fidelity table: begin -->";
pub const END: &str = "<!-- fidelity table: end -->";

/// The reproductions' median (NaN for no values).
fn median(v: &[f64]) -> f64 {
    pathpool_reproduce::stats::median(v).unwrap_or(f64::NAN)
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
        self.relative_error().abs() <= self.spec.tolerance
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
            r.name,
            r.spec.measures,
            spread(&r.real),
            spread(&r.sim),
            100.0 * r.relative_error(),
            100.0 * r.spec.tolerance
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
        s.push_str(&format!("| {} | {} |\n", r.name, r.spec.quantity.describe()));
    }
    s.push_str("\n![each run's value over the simulator's median](fidelity.png)\n");
    s
}

/// Rewrites the block between the markers of `doc`: the table with a `run` column naming the
/// command that measured each row. Rows of cases this run did not cover stay as they were,
/// with their commands, so a suite re-run case by case (`--cases`) keeps one table. Rows go
/// in `order` (each case's `[fidelity]` order); cases it does not know go last.
pub fn doc_block(doc: &str, rows: &[Row], command: &str, order: &BTreeMap<String, u32>) -> Option<String> {
    let start = doc.find(BEGIN)? + BEGIN.len();
    let end = doc[start..].find(END)? + start;
    let (mut kept, mut commands) = parse_block(&doc[start..end]);
    let fresh: Vec<(String, String)> = table(rows).lines().skip(2).zip(rows).map(|(l, r)| (r.name.clone(), l.to_string())).collect();
    kept.retain(|(name, _, _)| !fresh.iter().any(|(n, _)| n == name));
    kept.extend(fresh.into_iter().map(|(n, l)| (n, l, command.to_string())));
    kept.sort_by_key(|(n, _, _)| order.get(n).copied().unwrap_or(u32::MAX));
    commands.retain(|c| kept.iter().any(|(_, _, k)| k == c));
    for (_, _, c) in &kept {
        if !commands.contains(c) {
            commands.push(c.clone());
        }
    }
    let mut t = String::from("| case | quantity | real Linux | simulator | sim vs real | tolerance | run |\n|---|---|---|---|---|---|---|\n");
    for (_, line, c) in &kept {
        let k = commands.iter().position(|x| x == c).expect("every row's command is listed") + 1;
        t.push_str(&format!("{line} {k} |\n"));
    }
    t.push('\n');
    for (k, c) in commands.iter().enumerate() {
        t.push_str(&format!("Run {}: `{c}`\n", k + 1));
    }
    Some(format!("{}\n{t}{}", &doc[..start], &doc[end..]))
}

/// The rows of an existing block (case, row without its `run` cell, command) and its
/// commands in order. Reads both this layout and the older one (one command above a table
/// without a `run` column).
fn parse_block(block: &str) -> (Vec<(String, String, String)>, Vec<String>) {
    let mut commands: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    let mut single = None;
    for line in block.lines() {
        if let Some(rest) = line.strip_prefix("Run ") {
            if let Some((_, c)) = rest.split_once(": ") {
                commands.push(c.trim_matches('`').to_string());
            }
        } else if line.starts_with('`') && line.ends_with('`') && line.len() > 1 {
            single = Some(line.trim_matches('`').to_string());
        }
    }
    if let Some(c) = &single {
        commands.push(c.clone());
    }
    for line in block.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| case |")) {
        let cells: Vec<&str> = line.trim_end_matches('|').split(" | ").collect();
        let name = cells[0].trim_start_matches("| ").to_string();
        let (body, cmd) = match (cells.len(), &single) {
            (7, _) => {
                let k: usize = cells[6].trim().parse().unwrap_or(0);
                (cells[..6].join(" | ") + " |", commands.get(k.wrapping_sub(1)).cloned())
            }
            (_, Some(c)) => (line.to_string(), Some(c.clone())),
            _ => (line.to_string(), None),
        };
        if let Some(cmd) = cmd {
            rows.push((name, body, cmd));
        }
    }
    (rows, commands)
}

pub fn figure(path: &Path, rows: &[Row]) -> Result<(), pathpool_plot::PlotError> {
    let mut groups = Vec::new();
    for r in rows {
        let base = median(&r.sim);
        for (backend, values) in [("real", &r.real), ("sim", &r.sim)] {
            groups.push(pathpool_plot::BoxGroup::new(format!("{} {backend}", r.name), values.iter().map(|v| v / base).collect()));
        }
    }
    let titles = pathpool_plot::BoxTitles { title: "fidelity: each run's value / the simulator's median", x_label: "case, backend", y_label: "value / simulator median", paper: "" };
    pathpool_plot::box_plot(path, &titles, &groups, 1600, 600)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, sim: f64, real: f64) -> Row {
        let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity").join(format!("{name}.toml"));
        let spec = crate::comparison::Case::read(&file, Vec::new()).unwrap().fidelity.expect("a suite case");
        Row { name: name.to_string(), spec, sim: vec![sim], real: vec![real] }
    }

    fn order() -> BTreeMap<String, u32> {
        [("reno-alone".to_string(), 1), ("reno-rtt".to_string(), 2)].into()
    }

    #[test]
    fn a_run_of_some_cases_replaces_only_their_rows() {
        let doc = format!("intro\n{BEGIN}\n`pathpool fidelity --out a`\n\n{}{END}\nafter\n", table(&[row("reno-alone", 1.0, 1.0), row("reno-rtt", 2.0, 1.0)]));
        let once = doc_block(&doc, &[row("reno-rtt", 1.05, 1.0)], "pathpool fidelity --cases reno-rtt --out b", &order()).unwrap();
        assert!(once.starts_with("intro\n") && once.ends_with(&format!("{END}\nafter\n")));
        assert!(once.contains("| reno-alone | bottleneck utilisation | 1.000 [1.000, 1.000] (1) | 1.000 [1.000, 1.000] (1) | +0.0 % | within ±10 % | 1 |"), "{once}");
        assert!(once.contains("| +5.0 % | within ±10 % | 2 |"), "{once}");
        assert!(!once.contains("+100.0 %"), "the old reno-rtt row is gone: {once}");
        assert!(once.contains("Run 1: `pathpool fidelity --out a`\nRun 2: `pathpool fidelity --cases reno-rtt --out b`\n"), "{once}");
        // Re-reading its own layout: a full run replaces everything and drops unused commands.
        let all = doc_block(&once, &[row("reno-alone", 1.0, 1.0), row("reno-rtt", 1.0, 1.0)], "pathpool fidelity --out c", &order()).unwrap();
        assert!(all.contains("Run 1: `pathpool fidelity --out c`\n") && !all.contains("Run 2"), "{all}");
        // Same input, same output.
        assert_eq!(doc_block(&once, &[row("reno-rtt", 1.05, 1.0)], "pathpool fidelity --cases reno-rtt --out b", &order()).unwrap(), once);
    }
}
