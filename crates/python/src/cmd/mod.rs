//! The CLI's `detect` command and the trace CSV reader it uses, compiled from the CLI crate's
//! own files (see src/detect.rs).

#[path = "../../../cli/src/cmd/detect.rs"]
pub mod detect;
#[path = "../../../cli/src/cmd/detect_pcap.rs"]
#[allow(dead_code)]
pub mod detect_pcap;
#[path = "../../../cli/src/cmd/detect_support.rs"]
#[allow(dead_code)]
pub mod detect_support;
#[path = "../../../cli/src/cmd/detect_verdict.rs"]
#[allow(dead_code)]
pub mod detect_verdict;
#[path = "../../../cli/src/cmd/detect_truth.rs"]
pub mod detect_truth;
#[path = "../../../cli/src/cmd/trace_csv.rs"]
#[allow(dead_code)]
pub mod trace_csv;
