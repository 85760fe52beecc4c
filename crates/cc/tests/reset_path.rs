//! `reset_path`: a path slot reused by a transport starts as a fresh path (initial window,
//! no RTT, out of recovery, the algorithm's memory cleared), usable again, and the other
//! paths keep their state.

mod common;

use common::{ack, MS};
use pathpool_cc::{Algorithm, CcConfig, Controller, Signal};

#[test]
fn a_reset_path_behaves_like_a_new_one() {
    for algo in [Algorithm::Lia, Algorithm::Olia, Algorithm::Balia, Algorithm::Uncoupled(pathpool_cc::SinglePath::Reno)] {
        let mut c = Controller::new(algo, CcConfig::default(), 2);
        for i in 0..40 {
            c.on_ack(0, i * MS, ack(1.0, 20 * MS));
            c.on_ack(1, i * MS, ack(1.0, 50 * MS));
        }
        c.on_congestion(1, 40 * MS, Signal::Loss, c.cwnd(1));
        c.set_usable(1, false);
        let before0 = (c.cwnd(0), c.ssthresh(0), c.srtt(0));
        c.reset_path(1);
        assert!(c.usable().contains(1), "{algo}");
        assert_eq!(c.cwnd(1), CcConfig::default().initial_cwnd, "{algo}");
        assert_eq!(c.ssthresh(1), f64::INFINITY, "{algo}");
        assert_eq!(c.srtt(1), None, "{algo}");
        assert!(!c.in_recovery(1), "{algo}");
        assert_eq!((c.cwnd(0), c.ssthresh(0), c.srtt(0)), before0, "{algo}: path 0 untouched");
        // The same events on the reset path and on a new controller's path give the same window.
        let mut fresh = Controller::new(algo, CcConfig::default(), 2);
        fresh.set_window(0, c.cwnd(0), c.ssthresh(0));
        for i in 0..40 {
            fresh.on_ack(0, i * MS, ack(0.0, 20 * MS));
        }
        for i in 0..30 {
            c.on_ack(1, (50 + i) * MS, ack(1.0, 30 * MS));
            fresh.on_ack(1, (50 + i) * MS, ack(1.0, 30 * MS));
        }
        assert_eq!(c.cwnd(1), fresh.cwnd(1), "{algo}");
    }
}
