//! The cwndsim loop ([S1] §5.1). Each round lasts the smallest RTT. At the start of a round
//! path r carries `w_r · round / RTT_r` packets; each is lost independently with probability
//! `p_r`, so the round carries a loss with probability `1 - (1 - p_r)^(w_r · round / RTT_r)`.
//! A round with a loss gets one decrease, any other round the increase for all its
//! acknowledgements ("once per RTT ... we apply either an increase or decrease to each
//! window"). Losses are drawn for every path from the state at the start of the round,
//! then the rounds are applied to the controller in path order.

use super::{CwndSample, CwndSimConfig, CwndSimResult, PathStats};
use crate::drive::{controller, deliver, handshake, lose, nanos};
use crate::streams::stream;
use crate::ConfigError;
use pathpool_cc::{Algorithm, Controller, Nanos, MAX_SUBFLOWS};
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

pub fn run_cwndsim(cfg: &CwndSimConfig) -> Result<CwndSimResult, ConfigError> {
    cfg.validate()?;
    let n = cfg.n_paths();
    let step = cfg.round_length();

    let mut mp = controller(cfg.algorithm, n, cfg.initial_cwnd, cfg.linked_increases_a);
    let mut rngs: Vec<_> = (0..n).map(|r| stream(cfg.seed, r as u64)).collect();
    let mut alpha_sum = 0.0;
    let trace_start = cfg.trace_start();
    let mut samples = Vec::with_capacity(((cfg.rounds - trace_start) / cfg.sample_every + 1) as usize);
    let paths = simulate(&mut mp, &cfg.loss, &cfg.rtt, step, cfg.rounds, &mut rngs, |round, ctl| {
        alpha_sum += ctl.lia_alpha();
        if round >= trace_start && (round - trace_start) % cfg.sample_every == 0 {
            samples.push(CwndSample {
                round,
                time: round as f64 * step,
                windows: (0..n).map(|r| ctl.cwnd(r)).collect(),
                alpha: ctl.lia_alpha(),
            });
        }
    });

    let tcp: Vec<PathStats> = (0..n)
        .map(|r| {
            let mut ctl = controller(Algorithm::Reno, 1, cfg.initial_cwnd, None);
            let mut rng = [stream(cfg.seed, (MAX_SUBFLOWS + r) as u64)];
            let stats = simulate(&mut ctl, &cfg.loss[r..=r], &cfg.rtt[r..=r], step, cfg.rounds, &mut rng, |_, _| {});
            stats.into_iter().next().expect("one path")
        })
        .collect();
    // The first of equally good paths, so that the choice does not depend on float noise order.
    let tcp_best_path = (0..n).fold(0, |best, r| if tcp[r].throughput > tcp[best].throughput { r } else { best });
    let means: Vec<f64> = paths.iter().map(|s| s.window_mean).collect();
    Ok(CwndSimResult {
        throughput_total: paths.iter().map(|s| s.throughput).sum(),
        alpha_mean: alpha_sum / cfg.rounds as f64,
        alpha_from_mean_windows: s1_alpha(&means, &cfg.rtt),
        tcp_best_throughput: tcp[tcp_best_path].throughput,
        tcp_best_path,
        paths,
        tcp,
        samples,
    })
}

/// [S1] §4 / RFC 6356 eq. 2: `a = w · max_r(w_r / RTT_r²) / (Σ_r w_r / RTT_r)²`.
fn s1_alpha(windows: &[f64], rtt: &[f64]) -> f64 {
    let total: f64 = windows.iter().sum();
    let best = windows.iter().zip(rtt).map(|(w, r)| w / (r * r)).fold(0.0, f64::max);
    let rate: f64 = windows.iter().zip(rtt).map(|(w, r)| w / r).sum();
    total * best / (rate * rate)
}

/// Runs `rounds` rounds of one connection (all of `ctl`'s subflows) and returns per-path
/// time averages. `observe` sees the state at the start of every round.
fn simulate(
    ctl: &mut Controller,
    loss: &[f64],
    rtt: &[f64],
    step: f64,
    rounds: u64,
    rngs: &mut [Xoshiro256PlusPlus],
    mut observe: impl FnMut(u64, &Controller),
) -> Vec<PathStats> {
    let n = loss.len();
    let rtt_ns: Vec<Nanos> = rtt.iter().map(|&r| nanos(r)).collect();
    // ln(1 - p), so that (1 - p)^k = exp(k · ln(1 - p)) stays accurate for small p.
    let log_keep: Vec<f64> = loss.iter().map(|&p| (-p).ln_1p()).collect();
    let mut window_sum = vec![0.0; n];
    let mut loss_events = vec![0u64; n];
    let mut sent = vec![0.0; n];
    let mut lost = vec![false; n];
    handshake(ctl, &rtt_ns);
    for round in 0..rounds {
        observe(round, ctl);
        for r in 0..n {
            let w = ctl.cwnd(r);
            window_sum[r] += w;
            sent[r] = w * step / rtt[r];
            let p_round = -(sent[r] * log_keep[r]).exp_m1();
            lost[r] = rngs[r].random::<f64>() < p_round;
        }
        let now = nanos(round as f64 * step);
        for r in 0..n {
            if lost[r] {
                loss_events[r] += 1;
                lose(ctl, r, now);
            } else {
                deliver(ctl, r, now, sent[r], rtt_ns[r]);
            }
        }
    }
    (0..n)
        .map(|r| {
            let window_mean = window_sum[r] / rounds as f64;
            PathStats { window_mean, throughput: window_mean / rtt[r], loss_events: loss_events[r] }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s1_alpha_of_equal_windows_with_rtts_5_and_1_is_25_over_18() {
        // [S1] §5.1: p1 = p2, RTT1 = 5 RTT2, equal windows => a = 1.39.
        let a = s1_alpha(&[40.0, 40.0], &[5.0, 1.0]);
        assert!((a - 25.0 / 18.0).abs() < 1e-12, "{a}");
    }

    #[test]
    fn s1_alpha_of_one_path_is_one() {
        assert!((s1_alpha(&[17.0], &[3.0]) - 1.0).abs() < 1e-12);
    }
}
