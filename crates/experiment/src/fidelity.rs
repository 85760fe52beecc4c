//! `[fidelity]`: what a scenario of the fidelity suite measures and how close a backend must
//! come to the reference (docs/scenarios.md, "`[fidelity]`"; docs/fidelity.md). Every backend
//! runs the scenario as if the table were absent; `pathpool compare` and `pathpool fidelity`
//! read it to turn each run's summary.json into the case's one quantity.

use crate::error::{Result, Source};
use crate::fields::{Fields, Located};
use crate::tree::Node;
use serde_json::Value;
use std::collections::BTreeMap;

const KEYS: &[&str] = &["measures", "order", "key", "ratio", "share", "tolerance", "quick_duration", "quick_warmup"];

#[derive(Clone, Debug, PartialEq)]
pub struct FidelitySpec {
    /// The quantity in words, for the report.
    pub measures: String,
    /// The case's row in the suite's table (smaller first).
    pub order: u32,
    pub quantity: Quantity,
    /// Largest relative error of a backend's median against the reference's that passes.
    pub tolerance: f64,
    /// `--quick`'s `simulation.duration` and `simulation.warmup`, as written in the file:
    /// long enough for the quantity to settle. None: the case has no quick form.
    pub quick: Option<(Located<String>, Located<String>)>,
}

/// What a case measures, read from summary.json.
#[derive(Clone, Debug, PartialEq)]
pub enum Quantity {
    /// `key = "K"`: the key's value.
    Key(String),
    /// `ratio = ["A", "B"]`: A / B.
    Ratio(String, String),
    /// `share = ["A", "B"]`: A / (A + B).
    Share(String, String),
}

impl Quantity {
    /// The quantity of one run; None where a key is absent or not a number, or the division
    /// gives no finite number.
    pub fn of(&self, summary: &BTreeMap<String, Value>) -> Option<f64> {
        let get = |k: &str| summary.get(k).and_then(Value::as_f64);
        match self {
            Quantity::Key(k) => get(k),
            Quantity::Ratio(a, b) => Some(get(a)? / get(b)?).filter(|v| v.is_finite()),
            Quantity::Share(a, b) => Some(get(a)? / (get(a)? + get(b)?)).filter(|v| v.is_finite()),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Quantity::Key(k) => format!("`{k}`"),
            Quantity::Ratio(a, b) => format!("`{a}` / `{b}`"),
            Quantity::Share(a, b) => format!("`{a}` / (`{a}` + `{b}`)"),
        }
    }
}

const QUANTITY_EXPECTED: &str = "exactly one of key = \"KEY\", ratio = [\"A\", \"B\"] or share = [\"A\", \"B\"] (summary.json keys)";

pub fn decode(node: &Node, src: &Source) -> Result<FidelitySpec> {
    let f = Fields::new(node, "fidelity", KEYS, src)?;
    let measures = f.string("measures")?.ok_or_else(|| f.missing("measures", "the quantity in words, like \"bottleneck utilisation\""))?;
    if measures.value.trim().is_empty() || measures.value.contains('|') || measures.value.contains('\n') {
        return Err(measures.error(src, "expected the quantity in words on one line, without '|' (it is a cell of a Markdown table)"));
    }
    let order = f.int("order", 1, 10_000)?.ok_or_else(|| f.missing("order", "the case's row in the suite's table, an integer from 1"))? as u32;
    let given: Vec<&str> = ["key", "ratio", "share"].into_iter().filter(|k| f.has(k)).collect();
    let quantity = match given.as_slice() {
        ["key"] => Quantity::Key(summary_key(f.string("key")?.expect("present"), src)?),
        [one] => {
            let list = f.strings(one)?.expect("present");
            let [a, b] = list.value.as_slice() else {
                return Err(list.error(src, format!("expected two summary.json keys, like [\"A\", \"B\"], got {} of them", list.value.len())));
            };
            let (a, b) = (summary_key(f.located(one, a.clone()), src)?, summary_key(f.located(one, b.clone()), src)?);
            if *one == "ratio" {
                Quantity::Ratio(a, b)
            } else {
                Quantity::Share(a, b)
            }
        }
        [] => return Err(f.missing("key", QUANTITY_EXPECTED)),
        [_, second, ..] => return Err(f.error(second, format!("expected {QUANTITY_EXPECTED}, got {}", given.join(" and ")))),
    };
    let tolerance = f.number("tolerance", 0.0, 10.0)?.ok_or_else(|| f.missing("tolerance", "the largest relative error that passes, like 0.10 for 10 %"))?;
    if tolerance <= 0.0 {
        return Err(f.error("tolerance", "must be greater than zero; expected the largest relative error that passes, like 0.10 for 10 %"));
    }
    let quick = match (f.positive_time("quick_duration")?, f.time("quick_warmup")?) {
        (None, None) => None,
        (Some(d), Some(w)) if w < d => Some((f.string("quick_duration")?.expect("present"), f.string("quick_warmup")?.expect("present"))),
        (Some(_), Some(_)) => return Err(f.error("quick_warmup", "must be shorter than fidelity.quick_duration")),
        (Some(_), None) => return Err(f.missing("quick_warmup", "quick_warmup beside quick_duration (a time, like \"5s\")")),
        (None, Some(_)) => return Err(f.missing("quick_duration", "quick_duration beside quick_warmup (a time, like \"25s\")")),
    };
    Ok(FidelitySpec { measures: measures.value, order, quantity, tolerance, quick })
}

