//! `--repeats`: runs per backend, `N` for every backend or `sim=20,linux=5` for each its own
//! (the simulator is cheap and its seeds spread as widely as real runs do).

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Repeats {
    All(u32),
    Each(Vec<(String, u32)>),
}

const MAX: u32 = 100;
const EXPECTED: &str = "a number of runs from 1 to 100 for every backend, or BACKEND=N for each, like sim=20,linux=5";

fn count(text: &str) -> Option<u32> {
    text.trim().parse::<u32>().ok().filter(|n| (1..=MAX).contains(n))
}

impl Repeats {
    pub fn parse(text: &str) -> Result<Repeats, String> {
        if let Some(n) = count(text) {
            return Ok(Repeats::All(n));
        }
        let mut each = Vec::new();
        for part in text.split(',') {
            let Some((b, n)) = part.split_once('=') else {
                return Err(format!("--repeats: expected {EXPECTED}, got \"{text}\""));
            };
            let b = b.trim().to_string();
            let Some(n) = count(n) else {
                return Err(format!("--repeats: \"{part}\": expected {EXPECTED}"));
            };
            if each.iter().any(|(x, _): &(String, u32)| *x == b) {
                return Err(format!("--repeats: backend \"{b}\" given twice in \"{text}\""));
            }
            each.push((b, n));
        }
        Ok(Repeats::Each(each))
    }

    /// Runs per backend of `backends`: each must have a count, and every backend named must
    /// be among them.
    pub fn resolve(&self, backends: &[String]) -> Result<BTreeMap<String, u32>, String> {
        match self {
            Repeats::All(n) => Ok(backends.iter().map(|b| (b.clone(), *n)).collect()),
            Repeats::Each(each) => {
                if let Some((b, _)) = each.iter().find(|(b, _)| !backends.contains(b)) {
                    return Err(format!("--repeats: \"{b}\" is not among --backends {}", backends.join(",")));
                }
                backends
                    .iter()
                    .map(|b| each.iter().find(|(x, _)| x == b).map(|(_, n)| (b.clone(), *n)).ok_or_else(|| format!("--repeats: no count for backend {b}; expected {EXPECTED} (one for each of {})", backends.join(","))))
                    .collect()
            }
        }
    }

    /// As a user would type it.
    pub fn describe(&self) -> String {
        match self {
            Repeats::All(n) => n.to_string(),
            Repeats::Each(each) => each.iter().map(|(b, n)| format!("{b}={n}")).collect::<Vec<_>>().join(","),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backends(list: &[&str]) -> Vec<String> {
        list.iter().map(|b| b.to_string()).collect()
    }

    #[test]
    fn a_plain_number_holds_for_every_backend_and_pairs_for_each() {
        let all = Repeats::parse("3").unwrap().resolve(&backends(&["sim", "linux"])).unwrap();
        assert_eq!(all, [("linux".to_string(), 3), ("sim".to_string(), 3)].into());
        let each = Repeats::parse("sim=20,linux=5").unwrap();
        assert_eq!(each.describe(), "sim=20,linux=5");
        assert_eq!(each.resolve(&backends(&["sim", "linux"])).unwrap(), [("linux".to_string(), 5), ("sim".to_string(), 20)].into());
    }

    #[test]
    fn bad_counts_and_backends_are_refused_by_name() {
        for (text, says) in [("0", "expected"), ("sim=0", "\"sim=0\""), ("sim", "expected"), ("sim=2,sim=3", "twice"), ("sim=101", "\"sim=101\"")] {
            let e = Repeats::parse(text).unwrap_err();
            assert!(e.starts_with("--repeats") && e.contains(says), "{text}: {e}");
        }
        let e = Repeats::parse("sim=2").unwrap().resolve(&backends(&["sim", "linux"])).unwrap_err();
        assert!(e.contains("no count for backend linux"), "{e}");
        let e = Repeats::parse("quic=2,sim=2").unwrap().resolve(&backends(&["sim"])).unwrap_err();
        assert!(e.contains("\"quic\" is not among --backends sim"), "{e}");
    }
}
