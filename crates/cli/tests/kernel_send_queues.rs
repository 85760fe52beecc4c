//! The subflows' send queues under pathpool's controllers (docs/kernel.md, "The subflows' send
//! queues"), on two namespaces this test makes, joined by a 20 Mb/s and a 1 Mb/s path. A bulk
//! MPTCP transfer on pp_olia: Linux's MPTCP scheduler hands a subflow data until it is no
//! longer `sk_stream_memory_free`, so with Linux's queue sizes (`kernel load --linux-queues`)
//! the slow subflow holds many windows of the connection's data not yet sent, which the data
//! sequence waits behind. By default each controller bounds its subflow's not-sent bytes by
//! its window (TCP_NOTSENT_LOWAT): the scheduler may overshoot by one of the connection's data
//! fragments (at most 32 KiB, one page fragment) and by a window just cut, no more. `kernel
//! status` counts the bounds set. Root only; without root it says why and passes.

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::two_paths::TwoPaths;

const PATHPOOL: &str = env!("CARGO_BIN_EXE_pathpool");

/// Reads everything sent to 10.9.1.2:5001 over MPTCP; prints "ready" once listening.
const SERVER: &str = "import socket\ns=socket.socket(socket.AF_INET,socket.SOCK_STREAM,262)\ns.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\ns.bind(('0.0.0.0',5001))\ns.listen()\nprint('ready',flush=True)\nc,_=s.accept()\nwhile c.recv(1<<16):\n    pass\n";

/// Sends for SECONDS over MPTCP on pp_olia (set on the connection, which passes it to every
/// subflow).
const CLIENT: &str = "import socket,sys,time\ns=socket.socket(socket.AF_INET,socket.SOCK_STREAM,262)\ns.setsockopt(socket.IPPROTO_TCP,socket.TCP_CONGESTION,b'pp_olia')\ns.connect(('10.9.1.2',5001))\nend=time.time()+float(sys.argv[1])\nb=b'x'*(1<<16)\nwhile time.time()<end:\n    s.sendall(b)\ns.close()\n";

const SECONDS: f64 = 8.0;
/// One of the connection's data fragments at most (a page fragment, SKB_FRAG_PAGE_ORDER).
const FRAGMENT: u64 = 32 * 1024;

/// The controllers registered for the test, unregistered on drop.
struct Controllers;

impl Drop for Controllers {
    fn drop(&mut self) {
        let _ = Command::new(PATHPOOL).args(["kernel", "unload"]).output();
    }
}

