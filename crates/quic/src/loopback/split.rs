//! The two ends of one transfer as separate processes (`pathpool quic send|recv`), e.g. in two
//! network namespaces joined by real links: the receiver accepts one connection and checks
//! every byte of its stream; the sender connects over its first address, opens one more path
//! per further address and sends the pattern for a while. Each end reports what it can see:
//! the receiver the bytes over time and whether they were intact, the sender the windows,
//! RTTs, the detector's decisions and noq's path events.

use super::run::{client, fail, probe_paths, server, FlowState};
use super::tls::{client_config, Certificates};
use super::{FlowReport, Report};
use crate::{CoupledFactory, QuicCc};
use noq::Endpoint;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::Ordering;
use std::time::Duration;

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(|e| format!("tokio runtime: {e}"))
}

#[derive(Clone, Debug)]
pub struct SendOptions {
    /// One address per path; the first carries the handshake. All reach one receiver.
    pub to: Vec<SocketAddr>,
    /// The local address to send from (None: any, the kernel's choice per destination).
    pub from: Option<IpAddr>,
    pub cc: QuicCc,
    /// The receiver's certificate (DER), to trust.
    pub cert_der: Vec<u8>,
    pub duration: Duration,
    /// How long after `duration` the last bytes may take to be acknowledged.
    pub grace: Duration,
    pub probe: Duration,
}

/// Sends for `o.duration`; the report has one flow, named "mpquic" with more than one path and
/// "sp" with one, whose `received` is empty (the receiver counts those).
pub fn send(o: &SendOptions) -> Result<Report, String> {
    if o.to.is_empty() {
        return Err("--to: expected at least one address (one per path), got none".into());
    }
    if o.to.len() > 8 {
        return Err(format!("--to: expected at most 8 addresses (noq's concurrent paths here), got {}", o.to.len()));
    }
    let name = if o.to.len() > 1 { "mpquic" } else { "sp" }.to_string();
    runtime()?.block_on(async {
        let factory = CoupledFactory::new(o.cc);
        factory.record_sbd_inputs(super::RECORD_INPUTS);
        let cfg = client_config(&o.cert_der, factory.clone())?;
        let ep = Endpoint::client(SocketAddr::new(o.from.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)), 0)).map_err(|e| format!("client endpoint: {e}"))?;
        let state = FlowState::new();
        let start = tokio::time::Instant::now();
        let deadline = start + o.duration;
        let limit = o.duration + o.grace + Duration::from_secs(5);
        let task = {
            let (name, factory, to, state, grace) = (name.clone(), factory.clone(), o.to.clone(), state.clone(), o.grace);
            tokio::spawn(async move {
                match tokio::time::timeout(limit, client(ep, name, cfg, factory, to, state.clone(), deadline, grace)).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => fail(&state, e),
                    Err(_) => fail(&state, format!("sender timed out after {limit:?}")),
                }
            })
        };
        let n = o.to.len();
        let mut fr = FlowReport { name, cc: Some(o.cc), cwnd_bytes: vec![Vec::new(); n], srtt_ms: vec![Vec::new(); n], path_bytes: vec![Vec::new(); n], ..Default::default() };
        let mut times = Vec::new();
        let mut tick = tokio::time::interval_at(start + o.probe, o.probe);
        while !task.is_finished() {
            let t = tick.tick().await;
            times.push((t - start).as_secs_f64());
            let snap = factory.snapshot();
            probe_paths(&mut fr, &snap);
            // What each path carried: the bytes acknowledged on it (its controller counts them).
            for (k, col) in fr.path_bytes.iter_mut().enumerate() {
                col.push(snap.iter().find(|s| s.slot == k).map_or(col.last().copied().unwrap_or(0), |s| s.acked_bytes));
            }
        }
        let _ = task.await;
        fr.sent_bytes = state.sent.load(Ordering::Relaxed);
        fr.error = state.error();
        fr.decisions = factory.decisions();
        fr.sbd_inputs = factory.sbd_inputs();
        fr.path_events = state.events();
        Ok(Report { times, flows: vec![fr], links: Vec::new(), window: (0.0, 0.0) })
    })
}

/// Listens on `listen` with `certs`, calls `ready` with the bound address, and receives one
/// connection's stream to its end (at most `limit`). The report's times start at the probe
/// that first saw data; its flow's `intact` says every byte matched and the stream ended.
pub fn recv(listen: SocketAddr, certs: &Certificates, limit: Duration, probe: Duration, ready: impl FnOnce(SocketAddr) -> Result<(), String>) -> Result<Report, String> {
    runtime()?.block_on(async {
        let ep = Endpoint::server(certs.server()?, listen).map_err(|e| format!("listening on {listen}: {e}"))?;
        ready(ep.local_addr().map_err(|e| e.to_string())?)?;
        let state = FlowState::new();
        let task = {
            let state = state.clone();
            tokio::spawn(async move {
                match tokio::time::timeout(limit, server(ep, state.clone())).await {
                    Ok(Ok(())) => state.done.store(true, Ordering::Relaxed),
                    Ok(Err(e)) => fail(&state, e),
                    Err(_) => fail(&state, format!("no complete transfer within {limit:?}")),
                }
            })
        };
        let start = tokio::time::Instant::now();
        let (mut times, mut received) = (Vec::new(), Vec::new());
        let mut tick = tokio::time::interval_at(start + probe, probe);
        while !task.is_finished() {
            let t = tick.tick().await;
            let bytes = state.received.load(Ordering::Relaxed);
            if bytes > 0 || !received.is_empty() {
                times.push((t - start).as_secs_f64());
                received.push(bytes);
            }
        }
        let _ = task.await;
        let t0 = times.first().copied().unwrap_or(0.0) - probe.as_secs_f64();
        let times: Vec<f64> = times.iter().map(|t| t - t0).collect();
        let error = state.error();
        let intact = error.is_none() && state.done.load(Ordering::Relaxed) && !state.corrupt.load(Ordering::Relaxed);
        let fr = FlowReport { received_bytes: state.received.load(Ordering::Relaxed), received, intact, error, ..Default::default() };
        Ok(Report { times, flows: vec![fr], links: Vec::new(), window: (0.0, 0.0) })
    })
}
