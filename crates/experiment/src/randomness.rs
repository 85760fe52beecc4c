//! Which parts of a scenario draw random numbers. Only RED and random-tail-drop queues,
//! random loss, Poisson or on-off UDP sources, a TCP sender's `send_jitter`, Linux's send
//! buffer (`send_buffer = "linux"`: its skb sizes) and the hosts' `host_latency` do
//! (pathpool_sim::rng); everything else is deterministic, so a scenario without any of them
//! gives the same result for every seed.

use crate::schema::{DirectionSpec, FlowKind, QueueSpec, Scenario, UdpPattern};

/// The random elements of `s`, named by their dotted path (`links.bn.queue`, `flows.web`).
pub fn random_elements(s: &Scenario) -> Vec<String> {
    let mut found = Vec::new();
    // Unset, the host model decides: Linux hosts draw one (host_model.rs), ideal ones none.
    if s.simulation.host_latency.map_or(s.simulation.hosts.linux(), |l| l > 0) {
        found.push("simulation.host_latency".to_string());
    }
    for l in &s.links {
        let forward = direction_randomness(&l.forward);
        // The reverse direction inherits the forward settings: name only what it adds.
        let reverse = l.reverse.as_ref().map(direction_randomness).unwrap_or_default();
        for what in &forward {
            found.push(format!("links.{}.{what}", l.name.value));
        }
        for what in reverse.iter().filter(|w| !forward.contains(w)) {
            found.push(format!("links.{}.reverse.{what}", l.name.value));
        }
    }
    for f in &s.flows {
        let tcp = match &f.kind {
            FlowKind::Udp(u) => {
                if !matches!(u.pattern, UdpPattern::Constant { .. }) {
                    found.push(format!("flows.{}", f.name.value));
                }
                continue;
            }
            FlowKind::Tcp(t) => t,
            FlowKind::Mptcp(m) => &m.tcp,
        };
        if tcp.send_jitter > 0 {
            found.push(format!("flows.{}.send_jitter", f.name.value));
        }
        if tcp.linux_send_buffer {
            found.push(format!("flows.{}.send_buffer", f.name.value));
        }
    }
    found
}

fn direction_randomness(d: &DirectionSpec) -> Vec<&'static str> {
    let mut v = Vec::new();
    if !matches!(d.queue, QueueSpec::DropTail) {
        v.push("queue");
    }
    if d.loss > 0.0 {
        v.push("loss");
    }
    v
}

/// A warning for a run whose seed was chosen (`--seed`, `simulation.seed`) but cannot change
/// anything; None when the scenario draws random numbers or no seed was asked for.
pub fn seed_warning(s: &Scenario) -> Option<String> {
    (s.simulation.seed_given && random_elements(s).is_empty()).then(|| {
        "warning: the seed changes nothing here: the scenario has no random element (simulation.hosts = \"ideal\" with no send_jitter, send_buffer = \"linux\" or host_latency; no RED or random-tail-drop queue, no random loss, no Poisson or on-off UDP source), so every seed gives byte-identical results; flows of equal RTT through a drop-tail queue can also lock into phase, which the default Linux hosts, RED or queue = \"random-tail-drop\" break (docs/scenarios.md, \"Randomness\")".to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "[simulation]\nduration = \"1s\"\nseed = 4\nhosts = \"ideal\"\n[links.bn]\nfrom = \"a\"\nto = \"b\"\nrate = \"10Mbps\"\ndelay = \"5ms\"\nbuffer = 20\n[[flows]]\nname = \"f\"\nroute = [\"a\", \"b\"]\n";

    fn scenario(text: &str, sets: &[&str]) -> Scenario {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        crate::load_str("t.toml", text, &sets).unwrap().scenario
    }

    #[test]
    fn drop_tail_tcp_has_nothing_random_and_warns_when_a_seed_is_given() {
        let s = scenario(BASE, &[]);
        assert!(random_elements(&s).is_empty());
        let w = seed_warning(&s).expect("a seed was given");
        assert!(w.contains("the seed changes nothing") && w.contains("byte-identical"), "{w}");
        // No seed asked for: nothing to warn about.
        assert_eq!(seed_warning(&scenario(&BASE.replace("seed = 4\n", ""), &[])), None);
    }

    #[test]
    fn each_random_element_is_found_and_silences_the_warning() {
        for (sets, element) in [
            (&["links.bn.queue=red", "links.bn.red_min=5", "links.bn.red_max=15"][..], "links.bn.queue"),
            (&["links.bn.queue=random-tail-drop"][..], "links.bn.queue"),
            (&["links.bn.loss=0.01"][..], "links.bn.loss"),
            (&["links.bn.reverse.loss=0.01"][..], "links.bn.reverse.loss"),
            (&["simulation.host_latency=600us"][..], "simulation.host_latency"),
        ] {
            let s = scenario(BASE, sets);
            assert_eq!(random_elements(&s), vec![element.to_string()], "{sets:?}");
            assert_eq!(seed_warning(&s), None, "{sets:?}");
        }
        let udp = |pattern: &str| format!("{BASE}[[flows]]\nname = \"u\"\nkind = \"udp\"\nroute = [\"a\", \"b\"]\nrate = \"1Mbps\"\n{pattern}");
        assert_eq!(random_elements(&scenario(&udp("traffic = \"poisson\"\n"), &[])), vec!["flows.u".to_string()]);
        assert!(random_elements(&scenario(&udp(""), &[])).is_empty(), "constant-rate UDP is deterministic");
    }

    #[test]
    fn the_default_linux_hosts_are_random() {
        let s = scenario(&BASE.replace("hosts = \"ideal\"\n", ""), &[]);
        assert_eq!(random_elements(&s), ["simulation.host_latency", "flows.f.send_jitter", "flows.f.send_buffer"].map(String::from).to_vec());
        assert!(seed_warning(&s).is_none());
    }

    #[test]
    fn send_jitter_and_linux_send_buffers_are_random() {
        let s = scenario(BASE, &["flows.f.send_jitter=100us"]);
        assert_eq!(random_elements(&s), vec!["flows.f.send_jitter".to_string()]);
        let s = scenario(BASE, &["flows.f.send_buffer=linux"]);
        assert_eq!(random_elements(&s), vec!["flows.f.send_buffer".to_string()]);
        assert!(seed_warning(&s).is_none());
    }
}
