//! What the testbed can run, decided before anything is built. Every key the testbed cannot
//! honour on this kernel is an error that names the file, the field and why; nothing runs a
//! scenario the testbed would have to change.

use crate::Result;
use pathpool_netlab::plan::{FlowNeeds, Paths};
use pathpool_experiment::schema::{FlowKind, TcpSpec, TcpTraffic, UdpPattern};
use pathpool_experiment::Loaded;
use std::collections::BTreeMap;

/// The simulator's default ACK size; the testbed's ACKs are Linux's, whatever their size.
const DEFAULT_ACK_SIZE: u64 = 40;
/// IPv4 and TCP headers plus the timestamp option Linux sends on every segment.
pub const TCP_HEADERS: u64 = 52;
const MIN_PACKET: u64 = 576;

/// The TCP settings of a flow or of every subflow of a connection, as Linux takes them.
#[derive(Clone, Debug)]
pub struct TcpSettings {
    /// Linux's name of the congestion control, set with TCP_CONGESTION.
    pub cc: String,
    pub sack: bool,
    /// delayed_ack = false: the receiver asks for an immediate ACK after every read.
    pub quickack: bool,
    /// delayed_ack = "linux-delack-max" (MPTCP): the receiver fix's sock_ops program caps the
    /// subflows' delayed-ACK timer in the receiver's namespace for the run.
    pub delack_max: bool,
    /// delayed_ack = "linux-proposed": the kernel change docs/kernel.md proposes, which no
    /// kernel has, emulated by the receiver fix's `read-ack` programs in the receiver's
    /// namespace for the run (the subflows' read-time ACK as TCP's); its sender negotiates
    /// ECN, which the programs need. On a TCP flow the change alters nothing.
    pub read_ack: bool,
    pub initial_window: u32,
    pub min_rto_ms: u64,
    /// Wire size of a full data segment.
    pub packet_size: u64,
    /// SO_RCVLOWAT of the receiving socket (`receive_lowat`, TCP flows only).
    pub receive_lowat: Option<u64>,
}

#[derive(Clone, Debug)]
pub enum Checked {
    Tcp { tcp: TcpSettings, traffic: TcpTraffic },
    /// `receive_buffer`: the connection's receive buffer in bytes (scenario packets times
    /// packet_size), set with SO_RCVBUFFORCE on the receiver's listening socket.
    Mptcp { tcp: TcpSettings, subflows: usize, receive_buffer: Option<u64> },
    Udp { packet_size: u64, pattern: UdpPattern },
}

impl FlowNeeds for Checked {
    /// Attributes of the sender's route: Linux takes the initial window and the RTO floor
    /// per route.
    fn route_attributes(&self) -> String {
        match self {
            Checked::Tcp { tcp, .. } | Checked::Mptcp { tcp, .. } => format!(" initcwnd {} rto_min {}ms", tcp.initial_window, tcp.min_rto_ms),
            Checked::Udp { .. } => String::new(),
        }
    }

    /// Route attributes of the receiver's route back to the sender: `quickack 1` for
    /// `delayed_ack = false`, which puts every socket on that route, an MPTCP connection's
    /// subflows included, in quick-ACK mode for good (`tcp_in_quickack_mode`,
    /// net/ipv4/tcp_input.c: `dst_metric(dst, RTAX_QUICKACK)`): one ACK per segment.
    fn receiver_route_attributes(&self) -> &'static str {
        match self {
            Checked::Tcp { tcp, .. } | Checked::Mptcp { tcp, .. } if tcp.quickack => " quickack 1",
            _ => "",
        }
    }

    /// SACK on (true) or off at the sender, for TCP-based flows.
    fn sack(&self) -> Option<bool> {
        match self {
            Checked::Tcp { tcp, .. } | Checked::Mptcp { tcp, .. } => Some(tcp.sack),
            Checked::Udp { .. } => None,
        }
    }

    /// The `read-ack` programs act on ECN events, so the subflows' sender asks for ECN.
    fn ecn(&self) -> bool {
        self.read_ack()
    }

    /// MPTCP's subflows leave from addresses of their own (the path manager's endpoints).
    fn paths(&self) -> Paths {
        Paths::BySource
    }
}

