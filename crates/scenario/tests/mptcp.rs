//! Multipath flows in scenario files: what is refused, the --cc override, and the metrics of
//! a short run.

use pathpool_scenario::{load_str, mptcp, output, progress::Progress, simulate, summary};

const TWO_PATHS: &str = r#"
[simulation]
hosts = "ideal"
duration = "30s"
warmup = "5s"

[links.a]
from = "s"
to = "d"
rate = "10Mbps"
delay = "10ms"
buffer = 25
queue = "random-tail-drop"

[links.b]
from = "s"
to = "m"
rate = "10Mbps"
delay = "9ms"
buffer = 25
queue = "random-tail-drop"

[links.b2]
from = "m"
to = "d"
rate = "1Gbps"
delay = "1ms"
buffer = 1000

[[flows]]
name = "tcp_a"
route = ["s", "d"]
competitor = true

[[flows]]
name = "tcp_b"
route = ["s", "m", "d"]
competitor = true

[[flows]]
name = "mp"
kind = "mptcp"
cc = "mptcp-sbd"
subflows = [["s", "d"], ["s", "m", "d"]]
"#;

/// A detector key (`line`, e.g. `sbd_corr_min = 0.5`) on a LIA connection is refused when
/// the scenario runs, naming the key and the scheme.
fn refused_on_lia(line: &str) -> String {
    let on_lia = TWO_PATHS.replace("cc = \"mptcp-sbd\"", &format!("cc = \"lia\"\n{line}"));
    let e = simulate(&load_str("mp.toml", &on_lia, &[]).unwrap(), &Progress::hidden()).err().expect("refused").to_string();
    let key = line.split(' ').next().unwrap_or(line);
    assert!(e.contains(&format!("flows.mp.{key}")) && e.contains("\"lia\""), "{e}");
    e
}

