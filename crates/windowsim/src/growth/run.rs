//! The window-growth loop ([S3] §7.4). Time advances in cycles; a cycle is one RTT of
//! subflow 1 (and of the NewReno flow), subflow 2's RTT is `rtt_ratio` cycles. A link's
//! FIFO holds `buffer` packets: when the windows of the flows crossing it sum to more, it
//! overflows and every flow that completes a round on it in that cycle loses (drop-tail
//! losses are synchronised: the overflow lasts until the senders hear of it, an RTT later,
//! and every flow keeps sending into it meanwhile). A flow that completes a round without
//! loss has its whole window acknowledged.

use super::{GrowthConfig, Scenario};
use crate::drive::{controller, deliver, handshake, lose, nanos};
use crate::ConfigError;
use pathpool_cc::{Algorithm, Controller};

/// One figure for each of the three flows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowWindows {
    pub tcp: f64,
    pub sf1: f64,
    pub sf2: f64,
}

impl FlowWindows {
    /// Mean of the windows in force during `rows` (each row starts a cycle).
    fn mean_of(rows: &[GrowthRow]) -> FlowWindows {
        let n = rows.len().max(1) as f64;
        let sum = |f: fn(&GrowthRow) -> f64| rows.iter().map(f).sum::<f64>() / n;
        FlowWindows { tcp: sum(|r| r.tcp), sf1: sum(|r| r.sf1), sf2: sum(|r| r.sf2) }
    }

    /// Mean sending rates in packets per cycle (window / RTT in cycles).
    pub fn rates(&self, rtt_ratio: u32) -> FlowWindows {
        FlowWindows { sf2: self.sf2 / rtt_ratio as f64, ..*self }
    }
}

/// Windows at the start of a cycle (segments).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GrowthRow {
    pub cycle: u32,
    pub tcp: f64,
    pub sf1: f64,
    pub sf2: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GrowthResult {
    /// `cycles + 1` rows: the initial windows and those after every cycle.
    pub rows: Vec<GrowthRow>,
    /// Mean windows over all cycles (the window in force during each cycle)...
    pub mean: FlowWindows,
    /// ...and over the last third of the cycles, after the start-up.
    pub late_mean: FlowWindows,
    /// Decreases of each flow.
    pub losses_tcp: u64,
    pub losses_sf1: u64,
    pub losses_sf2: u64,
}

