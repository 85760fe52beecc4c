//! CUBIC (RFC 9438).
use crate::config::CcConfig;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CubicState {}

impl CubicState {
    pub fn new(_cfg: &CcConfig) -> Self {
        CubicState {}
    }
}
