//! pathpool-netlab: a scenario's network built on real Linux, for every backend that runs
//! real endpoints (the Linux testbed with its TCP/MPTCP/UDP traffic, multipath QUIC).
//!
//! Every node becomes a network namespace (`netns`); every link a pair of TUN devices
//! (`tun`) joined by the delay element (`delay`), with a tbf queue on the sending side of
//! each direction (`shape`); every flow gets addresses of its own and policy routes along
//! exactly the links its route names (`plan`). `Network` brings that up and down, `queues`
//! reads the queues' counters. It depends on no backend; what traffic runs over it is the
//! backend's business.
//!
//! Needs root (namespaces, TUN, tc). Namespaces carry a per-run prefix and are removed on
//! success, on error and on Ctrl-C (`netns`).

pub mod capture;
pub mod delay;
pub mod link_outcome;
pub mod netns;
mod network;
pub mod plan;
mod queues;
pub mod shape;
pub mod tun;

pub use network::Network;
pub use queues::{queues, QueueSample};

/// What building or running the network failed at, as one message for the user.
#[derive(Debug)]
pub struct NetlabError(pub String);

impl std::fmt::Display for NetlabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetlabError {}

pub type Result<T> = std::result::Result<T, NetlabError>;

pub fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(NetlabError(message.into()))
}

/// True when this process may build namespaces (effective uid 0).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Runs `f` on a thread that has entered namespace `ns` (sockets and devices it opens belong
/// there; threads it spawns start there too).
pub fn in_namespace<T: Send + 'static>(ns: &str, f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    let ns = ns.to_string();
    std::thread::spawn(move || {
        netns::enter(&ns)?;
        f()
    })
    .join()
    .unwrap_or_else(|_| fail("a namespace helper thread panicked"))
}
