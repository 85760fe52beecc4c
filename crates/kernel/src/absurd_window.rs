//! The first window above 65535 segments a controller's hook met (`pp_absurd` in
//! bpf/pathpool_cc.bpf.c; docs/kernel.md, "A window of 1.5 billion segments"). Nothing in the
//! controllers writes such a window, so one of Linux's window updates between two hooks did:
//! the socket's recovery state then, and where a hook last saw the window before, say which.

use std::fmt;

/// The hooks as `pp_seen` numbers them (PP_HOOK_* in the BPF source).
const HOOKS: [&str; 10] = [
    "?",
    "init",
    "ssthresh's entry",
    "ssthresh's exit",
    "cong_avoid's entry",
    "cong_avoid's exit",
    "set_state",
    "undo_cwnd's entry",
    "undo_cwnd's return",
    "pkts_acked",
];

/// Linux's congestion states (`enum tcp_ca_state`).
const STATES: [&str; 5] = ["Open", "Disorder", "CWR", "Recovery", "Loss"];

/// The fields of `struct pp_absurd`, in its order after `seen`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbsurdWindow {
    pub hook: u32,
    pub state: u32,
    pub cwnd: u32,
    pub ssthresh: u32,
    pub prior_cwnd: u32,
    pub prior_ssthresh: u32,
    pub packets_out: u32,
    pub sacked_out: u32,
    pub lost_out: u32,
    pub retrans_out: u32,
    pub prr_delivered: u32,
    pub prr_out: u32,
    pub undo_marker: u32,
    pub last_hook: u32,
    pub last_state: u32,
    pub last_cwnd: u32,
    pub last_ssthresh: u32,
}

impl AbsurdWindow {
    /// The map's value as the kernel wrote it: `None` until a hook met such a window (or when
    /// the value is shorter than the struct, as from an older program still pinned).
    pub fn from_map_value(b: &[u8]) -> Option<Self> {
        let word = |i: usize| b.get(4 * i..4 * i + 4).map(|w| u32::from_ne_bytes(w.try_into().expect("4 bytes")));
        if word(0)? == 0 {
            return None;
        }
        let f: Vec<u32> = (1..=17).map(word).collect::<Option<_>>()?;
        Some(Self {
            hook: f[0],
            state: f[1],
            cwnd: f[2],
            ssthresh: f[3],
            prior_cwnd: f[4],
            prior_ssthresh: f[5],
            packets_out: f[6],
            sacked_out: f[7],
            lost_out: f[8],
            retrans_out: f[9],
            prr_delivered: f[10],
            prr_out: f[11],
            undo_marker: f[12],
            last_hook: f[13],
            last_state: f[14],
            last_cwnd: f[15],
            last_ssthresh: f[16],
        })
    }
}

fn name<'a>(names: &[&'a str], i: u32) -> &'a str {
    names.get(i as usize).copied().unwrap_or("?")
}

impl fmt::Display for AbsurdWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "first window above 65535: {} at {} in {} (ssthresh {}, before the last reduction {} and {}; out {}, sacked {}, lost {}, retransmitted {}; PRR delivered {}, sent {}; undo {}); a hook saw {} before it, at {} in {} (ssthresh {})",
            self.cwnd,
            name(&HOOKS, self.hook),
            name(&STATES, self.state),
            self.ssthresh,
            self.prior_cwnd,
            self.prior_ssthresh,
            self.packets_out,
            self.sacked_out,
            self.lost_out,
            self.retrans_out,
            self.prr_delivered,
            self.prr_out,
            if self.undo_marker != 0 { "possible" } else { "none" },
            self.last_cwnd,
            name(&HOOKS, self.last_hook),
            name(&STATES, self.last_state),
            self.last_ssthresh,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_ne_bytes()).collect()
    }

    #[test]
    fn an_unfilled_map_value_is_no_window() {
        assert_eq!(AbsurdWindow::from_map_value(&value(&[0; 18])), None);
        assert_eq!(AbsurdWindow::from_map_value(&value(&[1, 4, 0])), None, "a value shorter than the struct");
    }

    #[test]
    fn a_filled_value_names_the_hooks_and_states() {
        let mut w = vec![1, 4, 0, 164_452_153, 7];
        w.extend([0; 9]);
        w.extend([5, 3, 14, 7]);
        let a = AbsurdWindow::from_map_value(&value(&w)).expect("filled");
        assert_eq!((a.cwnd, a.ssthresh, a.last_cwnd), (164_452_153, 7, 14));
        let line = a.to_string();
        assert!(line.starts_with("first window above 65535: 164452153 at cong_avoid's entry in Open (ssthresh 7"), "{line}");
        assert!(line.ends_with("a hook saw 14 before it, at cong_avoid's exit in Recovery (ssthresh 7)"), "{line}");
    }
}
