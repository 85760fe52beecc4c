//! Each finished job's result in its own file, `runs/<paper>/<job id>.json`, written
//! atomically (temporary file, then rename) so an interrupted run never leaves a half result.

use serde_json::{json, Value};
use std::io;
use std::path::{Path, PathBuf};

pub fn path(root: &Path, paper: &str, id: &str) -> PathBuf {
    root.join("runs").join(paper).join(format!("{id}.json"))
}

/// The stored result, if there is one computed from the same `spec`.
pub fn load(file: &Path, spec: &str) -> Option<Value> {
    let text = std::fs::read_to_string(file).ok()?;
    let mut v: Value = serde_json::from_str(&text).ok()?;
    if v.get("spec")?.as_str()? != spec {
        return None;
    }
    Some(v.get_mut("result")?.take())
}

pub fn save(file: &Path, spec: &str, result: &Value) -> io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = file.with_extension("json.partial");
    let text = serde_json::to_string_pretty(&json!({ "spec": spec, "result": result })).map_err(io::Error::other)?;
    std::fs::write(&tmp, text + "\n")?;
    std::fs::rename(&tmp, file)
}
