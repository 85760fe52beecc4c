//! RED (Floyd and Jacobson, "Random Early Detection Gateways for Congestion Avoidance",
//! IEEE/ACM ToN 1993), with Floyd's "gentle" extension (2000). Queue sizes are counted in
//! packets. Defaults follow Floyd's recommendations ("RED: Discussions of Setting
//! Parameters", 1997, and the gentle_ note): w_q = 0.002, max_p = 0.1, min_th = 5,
//! max_th = 3 min_th, gentle on.

use crate::rng::Rng;
use crate::time::Time;

#[derive(Clone, Debug, PartialEq)]
pub struct RedParams {
    /// Lower threshold on the average queue, packets.
    pub min_th: f64,
    /// Upper threshold on the average queue, packets.
    pub max_th: f64,
    /// Marking probability reached at `max_th`.
    pub max_p: f64,
    /// Weight of the exponentially weighted moving average.
    pub w_q: f64,
    /// Drop probability ramps from max_p to 1 between max_th and 2 max_th instead of
    /// jumping to 1 at max_th.
    pub gentle: bool,
    /// Packet size assumed for the idle-period correction ("s" in the paper), bytes.
    pub mean_packet_bytes: u32,
}

impl Default for RedParams {
    fn default() -> Self {
        RedParams { min_th: 5.0, max_th: 15.0, max_p: 0.1, w_q: 0.002, gentle: true, mean_packet_bytes: 1500 }
    }
}

impl RedParams {
    /// Checks the parameters, naming the first bad one.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.min_th >= 0.0 && self.min_th.is_finite()) {
            return Err(format!("red min_th must be a finite number >= 0, got {}", self.min_th));
        }
        if !(self.max_th > self.min_th && self.max_th.is_finite()) {
            return Err(format!("red max_th must be finite and > min_th ({}), got {}", self.min_th, self.max_th));
        }
        if !(self.max_p > 0.0 && self.max_p <= 1.0) {
            return Err(format!("red max_p must be in (0, 1], got {}", self.max_p));
        }
        if !(self.w_q > 0.0 && self.w_q <= 1.0) {
            return Err(format!("red w_q must be in (0, 1], got {}", self.w_q));
        }
        if self.mean_packet_bytes == 0 {
            return Err("red mean_packet_bytes must be > 0".into());
        }
        Ok(())
    }
}

/// RED's running state.
#[derive(Clone, Debug)]
pub struct Red {
    params: RedParams,
    avg: f64,
    /// Packets accepted since the last drop while avg was between the thresholds; -1 when
    /// avg is below min_th (the paper's initialisation).
    count: i64,
    /// Time the queue last went empty.
    idle_since: Option<Time>,
    /// Transmission time of a mean-size packet: the idle correction counts these.
    s: Time,
}

impl Red {
    pub fn new(params: RedParams, rate_bps: u64) -> Self {
        let s = crate::time::transmission_time(params.mean_packet_bytes, rate_bps).max(1);
        Red { params, avg: 0.0, count: -1, idle_since: Some(0), s }
    }

    pub fn average(&self) -> f64 {
        self.avg
    }

    pub fn on_queue_empty(&mut self, now: Time) {
        self.idle_since = Some(now);
    }

    /// Decides the fate of an arrival that sees `queue_len` packets; true = drop.
    pub fn should_drop(&mut self, queue_len: u32, now: Time, rng: &mut Rng) -> bool {
        let p = &self.params;
        match self.idle_since {
            Some(t0) if queue_len == 0 => {
                // The average decays as if m small packets had been sent while idle. The
                // queue stays idle from now on if this arrival is dropped.
                let m = (now.saturating_sub(t0) / self.s) as f64;
                self.avg *= (1.0 - p.w_q).powf(m);
                self.idle_since = Some(now);
            }
            _ => self.avg += p.w_q * (queue_len as f64 - self.avg),
        }
        let avg = self.avg;
        let pb = if avg < p.min_th {
            self.count = -1;
            return false;
        } else if avg < p.max_th {
            p.max_p * (avg - p.min_th) / (p.max_th - p.min_th)
        } else if p.gentle && avg < 2.0 * p.max_th {
            p.max_p + (1.0 - p.max_p) * (avg - p.max_th) / p.max_th
        } else {
            self.count = 0;
            return true;
        };
        self.count += 1;
        // Spreads drops evenly: p_a = p_b / (1 - count p_b).
        let denom = 1.0 - self.count as f64 * pb;
        let pa = if denom <= 0.0 { 1.0 } else { (pb / denom).min(1.0) };
        if rng.chance(pa) {
            self.count = 0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn average_tracks_a_standing_queue_and_drops_rise_with_it() {
        let mut red = Red::new(RedParams::default(), 100_000_000);
        let mut rng = Rng::for_stream(1, 1);
        let mut drops_at = |q: u32, red: &mut Red| {
            let mut d = 0;
            for i in 0..20_000u64 {
                if red.should_drop(q, 1_000 + i, &mut rng) {
                    d += 1;
                }
            }
            d
        };
        assert_eq!(drops_at(2, &mut red), 0);
        let low = drops_at(8, &mut red);
        let mid = drops_at(13, &mut red);
        let high = drops_at(25, &mut red);
        assert!(low < mid && mid < high, "{low} {mid} {high}");
        // avg converges to the standing queue; at 25 (gentle region) p_b = 0.1 + 0.9 * 10/15.
        assert!((red.average() - 25.0).abs() < 0.5);
        assert!(drops_at(40, &mut red) == 20_000, "beyond 2 max_th every arrival is dropped");
    }

    #[test]
    fn idle_time_decays_the_average() {
        let mut red = Red::new(RedParams::default(), 100_000_000);
        let mut rng = Rng::for_stream(1, 1);
        for i in 0..5000 {
            red.should_drop(10, i, &mut rng);
        }
        let before = red.average();
        red.on_queue_empty(10_000);
        // One second idle at 100 Mb/s is ~8333 packet times: (0.998)^8333 ~ 6e-8.
        red.should_drop(0, 10_000 + crate::time::secs(1), &mut rng);
        assert!(before > 9.0 && red.average() < 1e-3, "{before} -> {}", red.average());
    }
}
