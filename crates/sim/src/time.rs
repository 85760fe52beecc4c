//! Simulated time: integer picoseconds, so every run is exact and platform independent.

/// A point in simulated time or a duration, in picoseconds. `u64` covers about 213 days.
pub type Time = u64;

pub const PS_PER_SEC: u64 = 1_000_000_000_000;
pub const PS_PER_MS: u64 = 1_000_000_000;
pub const PS_PER_US: u64 = 1_000_000;
pub const PS_PER_NS: u64 = 1_000;

pub const fn secs(s: u64) -> Time {
    s * PS_PER_SEC
}

pub const fn millis(ms: u64) -> Time {
    ms * PS_PER_MS
}

pub const fn micros(us: u64) -> Time {
    us * PS_PER_US
}

/// Seconds as f64 to picoseconds, rounded to the nearest picosecond (negative -> 0).
pub fn from_secs_f64(s: f64) -> Time {
    if s.is_nan() || s <= 0.0 {
        0
    } else {
        (s * PS_PER_SEC as f64).round() as Time
    }
}

pub fn to_secs_f64(t: Time) -> f64 {
    t as f64 / PS_PER_SEC as f64
}

/// Picoseconds to the nanoseconds that `pathpool-cc` works in.
pub const fn to_nanos(t: Time) -> u64 {
    t / PS_PER_NS
}

pub const fn from_nanos(ns: u64) -> Time {
    ns * PS_PER_NS
}

/// Time to serialise `bytes` at `rate_bps`, rounded down to whole picoseconds.
pub fn transmission_time(bytes: u32, rate_bps: u64) -> Time {
    ((bytes as u128 * 8 * PS_PER_SEC as u128) / rate_bps as u128) as Time
}
