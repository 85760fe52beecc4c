//! `pathpool kernel load | unload | status`: pathpool's coupled congestion controls as BPF
//! struct_ops on this host's kernel (docs/kernel.md). Needs root and a kernel with BTF; says so
//! in one line otherwise.

use crate::error::CliError;
use clap::Subcommand;

/// Prints to stdout, ignoring a closed stdout (`| head -1`): what the command did is done,
/// whether or not its report can be read.
macro_rules! say_raw {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
}
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

#[derive(Subcommand)]
pub enum KernelWhat {
    /// Register pathpool_lia, pathpool_olia, pathpool_balia and pathpool_sbd (they stay
    /// registered until `unload`).
    Load {
        /// Turn on Linux's internal pacing on every subflow they start (cwnd/srtt, x1.2 in
        /// congestion avoidance; docs/kernel.md, "Pacing").
        #[arg(long)]
        pacing: bool,
    },
    /// Unregister them.
    Unload,
    /// Registered controllers, the MPTCP connections using them, their subflows and groups,
    /// and whether the receiver fix is on in this network namespace.
    Status,
    /// The receiver fix for Linux MPTCP's held ACKs, on a receiving host (this network
    /// namespace): `on` sets `quickack 1` on every route of its main tables (one ACK per
    /// segment, TCP and subflows alike; a destination listed twice, as IPv6's fe80::/64, is
    /// left alone), `off` restores the routes it changed, `status` lists the routes that
    /// carry it (docs/kernel.md, "The receiver fix").
    Receiver {
        #[arg(value_enum)]
        what: ReceiverWhat,
    },
    /// The SBD daemon: groups the subflows of every pathpool_sbd connection from their RTT
    /// samples (RFC 8382 statistics, S0's decision filter) and hands the groups to
    /// pathpool_sbd; logs group changes; runs until interrupted.
    Sbd {
        /// Stop after this many seconds.
        #[arg(long, value_name = "S")]
        seconds: Option<f64>,
        /// Also write every RTT sample to this trace CSV (`flow,ack_time_us,rtt_us`, one flow
        /// per subflow): the round-trip form `pathpool detect --input` reads.
        #[arg(long, value_name = "FILE")]
        samples: Option<std::path::PathBuf>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ReceiverWhat {
    /// Set quickack on every route.
    On,
    /// Restore the routes `on` changed.
    Off,
    /// Show whether it is on and which routes carry quickack.
    Status,
}

fn receiver(what: ReceiverWhat) -> Result<(), CliError> {
    let list = |routes: &[String]| routes.iter().map(|r| format!("  {r}\n")).collect::<String>();
    match what {
        ReceiverWhat::On => {
            let changed = pathpool_kernel::receiver_on().map_err(CliError::runtime)?;
            say_raw!("receiver fix on: quickack 1 on {} route(s)\n{}", changed.len(), list(&changed));
        }
        ReceiverWhat::Off => {
            let restored = pathpool_kernel::receiver_off().map_err(CliError::runtime)?;
            say_raw!("receiver fix off: {} route(s) restored\n{}", restored.len(), list(&restored));
        }
        ReceiverWhat::Status => {
            let (on, quick) = pathpool_kernel::receiver_status().map_err(CliError::runtime)?;
            say_raw!("receiver fix: {}\nroutes with quickack 1: {}\n{}", if on { "on" } else { "off" }, quick.len(), list(&quick));
        }
    }
    Ok(())
}

pub fn run(what: KernelWhat) -> Result<(), CliError> {
    match what {
        KernelWhat::Load { pacing } => {
            let names = pathpool_kernel::load().map_err(CliError::runtime)?;
            if pacing {
                if let Err(e) = pathpool_kernel::set_pacing(true) {
                    let _ = pathpool_kernel::unload();
                    return Err(CliError::runtime(e));
                }
            }
            say!("registered: {}{}", names.join(" "), if pacing { " (pacing on)" } else { "" });
        }
        KernelWhat::Unload => {
            let names = pathpool_kernel::unload().map_err(CliError::runtime)?;
            if names.is_empty() {
                say!("nothing was registered");
            } else {
                say!("unregistered: {}", names.join(" "));
            }
        }
        KernelWhat::Sbd { seconds, samples } => {
            if seconds.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
                return Err(CliError::usage("--seconds: expected a positive number of seconds"));
            }
            let max = seconds.map(std::time::Duration::from_secs_f64);
            let trace: Option<Box<dyn std::io::Write>> = match &samples {
                Some(p) => Some(Box::new(std::io::BufWriter::new(std::fs::File::create(p).map_err(|e| {
                    CliError::runtime(format!("--samples {}: cannot create it: {e}", p.display()))
                })?))),
                None => None,
            };
            pathpool_kernel::run_sbd(&mut std::io::stdout(), max, trace).map_err(CliError::runtime)?;
        }
        KernelWhat::Status => {
            let s = pathpool_kernel::status().map_err(CliError::runtime)?;
            say_raw!("{s}");
            // The fix acts on the receiving host, which may be this one: say whether it is on.
            let (on, quick) = pathpool_kernel::receiver_status().map_err(CliError::runtime)?;
            say!("receiver fix (this network namespace): {}, {} route(s) with quickack 1", if on { "on" } else { "off" }, quick.len());
        }
        KernelWhat::Receiver { what } => receiver(what)?,
    }
    Ok(())
}
