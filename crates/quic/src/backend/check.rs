//! What multipath QUIC can run of a scenario, decided before anything is built. The network
//! is pathpool-netlab's (its own checks: probe interval, queues); a flow is refused where
//! QUIC has no way to honour a key that changes what is measured.

use crate::QuicCc;
use pathpool_experiment::schema::{FlowKind, Scheduler, TcpSpec, TcpTraffic};
use pathpool_experiment::Loaded;
use pathpool_netlab::plan::{FlowNeeds, Paths};

/// The initial window pathpool-cc's controllers start QUIC paths with (RFC 6928's 10).
const INITIAL_WINDOW: f64 = 10.0;

/// One flow of the topology as QUIC runs it.
#[derive(Clone, Debug)]
pub struct QuicFlow {
    pub cc: QuicCc,
    /// Paths of the connection (1 for a TCP flow).
    pub paths: usize,
    /// A TCP flow of the scenario (its row is the flow's name, not `NAME.sfK`).
    pub single: bool,
    pub bulk: bool,
}

/// A QUIC connection sends all its paths from one socket, so its paths differ by
/// destination address; QUIC's own congestion control needs no route attributes.
impl FlowNeeds for QuicFlow {
    fn route_attributes(&self) -> String {
        String::new()
    }

    fn receiver_route_attributes(&self) -> &'static str {
        ""
    }

    fn sack(&self) -> Option<bool> {
        None
    }

    fn paths(&self) -> Paths {
        Paths::ByDestination
    }
}

/// One `QuicFlow` per flow of the topology (copies expanded), in topology order; or the
/// message naming the file, line and key QUIC cannot run.
pub fn check(l: &Loaded) -> Result<Vec<QuicFlow>, String> {
    pathpool_netlab::plan::check_network(l).map_err(|e| e.0)?;
    let src = &l.source;
    let mut out = Vec::new();
    for flow in &l.topology.flows {
        let spec = &l.scenario.flows[flow.template];
        let base = spec.name.path.strip_suffix(".name").unwrap_or(&spec.name.path);
        let refuse = |key: &str, why: String| src.error(&spec.name.origin, &format!("{base}.{key}"), why).to_string();
        let f = match &spec.kind {
            FlowKind::Tcp(t) => {
                if t.cc.name() != "reno" {
                    return Err(refuse("cc", format!("\"{}\": a TCP flow runs on QUIC as one path with pathpool-cc's Reno (docs/quic.md); use \"reno\"", t.cc.name())));
                }
                if t.traffic != TcpTraffic::Bulk {
                    return Err(refuse("traffic", "the quic backend sends bulk data only (a QUIC stream for the whole run)".into()));
                }
                tcp_keys(t).map_err(|(k, why)| refuse(k, why))?;
                QuicFlow { cc: QuicCc::Uncoupled, paths: 1, single: true, bulk: true }
            }
            FlowKind::Mptcp(m) => {
                let cc = m.cc.value.parse::<QuicCc>().map_err(|e| refuse("cc", format!("{e} (the scheme table's quic column, docs/schemes.md)")))?;
                if m.scheduler != Scheduler::LowestRtt {
                    return Err(refuse("scheduler", "noq schedules packets over the paths its own way; leave the scheduler at \"lowest-rtt\"".into()));
                }
                if m.subflows.len() > 8 {
                    return Err(refuse("subflows", format!("at most 8 paths (noq's concurrent paths here), got {}", m.subflows.len())));
                }
                if m.receive_buffer.is_some() {
                    return Err(refuse("receive_buffer", "QUIC's flow control windows are noq's; the quic backend cannot set a connection receive buffer".into()));
                }
                let sbd_keys = [
                    ("sbd_feedback", m.sbd_feedback.is_some()),
                    ("sbd_sample_spacing", m.sbd_sample_spacing.is_some()),
                    ("sbd_corr_min", m.sbd_corr_min.is_some()),
                    ("sbd_detector", m.sbd_detector.is_some()),
                    ("sbd_receiver", m.sbd_receiver.is_some()),
                    ("sbd_verify", m.sbd_verify.is_some()),
                    ("sbd_verify_follow", m.sbd_verify_follow.is_some()),
                    ("sbd_verify_start", m.sbd_verify_start.is_some()),
                ];
                if let Some((key, _)) = sbd_keys.iter().find(|(_, set)| *set) {
                    return Err(refuse(key, "QUIC's detector runs at the sender on its RTT samples with the MPTCP-SBD preset (docs/quic.md); the quic backend has no such setting".into()));
                }
                tcp_keys(&m.tcp).map_err(|(k, why)| refuse(k, why))?;
                QuicFlow { cc, paths: m.subflows.len().max(1), single: false, bulk: false }
            }
            FlowKind::Udp(_) => return Err(refuse("kind", "\"udp\": the quic backend runs QUIC connections only; run UDP traffic on sim or linux".into())),
        };
        out.push(f);
    }
    Ok(out)
}

/// TCP keys QUIC cannot honour. Recovery, RTO, delayed ACKs as Linux does them, send
/// jitter and send buffers describe TCP's own machinery, which QUIC replaces with RFC 9002's
/// and noq's (accepted, as the linux backend accepts the keys its real hosts supply).
fn tcp_keys(t: &TcpSpec) -> Result<(), (&'static str, String)> {
    if t.log_delays {
        return Err(("log_delays", "the quic backend does not log per-packet delays".into()));
    }
    if t.initial_window != INITIAL_WINDOW {
        return Err(("initial_window", format!("QUIC paths start with pathpool-cc's {INITIAL_WINDOW} segments here, got {}", t.initial_window)));
    }
    if t.subflow_read_alone || t.delack_max {
        return Err(("delayed_ack", "\"linux-proposed\" and \"linux-delack-max\" change Linux's TCP receiver; QUIC's ACKs are noq's: use \"linux\", true or false".into()));
    }
    if t.receive_lowat.is_some() {
        return Err(("receive_lowat", "a TCP socket option; the quic backend reads its stream as data arrives".into()));
    }
    Ok(())
}