fn load_err(text: &str) -> String {
    match load_str("mp.toml", text, &[]) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn meaningless_multipath_settings_are_refused() {
    let one = TWO_PATHS.replace(r#"subflows = [["s", "d"], ["s", "m", "d"]]"#, r#"subflows = [["s", "d"]]"#);
    let e = load_err(&one);
    assert!(e.contains("flows.mp.cc") && e.contains("at least two subflows"), "{e}");
    let nine = TWO_PATHS.replace(r#"subflows = [["s", "d"], ["s", "m", "d"]]"#, &format!("subflows = [{}]", vec![r#"["s", "d"]"#; 9].join(", ")));
    let e = load_err(&nine);
    assert!(e.contains("at most 8"), "{e}");
    let missing = TWO_PATHS.replace(r#"["s", "m", "d"]]"#, r#"["s", "x", "d"]]"#);
    let e = load_err(&missing);
    assert!(e.contains("flows.mp.subflows[1]") && e.contains("\"x\""), "{e}");
    let detector_on_tcp = TWO_PATHS.replace("name = \"tcp_a\"", "name = \"tcp_a\"\ncc = \"mptcp-sbd\"");
    assert!(load_err(&detector_on_tcp).contains("unknown congestion control \"mptcp-sbd\""));
    let subflows_on_tcp = TWO_PATHS.replace("name = \"tcp_a\"", "name = \"tcp_a\"\nsubflows = [[\"s\", \"d\"]]");
    assert!(load_err(&subflows_on_tcp).contains("kind = \"mptcp\""));
    let unknown = TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"olla\"");
    assert!(load_err(&unknown).contains("did you mean 'olia'"), "{}", load_err(&unknown));
}

#[test]
fn cc_override_applies_to_every_connection_and_checks_names() {
    let mut l = load_str("mp.toml", TWO_PATHS, &[]).unwrap();
    assert!(mptcp::override_cc(&mut l, "wobbly").unwrap_err().to_string().contains("--cc"));
    mptcp::override_cc(&mut l, "lia").unwrap();
    let tcp_only = TWO_PATHS.split("[[flows]]\nname = \"mp\"").next().unwrap();
    let mut l = load_str("tcp.toml", tcp_only, &[]).unwrap();
    assert!(mptcp::override_cc(&mut l, "olia").unwrap_err().to_string().contains("no multipath flow"));
}

#[test]
fn a_run_reports_multipath_metrics() {
    let mut l = load_str("mp.toml", TWO_PATHS, &[]).unwrap();
    let run = |l: &pathpool_scenario::Loaded| summary::summary(&simulate(l, &Progress::hidden()).unwrap());
    // The outputs of a run, written into a fresh folder; returns the folder's file names.
    let files = |l: &pathpool_scenario::Loaded, tag: &str| {
        let dir = std::env::temp_dir().join(format!("pathpool-mptcp-files-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let s = output::write_all(&dir, &simulate(l, &Progress::hidden()).unwrap()).unwrap();
        let names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        std::fs::remove_dir_all(&dir).unwrap();
        (s, names)
    };
    let (sbd, names) = files(&l, "sbd");
    for key in ["mptcp_mbps", "tcp_mbps", "sum_ratio", "mptcp.mp.sf0.ratio", "mptcp.mp.sf1.ratio", "observation_accuracy", "decision_accuracy", "groups_1", "groups_2"] {
        assert!(sbd.contains_key(key), "missing {key}");
    }
    assert!(names.contains(&"decisions.csv".to_string()) && names.contains(&"observations.csv".to_string()), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("sender_")) && !sbd.contains_key("sender_decisions"), "no check, no sender files: {names:?}");
    // A checking sender (docs/security.md) writes its own detector's view beside the receiver's.
    let checking = load_str("mp.toml", TWO_PATHS, &["flows.mp.sbd_verify=true".to_string()]).unwrap();
    let (chk, names) = files(&checking, "verify");
    assert!(names.contains(&"sender_decisions.csv".to_string()) && names.contains(&"sender_observations.csv".to_string()), "{names:?}");
    // Both detectors decide every 10 observations of 350 ms (S0), so as often in the window.
    let count = |k: &str| chk[k].as_f64().unwrap();
    assert!((count("sender_decisions") - count("decisions")).abs() <= 1.0, "{} against {}", count("sender_decisions"), count("decisions"));
    for k in ["sender_decision_accuracy", "sender_apart"] {
        assert!((0.0..=1.0).contains(&count(k)), "{k} {}", count(k));
    }
    mptcp::override_cc(&mut l, "uncoupled").unwrap();
    // No detector, no detector files (not header-only ones).
    let (unc, names) = files(&l, "uncoupled");
    assert!(!names.iter().any(|n| n == "decisions.csv" || n == "observations.csv"), "{names:?}");
    // Uncoupled Reno on two disjoint paths, each shared with one Reno flow: about 1.
    let r = unc["sum_ratio"].as_f64().unwrap();
    assert!((0.8..1.25).contains(&r), "uncoupled sum_ratio {r}");
    assert!(!unc.contains_key("decision_accuracy"));
    // Without competing flows there is no TCP rate: 0, not the -0.0 of an empty float sum.
    let alone = run(&load_str("mp.toml", &TWO_PATHS.replace("competitor = true\n", ""), &[]).unwrap());
    assert_eq!(alone["tcp_mbps"].to_string(), "0.0");
    assert!(!alone.contains_key("sum_ratio"));
}

#[test]
fn sbd_feedback_is_checked_against_the_scheme() {
    let bad = TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"mptcp-sbd\"\nsbd_feedback = \"lia\"");
    let e = load_err(&bad);
    assert!(e.contains("flows.mp.sbd_feedback") && e.contains("decisions, olia, reno"), "{e}");
    let on_tcp = TWO_PATHS.replace("name = \"tcp_a\"", "name = \"tcp_a\"\nsbd_feedback = \"reno\"");
    assert!(load_err(&on_tcp).contains("kind = \"mptcp\""));
    // Valid in the file, but --cc olia leaves no detector for it to act on.
    let open = TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"mptcp-sbd\"\nsbd_feedback = \"reno\"");
    let mut l = load_str("mp.toml", &open, &[]).unwrap();
    assert!(simulate(&l, &Progress::hidden()).is_ok());
    mptcp::override_cc(&mut l, "olia").unwrap();
    let e = simulate(&l, &Progress::hidden()).err().expect("refused").to_string();
    assert!(e.contains("flows.mp.sbd_feedback") && e.contains("mptcp-sbd"), "{e}");
    let spacing = TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"lia\"\nsbd_sample_spacing = \"0ms\"");
    let e = simulate(&load_str("mp.toml", &spacing, &[]).unwrap(), &Progress::hidden()).err().expect("refused").to_string();
    assert!(e.contains("flows.mp.sbd_sample_spacing") && e.contains("\"lia\""), "{e}");
    let negative = TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"mptcp-sbd\"\nsbd_sample_spacing = \"-1ms\"");
    assert!(load_err(&negative).contains("flows.mp.sbd_sample_spacing"));
}

