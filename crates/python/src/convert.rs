//! Python values to TOML: a scenario given as a dict becomes the TOML text the scenario
//! loader reads (so a dict is checked exactly like a file), and an override value becomes
//! the VALUE of `--set KEY=VALUE`.

use crate::ScenarioError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Deeper nesting is no scenario; the bound keeps a self-containing dict from recursing forever.
const MAX_DEPTH: usize = 32;

/// The name a dict scenario has in messages.
pub const DICT_NAME: &str = "<dict>";

fn type_error(field: &str, got: &Bound<'_, PyAny>, expected: &str) -> PyErr {
    let ty = got.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    let at = if field.is_empty() { String::new() } else { format!("{field}: ") };
    ScenarioError::new_err(format!("{DICT_NAME}: {at}expected {expected}, got a value of type {ty}"))
}

fn join(field: &str, key: &str) -> String {
    if field.is_empty() {
        key.to_string()
    } else {
        format!("{field}.{key}")
    }
}

/// One Python value as TOML; `field` is its dotted path for messages.
pub fn value(v: &Bound<'_, PyAny>, field: &str, depth: usize) -> PyResult<toml::Value> {
    if depth > MAX_DEPTH {
        return Err(ScenarioError::new_err(format!("{DICT_NAME}: {field}: nested more than {MAX_DEPTH} levels deep; expected a scenario table")));
    }
    // bool before int: Python's bool is an int.
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(toml::Value::Boolean(b.is_true()));
    }
    if v.cast::<PyInt>().is_ok() {
        return v.extract::<i64>().map(toml::Value::Integer).map_err(|_| {
            let shown = v.str().map(|s| s.to_string()).unwrap_or_default();
            ScenarioError::new_err(format!("{DICT_NAME}: {field}: the integer {shown} is out of range; expected one between {} and {}", i64::MIN, i64::MAX))
        });
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        return Ok(toml::Value::Float(f.value()));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(toml::Value::String(s.to_str()?.to_string()));
    }
    if v.cast::<PyList>().is_ok() || v.cast::<PyTuple>().is_ok() {
        let mut items = Vec::new();
        for (i, item) in v.try_iter()?.enumerate() {
            items.push(value(&item?, &format!("{field}[{i}]"), depth + 1)?);
        }
        return Ok(toml::Value::Array(items));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        return table(d, field, depth + 1).map(toml::Value::Table);
    }
    Err(type_error(field, v, "a string, number, boolean, list or dict"))
}

pub fn table(d: &Bound<'_, PyDict>, field: &str, depth: usize) -> PyResult<toml::Table> {
    let mut t = toml::Table::new();
    for (k, v) in d.iter() {
        let Ok(key) = k.cast::<PyString>() else {
            return Err(type_error(field, &k, "string keys"));
        };
        let key = key.to_str()?.to_string();
        let converted = value(&v, &join(field, &key), depth)?;
        t.insert(key, converted);
    }
    Ok(t)
}

/// The TOML text of a scenario given as a dict (what `pathpool.run` loads for a dict).
#[pyfunction]
pub fn to_toml(scenario: &Bound<'_, PyDict>) -> PyResult<String> {
    let t = table(scenario, "", 0)?;
    toml::to_string(&t).map_err(|e| ScenarioError::new_err(format!("{DICT_NAME}: cannot be written as TOML: {e}")))
}

/// `KEY=VALUE` for `--set`: None removes the key (an empty VALUE), a string is quoted so
/// that it stays a string, anything else is written as a TOML value.
#[pyfunction]
pub fn override_text(key: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if v.is_none() {
        return Ok(format!("{key}="));
    }
    let value = value(v, key, 1)?;
    Ok(format!("{key}={value}"))
}
