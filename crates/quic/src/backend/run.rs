//! One run: the network up, a receiver per flow in its receiving node's namespace, each
//! sender started at its flow's `start` in its sending node's namespace, the queues probed
//! every `probe_interval` for the scenario's duration, then everything down and the reports
//! turned into the outcome. The ends are `loopback::recv` and `loopback::send`, the same
//! code as `pathpool quic recv|send`, on threads of this process that entered the nodes'
//! namespaces (a socket belongs to the namespace it was made in).

use super::check::QuicFlow;
use super::outcome::{self, Ends};
use crate::loopback::{self, Certificates, Report, SendOptions};
use pathpool_experiment::outcome::Outcome;
use pathpool_experiment::progress::Progress;
use pathpool_experiment::Loaded;
use pathpool_netlab::link_outcome::Queues;
use pathpool_netlab::plan::{self, PORT};
use pathpool_netlab::{netns, Network};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long after the scenario's end a flow may take to deliver its last bytes.
const GRACE: Duration = Duration::from_secs(10);

type End = JoinHandle<Result<Report, String>>;

fn join(end: End, what: &str) -> Result<Report, String> {
    end.join().unwrap_or_else(|_| Err(format!("the {what} thread panicked")))
}

pub fn run(l: &Loaded, flows: Vec<QuicFlow>, progress: bool) -> Result<Outcome, String> {
    let plan = plan::build(l, flows);
    if !pathpool_netlab::is_root() {
        return Err("--backend quic needs root (it builds network namespaces, TUN devices and queues); run it as root".into());
    }
    let spec = &l.scenario.simulation;
    let ps = |t: u64| Duration::from_nanos(t / 1000);
    let (duration, probe) = (ps(spec.duration), ps(spec.probe_interval));
    let mut network = Network::build(&plan, spec.seed, None).map_err(|e| e.0)?;
    let names = network.names.clone();
    let certs = Arc::new(Certificates::generate()?);
    // Receivers first, each listening on every address of the receiving node at its port.
    let (ready_tx, ready_rx) = mpsc::channel::<()>();
    let mut receivers: Vec<End> = Vec::new();
    for (i, f) in plan.flows.iter().enumerate() {
        let (ns, certs, ready) = (names[f.receiver].clone(), certs.clone(), ready_tx.clone());
        let listen = SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), PORT + i as u16);
        let limit = duration + GRACE + Duration::from_secs(30);
        receivers.push(std::thread::spawn(move || {
            netns::enter(&ns).map_err(|e| e.0)?;
            loopback::recv(listen, &certs, limit, probe, |_| ready.send(()).map_err(|e| e.to_string()))
        }));
    }
    drop(ready_tx);
    for _ in 0..plan.flows.len() {
        ready_rx.recv_timeout(Duration::from_secs(10)).map_err(|_| "a QUIC receiver did not start listening within 10 s".to_string())?;
    }
    let t0 = Instant::now();
    let mut senders: Vec<End> = Vec::new();
    for (i, f) in plan.flows.iter().enumerate() {
        let ns = names[f.sender].clone();
        let start = Duration::from_secs_f64(f.start_s);
        let stop = f.stop_s.map_or(duration, Duration::from_secs_f64).min(duration);
        let o = SendOptions {
            to: f.destinations.iter().map(|&d| SocketAddr::new(IpAddr::V4(d), PORT + i as u16)).collect(),
            from: Some(IpAddr::V4(f.sources[0])),
            cc: f.spec.cc,
            cert_der: certs.cert_der().to_vec(),
            duration: stop.saturating_sub(start).max(probe),
            grace: GRACE,
            probe,
        };
        senders.push(std::thread::spawn(move || {
            netns::enter(&ns).map_err(|e| e.0)?;
            std::thread::sleep((t0 + start).saturating_duration_since(Instant::now()));
            loopback::send(&o)
        }));
    }
    // The queues at every probe, on the scenario's grid from the senders' time zero.
    let samples_n = (spec.duration / spec.probe_interval).max(1) as usize;
    let warm = spec.warmup.div_ceil(spec.probe_interval).min(samples_n as u64 - 1) as usize;
    let bar = if progress { Progress::new(spec.duration) } else { Progress::hidden() };
    let take = || -> Result<Queues, String> {
        let mut q = Queues::new();
        for ns in &names {
            pathpool_netlab::queues(ns, t0, &mut q).map_err(|e| e.0)?;
        }
        Ok(q)
    };
    let mut queues = vec![take()?];
    let mut times = vec![0.0];
    for k in 1..=samples_n {
        let due = t0 + probe * k as u32;
        while Instant::now() < due {
            if netns::interrupted() {
                return Err("interrupted; the network was taken down".into());
            }
            std::thread::sleep((due - Instant::now()).min(Duration::from_millis(20)));
        }
        queues.push(take()?);
        times.push(t0.elapsed().as_secs_f64());
        bar.update((probe * k as u32).as_nanos() as u64 * 1000);
    }
    bar.finish();
    let mut ends = Vec::new();
    for (s, r) in senders.into_iter().zip(receivers) {
        ends.push(Ends { sent: join(s, "QUIC sender"), received: join(r, "QUIC receiver") });
    }
    let wall = t0.elapsed().as_secs_f64();
    let lost = network.stop();
    drop(network);
    outcome::assemble(l, &plan, &names, &queues, &times, warm, &lost, &ends, wall)
}
