//! What a detection run is asked: the `pathpool detect` arguments, parsed by clap on the
//! command line and by the Python binding alike, so that they mean the same in both.

use std::path::PathBuf;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DetectorKind {
    /// RFC 8382 with its §2.2 parameters (needs the one-way-delay form).
    Rfc8382,
    /// MPTCP-SBD ([S0] Table I) with its decision filter (one-way-delay form).
    MptcpSbd,
    /// MPTCP-SBD with the delay-correlation split and the bottleneck-change detector
    /// (docs/sbd.md, "The pathpool preset"; one-way-delay form).
    Pathpool,
    /// Trend-line regression on RTT ([S2]; needs the round-trip form).
    Tr,
}

impl DetectorKind {
    /// The name the outputs give it (the `--detector` value).
    pub fn name(self) -> &'static str {
        match self {
            DetectorKind::Rfc8382 => "rfc8382",
            DetectorKind::MptcpSbd => "mptcp-sbd",
            DetectorKind::Pathpool => "pathpool",
            DetectorKind::Tr => "tr",
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct DetectArgs {
    /// Trace CSV: `flow,send_time_us,recv_time_us[,lost]` or `flow,ack_time_us,rtt_us`.
    #[arg(long, required_unless_present = "files")]
    pub input: Option<PathBuf>,
    /// Packet captures instead of a trace CSV (docs/pcap.md).
    #[command(flatten)]
    pub pcap: PcapArgs,
    #[arg(long, value_enum, default_value = "pathpool")]
    pub detector: DetectorKind,
    /// Override a parameter, NAME=VALUE (repeatable); run with a bad name to list them.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// The truth.json `tracegen` wrote for this trace: every decision and observation is
    /// scored against it (truth.csv, `truth` in summary.json, accuracies on stdout).
    #[arg(long, value_name = "FILE")]
    pub truth: Option<PathBuf>,
    /// Output folder (observations.csv, decisions.csv, summary.json).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DelayArg {
    /// One-way delay where the capture shows queueing before it, else round-trip time.
    #[default]
    Auto,
    /// Relative one-way delay from TCP timestamps (capture at or near the receiver).
    Owd,
    /// Round-trip time (capture at or near the sender, with its ACKs).
    Rtt,
}

#[derive(clap::Args, Debug, Default)]
pub struct PcapArgs {
    /// Packet capture (pcap or pcapng; repeatable: the files are merged in time order).
    #[arg(long = "pcap", value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Analyse only data sent by this address (default: the direction of each connection
    /// that carries more payload).
    #[arg(long, value_name = "ADDR", requires = "files")]
    pub sender: Option<std::net::IpAddr>,
    /// Delay source per subflow.
    #[arg(long, value_enum, default_value_t = DelayArg::Auto, requires = "files")]
    pub delay: DelayArg,
    /// Sample thinning: the first delay sample of each slot of this many ms counts (0: every
    /// packet; MPTCP-SBD's kernel code uses 5).
    #[arg(long, value_name = "MS", default_value_t = 5.0, requires = "files")]
    pub sample_spacing_ms: f64,
    /// Connections with fewer data segments are left out.
    #[arg(long, value_name = "N", default_value_t = 100, requires = "files")]
    pub min_packets: u64,
    /// Keep each subflow's linear drift of the one-way delay (relative clock skew) instead of
    /// removing it before the statistics.
    #[arg(long, requires = "files")]
    pub no_skew_correction: bool,
}
