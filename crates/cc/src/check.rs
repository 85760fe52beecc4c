//! Checks of parameter values, with errors that name the field.

/// The error of a parameter that must be finite and > 0.
pub(crate) fn positive_finite(name: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(format!("{name}: expected a finite number > 0, got {v}"))
    }
}
