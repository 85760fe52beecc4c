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

use pathpool_kernel::comparison::Verdict;
use replay::{counts, intervals, replay, write_doc_table};
use std::collections::BTreeMap;

#[test]
#[ignore]
fn replay_recorded_samples() {
    let files = std::env::var("PATHPOOL_SBD_SAMPLES").expect("PATHPOOL_SBD_SAMPLES: the samples.csv files to replay, separated by spaces");
    let mut table = String::from("| samples | together | apart | some in group 0 | not yet | outcomes in order |\n|---|---|---|---|---|---|\n");
    for f in files.split_whitespace() {
        let o = replay(std::path::Path::new(f));
        let (t, a, z, n) = counts(&o);
        // The run's case and repeat, without the folder it was kept in.
        let name: Vec<&str> = f.rsplit('/').skip(1).take(3).collect();
        table += &format!("| {} {} | {t} | {a} | {z} | {n} | `{o}` |\n", name.get(2).unwrap_or(&"?"), name.first().unwrap_or(&"?"));
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
/// daemon"); PATHPOOL_WRITE_DOCS=1 writes it there.
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
        for (t, r) in intervals(std::path::Path::new(f)) {
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
