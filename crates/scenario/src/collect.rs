//! The multipath metrics of a simulation: each connection's and subflow's throughput and the
//! detector's records, read from the simulator and handed to the experiment's `assemble`.

use crate::mptcp_outcome::{assemble, Measured, Multipath, Records};
use crate::Loaded;
use pathpool_sim as sim;

pub fn collect(l: &Loaded, s: &sim::Simulation, connections: &[(usize, sim::MptcpId, usize)], sim_flows: &[(String, bool)]) -> Option<Multipath> {
    if connections.is_empty() {
        return None;
    }
    let topo = &l.topology;
    let warmup = crate::units::seconds(l.scenario.simulation.warmup);
    let connection = |ti: usize| connections.iter().find(|c| c.0 == ti).map(|&(_, id, first)| (id, first));
    let mut measured = Vec::with_capacity(topo.flows.len());
    let mut sim_index = 0;
    for (ti, f) in topo.flows.iter().enumerate() {
        if let Some((id, first)) = connection(ti) {
            let subflow_mbps = (0..f.subflows.len()).map(|k| s.flow_stats(sim::FlowId((first + k) as u32)).throughput_bps / 1e6).collect();
            measured.push(Measured { throughput_mbps: s.mptcp_stats(id).throughput_bps / 1e6, subflow_mbps });
            sim_index += f.subflows.len();
        } else {
            measured.push(Measured { throughput_mbps: s.flow_stats(sim::FlowId(sim_index as u32)).throughput_bps / 1e6, subflow_mbps: Vec::new() });
            sim_index += 1;
        }
    }
    debug_assert_eq!(sim_index, sim_flows.len());
    let window = |r: &[sim::mptcp::GroupingRecord], start: f64| -> Records {
        r.iter().map(|x| (start + crate::units::seconds(x.time), x.groups.clone())).filter(|x| x.0 >= warmup).collect()
    };
    let records = |ti: usize| -> (Records, Records) {
        let (id, _) = connection(ti).expect("records are asked of connections only");
        let start = crate::units::seconds(topo.flows[ti].start);
        (window(s.mptcp_observations(id), start), window(s.mptcp_decisions(id), start))
    };
    let mut mp = assemble(l, &measured, &records)?;
    for (c, ti) in mp.connections.iter_mut().zip(topo.flows.iter().enumerate().filter(|(ti, _)| connection(*ti).is_some()).map(|(ti, _)| ti)) {
        let (id, _) = connection(ti).expect("filtered to connections");
        let start = crate::units::seconds(topo.flows[ti].start);
        let (obs, dec) = s.mptcp_sender_records(id);
        c.sender_observations = window(obs, start);
        c.sender_decisions = window(dec, start);
        let measured = s.mptcp_sender_comparisons(id).iter().filter(|r| start + crate::units::seconds(r.time) >= warmup);
        c.sender_comparisons = measured.fold((0, 0), |(v, n), r| (v + u64::from(r.with_verdict), n + u64::from(r.pairs)));
        let (from, to) = (l.scenario.simulation.warmup.saturating_sub(topo.flows[ti].start), l.scenario.simulation.duration.saturating_sub(topo.flows[ti].start));
        let log = s.mptcp_coupling(id);
        let bits = |r: &sim::CouplingRecord| r.sets.iter().map(|x| x.0 as u32).collect::<Vec<u32>>();
        // The sets in force at the window's start, then each change in it.
        let first = log.partition_point(|r| r.time <= from).saturating_sub(1);
        c.coupling = log.iter().skip(first).map(|r| (start + crate::units::seconds(r.time.max(from)), bits(r))).collect();
        c.coupling_audit = s.mptcp_coupling_audit(id, from, to).map(|a| [a.missed, a.added, a.detector_coupled]);
    }
    Some(mp)
}