pub fn run_growth(cfg: &GrowthConfig) -> Result<GrowthResult, ConfigError> {
    cfg.validate()?;
    let (sf1_rtt, sf2_rtt) = (nanos(1.0), nanos(cfg.rtt_ratio as f64));
    let mut mp = controller(cfg.algorithm, 2, cfg.initial_cwnd, None);
    let mut tcp = controller(Algorithm::Reno, 1, cfg.initial_cwnd, None);
    handshake(&mut mp, &[sf1_rtt, sf2_rtt]);
    handshake(&mut tcp, &[sf1_rtt]);

    let row = |cycle, mp: &Controller, tcp: &Controller| GrowthRow { cycle, tcp: tcp.cwnd(0), sf1: mp.cwnd(0), sf2: mp.cwnd(1) };
    let mut rows = Vec::with_capacity(cfg.cycles as usize + 1);
    rows.push(row(0, &mp, &tcp));
    let (mut losses_tcp, mut losses_sf1, mut losses_sf2) = (0, 0, 0);
    for cycle in 0..cfg.cycles {
        let (w_tcp, w1, w2) = (tcp.cwnd(0), mp.cwnd(0), mp.cwnd(1));
        let (link1_over, tcp_over) = match cfg.scenario {
            Scenario::Alone => (w1 > cfg.buffer, w_tcp > cfg.buffer),
            Scenario::Competing => (w1 + w_tcp > cfg.buffer, w1 + w_tcp > cfg.buffer),
        };
        let sf2_round_ends = (cycle + 1) % cfg.rtt_ratio == 0;
        let now = nanos((cycle + 1) as f64);
        if link1_over {
            losses_sf1 += 1;
            lose(&mut mp, 0, now);
        } else {
            deliver(&mut mp, 0, now, w1, sf1_rtt);
        }
        if sf2_round_ends {
            if w2 > cfg.buffer {
                losses_sf2 += 1;
                lose(&mut mp, 1, now);
            } else {
                deliver(&mut mp, 1, now, w2, sf2_rtt);
            }
        }
        if tcp_over {
            losses_tcp += 1;
            lose(&mut tcp, 0, now);
        } else {
            deliver(&mut tcp, 0, now, w_tcp, sf1_rtt);
        }
        rows.push(row(cycle + 1, &mp, &tcp));
    }
    let in_force = &rows[..cfg.cycles as usize];
    let late_start = in_force.len() - in_force.len().div_ceil(3);
    Ok(GrowthResult {
        mean: FlowWindows::mean_of(in_force),
        late_mean: FlowWindows::mean_of(&in_force[late_start..]),
        rows,
        losses_tcp,
        losses_sf1,
        losses_sf2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(algorithm: Algorithm, scenario: Scenario, rtt_ratio: u32) -> GrowthResult {
        run_growth(&GrowthConfig::s3(algorithm, scenario, rtt_ratio)).unwrap()
    }

    #[test]
    fn newreno_alone_climbs_one_packet_per_cycle_and_halves_past_the_fifo() {
        let r = run(Algorithm::Uncoupled(pathpool_cc::SinglePath::Reno), Scenario::Alone, 1);
        // From 10 at +1 per cycle: 80 after 70 cycles, 81 after 71; the cycle that starts
        // above 80 overflows the FIFO and halves the window.
        assert!((r.rows[70].tcp - 80.0).abs() < 1e-9, "{:?}", r.rows[70]);
        assert!((r.rows[71].tcp - 81.0).abs() < 1e-9, "{:?}", r.rows[71]);
        assert!((r.rows[72].tcp - 40.5).abs() < 1e-9, "{:?}", r.rows[72]);
        assert_eq!(r.rows.len(), 601);
    }

    #[test]
    fn uncoupled_subflows_alone_are_newreno_flows() {
        for k in 1..=3 {
            let r = run(Algorithm::Uncoupled(pathpool_cc::SinglePath::Reno), Scenario::Alone, k);
            for row in &r.rows {
                assert_eq!(row.sf1, row.tcp, "ratio {k}: subflow 1 is a NewReno flow on an identical link");
            }
            // Subflow 2 grows once per round of k cycles: 81 packets after 71 rounds, and the
            // round that starts there ends k cycles later with the decrease.
            let first_drop = r.rows.windows(2).position(|w| w[1].sf2 < w[0].sf2).unwrap() + 1;
            assert_eq!(first_drop, 72 * k as usize, "ratio {k}");
        }
    }

    #[test]
    fn competing_flows_share_the_fifo_and_lose_together() {
        let r = run(Algorithm::Uncoupled(pathpool_cc::SinglePath::Reno), Scenario::Competing, 1);
        // Two NewReno flows from 10 + 10: at 40 + 40 the FIFO is just full, at 41 + 41 it
        // overflows and both halve in the same cycle.
        let drop = r.rows.windows(2).position(|w| w[1].tcp < w[0].tcp).unwrap();
        assert!((r.rows[drop].tcp - 41.0).abs() < 1e-9 && (r.rows[drop].sf1 - 41.0).abs() < 1e-9, "{:?}", r.rows[drop]);
        assert!(r.rows[drop + 1].sf1 < r.rows[drop].sf1);
        assert_eq!(r.losses_tcp, r.losses_sf1);
    }

    #[test]
    fn bad_configurations_name_their_field() {
        let base = GrowthConfig::s3(Algorithm::Lia, Scenario::Alone, 1);
        for (cfg, field) in [
            (GrowthConfig { rtt_ratio: 0, ..base.clone() }, "rtt_ratio"),
            (GrowthConfig { cycles: 0, ..base.clone() }, "cycles"),
            (GrowthConfig { buffer: f64::NAN, ..base.clone() }, "buffer"),
            (GrowthConfig { initial_cwnd: 0.5, ..base.clone() }, "initial_cwnd"),
        ] {
            assert_eq!(run_growth(&cfg).unwrap_err().field, field);
        }
    }
}
