//! Tick labels as a reader writes numbers: "20", not "20.0"; "0.25", not "0.250000".

/// `v` with at most three decimals and no trailing zeros ("-0" reads "0").
pub fn tick(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn integers_print_without_decimals_and_fractions_without_trailing_zeros() {
        assert_eq!(super::tick(20.0), "20");
        assert_eq!(super::tick(0.25), "0.25");
        assert_eq!(super::tick(f64::from(0.3_f32)), "0.3");
        assert_eq!(super::tick(-0.0001), "0");
        assert_eq!(super::tick(1.5e6), "1500000");
    }
}
