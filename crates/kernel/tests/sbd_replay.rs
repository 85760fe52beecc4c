//! The SBD daemon's grouping replayed on samples files the daemon recorded on the testbed
//! (`samples.csv` beside each MPTCP-SBD run's `sbd.log`), one line per file and a total; the
//! table of docs/kernel.md, "The SBD daemon" (PATHPOOL_WRITE_DOCS=1 writes it there), and
//! what RFC 8382's step 1 and the comparison test said per interval, per case.
//! Ignored by default; the files are named in PATHPOOL_SBD_SAMPLES (separated by spaces):
//!
//!     PATHPOOL_SBD_SAMPLES="$(ls $PWD/out/realfair/fixed/sbd-*/real/repeat-*/samples.csv)" \
//!         cargo test --release -p pathpool-kernel --test sbd_replay replay_recorded_samples -- --ignored --nocapture
//!     PATHPOOL_SBD_SAMPLES="$(ls $PWD/out/realfair/{fixed,daemon,daemon-before}/sbd-*/real/repeat-*/samples.csv)" \
//!         cargo test --release -p pathpool-kernel --test sbd_replay step_one_and_the_comparison_test -- --ignored --nocapture

mod replay;

use pathpool_kernel::comparison::{ApartWhen, Verdict};
use pathpool_sbd::{DecisionFilter, FilterParams, Observation};
use pathpool_kernel::grouping::ConnGroups;
use replay::{counts, intervals_of, reaction, reactions_cell, replay, right, write_doc_table, Decisions};
use std::collections::BTreeMap;

/// Outcomes as runs (`T16 A1 T3`): one decision per interval makes hundreds per file.
fn runs_of(outcomes: &str) -> String {
    let mut out: Vec<(char, usize)> = Vec::new();
    for c in outcomes.chars() {
        match out.last_mut() {
            Some((last, n)) if *last == c => *n += 1,
            _ => out.push((c, 1)),
        }
    }
    out.iter().map(|(c, n)| format!("{c}{n}")).collect::<Vec<_>>().join(" ")
}

#[test]
#[ignore]
fn replay_recorded_samples() {
    let files = std::env::var("PATHPOOL_SBD_SAMPLES").expect("PATHPOOL_SBD_SAMPLES: the samples.csv files to replay, separated by spaces");
    let mut table = String::from("| samples | together | apart | some in group 0 | not yet | outcomes in order (runs: T16 = 16 together in a row) |\n|---|---|---|---|---|---|\n");
    for f in files.split_whitespace() {
        let o = replay(std::path::Path::new(f));
        let (t, a, z, n) = counts(&o);
        // The run's case and repeat, without the folder it was kept in.
        let name: Vec<&str> = f.rsplit('/').skip(1).take(3).collect();
        table += &format!("| {} {} | {t} | {a} | {z} | {n} | `{}` |\n", name.get(2).unwrap_or(&"?"), name.first().unwrap_or(&"?"), runs_of(&o));
    }
    print!("{table}");
    write_doc_table("sbd-replay", &table);
}

/// The shift of scenarios/fidelity/sbd-shifting.toml (s after the traffic starts; the daemon's
/// first sample comes within 0.1 s of it) and the comparison test's window after it (2.8 s and
/// the interval its window ends before): intervals between them mix both phases.
const SHIFT_S: f64 = 30.0;
const MIXED_S: f64 = 3.15;

/// Per folder of runs and case (and for sbd-shifting per phase), over the intervals after step
/// 1's warm-up (N = 50 intervals): subflow-intervals step 1 calls not bottlenecked, and the
/// comparison test's verdicts on the pairs. The evidence for comparing every pair (docs/kernel.md, "The SBD
/// daemon"), with "apart" read by the sign as when the choice was made; PATHPOOL_WRITE_DOCS=1
/// writes it there.
#[test]
#[ignore]
fn step_one_and_the_comparison_test() {
    let files = std::env::var("PATHPOOL_SBD_SAMPLES").expect("PATHPOOL_SBD_SAMPLES: the samples.csv files to replay, separated by spaces");
    // (case, phase) -> (files, not bottlenecked, subflow-intervals, shared, apart, no evidence)
    let mut rows: BTreeMap<(String, &str), [usize; 6]> = BTreeMap::new();
    let mut skews: BTreeMap<(String, &str), Vec<f64>> = BTreeMap::new();
    for f in files.split_whitespace() {
        // The runs' folder and case (OUT/FOLDER/CASE/real/repeat-K/samples.csv).
        let parts: Vec<&str> = f.rsplit('/').skip(3).take(2).collect();
        let case = format!("{}/{}", parts.get(1).unwrap_or(&"?"), parts.first().unwrap_or(&"?"));
        let shifting = case.contains("shifting");
        let mut seen = std::collections::BTreeSet::new();
        for (t, r) in intervals_of(std::path::Path::new(f), ConnGroups::default().with_apart_when(ApartWhen::Below)) {
            if !r.warm {
                continue;
            }
            let phase = match (shifting, t) {
                (false, _) => "",
                (true, t) if t < SHIFT_S => "before the shift",
                (true, t) if t < SHIFT_S + MIXED_S => continue,
                _ => "after the shift",
            };
            let row = rows.entry((case.clone(), phase)).or_default();
            if seen.insert(phase) {
                row[0] += 1;
            }
            skews.entry((case.clone(), phase)).or_default().extend(&r.skew);
            row[1] += r.bottlenecked.iter().filter(|b| !**b).count();
            row[2] += r.bottlenecked.len();
            for (_, _, v) in &r.pairs {
                row[3 + match v { Verdict::Shared => 0, Verdict::Apart => 1, Verdict::NoEvidence => 2 }] += 1;
            }
        }
    }
    let pct = |a: usize, b: usize| format!("{a} of {b} ({:.1} %)", 100.0 * a as f64 / b.max(1) as f64);
    let mut table = String::from("| samples (runs) | step 1: subflow-intervals not bottlenecked | skew_est: median [5th, 95th percentile] | comparison test: pairs shared | apart | no evidence |\n|---|---|---|---|---|---|\n");
    for ((case, phase), r) in &rows {
        let pairs = r[3] + r[4] + r[5];
        let mut k = skews[&(case.clone(), *phase)].clone();
        k.sort_by(f64::total_cmp);
        let at = |q: f64| k.get(((k.len() - 1) as f64 * q).round() as usize).copied().unwrap_or(f64::NAN);
        let skew = format!("{:+.2} [{:+.2}, {:+.2}]", at(0.5), at(0.05), at(0.95));
        table += &format!("| {case}{}{phase} ({}) | {} | {skew} | {} | {} | {} |\n", if phase.is_empty() { "" } else { ", " }, r[0], pct(r[1], r[2]), pct(r[3], pairs), pct(r[4], pairs), pct(r[5], pairs));
    }
    print!("{table}");
    write_doc_table("sbd-step1", &table);
}

