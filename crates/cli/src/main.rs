//! `pathpool`: the command-line front end. Each subcommand lives in `cmd/` and only parses,
//! validates and hands over to the library crates.

mod backends;
mod cmd;
mod comparison;
mod error;
mod fidelity;
mod outdir;
mod scheme_arg;
mod seed_arg;
mod time_arg;

use clap::{Parser, Subcommand};
use error::CliError;

#[derive(Parser)]
#[command(name = "pathpool", version, about = "Multipath congestion control that knows when paths share a bottleneck")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// [S1] §5.1 window-level simulator: exogenous per-packet loss, one increase or decrease
    /// per round; writes summary.json, timeseries.csv and windows.png.
    Cwndsim(cmd::cwndsim::CwndsimArgs),
    /// [S3] §7.4 window-growth simulation (80-packet FIFO, 600 cycles) of LIA, OLIA and BALIA
    /// against NewReno; writes CSVs, PNGs and summaries.
    Windowsim(cmd::windowsim::WindowsimArgs),
    /// Detect shared bottlenecks in a packet trace (CSV) or packet captures (--pcap: pcap,
    /// pcapng; MPTCP subflows grouped into their connections).
    Detect(cmd::detect::DetectArgs),
    /// Write a synthetic packet trace with a known answer (shared or separate bottlenecks).
    Tracegen(cmd::tracegen::TracegenArgs),
    /// Speed benchmarks.
    #[command(subcommand)]
    Bench(cmd::bench::BenchWhat),
    /// Run a scenario file and write its summary, time series and plots.
    Run(cmd::run::RunArgs),
    /// Run a scenario file on several backends (sim, linux) side by side: medians, ranges and
    /// relative errors of its summary keys over repeats, and one figure.
    Compare(cmd::compare::CompareArgs),
    /// Run a source paper's experiments (or all papers') and write a report beside the
    /// published numbers.
    Reproduce(cmd::reproduce::ReproduceArgs),
    /// Run a scenario on real Linux (network namespaces, tbf queues, real TCP/MPTCP/UDP
    /// sockets) and write the same outputs as `run`; needs root.
    #[command(subcommand)]
    Testbed(cmd::testbed::TestbedWhat),
    /// The fidelity suite (scenarios/fidelity/) in the simulator and on real Linux side by
    /// side: report.md with each case's quantity, both medians and the relative error; needs root.
    Fidelity(cmd::fidelity::FidelityArgs),
    /// pathpool's coupled controllers (LIA, OLIA, BALIA, MPTCP-SBD) as BPF struct_ops on this
    /// kernel, for upstream MPTCP; needs root.
    #[command(subcommand)]
    Kernel(cmd::kernel::KernelWhat),
    /// Multipath QUIC (noq) with pathpool's coupled controllers over loopback paths shaped in
    /// user space; writes the same files as `pathpool run` (docs/quic.md).
    #[command(subcommand)]
    Quic(cmd::quic::QuicWhat),
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Cwndsim(args) => cmd::cwndsim::run(args),
        Command::Windowsim(args) => cmd::windowsim::run(args),
        Command::Detect(a) => cmd::detect::run(a),
        Command::Tracegen(a) => cmd::tracegen::run(a),
        Command::Bench(w) => cmd::bench::run(w),
        Command::Run(args) => cmd::run::run(args),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Reproduce(args) => cmd::reproduce::run(args),
        Command::Testbed(w) => cmd::testbed::run(w),
        Command::Fidelity(a) => cmd::fidelity::run(a),
        Command::Kernel(w) => cmd::kernel::run(w),
        Command::Quic(w) => cmd::quic::run(w),
    }
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli.command) {
        eprintln!("pathpool: {e}");
        std::process::exit(e.exit_code());
    }
}
