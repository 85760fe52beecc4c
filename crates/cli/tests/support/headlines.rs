//! Every paper's quick-preset headline numbers, held to the same numbers from before the
//! simulator's event order changed (one event per packet per hop, docs/simulator.md): they
//! must lie within the spread the reference showed over seeds.
//!
//! `headlines/reference.json` was written by `scripts/headline_reference.py` (its command is
//! in the file): the quick reproduction run with K sets of seeds by a binary built from the
//! code before the change; per key the value of the first set (the seeds `make test` runs),
//! and the mean, standard deviation, minimum and maximum over the sets. A key passes when
//! today's value lies in the band `[min(min, mean - k std) - floor, max(max, mean + k std) +
//! floor]`: `mean ± k std` is the 99 % prediction interval for one more seed set from the
//! reference's K sets (Student's t with K - 1 degrees of freedom, times sqrt(1 + 1/K)),
//! which is what a run that took another sample path is; plus a floor for keys that hardly
//! move with the seed (see `floor`). Keys of deterministic papers, which have no seed
//! spread, take theirs from runs perturbed by a small send jitter (`JITTER_SPREAD`).

use serde_json::Value;

const REFERENCE: &str = include_str!("../headlines/reference.json");

/// How many standard deviations of the reference's spread over `sets` seed sets a value
/// may stray: the two-sided 99 % prediction interval for one more set, t(0.995, sets - 1)
/// sqrt(1 + 1 / sets).
fn sigmas(sets: f64) -> f64 {
    const T995: [f64; 10] = [63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169];
    let dof = (sets as usize).clamp(2, 11) - 1;
    T995[dof - 1] * (1.0 + 1.0 / sets).sqrt()
}

/// The floor of the band's half width: 5 % of the value (0.05 for a value of zero). It is
/// the resolution of the keys that hardly move with the seed: shares of detector decisions
/// (ferlin2016's accuracies step by 1/60 to 1/15 near 1, or sit at 0), and rates of
/// deterministic runs, where a few per cent is what one more or one fewer loss makes in a
/// quick run.
fn floor(mean: f64) -> f64 {
    if mean == 0.0 {
        0.05
    } else {
        0.05 * mean.abs()
    }
}

/// Deterministic papers (drop-tail, no random element) give the same values for every
/// seed set, so the reference has no spread for them (std 0). Their spread is measured
/// under a small perturbation instead: `headlines/jitter_spread.json`, written by
/// `scripts/headline_reference.py --send-jitter 10us` (its command is in the file), holds
/// per key the spread over seed sets of runs in which every packet waits a uniform random
/// 0-10 us before its first link (a host's per-packet jitter, 2 % of a packet's time at
/// jowkar2022's 24 Mb/s bottlenecks). Each seed set then takes another sample path, as the
/// event-order change made the unperturbed run take one (docs/simulator.md, "Same results
/// as with two events per hop"), so that spread is the seed spread of a deterministic key.
const JITTER_SPREAD: &str = include_str!("../headlines/jitter_spread.json");

/// The band a key's value must lie in: `[min(min, mean - k std), max(max, mean + k std)]`
/// widened by `floor`, with the reference's spread over seed sets; for a key without one
/// (deterministic) and with a measured jitter spread, the reference's value plus or minus
/// `k std` of the jittered runs (their own `k`) and the floor. The jittered runs' mean is
/// not used: the jitter itself shifts some keys (it breaks the phase locking of the
/// unperturbed run), and that shift is not spread.
pub fn headline_band(paper: &str, key: &str) -> (f64, f64) {
    band(&parse(REFERENCE, "reference.json"), &parse(JITTER_SPREAD, "jitter_spread.json"), paper, key)
}

fn parse(text: &str, name: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("headlines/{name} is not JSON: {e}"))
}

/// [`headline_band`] from the two files already parsed (a paper's check reads each once).
fn band(reference: &Value, jitter: &Value, paper: &str, key: &str) -> (f64, f64) {
    let r = &reference["papers"][paper][key];
    let f = |v: &Value, name: &str| v[name].as_f64().unwrap_or_else(|| panic!("{paper}.{key}: '{name}' is not a number"));
    let (mean, std, min, max) = (f(r, "mean"), f(r, "std"), f(r, "min"), f(r, "max"));
    let j = &jitter["papers"][paper][key];
    let spread = if std == 0.0 && min == max && !j.is_null() { sigmas(f(j, "sets")) * f(j, "std") } else { 0.0 };
    let k = sigmas(f(r, "sets"));
    let lo = min.min(mean - k * std) - spread - floor(mean);
    let hi = max.max(mean + k * std) + spread + floor(mean);
    (lo, hi)
}

/// Checks every headline key the reference has for `paper` against `summary` (the quick
/// reproduction's summary.json) and fails naming every key outside its band.
pub fn assert_headlines_as_before(paper: &str, summary: &Value) {
    let failures = headline_failures(paper, summary);
    assert!(failures.is_empty(), "{paper}: headline numbers outside the seed spread from before the event-order change:\n{}", failures.join("\n"));
}

/// One line per key outside its band (empty: all within).
pub fn headline_failures(paper: &str, summary: &Value) -> Vec<String> {
    let (reference, jitter) = (parse(REFERENCE, "reference.json"), parse(JITTER_SPREAD, "jitter_spread.json"));
    let keys = reference["papers"][paper].as_object().unwrap_or_else(|| panic!("headlines/reference.json has no paper '{paper}'"));
    let mut failures = Vec::new();
    for (key, r) in keys {
        let mean = r["mean"].as_f64().unwrap_or_else(|| panic!("reference {paper}.{key}: 'mean' is not a number"));
        let (lo, hi) = band(&reference, &jitter, paper, key);
        match summary.get(key).and_then(Value::as_f64) {
            Some(v) if (lo..=hi).contains(&v) => {}
            Some(v) => failures.push(format!("  {key} = {v:.4}, before: mean {mean:.4}, allowed {lo:.4}..{hi:.4}")),
            None => failures.push(format!("  {key} missing or null (before: mean {mean:.4})")),
        }
    }
    failures
}
