//! Where a scheme or algorithm runs and what it is: the facts the scheme table
//! (scheme.rs) and the algorithm table (algorithm.rs) both give for each of their rows.

/// Where a scheme can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The packet-level simulator (scenario files, `pathpool run`).
    Sim,
    /// Real Linux MPTCP on the testbed: the kernel's own controllers or pathpool's BPF ones.
    Linux,
    /// Multipath QUIC (noq) with pathpool's controllers.
    Quic,
}

impl Backend {
    pub const ALL: [Backend; 3] = [Backend::Sim, Backend::Linux, Backend::Quic];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Sim => "sim",
            Backend::Linux => "linux",
            Backend::Quic => "quic",
        }
    }
}

/// What a scheme (or algorithm) is and where it runs.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    pub about: &'static str,
    /// The detector preset a connection that names none runs in scenario files
    /// (`sbd_detector`; "tr" for trend lines); None for a scheme without a detector.
    pub detector: Option<&'static str>,
    pub backends: &'static [Backend],
}

impl Facts {
    pub(crate) const fn new(about: &'static str, backends: &'static [Backend]) -> Facts {
        Facts { about, detector: None, backends }
    }

    pub(crate) const fn detecting(about: &'static str, detector: &'static str, backends: &'static [Backend]) -> Facts {
        Facts { about, detector: Some(detector), backends }
    }
}
