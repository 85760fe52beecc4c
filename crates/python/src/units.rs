//! A scenario value with a unit ("10Mbps", "20ms", "64KiB") as a number, parsed by the
//! scenario loader's own parsers (`pathpool_scenario::units`), so that a sweep's columns hold
//! numbers in one unit each (bit/s, seconds, bytes) and never a second parser's reading.

use pathpool_scenario::units::{parse_rate, parse_size, parse_time, PS_PER_SEC};
use pyo3::prelude::*;

/// `(suffix, count, per_unit)`: the value is `count / per_unit` in the unit that `suffix`
/// (the column name's ending) names: `("bps", 10_000_000, 1)` for "10Mbps", `("s",
/// 20_000_000_000, 10^12)` for "20ms" (picoseconds, the simulator's clock), `("bytes", 65536,
/// 1)` for "64KiB". None for text that is none of the three; the units of the three never
/// overlap (rates end in bps or b/s, sizes in B, times in s), so at most one parses.
#[pyfunction]
pub fn quantity(text: &str) -> Option<(&'static str, u64, u64)> {
    if let Some(bps) = parse_rate(text) {
        return Some(("bps", bps, 1));
    }
    if let Some(ps) = parse_time(text) {
        return Some(("s", ps, PS_PER_SEC));
    }
    parse_size(text).map(|bytes| ("bytes", bytes, 1))
}
