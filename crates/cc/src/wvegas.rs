//! wVegas (draft-xu-mptcp-congestion-control-05).
use crate::config::WVegasParams;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WVegasState {}

impl WVegasState {
    pub fn new(_p: &WVegasParams) -> Self {
        WVegasState {}
    }
}
