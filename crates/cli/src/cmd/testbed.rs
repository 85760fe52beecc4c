//! `pathpool testbed run FILE.toml --out DIR ...`: a scenario on real Linux (network
//! namespaces, tbf queues, the delay element, real sockets); `pathpool testbed clean`
//! removes what a crashed run left behind.

use crate::error::CliError;
use crate::outdir::OutDir;
use clap::{Args, Subcommand};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum TestbedWhat {
    /// Run a scenario file on real Linux; writes the same files as `pathpool run`.
    Run(TestbedRunArgs),
    /// Check a scenario against what the testbed can run, without building anything.
    Check(TestbedCheckArgs),
    /// Remove namespaces left by testbed runs whose process is gone.
    Clean(CleanArgs),
    /// Measure the delay element: added-delay error at given rates, and packets per CPU-second.
    Bench(BenchArgs),
}

#[derive(Args)]
pub struct BenchArgs {
    /// Repetitions per case; medians and ranges are reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub reps: u32,
    /// Seconds of traffic per repetition.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
}

#[derive(Args)]
pub struct TestbedRunArgs {
    /// Scenario file (TOML; docs/scenarios.md, and docs/testbed.md for what the testbed runs).
    pub file: PathBuf,
    /// Output folder: summary.json, flows.csv, links.csv, throughput.png, queue.png.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Master seed (loss draws and UDP timing); overrides simulation.seed.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::seed_arg::parse)]
    pub seed: Option<u64>,
    /// Override a value of the file by dotted path (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Run K times (DIR/repeat-1, ...); DIR/summary.json then holds each key's median and
    /// DIR/repeats.csv every run's value.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeat: u32,
    /// Write a pcap of every link direction into DIR/capture (LINK.pcap, LINK.reverse.pcap):
    /// packet headers, stamped as they arrive at the link's far end.
    #[arg(long)]
    pub capture: bool,
    /// Also capture on this node itself, as tcpdump -i any in it would (repeatable): every
    /// packet it sends or receives, kernel-stamped, into DIR/capture/host-NODE.pcap; a router
    /// records each forwarded packet on the way in and on the way out.
    #[arg(long = "capture-host", value_name = "NODE")]
    pub capture_host: Vec<String>,
}

