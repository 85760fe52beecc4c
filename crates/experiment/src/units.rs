//! Quantities with units in scenario values: rates ("100Mbps"), times ("20ms"), sizes
//! ("1500B"). Each parser returns what was expected on failure, for the caller's message.

/// Picoseconds, the simulator's time unit.
pub const PS_PER_SEC: u64 = 1_000_000_000_000;

pub const TIME_EXPECTED: &str = "a time with a unit, like \"20ms\" or \"600s\" (units: s, ms, us, ns, ps)";
pub const RATE_EXPECTED: &str = "a rate with a unit, like \"100Mbps\" or \"1Gbps\" (units: bps, kbps, Mbps, Gbps, Tbps)";
pub const SIZE_EXPECTED: &str = "a size with a unit, like \"1500B\" or \"64KiB\" (units: B, kB, MB, GB, KiB, MiB, GiB)";

/// Splits "12.5 ms" into (12.5, "ms"). The number must be finite.
fn split(text: &str) -> Option<(f64, &str)> {
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.' || c == '_' || c == '-' || c == '+'))
        .map_or(text.len(), |(i, _)| i);
    let (number, unit) = text.split_at(end);
    let number: f64 = number.replace('_', "").parse().ok()?;
    number.is_finite().then_some((number, unit.trim()))
}

fn scaled(text: &str, units: &[(&str, f64)], case_insensitive: bool) -> Option<f64> {
    let (n, unit) = split(text)?;
    let factor = units.iter().find(|(u, _)| if case_insensitive { u.eq_ignore_ascii_case(unit) } else { *u == unit })?.1;
    Some(n * factor)
}

fn to_u64(v: f64) -> Option<u64> {
    (v.is_finite() && v >= 0.0 && v < u64::MAX as f64).then(|| v.round() as u64)
}

/// A time in picoseconds; only non-negative times parse.
pub fn parse_time(text: &str) -> Option<u64> {
    const UNITS: [(&str, f64); 6] = [("s", 1e12), ("ms", 1e9), ("us", 1e6), ("µs", 1e6), ("ns", 1e3), ("ps", 1.0)];
    to_u64(scaled(text, &UNITS, false)?)
}

/// A rate in bits per second.
pub fn parse_rate(text: &str) -> Option<u64> {
    const UNITS: [(&str, f64); 10] = [
        ("bps", 1.0),
        ("kbps", 1e3),
        ("mbps", 1e6),
        ("gbps", 1e9),
        ("tbps", 1e12),
        ("b/s", 1.0),
        ("kb/s", 1e3),
        ("mb/s", 1e6),
        ("gb/s", 1e9),
        ("tb/s", 1e12),
    ];
    to_u64(scaled(text, &UNITS, true)?)
}

/// A size in bytes.
pub fn parse_size(text: &str) -> Option<u64> {
    const UNITS: [(&str, f64); 8] = [
        ("B", 1.0),
        ("kB", 1e3),
        ("KB", 1e3),
        ("MB", 1e6),
        ("GB", 1e9),
        ("KiB", 1024.0),
        ("MiB", 1048576.0),
        ("GiB", 1073741824.0),
    ];
    to_u64(scaled(text, &UNITS, false)?)
}

/// Whether the text starts with a minus sign (to say "must be positive" rather than "bad unit").
pub fn is_negative(text: &str) -> bool {
    text.trim_start().starts_with('-')
}

/// Formats picoseconds as seconds for messages and summaries.
pub fn seconds(ps: u64) -> f64 {
    ps as f64 / PS_PER_SEC as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(parse_time("20ms"), Some(20_000_000_000));
        assert_eq!(parse_time("600s"), Some(600 * PS_PER_SEC));
        assert_eq!(parse_time("1.5 s"), Some(1_500_000_000_000));
        assert_eq!(parse_time("250us"), Some(250_000_000));
        assert_eq!(parse_time("20"), None);
        assert_eq!(parse_time("20 furlongs"), None);
        assert_eq!(parse_time("-1s"), None);
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("100Mbps"), Some(100_000_000));
        assert_eq!(parse_rate("1Gbps"), Some(1_000_000_000));
        assert_eq!(parse_rate("1.5 gbps"), Some(1_500_000_000));
        assert_eq!(parse_rate("64kb/s"), Some(64_000));
        assert_eq!(parse_rate("100"), None);
        assert_eq!(parse_rate("100MB"), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1500B"), Some(1500));
        assert_eq!(parse_size("64KiB"), Some(65536));
        assert_eq!(parse_size("1MB"), Some(1_000_000));
        assert_eq!(parse_size("1500"), None);
        assert_eq!(parse_size("1500b"), None);
    }
}
