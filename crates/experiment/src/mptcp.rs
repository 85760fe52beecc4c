//! Multipath flows in scenario files (`kind = "mptcp"`): their keys, the names of the
//! multipath congestion-control schemes, and the `--cc` override. What a scheme is on a
//! backend is the backend's (the simulator's: `pathpool_scenario::scheme`).

use crate::error::{Result, ScenarioError};
use crate::fields::{Fields, Located};
use crate::schema::{FlowKind, MptcpSpec, ReceiverReport, SbdFeedback, Scheduler, TcpSpec};
use crate::suggest::did_you_mean;
use crate::tree::Kind;
use crate::units::PS_PER_SEC;
use pathpool_cc::Scheme;

/// S2 §5.2: back to uncoupled after 100 s without a positive decision (TR-LIA and SSC-LIA).
pub const S2_HOLD_S: u64 = 100;

/// The most subflows a connection may have (the simulator's limit, and Linux MPTCP's).
pub const MAX_SUBFLOWS: usize = 8;

/// A scheme name `cc` and `--cc` accept (one of `pathpool_cc::Scheme`'s); the error names the
/// known ones, or the scheme's new name if it was renamed.
pub fn check_name(name: &str) -> std::result::Result<(), String> {
    name.parse::<Scheme>().map(|_| ()).map_err(|e| match Scheme::renamed(name) {
        Some(_) => e,
        None => {
            let hint = did_you_mean(name, Scheme::names());
            format!("unknown multipath congestion control \"{name}\"{hint}; expected one of: {}", Scheme::names().collect::<Vec<_>>().join(", "))
        }
    })
}

/// Schemes whose receiver runs MPTCP-SBD's shared-bottleneck detector (S0 §III; S2 §5.2's
/// SSC-LIA): the ones the `sbd_*` keys apply to.
pub fn runs_sbd_detector(name: &str) -> bool {
    matches!(name.parse::<Scheme>(), Ok(Scheme::MptcpSbd | Scheme::MptcpSbdPairwise | Scheme::SscLia))
}

/// Schemes that group subflows by a detector of shared bottlenecks (MPTCP-SBD's, or S2's
/// TR-LIA's own), which needs at least two subflows.
pub fn runs_a_detector(name: &str) -> bool {
    runs_sbd_detector(name) || name.parse::<Scheme>() == Ok(Scheme::TrLia)
}

/// The `subflows` lists, each checked like a route.
fn subflows(f: &Fields) -> Result<Vec<Located<Vec<String>>>> {
    let Some(node) = f.get("subflows") else {
        return Err(f.missing("subflows", "a list of routes, one per subflow, like [[\"a\", \"b\"], [\"a\", \"c\", \"b\"]]"));
    };
    let Kind::Array(items) = &node.kind else {
        return Err(f.error("subflows", "expected a list of routes, like [[\"a\", \"b\"], [\"a\", \"c\", \"b\"]]"));
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = format!("{}[{i}]", f.path("subflows"));
        let err = |m: String| f.src().error(&item.origin, &path, m);
        let Kind::Array(nodes) = &item.kind else { return Err(err(format!("expected a route (a list of node names), got {}", item.kind.type_name()))) };
        let mut names = Vec::with_capacity(nodes.len());
        for n in nodes {
            match &n.kind {
                Kind::Str(s) => names.push(s.clone()),
                other => return Err(err(format!("expected node names (strings), got {}", other.type_name()))),
            }
        }
        if names.len() < 2 {
            return Err(err("a route needs at least two nodes, sender first and receiver last".into()));
        }
        out.push(Located { value: names, origin: item.origin.clone(), path });
    }
    Ok(out)
}

/// The first subflow stands for the connection's `route` (sender and receiver nodes).
pub(crate) fn first_subflow(f: &Fields) -> Result<Located<Vec<String>>> {
    subflows(f)?.into_iter().next().ok_or_else(|| f.error("subflows", "needs at least one subflow route"))
}

