//! Shared bottleneck detection on packet captures (`--pcap FILE`: pcap or pcapng; several
//! files are merged in time order). Two streaming passes (crates/pcap): the
//! first finds the TCP connections, groups MPTCP subflows and chooses each subflow's delay
//! source; the second feeds the samples to the detector. Writes decisions (CSV, JSON), the
//! observations, a timeline figure and a summary naming the connections and their groups.

use crate::args::{DelayArg, DetectArgs};
use crate::config::Config;
use crate::console::Console;
use crate::error::Error;
use crate::support::{Ledger, Minimum, Support};
use crate::verdict::{verdict, Verdict};
use pathpool_pcap::plan::{self, Method, Plan};
use pathpool_pcap::{Addr, DelayChoice, Skip, Sink};
use pathpool_sbd::replay::{Rfc8382Replay, Replay, TrendReplay};
use pathpool_sbd::Observation;
use serde_json::{json, Value};
use crate::write;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Feeds the samples to the configured detector.
enum Driver {
    Sbd(Rfc8382Replay),
    Tr(TrendReplay),
}

/// The detector, and the count of what each of its decisions rests on.
struct Fed {
    driver: Driver,
    ledger: Ledger,
}

impl Sink for Fed {
    fn owd(&mut self, flow: usize, now_ns: u64, owd_ns: i64) {
        if let Driver::Sbd(r) = &mut self.driver {
            self.ledger.sample(flow, now_ns);
            r.owd(flow, now_ns, owd_ns);
        }
    }
    fn rtt(&mut self, flow: usize, now_ns: u64, rtt_ns: u64) {
        self.ledger.sample(flow, now_ns);
        match &mut self.driver {
            // RFC 8382's statistics take any delay with a constant offset; an RTT is the
            // one-way delay plus the reverse path's (docs/pcap.md).
            Driver::Sbd(r) => r.owd(flow, now_ns, rtt_ns.min(i64::MAX as u64) as i64),
            Driver::Tr(r) => r.rtt(flow, now_ns, rtt_ns),
        }
    }
    fn loss(&mut self, flow: usize, now_ns: u64) {
        if let Driver::Sbd(r) = &mut self.driver {
            self.ledger.event(now_ns);
            r.loss(flow, now_ns);
        }
    }
    fn unsampled(&mut self, flow: usize, now_ns: u64) {
        if let Driver::Sbd(r) = &mut self.driver {
            self.ledger.event(now_ns);
            r.unsampled(flow, now_ns);
        }
    }
}

fn err(e: pathpool_pcap::CaptureError) -> Error {
    Error::usage(format!("--pcap {e}"))
}

