//! The scenario laid out on Linux (pathpool-netlab's plan) with the testbed's settings of
//! each flow: the TCP attributes of its routes, SACK per sender, MPTCP's endpoints.

use crate::support::Checked;
use pathpool_experiment::Loaded;

pub use pathpool_netlab::plan::{describe_buffer, FlowNeeds, LinkPlan, PORT};

pub type Plan = pathpool_netlab::plan::Plan<Checked>;
pub type FlowPlan = pathpool_netlab::plan::FlowPlan<Checked>;

pub fn build(l: &Loaded, checked: Vec<Checked>) -> Plan {
    pathpool_netlab::plan::build(l, checked)
}
