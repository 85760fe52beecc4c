//! The receiver fix's `delack-max` mode (docs/kernel.md, "The receiver fix"): the sock_ops
//! program `bpf/pathpool_delack.bpf.c`, attached to the root of the cgroup v2 hierarchy,
//! caps the delayed-ACK timer of the MPTCP subflows established in this network namespace at
//! its smallest (2 jiffies) and leaves TCP's receivers as Linux has them. The link and maps
//! are pinned per network namespace under the host's BPF filesystem
//! (`pathpool-receiver-netN`), so the program stays attached after the command exits; `off`
//! removes the pins, which detaches it.

use crate::loader::{bpf_fs, preflight};
use crate::receiver::DelackStats;
use libbpf_rs::{MapCore, MapFlags, MapHandle, ObjectBuilder};
use std::path::PathBuf;

#[cfg(pathpool_bpf_object)]
fn object() -> Result<&'static [u8], String> {
    Ok(include_bytes!(concat!(env!("OUT_DIR"), "/pathpool_delack.bpf.o")))
}

#[cfg(not(pathpool_bpf_object))]
fn object() -> Result<&'static [u8], String> {
    Err(format!("this pathpool was built without its BPF objects: {}; install it and rebuild", env!("PATHPOOL_BPF_MISSING")))
}

const STATS: &str = "pp_rx_stats";
const NETNS: &str = "pp_rx_netns";
const LINK: &str = "link";

fn netns_inode() -> Result<String, String> {
    let ns = std::fs::read_link("/proc/self/ns/net").map_err(|e| format!("cannot read this process's network namespace: {e}"))?;
    Ok(ns.to_string_lossy().chars().filter(char::is_ascii_digit).collect())
}

/// The kernel's cookie of this network namespace (SO_NETNS_COOKIE, never reused, unlike the
/// namespace's inode number), which the program compares with bpf_get_netns_cookie().
pub(crate) fn netns_cookie() -> Result<u64, String> {
    const SO_NETNS_COOKIE: libc::c_int = 71;
    // SAFETY: a plain socket, closed below; getsockopt writes at most `len` bytes.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM, 0);
        if fd < 0 {
            return Err(format!("cannot open a socket to read this network namespace's cookie: {}", std::io::Error::last_os_error()));
        }
        let mut cookie: u64 = 0;
        let mut len = std::mem::size_of::<u64>() as libc::socklen_t;
        let rc = libc::getsockopt(fd, libc::SOL_SOCKET, SO_NETNS_COOKIE, &mut cookie as *mut u64 as *mut libc::c_void, &mut len);
        let err = std::io::Error::last_os_error();
        libc::close(fd);
        if rc != 0 {
            return Err(format!("SO_NETNS_COOKIE: {err} (Linux 5.14 or later has it)"));
        }
        Ok(cookie)
    }
}

fn pin_dir() -> Result<PathBuf, String> {
    Ok(bpf_fs().join(format!("pathpool-receiver-net{}", netns_inode()?)))
}

/// The root of the cgroup v2 hierarchy, from this mount namespace or, under `ip netns exec`
/// (whose fresh /sys has no cgroup mounts), from the nearest ancestor process that sees one
/// (`/proc/PID/root/...`, as `bpf_fs` finds the BPF filesystem).
pub(crate) fn cgroup2_root() -> Result<PathBuf, String> {
    let mut pid = std::process::id();
    for hop in 0..64 {
        let (mounts, prefix) = if hop == 0 { ("/proc/self/mounts".to_string(), String::new()) } else { (format!("/proc/{pid}/mounts"), format!("/proc/{pid}/root")) };
        if let Ok(text) = std::fs::read_to_string(&mounts) {
            if let Some(dir) = text.lines().map(|l| l.split_whitespace().collect::<Vec<_>>()).find(|w| w.len() > 2 && w[2] == "cgroup2").map(|w| w[1].to_string()) {
                let path = PathBuf::from(format!("{prefix}{dir}"));
                if path.is_dir() {
                    return Ok(path);
                }
            }
        }
        match crate::loader::parent_of(pid) {
            Some(parent) if pid > 1 => pid = parent,
            _ => break,
        }
    }
    Err("no cgroup v2 hierarchy is mounted (a sock_ops program attaches to one; mount -t cgroup2 none /sys/fs/cgroup/unified)".into())
}

