//! What `pathpool kernel status` reports.

use std::fmt;

/// One MPTCP connection whose subflows run a pathpool controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnStatus {
    pub token: u32,
    pub controller: &'static str,
    pub subflows: u32,
    /// (subflow id, group) as the SBD daemon last wrote them; empty = one group.
    pub groups: Vec<(u32, u32)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// pathpool controllers registered in the kernel now.
    pub registered: Vec<String>,
    pub connections: Vec<ConnStatus>,
    /// Whether new subflows get Linux's internal pacing (`pathpool kernel load --pacing`).
    pub pacing: bool,
    /// Whether the subflows' send queues are left as Linux sizes them (`--linux-queues`)
    /// rather than bounded by each subflow's window.
    pub linux_queues: bool,
    /// The controllers' guards since loading: cong_avoid calls with more than 65535 segments
    /// acknowledged, increases capped at one segment per acknowledged segment, calls entered
    /// with a window above 65535 segments; the largest `acked` and window seen; calls that
    /// skipped the increase as not cwnd-limited, and calls that went on; send queue bounds
    /// set, and refused.
    pub guards: [u64; GUARDS],
    /// The first window above 65535 segments a hook met since loading, if any.
    pub absurd_window: Option<crate::AbsurdWindow>,
}

/// The counters of pp_stats (PP_ST_N in pathpool_cc.bpf.c).
pub const GUARDS: usize = 9;

/// The pathpool controllers in `tcp_available_congestion_control`.
pub fn registered() -> Vec<String> {
    let text = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .unwrap_or_default();
    text.split_whitespace()
        .filter(|n| crate::controllers().contains(n))
        .map(str::to_string)
        .collect()
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.registered.is_empty() {
            return writeln!(f, "registered: none");
        }
        writeln!(f, "registered: {}", self.registered.join(" "))?;
        writeln!(f, "pacing: {}", if self.pacing { "on" } else { "off" })?;
        let g = &self.guards;
        writeln!(
            f,
            "guards: acked above 65535 {}, increases capped {}, window above 65535 on entry {} (largest acked {}, largest window {})",
            g[0], g[1], g[2], g[3], g[4]
        )?;
        if let Some(a) = &self.absurd_window {
            writeln!(f, "{a}")?;
        }
        writeln!(f, "increase calls: {} not cwnd-limited (skipped), {} cwnd-limited", g[5], g[6])?;
        if self.linux_queues {
            writeln!(f, "subflow send queues: as Linux sizes them (--linux-queues)")?;
        } else {
            writeln!(f, "subflow send queues: one window each (TCP_NOTSENT_LOWAT set {} times, refused {})", g[7], g[8])?;
        }
        let subflows: u32 = self.connections.iter().map(|c| c.subflows).sum();
        writeln!(f, "connections: {} ({} subflows)", self.connections.len(), subflows)?;
        for c in &self.connections {
            write!(f, "  token {:08x} {} subflows {}", c.token, c.controller, c.subflows)?;
            if c.groups.is_empty() {
                writeln!(f, " groups: one (no decision yet)")?;
            } else {
                let g: Vec<String> = c.groups.iter().map(|(s, g)| format!("sf{s}:{g}")).collect();
                writeln!(f, " groups: {}", g.join(" "))?;
            }
        }
        Ok(())
    }
}

/// What the SBD daemon did: its last log line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SbdRun {
    pub samples: u64,
    pub decisions: u64,
    /// Decision windows (S0's 10 intervals) without evidence: no groups written ("not yet").
    pub not_yet: u64,
    pub changes: u64,
    pub forgotten: u64,
}
