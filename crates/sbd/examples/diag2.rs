use pathpool_sbd::replay::{accuracy, owd_events, run_rfc8382};
use pathpool_sbd::tracegen::{generate, TraceConfig};
use pathpool_sbd::{FilterParams, SbdParams};
fn main() {
    let flows: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    for seed in 1..=10 {
        let cfg = TraceConfig { flows, shared: false, seed, ..TraceConfig::default() };
        let t = generate(&cfg);
        let (ev, _) = owd_events(&t.owd, flows);
        let r = run_rfc8382(&ev, SbdParams::mptcp_sbd(), FilterParams::default(), flows);
        let a = accuracy(&r.decisions, false, 50*350_000_000);
        let mut wrong = std::collections::BTreeMap::new();
        for d in r.decisions.iter().filter(|d| d.time_ns >= 50*350_000_000 && !d.all_separate()) { *wrong.entry(d.groups.clone()).or_insert(0) += 1; }
        let ob = r.observations.iter().filter(|d| d.time_ns >= 50*350_000_000).collect::<Vec<_>>();
        let oc = ob.iter().filter(|d| d.all_separate()).count();
        println!("seed {seed}: decisions {:?} obs {}/{} wrong {:?}", a, oc, ob.len(), wrong);
    }
}