/// The pinned maps of this namespace's program when they are ours: a pin whose cookie is
/// not this namespace's was left by a namespace since deleted (its inode reused), and acts
/// nowhere.
fn ours() -> Result<Option<(MapHandle, MapHandle)>, String> {
    let dir = pin_dir()?;
    let (Ok(stats), Ok(netns)) = (MapHandle::from_pinned_path(dir.join(STATS)), MapHandle::from_pinned_path(dir.join(NETNS))) else {
        return Ok(None);
    };
    let cookie = netns.lookup(&0u32.to_ne_bytes(), MapFlags::ANY).ok().flatten().map(|v| u64::from_ne_bytes(v[..8].try_into().expect("8 bytes")));
    Ok((cookie == Some(netns_cookie()?) && dir.join(LINK).exists()).then_some((stats, netns)))
}

fn remove_pins(dir: &std::path::Path) -> Result<(), String> {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            std::fs::remove_file(e.path()).map_err(|err| format!("{}: {err}", e.path().display()))?;
        }
    }
    match std::fs::remove_dir(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("{}: {e}", dir.display())),
        _ => Ok(()),
    }
}

/// Attaches the program for this network namespace; returns the cgroup it is attached to and
/// the folder of its pins.
pub fn delack_on() -> Result<(PathBuf, PathBuf), String> {
    preflight()?;
    let bytes = object()?;
    if ours()?.is_some() {
        return Err(format!("the receiver fix (delack-max) is already on in this network namespace ({}); `pathpool kernel receiver off` first", pin_dir()?.display()));
    }
    let dir = pin_dir()?;
    remove_pins(&dir)?; // a deleted namespace's, whose inode this one reuses
    let cgroup = cgroup2_root()?;
    let cookie = netns_cookie()?;
    let obj = ObjectBuilder::default().open_memory(bytes).map_err(|e| format!("opening the sock_ops object: {e}"))?;
    let mut obj = obj.load().map_err(|e| format!("the kernel refused the sock_ops program: {e}"))?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = (|| {
        for mut map in obj.maps_mut() {
            let name = map.name().to_string_lossy().into_owned();
            if name == NETNS {
                map.update(&0u32.to_ne_bytes(), &cookie.to_ne_bytes(), MapFlags::ANY).map_err(|e| format!("writing {NETNS}: {e}"))?;
            }
            if name == NETNS || name == STATS {
                map.pin(dir.join(&name)).map_err(|e| format!("pinning {name}: {e}"))?;
            }
        }
        let cg = std::fs::File::open(&cgroup).map_err(|e| format!("{}: {e}", cgroup.display()))?;
        let prog = obj.progs_mut().next().ok_or("the sock_ops object has no program")?;
        let mut link = prog.attach_cgroup(std::os::fd::AsRawFd::as_raw_fd(&cg)).map_err(|e| format!("attaching to {}: {e}", cgroup.display()))?;
        link.pin(dir.join(LINK)).map_err(|e| format!("pinning the link: {e}"))?;
        Ok::<(), String>(())
    })();
    if let Err(e) = result {
        let _ = remove_pins(&dir);
        return Err(e);
    }
    Ok((cgroup, dir))
}

/// Detaches the program whose pins `delack_on` put in `pins` (from any namespace: the one it
/// served may be gone).
pub fn delack_detach(pins: &std::path::Path) -> Result<(), String> {
    remove_pins(pins)
}

/// Detaches this namespace's program (removes its pins); whether it was on.
pub fn delack_off() -> Result<bool, String> {
    let dir = pin_dir()?;
    if !dir.exists() {
        return Ok(false);
    }
    preflight()?;
    let was = ours()?.is_some();
    remove_pins(&dir)?;
    Ok(was)
}

/// The program's counts when it is on in this namespace.
pub fn delack_status() -> Result<Option<DelackStats>, String> {
    if !pin_dir()?.exists() {
        return Ok(None);
    }
    let Some((stats, _)) = ours()? else { return Ok(None) };
    let at = |i: u32| -> u64 {
        stats.lookup(&i.to_ne_bytes(), MapFlags::ANY).ok().flatten().map_or(0, |v| u64::from_ne_bytes(v[..8].try_into().expect("8 bytes")))
    };
    // The order of pp_rx_stats's enum in pathpool_delack.bpf.c.
    Ok(Some(DelackStats {
        subflows: at(0),
        capped: at(1),
        refused: at(2),
        delack_max_us: at(3),
        quickack_errno: at(4).checked_sub(1),
        segments: at(5),
        others: at(6),
    }))
}
