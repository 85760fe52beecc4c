//! The lock of an output folder: `flock` on `.pathpool.lock` inside it, held while a run
//! writes, so that two runs never write into one folder at once.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;

pub const LOCK_FILE: &str = ".pathpool.lock";

/// What a run does when another one holds the folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Refuse with a message (`pathpool run`, `detect`, ...: two such runs into one folder
    /// are a mistake, the second would replace the first).
    Refuse,
    /// Wait for it (`pathpool reproduce`: the folder is a store of results that the second
    /// reproduction then reuses).
    Block,
}

pub enum Locked {
    Held(File),
    Busy,
}

/// Takes the lock of `dir` (created when missing). The lock file is re-checked after the
/// lock is taken: a run that failed removes the folder it created, and a lock taken on that
/// removed file would guard nothing.
pub fn lock(dir: &Path, wait: Wait, on_wait: impl Fn()) -> std::io::Result<Locked> {
    let path = dir.join(LOCK_FILE);
    for _ in 0..100 {
        std::fs::create_dir_all(dir)?;
        let file = std::fs::OpenOptions::new().create(true).truncate(false).read(true).write(true).open(&path)?;
        if !flock(&file, libc::LOCK_EX | libc::LOCK_NB)? {
            if wait == Wait::Refuse {
                return Ok(Locked::Busy);
            }
            on_wait();
            flock(&file, libc::LOCK_EX)?;
        }
        let held = file.metadata()?;
        match std::fs::metadata(&path) {
            Ok(now) if now.dev() == held.dev() && now.ino() == held.ino() => return Ok(Locked::Held(file)),
            _ => continue,
        }
    }
    Err(std::io::Error::other(format!("'{}' kept being removed while its lock was taken", path.display())))
}

/// `flock(2)`; false when a non-blocking request found the lock held.
fn flock(file: &File, op: libc::c_int) -> std::io::Result<bool> {
    loop {
        // SAFETY: flock on a file descriptor this File owns for the duration of the call.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) => return Ok(false),
            _ => return Err(e),
        }
    }
}
