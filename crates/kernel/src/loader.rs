//! Loads the BPF controllers with libbpf-rs (docs/kernel.md says why libbpf-rs), registers
//! each struct_ops through a link and pins links and maps under /sys/fs/bpf/pathpool (the
//! host's, also from another mount namespace), so that they stay registered after the command
//! exits; unloading removes the pins, which unregisters them.

use crate::status::{registered, ConnStatus, Status, GUARDS};
use crate::{controllers, AbsurdWindow};
use libbpf_rs::{MapCore, MapFlags, MapHandle, ObjectBuilder};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const BPF_FS: &str = "/sys/fs/bpf";
const BPF_FS_MAGIC: i64 = 0xcafe4a11;

#[cfg(pathpool_bpf_object)]
fn object() -> Result<&'static [u8], String> {
    Ok(include_bytes!(concat!(env!("OUT_DIR"), "/pathpool_cc.bpf.o")))
}

#[cfg(not(pathpool_bpf_object))]
fn object() -> Result<&'static [u8], String> {
    Err(format!(
        "this pathpool was built without its BPF object: {}; install it and rebuild",
        env!("PATHPOOL_BPF_MISSING")
    ))
}

/// Whether this build can register the controllers (the reason when not).
pub fn buildable() -> Result<(), String> {
    object().map(|_| ())
}

/// The host's BPF filesystem, seen from here. `ip netns exec` runs each command in a mount
/// namespace of its own, with a fresh /sys that has no BPF filesystem: one mounted there, and
/// the pins in it, vanish when the command ends, and with the pins the registration. So when
/// this mount namespace has none, the nearest ancestor process in another mount namespace
/// that has one lends it (`/proc/PID/root/sys/fs/bpf`); only when none has, `preflight`
/// mounts one here.
pub(crate) fn bpf_fs() -> &'static Path {
    static FS: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    FS.get_or_init(|| {
        if is_bpf_fs(Path::new(BPF_FS)) {
            return PathBuf::from(BPF_FS);
        }
        let own = std::fs::read_link("/proc/self/ns/mnt").ok();
        let mut pid = std::process::id();
        for _ in 0..64 {
            let Some(parent) = parent_of(pid) else { break };
            pid = parent;
            let theirs = std::fs::read_link(format!("/proc/{pid}/ns/mnt")).ok();
            let fs = PathBuf::from(format!("/proc/{pid}/root{BPF_FS}"));
            if theirs.is_some() && theirs != own && is_bpf_fs(&fs) {
                return fs;
            }
            if pid <= 1 {
                break;
            }
        }
        PathBuf::from(BPF_FS)
    })
}

/// A process's parent, from /proc/PID/stat (the field after the command's closing bracket).
pub(crate) fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 1..].split_whitespace().nth(1)?.parse().ok()
}

fn pin_dir() -> PathBuf {
    Path::new(bpf_fs()).join("pathpool")
}

fn is_bpf_fs(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else { return false };
    let rc = unsafe { libc::statfs(path.as_ptr(), &mut st) };
    rc == 0 && st.f_type as i64 == BPF_FS_MAGIC
}

