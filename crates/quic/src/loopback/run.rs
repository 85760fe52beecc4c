//! Runs an [`Experiment`]: relays, one server and one client endpoint per flow, a probe every
//! `probe`; every failure of a flow (handshake, path, stream, timeout) ends in that flow's
//! `error`, never a panic or a hang.

use super::relay::{Bottleneck, DelayLine, Relay};
use super::tls::{Certificates, DATAGRAM};
use super::Experiment;
use crate::{AckDelayStats, CoupledFactory, PathSnapshot, QuicCc, SbdDecision, SbdInput};
use noq::{Endpoint, PathStatus};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Every flow's byte `i` is `i mod 251`; the buffer holds a whole number of periods, so
/// writing it again and again continues the pattern.
const PERIOD: usize = 251;
const CHUNK: usize = PERIOD * 256;

#[derive(Clone, Debug, Default)]
pub struct FlowReport {
    pub name: String,
    pub cc: Option<QuicCc>,
    pub sent_bytes: u64,
    pub received_bytes: u64,
    /// Every received byte matched the pattern and all sent bytes arrived.
    pub intact: bool,
    /// Goodput over the measurement window, Mb/s of stream payload.
    pub goodput_mbps: f64,
    /// Per probe: stream bytes received so far.
    pub received: Vec<u64>,
    /// Per path (in opening order), per probe: the controller's window in bytes (0 once the
    /// path's controller is gone).
    pub cwnd_bytes: Vec<Vec<f64>>,
    /// Per path, per probe: the controller's smoothed RTT in ms (NaN before a sample).
    pub srtt_ms: Vec<Vec<f64>>,
    /// Per path, per probe: bytes the path carried through its bottleneck so far.
    pub path_bytes: Vec<Vec<u64>>,
    /// The shared bottleneck detector's decisions (mptcp-sbd only).
    pub decisions: Vec<SbdDecision>,
    /// The shared bottleneck detector's inputs (mptcp-sbd only; at most [`RECORD_INPUTS`]).
    pub sbd_inputs: Vec<SbdInput>,
    /// The ACK delays noq subtracted from the RTT samples, over all paths (as last probed).
    pub ack_delay: AckDelayStats,
    pub error: Option<String>,
    /// noq's path events on the sender (established, abandoned, ...), with their time in s.
    pub path_events: Vec<(f64, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct LinkReport {
    pub name: String,
    /// Per probe, cumulative.
    pub drops: Vec<u64>,
    pub forwarded_bytes: Vec<u64>,
    pub queue_packets: Vec<f64>,
    /// Per probe, seconds from the start to when the link's counters were read; empty where
    /// they are read at the probe's own time (the relays' counters, in this process).
    pub read_s: Vec<f64>,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Probe times, seconds since the flows started.
    pub times: Vec<f64>,
    pub flows: Vec<FlowReport>,
    pub links: Vec<LinkReport>,
    /// The measurement window [warm-up, end], seconds, as the probes saw it.
    pub window: (f64, f64),
}

/// Detector inputs a run records per connection (8 000-14 000 in 30 s of two paths at
/// 10 Mb/s, so about 40 minutes of those; 32 MB at most).
pub const RECORD_INPUTS: usize = 1_000_000;

/// What one flow's sender and receiver tasks report while they run.
pub(crate) struct FlowState {
    pub sent: AtomicU64,
    pub received: AtomicU64,
    pub corrupt: AtomicBool,
    pub done: AtomicBool,
    pub error: Mutex<Option<String>>,
    pub events: Mutex<Vec<(f64, String)>>,
}

impl FlowState {
    pub fn new() -> Arc<FlowState> {
        Arc::new(FlowState { sent: AtomicU64::new(0), received: AtomicU64::new(0), corrupt: AtomicBool::new(false), done: AtomicBool::new(false), error: Mutex::new(None), events: Mutex::default() })
    }

    pub fn error(&self) -> Option<String> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn events(&self) -> Vec<(f64, String)> {
        self.events.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// One probe of a flow's paths: window and smoothed RTT per path, and the ACK delays so far.
pub(crate) fn probe_paths(fr: &mut FlowReport, snap: &[PathSnapshot]) {
    for (k, col) in fr.cwnd_bytes.iter_mut().enumerate() {
        col.push(snap.iter().find(|s| s.slot == k).map_or(0.0, |s| s.cwnd_bytes));
    }
    for (k, col) in fr.srtt_ms.iter_mut().enumerate() {
        col.push(snap.iter().find(|s| s.slot == k).and_then(|s| s.srtt_ns).map_or(f64::NAN, |ns| ns as f64 / 1e6));
    }
    // Counts only grow while a path lives; a closed path's last counts are kept.
    let mut now = AckDelayStats::default();
    snap.iter().for_each(|s| now.merge(&s.ack_delay));
    if now.samples >= fr.ack_delay.samples {
        fr.ack_delay = now;
    }
}

pub(crate) fn fail(state: &FlowState, e: String) {
    let mut slot = state.error.lock().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert(e);
}

/// Runs the experiment on a runtime of its own (two worker threads).
pub fn run(exp: &Experiment) -> Result<Report, String> {
    exp.validate()?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    rt.block_on(run_async(exp))
}

/// Receives one connection's stream on `endpoint`, checking every byte against the pattern.
pub(crate) async fn server(endpoint: Endpoint, state: Arc<FlowState>) -> Result<(), String> {
    let incoming = endpoint.accept().await.ok_or("server endpoint closed before a connection arrived")?;
    let conn = incoming.await.map_err(|e| format!("server handshake: {e}"))?;
    let mut stream = conn.accept_uni().await.map_err(|e| format!("accepting the stream: {e}"))?;
    let mut offset: u64 = 0;
    loop {
        match stream.read_chunk(CHUNK).await {
            Ok(Some(bytes)) => {
                let ok = bytes.iter().enumerate().all(|(i, &b)| b == ((offset + i as u64) % PERIOD as u64) as u8);
                if !ok {
                    state.corrupt.store(true, Ordering::Relaxed);
                }
                offset += bytes.len() as u64;
                state.received.store(offset, Ordering::Relaxed);
            }
            Ok(None) => break,
            Err(e) => return Err(format!("receiving: {e}")),
        }
    }
    // Keep the connection until the client closes it (its last ACKs must get through).
    let _ = conn.closed().await;
    Ok(())
}

/// A path that has sent for this long without any of its data acknowledged is closed by the
/// sender, so that its data goes over the others (noq itself abandons a path only on an idle
/// timeout, which this harness cannot use: see tls.rs).
const DEAD_AFTER: Duration = Duration::from_secs(1);

/// Connects over `addrs[0]`, opens one more path per further address, and sends the pattern
/// until `deadline`; closes a path that stops being answered while another is open.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn client(endpoint: Endpoint, name: String, cfg: noq::ClientConfig, factory: Arc<CoupledFactory>, addrs: Vec<SocketAddr>, state: Arc<FlowState>, deadline: tokio::time::Instant, grace: Duration) -> Result<(), String> {
    let factory_probe = factory;
    let conn = endpoint
        .connect_with(cfg, addrs[0], "localhost")
        .map_err(|e| format!("connecting: {e}"))?
        .await
        .map_err(|e| format!("handshake over path 0: {e}"))?;
    {
        let (mut events, state, t0) = (conn.path_events(), state.clone(), tokio::time::Instant::now());
        tokio::spawn(async move {
            use futures_core::Stream;
            while let Some(e) = std::future::poll_fn(|cx| std::pin::Pin::new(&mut events).poll_next(cx)).await {
                let at = t0.elapsed().as_secs_f64();
                state.events.lock().unwrap_or_else(|e| e.into_inner()).push((at, format!("{e:?}")));
            }
        });
    }
    let mut paths: Vec<noq::Path> = conn.path(noq::PathId::ZERO).into_iter().collect();
    for (k, &a) in addrs.iter().enumerate().skip(1) {
        // The server issues connection IDs for further paths just after the handshake:
        // retry while they have not arrived (as noq's own tests do), for at most 5 s.
        let open = async {
            loop {
                match conn.open_path(a, PathStatus::Available).await {
                    Err(noq::PathError::RemoteCidsExhausted) => tokio::time::sleep(Duration::from_millis(20)).await,
                    other => break other,
                }
            }
        };
        match tokio::time::timeout(Duration::from_secs(5), open).await {
            Ok(Ok(p)) => paths.push(p),
            Ok(Err(e)) => return Err(format!("{name}: opening path {k} via {a}: {e}")),
            Err(_) => return Err(format!("{name}: opening path {k} via {a}: no answer within 5 s")),
        }
    }
    // Failover: close a path the controller reports dead while another one is still open
    // (paths were opened in slot order, so slot k is path k).
    let watchdog = {
        let factory = factory_probe.clone();
        tokio::spawn(async move {
            let mut open: Vec<Option<noq::Path>> = paths.into_iter().map(Some).collect();
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                for s in factory.snapshot() {
                    let alive = open.iter().filter(|p| p.is_some()).count();
                    if s.unanswered_ns >= DEAD_AFTER.as_nanos() as u64 && alive > 1 {
                        if let Some(p) = open.get_mut(s.slot).and_then(Option::take) {
                            let _ = p.close();
                        }
                    }
                }
            }
        })
    };
    let result = send(&conn, &state, deadline, grace).await;
    watchdog.abort();
    result?;
    conn.close(0u32.into(), b"done");
    endpoint.wait_idle().await;
    Ok(())
}

async fn send(conn: &noq::Connection, state: &FlowState, deadline: tokio::time::Instant, grace: Duration) -> Result<(), String> {
    let mut stream = conn.open_uni().await.map_err(|e| format!("opening the stream: {e}"))?;
    let buf: Vec<u8> = (0..CHUNK).map(|i| (i % PERIOD) as u8).collect();
    // Whole buffers only, so that the count is exact: a write blocked by flow control ends
    // at most one buffer after the deadline.
    while tokio::time::Instant::now() < deadline {
        stream.write_all(&buf).await.map_err(|e| format!("sending: {e}"))?;
        state.sent.fetch_add(buf.len() as u64, Ordering::Relaxed);
    }
    let _ = stream.finish();
    match tokio::time::timeout(grace, stream.stopped()).await {
        Ok(Ok(None)) => {}
        Ok(Ok(Some(code))) => return Err(format!("the receiver stopped the stream with code {code}")),
        Ok(Err(e)) => return Err(format!("delivering the last bytes: {e}")),
        Err(_) => return Err(format!("the last bytes were not acknowledged within {grace:?} after the end")),
    }
    Ok(())
}

async fn run_async(exp: &Experiment) -> Result<Report, String> {
    let certs = Arc::new(Certificates::generate()?);
    let links: Vec<Arc<Bottleneck>> = exp.links.iter().map(|l| Bottleneck::new(l.rate_mbps, l.buffer_bytes)).collect::<Result<_, _>>()?;
    let (line, line_thread) = DelayLine::start();
    let start = tokio::time::Instant::now();
    let deadline = start + exp.duration;
    let mut relays: Vec<Vec<Relay>> = Vec::new();
    let mut states = Vec::new();
    let mut factories = Vec::new();
    let mut tasks = Vec::new();
    let mut setup_error = None;
    for (i, spec) in exp.flows.iter().enumerate() {
        let state = FlowState::new();
        let factory = CoupledFactory::new(spec.cc);
        factory.record_sbd_inputs(RECORD_INPUTS);
        states.push(state.clone());
        factories.push(factory.clone());
        let server_ep = match Endpoint::server(certs.server()?, SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0)) {
            Ok(e) => e,
            Err(e) => {
                setup_error = Some(format!("flow {}: server endpoint: {e}", spec.name));
                break;
            }
        };
        let server_addr = server_ep.local_addr().map_err(|e| e.to_string())?;
        let mut flow_relays = Vec::new();
        for (k, p) in spec.paths.iter().enumerate() {
            // Path k of every flow enters on 127.0.0.(k+2): distinct local addresses per path.
            let ip = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + k as u8));
            let r = Relay::start(ip, server_addr, links[p.link].clone(), p.delay, line.clone()).map_err(|e| format!("flow {} path {k}: relay on {ip}: {e}", spec.name))?;
            flow_relays.push(r);
        }
        let addrs: Vec<SocketAddr> = flow_relays.iter().map(Relay::addr).collect();
        relays.push(flow_relays);
        let client_ep = Endpoint::client(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)).map_err(|e| format!("flow {}: client endpoint: {e}", spec.name))?;
        let (s1, s2) = (state.clone(), state.clone());
        let limit = exp.duration + exp.grace + Duration::from_secs(5);
        let srv = tokio::spawn(async move {
            if let Ok(Err(e)) | Err(e) = tokio::time::timeout(limit, server(server_ep, s1.clone())).await.map_err(|_| "receiver timed out".to_string()) {
                fail(&s1, e);
            }
        });
        let (name, grace) = (spec.name.clone(), exp.grace);
        let cfg = certs.client(factory.clone())?;
        let cli = tokio::spawn(async move {
            let r = tokio::time::timeout(limit, client(client_ep, name, cfg, factory, addrs, s2.clone(), deadline, grace)).await;
            match r {
                Ok(Ok(())) => {}
                Ok(Err(e)) => fail(&s2, e),
                Err(_) => fail(&s2, format!("sender timed out after {limit:?}")),
            }
            s2.done.store(true, Ordering::Relaxed);
        });
        tasks.push((i, srv, cli));
    }
    // Probes, until the end of the sending time.
    let mut report = Report { flows: exp.flows.iter().map(|f| FlowReport { name: f.name.clone(), cc: Some(f.cc), cwnd_bytes: vec![Vec::new(); f.paths.len()], srtt_ms: vec![Vec::new(); f.paths.len()], path_bytes: vec![Vec::new(); f.paths.len()], ..Default::default() }).collect(), links: exp.links.iter().map(|l| LinkReport { name: l.name.clone(), ..Default::default() }).collect(), ..Default::default() };
    let mut tick = tokio::time::interval_at(start + exp.probe, exp.probe);
    let mut killed = false;
    loop {
        let t = tick.tick().await;
        let since = (t - start).as_secs_f64();
        if let Some((f, p, at)) = exp.kill {
            if !killed && t - start >= at {
                if let Some(r) = relays.get(f).and_then(|rs| rs.get(p)) {
                    r.kill();
                }
                killed = true;
            }
        }
        report.times.push(since);
        for (i, fr) in report.flows.iter_mut().enumerate() {
            fr.received.push(states.get(i).map_or(0, |s| s.received.load(Ordering::Relaxed)));
            let snap = factories.get(i).map(|f| f.snapshot()).unwrap_or_default();
            probe_paths(fr, &snap);
            for (k, col) in fr.path_bytes.iter_mut().enumerate() {
                col.push(relays.get(i).and_then(|rs| rs.get(k)).map_or(0, Relay::forwarded_bytes));
            }
        }
        let now = Instant::now();
        for (l, lr) in links.iter().zip(report.links.iter_mut()) {
            lr.drops.push(l.drops.load(Ordering::Relaxed));
            lr.forwarded_bytes.push(l.forwarded_bytes.load(Ordering::Relaxed));
            lr.queue_packets.push(l.queue_packets(now, DATAGRAM as f64 + 28.0));
        }
        if t >= deadline || setup_error.is_some() {
            break;
        }
    }
    for (i, srv, cli) in tasks {
        let _ = cli.await;
        // The receiver ends when the sender closes; a sender that failed may leave it waiting.
        if tokio::time::timeout(Duration::from_secs(3), srv).await.is_err() {
            fail(&states[i], "receiver did not finish after the sender ended".into());
        }
    }
    line.stop();
    drop(relays);
    let _ = line_thread.join();
    // Measurement window: first probe at or after the warm-up to the last probe.
    let warm = exp.warmup.as_secs_f64();
    let first = report.times.iter().position(|&t| t >= warm - 1e-9).unwrap_or(0);
    let last = report.times.len().saturating_sub(1);
    let (t0, t1) = (report.times.get(first).copied().unwrap_or(0.0), report.times.get(last).copied().unwrap_or(0.0));
    report.window = (t0, t1);
    for (i, fr) in report.flows.iter_mut().enumerate() {
        let s = &states[i];
        fr.sent_bytes = s.sent.load(Ordering::Relaxed);
        fr.received_bytes = s.received.load(Ordering::Relaxed);
        fr.error = s.error();
        fr.intact = !s.corrupt.load(Ordering::Relaxed) && fr.error.is_none() && fr.received_bytes >= fr.sent_bytes;
        fr.decisions = factories[i].decisions();
        fr.sbd_inputs = factories[i].sbd_inputs();
        fr.path_events = s.events();
        if t1 > t0 && !fr.received.is_empty() {
            fr.goodput_mbps = (fr.received[last] - fr.received[first]) as f64 * 8.0 / (t1 - t0) / 1e6;
        }
    }
    if let Some(e) = setup_error {
        return Err(e);
    }
    Ok(report)
}