fn run(ns: &str, program: &str, args: &[&str]) -> String {
    let out = Command::new("ip").args(["netns", "exec", ns, program]).args(args).output().expect("ip netns exec runs");
    assert!(out.status.success(), "{program} {args:?} in {ns}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// One sample of each subflow in an `ss -tinOH`: (path 0 or 1, not-sent bytes, window in bytes).
fn subflows(ss: &str) -> Vec<(usize, u64, u64)> {
    ss.lines()
        .filter(|l| l.contains("pp_olia"))
        .filter_map(|line| {
            let field = |name: &str| -> Option<u64> { line.split_whitespace().find_map(|w| w.strip_prefix(name)).and_then(|v| v.parse().ok()) };
            let path = usize::from(line.contains(" 10.9.2.1"));
            Some((path, field("notsent:").unwrap_or(0), field("cwnd:")? * field("mss:")?))
        })
        .collect()
}

/// Both subflows' samples over one transfer.
fn transfer(paths: &TwoPaths) -> Vec<(usize, u64, u64)> {
    let mut server = Command::new("ip")
        .args(["netns", "exec", &paths.receiver, "python3", "-c", SERVER])
        .stdout(Stdio::piped())
        .spawn()
        .expect("server starts");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(server.stdout.as_mut().unwrap()), &mut line).unwrap();
    assert_eq!(line.trim(), "ready");
    let mut client = Command::new("ip")
        .args(["netns", "exec", &paths.sender, "python3", "-c", CLIENT, &SECONDS.to_string()])
        .spawn()
        .expect("client starts");
    let start = Instant::now();
    let mut samples = Vec::new();
    while client.try_wait().expect("client").is_none() {
        // The first two seconds are slow start and the second subflow's join.
        if start.elapsed() > Duration::from_secs(2) {
            samples.extend(subflows(&run(&paths.sender, "ss", &["-tinOH"])));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(client.wait().unwrap().success(), "the client failed");
    let _ = server.wait();
    samples
}

/// Per path: the share of its samples whose not-sent bytes exceed the bound the controllers
/// keep, the median not-sent bytes and the number of samples.
fn over_bound(samples: &[(usize, u64, u64)]) -> [(f64, u64, usize); 2] {
    [0, 1].map(|path| {
        let mine: Vec<&(usize, u64, u64)> = samples.iter().filter(|s| s.0 == path).collect();
        let over = mine.iter().filter(|(_, notsent, window)| *notsent > 2 * window + FRAGMENT).count();
        let mut notsent: Vec<u64> = mine.iter().map(|s| s.1).collect();
        notsent.sort_unstable();
        (over as f64 / mine.len().max(1) as f64, notsent.get(notsent.len() / 2).copied().unwrap_or(0), mine.len())
    })
}

#[test]
fn the_controllers_bound_each_subflows_send_queue_by_its_window() {
    let test = "the_controllers_bound_each_subflows_send_queue_by_its_window";
    // Registering BPF controllers and making namespaces needs root.
    if !pathpool_testbed::skip::root_or_skip(test) {
        return;
    }
    let status = Command::new(PATHPOOL).args(["kernel", "status"]).output().expect("pathpool runs");
    if String::from_utf8_lossy(&status.stderr).contains("built without the BPF controllers") {
        return pathpool_testbed::skip::skip(test, "this build has no BPF controllers (make build-kernel)");
    }
    if !String::from_utf8_lossy(&status.stdout).contains("registered: none") {
        return pathpool_testbed::skip::skip(test, "pathpool's controllers are registered by someone else, and the test registers them with its own options");
    }
    let paths = TwoPaths::new("sq", ["20mbit", "1mbit"]);
    for ns in [&paths.sender, &paths.receiver] {
        run(ns, "ip", &["mptcp", "limits", "set", "subflows", "2", "add_addr_accepted", "2"]);
    }
    run(&paths.sender, "ip", &["mptcp", "endpoint", "add", "10.9.2.1", "dev", "eth1", "subflow"]);

    let mut linux = Vec::new();
    {
        let load = Command::new(PATHPOOL).args(["kernel", "load", "--linux-queues"]).output().unwrap();
        assert!(load.status.success(), "{}", String::from_utf8_lossy(&load.stderr));
        let _controllers = Controllers;
        linux.extend(transfer(&paths));
        let status = String::from_utf8_lossy(&Command::new(PATHPOOL).args(["kernel", "status"]).output().unwrap().stdout).into_owned();
        assert!(status.contains("subflow send queues: as Linux sizes them"), "{status}");
        paths.kill_processes();
    }
    let load = Command::new(PATHPOOL).args(["kernel", "load"]).output().unwrap();
    assert!(load.status.success(), "{}", String::from_utf8_lossy(&load.stderr));
    let _controllers = Controllers;
    let bounded = transfer(&paths);
    let status = String::from_utf8_lossy(&Command::new(PATHPOOL).args(["kernel", "status"]).output().unwrap().stdout).into_owned();
    eprintln!("{status}");
    let (linux, bounded) = (over_bound(&linux), over_bound(&bounded));
    for (name, runs) in [("Linux's queues", linux), ("bounded", bounded)] {
        for (path, (over, median, n)) in runs.iter().enumerate() {
            eprintln!("{name}, subflow on path {path}: not sent, median {median} bytes; over 2 windows + 32 KiB in {:.0} % of {n} samples", 100.0 * over);
        }
    }
    assert!(linux.iter().chain(&bounded).all(|p| p.2 >= 40), "each subflow was sampled: {linux:?} {bounded:?}");
    let set = status.lines().find(|l| l.starts_with("subflow send queues: one window each")).unwrap_or_else(|| panic!("{status}"));
    assert!(set.contains("refused 0") && !set.contains("set 0 times"), "{set}");
    // Linux's scheduler parks more than the bound on a subflow much of the time (the setting
    // reproduces what the bound is for); the controllers' bound holds both.
    assert!(linux.iter().any(|p| p.0 > 0.3), "with Linux's queues a subflow should hold more than 2 windows + 32 KiB not yet sent in a good part of the samples: {linux:?}");
    assert!(bounded.iter().all(|p| p.0 < 0.1), "bounded, each subflow holds at most 2 windows + 32 KiB not yet sent: {bounded:?}");
}