/// Runs the detector on the captures of `args.pcap`.
pub fn run(args: &DetectArgs, console: &mut dyn Console) -> Result<(), Error> {
    let p = &args.pcap;
    if args.input.is_some() {
        return Err(Error::usage("--input and --pcap: give one of them (a trace CSV or packet captures)"));
    }
    let cfg = Config::build(args.detector, &args.params)?;
    if !(p.sample_spacing_ms.is_finite() && (0.0..=10_000.0).contains(&p.sample_spacing_ms)) {
        return Err(Error::usage(format!("--sample-spacing-ms: expected 0 to 10000 ms, got {}", p.sample_spacing_ms)));
    }
    let spacing_ns = (p.sample_spacing_ms * 1e6).round() as u64;
    let opts = plan::Options {
        sender: p.sender.map(Addr::from),
        delay: match p.delay {
            DelayArg::Auto => DelayChoice::Auto,
            DelayArg::Owd => DelayChoice::Owd,
            DelayArg::Rtt => DelayChoice::Rtt,
        },
        min_packets: p.min_packets,
        spacing_ns,
        skew_correction: !p.no_skew_correction,
    };
    let started = Instant::now();
    // Each capture opened once: a pipe or FIFO is read once, into memory (with a bound).
    let captures = pathpool_pcap::input::Captures::open(&p.files).map_err(err)?;
    let surveyed = pathpool_pcap::survey_of(&captures).map_err(err)?;
    let pass1 = started.elapsed().as_secs_f64();
    let s = &surveyed.survey;
    for (file, cut) in surveyed.files.iter().zip(&surveyed.truncated) {
        if let Some((at, missing)) = cut {
            console.note(&format!("'{file}' ends inside the record at byte {at} ({missing} bytes missing, as when a capture is cut short); that record is ignored"));
        }
    }
    let files = surveyed.files.join("', '");
    if s.records == 0 {
        return Err(Error::usage(format!("--pcap '{files}': the capture holds no packets")));
    }
    let plan = plan::plan(s, &opts);
    if plan.subflows.is_empty() {
        return Err(Error::usage(format!("--pcap '{files}': no TCP data flow to analyse: {}", inventory(s, &plan, &opts))));
    }
    let n = plan.subflows.len();
    if matches!(cfg, Config::Sbd(..)) {
        pathpool_sbd::replay::check_flows(n).map_err(|e| Error::usage(format!("--pcap '{files}': {e} (raise --min-packets or give --sender to analyse fewer)")))?;
    }
    let rtt_only = plan.subflows.iter().all(|f| f.method.is_rtt());
    if matches!(cfg, Config::Tr(_)) && !rtt_only {
        let owd: Vec<&str> = plan.subflows.iter().filter(|f| !f.method.is_rtt()).map(|f| f.name.as_str()).collect();
        return Err(Error::usage(format!(
            "--detector tr needs round-trip times, but {} only give one-way delays here (a capture at the receiver side); use --delay rtt with a capture that holds the sender's data and its ACKs",
            owd.join(", ")
        )));
    }
    let span_ns = s.last_ns.saturating_sub(plan.origin_ns);
    if span_ns / cfg.step_ns() > 50_000_000 {
        let evaluations = format!("the packets span {:.0} s, {} evaluations; at most 50000000", span_ns as f64 / 1e9, span_ns / cfg.step_ns());
        return Err(Error::usage(match surveyed.time_problem() {
            // Wrong capture times, not a long capture: say what is wrong with them.
            Some(what) => format!("--pcap {what} (so {evaluations})"),
            None => format!("--pcap '{files}': {evaluations}"),
        }));
    }
    let driver = match &cfg {
        Config::Sbd(sp, f) => Driver::Sbd(Rfc8382Replay::new(sp.clone(), *f, n)),
        Config::Tr(tp) => Driver::Tr(TrendReplay::new(*tp, n)),
    };
    let minimum = Minimum::of(&cfg);
    let mut fed = Fed { driver, ledger: Ledger::new(minimum, n) };
    let t2 = Instant::now();
    let counts = pathpool_pcap::sample_of(&captures, &plan, spacing_ns, &mut fed).map_err(err)?;
    let pass2 = t2.elapsed().as_secs_f64();
    let replay = match fed.driver {
        Driver::Sbd(r) => r.finish(),
        Driver::Tr(r) => r.finish(),
    };
    // Per decision, per subflow: the samples it rests on.
    let support: Vec<Vec<Support>> = replay.decisions.iter().map(|d| (0..n).map(|i| fed.ledger.support(i, d.time_ns)).collect()).collect();
    if replay.observations.is_empty() {
        return Err(cfg.too_short(&format!("--pcap '{files}': the analysed flows"), span_ns));
    }

    let inputs: Vec<&std::path::Path> = p.files.iter().map(PathBuf::as_path).collect();
    let out = crate::out_folder(&args.out, &inputs)?;
    let names: Vec<String> = plan.subflows.iter().map(|f| f.name.clone()).collect();
    write_groups(&out.path().join("observations.csv"), &replay.observations, &plan, None)?;
    write_groups(&out.path().join("decisions.csv"), &replay.decisions, &plan, Some(&support))?;
    let decisions: Vec<Value> = replay.decisions.iter().map(|d| json!({ "time_s": d.time_ns as f64 / 1e9, "groups": d.groups })).collect();
    write(&out.path().join("decisions.json"), &(serde_json::to_string_pretty(&json!({ "subflows": names, "decisions": decisions })).expect("json") + "\n"))?;
    let text = summary_text(args, &surveyed, &plan, &counts, &replay, &support);
    write(&out.path().join("summary.txt"), &text)?;
    let summary = json!({
        "detector": args.detector.name(),
        "files": surveyed.files,
        "records": s.records,
        "tcp_segments": s.tcp_segments,
        // Copies of a frame (same addresses, ports, sequence, IP ID and TSval within
        // dedup::WINDOW_NS), dropped before the analysis: never counted as losses.
        "duplicates_dropped": s.duplicates,
        // Of them, copies of a frame of another --pcap file (one link captured twice).
        "duplicates_across_files": surveyed.copies_across_files,
        "duplicate_window_ms": pathpool_pcap::dedup::WINDOW_NS as f64 / 1e6,
        "skipped": Skip::ALL.iter().zip(s.skipped).filter(|(_, n)| *n > 0).map(|(k, n)| (k.describe().to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
        "records_out_of_order": s.out_of_order,
        // TCP flow directions seen; those without data beyond the survey's bound are
        // forgotten (crates/pcap/src/survey.rs, PENDING).
        "flow_directions": s.directions(),
        "flow_directions_forgotten": s.forgotten(),
        "time_origin_ns": plan.origin_ns,
        "span_s": span_ns as f64 / 1e9,
        "connections": plan.connections.iter().map(|c| json!({
            "name": c.name,
            "mptcp_token": c.token.map(|t| format!("{t:08x}")),
            "subflows": c.subflows.iter().map(|&i| subflow_json(&plan, &counts, &support, i)).collect::<Vec<_>>(),
            "answer": (c.subflows.len() > 1).then(|| answer_json(&plan, &c.subflows, &verdict(&c.subflows, &replay.decisions, &support))),
        })).collect::<Vec<_>>(),
        // Every analysed flow together (the TCP flows of a host, or several connections).
        "answer_all_flows": (plan.connections.len() > 1).then(|| answer_json(&plan, &(0..n).collect::<Vec<_>>(), &verdict(&(0..n).collect::<Vec<_>>(), &replay.decisions, &support))),
        // The rule (crates/detect/src/verdict.rs): an answer only when this share of
        // the full-window decisions agree.
        "answer_agreement": crate::verdict::AGREEMENT,
        // What a decision must rest on (crates/detect/src/support.rs): samples in the
        // last `window` intervals of `interval_s`, at least `intervals_with_samples` of them
        // holding one, one in the last `recent`, `samples` in all, and a full window since the
        // subflow's first sample; decisions below it are flagged (decisions.csv below_min).
        "sample_minimum": json!({
            "interval_s": minimum.width_ns as f64 / 1e9,
            "window": minimum.window,
            "recent": minimum.recent,
            "intervals_with_samples": minimum.intervals,
            "samples": minimum.samples,
        }),
        "left_out": plan.left_out.iter().map(|(k, why)| json!({ "flow": k, "why": why })).collect::<Vec<_>>(),
        // Flows with data enough but no valid delay signal where the capture was taken.
        "cannot_tell": plan.left_out.iter().filter(|(_, why)| why.starts_with("cannot tell")).map(|(k, why)| json!({ "flow": k, "why": why })).collect::<Vec<_>>(),
        "sample_spacing_ms": p.sample_spacing_ms,
        "evaluations": replay.evaluations,
        "observations": replay.observations.len(),
        "decisions": replay.decisions.len(),
        // Speed (BENCHMARKS.md): the survey pass decodes every frame; the sample pass decodes
        // every frame again and feeds the detector.
        "survey_seconds": pass1,
        "sample_seconds": pass2,
        "survey_packets_per_second": s.records as f64 / pass1.max(1e-9),
        "packets_per_second": s.records as f64 / (pass1 + pass2).max(1e-9),
    });
    write(&out.path().join("summary.json"), &(serde_json::to_string_pretty(&summary).expect("json") + "\n"))?;
    timeline(&out.path().join("timeline.png"), &replay, &plan)?;
    console.say(&format!("{text}-> {}\n", out.target().display()));
    out.finish().map_err(Error::runtime)?;
    Ok(())
}

fn method_text(f: &plan::Subflow) -> String {
    match f.method {
        Method::MpTimestamp => "one-way delay from MPTCP-SBD's MP_TIMESTAMP".into(),
        Method::TsOwd => match f.drift_fit {
            // The drift is removed only outside its own 99.9 % interval (crates/pcap/src/drift.rs).
            Some(d) if d.significant() => format!("one-way delay from TSval (clock {}; drift of {:+.1} ppm removed, fit {:+.1} ± {:.1} ppm)", tick_text(f.tick_ns), f.drift * 1e6, d.slope * 1e6, d.half_width * 1e6),
            Some(d) => format!("one-way delay from TSval (clock {}; no significant drift: fit {:+.1} ± {:.1} ppm, none removed)", tick_text(f.tick_ns), d.slope * 1e6, d.half_width * 1e6),
            None => format!("one-way delay from TSval (clock {})", tick_text(f.tick_ns)),
        },
        Method::TsEcho => "round-trip time by TSecr echo".into(),
        Method::SeqAck => "round-trip time by seq/ACK matching (Karn's rule)".into(),
    }
}

fn vantage_text(f: &plan::Subflow) -> String {
    let lag = f.ack_lag_ns.map_or(String::new(), |l| format!(", ACKs {:.1} ms after the data", l as f64 / 1e6));
    match f.vantage {
        plan::Vantage::Unknown => "capture point unknown (no timestamps)".into(),
        v => format!("captured at the {} (delay spread {:.3} ms{lag})", v.name(), f.owd_spread_ns / 1e6),
    }
}

fn tick_text(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.4} ms per tick", ns / 1e6)
    } else {
        format!("{:.4} us per tick", ns / 1e3)
    }
}