#[test]
fn sbd_corr_min_is_checked_and_separates_s0s_disjoint_bottlenecks() {
    let e = load_err(&TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"mptcp-sbd\"\nsbd_corr_min = 1.5"));
    assert!(e.contains("flows.mp.sbd_corr_min") && e.contains("from -1 to 1"), "{e}");
    refused_on_lia("sbd_corr_min = 0.5");

    // S0's NSB-2 and SB-2, 60 s, two seeds (docs/validation.md): with the split the disjoint
    // bottlenecks are told apart; the shared one is judged as without it.
    let files = [
        ("nsb-2.toml", include_str!("../../../scenarios/papers/ferlin2016/nsb-2.toml")),
        ("sb-2.toml", include_str!("../../../scenarios/papers/ferlin2016/sb-2.toml")),
    ];
    for (name, text) in files {
        for seed in 1..=2 {
            let accuracy = |corr: bool| {
                let mut sets = vec!["simulation.duration=60s".to_string(), format!("simulation.seed={seed}"), "flows.mptcp.cc=mptcp-sbd".into(), "flows.mptcp.sbd_detector=mptcp-sbd".into()];
                if corr {
                    sets.push("flows.mptcp.sbd_corr_min=0.5".into());
                }
                let l = load_str(name, text, &sets).unwrap();
                summary::summary(&simulate(&l, &Progress::hidden()).unwrap())["decision_accuracy"].as_f64().unwrap()
            };
            let (plain, split) = (accuracy(false), accuracy(true));
            eprintln!("{name} seed {seed}: decision accuracy {plain:.3}, with the split {split:.3}");
            if name.starts_with("nsb") {
                assert!(split >= 0.9, "{name} seed {seed}: {split} (without the split {plain})");
            } else {
                assert!(split >= plain - 0.05, "{name} seed {seed}: {split} against {plain} without the split");
            }
        }
    }
}

#[test]
fn sbd_detector_is_checked_and_the_pathpool_preset_follows_s0s_shifting_bottleneck_sooner() {
    let e = load_err(&TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"mptcp-sbd\"\nsbd_detector = \"fast\""));
    assert!(e.contains("flows.mp.sbd_detector") && e.contains("pathpool"), "{e}");
    refused_on_lia("sbd_detector = \"pathpool\"");

    // A connection that names no detector runs the `pathpool` preset; reproductions pin S0's.
    let decisions = |sets: &[&str], pin: bool| {
        let mut sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        sets.extend(["simulation.duration=40s", "simulation.warmup=0s", "flows.mptcp.cc=mptcp-sbd"].map(String::from));
        let mut l = load_str("nsb-2.toml", include_str!("../../../scenarios/papers/ferlin2016/nsb-2.toml"), &sets).unwrap();
        if pin {
            pathpool_scenario::mptcp::pin_published_detector(&mut l);
        }
        simulate(&l, &Progress::hidden()).unwrap().multipath.unwrap().connections[0].observations.clone()
    };
    let (default, pathpool, s0) = (decisions(&[], false), decisions(&["flows.mptcp.sbd_detector=pathpool"], false), decisions(&["flows.mptcp.sbd_detector=mptcp-sbd"], false));
    assert_eq!(default, pathpool);
    assert_ne!(default, s0);
    assert_eq!(decisions(&[], true), s0);
    assert_eq!(decisions(&["flows.mptcp.sbd_detector=pathpool"], true), pathpool, "a named detector is kept");
    // `rfc8382`: RFC 8382 §2.2's parameters, which group nothing before 2·M = 60 intervals (21 s).
    let rfc = decisions(&["flows.mptcp.sbd_detector=rfc8382"], false);
    assert!(!rfc.is_empty() && rfc[0].0 >= 21.0 && s0[0].0 < 1.0, "first observations: rfc8382 {:?}, mptcp-sbd {:?}", rfc[0].0, s0[0].0);

    // S0's shifting bottleneck (SB, NSB, SB, NSB, SB; 30 s phases after 20 s): seconds from
    // each shift to the first correct decision, two seeds, with S0's detector and pathpool's.
    let text = include_str!("../../../scenarios/papers/ferlin2016/shift.toml");
    let delays = |detector: &str, seed: u64| -> Vec<Option<f64>> {
        let sets = vec![format!("simulation.seed={seed}"), "flows.mptcp.cc=mptcp-sbd".into(), format!("flows.mptcp.sbd_detector={detector}")];
        let o = simulate(&load_str("shift.toml", text, &sets).unwrap(), &Progress::hidden()).unwrap();
        let c = &o.multipath.as_ref().unwrap().connections[0];
        (1..5)
            .map(|k| {
                let start = 20.0 + 30.0 * k as f64;
                let truth: [u32; 2] = if k % 2 == 0 { [1, 1] } else { [1, 2] };
                c.decisions
                    .iter()
                    .find(|(t, g)| *t >= start && *t < start + 30.0 && pathpool_scenario::mptcp_outcome::correct(g, &truth))
                    .map(|(t, _)| t - start)
            })
            .collect()
    };
    let (mut s0, mut ours) = (Vec::new(), Vec::new());
    for seed in 1..=2 {
        s0.extend(delays("mptcp-sbd", seed));
        ours.extend(delays("pathpool", seed));
    }
    eprintln!("transition delays: mptcp-sbd {s0:?}, pathpool {ours:?}");
    assert!(ours.iter().all(Option::is_some), "pathpool missed a phase: {ours:?}");
    let mean = |v: &[Option<f64>]| v.iter().flatten().sum::<f64>() / v.iter().flatten().count().max(1) as f64;
    assert!(mean(&ours) < mean(&s0) && mean(&ours) < 7.0, "pathpool {ours:?} against mptcp-sbd {s0:?}");
}