impl Checked {
    /// Whether the receiver's namespace needs the `delack-max` program for this flow.
    pub fn delack_max(&self) -> bool {
        matches!(self, Checked::Mptcp { tcp, .. } if tcp.delack_max)
    }

    /// Whether the receiver's namespace needs the `read-ack` programs for this flow.
    pub fn read_ack(&self) -> bool {
        matches!(self, Checked::Mptcp { tcp, .. } if tcp.read_ack)
    }
}

/// The congestion controls this kernel offers to sockets.
pub fn available_congestion_controls() -> Vec<String> {
    std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control").map(|s| s.split_whitespace().map(String::from).collect()).unwrap_or_default()
}

/// Checks the scenario against what the testbed can honour; returns one `Checked` per flow
/// of the topology (copies expanded), in topology order.
pub fn check(l: &Loaded, kernel_ccs: &[String]) -> Result<Vec<Checked>> {
    let src = &l.source;
    pathpool_netlab::plan::check_network(l)?;
    let mut recovery_at: BTreeMap<String, (bool, String)> = BTreeMap::new();
    let mut mptcp_at: BTreeMap<String, String> = BTreeMap::new();
    let mut checked = Vec::new();
    for flow in &l.topology.flows {
        let spec = &l.scenario.flows[flow.template];
        // A named flow's name is located at `flows.NAME.name`; its other keys at `flows.NAME.KEY`.
        let base = spec.name.path.strip_suffix(".name").unwrap_or(&spec.name.path);
        let field = |key: &str| format!("{base}.{key}");
        let refuse = |key: &str, why: String| -> crate::TestbedError { crate::TestbedError(src.error(&spec.name.origin, &field(key), why).to_string()) };
        let sender = l.topology.links[flow.route[0].link].clone();
        let sender_node = if flow.route[0].reverse { sender.to } else { sender.from };
        let c = match &spec.kind {
            FlowKind::Tcp(t) => {
                let tcp = settings(t, t.cc.name(), kernel_ccs).map_err(|(k, why)| refuse(k, why))?;
                Checked::Tcp { tcp, traffic: t.traffic }
            }
            FlowKind::Mptcp(m) => {
                let other = m.cc.value.as_str();
                // The scheme table says what runs on Linux: uncoupled schemes on the kernel's
                // own controllers, coupled ones as BPF struct_ops (docs/kernel.md).
                let cc = match other.parse().ok().and_then(pathpool_kernel::linux_cc) {
                    Some(pathpool_kernel::LinuxCc::Stock(stock)) => stock,
                    Some(pathpool_kernel::LinuxCc::Bpf(bpf)) => {
                        pathpool_kernel::buildable().map_err(|why| refuse("cc", format!("\"{other}\" runs as the BPF controller {bpf}, but {why}")))?;
                        bpf
                    }
                    None => {
                        let linux: Vec<String> = pathpool_cc::Scheme::on(pathpool_cc::Backend::Linux).map(|s| format!("\"{s}\"")).collect();
                        return Err(refuse("cc", format!("\"{other}\" has no kernel implementation; the testbed runs MPTCP with {} (docs/schemes.md)", linux.join(", "))));
                    }
                };
                let tcp = settings(&m.tcp, cc, kernel_ccs).map_err(|(k, why)| refuse(k, why))?;
                if m.scheduler != pathpool_experiment::schema::Scheduler::LowestRtt {
                    return Err(refuse("scheduler", "Linux MPTCP has only its default scheduler (lowest RTT first): use \"lowest-rtt\"".into()));
                }
                if m.subflows.len() > 8 {
                    return Err(refuse("subflows", format!("Linux MPTCP allows at most 8 subflows, got {}", m.subflows.len())));
                }
                if let Some(other) = mptcp_at.insert(sender_node.clone(), flow.name.clone()) {
                    return Err(refuse(
                        "route",
                        format!("connections \"{other}\" and \"{}\" both start at node \"{sender_node}\"; Linux's path manager adds the same subflows to every connection of a node, so the testbed runs one multipath connection per sender node", flow.name),
                    ));
                }
                // Bytes, within what SO_RCVBUFFORCE takes (an int, which Linux doubles).
                let receive_buffer = match m.receive_buffer.map(|p| p.saturating_mul(tcp.packet_size)) {
                    Some(b) if b > (i32::MAX / 2) as u64 => {
                        return Err(refuse("receive_buffer", format!("at most {} packets of {} B on the testbed (Linux's socket buffer limit), got {}", (i32::MAX / 2) as u64 / tcp.packet_size, tcp.packet_size, b / tcp.packet_size)));
                    }
                    b => b,
                };
                Checked::Mptcp { tcp, subflows: m.subflows.len(), receive_buffer }
            }
            FlowKind::Udp(u) => {
                if u.packet_size < 29 {
                    return Err(refuse("packet_size", "a UDP packet on the wire has at least 28 B of headers".into()));
                }
                Checked::Udp { packet_size: u.packet_size, pattern: u.pattern }
            }
        };
        if let Some(sack) = c.sack() {
            if let Some((other_sack, other)) = recovery_at.insert(sender_node.clone(), (sack, flow.name.clone())) {
                if other_sack != sack {
                    return Err(refuse(
                        "recovery",
                        format!("flows \"{other}\" and \"{}\" leave node \"{sender_node}\" with different loss recovery; Linux turns SACK on or off per namespace, so give them the same recovery or different sender nodes", flow.name),
                    ));
                }
            }
        }
        checked.push(c);
    }
    Ok(checked)
}

