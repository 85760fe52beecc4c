use pathpool_sbd::replay::owd_events;
use pathpool_sbd::replay::Event;
use pathpool_sbd::tracegen::{generate, TraceConfig};
use pathpool_sbd::{Rfc8382Detector, SbdParams};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flows: usize = args[1].parse().unwrap();
    let seed: u64 = args[2].parse().unwrap();
    let cfg = TraceConfig { flows, shared: false, seed, ..TraceConfig::default() };
    let t = generate(&cfg);
    for q in &t.queues { println!("{:?}", q); }
    let (ev, _) = owd_events(&t.owd, flows);
    let mut det = Rfc8382Detector::new(SbdParams::mptcp_sbd(), flows);
    let mut k = 0;
    for e in &ev {
        while let Some(o) = det.poll(e.now_ns()) {
            k += 1;
            let o = o.clone();
            if k % 20 == 0 && k >= 60 {
                println!("t={:.1} groups={:?}", o.time_ns as f64/1e9, o.groups);
                for s in det.flow_stats() { println!("   skew {:+.3} var {:.3}ms freq {:.2} loss {:.4} b {}", s.skew_est, s.var_est/1e6, s.freq_est, s.pkt_loss, s.bottlenecked); }
            }
        }
        match *e { Event::Owd{flow, now_ns, owd_ns} => det.on_owd_sample(flow, now_ns, owd_ns), Event::Loss{flow, now_ns} => det.on_loss(flow, now_ns), _=>{} }
    }
}
