//! The receiver fix's `read-ack` mode (docs/kernel.md, "The receiver fix"):
//! `bpf/pathpool_read_ack.bpf.c`'s congestion controls `pp_ra_cubic`, `pp_ra_reno` and `pp_ra_bbr`, which
//! send an MPTCP subflow's read-time ACK as Linux's TCP receiver does, and its sock_ops
//! program, which puts each MPTCP subflow of an enabled network namespace on them.
//!
//! The congestion controls are registered for the whole kernel and the sock_ops program
//! attached to the root of the cgroup v2 hierarchy once, whichever namespace turns the mode
//! on first; each namespace that turns it on adds its cookie to the program's map, and the
//! last one to turn it off removes the pins under the BPF filesystem's `pathpool-read-ack`,
//! which unregisters and detaches both.

use crate::loader::{bpf_fs, preflight};
use crate::receiver::ReadAckStats;
use crate::receiver_bpf::{cgroup2_root, netns_cookie};
use libbpf_rs::{MapCore, MapFlags, MapHandle, ObjectBuilder};
use std::path::PathBuf;

#[cfg(pathpool_bpf_object)]
fn object() -> Result<&'static [u8], String> {
    Ok(include_bytes!(concat!(env!("OUT_DIR"), "/pathpool_read_ack.bpf.o")))
}

#[cfg(not(pathpool_bpf_object))]
fn object() -> Result<&'static [u8], String> {
    Err(format!("this pathpool was built without its BPF objects: {}; install it and rebuild", env!("PATHPOOL_BPF_MISSING")))
}

/// The congestion controls' names (`.name` in the BPF file): the twins of cubic, reno and bbr.
pub const READ_ACK_CCS: [&str; 3] = ["pp_ra_cubic", "pp_ra_reno", "pp_ra_bbr"];
const NETNS: &str = "pp_ra_netns";
const SOCKOPS_LINK: &str = "select";
/// The fields of `struct pp_ra_stats`, in order.
const FIELDS: usize = 8;

fn pin_dir() -> PathBuf {
    bpf_fs().join("pathpool-read-ack")
}

fn netns_map() -> Option<MapHandle> {
    let dir = pin_dir();
    if READ_ACK_CCS.iter().any(|cc| !dir.join(cc).exists()) || !dir.join(SOCKOPS_LINK).exists() {
        return None;
    }
    MapHandle::from_pinned_path(dir.join(NETNS)).ok()
}

fn remove_pins() -> Result<(), String> {
    let dir = pin_dir();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            std::fs::remove_file(e.path()).map_err(|err| format!("{}: {err}", e.path().display()))?;
        }
    }
    match std::fs::remove_dir(&dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("{}: {e}", dir.display())),
        _ => Ok(()),
    }
}

fn registered_elsewhere() -> bool {
    std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .is_ok_and(|s| s.split_whitespace().any(|n| READ_ACK_CCS.contains(&n)))
}

/// Registers and attaches the programs (when no namespace has them yet) and enables them for
/// this network namespace; returns its cookie, which `read_ack_detach` takes.
pub fn read_ack_on() -> Result<u64, String> {
    preflight()?;
    object()?;
    let cookie = netns_cookie()?;
    let map = match netns_map() {
        Some(map) => map,
        None => {
            remove_pins()?; // a killed run's half
            if registered_elsewhere() {
                return Err(format!("a congestion control named {} is registered, but not by pathpool's pins under {} (another loader holds it)", READ_ACK_CCS.join(" or "), pin_dir().display()));
            }
            attach()?;
            netns_map().ok_or_else(|| format!("{NETNS} not pinned under {} after attaching", pin_dir().display()))?
        }
    };
    let key = cookie.to_ne_bytes();
    if map.lookup(&key, MapFlags::ANY).ok().flatten().is_some() {
        return Err("the receiver fix (read-ack) is already on in this network namespace; `pathpool kernel receiver off` first".into());
    }
    map.update(&key, &[0u8; FIELDS * 8], MapFlags::NO_EXIST).map_err(|e| format!("enabling this namespace in {NETNS}: {e}"))?;
    Ok(cookie)
}

fn attach() -> Result<(), String> {
    let cgroup = cgroup2_root()?;
    let obj = ObjectBuilder::default().open_memory(object()?).map_err(|e| format!("opening the read-ack object: {e}"))?;
    let mut obj = obj.load().map_err(|e| format!("the kernel refused the read-ack programs: {e}"))?;
    let dir = pin_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = (|| {
        for mut map in obj.maps_mut() {
            let name = map.name().to_string_lossy().into_owned();
            if READ_ACK_CCS.contains(&name.as_str()) {
                let mut link = map.attach_struct_ops().map_err(|e| format!("registering {name}: {e}"))?;
                link.pin(dir.join(&name)).map_err(|e| format!("pinning {name}: {e}"))?;
            } else if name == NETNS {
                map.pin(dir.join(NETNS)).map_err(|e| format!("pinning {NETNS}: {e}"))?;
            }
        }
        let cg = std::fs::File::open(&cgroup).map_err(|e| format!("{}: {e}", cgroup.display()))?;
        let prog = obj
            .progs_mut()
            .find(|p| p.name().to_string_lossy() == "pathpool_read_ack_select")
            .ok_or("the read-ack object has no sock_ops program")?;
        let mut link = prog.attach_cgroup(std::os::fd::AsRawFd::as_raw_fd(&cg)).map_err(|e| format!("attaching to {}: {e}", cgroup.display()))?;
        link.pin(dir.join(SOCKOPS_LINK)).map_err(|e| format!("pinning the sock_ops link: {e}"))?;
        Ok::<(), String>(())
    })();
    if let Err(e) = result {
        let _ = remove_pins();
        return Err(e);
    }
    Ok(())
}

/// Disables the mode for the namespace of `cookie` (it may be gone), and unregisters and
/// detaches the programs when no namespace is left.
pub fn read_ack_detach(cookie: u64) -> Result<bool, String> {
    let Some(map) = netns_map() else {
        if pin_dir().exists() {
            remove_pins()?;
        }
        return Ok(false);
    };
    let key = cookie.to_ne_bytes();
    let was = map.lookup(&key, MapFlags::ANY).ok().flatten().is_some();
    if was {
        map.delete(&key).map_err(|e| format!("disabling the namespace in {NETNS}: {e}"))?;
    }
    if map.keys().next().is_none() {
        drop(map);
        remove_pins()?;
    }
    Ok(was)
}

/// Turns the mode off in this network namespace; whether it was on.
pub fn read_ack_off() -> Result<bool, String> {
    if !pin_dir().exists() {
        return Ok(false);
    }
    preflight()?;
    read_ack_detach(netns_cookie()?)
}

/// What the programs counted in this namespace, when the mode is on here.
pub fn read_ack_status() -> Result<Option<ReadAckStats>, String> {
    read_ack_stats_of(netns_cookie()?)
}

/// What the programs counted in the namespace of `cookie` (it may be gone), while enabled.
pub fn read_ack_stats_of(cookie: u64) -> Result<Option<ReadAckStats>, String> {
    let Some(map) = netns_map() else { return Ok(None) };
    let Some(v) = map.lookup(&cookie.to_ne_bytes(), MapFlags::ANY).ok().flatten() else { return Ok(None) };
    let at = |i: usize| u64::from_ne_bytes(v[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
    Ok(Some(ReadAckStats { subflows: at(0), no_ecn: at(1), other_cc: at(2), refused: at(3), others: at(4), segments: at(5), acks: at(6), moved_off: at(7) }))
}
