//! Registering the controllers on this kernel (root and the `bpf` feature; otherwise the test
//! passes without running, recorded as skipped for `make test` to list). Whatever fails, the
//! guard unregisters what the test registered.
#![cfg(feature = "bpf")]

/// The tests of this file each register the controllers: one at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// This test's turn to register the controllers, or None after recording why it cannot.
fn may_register(name: &str) -> Option<std::sync::MutexGuard<'static, ()>> {
    if unsafe { libc::geteuid() } != 0 {
        return skip(name, "needs root");
    }
    if let Err(why) = pathpool_kernel::buildable() {
        return skip(name, &why);
    }
    let serial = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    if !pathpool_kernel::registered().is_empty() {
        return skip(name, "the controllers are registered already (`pathpool kernel unload`)");
    }
    Some(serial)
}

/// `pathpool_testbed::skip::skip`'s record, which this crate cannot reach (the testbed depends
/// on it): "register::TEST\tREASON" appended to skipped-tests.txt in the target folder
/// (`<target>/<profile>/deps/` holds this binary), which `make test` counts and lists.
fn skip<T>(name: &str, why: &str) -> Option<T> {
    eprintln!("skipped ({why}): register::{name}");
    let exe = std::env::current_exe().ok()?;
    let record = exe.parent()?.parent()?.parent()?.join("skipped-tests.txt");
    let line = format!("register::{name}\t{why}\n");
    let _ = std::fs::OpenOptions::new().create(true).append(true).open(record).and_then(|mut f| std::io::Write::write_all(&mut f, line.as_bytes()));
    None
}

#[test]
fn load_registers_four_controllers_and_unload_leaves_none() {
    let Some(_serial) = may_register("load_registers_four_controllers_and_unload_leaves_none") else { return };
    {
        let _guard = pathpool_kernel::Guard::acquire().expect("the kernel accepts the controllers");
        let status = pathpool_kernel::status().expect("status reads the pinned maps");
        assert_eq!(status.registered, pathpool_kernel::controllers().iter().map(|n| n.to_string()).collect::<Vec<_>>());
        assert!(status.connections.is_empty(), "{status:?}");
        assert!(!status.pacing, "pacing is off unless asked for");
        assert!(!status.linux_queues, "the subflows' send queues are bounded unless asked otherwise");
        assert_eq!(status.guards, [0; 9], "pp_stats starts at zero");
        pathpool_kernel::set_pacing(true).expect("pp_opts is pinned and writable");
        pathpool_kernel::set_linux_queues(true).expect("pp_opts");
        let both = pathpool_kernel::status().expect("status");
        assert!(both.pacing && both.linux_queues, "each option keeps the other: {both:?}");
        pathpool_kernel::set_pacing(false).expect("pp_opts");
        let queues_only = pathpool_kernel::status().expect("status");
        assert!(!queues_only.pacing && queues_only.linux_queues, "{queues_only:?}");
        pathpool_kernel::set_linux_queues(false).expect("pp_opts");
        let again = pathpool_kernel::load();
        assert!(again.is_err_and(|e| e.contains("already registered")));
    }
    assert!(pathpool_kernel::registered().is_empty(), "left registered: {:?}", pathpool_kernel::registered());
    assert!(!std::path::Path::new("/sys/fs/bpf/pathpool").exists(), "pins left behind");
}

/// Two runs at once (two guards) share the controllers: the first to leave does not unload
/// what the second still runs on; the last one leaves the kernel as the first found it.
#[test]
fn the_last_of_two_guards_unloads() {
    let Some(_serial) = may_register("the_last_of_two_guards_unloads") else { return };
    let first = pathpool_kernel::Guard::acquire().expect("the kernel accepts the controllers");
    let second = pathpool_kernel::Guard::acquire().expect("a second run joins them");
    drop(first);
    assert_eq!(
        pathpool_kernel::registered(),
        pathpool_kernel::controllers().iter().map(|n| n.to_string()).collect::<Vec<_>>(),
        "the first run to leave unloaded the controllers the second still uses"
    );
    drop(second);
    assert!(pathpool_kernel::registered().is_empty(), "left registered: {:?}", pathpool_kernel::registered());
}
