//! Network namespaces of one run: created with a per-run prefix, entered per thread with
//! setns(2), and always removed (on drop, so on success and on error; Ctrl-C and SIGTERM set
//! a flag the run loop checks, then it unwinds through the same drop).

use crate::{fail, Result};
use std::fs::File;
use std::io::Write as _;
use std::os::fd::AsRawFd;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

/// Every namespace pathpool creates starts with this, then the creating process's PID.
pub const PREFIX: &str = "pathpool-";
const NETNS_DIR: &str = "/run/netns";

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Ctrl-C and SIGTERM stop the run at its next check instead of killing the process, so the
/// namespaces are removed.
pub fn catch_interrupts() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(sig, on_signal as *const () as libc::sighandler_t);
        }
    }
}

pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Runs a command; a failure names the command and carries its stderr.
pub fn sh(program: &str, args: &[&str]) -> Result<String> {
    let out = Command::new(program).args(args).stdin(Stdio::null()).output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return fail(format!("cannot run {program}: {e} (a real network is built with iproute2's ip and tc)")),
    };
    if !out.status.success() {
        return fail(format!("`{program} {}` failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs `program -n NS -batch -` with one command per line, so a namespace's routes, rules
/// or qdiscs cost one process, not one per line.
pub fn batch(program: &str, ns: &str, lines: &[String]) -> Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    let child = Command::new(program).args(["-n", ns, "-batch", "-"]).stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot run {program}: {e} (a real network is built with iproute2's ip and tc)")),
    };
    let text = lines.join("\n") + "\n";
    child.stdin.take().expect("stdin was piped").write_all(text.as_bytes()).map_err(|e| crate::NetlabError(format!("{program} -batch: {e}")))?;
    let out = child.wait_with_output().map_err(|e| crate::NetlabError(format!("{program} -batch: {e}")))?;
    if !out.status.success() {
        return fail(format!("`{program} -n {ns} -batch` failed: {}\ncommands:\n{text}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(())
}

/// The namespaces of one run, removed when dropped.
pub struct Namespaces {
    prefix: String,
    names: Vec<String>,
}

impl Namespaces {
    pub fn new() -> Self {
        Namespaces { prefix: format!("{PREFIX}{}-", std::process::id()), names: Vec::new() }
    }

    /// The namespace name of node number `index` (node names may be longer or use
    /// characters a file name should not, so they are numbered).
    pub fn name(&self, index: usize) -> String {
        format!("{}n{index}", self.prefix)
    }

    pub fn create(&mut self, index: usize) -> Result<String> {
        let name = self.name(index);
        sh("ip", &["netns", "add", &name])?;
        self.names.push(name.clone());
        Ok(name)
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }
}

impl Default for Namespaces {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Namespaces {
    fn drop(&mut self) {
        for name in self.names.drain(..).rev() {
            // Deleting the namespace removes its TUN devices, qdiscs, rules and sysctls.
            let _ = Command::new("ip").args(["netns", "delete", &name]).stderr(Stdio::null()).status();
        }
    }
}

/// Moves the calling thread into namespace `name` (sockets and TUN devices it opens then
/// belong there; other threads are unaffected).
pub fn enter(name: &str) -> Result<()> {
    let path = format!("{NETNS_DIR}/{name}");
    let file = File::open(&path).map_err(|e| crate::NetlabError(format!("cannot open {path}: {e}")))?;
    // SAFETY: the fd is valid for the duration of the call; setns changes only this thread.
    let rc = unsafe { libc::setns(file.as_raw_fd(), libc::CLONE_NEWNET) };
    if rc != 0 {
        return fail(format!("setns into {name}: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}

/// Namespaces left by runs whose process is gone (all of pathpool's with `all`).
pub fn leftovers(all: bool) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(NETNS_DIR) else { return Vec::new() };
    let mut found: Vec<String> = dir
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(PREFIX))
        .filter(|n| all || !owner_alive(n))
        .collect();
    found.sort();
    found
}

fn owner_alive(name: &str) -> bool {
    let pid = name[PREFIX.len()..].split('-').next().and_then(|p| p.parse::<u32>().ok());
    pid.is_some_and(|p| std::path::Path::new(&format!("/proc/{p}")).exists())
}

/// Removes the given namespaces; returns how many were removed.
pub fn remove(names: &[String]) -> Result<usize> {
    for n in names {
        sh("ip", &["netns", "delete", n])?;
    }
    Ok(names.len())
}
