//! The scenario's own enums (pathpool-experiment's schema, which knows no simulator) as the
//! simulator's types; one arm per variant, so a new variant on either side fails to compile.

use pathpool_experiment::schema;
use pathpool_sim as sim;

pub fn recovery(r: schema::Recovery) -> sim::Recovery {
    match r {
        schema::Recovery::NewReno => sim::Recovery::NewReno,
        schema::Recovery::Sack => sim::Recovery::Sack,
    }
}

pub fn traffic(t: schema::TcpTraffic) -> sim::TcpTraffic {
    match t {
        schema::TcpTraffic::Bulk => sim::TcpTraffic::Bulk,
        schema::TcpTraffic::RateLimited { bps } => sim::TcpTraffic::RateLimited { bps },
        schema::TcpTraffic::Bytes(b) => sim::TcpTraffic::Bytes(b),
    }
}

pub fn scheduler(s: schema::Scheduler) -> sim::Scheduler {
    match s {
        schema::Scheduler::LowestRtt => sim::Scheduler::LowestRtt,
        schema::Scheduler::RoundRobin => sim::Scheduler::RoundRobin,
    }
}

pub fn feedback(f: schema::SbdFeedback) -> sim::SbdFeedback {
    match f {
        schema::SbdFeedback::Decisions => sim::SbdFeedback::Decisions,
        schema::SbdFeedback::FixedOlia => sim::SbdFeedback::FixedOlia,
        schema::SbdFeedback::FixedReno => sim::SbdFeedback::FixedReno,
        // Both in picoseconds.
        schema::SbdFeedback::Switch { hold } => sim::SbdFeedback::Switch { hold },
    }
}

pub fn report(r: schema::ReceiverReport) -> sim::ReceiverReport {
    match r {
        schema::ReceiverReport::Honest => sim::ReceiverReport::Honest,
        schema::ReceiverReport::Separate => sim::ReceiverReport::Separate,
        schema::ReceiverReport::Random => sim::ReceiverReport::Random,
        schema::ReceiverReport::Flapping => sim::ReceiverReport::Flapping,
    }
}

/// A flow's delay log in the experiment's form (the same picosecond times).
pub fn delay_log(log: sim::tcp::DelayLog) -> pathpool_experiment::delay_trace::DelayLog {
    use pathpool_experiment::delay_trace::{DelayLog, OwdSample, RttSample};
    DelayLog {
        owd: log.owd.iter().map(|s| OwdSample { sent: s.sent, received: s.received, retransmission: s.retransmission }).collect(),
        rtt: log.rtt.iter().map(|s| RttSample { at: s.at, rtt: s.rtt }).collect(),
    }
}