/// A verdict for summary.json: the grouping as groups of subflow names, the counts, and
/// `cannot_tell` with the reason when the decisions do not settle it.
fn answer_json(plan: &Plan, subflows: &[usize], v: &Verdict) -> Value {
    json!({
        "grouping": grouping_text(plan, subflows, &v.grouping),
        "decisions": v.decisions,
        "agreeing": v.agreeing,
        "runner_up": v.runner_up.as_ref().map(|(g, k)| json!({ "grouping": grouping_text(plan, subflows, g), "decisions": k })),
        "settled": v.settled(),
        "cannot_tell": v.why_not(),
    })
}

/// `{a, b}  {c}  not bottlenecked: d` for labels of `subflows` (as `group_text`).
fn grouping_text(plan: &Plan, subflows: &[usize], labels: &[u32]) -> String {
    let mut full = vec![0u32; plan.subflows.len()];
    let mut members = vec![false; plan.subflows.len()];
    for (&i, &g) in subflows.iter().zip(labels) {
        full[i] = g;
        members[i] = true;
    }
    group_text_of(plan, &Observation { time_ns: 0, groups: full }, &members)
}

fn subflow_json(plan: &Plan, counts: &[pathpool_pcap::Counts], support: &[Vec<Support>], i: usize) -> Value {
    let f = &plan.subflows[i];
    let rests: Vec<u64> = support.iter().map(|d| d[i].samples).collect();
    json!({
        "index": i,
        "name": f.name,
        "flow": f.key.to_string(),
        "delay": f.method.name(),
        "tsval_tick_ns": f.tick_ns,
        "owd_spread_ms": f.owd_spread_ns / 1e6,
        // From the data (crates/pcap/src/plan.rs, Vantage): the spread says whether a queue
        // lies before the capture point, the lag to the echoing ACKs how far the receiver is.
        "vantage": f.vantage.name(),
        "ack_lag_ms": f.ack_lag_ns.map(|l| l as f64 / 1e6),
        "drift_removed_ppm": f.drift * 1e6,
        "drift_fit_ppm": f.drift_fit.map(|d| d.slope * 1e6),
        "drift_ci999_ppm": f.drift_fit.map(|d| d.half_width * 1e6),
        "data_packets": f.data_packets,
        "payload_bytes": f.payload_bytes,
        "samples": counts[i].samples,
        "losses": counts[i].losses,
        "unsampled": counts[i].unsampled,
        "decisions": support.len(),
        "decisions_below_min": support.iter().filter(|d| d[i].below_min).count(),
        "samples_per_decision_min": rests.iter().min(),
        "samples_per_decision_max": rests.iter().max(),
    })
}

