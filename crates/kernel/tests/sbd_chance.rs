//! The comparison test's two readings of "apart" side by side on samples files the daemon
//! recorded on the testbed (docs/kernel.md, "The SBD daemon", "Chance is not evidence"): per
//! folder and case, the daemon's decisions (sliding filter, 2.8 s window) when any
//! cross-correlation below the autocorrelations reads apart, and when only one below them by
//! more than their estimation error does. PATHPOOL_WRITE_DOCS=1 writes the table there.
//!
//!     PATHPOOL_SBD_SAMPLES="$(ls $PWD/out/realfair/{daemon-read-ack,daemon,fixed}/sbd-*/real/repeat-*/samples.csv)" \
//!         cargo test --release -p pathpool-kernel --test sbd_chance -- --ignored --nocapture

mod replay;

use pathpool_kernel::comparison::ApartWhen;
use pathpool_kernel::grouping::ConnGroups;
use pathpool_sbd::{DecisionFilter, FilterParams, Observation};
use replay::{intervals_of, reaction, reactions_cell, right, write_doc_table, Decisions};
use std::collections::BTreeMap;

/// Per folder/case and rule: decisions right, decisions, intervals abstained, reactions, runs.
type Row = (usize, usize, usize, Vec<Option<f64>>, usize);

const RULES: [(ApartWhen, &str); 2] =
    [(ApartWhen::Below, "below (Rubenstein et al.'s sign)"), (ApartWhen::SignificantlyBelow, "below beyond chance (the daemon)")];

#[test]
#[ignore]
fn apart_by_sign_and_beyond_chance() {
    let files = std::env::var("PATHPOOL_SBD_SAMPLES").expect("PATHPOOL_SBD_SAMPLES: the samples.csv files to replay, separated by spaces");
    let mut rows: BTreeMap<(String, usize), Row> = BTreeMap::new();
    for f in files.split_whitespace() {
        // OUT/FOLDER/CASE/real/repeat-K/samples.csv
        let parts: Vec<&str> = f.rsplit('/').skip(3).take(2).collect();
        let case = format!("{}/{}", parts.get(1).unwrap_or(&"?"), parts.first().unwrap_or(&"?"));
        for (k, (rule, _)) in RULES.iter().enumerate() {
            let records = intervals_of(std::path::Path::new(f), ConnGroups::default().with_apart_when(*rule));
            let first_ns = records.first().map_or(0, |(t, r)| r.time_ns - (t * 1e9) as u64);
            let tested: Vec<(u64, Vec<u32>)> =
                records.iter().filter_map(|(_, r)| Some((r.time_ns, r.observation.clone()?))).filter(|(_, g)| g.len() == 2).collect();
            let mut filter = DecisionFilter::new(FilterParams { sliding: true, ..FilterParams::default() }, 2);
            let d: Decisions = tested
                .iter()
                .filter_map(|(t, g)| filter.push(&Observation { time_ns: *t, groups: g.clone() }).map(|x| (*t, x.groups.clone())))
                .collect();
            let row = rows.entry((case.clone(), k)).or_default();
            row.1 += d.len();
            row.2 += records.iter().filter(|(_, r)| r.warm && r.observation.is_none()).count();
            row.4 += 1;
            match right(&case, &d) {
                Some(r) => row.0 += r,
                None => row.3.push(reaction(&case, &d, first_ns)),
            }
        }
    }
    let mut table = String::from(
        "| samples (runs) | apart when the cross-correlation is | decisions right | reaction after the shift: median (per run) | intervals without evidence after the warm-up |\n|---|---|---|---|---|\n",
    );
    for ((case, k), (right, total, abstained, reactions, runs)) in &rows {
        let (right_cell, reaction) = if case.contains("sbd-shifting") {
            (String::new(), reactions_cell(reactions))
        } else {
            (format!("{right} of {total} ({:.1} %)", 100.0 * *right as f64 / (*total).max(1) as f64), String::new())
        };
        table += &format!("| {case} ({runs}) | {} | {right_cell} | {reaction} | {abstained} |\n", RULES[*k].1);
    }
    print!("{table}");
    write_doc_table("sbd-chance", &table);
}
