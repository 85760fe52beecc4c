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
    /// Register pp_lia, pp_olia, pp_balia and pp_mptcp_sbd (they stay
    /// registered until `unload`).
    Load {
        /// Turn on Linux's internal pacing on every subflow they start (cwnd/srtt, x1.2 in
        /// congestion avoidance; docs/kernel.md, "Pacing").
        #[arg(long)]
        pacing: bool,
        /// Leave each subflow's send queue as Linux sizes it. By default the controllers bound
        /// it by the subflow's window (TCP_NOTSENT_LOWAT), so that Linux's MPTCP scheduler
        /// cannot park the connection's data behind a subflow with a small window
        /// (docs/kernel.md, "The subflows' send queues").
        #[arg(long)]
        linux_queues: bool,
    },
    /// Unregister them.
    Unload,
    /// Registered controllers, the MPTCP connections using them, their subflows and groups,
    /// and whether the receiver fix is on in this network namespace.
    Status,
    /// The receiver fix for Linux MPTCP's held ACKs, on a receiving host (this network
    /// namespace): `on` has this namespace's MPTCP subflows send the read-time ACK a TCP
    /// receiver sends (BPF; TCP untouched; the subflows' senders must negotiate ECN:
    /// net.ipv4.tcp_ecn=1 there), or with `--mode route` sets `quickack 1` on every route of
    /// its main tables (one ACK per segment, TCP and subflows alike; a destination listed
    /// twice, as IPv6's fe80::/64, is left alone), or with `--mode delack-max` attaches a
    /// sock_ops program that caps the delayed-ACK timer of the subflows at 2 jiffies; `off`
    /// undoes whichever is on, `status` shows them all (docs/kernel.md, "The receiver fix").
    Receiver {
        #[arg(value_enum)]
        what: ReceiverWhat,
        /// With `on`: which fix (default read-ack).
        #[arg(long, value_enum)]
        mode: Option<ReceiverMode>,
    },
    /// The SBD daemon: groups the subflows of every pp_mptcp_sbd connection from their RTT
    /// samples (RFC 8382 statistics, S0's decision filter) and hands the groups to
    /// pp_mptcp_sbd; logs group changes; runs until interrupted.
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
    /// Turn the fix on (by default the read-time ACK, `--mode read-ack`).
    On,
    /// Turn off whichever mode is on (the routes `--mode route` changed restored exactly).
    Off,
    /// Show each mode: whether it is on and what it covers.
    Status,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReceiverMode {
    /// `quickack 1` on every route: every flow ACKs every segment.
    Route,
    /// sock_ops on the MPTCP subflows only: their delayed-ACK timer at its minimum.
    DelackMax,
    /// The MPTCP subflows only: each ACKs a lone pushed segment as TCP does at the read
    /// (a BPF congestion control on them; their senders must negotiate ECN).
    ReadAck,
}

/// One line on the `delack-max` program: off, or what it did so far.
fn delack_line() -> Result<String, CliError> {
    Ok(match pathpool_kernel::delack_status().map_err(CliError::runtime)? {
        None => "off".into(),
        Some(s) => format!(
            "on: {} subflow(s) capped at {} µs (2 jiffies), {} refused, {} incoming segment(s) seen on them, {} other TCP socket(s) left alone; bpf_setsockopt(TCP_QUICKACK) {}",
            s.capped,
            s.delack_max_us,
            s.refused,
            s.segments,
            s.others,
            match s.quickack_errno {
                None => "not tried yet".to_string(),
                Some(0) => "accepted".to_string(),
                Some(e) => format!("refused: {}", std::io::Error::from_raw_os_error(e as i32)),
            }
        ),
    })
}

