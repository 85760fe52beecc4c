//! What a cwndsim run measured.

/// Time averages over all rounds of one flow on one path.
#[derive(Clone, Debug, PartialEq)]
pub struct PathStats {
    /// Mean congestion window (segments).
    pub window_mean: f64,
    /// Mean sending rate window/RTT (packets per Δ).
    pub throughput: f64,
    /// Rounds in which the window was decreased.
    pub loss_events: u64,
}

/// The state at the start of one sampled round.
#[derive(Clone, Debug, PartialEq)]
pub struct CwndSample {
    pub round: u64,
    /// Time in units of Δ.
    pub time: f64,
    pub windows: Vec<f64>,
    /// The controller's current LIA / linked-increases `a` (1 for other algorithms).
    pub alpha: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CwndSimResult {
    /// The multipath flow, per subflow.
    pub paths: Vec<PathStats>,
    pub throughput_total: f64,
    /// Mean over rounds of the controller's `a` (meaningful for LIA and linked increases).
    pub alpha_mean: f64,
    /// `a` by [S1] §4's formula from the mean windows ("prescient" a, [S1] §5.2.2).
    pub alpha_from_mean_windows: f64,
    /// A single-path Reno flow alone on each path, same model, loss, RTT and round length.
    pub tcp: Vec<PathStats>,
    /// Index of the path on which that single-path flow did best.
    pub tcp_best_path: usize,
    pub tcp_best_throughput: f64,
    pub samples: Vec<CwndSample>,
}

impl CwndSimResult {
    pub fn total_over_tcp_best(&self) -> f64 {
        self.throughput_total / self.tcp_best_throughput
    }
}
