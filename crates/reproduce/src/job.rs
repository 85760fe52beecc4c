//! One experiment run: an id, a description that identifies its inputs, and the work.

use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The results of a paper's jobs, by job id.
pub type Results = BTreeMap<String, Value>;

type Work = dyn Fn() -> Result<Value, String> + Send + Sync;

/// A simulation to run. Jobs are independent and deterministic: the result depends only on
/// what `spec` describes, so a stored result with the same spec is reused on resume.
#[derive(Clone)]
pub struct Job {
    /// Unique within its paper; `/` separated words (`fig2/nsb-2/olia/seed3`), used as a
    /// file path under the output folder.
    pub id: String,
    /// Everything the result depends on (scenario text digest, overrides, seed, ...).
    pub spec: String,
    work: Arc<Work>,
}

impl Job {
    /// The spec is completed with the running binary's identity: a result is reused only by
    /// the very build that computed it, never after the simulator changed.
    pub fn new(id: impl Into<String>, spec: impl Into<String>, work: impl Fn() -> Result<Value, String> + Send + Sync + 'static) -> Job {
        Job { id: id.into(), spec: format!("{} build {}", spec.into(), build_id()), work: Arc::new(work) }
    }

    pub fn run(&self) -> Result<Value, String> {
        (self.work)()
    }
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").field("id", &self.id).field("spec", &self.spec).finish()
    }
}

/// FNV-1a: a stable digest of the inputs for `Job::spec` (not a security hash: it only
/// tells whether a stored result was computed from the same inputs).
pub fn digest(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

static BUILD_ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Makes `build_id` the digest of `file` where the running executable does not hold the
/// simulator (the Python extension: there the executable is the interpreter). Has no effect
/// once `build_id` was read.
pub fn use_build_of(file: &std::path::Path) -> std::io::Result<()> {
    let id = digest(&std::fs::read(file)?);
    let _ = BUILD_ID.set(id);
    Ok(())
}

/// A digest of the running executable (read once), or the package version when it cannot be
/// read.
pub fn build_id() -> &'static str {
    BUILD_ID.get_or_init(|| {
        std::env::current_exe()
            .and_then(std::fs::read)
            .map(|bytes| digest(&bytes))
            .unwrap_or_else(|_| env!("CARGO_PKG_VERSION").to_string())
    })
}