pub(crate) fn decode(f: &Fields, tcp: TcpSpec, has_count: bool) -> Result<MptcpSpec> {
    for key in ["traffic", "rate", "size", "competitor", "log_delays"] {
        f.only_with(key, "kind = \"tcp\" (a multipath connection is always bulk)")?;
    }
    let subflows = subflows(f)?;
    if subflows.is_empty() {
        return Err(f.error("subflows", "needs at least one subflow route"));
    }
    if subflows.len() > MAX_SUBFLOWS {
        return Err(f.error("subflows", format!("{} subflows; at most {MAX_SUBFLOWS} are supported", subflows.len())));
    }
    let (first, last) = (&subflows[0].value[0], subflows[0].value.last());
    for s in &subflows {
        if &s.value[0] != first || s.value.last() != last {
            return Err(f.src().error(&s.origin, &s.path, format!("every subflow must lead from the sender \"{first}\" to the receiver \"{}\"", last.map_or("", |x| x))));
        }
        if !has_count && s.value.iter().any(|n| n.contains("{i}")) {
            return Err(f.src().error(&s.origin, &s.path, "{i} stands for the copy index and needs count = N on the flow"));
        }
    }
    let cc = f.string("cc")?.unwrap_or_else(|| f.located("cc", "olia".to_string()));
    check_scheme(&cc.value, subflows.len()).map_err(|m| f.error("cc", m))?;
    let scheduler = match f.choice("scheduler", &["lowest-rtt", "round-robin"])? {
        Some(s) if s.value == "round-robin" => Scheduler::RoundRobin,
        _ => Scheduler::LowestRtt,
    };
    let receive_buffer = match f.get("receive_buffer") {
        None => None,
        Some(_) => Some(f.int("receive_buffer", 1, 1 << 40)?.unwrap_or(1) as u64),
    };
    let sbd_feedback = f.choice("sbd_feedback", &["decisions", "olia", "reno", "switch"])?.map(|c| {
        let value = match c.value.as_str() {
            "olia" => SbdFeedback::FixedOlia,
            "reno" => SbdFeedback::FixedReno,
            "switch" => SbdFeedback::Switch { hold: S2_HOLD_S * PS_PER_SEC },
            _ => SbdFeedback::Decisions,
        };
        Located { value, origin: c.origin, path: c.path }
    });
    let sbd_sample_spacing = f.time("sbd_sample_spacing")?.map(|t| f.located("sbd_sample_spacing", t));
    let sbd_corr_min = f.number("sbd_corr_min", -1.0, 1.0)?.map(|c| f.located("sbd_corr_min", c));
    let sbd_detector = f.choice("sbd_detector", &["mptcp-sbd", "pathpool", "rfc8382"])?;
    let sbd_receiver = f.choice("sbd_receiver", &["honest", "separate", "random", "flapping"])?.map(|c| {
        let value = match c.value.as_str() {
            "separate" => ReceiverReport::Separate,
            "random" => ReceiverReport::Random,
            "flapping" => ReceiverReport::Flapping,
            _ => ReceiverReport::Honest,
        };
        Located { value, origin: c.origin, path: c.path }
    });
    let sbd_verify = f.bool("sbd_verify")?.map(|v| f.located("sbd_verify", v));
    let sbd_verify_follow = f.choice("sbd_verify_follow", &["decisions", "intervals", "rises"])?;
    let sbd_verify_start = f.choice("sbd_verify_start", &["decisions", "evidence"])?;
    Ok(MptcpSpec { tcp, subflows, cc, scheduler, receive_buffer, sbd_feedback, sbd_sample_spacing, sbd_corr_min, sbd_detector, sbd_receiver, sbd_verify, sbd_verify_follow, sbd_verify_start })
}

/// A known scheme that makes sense for `n` subflows.
fn check_scheme(name: &str, n: usize) -> std::result::Result<(), String> {
    check_name(name)?;
    if runs_a_detector(name) && n < 2 {
        return Err(format!("\"{name}\" runs a shared-bottleneck detector, which needs at least two subflows (this connection has {n})"));
    }
    Ok(())
}

/// The first `sbd_*` key connection `m` gives, by its dotted path (None: it gives none).
pub fn first_sbd_key(m: &MptcpSpec) -> Option<&str> {
    m.sbd_feedback
        .as_ref()
        .map(|f| &f.path)
        .or(m.sbd_sample_spacing.as_ref().map(|s| &s.path))
        .or(m.sbd_corr_min.as_ref().map(|c| &c.path))
        .or(m.sbd_detector.as_ref().map(|d| &d.path))
        .or(m.sbd_receiver.as_ref().map(|r| &r.path))
        .or(m.sbd_verify.as_ref().map(|v| &v.path))
        .or(m.sbd_verify_follow.as_ref().map(|v| &v.path))
        .or(m.sbd_verify_start.as_ref().map(|v| &v.path))
        .map(String::as_str)
}

/// The detector preset connection `m` runs ("pathpool", "mptcp-sbd" or "rfc8382"), as
/// `scheme_of` chooses it; None for a scheme without MPTCP-SBD's detector.
pub fn detector_preset(m: &MptcpSpec) -> Option<&'static str> {
    if !runs_sbd_detector(&m.cc.value) {
        return None;
    }
    Some(match m.sbd_detector.as_ref().map(|d| d.value.as_str()) {
        Some("pathpool") => "pathpool",
        Some("rfc8382") => "rfc8382",
        Some(_) => "mptcp-sbd",
        None => default_detector(&m.cc.value),
    })
}

/// The preset of scheme `name` when a connection names none (the scheme table's).
fn default_detector(name: &str) -> &'static str {
    name.parse::<Scheme>().ok().and_then(Scheme::detector).unwrap_or("")
}

/// Reproductions of published results run the published detector: every multipath connection
/// whose scheme runs MPTCP-SBD's detector and that names none gets [S0]'s (`mptcp-sbd`)
/// instead of the default `pathpool` preset. Call it after any `--cc`.
pub fn pin_published_detector(loaded: &mut crate::Loaded) {
    for flow in &mut loaded.scenario.flows {
        if let FlowKind::Mptcp(m) = &mut flow.kind {
            if m.sbd_detector.is_none() && runs_sbd_detector(&m.cc.value) {
                let path = format!("{}sbd_detector", m.cc.path.strip_suffix("cc").unwrap_or(&m.cc.path));
                m.sbd_detector = Some(Located { value: "mptcp-sbd".to_string(), origin: m.cc.origin.clone(), path });
            }
        }
    }
}

/// `--cc NAME`: every multipath connection of the scenario runs scheme NAME.
pub fn override_cc(loaded: &mut crate::Loaded, name: &str) -> std::result::Result<(), ScenarioError> {
    let fail = |m: String| ScenarioError::file(&loaded.source.name, m);
    check_name(name).map_err(|m| fail(format!("--cc: {m}")))?;
    let mut any = false;
    for flow in &mut loaded.scenario.flows {
        if let FlowKind::Mptcp(m) = &mut flow.kind {
            check_scheme(name, m.subflows.len()).map_err(|e| fail(format!("--cc: flow {}: {e}", flow.name.value)))?;
            m.cc.value = name.to_string();
            any = true;
        }
    }
    if !any {
        return Err(fail("--cc: the scenario has no multipath flow (kind = \"mptcp\") to apply it to".into()));
    }
    Ok(())
}
