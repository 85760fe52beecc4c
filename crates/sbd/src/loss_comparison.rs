//! A loss co-occurrence test for two flows from one sender, after the loss-based comparison
//! test of Rubenstein, Kurose and Towsley ("Detecting shared congestion of flows via
//! end-to-end measurement", IEEE/ACM ToN 10(3), 2002; the loss-corr test beside the
//! delay-corr test of [`crate::comparison`]): flows behind one drop-tail queue lose packets
//! in the same overflow episodes, so their losses fall together far more often than
//! independent losses would.
//!
//! Deviation from the paper, whose test compares the loss probability of a packet given the
//! other flow's adjacent packet was lost with that given the same flow's previous packet was
//! lost (Poisson probes, no threshold): a TCP sender's packets are not probes and a subflow's
//! own losses come in bursts, so here the reference is chance instead of the flow's own
//! history. Losses are marked in bins of [`LOSS_BIN_NS`] per flow; over the last
//! [`LOSS_WINDOW_BINS`] bins, each loss bin of one flow is a trial that succeeds when the
//! other flow lost in the same bin or a neighbour (the detection of one loss episode can fall
//! a bin apart on the two flows). Were the flows' losses independent, a trial would succeed
//! with the chance `q` that three bins drawn at random hold one of the other flow's loss
//! bins. The evidence for sharing is the Chernoff bound on the binomial tail: with k
//! successes of n trials, k/n > q, the chance of as many by independent losses is at most
//! exp(-n KL(k/n || q)); the pair shares when that is below exp(-[`EVIDENCE_NATS`]), both
//! ways round (each flow's loss bins as the trials). There is no verdict "apart": few losses
//! or losses that do not cluster (a RED queue drops at random) give no evidence either way.

/// Bin width: a loss episode on a drop-tail queue lasts up to an RTT, and a sender sees each
/// flow's loss a few of that flow's segments after it (its duplicate ACKs or SACKs), so
/// the bins are coarser than a queue's millisecond: the delay test's 25 ms.
pub const LOSS_BIN_NS: u64 = 25_000_000;
/// The memory: 30 s. Joint losses come about once in 3 s on a 10 Mb/s queue shared by two
/// subflows and a TCP flow (docs/security.md, "What the sender can see"), so a test needs
/// tens of seconds; a bottleneck that moved is forgotten after as long.
pub const LOSS_WINDOW_BINS: usize = 1200;
/// ln(10^4): the chance that independent losses coincide as often is at most 1 in 10,000.
pub const EVIDENCE_NATS: f64 = 9.21;
/// No verdict on fewer loss bins of either flow in the window.
pub const MIN_LOSS_BINS: usize = 8;

/// One flow's recent loss bins: slot `bin % len` holds `bin` when the flow lost a packet in it.
#[derive(Clone, Debug)]
pub struct LossBins {
    ring: Vec<u64>,
}

impl Default for LossBins {
    fn default() -> Self {
        // The window and one neighbour each side.
        LossBins { ring: vec![u64::MAX; LOSS_WINDOW_BINS + 2] }
    }
}

impl LossBins {
    /// A loss at `time_ns` (any origin shared by the pair).
    pub fn add(&mut self, time_ns: u64) {
        let bin = time_ns / LOSS_BIN_NS;
        let len = self.ring.len() as u64;
        let slot = &mut self.ring[(bin % len) as usize];
        if *slot == u64::MAX || *slot < bin {
            *slot = bin;
        }
    }

    fn lost(&self, bin: u64) -> bool {
        self.ring[(bin % self.ring.len() as u64) as usize] == bin
    }

    fn near(&self, bin: u64) -> bool {
        self.lost(bin) || self.lost(bin + 1) || bin.checked_sub(1).is_some_and(|b| self.lost(b))
    }
}