/// Root and BTF, and a BPF filesystem that outlives the command (`bpf_fs`; mounted here when
/// there is none).
pub(crate) fn preflight() -> Result<(), String> {
    if unsafe { libc::geteuid() } != 0 {
        return Err("pathpool kernel needs root (registering congestion controls needs CAP_BPF and CAP_NET_ADMIN)".into());
    }
    if !Path::new("/sys/kernel/btf/vmlinux").exists() {
        return Err("this kernel has no BTF (/sys/kernel/btf/vmlinux): BPF struct_ops congestion controls cannot load".into());
    }
    if is_bpf_fs(bpf_fs()) {
        return Ok(());
    }
    let (src, fs, path) = (std::ffi::CString::new("bpf").unwrap(), std::ffi::CString::new("bpf").unwrap(), std::ffi::CString::new(BPF_FS).unwrap());
    let rc = unsafe { libc::mount(src.as_ptr(), path.as_ptr(), fs.as_ptr(), 0, std::ptr::null()) };
    if rc != 0 {
        return Err(format!("cannot mount the BPF filesystem on {BPF_FS}: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}

fn pin(name: &str) -> PathBuf {
    pin_dir().join(name)
}

/// Registers the four controllers; returns the registered names. Fails when some are
/// registered already (by this loader or another).
pub fn load() -> Result<Vec<String>, String> {
    preflight()?;
    let bytes = object()?;
    let already = registered();
    if !already.is_empty() {
        return Err(format!("already registered: {} (`pathpool kernel unload` first)", already.join(" ")));
    }
    remove_pins(); // pins a killed loader left behind
    let open = ObjectBuilder::default()
        .open_memory(bytes)
        .map_err(|e| format!("opening the BPF object: {e}"))?;
    let mut obj = open
        .load()
        .map_err(|e| format!("the kernel refused the BPF controllers: {e}"))?;
    let dir = pin_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = (|| {
        for mut map in obj.maps_mut() {
            let name = map.name().to_string_lossy().into_owned();
            if controllers().contains(&name.as_str()) {
                let mut link = map
                    .attach_struct_ops()
                    .map_err(|e| format!("registering {name}: {e}"))?;
                link.pin(pin(&name)).map_err(|e| format!("pinning {name}: {e}"))?;
            } else if name.starts_with("pp_") {
                map.pin(pin(&name)).map_err(|e| format!("pinning map {name}: {e}"))?;
            }
        }
        Ok::<(), String>(())
    })();
    if let Err(e) = result {
        remove_pins();
        return Err(e);
    }
    Ok(registered())
}

fn remove_pins() {
    let dir = pin_dir();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let _ = std::fs::remove_dir(&dir);
}

/// Unregisters the controllers (removes the pins); returns the names that were registered.
/// The kernel frees a link asynchronously: this waits up to 5 s for the names to go.
pub fn unload() -> Result<Vec<String>, String> {
    preflight()?;
    // New sockets would keep taking an unregistered default (the namespace holds it).
    let default = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_congestion_control").unwrap_or_default();
    if controllers().contains(&default.trim()) {
        return Err(format!(
            "net.ipv4.tcp_congestion_control is {} in this network namespace: set it back (e.g. sysctl -w net.ipv4.tcp_congestion_control=cubic) before unloading",
            default.trim()
        ));
    }
    let before = registered();
    remove_pins();
    let start = Instant::now();
    while !registered().is_empty() {
        if start.elapsed() > Duration::from_secs(5) {
            return Err(format!(
                "still registered after removing the pins: {} (another loader holds them)",
                registered().join(" ")
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(before)
}

pub(crate) fn open_map(name: &str) -> Result<MapHandle, String> {
    MapHandle::from_pinned_path(pin(name))
        .map_err(|e| format!("map {name} not pinned under {} (`pathpool kernel load`?): {e}", pin_dir().display()))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_ne_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// Registered controllers, and the connections using them with their subflows and groups.
pub fn status() -> Result<Status, String> {
    preflight()?;
    let registered = registered();
    if registered.is_empty() {
        return Ok(Status::default());
    }
    let conns = open_map("pp_conns")?;
    let groups = open_map("pp_groups")?;
    let mut all_groups: Vec<(u32, u32, u32)> = Vec::new();
    for k in groups.keys() {
        if let Ok(Some(v)) = groups.lookup(&k, MapFlags::ANY) {
            all_groups.push((u32_at(&k, 0), u32_at(&k, 4), u32_at(&v, 0)));
        }
    }
    let mut connections = Vec::new();
    for k in conns.keys() {
        let Ok(Some(v)) = conns.lookup(&k, MapFlags::ANY) else { continue };
        let token = u32_at(&k, 0);
        let algo = u32_at(&v, 4) as usize;
        let mut g: Vec<(u32, u32)> =
            all_groups.iter().filter(|x| x.0 == token).map(|x| (x.1, x.2)).collect();
        g.sort_unstable();
        connections.push(ConnStatus {
            token,
            controller: controllers().get(algo).copied().unwrap_or("?"),
            subflows: u32_at(&v, 0),
            groups: g,
        });
    }
    connections.sort_by_key(|c| c.token);
    let opts = opts();
    Ok(Status {
        registered,
        connections,
        pacing: opts & PP_OPT_PACING != 0,
        linux_queues: opts & PP_OPT_LINUX_QUEUES != 0,
        guards: guards(),
        absurd_window: absurd_window(),
    })
}

/// Turns Linux's internal pacing on or off for subflows that start from now on (the pinned
/// `pp_opts`, which each controller reads in its `init`; docs/kernel.md, "Pacing").
pub fn set_pacing(on: bool) -> Result<(), String> {
    set_opt(PP_OPT_PACING, on)
}

/// Leaves the subflows' send queues as Linux sizes them (`on`), or bounds each by its window
/// (the default; docs/kernel.md, "The subflows' send queues"). Applies from each subflow's
/// next window change.
pub fn set_linux_queues(on: bool) -> Result<(), String> {
    set_opt(PP_OPT_LINUX_QUEUES, on)
}

fn set_opt(bit: u32, on: bool) -> Result<(), String> {
    preflight()?;
    let map = open_map("pp_opts")?;
    let v = if on { opts() | bit } else { opts() & !bit };
    map.update(&0u32.to_ne_bytes(), &v.to_ne_bytes(), MapFlags::ANY)
        .map_err(|e| format!("writing pp_opts: {e}"))
}

/// Bits of `pp_opts` (PP_OPT_* in the BPF source).
const PP_OPT_PACING: u32 = 1;
const PP_OPT_LINUX_QUEUES: u32 = 2;

/// pp_stats: the controllers' guards against impossible inputs (pathpool_cc.bpf.c, PP_ST_*).
fn guards() -> [u64; GUARDS] {
    let mut out = [0u64; GUARDS];
    if let Ok(m) = open_map("pp_stats") {
        for (i, v) in out.iter_mut().enumerate() {
            if let Ok(Some(b)) = m.lookup(&(i as u32).to_ne_bytes(), MapFlags::ANY) {
                *v = u64::from_ne_bytes(b[..8].try_into().expect("8 bytes"));
            }
        }
    }
    out
}

/// pp_absurd: the first window above 65535 segments a hook met.
fn absurd_window() -> Option<AbsurdWindow> {
    let m = open_map("pp_absurd").ok()?;
    AbsurdWindow::from_map_value(&m.lookup(&0u32.to_ne_bytes(), MapFlags::ANY).ok()??)
}

fn opts() -> u32 {
    open_map("pp_opts")
        .ok()
        .and_then(|m| m.lookup(&0u32.to_ne_bytes(), MapFlags::ANY).ok().flatten())
        .map_or(0, |v| u32_at(&v, 0))
}

/// Writes each (subflow id, group) of connection `token` into the map pp_mptcp_sbd reads.
pub fn write_groups(token: u32, groups: &[(u32, u32)]) -> Result<(), String> {
    write_pairs(&open_map("pp_groups")?, token, groups)
}

/// Each (subflow, group) of connection `token` into the groups map `map`.
pub(crate) fn write_pairs(map: &MapHandle, token: u32, pairs: &[(u32, u32)]) -> Result<(), String> {
    for &(sf, g) in pairs {
        let mut key = token.to_ne_bytes().to_vec();
        key.extend_from_slice(&sf.to_ne_bytes());
        map.update(&key, &g.to_ne_bytes(), MapFlags::ANY)
            .map_err(|e| format!("writing the group of subflow {sf}: {e}"))?;
    }
    Ok(())
}