/// What the capture held, for the error when nothing could be analysed.
fn inventory(s: &pathpool_pcap::Survey, plan: &Plan, o: &plan::Options) -> String {
    let mut t = format!("{} packets, {} TCP segments in {} flow directions", s.records, s.tcp_segments, s.directions());
    for (k, n) in Skip::ALL.iter().zip(s.skipped) {
        if n > 0 {
            let _ = write!(t, "; {n} {}", k.describe());
        }
    }
    if let Some(r) = s.first_malformed {
        let _ = write!(t, " (the first is packet {r})");
    }
    if let Some(a) = o.sender {
        if !s.dirs.iter().any(|d| d.key.src == a && d.data_packets > 0) {
            let _ = write!(t, "; no TCP data comes from --sender {a}");
        }
    }
    for (k, why) in plan.left_out.iter().take(5) {
        let _ = write!(t, "; {k}: {why}");
    }
    t
}

fn group_text(plan: &Plan, d: &Observation) -> String {
    group_text_of(plan, d, &vec![true; d.groups.len()])
}

/// The groups of the subflows marked in `members`.
fn group_text_of(plan: &Plan, d: &Observation, members: &[bool]) -> String {
    let mut groups: Vec<(u32, Vec<&str>)> = Vec::new();
    for (i, &g) in d.groups.iter().enumerate().filter(|(i, _)| members[*i]) {
        let name = plan.subflows[i].name.split(' ').next().unwrap_or("");
        match groups.iter_mut().find(|(x, _)| *x == g) {
            Some((_, v)) => v.push(name),
            None => groups.push((g, vec![name])),
        }
    }
    groups.sort_by_key(|(g, _)| *g);
    groups
        .iter()
        .map(|(g, v)| if *g == 0 { format!("not bottlenecked: {}", v.join(", ")) } else { format!("{{{}}}", v.join(", ")) })
        .collect::<Vec<_>>()
        .join("  ")
}

