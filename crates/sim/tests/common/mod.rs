//! Topologies shared by the validation tests.
#![allow(dead_code)]

use pathpool_sim::time::millis;
use pathpool_sim::*;

pub const MBPS: u64 = 1_000_000;

/// A dumbbell: every flow crosses one bottleneck queue (data direction) and an uncongested
/// reverse queue; flow i's two-way propagation delay is `rtts[i]`.
pub struct Dumbbell {
    pub sim: Simulation,
    pub bottleneck: ElementId,
    pub flows: Vec<FlowId>,
}

/// Bandwidth-delay product in 1500-byte packets.
pub fn bdp_packets(rate_bps: u64, rtt: Time) -> u32 {
    (rate_bps as u128 * rtt as u128 / (PS_PER_SEC as u128 * 8 * 1500)) as u32
}

pub fn dumbbell(seed: u64, rate_bps: u64, discipline: Discipline, buffer: u32, rtts: &[Time], configure: impl Fn(&mut TcpFlowConfig, usize)) -> Dumbbell {
    let mut sim = Simulation::new(seed);
    let bottleneck = sim.add_queue(QueueConfig { rate_bps, buffer: Buffer::Packets(buffer), discipline }).unwrap();
    let reverse = sim.add_queue(QueueConfig::drop_tail(rate_bps, Buffer::Packets(100_000))).unwrap();
    let mut flows = Vec::new();
    for (i, &rtt) in rtts.iter().enumerate() {
        let fwd = sim.add_pipe(rtt / 2);
        let rev = sim.add_pipe(rtt - rtt / 2);
        let mut cfg = TcpFlowConfig::new(vec![bottleneck, fwd], vec![reverse, rev]);
        configure(&mut cfg, i);
        flows.push(sim.add_tcp_flow(cfg).unwrap());
    }
    Dumbbell { sim, bottleneck, flows }
}

/// Runs `warmup`, marks, then runs `measure` more.
pub fn run_measured(sim: &mut Simulation, warmup: Time, measure: Time) {
    sim.run_until(warmup, &mut |_| {});
    sim.mark_warmup_end();
    sim.run_until(warmup + measure, &mut |_| {});
}

pub fn throughputs(sim: &Simulation, flows: &[FlowId]) -> Vec<f64> {
    flows.iter().map(|&f| sim.flow_stats(f).throughput_bps).collect()
}

pub fn ms(x: u64) -> Time {
    millis(x)
}
