//! pathpool's coupled congestion controls on an unmodified Linux kernel: BPF struct_ops
//! programs for upstream MPTCP (`bpf/pathpool_cc.bpf.c`), the arithmetic they share with a host
//! build (`bpf/pathpool_cc_math.h`, [`model`]), and their loader (`load`, `unload`, `status`;
//! with the `bpf` feature). docs/kernel.md describes the design, what this kernel refuses, and
//! the measurements.

mod absurd_window;
pub mod comparison;
pub mod grouping;
pub mod model;
mod names;
mod receiver;
mod status;

#[cfg(feature = "bpf")]
mod daemon;
#[cfg(feature = "bpf")]
mod guard;
#[cfg(feature = "bpf")]
mod loader;
#[cfg(feature = "bpf")]
mod read_ack;
#[cfg(feature = "bpf")]
mod receiver_bpf;

pub use absurd_window::AbsurdWindow;
pub use names::{controller_for, controllers, linux_cc, sbd_controller, LinuxCc};
pub use receiver::{receiver_off, receiver_on, receiver_status, DelackStats, ReadAckStats};
pub use status::{registered, ConnStatus, SbdRun, Status};

#[cfg(feature = "bpf")]
pub use daemon::{run_sbd, run_sbd_until};
#[cfg(feature = "bpf")]
pub use guard::Guard;
#[cfg(feature = "bpf")]
pub use loader::{buildable, load, set_linux_queues, set_pacing, status, unload, write_groups};
#[cfg(feature = "bpf")]
pub use read_ack::{read_ack_detach, read_ack_off, read_ack_on, read_ack_stats_of, read_ack_status, READ_ACK_CCS};
#[cfg(feature = "bpf")]
pub use receiver_bpf::{delack_detach, delack_off, delack_on, delack_status};

#[cfg(not(feature = "bpf"))]
mod unbuilt;
#[cfg(not(feature = "bpf"))]
pub use unbuilt::{buildable, delack_detach, delack_off, delack_on, delack_status, load, read_ack_detach, read_ack_off, read_ack_on, read_ack_stats_of, read_ack_status, READ_ACK_CCS, run_sbd, run_sbd_until, set_linux_queues, set_pacing, status, unload, write_groups, Guard};
