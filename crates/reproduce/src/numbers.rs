//! Numbers as the reports write them: in tables and in CSVs.

/// A number for tables: three significant decimals, `n/a` when missing.
pub fn fmt(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x:.3}"),
        _ => "n/a".into(),
    }
}

/// A number for CSVs: shortest exact form.
pub fn num(v: f64) -> String {
    if v.is_finite() {
        v.to_string()
    } else {
        String::new()
    }
}
