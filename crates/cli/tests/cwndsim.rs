//! `pathpool cwndsim` against [S1] §3-§5.1: the figures of S1 Fig 7, the window splits of
//! LINKED INCREASES (1/p) and UNCOUPLED TCPs (1/sqrt p), LIA's goal 1 on a grid, bad input
//! and determinism.

mod support;
use support::*;

fn cwndsim(algo: &str, loss: &str, rtt: &str, out: &Scratch) -> serde_json::Value {
    let dir = out.0.to_str().unwrap();
    run_ok(
        &["cwndsim", "--algo", algo, "--loss", loss, "--rtt", rtt, "--rounds", "200000", "--seed", "1", "--out", dir],
        &out.0,
    )
}

fn within(x: f64, target: f64, rel: f64) -> bool {
    (x / target - 1.0).abs() <= rel
}

#[test]
#[ignore = "TEMPORARY: waits for the coupled controllers in pathpool-cc"]
fn lia_equal_loss_rtt_5_to_1_matches_s1_fig7() {
    let out = Scratch::new("cwnd-fig7");
    let s = cwndsim("lia", "0.001,0.001", "5,1", &out);
    let (alpha, ratio) = (num(&s, "alpha_mean"), num(&s, "total_over_tcp_best"));
    assert!(within(alpha, 1.389, 0.03), "alpha_mean {alpha}, S1 §5.1: 1.39");
    assert!(within(ratio, 1.0, 0.05), "total_over_tcp_best {ratio}");
    // Equal loss rates: equal windows, so path 1 (RTT 5) carries 1/5 of path 2's rate.
    let w = num(&s, "window_mean_1") / num(&s, "window_mean_2");
    assert!(within(w, 1.0, 0.1), "window ratio {w}");
    assert_eq!(num(&s, "tcp_best_path"), 2.0, "RTT 1 is the better path");
    for f in ["timeseries.csv", "windows.png"] {
        assert!(out.join(f).metadata().map(|m| m.len() > 0).unwrap_or(false), "{f} written");
    }
}

#[test]
#[ignore = "TEMPORARY: waits for the coupled controllers in pathpool-cc"]
fn linked_increases_splits_windows_in_proportion_to_one_over_p() {
    let out = Scratch::new("cwnd-li");
    let s = cwndsim("linked-increases", "0.001,0.004", "1,1", &out);
    let r = num(&s, "window_mean_1") / num(&s, "window_mean_2");
    assert!(within(r, 4.0, 0.15), "w1/w2 = {r}, S1 §3: 1/p split = 4");
}

#[test]
fn uncoupled_splits_windows_in_proportion_to_one_over_sqrt_p() {
    let out = Scratch::new("cwnd-unc");
    let s = cwndsim("uncoupled", "0.001,0.004", "1,1", &out);
    let r = num(&s, "window_mean_1") / num(&s, "window_mean_2");
    assert!(within(r, 2.0, 0.10), "w1/w2 = {r}, S1 §3: 1/sqrt(p) split = 2");
}

/// LIA meets goal 1 ([S1] §1: at least the throughput of TCP on the best path) across
/// loss rates, RTTs and path counts, not only in the two cases above.
///
/// Asserted band: 0.90 to 1.20 of TCP on the best path. Two properties of LIA under random
/// loss (docs/windowsim.md) move it off 1 in opposite directions, and the band is set by them,
/// not by these runs: (i) a subflow that has just halved grows more slowly, since its increase
/// is proportional to its share w_r/w, so windows sit lower than the fluid equilibrium behind
/// the formula for `a` assumes (a few percent below, even with `a` fixed at its equilibrium
/// value); (ii) `a` uses the largest of the fluctuating windows, which overstates it when
/// paths are alike (over 10 % above with three identical paths; [S1] §5.2.2 saw the same,
/// a ~10 % above the ideal with equal RTTs). The grid does tell algorithms apart: UNCOUPLED
/// TCPs fall outside in 7 of the 10 cases (up to 3.0), and FULLY COUPLED, whose increase
/// ignores RTTs, at RTTs 1:10 (0.57) and 1:2:3 (0.77).
#[test]
#[ignore = "TEMPORARY: waits for the coupled controllers in pathpool-cc"]
fn lia_keeps_total_throughput_near_tcp_on_the_best_path() {
    let grid = [
        ("0.001,0.004", "1,1"),
        ("0.001,0.01", "5,1"),
        ("0.01,0.001", "5,1"),
        ("0.0005,0.002", "1,2"),
        ("0.002,0.002", "1,10"),
        ("0.01,0.01", "1,1"),
        ("0.001,0.001,0.001", "1,1,1"),
        ("0.001,0.002,0.004", "1,2,3"),
        ("0.001,0.01,0.005", "5,1,2"),
        ("0.0002,0.002,0.02", "3,1,1"),
    ];
    for (i, (loss, rtt)) in grid.iter().enumerate() {
        let out = Scratch::new(&format!("cwnd-grid-{i}"));
        let s = cwndsim("lia", loss, rtt, &out);
        let ratio = num(&s, "total_over_tcp_best");
        assert!((0.90..=1.20).contains(&ratio), "loss {loss}, rtt {rtt}: total / TCP best = {ratio}");
    }
}