#[derive(Args)]
pub struct TestbedCheckArgs {
    /// Scenario file (TOML; docs/scenarios.md), as `testbed run` would take it.
    pub file: PathBuf,
    /// Override a value of the file by dotted path, as `testbed run --set` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

#[derive(Args)]
pub struct CleanArgs {
    /// Also remove namespaces of runs that are still going.
    #[arg(long)]
    pub all: bool,
}

pub fn run(what: TestbedWhat) -> Result<(), CliError> {
    match what {
        TestbedWhat::Run(a) => run_scenario(a),
        TestbedWhat::Check(a) => {
            let loaded = pathpool_scenario::load(&a.file, &a.set).map_err(|e| CliError::usage(e.to_string()))?;
            pathpool_testbed::run::check(&loaded).map_err(|e| CliError::usage(e.to_string()))?;
            println!("{}: the testbed can run this scenario", a.file.display());
            Ok(())
        }
        TestbedWhat::Bench(a) => bench(a),
        TestbedWhat::Clean(a) => {
            if !pathpool_testbed::is_root() {
                return Err(CliError::usage("pathpool testbed clean needs root (it removes network namespaces)"));
            }
            let left = pathpool_testbed::netns::leftovers(a.all);
            let n = pathpool_testbed::netns::remove(&left).map_err(|e| CliError::runtime(e.to_string()))?;
            println!("removed {n} namespace(s){}", if n > 0 { format!(": {}", left.join(" ")) } else { String::new() });
            Ok(())
        }
    }
}

fn run_scenario(args: TestbedRunArgs) -> Result<(), CliError> {
    let mut overrides = args.set.clone();
    if let Some(seed) = args.seed {
        overrides.push(format!("simulation.seed={seed}"));
    }
    let loaded = pathpool_scenario::load(&args.file, &overrides).map_err(|e| CliError::usage(e.to_string()))?;
    pathpool_testbed::run::check(&loaded).map_err(|e| CliError::usage(e.to_string()))?;
    if !pathpool_testbed::is_root() {
        return Err(CliError::usage("pathpool testbed needs root (it builds network namespaces, TUN devices and queues); run it as root"));
    }
    let out = OutDir::create("--out", &args.out)?;
    let mut runs = Vec::new();
    let mut warnings = Vec::new();
    for k in 1..=args.repeat {
        let dir = if args.repeat == 1 { out.path().to_path_buf() } else { out.join(&format!("repeat-{k}")) };
        std::fs::create_dir_all(&dir)?;
        let capture = args.capture.then(|| dir.join("capture"));
        let host_captures: Vec<(String, PathBuf)> = args.capture_host.iter().map(|n| (n.clone(), dir.join("capture").join(format!("host-{n}.pcap")))).collect();
        if capture.is_some() || !host_captures.is_empty() {
            std::fs::create_dir_all(dir.join("capture"))?;
        }
        let options = pathpool_testbed::RunOptions { progress: true, capture, host_captures };
        let outcome = pathpool_testbed::run(&loaded, &options).map_err(|e| CliError::runtime(e.to_string()))?;
        let repeat = if args.repeat == 1 { String::new() } else { format!(" (repeat {k})") };
        warnings.extend(outcome.kernel_warnings.iter().map(|w| format!("warning{repeat}: {w}")));
        let summary = pathpool_experiment::output::write_all(&dir, &outcome).map_err(|e| CliError::runtime(format!("--out: writing into '{}': {e}", dir.display())))?;
        runs.push(summary);
    }
    let summary = if runs.len() == 1 { runs.pop().expect("one run") } else { medians(out.path(), &runs)? };
    out.finish()?;
    let show = |key: &str| summary.get(key).map(|v| format!("{key} = {v}"));
    let mut lines: Vec<String> = ["total_throughput_mbps", "bottleneck_utilization", "jain_index", "mptcp_mbps", "tcp_mbps", "sum_ratio"].iter().filter_map(|k| show(k)).collect();
    lines.extend(warnings);
    let _ = writeln!(std::io::stdout().lock(), "{}\nwrote {}", lines.join("\n"), args.out.display());
    Ok(())
}

/// summary.json with each numeric key's median over the repeats; repeats.csv with every value.
fn medians(dir: &std::path::Path, runs: &[BTreeMap<String, Value>]) -> Result<BTreeMap<String, Value>, CliError> {
    let mut keys: Vec<&String> = runs.iter().flat_map(|r| r.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut summary = BTreeMap::new();
    let mut csv = String::from("key");
    for k in 1..=runs.len() {
        csv.push_str(&format!(",repeat_{k}"));
    }
    csv.push('\n');
    for key in keys {
        let values: Vec<Option<f64>> = runs.iter().map(|r| r.get(key).and_then(Value::as_f64)).collect();
        let mut present: Vec<f64> = values.iter().flatten().copied().collect();
        if present.is_empty() {
            summary.insert(key.clone(), non_numeric(runs, key));
            continue;
        }
        present.sort_by(f64::total_cmp);
        let n = present.len();
        let median = if n % 2 == 1 { present[n / 2] } else { (present[n / 2 - 1] + present[n / 2]) / 2.0 };
        summary.insert(key.clone(), serde_json::json!(median));
        csv.push_str(key);
        for v in &values {
            csv.push(',');
            if let Some(v) = v {
                csv.push_str(&v.to_string());
            }
        }
        csv.push('\n');
    }
    summary.insert("repeats".into(), serde_json::json!(runs.len()));
    std::fs::write(dir.join("summary.json"), pathpool_scenario::summary::to_json(&summary))?;
    std::fs::write(dir.join("repeats.csv"), csv)?;
    Ok(summary)
}

/// A key without numbers over the repeats: lists (warnings) joined, each entry named by its
/// repeat, as a warning of one repeat is that repeat's; otherwise the first repeat's value.
fn non_numeric(runs: &[BTreeMap<String, Value>], key: &str) -> Value {
    let lists: Vec<(usize, &Vec<Value>)> = runs.iter().enumerate().filter_map(|(k, r)| Some((k + 1, r.get(key)?.as_array()?))).collect();
    if lists.is_empty() {
        return runs.iter().find_map(|r| r.get(key)).cloned().unwrap_or(Value::Null);
    }
    Value::Array(lists.iter().flat_map(|(k, list)| list.iter().map(move |v| Value::String(format!("repeat {k}: {}", v.as_str().map_or_else(|| v.to_string(), str::to_string))))).collect())
}

/// Table rows for docs/testbed.md: the delay element's error at 10 and 100 Mb/s of 1500-byte
/// packets over a 20 ms link (and at 100 Mb/s with the other direction loaded), and the
/// rate one core of it sustains, for its current and its older thread layout.
fn bench(args: BenchArgs) -> Result<(), CliError> {
    if !pathpool_testbed::is_root() {
        return Err(CliError::usage("pathpool testbed bench needs root (network namespaces and TUN devices)"));
    }
    if !(args.seconds > 0.0 && args.seconds <= 60.0) {
        return Err(CliError::usage("--seconds: expected a number of seconds in (0, 60]"));
    }
    let err = |e: pathpool_testbed::TestbedError| CliError::runtime(e.to_string());
    let delay = std::time::Duration::from_millis(20);
    println!("delay element, 1500-byte UDP packets over a 20 ms link; median [min, max] of {} runs of {} s", args.reps, args.seconds);
    // Each load twice: with the element as the testbed runs it (a real-time thread per
    // direction) and with its older layout (one thread at normal priority for all); the
    // last load also sends 100 Mb/s on the link's other direction.
    use pathpool_testbed::bench::Layout;
    let loads: [(&str, u64, Option<u64>); 3] = [("10 Mb/s", 10, None), ("100 Mb/s", 100, None), ("100 Mb/s, other direction 100 Mb/s", 100, Some(100_000_000))];
    let layouts = [(Layout::PerDirection, "thread per direction, real-time"), (Layout::OneThread, "one thread, normal priority (older)")];
    println!("| offered load | element | packets per run | added delay error p50 | p99 | max |");
    println!("|---|---|---|---|---|---|");
    for (label, rate_mbps, cross) in loads {
        for (layout, name) in layouts {
            let mut runs = Vec::new();
            for _ in 0..args.reps {
                runs.push(pathpool_testbed::bench::delay_error(rate_mbps * 1_000_000, delay, 1500, args.seconds, cross, layout).map_err(err)?);
            }
            let spread = |f: &dyn Fn(&pathpool_testbed::bench::DelayError) -> f64| {
                let (m, lo, hi) = median_range(runs.iter().map(f).collect());
                format!("{m:.0} µs [{lo:.0}, {hi:.0}]")
            };
            let (packets, _, _) = median_range(runs.iter().map(|r| r.packets as f64).collect());
            println!("| {label} | {name} | {packets:.0} | {} | {} | {} |", spread(&|r| r.p50_us), spread(&|r| r.p99_us), spread(&|r| r.max_us));
        }
    }
    for (layout, name) in layouts {
        let mut rates = Vec::new();
        for _ in 0..args.reps {
            rates.push(pathpool_testbed::bench::capacity(1500, args.seconds, layout).map_err(err)?.packets_per_cpu_second());
        }
        let (m, lo, hi) = median_range(rates);
        println!(
            "\nrelay capacity ({name}): {:.0} k packets per CPU-second [{:.0}, {:.0}] = {:.2} Gb/s of 1500-byte packets on one core",
            m / 1e3,
            lo / 1e3,
            hi / 1e3,
            m * 1500.0 * 8.0 / 1e9
        );
    }
    Ok(())
}

fn median_range(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

#[cfg(test)]
mod tests {
    use super::non_numeric;
    use serde_json::{json, Value};
    use std::collections::BTreeMap;

    fn run(pairs: &[(&str, Value)]) -> BTreeMap<String, Value> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }

    #[test]
    fn warnings_of_some_repeats_are_kept_with_their_repeat() {
        let runs = [run(&[("hosts", json!("real-linux"))]), run(&[("kernel_warnings", json!(["a window"]))]), run(&[("kernel_warnings", json!(["b", "c"]))])];
        assert_eq!(non_numeric(&runs, "kernel_warnings"), json!(["repeat 2: a window", "repeat 3: b", "repeat 3: c"]));
        assert_eq!(non_numeric(&runs, "hosts"), json!("real-linux"), "a key the first repeat has");
    }
}
