//! One RTT estimator per path: a transport that keeps its own (RFC 6298, for its RTO) hands
//! the controller its SRTT, and the controller reads that rather than smoothing the samples
//! it is handed with ACKs (docs/algorithms.md, "Model").

use pathpool_cc::{AckInfo, Algorithm, CcConfig, Controller, RttEstimator};

const MS: u64 = 1_000_000;

fn ack(rtt: u64) -> AckInfo {
    AckInfo { newly_acked: 1.0, rtt_sample: Some(rtt), cwnd_limited: true }
}

#[test]
fn without_a_transport_estimator_the_controller_smooths_the_samples() {
    let mut c = Controller::new(Algorithm::Lia, CcConfig::default(), 1);
    c.on_ack(0, 0, ack(100 * MS));
    c.on_ack(0, 0, ack(180 * MS));
    // RFC 6298 (2.3): 7/8 * 100 + 1/8 * 180.
    assert_eq!(c.srtt(0), Some(110 * MS));
}

#[test]
fn with_a_transport_estimator_the_controller_reads_its_srtt() {
    let mut c = Controller::new(Algorithm::Lia, CcConfig::default(), 1);
    let mut rtt = RttEstimator::default();
    // A sample only the transport saw (e.g. the full ACK that ended a recovery).
    rtt.on_sample(40 * MS);
    c.set_srtt(0, rtt.smoothed());
    assert_eq!(c.srtt(0), Some(40 * MS));
    for sample in [100 * MS, 180 * MS] {
        rtt.on_sample(sample);
        c.set_srtt(0, rtt.smoothed());
        c.on_ack(0, 0, ack(sample));
        assert_eq!(c.srtt(0), rtt.srtt(), "the controller's SRTT is the transport's");
    }
}