#[test]
fn same_flags_and_seed_give_identical_files() {
    let (a, b) = (Scratch::new("cwnd-det-a"), Scratch::new("cwnd-det-b"));
    cwndsim("olia", "0.002,0.001,0.003", "1,2,3", &a);
    cwndsim("olia", "0.002,0.001,0.003", "1,2,3", &b);
    for f in ["summary.json", "timeseries.csv"] {
        assert_eq!(std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap(), "{f} differs");
    }
    let c = Scratch::new("cwnd-det-c");
    let dir = c.0.to_str().unwrap();
    run_ok(&["cwndsim", "--algo", "olia", "--loss", "0.002,0.001,0.003", "--rtt", "1,2,3", "--rounds", "200000", "--seed", "2", "--out", dir], &c.0);
    assert_ne!(std::fs::read(a.join("summary.json")).unwrap(), std::fs::read(c.join("summary.json")).unwrap(), "the seed matters");
}

#[test]
fn bad_input_is_a_one_line_usage_error_without_output() {
    let tmp = Scratch::new("cwnd-bad");
    std::fs::create_dir_all(&tmp.0).unwrap();
    let out = tmp.join("out");
    let dir = out.to_str().unwrap();
    let base = |algo: &'static str, loss: &'static str, rtt: &'static str| {
        vec!["cwndsim", "--algo", algo, "--loss", loss, "--rtt", rtt, "--rounds", "1000", "--out", dir]
    };
    assert_usage_error(&base("reno-ish", "0.01,0.01", "1,1"), "--algo", &out);
    assert_usage_error(&base("wvegas", "0.01,0.01", "1,1"), "--algo", &out);
    assert_usage_error(&base("lia", "0.01,0.01,0.01", "1,1"), "--rtt", &out);
    assert_usage_error(&base("lia", "0.01", "1"), "--loss", &out);
    for p in ["0,0.01", "1,0.01", "0.01,1.5", "-0.1,0.01", "nan,0.01", "0.01,x"] {
        let args = ["cwndsim", "--algo", "lia", "--loss", p, "--rtt", "1,1", "--rounds", "1000", "--out", dir];
        assert_usage_error(&args, "--loss", &out);
    }
    for r in ["0,1", "1,-2", "inf,1", "1,"] {
        let args = ["cwndsim", "--algo", "lia", "--loss", "0.01,0.01", "--rtt", r, "--rounds", "1000", "--out", dir];
        assert_usage_error(&args, "--rtt", &out);
    }
    let args = ["cwndsim", "--algo", "lia", "--loss", "0.01,0.01", "--rtt", "1,1", "--rounds", "0", "--out", dir];
    assert_usage_error(&args, "--rounds", &out);
    for (algo, a) in [("lia", "1"), ("linked-increases", "0"), ("linked-increases", "-1")] {
        let args = ["cwndsim", "--algo", algo, "--a", a, "--loss", "0.01,0.01", "--rtt", "1,1", "--rounds", "1000", "--out", dir];
        assert_usage_error(&args, "--a", &out);
    }
    // An output folder that cannot be created: its parent is a file.
    let file = tmp.join("file");
    std::fs::write(&file, b"x").unwrap();
    let under_file = file.join("out");
    let args = ["cwndsim", "--algo", "lia", "--loss", "0.01,0.01", "--rtt", "1,1", "--rounds", "1000", "--out", under_file.to_str().unwrap()];
    assert_usage_error(&args, "--out", &under_file);
    let args = ["cwndsim", "--algo", "lia", "--loss", "0.01,0.01", "--rtt", "1,1", "--rounds", "1000", "--out", file.to_str().unwrap()];
    assert_usage_error(&args, "--out", &tmp.join("nonexistent"));
    assert_eq!(std::fs::read(&file).unwrap(), b"x", "the file given as --out is untouched");
}