fn summary_text(args: &DetectArgs, surveyed: &pathpool_pcap::Surveyed, plan: &Plan, counts: &[pathpool_pcap::Counts], r: &Replay, support: &[Vec<Support>]) -> String {
    let s = &surveyed.survey;
    let mut t = String::new();
    let _ = writeln!(t, "{} packets, {} TCP segments; detector {}", s.records, s.tcp_segments, args.detector.name());
    if s.duplicates > 0 {
        let across = match surveyed.copies_across_files {
            0 => String::new(),
            n => format!(", {n} of them copies of a frame of another --pcap file (the same link captured twice, or one file given twice)"),
        };
        let _ = writeln!(
            t,
            "{} duplicate frames dropped (copies of a frame within {} ms: same addresses, ports, sequence, IP ID and TSval{across}); not counted as losses",
            s.duplicates,
            pathpool_pcap::dedup::WINDOW_NS / 1_000_000
        );
    }
    if s.forgotten() > 0 {
        let _ = writeln!(
            t,
            "{} flow directions without data (of {} seen; a SYN flood or a scan?) were forgotten to bound memory (at most {} held); a connection whose handshake was among them is analysed without its SYN time and MPTCP keys",
            s.forgotten(),
            s.directions(),
            2 * pathpool_pcap::survey::PENDING
        );
    }
    for c in &plan.connections {
        let _ = writeln!(t, "connection {} ({} subflow{})", c.name, c.subflows.len(), if c.subflows.len() == 1 { "" } else { "s" });
        for &i in &c.subflows {
            let f = &plan.subflows[i];
            let _ = writeln!(t, "  {}: {}; {}; {} samples, {} losses", f.name, vantage_text(f), method_text(f), counts[i].samples, counts[i].losses);
            let below = support.iter().filter(|d| d[i].below_min).count();
            if below > 0 {
                let _ = writeln!(t, "    {below} of {} decisions rest on fewer samples than the detector's minimum (decisions.csv below_min)", support.len());
            }
        }
        if c.subflows.len() > 1 {
            let _ = writeln!(t, "  answer: {}", answer_text(plan, &c.subflows, &verdict(&c.subflows, &r.decisions, support)));
        }
    }
    if plan.connections.len() > 1 {
        let all: Vec<usize> = (0..plan.subflows.len()).collect();
        let _ = writeln!(t, "answer for all flows: {}", answer_text(plan, &all, &verdict(&all, &r.decisions, support)));
    }
    for (k, why) in &plan.left_out {
        let _ = writeln!(t, "left out {k}: {why}");
    }
    let Some(last) = r.decisions.last() else {
        let _ = writeln!(t, "{} observations, no decision yet (the filter needs a full window)", r.observations.len());
        return t;
    };
    let first = r.decisions.first().expect("non-empty");
    let _ = writeln!(t, "{} decisions from {:.1} s to {:.1} s", r.decisions.len(), first.time_ns as f64 / 1e9, last.time_ns as f64 / 1e9);
    // The partitions seen, most frequent first: the answer and how steady it was.
    let mut seen: Vec<(String, usize)> = Vec::new();
    for d in &r.decisions {
        let g = group_text(plan, d);
        match seen.iter_mut().find(|(x, _)| *x == g) {
            Some((_, k)) => *k += 1,
            None => seen.push((g, 1)),
        }
    }
    seen.sort_by(|a, b| b.1.cmp(&a.1));
    for (g, k) in seen.iter().take(4) {
        let _ = writeln!(t, "  {:5.1} % of decisions: {g}", 100.0 * *k as f64 / r.decisions.len() as f64);
    }
    let _ = writeln!(t, "last decision ({:.1} s): {}", last.time_ns as f64 / 1e9, group_text(plan, last));
    t
}

