//! Reading one experiment's values over its seeds out of the results.

use crate::job::Results;
use crate::stats;

/// The job id of one seed of an experiment: `<experiment>/seed<k>`.
pub fn seed_id(experiment: &str, seed: u64) -> String {
    format!("{experiment}/seed{seed}")
}

/// Every seed's whole result of `experiment`.
pub fn values_of<'a>(results: &'a Results, experiment: &str) -> Vec<&'a serde_json::Value> {
    let prefix = format!("{experiment}/seed");
    results
        .range(prefix.clone()..)
        .take_while(|(id, _)| id.starts_with(&prefix))
        .filter(|(id, _)| id[prefix.len()..].bytes().all(|b| b.is_ascii_digit()))
        .map(|(_, v)| v)
        .collect()
}

/// `key` of every seed's result of `experiment` (seeds whose result lacks it are left out).
pub fn values(results: &Results, experiment: &str, key: &str) -> Vec<f64> {
    values_of(results, experiment).into_iter().filter_map(|v| v.get(key)?.as_f64()).collect()
}

pub fn median(results: &Results, experiment: &str, key: &str) -> Option<f64> {
    stats::median(&values(results, experiment, key))
}

pub fn mean(results: &Results, experiment: &str, key: &str) -> Option<f64> {
    stats::mean(&values(results, experiment, key))
}