/// A summary.json key: dotted words of letters, digits, '_' and '-'.
fn summary_key(k: Located<String>, src: &Source) -> Result<String> {
    let ok = !k.value.is_empty() && k.value.split('.').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    if !ok {
        return Err(k.error(src, format!("\"{}\" is no summary.json key; expected dotted names like \"flow.reno.throughput_mbps\"", k.value)));
    }
    Ok(k.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "[simulation]\nduration = \"10s\"\n[links.l]\nfrom = \"a\"\nto = \"b\"\nrate = \"10Mbps\"\ndelay = \"5ms\"\nbuffer = 20\n[[flows]]\nname = \"f\"\nroute = [\"a\", \"b\"]\n";

    fn spec(table: &str) -> std::result::Result<Option<FidelitySpec>, String> {
        crate::load_str("f.toml", &format!("{BASE}[fidelity]\n{table}"), &[]).map(|l| l.scenario.fidelity).map_err(|e| e.to_string())
    }

    const GOOD: &str = "measures = \"share\"\norder = 3\nshare = [\"flow.a.throughput_mbps\", \"flow.b.throughput_mbps\"]\ntolerance = 0.10\nquick_duration = \"25s\"\nquick_warmup = \"5s\"\n";

    #[test]
    fn the_table_is_read_and_its_quantity_taken_from_a_summary() {
        let s = spec(GOOD).unwrap().expect("a [fidelity] table");
        assert_eq!((s.measures.as_str(), s.order, s.tolerance), ("share", 3, 0.10));
        assert_eq!(s.quantity, Quantity::Share("flow.a.throughput_mbps".into(), "flow.b.throughput_mbps".into()));
        let (d, w) = s.quick.expect("quick");
        assert_eq!((d.value.as_str(), w.value.as_str()), ("25s", "5s"));
        let summary: BTreeMap<String, Value> = [("flow.a.throughput_mbps".to_string(), serde_json::json!(3.0)), ("flow.b.throughput_mbps".to_string(), serde_json::json!(1.0))].into();
        assert_eq!(s.quantity.of(&summary), Some(0.75));
        assert_eq!(Quantity::Ratio("flow.a.throughput_mbps".into(), "flow.b.throughput_mbps".into()).of(&summary), Some(3.0));
        assert_eq!(Quantity::Key("flow.c.throughput_mbps".into()).of(&summary), None);
        // Absent: no table, and --set reaches it like any other key.
        assert_eq!(crate::load_str("f.toml", BASE, &[]).unwrap().scenario.fidelity, None);
        let set = crate::load_str("f.toml", &format!("{BASE}[fidelity]\n{GOOD}"), &["fidelity.tolerance=0.2".to_string()]).unwrap();
        assert_eq!(set.scenario.fidelity.unwrap().tolerance, 0.2);
    }

    #[test]
    fn bad_tables_are_refused_naming_the_field() {
        for (from, to, says) in [
            ("order = 3\n", "order = 3\ntolerence = 0.1\n", "fidelity.tolerence: unknown key"),
            ("tolerance = 0.10\n", "tolerance = 0\n", "fidelity.tolerance: must be greater than zero"),
            ("tolerance = 0.10\n", "tolerance = \"10%\"\n", "fidelity.tolerance"),
            ("tolerance = 0.10\n", "", "fidelity.tolerance"),
            ("order = 3\n", "order = 0\n", "fidelity.order: expected an integer from 1"),
            ("share = [\"flow.a.throughput_mbps\", \"flow.b.throughput_mbps\"]\n", "", "exactly one of key"),
            ("share = [\"flow.a.throughput_mbps\", \"flow.b.throughput_mbps\"]\n", "share = [\"flow.a.throughput_mbps\"]\n", "fidelity.share: expected two summary.json keys"),
            ("order = 3\n", "order = 3\nkey = \"jain_index\"\n", "fidelity.share: expected exactly one of key"),
            ("share = [\"flow.a.throughput_mbps\", \"flow.b.throughput_mbps\"]\n", "key = \"jain index\"\n", "fidelity.key: \"jain index\" is no summary.json key"),
            ("quick_warmup = \"5s\"\n", "quick_warmup = \"30s\"\n", "fidelity.quick_warmup: must be shorter"),
            ("quick_warmup = \"5s\"\n", "", "fidelity.quick_warmup"),
            ("measures = \"share\"\n", "measures = \"a | b\"\n", "fidelity.measures"),
        ] {
            assert!(GOOD.contains(from), "{from}");
            let e = spec(&GOOD.replacen(from, to, 1)).expect_err(to);
            assert!(e.contains("f.toml") && e.contains(says), "{to}: {e}");
        }
    }
}