#[test]
fn sbd_receiver_and_sbd_verify_are_checked() {
    let e = load_err(&TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"mptcp-sbd\"\nsbd_receiver = \"liar\""));
    assert!(e.contains("flows.mp.sbd_receiver") && e.contains("honest, separate, random, flapping"), "{e}");
    let e = load_err(&TWO_PATHS.replace("cc = \"mptcp-sbd\"", "cc = \"mptcp-sbd\"\nsbd_verify = 1"));
    assert!(e.contains("flows.mp.sbd_verify"), "{e}");
    refused_on_lia("sbd_receiver = \"separate\"");
    refused_on_lia("sbd_verify = true");
}

/// docs/security.md: on S0's SB-2 a receiver that reports "nothing is shared" takes about
/// twice TCP's rate from a trusting sender and about TCP's rate from a checking one; on
/// NSB-2 the check costs an honest receiver no throughput (the files' 140 s, seed 1).
#[test]
fn a_lying_receiver_gains_on_a_trusting_sender_and_not_on_a_checking_one() {
    let run = |file: &str, text: &str, receiver: &str, verify: bool| {
        let sets = vec![
            "flows.mptcp.cc=mptcp-sbd".to_string(),
            format!("flows.mptcp.sbd_receiver={receiver}"),
            format!("flows.mptcp.sbd_verify={verify}"),
        ];
        summary::summary(&simulate(&load_str(file, text, &sets).unwrap(), &Progress::hidden()).unwrap())
    };
    let sb = include_str!("../../../scenarios/papers/ferlin2016/sb-2.toml");
    let ratio = |receiver, verify| run("sb-2.toml", sb, receiver, verify)["sum_ratio"].as_f64().unwrap();
    let honest = ratio("honest", true);
    let (lie_trusted, lie_checked, flap_checked) = (ratio("separate", false), ratio("separate", true), ratio("flapping", true));
    eprintln!("SB-2 sum ratio: honest {honest:.3}, separate trusted {lie_trusted:.3}, checked {lie_checked:.3}, flapping checked {flap_checked:.3}");
    assert!(lie_trusted >= 1.5, "a trusting sender runs two uncoupled subflows: {lie_trusted}");
    assert!(lie_checked <= honest * 1.15 && flap_checked <= honest * 1.15, "checked liars {lie_checked}, {flap_checked} against honest {honest}");
    let nsb = include_str!("../../../scenarios/papers/ferlin2016/nsb-2.toml");
    let rate = |verify| run("nsb-2.toml", nsb, "honest", verify)["mptcp_mbps"].as_f64().unwrap();
    let (trusting, checking) = (rate(false), rate(true));
    assert!(checking >= 0.95 * trusting, "the check costs an honest receiver on disjoint bottlenecks: {checking} against {trusting} Mb/s");
}
