//! OLIA (draft-khalili-mptcp-congestion-control-05).

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OliaState {}
