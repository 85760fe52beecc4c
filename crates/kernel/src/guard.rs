//! The controllers registered for a scope, shared between runs. Struct_ops registration is
//! global to the kernel, so two testbed runs at once used to break each other: the first to
//! finish unloaded the controllers the second's connections still ran on ("Connection reset
//! by peer"). Every guard holds a shared lock for its life; the last one to leave unloads the
//! controllers, and only when a guard loaded them (a user's own `pathpool kernel load` is left
//! alone), so the kernel is left as the first run found it.

use crate::loader::{load, unload};
use crate::status::registered;
use crate::names::controllers;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::Path;

const DIR: &str = "/run/pathpool";
/// Held exclusively while a guard checks, loads or unloads: no two guards race on that.
const MUTEX: &str = "/run/pathpool/controllers.mutex";
/// Held shared by every live guard: the one that can take it exclusively is the last.
const USERS: &str = "/run/pathpool/controllers.users";
/// Present while the controllers were loaded by a guard rather than by the user.
const LOADED_BY_RUN: &str = "/run/pathpool/controllers.loaded-by-run";

pub struct Guard {
    users: File,
}

fn open_lock(path: &str) -> Result<File, String> {
    std::fs::create_dir_all(DIR).map_err(|e| format!("{DIR}: {e}"))?;
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| format!("{path}: {e}"))
}

/// flock(2); `Ok(false)` when `nonblocking` and another holder is in the way.
fn flock(f: &File, op: libc::c_int, path: &str) -> Result<bool, String> {
    loop {
        if unsafe { libc::flock(f.as_raw_fd(), op) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) if op & libc::LOCK_NB != 0 => return Ok(false),
            _ => return Err(format!("locking {path}: {e}")),
        }
    }
}

/// The critical section of a check-and-load or a check-and-unload; released on drop.
struct Mutex {
    _held: File,
}

impl Mutex {
    fn take() -> Result<Mutex, String> {
        let f = open_lock(MUTEX)?;
        flock(&f, libc::LOCK_EX, MUTEX)?;
        Ok(Mutex { _held: f })
    }
}

impl Guard {
    /// Loads the controllers when they are not registered; joins them when they are.
    pub fn acquire() -> Result<Guard, String> {
        let _section = Mutex::take()?;
        let users = open_lock(USERS)?;
        // Never blocks long: USERS is held exclusively only inside the mutex.
        flock(&users, libc::LOCK_SH, USERS)?;
        let have = registered();
        if !controllers().iter().all(|c| have.iter().any(|h| h == c)) {
            load()?;
            std::fs::write(LOADED_BY_RUN, b"").map_err(|e| format!("{LOADED_BY_RUN}: {e}"))?;
        }
        Ok(Guard { users })
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let section = match Mutex::take() {
            Ok(s) => s,
            Err(e) => return eprintln!("pathpool: leaving the BPF controllers registered: {e}"),
        };
        let _ = flock(&self.users, libc::LOCK_UN, USERS);
        let last = flock(&self.users, libc::LOCK_EX | libc::LOCK_NB, USERS).unwrap_or(false);
        if last && Path::new(LOADED_BY_RUN).exists() {
            match unload() {
                Ok(_) => {
                    let _ = std::fs::remove_file(LOADED_BY_RUN);
                }
                Err(e) => eprintln!("pathpool: unloading the BPF controllers: {e}"),
            }
        }
        let _ = flock(&self.users, libc::LOCK_UN, USERS);
        drop(section);
    }
}