fn answer_text(plan: &Plan, subflows: &[usize], v: &Verdict) -> String {
    match v.why_not() {
        None => format!("{} in {} of {} full-window decisions", grouping_text(plan, subflows, &v.grouping), v.agreeing, v.decisions),
        Some(why) => match &v.runner_up {
            Some((g, _)) => format!("cannot tell: {why} (most frequent {}, next {})", grouping_text(plan, subflows, &v.grouping), grouping_text(plan, subflows, g)),
            None => format!("cannot tell: {why}"),
        },
    }
}

/// `time_s,subflow,connection,group`; with `support` (decisions) also the delay signal, the
/// samples the decision rests on, the intervals holding them and the below-minimum flag.
fn write_groups(path: &Path, rows: &[Observation], plan: &Plan, support: Option<&[Vec<Support>]>) -> Result<(), Error> {
    let mut text = String::from("time_s,subflow,connection,group");
    text.push_str(if support.is_some() { ",delay,samples,intervals_with_samples,below_min\n" } else { "\n" });
    for (k, o) in rows.iter().enumerate() {
        let time = o.time_ns as f64 / 1e9;
        for (i, (f, g)) in plan.subflows.iter().zip(&o.groups).enumerate() {
            let sub = f.name.split(' ').next().unwrap_or("");
            let _ = write!(text, "{time:.6},{sub},{},{g}", plan.connections[f.conn].name);
            match support {
                Some(s) => {
                    let x = s[k][i];
                    let _ = writeln!(text, ",{},{},{},{}", f.method.name(), x.samples, x.intervals, x.below_min as u8);
                }
                None => text.push('\n'),
            }
        }
    }
    write(path, &text)
}

/// Group of each subflow over time (decisions as steps; 0 = not bottlenecked), each subflow
/// lifted a little so that equal groups stay visible.
fn timeline(path: &Path, r: &Replay, plan: &Plan) -> Result<(), Error> {
    let rows = if r.decisions.is_empty() { &r.observations } else { &r.decisions };
    let series = plan
        .subflows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let pts = rows.iter().map(|d| (d.time_ns as f64 / 1e9, d.groups[i] as f64 + 0.06 * i as f64)).collect();
            pathpool_plot::Series::step(f.name.split(' ').next().unwrap_or(""), pts)
        })
        .collect();
    let panel = pathpool_plot::Panel {
        title: "Shared bottleneck groups per subflow (equal group = shared bottleneck; 0 = none)".into(),
        x_label: "time since the first connection opened (s)".into(),
        y_label: "group".into(),
        series,
    };
    pathpool_plot::line_panels(path, &[panel], 1000, 360).map_err(|e| Error::runtime(format!("'{}': {e}", path.display())))
}
