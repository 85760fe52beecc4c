//! `pathpool run FILE.toml --out DIR [--backend sim|linux|quic] [--seed S] [--set KEY=VALUE ...]`:
//! runs one scenario on a backend; every backend writes the same files and keys.

use crate::error::CliError;
use crate::outdir::OutDir;
use clap::Args;
use pathpool_experiment::RunError;
use std::io::Write as _;
use std::path::PathBuf;

#[derive(Args)]
pub struct RunArgs {
    /// Scenario file (TOML; the format is documented in docs/scenarios.md).
    pub file: PathBuf,
    /// Output folder: summary.json, flows.csv, links.csv, throughput.png, queue.png.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Master seed; overrides simulation.seed.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = crate::seed_arg::parse)]
    pub seed: Option<u64>,
    /// Override a value of the file by dotted path, e.g. links.bottleneck.rate=50Mbps (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Congestion control of every multipath connection (docs/schemes.md).
    #[arg(long, value_name = "NAME", value_parser = crate::scheme_arg::SchemeArg(pathpool_cc::Backend::Sim))]
    pub cc: Option<String>,
    /// Also write packet captures into DIR: one pcap per host of a TCP flow, as tcpdump on
    /// that host would (docs/pcap.md; read them with `pathpool detect --pcap`). Simulator only.
    #[arg(long, value_name = "DIR")]
    pub pcap: Option<PathBuf>,
    /// Where the scenario runs: `sim` (the simulator), `linux` (real Linux in network
    /// namespaces with the kernel's controllers, docs/testbed.md; needs root) or `quic`
    /// (multipath QUIC over noq on the same namespaces and links, docs/quic.md; needs root).
    /// A scenario the backend cannot run is refused, naming the key.
    #[arg(long, value_name = "NAME", default_value = "sim", value_parser = crate::backends::NAMES)]
    pub backend: String,
}

pub fn run(args: RunArgs) -> Result<(), CliError> {
    let mut overrides = args.set.clone();
    if let Some(seed) = args.seed {
        overrides.push(format!("simulation.seed={seed}"));
    }
    let mut loaded = pathpool_scenario::load(&args.file, &overrides).map_err(|e| CliError::usage(e.to_string()))?;
    if let Some(cc) = &args.cc {
        pathpool_scenario::mptcp::override_cc(&mut loaded, cc).map_err(|e| CliError::usage(e.to_string()))?;
    }
    if let Some(w) = pathpool_scenario::randomness::seed_warning(&loaded.scenario) {
        eprintln!("{w}");
    }
    if args.backend != "sim" && args.pcap.is_some() {
        return Err(CliError::usage(format!("--pcap: the simulator's host captures; --backend {} has none (on linux: `pathpool testbed run --capture`)", args.backend)));
    }
    let refused = |e: RunError| match e {
        RunError::Refused(m) => CliError::usage(m),
        RunError::Failed(m) => CliError::runtime(m),
    };
    // Checked before any output folder is made.
    crate::comparison::one_run::check_as("--backend", &args.backend, &loaded)?;
    if crate::backends::real(&args.backend) && !pathpool_testbed::is_root() {
        return Err(CliError::usage(format!("--backend {} needs root (it builds network namespaces, TUN devices and queues); run it as root", args.backend)));
    }
    let out = OutDir::create_reading("--out", &args.out, &[args.file.as_path()])?;
    let pcap = args.pcap.as_ref().map(|dir| OutDir::create_reading("--pcap", dir, &[args.file.as_path()])).transpose()?;
    let (outcome, summary) = if args.backend == "linux" {
        // The SBD daemon runs beside a run that asks for MPTCP-SBD, as under compare.
        crate::comparison::one_run::run_linux_into("--backend", true, &loaded, out.path(), &|line| eprintln!("{line}"))?
    } else {
        let outcome = crate::backends::make(&args.backend, true, pcap.as_ref().map(|p| p.path().to_path_buf())).run(&loaded).map_err(refused)?;
        let summary = pathpool_experiment::output::write_all(out.path(), &outcome)
            .map_err(|e| CliError::runtime(format!("--out: writing into '{}': {e}", out.target().display())))?;
        (outcome, summary)
    };
    if let Some(pcap) = pcap {
        pcap.finish()?;
    }
    out.finish()?;
    let show = |key: &str| summary.get(key).map(|v| format!("{key} = {v}"));
    let mut lines: Vec<String> = ["backend", "hosts", "scheme", "sbd_detector", "total_throughput_mbps", "bottleneck_utilization", "jain_index", "mptcp_mbps", "tcp_mbps", "sum_ratio", "decision_accuracy", "wall_seconds"].iter().filter_map(|k| show(k)).collect();
    if args.backend == "sim" && loaded.scenario.simulation.hosts == pathpool_experiment::host_model::HostModel::Ideal {
        // The phase-lock warning compares look-alike flows only; a coupled connection against
        // TCP has none, yet idealised hosts can read LIA at 3x TCP (docs/scenarios.md).
        lines.push("note: hosts = \"ideal\" is not validated against real hosts: at a drop-tail queue its flows can lock into phase, so shares may say where packets fell, not what the congestion control does (docs/fidelity.md, \"Can I trust this number?\")".to_string());
    }
    if summary.contains_key("mptcp_mbps") && !summary.contains_key("sum_ratio") {
        let competitors = loaded.scenario.flows.iter().any(|f| matches!(&f.kind, pathpool_experiment::schema::FlowKind::Tcp(t) if t.competitor));
        lines.push(if competitors {
            "note: no sum_ratio: the competitor flows delivered nothing, so MPTCP has no TCP share to be compared with".to_string()
        } else {
            "note: no sum_ratio and tcp_mbps = 0: no flow is marked `competitor = true`, the TCP flows MPTCP is compared with (docs/scenarios.md)".to_string()
        });
    }
    lines.extend(outcome.warnings.iter().chain(&outcome.kernel_warnings).chain(&pathpool_experiment::summary::detector_warnings(&outcome)).map(|w| format!("warning: {w}")));
    // A closed stdout (`| head`) must not turn a finished run into a failure.
    let _ = writeln!(std::io::stdout().lock(), "{}\nwrote {}", lines.join("\n"), args.out.display());
    Ok(())
}
