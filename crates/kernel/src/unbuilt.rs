//! Without the `bpf` feature: every kernel operation answers with one line saying how to get it.

use crate::{SbdRun, Status};

const WHY: &str = "this pathpool was built without the BPF controllers: install clang, bpftool, \
libbpf-dev, libelf-dev, zlib1g-dev, pkg-config (`make deps` as root does) and rebuild with \
`make build-kernel`";

/// Whether this build can register the controllers (the reason when not).
pub fn buildable() -> Result<(), String> {
    Err(WHY.into())
}

pub fn load() -> Result<Vec<String>, String> {
    Err(WHY.into())
}

pub fn set_pacing(_on: bool) -> Result<(), String> {
    Err(WHY.into())
}

pub fn set_linux_queues(_on: bool) -> Result<(), String> {
    Err(WHY.into())
}

pub fn unload() -> Result<Vec<String>, String> {
    Err(WHY.into())
}

pub fn status() -> Result<Status, String> {
    Err(WHY.into())
}

pub fn write_groups(_token: u32, _groups: &[(u32, u32)]) -> Result<(), String> {
    Err(WHY.into())
}

pub fn delack_on() -> Result<(std::path::PathBuf, std::path::PathBuf), String> {
    Err(WHY.into())
}

pub fn delack_detach(_pins: &std::path::Path) -> Result<(), String> {
    Err(WHY.into())
}

/// Without the program it cannot be on: nothing to take off.
pub fn delack_off() -> Result<bool, String> {
    Ok(false)
}

pub fn delack_status() -> Result<Option<crate::DelackStats>, String> {
    Ok(None)
}

pub const READ_ACK_CCS: [&str; 3] = ["pp_ra_cubic", "pp_ra_reno", "pp_ra_bbr"];

pub fn read_ack_on() -> Result<u64, String> {
    Err(WHY.into())
}

pub fn read_ack_detach(_cookie: u64) -> Result<bool, String> {
    Err(WHY.into())
}

pub fn read_ack_off() -> Result<bool, String> {
    Ok(false)
}

pub fn read_ack_status() -> Result<Option<crate::ReadAckStats>, String> {
    Ok(None)
}

pub fn read_ack_stats_of(_cookie: u64) -> Result<Option<crate::ReadAckStats>, String> {
    Ok(None)
}

/// Loads the controllers for a scope when they are not loaded yet.
pub struct Guard;

impl Guard {
    pub fn acquire() -> Result<Guard, String> {
        Err(WHY.into())
    }
}

pub fn run_sbd(
    _log: &mut dyn std::io::Write,
    _max: Option<std::time::Duration>,
    _samples: Option<Box<dyn std::io::Write>>,
) -> Result<SbdRun, String> {
    Err(WHY.into())
}

pub fn run_sbd_until(
    _log: &mut dyn std::io::Write,
    _stop: &std::sync::atomic::AtomicBool,
    _samples: Option<Box<dyn std::io::Write>>,
) -> Result<SbdRun, String> {
    Err(WHY.into())
}
