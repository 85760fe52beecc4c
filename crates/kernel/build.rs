//! Builds (1) the host copy of the controllers' arithmetic for the differential test, always;
//! (2) with the `bpf` feature, the BPF object: `vmlinux.h` from this machine's kernel BTF
//! (bpftool), then `clang -target bpf`. When a tool is missing the build goes on with a
//! warning and the loader answers with one line saying what to install (docs/kernel.md).

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=bpf/pathpool_cc_math.h");
    println!("cargo:rerun-if-changed=bpf/pathpool_cc.bpf.c");
    println!("cargo:rerun-if-changed=bpf/pathpool_delack.bpf.c");
    println!("cargo:rerun-if-changed=bpf/pathpool_read_ack.bpf.c");
    println!("cargo:rerun-if-changed=bpf/test_absurd_window.bpf.c");
    println!("cargo:rerun-if-changed=host/pp_model.c");
    println!("cargo::rustc-check-cfg=cfg(pathpool_bpf_object)");

    cc::Build::new()
        .file("host/pp_model.c")
        .flag_if_supported("-std=c99")
        .warnings(true)
        .compile("pp_model");

    if env::var_os("CARGO_FEATURE_BPF").is_none() {
        return;
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    match build_bpf(&out) {
        Ok(()) => println!("cargo:rustc-cfg=pathpool_bpf_object"),
        Err(why) => {
            println!("cargo:warning=pathpool-kernel: BPF controllers not built: {why}");
            println!("cargo:rustc-env=PATHPOOL_BPF_MISSING={why}");
        }
    }
}

fn build_bpf(out: &Path) -> Result<(), String> {
    let btf = Path::new("/sys/kernel/btf/vmlinux");
    if !btf.exists() {
        return Err("this kernel exposes no BTF (/sys/kernel/btf/vmlinux)".into());
    }
    if !Path::new("/usr/include/bpf/bpf_helpers.h").exists() {
        return Err("libbpf headers missing (install libbpf-dev; `make deps` as root does)".into());
    }
    let vmlinux = out.join("vmlinux.h");
    let dump = Command::new("bpftool")
        .args(["btf", "dump", "file"])
        .arg(btf)
        .args(["format", "c"])
        .output()
        .map_err(|e| format!("bpftool not runnable ({e}; install bpftool; `make deps` as root does)"))?;
    if !dump.status.success() {
        return Err(format!(
            "bpftool btf dump failed: {}",
            String::from_utf8_lossy(&dump.stderr).trim()
        ));
    }
    std::fs::write(&vmlinux, &dump.stdout).map_err(|e| format!("writing vmlinux.h: {e}"))?;
    // The controllers (struct_ops), the receiver fix's sock_ops programs, and the sock_ops
    // program of the root test tests/absurd_window.rs.
    for name in ["pathpool_cc", "pathpool_delack", "pathpool_read_ack", "test_absurd_window"] {
        let obj = out.join(format!("{name}.bpf.o"));
        // -mcpu=v3: atomic fetch-and-add with its result (the per-connection subflow count).
        let status = Command::new("clang")
            .args(["-O2", "-g", "-target", "bpf", "-mcpu=v3", "-D__TARGET_ARCH_x86"])
            .arg("-I")
            .arg(out)
            .args(["-I", "bpf", "-c", &format!("bpf/{name}.bpf.c"), "-o"])
            .arg(&obj)
            .status()
            .map_err(|e| format!("clang not runnable ({e}; install clang; `make deps` as root does)"))?;
        if !status.success() {
            return Err(format!("clang failed on bpf/{name}.bpf.c (see the build output)"));
        }
    }
    Ok(())
}