/// S0's filter (§III-B, §IV-B), each window's decision once certain, and the daemon's sliding
/// window (a decision after every tested interval over the last 10), on the tested intervals'
/// groups.
fn filters(tested: &[(u64, Vec<u32>)]) -> [(&'static str, Decisions); 3] {
    let run = |p: FilterParams| {
        let mut f = DecisionFilter::new(p, tested.first().map_or(0, |t| t.1.len()));
        tested.iter().filter_map(|(t, g)| f.push(&Observation { time_ns: *t, groups: g.clone() }).map(|d| (*t, d.groups.clone()))).collect()
    };
    [("S0: at the window's end", run(FilterParams::default())), ("when certain", run(FilterParams { decide_when_certain: true, ..FilterParams::default() })), ("sliding, every interval (the daemon)", run(FilterParams { sliding: true, ..FilterParams::default() }))]
}

/// The decision filters side by side on recorded runs (docs/kernel.md, "The SBD daemon"): per
/// folder and case, decisions right (shared: all together; disjoint: all apart) and, on
/// sbd-shifting, the reaction (the first decision after the shift that uncouples the subflows,
/// apart or one in group 0, in runs coupled at the shift; on sbd-shifting-join the first that
/// groups them, in runs apart at the shift). PATHPOOL_WRITE_DOCS=1 writes it.
#[test]
#[ignore]
fn decision_filters_compared() {
    let files = std::env::var("PATHPOOL_SBD_SAMPLES").expect("PATHPOOL_SBD_SAMPLES: the samples.csv files to replay, separated by spaces");
    // (folder/case, filter) -> (right, decisions, group changes, reactions, runs)
    // (folder/case, comparison window, filter) -> (right, decisions, group changes, reactions, runs)
    type Row = (usize, usize, usize, Vec<Option<f64>>, usize);
    let mut rows: BTreeMap<(String, usize, usize), Row> = BTreeMap::new();
    let mut names = [""; 3];
    for f in files.split_whitespace() {
        let parts: Vec<&str> = f.rsplit('/').skip(3).take(2).collect();
        let case = format!("{}/{}", parts.get(1).unwrap_or(&"?"), parts.first().unwrap_or(&"?"));
        // The daemon's window (8 intervals, 2.8 s) with each filter; shorter windows with the
        // daemon's filter.
        for window in [8, 6, 4] {
            // The comparison test as it read "apart" when the filter was chosen (by its sign).
            let g = ConnGroups::with_comparison_window(window).expect("a window of 1 to 8 intervals").with_apart_when(ApartWhen::Below);
            let records = intervals_of(std::path::Path::new(f), g);
            let first_ns = records.first().map_or(0, |(t, r)| r.time_ns - (t * 1e9) as u64);
            let tested: Vec<(u64, Vec<u32>)> = records.iter().filter_map(|(_, r)| Some((r.time_ns, r.observation.clone()?))).filter(|(_, g)| g.len() == 2).collect();
            if tested.len() < FilterParams::default().window {
                continue;
            }
            for (k, (name, d)) in filters(&tested).into_iter().enumerate() {
                if window != 8 && k != 2 {
                    continue;
                }
                names[k] = name;
                let row = rows.entry((case.clone(), 8 - window, k)).or_default();
                row.4 += 1;
                row.1 += d.len();
                row.2 += d.windows(2).filter(|w| w[0].1 != w[1].1).count();
                match right(&case, &d) {
                    Some(r) => row.0 += r,
                    None => row.3.push(reaction(&case, &d, first_ns)),
                }
            }
        }
    }
    let mut table = String::from("| samples (runs) | comparison window | filter | decisions right | group changes | reaction after the shift: median (per run; never: no reaction, or none to make) |\n|---|---|---|---|---|---|\n");
    for ((case, shorter, k), (right, total, changes, reactions, runs)) in &rows {
        let (right_cell, reaction) = if case.contains("sbd-shifting") {
            ("".to_string(), reactions_cell(reactions))
        } else {
            (format!("{right} of {total} ({:.1} %)", 100.0 * *right as f64 / (*total).max(1) as f64), String::new())
        };
        table += &format!("| {case} ({runs}) | {:.2} s | {} | {right_cell} | {changes} | {reaction} |\n", (8 - shorter) as f64 * 0.35, names[*k]);
    }
    print!("{table}");
    write_doc_table("sbd-filters", &table);
}
