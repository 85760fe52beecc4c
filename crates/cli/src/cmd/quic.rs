//! `pathpool quic run`: multipath QUIC (noq with pathpool-quic's controllers) over loopback
//! paths shaped in user space, against single-path QUIC flows; writes the files the other
//! backends write (summary.json, flows.csv, links.csv, the plots) plus decisions.csv (the
//! shared bottleneck detector's decisions over time, mptcp-sbd only).

use super::quic_output::{flow_errors, print_summary, write_run};
use super::quic_shape::{Checked, Shape};
use crate::error::CliError;
use crate::outdir::OutDir;
use clap::{Args, Subcommand, ValueEnum};
use pathpool_quic::loopback::{self, Experiment, FlowSpec, LinkSpec, PathSpec};
use pathpool_quic::QuicCc;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Subcommand)]
pub enum QuicWhat {
    /// One multipath QUIC connection (two paths) and single-path QUIC flows (pathpool-cc's
    /// Reno) over loopback, with the rate, queue and delay shaped in user space (no root).
    Run(QuicRunArgs),
    /// The sending end of one (multipath) transfer, as its own process: one --to per path.
    Send(super::quic_split::QuicSendArgs),
    /// The receiving end of one transfer, as its own process.
    Recv(super::quic_split::QuicRecvArgs),
    /// Root: send and recv in two network namespaces joined by two shaped veth links.
    Netns(super::quic_netns::QuicNetnsArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Topology {
    /// Both paths and one single-path flow through one bottleneck.
    Shared,
    /// Each path through its own bottleneck, each bottleneck with one single-path flow.
    Disjoint,
    /// The single-path flow alone on one bottleneck (the reference).
    Alone,
}

#[derive(Args)]
pub struct QuicRunArgs {
    #[arg(long, value_enum)]
    pub topology: Topology,
    #[command(flatten)]
    pub shape: Shape,
    /// Output folder.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

pub fn run(what: QuicWhat) -> Result<(), CliError> {
    match what {
        QuicWhat::Run(a) => run_one(a),
        QuicWhat::Send(a) => super::quic_split::send(a),
        QuicWhat::Recv(a) => super::quic_split::recv(a),
        QuicWhat::Netns(a) => super::quic_netns::run(a),
    }
}

fn experiment(a: &QuicRunArgs) -> Result<Experiment, CliError> {
    let Checked { cc, duration, warmup, delay, rate_mbps: rate, buffer } = a.shape.check()?;
    let link = |name: &str| LinkSpec { name: name.into(), rate_mbps: rate, buffer_bytes: buffer };
    let path = |link| PathSpec { link, delay };
    let single = |name: &str, l| FlowSpec { name: name.into(), cc: QuicCc::Uncoupled, paths: vec![path(l)] };
    let mp = |paths| FlowSpec { name: "mpquic".into(), cc, paths };
    let (links, flows) = match a.topology {
        Topology::Shared => (vec![link("bottleneck")], vec![mp(vec![path(0), path(0)]), single("sp", 0)]),
        Topology::Disjoint => (vec![link("b1"), link("b2")], vec![mp(vec![path(0), path(1)]), single("sp1", 0), single("sp2", 1)]),
        Topology::Alone => (vec![link("bottleneck")], vec![single("sp", 0)]),
    };
    Ok(Experiment { links, flows, duration, warmup, probe: Duration::from_millis(100), kill: None, grace: Duration::from_secs(10) })
}

fn run_one(a: QuicRunArgs) -> Result<(), CliError> {
    let exp = experiment(&a)?;
    let cc = exp.flows[0].cc;
    let out = OutDir::create("--out", &a.out)?;
    let started = std::time::Instant::now();
    let report = loopback::run(&exp).map_err(CliError::runtime)?;
    let topology = format!("{:?}", a.topology).to_lowercase();
    write_run(&out, &exp, &report, cc, &topology, "mpquic-loopback", started.elapsed().as_secs_f64(), |_| {})?;
    out.finish()?;
    print_summary(&a.out);
    flow_errors(&report)
}
