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

/// Two network namespaces joined by a veth pair, 10.77.0.1 (sender) and 10.77.0.2, with a
/// 10 Mb/s token bucket and a 30 kB queue on the sender's side; deleted on drop with the
/// processes started in them.
struct Namespaces {
    sender: String,
    receiver: String,
    processes: Vec<std::process::Child>,
}

impl Namespaces {
    fn new() -> Self {
        let id = std::process::id();
        let ns = Namespaces { sender: format!("ppaw-s-{id}"), receiver: format!("ppaw-r-{id}"), processes: Vec::new() };
        let (s, r) = (ns.sender.as_str(), ns.receiver.as_str());
        for args in [
            vec!["netns", "add", s],
            vec!["netns", "add", r],
            vec!["link", "add", "vs", "netns", s, "type", "veth", "peer", "name", "vr", "netns", r],
            vec!["-n", s, "addr", "add", "10.77.0.1/24", "dev", "vs"],
            vec!["-n", r, "addr", "add", "10.77.0.2/24", "dev", "vr"],
            vec!["-n", s, "link", "set", "vs", "up"],
            vec!["-n", r, "link", "set", "vr", "up"],
            vec!["-n", s, "link", "set", "lo", "up"],
            vec!["-n", r, "link", "set", "lo", "up"],
        ] {
            let out = std::process::Command::new("ip").args(&args).output().expect("ip runs");
            assert!(out.status.success(), "ip {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
        let tbf = ["-n", s, "qdisc", "add", "dev", "vs", "root", "tbf", "rate", "10mbit", "burst", "16kb", "limit", "30kb"];
        let out = std::process::Command::new("tc").args(tbf).output().expect("tc runs");
        assert!(out.status.success(), "tc {tbf:?}: {}", String::from_utf8_lossy(&out.stderr));
        ns
    }

    fn spawn(&mut self, ns: &str, program: &[&str], stdout: std::process::Stdio) -> &mut std::process::Child {
        let child = std::process::Command::new("ip").args(["netns", "exec", ns]).args(program).stdout(stdout).spawn().expect("ip netns exec runs");
        self.processes.push(child);
        self.processes.last_mut().expect("just pushed")
    }
}

impl Drop for Namespaces {
    fn drop(&mut self) {
        for p in &mut self.processes {
            let _ = p.kill();
            let _ = p.wait();
        }
        for ns in [&self.sender, &self.receiver] {
            let _ = std::process::Command::new("ip").args(["netns", "del", ns]).output();
        }
    }
}

/// The test's sock_ops program (bpf/test_absurd_window.bpf.c), built with the controllers.
#[cfg(pathpool_bpf_object)]
const TEST_OBJECT: Option<&[u8]> = Some(include_bytes!(concat!(env!("OUT_DIR"), "/test_absurd_window.bpf.o")));
#[cfg(not(pathpool_bpf_object))]
const TEST_OBJECT: Option<&[u8]> = None;

/// (cwnd, ssthresh) of each TCP connection to 10.77.0.2 in an `ss -tinOH` of the sender.
fn windows(ss: &str) -> Vec<(u64, Option<u64>)> {
    ss.lines()
        .filter(|l| l.contains("10.77.0.2:45613"))
        .filter_map(|l| {
            let field = |name: &str| l.split_whitespace().find_map(|w| w.strip_prefix(name)).and_then(|v| v.parse().ok());
            Some((field("cwnd:")?, field("ssthresh:")))
        })
        .collect()
}

/// A window of 164 452 153 segments that the controller did not write (docs/kernel.md, "A
/// window of 1.5 billion segments"), given to a pp_olia connection as its initial window by
/// the test's sock_ops program: the controller's first hook keeps a snapshot of it for
/// `kernel status`, and its ssthresh takes the packets in flight instead, so that the window
/// Linux sets when recovery ends is in range. Before, ssthresh was half the absurd window,
/// and recovery's end set the window back to 82 million segments.
#[test]
fn a_window_the_controller_did_not_write_is_recorded_and_not_inherited() {
    let name = "a_window_the_controller_did_not_write_is_recorded_and_not_inherited";
    let Some(_serial) = may_register(name) else { return };
    if !std::path::Path::new("/sys/fs/cgroup/unified").is_dir() && !std::path::Path::new("/sys/fs/cgroup/cgroup.procs").exists() {
        return skip(name, "no cgroup v2 hierarchy to attach the test's sock_ops program to").unwrap_or(());
    }
    let cgroup = if std::path::Path::new("/sys/fs/cgroup/unified").is_dir() { "/sys/fs/cgroup/unified" } else { "/sys/fs/cgroup" };
    let mut ns = Namespaces::new();
    let Some(object) = TEST_OBJECT else { return skip(name, "this build has no BPF objects").unwrap_or(()) };
    let obj = libbpf_rs::ObjectBuilder::default().open_memory(object).expect("the object opens");
    let obj = obj.load().expect("the kernel loads the sock_ops program");
    let cg = std::fs::File::open(cgroup).expect("the cgroup opens");
    let prog = obj.progs_mut().next().expect("one program");
    // Detached when dropped, also on a failed assertion.
    let _link = prog.attach_cgroup(std::os::fd::AsRawFd::as_raw_fd(&cg)).expect("attaches to the cgroup");
    let _controllers = pathpool_kernel::Guard::acquire().expect("the kernel accepts the controllers");

    let server = "import socket\ns=socket.socket()\ns.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\ns.bind(('10.77.0.2',45613))\ns.listen()\nprint('ready',flush=True)\nc,_=s.accept()\nwhile c.recv(1<<16):\n    pass\n";
    let receiver = ns.receiver.clone();
    let srv = ns.spawn(&receiver, &["python3", "-c", server], std::process::Stdio::piped());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(srv.stdout.as_mut().expect("piped")), &mut line).expect("the server starts");
    assert_eq!(line.trim(), "ready");
    let client = "import socket,time\ns=socket.socket()\ns.setsockopt(socket.IPPROTO_TCP,socket.TCP_CONGESTION,b'pp_olia')\ns.connect(('10.77.0.2',45613))\nend=time.time()+6\nb=b'x'*(1<<16)\nwhile time.time()<end:\n    s.sendall(b)\ns.close()\n";
    let sender = ns.sender.clone();
    ns.spawn(&sender, &["python3", "-c", client], std::process::Stdio::null());
    let mut samples = Vec::new();
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_millis(5500) {
        let ss = std::process::Command::new("ip").args(["netns", "exec", &sender, "ss", "-tinOH"]).output().expect("ss runs");
        samples.extend(windows(&String::from_utf8_lossy(&ss.stdout)).into_iter().map(|w| (start.elapsed().as_secs_f64(), w)));
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let status = pathpool_kernel::status().expect("status reads the pinned maps");
    eprintln!("{status}");
    eprintln!("samples (s, (cwnd, ssthresh)): {samples:?}");
    let absurd = status.absurd_window.as_ref().expect("the controller met the window and kept it");
    assert_eq!((absurd.cwnd, absurd.hook, absurd.state), (164_452_153, 1, 0), "met first by init, in Open: {absurd:?}");
    // The first loss comes within milliseconds of the connection's start (a 30 kB queue); from
    // then on ssthresh is in range, which `ss` shows only below 65535. With ssthresh from the
    // absurd window (before the guard), every recovery's end set the window back to the
    // threshold, and it took eleven recoveries of halving, 0.9-1.5 s here, before `ss` showed
    // one (docs/kernel.md). Timed from the first sample that shows the connection, so that a
    // slow start of the client does not count.
    let connected = samples.first().map_or(0.0, |(t, _)| *t);
    let later: Vec<_> = samples.iter().filter(|(t, _)| *t > connected + 0.4).collect();
    assert!(later.len() >= 20, "sampled from 0.4 s after the connection showed on: {samples:?}");
    assert!(
        later.iter().all(|(_, (cwnd, ss))| *cwnd <= 65_535 && ss.is_some_and(|s| s <= 65_535)),
        "from 0.4 s after the connection showed on, the window and ssthresh are in range: {later:?}"
    );
}