/// One line on the `read-ack` programs: off, or what they did so far here.
fn read_ack_line() -> Result<String, CliError> {
    Ok(match pathpool_kernel::read_ack_status().map_err(CliError::runtime)? {
        None => "off".into(),
        Some(s) => {
            let mut line = format!(
                "on: {} subflow(s) on {}, {} read-time ACK(s) sent for {} data segment(s); {} TCP socket(s) left alone",
                s.subflows,
                pathpool_kernel::READ_ACK_CCS.join(" or "),
                s.acks,
                s.segments,
                s.others
            );
            // Never silently uncovered: a subflow the fix could not take keeps Linux's holds.
            if s.no_ecn > 0 {
                line += &format!("; NOT covered: {} subflow(s) whose sender did not negotiate ECN (the fix needs it: net.ipv4.tcp_ecn=1 at the sender)", s.no_ecn);
            }
            if s.other_cc > 0 {
                line += &format!("; NOT covered: {} subflow(s) on a congestion control other than cubic, reno or bbr, left on it", s.other_cc);
            }
            if s.moved_off > 0 {
                line += &format!("; NOT covered: {} data segment(s) on subflows an application moved to a congestion control other than cubic, reno or bbr", s.moved_off);
            }
            if s.refused > 0 {
                line += &format!("; NOT covered: {} subflow(s) where the kernel refused the change", s.refused);
            }
            line
        }
    })
}

fn receiver(what: ReceiverWhat, mode: Option<ReceiverMode>) -> Result<(), CliError> {
    let list = |routes: &[String]| routes.iter().map(|r| format!("  {r}\n")).collect::<String>();
    if mode.is_some() && !matches!(what, ReceiverWhat::On) {
        return Err(CliError::usage("--mode is for `receiver on`; `off` and `status` cover every mode"));
    }
    let mode = mode.unwrap_or(ReceiverMode::ReadAck);
    match (what, mode) {
        (ReceiverWhat::On, ReceiverMode::Route) => {
            let changed = pathpool_kernel::receiver_on().map_err(CliError::runtime)?;
            say_raw!("receiver fix on: quickack 1 on {} route(s)\n{}", changed.len(), list(&changed));
        }
        (ReceiverWhat::On, ReceiverMode::DelackMax) => {
            let (cgroup, _) = pathpool_kernel::delack_on().map_err(CliError::runtime)?;
            say!("receiver fix on (delack-max): sock_ops program attached to {}, for the MPTCP subflows of this network namespace", cgroup.display());
        }
        (ReceiverWhat::On, ReceiverMode::ReadAck) => {
            pathpool_kernel::read_ack_on().map_err(CliError::runtime)?;
            say!("receiver fix on (read-ack): the MPTCP subflows established in this network namespace from now on, on cubic, reno or bbr, take {} (their senders must negotiate ECN: net.ipv4.tcp_ecn=1 there)", pathpool_kernel::READ_ACK_CCS.join(" or "));
        }
        (ReceiverWhat::Off, _) => {
            let restored = pathpool_kernel::receiver_off().map_err(CliError::runtime)?;
            if pathpool_kernel::read_ack_off().map_err(CliError::runtime)? {
                say!("receiver fix off (read-ack): this network namespace disabled");
            }
            let detached = pathpool_kernel::delack_off().map_err(CliError::runtime)?;
            say_raw!("receiver fix off: {} route(s) restored\n{}", restored.len(), list(&restored));
            if detached {
                say!("receiver fix off (delack-max): sock_ops program detached");
            }
        }
        (ReceiverWhat::Status, _) => {
            let (on, quick) = pathpool_kernel::receiver_status().map_err(CliError::runtime)?;
            say_raw!("receiver fix: {}\nroutes with quickack 1: {}\n{}", if on { "on" } else { "off" }, quick.len(), list(&quick));
            say!("delack-max: {}", delack_line()?);
            say!("read-ack: {}", read_ack_line()?);
        }
    }
    Ok(())
}

pub fn run(what: KernelWhat) -> Result<(), CliError> {
    match what {
        KernelWhat::Load { pacing, linux_queues } => {
            let names = pathpool_kernel::load().map_err(CliError::runtime)?;
            let options = [(pacing, pathpool_kernel::set_pacing as fn(bool) -> Result<(), String>), (linux_queues, pathpool_kernel::set_linux_queues)];
            for (wanted, set) in options {
                if wanted {
                    if let Err(e) = set(true) {
                        let _ = pathpool_kernel::unload();
                        return Err(CliError::runtime(e));
                    }
                }
            }
            say!(
                "registered: {}{}{}",
                names.join(" "),
                if pacing { " (pacing on)" } else { "" },
                if linux_queues { " (subflow send queues as Linux sizes them)" } else { "" }
            );
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
            say!("receiver fix, delack-max (this network namespace): {}", delack_line()?);
            say!("receiver fix, read-ack (this network namespace): {}", read_ack_line()?);
        }
        KernelWhat::Receiver { what, mode } => receiver(what, mode)?,
    }
    Ok(())
}
