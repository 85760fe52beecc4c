//! The testbed runs exactly the schemes the scheme table (`pathpool_cc::Scheme`) lists for
//! Linux, each on the controller the kernel crate derives for it; any other is refused naming
//! the key. No root needed: this checks the plan, not a run.

use pathpool_cc::{Backend, Scheme};
use pathpool_kernel::LinuxCc;
use pathpool_testbed::support::{check, Checked};

const TWO_PATHS: &str = include_str!("../../scenario/tests/fixtures/two_paths_mptcp.toml");

#[test]
fn the_testbed_runs_exactly_the_schemes_the_table_lists_for_linux() {
    let kernel_ccs = vec!["reno".to_string(), "cubic".to_string()];
    let mut on_linux = 0;
    for scheme in Scheme::all() {
        let l = pathpool_experiment::load_str("schemes.toml", &format!("{TWO_PATHS}cc = \"{scheme}\"\n"), &[]).expect("every scheme loads");
        let got = check(&l, &kernel_ccs);
        match (pathpool_kernel::linux_cc(scheme), got) {
            (Some(LinuxCc::Stock(cc) | LinuxCc::Bpf(cc)), Ok(flows)) => {
                on_linux += 1;
                assert!(matches!(&flows[0], Checked::Mptcp { tcp, .. } if tcp.cc == cc), "{scheme}: runs {:?}, the table says {cc}", flows[0]);
            }
            // A BPF scheme in a build without the controllers is refused with the reason.
            (Some(LinuxCc::Bpf(cc)), Err(e)) => {
                let why = pathpool_kernel::buildable().expect_err(&format!("{scheme}: refused although the controllers are built: {e}"));
                assert!(e.to_string().contains(cc) && e.to_string().contains(&why), "{e}");
                on_linux += 1;
            }
            (None, Err(e)) => {
                let e = e.to_string();
                assert!(e.contains("flows.mp.cc") && e.contains("no kernel implementation"), "{scheme}: {e}");
            }
            (expected, got) => panic!("{scheme}: the table says {expected:?}, the testbed {:?}", got.map(|_| ()).map_err(|e| e.to_string())),
        }
        assert_eq!(pathpool_kernel::linux_cc(scheme).is_some(), scheme.runs_on(Backend::Linux));
    }
    assert_eq!(on_linux, Scheme::on(Backend::Linux).count());
}
