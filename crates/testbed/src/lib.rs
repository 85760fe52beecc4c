//! pathpool-testbed: a scenario file run on real Linux instead of the simulator.
//!
//! Every node of the scenario becomes a network namespace; every link a pair of TUN devices
//! joined by the delay element (`delay`), with a tbf queue on the sending side of each
//! direction (`shape`); every flow a real socket (TCP, MPTCP or UDP) driven by a thread that
//! lives in its node's namespace (`traffic`). Probes read TCP_INFO, MPTCP_TCPINFO and the
//! queues' counters every `probe_interval` (`probe`), and the result is the same `Outcome`
//! the simulator produces, so the outputs and their keys are the same as `pathpool run`'s:
//! the testbed is the `linux` backend of pathpool-experiment (`Linux`). It depends on no
//! other backend.
//!
//! Needs root (namespaces, TUN, tc). A key the testbed cannot honour is rejected before
//! anything is built (`support`). Namespaces carry a per-run prefix and are removed on
//! success, on error and on Ctrl-C (`netns`); `clean` removes what a crashed run left.

mod backend;
pub mod bench;
pub mod host_capture;
mod outcome;
pub mod plan;
pub mod probe;
pub mod run;
pub mod skip;
pub mod support;
pub mod tcp_info;
pub mod traffic;

pub use backend::Linux;
pub use run::{run, RunOptions};

// The network itself (namespaces, TUN links, the delay element, queues, routes) is
// pathpool-netlab's, shared with the QUIC backend; its modules keep their paths here.
pub use pathpool_netlab::{capture, delay, netns, shape, tun};
/// Everything the testbed refuses or fails at, as one message for the user.
pub use pathpool_netlab::NetlabError as TestbedError;
pub(crate) use pathpool_netlab::fail;
pub use pathpool_netlab::{is_root, Result};
