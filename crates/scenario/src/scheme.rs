//! A multipath connection's scheme as the simulator runs it: the scenario's scheme name
//! (`pathpool_cc::Scheme`) and `sbd_*` keys turned into `MultipathCc`.

use crate::convert;
use pathpool_cc::{Algorithm, Scheme};
use pathpool_experiment::mptcp::{check_name, first_sbd_key, S2_HOLD_S};
use pathpool_experiment::schema::MptcpSpec;
use pathpool_sim::{time, MultipathCc, SbdFeedback, SbdPolicy, VerifyFollow, VerifyStart};

/// The simulator's form of scheme `name` (one of `pathpool_cc::Scheme`'s names).
pub fn scheme(name: &str) -> Result<MultipathCc, String> {
    check_name(name)?;
    let scheme: Scheme = name.parse()?;
    Ok(match scheme {
        // S1 §2 and §3's baselines (fully-coupled, linked-increases) included.
        Scheme::Window(a) => MultipathCc::Coupled(a),
        Scheme::MptcpSbd => MultipathCc::MptcpSbd(SbdPolicy::default()),
        // MPTCP-SBD coupling per bottleneck group of a pairwise sharing relation (docs/sbd.md,
        // "Beyond partitions: pairwise sharing"; pathpool's extension).
        Scheme::MptcpSbdPairwise => MultipathCc::MptcpSbd(SbdPolicy { pairwise: true, ..SbdPolicy::default() }),
        // S2 §5.2's SSC-LIA: MPTCP-SBD's receiver-side RFC 8382 grouping switching LIA on in
        // S2's harness (uncoupled at first, coupled for 100 s after each grouping decision).
        Scheme::SscLia => MultipathCc::MptcpSbd(SbdPolicy { coupled: Algorithm::Lia, feedback: SbdFeedback::Switch { hold: time::secs(S2_HOLD_S) }, ..SbdPolicy::default() }),
        Scheme::TrLia => MultipathCc::TrLia { hold: time::secs(S2_HOLD_S) },
    })
}

/// The scheme of connection `m` (after any `--cc`), with its `sbd_*` keys applied; such a
/// key on a scheme without the MPTCP-SBD detector is an error.
pub fn scheme_of(m: &MptcpSpec) -> Result<MultipathCc, String> {
    let mut cc = scheme(&m.cc.value)?;
    match (&mut cc, first_sbd_key(m)) {
        (MultipathCc::MptcpSbd(p), _) => {
            p.feedback = m.sbd_feedback.as_ref().map_or(p.feedback, |f| convert::feedback(f.value));
            p.sample_spacing = m.sbd_sample_spacing.as_ref().map_or(p.sample_spacing, |s| s.value);
            p.corr_min = m.sbd_corr_min.as_ref().map(|c| c.value).or(p.corr_min);
            p.report = m.sbd_receiver.as_ref().map_or(p.report, |r| convert::report(r.value));
            p.verify = m.sbd_verify.as_ref().map_or(p.verify, |v| v.value);
            p.verify_follow = match m.sbd_verify_follow.as_ref().map(|v| v.value.as_str()) {
                Some("intervals") => VerifyFollow::Intervals,
                Some("rises") => VerifyFollow::Rises,
                _ => p.verify_follow,
            };
            p.verify_start = match m.sbd_verify_start.as_ref().map(|v| v.value.as_str()) {
                Some("evidence") => VerifyStart::Evidence,
                Some("decisions") => VerifyStart::Decisions,
                _ => p.verify_start,
            };
            // A connection that names no detector runs its scheme's preset (the scheme table's,
            // `pathpool_cc::Scheme::detector`): for `mptcp-sbd` the recommended `pathpool`
            // (docs/sbd.md, "The pathpool preset"): the split (at sbd_corr_min if given) and
            // the change detector (pathpool_sbd::SbdParams::pathpool). "mptcp-sbd" is [S0]'s,
            // which the reproductions name (`pin_published_detector`) and which
            // `mptcp-sbd-pairwise` runs: the change detector's memory restarts leave the pair
            // relation's correlations too few intervals, and on overlapping paths with TCP
            // flows it then misses shared links (docs/sbd.md, "Beyond partitions: pairwise
            // sharing"); "rfc8382" is RFC 8382 §2.2's parameters with [S0]'s decision filter.
            let preset = pathpool_experiment::mptcp::detector_preset(m).unwrap_or("");
            if m.sbd_detector.as_ref().map_or(preset, |d| d.value.as_str()) == "pathpool" {
                p.corr_min = p.corr_min.or(Some(pathpool_sbd::CORR_MIN));
                p.change_detect = true;
            }
            p.rfc8382 = m.sbd_detector.as_ref().is_some_and(|d| d.value == "rfc8382");
        }
        (_, Some(path)) => return Err(format!("{path}: applies only to cc = \"mptcp-sbd\" or \"ssc-lia\", this connection runs \"{}\"", m.cc.value)),
        _ => {}
    }
    Ok(cc)
}
