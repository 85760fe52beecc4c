//! Turning packet capture on for a simulation (`crate::capture` writes the files).

use std::io::Write;

use super::Simulation;
use crate::capture::{Capture, CaptureFlow};
use crate::ids::FlowId;

impl Simulation {
    /// Starts capturing into one writer per host (see [`Capture`]); register flows with
    /// [`capture_flow`](Simulation::capture_flow).
    pub fn enable_capture(&mut self, hosts: Vec<Box<dyn Write>>) -> std::io::Result<()> {
        self.capture = Some(Box::new(Capture::new(hosts)?));
        Ok(())
    }

    /// Captures TCP flow `flow` (a TCP flow or an MPTCP subflow) as `f` describes it.
    pub fn capture_flow(&mut self, flow: FlowId, f: CaptureFlow) {
        if let Some(c) = self.capture.as_deref_mut() {
            c.register(flow, f);
        }
    }

    /// Ends the capture: writes what is pending and flushes; reports the first write error.
    pub fn finish_capture(&mut self) -> std::io::Result<()> {
        self.capture.take().map_or(Ok(()), |c| c.finish())
    }
}