fn settings(t: &TcpSpec, cc: &str, kernel_ccs: &[String]) -> std::result::Result<TcpSettings, (&'static str, String)> {
    let linux = match cc {
        "reno" | "uncoupled" => "reno",
        "cubic" | "uncoupled-cubic" => "cubic",
        bpf if pathpool_kernel::controllers().contains(&bpf) => bpf, // registered for the run
        other => return Err(("cc", format!("\"{other}\" is a coupled controller; the testbed runs Linux's built-in controllers: \"reno\" or \"cubic\""))),
    };
    if !pathpool_kernel::controllers().contains(&linux) && !kernel_ccs.iter().any(|k| k == linux) {
        return Err(("cc", format!("this kernel offers no \"{linux}\" congestion control (available: {})", kernel_ccs.join(" "))));
    }
    // `send_jitter` models a real host's per-packet jitter in the simulator (and
    // `simulation.host_latency` its processing time), and `send_buffer` and `delayed_ack =
    // "linux"` Linux's own sender and receiver; here the host supplies the real thing, so
    // those keys have nothing to change.
    if t.log_delays {
        return Err(("log_delays", "the testbed does not log per-packet delays (capture the traffic instead)".into()));
    }
    if t.ack_size != DEFAULT_ACK_SIZE {
        return Err(("ack_size", format!("the testbed's ACKs are Linux's ({TCP_HEADERS} B with timestamps); leave ack_size at its default")));
    }
    if t.packet_size < MIN_PACKET {
        return Err(("packet_size", format!("at least {MIN_PACKET} B on the testbed (IPv4's minimum MTU for TCP here), got {} B", t.packet_size)));
    }
    if t.initial_window.fract() != 0.0 || t.initial_window < 1.0 {
        return Err(("initial_window", format!("Linux takes a whole number of segments, got {}", t.initial_window)));
    }
    if let Some(floor) = t.min_ssthresh.filter(|&m| m != 2.0) {
        return Err(("min_ssthresh", format!("Linux floors ssthresh at 2 segments, and so do the testbed's kernel controllers; leave min_ssthresh at 2, got {floor}")));
    }
    let ms = 1_000_000_000u64;
    if t.min_rto % ms != 0 {
        return Err(("min_rto", "Linux takes the RTO floor in whole milliseconds".into()));
    }
    Ok(TcpSettings {
        cc: linux.to_string(),
        sack: matches!(t.recovery, pathpool_experiment::schema::Recovery::Sack),
        quickack: !t.delayed_ack,
        delack_max: t.delack_max,
        read_ack: t.subflow_read_alone,
        initial_window: t.initial_window as u32,
        min_rto_ms: t.min_rto / ms,
        packet_size: t.packet_size,
        receive_lowat: t.receive_lowat,
    })
}