/// The evidence, in nats, that flows `a` and `b` lost together more often than chance over
/// the window of bins ending (exclusive) at the bin of `now_ns`; 0 with no evidence.
pub fn evidence(a: &LossBins, b: &LossBins, now_ns: u64) -> f64 {
    let end = now_ns / LOSS_BIN_NS;
    let Some(start) = end.checked_sub(LOSS_WINDOW_BINS as u64) else {
        return 0.0; // a window reaching before the first loss bin: not yet a window
    };
    let count = |x: &LossBins| (start..end).filter(|&k| x.lost(k)).count();
    let (na, nb) = (count(a), count(b));
    if na < MIN_LOSS_BINS || nb < MIN_LOSS_BINS {
        return 0.0;
    }
    let one_way = |x: &LossBins, nx: usize, y: &LossBins, ny: usize| {
        let hits = (start..end).filter(|&k| x.lost(k) && y.near(k)).count();
        let q = 1.0 - (1.0 - ny as f64 / LOSS_WINDOW_BINS as f64).powi(3);
        chernoff_nats(hits, nx, q)
    };
    one_way(a, na, b, nb).min(one_way(b, nb, a, na))
}

/// n KL(k/n || q): minus the log of the Chernoff bound on P(Binomial(n, q) >= k); 0 when
/// k/n <= q.
fn chernoff_nats(k: usize, n: usize, q: f64) -> f64 {
    let p = k as f64 / n as f64;
    if n == 0 || p <= q || q <= 0.0 {
        return 0.0;
    }
    if q >= 1.0 {
        return 0.0;
    }
    let kl = |x: f64, y: f64| if x > 0.0 { x * (x / y).ln() } else { 0.0 };
    n as f64 * (kl(p, q) + kl(1.0 - p, 1.0 - q))
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1_000_000_000;

    /// A pseudo-random stream (LCG, its high 48 bits), deterministic.
    fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s >> 16
        }
    }

    /// Losses of two flows over 40 s: `episodes` of one queue hit both (each flow seen up to
    /// 20 ms apart), and each flow has losses of its own at random times.
    fn pair(shared_episodes: u64, own: u64) -> (LossBins, LossBins) {
        let (mut a, mut b) = (LossBins::default(), LossBins::default());
        let mut r = stream(7);
        for _ in 0..shared_episodes {
            let t = r() % (40 * S);
            a.add(t);
            b.add(t + r() % 20_000_000);
        }
        for _ in 0..own {
            a.add(r() % (40 * S));
            b.add(r() % (40 * S));
        }
        (a, b)
    }

    #[test]
    fn losses_of_one_queue_are_evidence_and_independent_ones_are_not() {
        // About 22 joint episodes in the 30 s window beside about 37 own losses each.
        let (a, b) = pair(30, 50);
        assert!(evidence(&a, &b, 40 * S) >= EVIDENCE_NATS, "{}", evidence(&a, &b, 40 * S));
        let (a, b) = pair(0, 60);
        assert!(evidence(&a, &b, 40 * S) < EVIDENCE_NATS, "{}", evidence(&a, &b, 40 * S));
    }

    #[test]
    fn few_losses_or_a_short_history_give_no_evidence() {
        let (a, b) = pair(5, 0);
        assert_eq!(evidence(&a, &b, 40 * S), 0.0, "five joint losses are too few to judge");
        let (a, b) = pair(13, 50);
        assert_eq!(evidence(&a, &b, 20 * S), 0.0, "the window reaches before the first loss");
    }

    #[test]
    fn the_bound_is_a_binomial_tail_bound() {
        // P(Bin(20, 0.1) >= 10) = 7.2e-6 (exact); the Chernoff bound lies above it.
        let nats = chernoff_nats(10, 20, 0.1);
        assert!(nats > 9.0 && nats < (1.0 / 7.2e-6_f64).ln(), "{nats}");
        assert_eq!(chernoff_nats(2, 20, 0.1), 0.0, "at chance: no evidence");
    }
}
