//! The streaming RFC 8382 detector against a direct recomputation from the raw samples of a
//! generated trace: every interval's skew_est, var_est, freq_est, pkt_loss, bottleneck test and
//! grouping, recomputed from scratch (RFC 8382 §3.2, §3.3.1, §4.1, §4.2) with lists instead of
//! rings and running sums. Catches drift in the O(1) updates (window sums, crossing ring,
//! mean_delay over M) that hand-sized unit tests may not reach.

use pathpool_sbd::replay::Event;
use pathpool_trace::events::owd_events;
use pathpool_trace::gen::{generate, TraceConfig};
use pathpool_sbd::{LossSplit, Rfc8382Detector, SbdParams};

/// What one flow did in one base interval.
#[derive(Clone, Default)]
struct Interval {
    samples: Vec<f64>,
    lost: u32,
}

#[derive(Clone, Copy, Debug)]
struct Stats {
    skew: f64,
    var: f64,
    freq: f64,
    loss: f64,
    bottlenecked: bool,
}

/// RFC 8382 §4.1 weight of the interval `age` intervals before the newest (0 = newest).
fn weight(p: &SbdParams, age: usize) -> f64 {
    let k = age + 1;
    if k <= p.f {
        (p.m - p.f + 1) as f64
    } else {
        (p.m - k + 1) as f64
    }
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Statistics of one flow after each of its intervals, recomputed from all intervals so far.
fn direct_stats(p: &SbdParams, flow: &[Interval]) -> Vec<Stats> {
    let e_t: Vec<Option<f64>> = flow.iter().map(|iv| mean(&iv.samples)).collect();
    // mean_delay in force during interval k: the mean of the non-empty E_T of the M before it.
    let mean_delay = |k: usize| -> Option<f64> {
        let prev: Vec<f64> = e_t[k.saturating_sub(p.m)..k].iter().flatten().copied().collect();
        mean(&prev)
    };
    let mut out: Vec<Stats> = Vec::with_capacity(flow.len());
    let (mut votes, mut mad, mut mad_n) = (Vec::new(), Vec::new(), Vec::new());
    let mut crossed = Vec::new();
    let mut last_side = 0i8;
    let mut was_bottlenecked = false;
    for (k, iv) in flow.iter().enumerate() {
        let md = mean_delay(k);
        votes.push(md.map_or(0.0, |m| iv.samples.iter().map(|&x| (x < m) as i32 as f64 - (x > m) as i32 as f64).sum()));
        let base = if k > 0 { e_t[k - 1] } else { None };
        let (sum, n) = base.map_or((0.0, 0.0), |b| (iv.samples.iter().map(|&x| (x - b).abs()).sum(), iv.samples.len() as f64));
        let window = |v: &[f64]| -> f64 { (0..p.m.min(k + 1)).map(|age| weight(p, age) * v[k - age]).sum() };
        let counts: Vec<f64> = flow[..=k].iter().map(|iv| iv.samples.len() as f64).collect();
        let wn = window(&counts);
        let skew = if wn > 0.0 { window(&votes) / wn } else { 0.0 };
        let loss_window = &flow[k.saturating_sub(p.n - 1)..=k];
        let lost: u32 = loss_window.iter().map(|iv| iv.lost).sum();
        let total: usize = loss_window.iter().map(|iv| iv.lost as usize + iv.samples.len()).sum();
        let loss = if total > 0 { lost as f64 / total as f64 } else { 0.0 };
        let bottlenecked = wn > 0.0 && (skew < p.c_s || (skew < p.c_h && was_bottlenecked)) || loss > p.p_l;
        was_bottlenecked = bottlenecked;
        let keep = !p.noise_removal || bottlenecked;
        // The detector rounds each interval's MAD sum to whole ns (exact integer window sums).
        mad.push(if keep { sum.round() } else { 0.0 });
        mad_n.push(if keep { n } else { 0.0 });
        let wvn = window(&mad_n);
        let var = if wvn > 0.0 { window(&mad) / wvn } else { 0.0 };
        let side = match (e_t[k], md) {
            (Some(e), Some(m)) if e > m + p.p_v * var => 1,
            (Some(e), Some(m)) if e < m - p.p_v * var => -1,
            _ => 0,
        };
        crossed.push(side != 0 && last_side != 0 && side != last_side && keep);
        if side != 0 {
            last_side = side;
        }
        let freq = crossed[k.saturating_sub(p.n - 1)..=k].iter().filter(|&&c| c).count() as f64 / p.n as f64;
        out.push(Stats { skew, var, freq, loss, bottlenecked });
    }
    out
}

/// RFC 8382 §3.3.1 over explicit lists of groups: split every group by each statistic in turn.
fn direct_groups(p: &SbdParams, s: &[Stats]) -> Vec<u32> {
    let mut groups: Vec<Vec<usize>> = vec![(0..s.len()).filter(|&i| s[i].bottlenecked).collect()];
    groups.retain(|g| !g.is_empty());
    let high_loss = |g: &[usize]| g.iter().any(|&i| s[i].loss > p.p_l);
    let split = |groups: Vec<Vec<usize>>, key: &dyn Fn(&Stats) -> f64, far: &dyn Fn(f64, f64) -> bool, applies: &dyn Fn(&[usize]) -> bool| {
        let mut out = Vec::new();
        for mut g in groups {
            if !applies(&g) {
                out.push(g);
                continue;
            }
            g.sort_by(|&a, &b| key(&s[b]).total_cmp(&key(&s[a])).then(a.cmp(&b)));
            let mut current = vec![g[0]];
            for w in g.windows(2) {
                if far(key(&s[w[0]]), key(&s[w[1]])) {
                    out.push(std::mem::take(&mut current));
                }
                current.push(w[1]);
            }
            out.push(current);
        }
        out
    };
    let eps = 1e-9;
    let replaces = p.loss_split == LossSplit::ReplacesSkew;
    let groups = split(groups, &|x| x.freq, &|a, b| a - b >= p.p_f - eps, &|_| true);
    let groups = split(groups, &|x| x.var, &|a, b| a - b >= p.p_mad * a, &|_| true);
    let groups = split(groups, &|x| x.skew, &|a, b| a - b >= p.p_s - eps, &|g| !(replaces && high_loss(g)));
    let mut groups = split(groups, &|x| x.loss, &|a, b| a - b >= p.p_d * a, &|g| high_loss(g));
    // Canonical ids: in order of each group's lowest flow.
    groups.iter_mut().for_each(|g| g.sort());
    groups.sort();
    let mut ids = vec![0; s.len()];
    for (label, g) in groups.iter().enumerate() {
        for &i in g {
            ids[i] = label as u32 + 1;
        }
    }
    ids
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn check(p: SbdParams, cfg: TraceConfig) {
    let trace = generate(&cfg);
    let (events, _) = owd_events(&trace.owd, cfg.flows);
    let mut det = Rfc8382Detector::new(p.clone(), cfg.flows);
    let mut intervals: Vec<Vec<Interval>> = vec![Vec::new(); cfg.flows];
    let mut origin = None;
    // Per closed interval (every one makes an observation: min_intervals = 1): the detector's
    // statistics and grouping.
    let mut seen = Vec::new();
    for e in &events {
        while let Some(o) = det.poll(e.now_ns()) {
            let groups = o.groups.clone();
            assert_eq!(det.intervals_closed() as usize, seen.len() + 1, "one interval per observation");
            seen.push((det.flow_stats().to_vec(), groups));
        }
        let origin = *origin.get_or_insert(e.now_ns());
        let k = ((e.now_ns() - origin) / p.t_ns) as usize;
        for iv in intervals.iter_mut() {
            iv.resize(iv.len().max(k + 1), Interval::default());
        }
        match *e {
            Event::Owd { flow, now_ns, owd_ns } => {
                intervals[flow][k].samples.push(owd_ns as f64);
                det.on_owd_sample(flow, now_ns, owd_ns);
            }
            Event::Loss { flow, now_ns } => {
                intervals[flow][k].lost += 1;
                det.on_loss(flow, now_ns);
            }
            Event::Rtt { .. } => {}
        }
    }
    let direct: Vec<Vec<Stats>> = intervals.iter().map(|f| direct_stats(&p, f)).collect();
    assert!(seen.len() > p.n + 40, "only {} intervals", seen.len());
    for (k, (streamed, groups)) in seen.iter().enumerate() {
        for (flow, s) in streamed.iter().enumerate() {
            let d = direct[flow][k];
            let what = format!("interval {k}, flow {flow}: streamed {s:?}, direct {d:?}");
            assert!(close(s.skew_est, d.skew) && close(s.var_est, d.var), "{what}");
            assert!(close(s.freq_est, d.freq) && close(s.pkt_loss, d.loss), "{what}");
            assert_eq!(s.bottlenecked, d.bottlenecked, "{what}");
        }
        let stats: Vec<Stats> = direct.iter().map(|f| f[k]).collect();
        assert_eq!(groups, &direct_groups(&p, &stats), "grouping after interval {k}: {stats:?}");
    }
}

#[test]
fn mptcp_sbd_preset_matches_a_direct_recomputation_on_separate_bottlenecks() {
    check(SbdParams::mptcp_sbd(), TraceConfig { flows: 4, shared: false, duration_s: 40.0, seed: 8, ..TraceConfig::default() });
}

#[test]
fn rfc8382_preset_with_weights_and_noise_removal_matches_a_direct_recomputation() {
    let p = SbdParams { min_intervals: 1, ..SbdParams::rfc8382() };
    check(p, TraceConfig { flows: 3, shared: false, duration_s: 40.0, seed: 4, ..TraceConfig::default() });
}
